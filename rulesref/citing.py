"""The registry of what the product cites: features that pin rule references register them here at
start-up (their AppConfig.ready), so the rules reference knows which references a new version moves
without importing those features. rulesref imports nothing of the judge apps; they call in.

Two kinds of entry, both keyed by an owner name (re-registering an owner replaces its entry):
- references: `register_references(owner, refs)`, with refs an iterable of pinned references
  ("cr@2025-02-07:729.4") or a callable returning one, read when asked (so a feature whose data is
  read from files, like the guides, does not read them at start-up);
- affected items: `register_affected(owner, provider)`, with provider(baseline, version) -> list of
  dicts describing what of the owner's a new version moves (the guides' nodes, for the
  curation review).
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable, Iterable
from typing import cast

# A pinned reference: doc@date:number. The part after the colon is a rule number, or — for documents
# without numbers, like the JAR — a section title, matched case-insensitively in the pinned version.
# (rulesref.references re-exports it; kept here so the registry imports nothing that imports
# it back.)
REF_PATTERN = re.compile(
    r"^(?P<doc>cr|mtr|ipg|jar)@(?P<date>\d{4}-\d{2}-\d{2}):(?P<number>[^\s:@][^:@]*)$"
)

References = Iterable[str] | Callable[[], Iterable[str]]
AffectedProvider = Callable[[object, object], list[dict]]

_references: dict[str, References] = {}
_affected: dict[str, AffectedProvider] = {}


def register_references(owner: str, refs: References) -> None:
    """Record the pinned references `owner` cites; a malformed one is refused at once
    (ValueError)."""
    if not callable(refs):
        refs = tuple(refs)
        _check(owner, refs)
    _references[owner] = refs


def register_affected(owner: str, provider: AffectedProvider) -> None:
    """Record how to list what of `owner`'s a new version moves: provider(baseline, version)
    -> [dict]."""
    _affected[owner] = provider


def known_references() -> list[str]:
    """Every pinned reference any registered owner cites, sorted and without duplicates."""
    found: set[str] = set()
    for owner, refs in list(_references.items()):
        # register_references keeps a tuple
        values = tuple(refs()) if callable(refs) else cast(tuple[str, ...], refs)
        _check(owner, values)
        found.update(values)
    return sorted(found)


def pinned_dates(doc: str) -> set[dt.date]:
    """The dates of the versions of `doc` that some registered reference is pinned to (their
    pairings with the current version are kept ready: rulesref.changes.pair_document)."""
    return {
        dt.date.fromisoformat(match["date"])
        for ref in known_references()
        if (match := REF_PATTERN.match(ref)) is not None and match["doc"] == doc
    }


def affected_by(baseline, version) -> list[dict]:
    """What every registered owner has that moves or changes between baseline and version."""
    rows: list[dict] = []
    for provider in list(_affected.values()):
        rows += provider(baseline, version)
    return rows


def cited_by(owner: str) -> tuple[str, ...]:
    """The pinned references one owner registered (none for an owner that registered none)."""
    refs = _references.get(owner, ())
    return tuple(refs()) if callable(refs) else tuple(refs)


def owners() -> list[str]:
    return sorted(set(_references) | set(_affected))


def _check(owner: str, refs: tuple[str, ...]) -> None:
    bad = [ref for ref in refs if not isinstance(ref, str) or not REF_PATTERN.match(ref)]
    if bad:
        raise ValueError(
            f"{owner} cites malformed references: {', '.join(map(repr, bad))} "
            "(expected doc@YYYY-MM-DD:number, e.g. cr@2025-02-07:729.4)"
        )
