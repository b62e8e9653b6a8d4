"""Old rule numbers lead to the new ones: judges quote numbers from articles and older printouts.

A number that a version does not have, but another stored version of the same document does,
answers with where that rule stands in the version asked for, through the trace (rulesref.changes):
"725.3 in the CR of 2022-04-29 is now 729.3". The API puts it in a 404's details
(`"now": {"number", "version"}`, docs/API.md), the jump box and the rule page open the rule it
became with that line above it, and `?as_of=` with a number of another era answers the same.

Versions are tried nearest first (the newest earlier one, then later ones), and only a rule that
the trace follows into the version asked for counts: a number that was removed leads nowhere.
"""

from __future__ import annotations

from rulesref import changes
from rulesref.models import Version


def where_now(version: Version, number: str) -> dict | None:
    """{"number", "version", "from": {"number", "version"}} for a number `version` lacks,
    or None."""
    if not number or version.rules.filter(number=number).exists():
        return None
    others = [v for v in changes.stored_versions(version) if v.pk != version.pk]
    earlier = sorted(
        (v for v in others if v.effective_date < version.effective_date),
        key=lambda v: v.effective_date,
        reverse=True,
    )
    later = sorted(
        (v for v in others if v.effective_date > version.effective_date),
        key=lambda v: v.effective_date,
    )
    for other in [*earlier, *later]:
        if not other.rules.filter(number=number).exists():
            continue
        mapping = changes.stored_mapping(other, version)
        found = (
            mapping.get(number) if mapping is not None else changes.follow(other, version, number)
        )
        if found and version.rules.filter(number=found).exists():
            return {
                "number": found,
                "version": version.effective_date.isoformat(),
                "from": {"number": number, "version": other.effective_date.isoformat()},
            }
    return None


def sentence(doc: str, now: dict) -> str:
    """ "725.3 in the CR of 2022-04-29 is now 729.3" (or "was" when the old number is the
    later one)."""
    old = now["from"]
    verb = "is now" if old["version"] < now["version"] else "was"
    return f"{old['number']} in the {doc.upper()} of {old['version']} {verb} {now['number']}"
