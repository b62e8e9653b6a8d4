"""Change services: diffs between stored versions, traces through renumbering, rule history.

Wraps the pure differ (rulesref.diffing) with the database: pairings of two versions are
computed once and kept in VersionPairing.
"""

from __future__ import annotations

from rulesref.models import Version


def diff_versions(old: Version, new: Version) -> dict:
    """API.md diff: {"added", "removed", "changed", "moved": [{"from", "to"}], ...}."""
    raise NotImplementedError


def release_notes(old: Version, new: Version) -> list[dict]:
    """Readable items for admins and the "what changed" page: [{"kind", "number", "old_number", "title", "summary", "html"}]."""
    raise NotImplementedError


def trace(version: Version, number: str) -> list[dict]:
    """The rule through every stored (published or pending) version: [{"effective_date", "number", "text"}]."""
    raise NotImplementedError


def rule_history(version: Version, number: str) -> dict:
    """For a rule page: {"changed_in": [dates where its text changed], "was": [{"number", "effective_date"}] }."""
    raise NotImplementedError


def follow(old: Version, new: Version, number: str) -> str | None:
    """Where rule `number` of `old` is in `new` (None when removed)."""
    raise NotImplementedError
