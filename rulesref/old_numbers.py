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


# Rule numbers of each earlier version -> their numbers in a later one, composed from the stored
# pairings of neighbouring versions: {key: {earlier version pk: {old number: new number}}}. Stored
# pairings never change, so an entry is good for as long as the same pairings exist.
_composed: dict[tuple, dict[int, dict[str, str]]] = {}


def _into(versions: list[Version]) -> dict[int, dict[str, str]]:
    """For each of versions[:-1], its numbers -> their numbers in versions[-1], as far back as
    neighbouring pairings are stored (never computed here: a rule page must stay fast)."""
    from rulesref.models import VersionPairing

    ids = [v.pk for v in versions]
    wanted = set(zip(ids, ids[1:]))
    rows = VersionPairing.objects.filter(old_id__in=ids[:-1], new_id__in=ids[1:]).values_list(
        "pk", "old_id", "new_id"
    )
    pairs = {(o, n): pk for pk, o, n in rows if (o, n) in wanted}
    key = (ids[-1], tuple(sorted(pairs.items())))
    if key in _composed:
        return _composed[key]
    mappings = dict(
        ((o, n), m)
        for o, n, m in VersionPairing.objects.filter(pk__in=pairs.values()).values_list(
            "old_id", "new_id", "mapping"
        )
    )
    composed: dict[int, dict[str, str]] = {}
    later: dict[str, str] | None = None  # None: the identity (the last version itself)
    for old, new in reversed(list(zip(ids, ids[1:]))):
        step = mappings.get((old, new))
        if step is None:
            break
        onward = {n: t if later is None else later.get(t) for n, t in step.items()}
        later = {n: t for n, t in onward.items() if t is not None}
        composed[old] = later
    if len(_composed) > 8:
        _composed.clear()
    _composed[key] = composed
    return composed


def reused(version: Version, number: str) -> list[dict]:
    """Where `number` named another rule in earlier versions: a judge's older printout or article
    quoting "719.3" (Taking Shortcuts in 2017, now 729.3) opens today's 719.3, another rule.

    [{"number", "from", "until", "now"}], oldest first: the earliest and latest version (dates) in
    which `number` named a rule that is `now` in `version` (None: removed since); consecutive
    versions with the same rule are one entry. Only as far back as stored pairings reach."""
    from rulesref import changes
    from rulesref.models import Rule

    versions = changes.stored_versions(version)
    start = next((i for i, v in enumerate(versions) if v.pk == version.pk), None)
    if not start:
        return []
    earlier = versions[:start]
    having = set(
        Rule.objects.filter(version__in=earlier, number=number).values_list("version_id", flat=True)
    )
    if not having:
        return []
    composed = _into(versions[: start + 1])
    found: list[dict] = []
    last = -2  # the place in `earlier` of the version the last entry reaches
    for place, other in enumerate(earlier):
        if other.pk not in having or other.pk not in composed:
            continue
        now = composed[other.pk].get(number)
        if now == number:
            continue
        date = other.effective_date.isoformat()
        if found and found[-1]["now"] == now and last == place - 1:
            found[-1]["until"] = date
        else:
            found.append({"number": number, "from": date, "until": date, "now": now})
        last = place
    return found
