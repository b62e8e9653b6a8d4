"""Following a rule across versions: where a pinned rule went, and its trace through every
stored version."""

from __future__ import annotations

import bisect
import datetime as dt
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from rulesref.diffing.pairing import pair_rules
from rulesref.diffing.records import CR_PROFILE, DiffProfile, DiffRule, TraceStep

# ---------------------------------------------------------------------------------------------
# Following a rule across versions


def follow_rule(
    old: Mapping[str, DiffRule],
    new: Mapping[str, DiffRule],
    number: str,
    *,
    profile: DiffProfile = CR_PROFILE,
) -> str | None:
    """The number in `new` of rule `number` of `old`; None when it was removed.

    Raises KeyError when `old` has no such rule (a pinned reference naming nothing).
    """
    if number not in old:
        raise KeyError(number)
    return pair_rules(old, new, profile).get(number)


def follow_through(mappings: Sequence[Mapping[str, str]], number: str | None) -> str | None:
    """Chain consecutive pairings (v0->v1, v1->v2, ...): where `number` of v0 ends up, or None."""
    for mapping in mappings:
        if number is None:
            return None
        number = mapping.get(number)
    return number


Version = tuple[dt.date, Mapping[str, DiffRule]]


def version_index(versions: Sequence[Version], at: dt.date) -> int:
    """The version in effect on `at` (the newest with effective_date <= at). ValueError if none."""
    dates = [date for date, _ in versions]
    if dates != sorted(dates):
        raise ValueError("versions must be ordered oldest first")
    i = bisect.bisect_right(dates, at) - 1
    if i < 0:
        raise ValueError(f"no version is in effect on {at.isoformat()}")
    return i


@dataclass
class PairingCache:
    """Consecutive pairings for a list of versions, computed on demand and kept; a service can
    seed it with stored mappings (`known[i]` pairs version i with version i + 1)."""

    versions: Sequence[Version]
    profile: DiffProfile = CR_PROFILE
    known: dict[int, Mapping[str, str]] = field(default_factory=dict)

    def forward(self, i: int) -> Mapping[str, str]:
        if i not in self.known:
            self.known[i] = pair_rules(self.versions[i][1], self.versions[i + 1][1], self.profile)
        return self.known[i]

    def backward(self, i: int) -> dict[str, str]:
        return {n: o for o, n in self.forward(i).items()}


def trace_rule(
    versions: Sequence[Version],
    number: str,
    at: dt.date,
    *,
    pairings: PairingCache | Sequence[Mapping[str, str] | None] | None = None,
    profile: DiffProfile = CR_PROFILE,
) -> list[TraceStep]:
    """Rule `number` of the version in effect on `at`, through every version (oldest first).

    Steps follow consecutive pairings backward and forward, so a rule renumbered twice
    (719 -> 722 -> 725 -> 729) is followed through each renumbering; a version where the rule does
    not exist has number None and text None, and the trail stops on that side. `pairings` may
    hold precomputed consecutive mappings (None for unknown ones). Raises KeyError when that
    version has no rule `number`, ValueError when no version is in effect on `at`.
    """
    cache = _as_cache(versions, pairings, profile)
    start = version_index(versions, at)
    if number not in versions[start][1]:
        raise KeyError(number)
    numbers: list[str | None] = [None] * len(versions)
    numbers[start] = number
    for i in range(start + 1, len(versions)):
        previous = numbers[i - 1]
        if previous is None:
            break
        numbers[i] = cache.forward(i - 1).get(previous)
    for i in range(start - 1, -1, -1):
        following = numbers[i + 1]
        if following is None:
            break
        numbers[i] = cache.backward(i).get(following)
    return [
        TraceStep(date, n, rules[n].text if n is not None else None)
        for (date, rules), n in zip(versions, numbers)
    ]


def _as_cache(
    versions: Sequence[Version],
    pairings: PairingCache | Sequence[Mapping[str, str] | None] | None,
    profile: DiffProfile,
) -> PairingCache:
    if isinstance(pairings, PairingCache):
        return pairings
    known = {i: m for i, m in enumerate(pairings or ()) if m is not None}
    return PairingCache(versions, profile, known)
