"""Time left on a round clock, from its record and the time now. Pure."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

WARNINGS = (10, 5)  # minutes left at which every judge's tablet warns


@dataclass(frozen=True)
class ClockState:
    state: str  # "running", "paused", "over" (time ran out) or "ended" (ended by hand)
    seconds_left: float  # never below 0
    ends_at: dt.datetime | None  # when it runs out if nobody pauses it (None unless running)
    warning: int | None  # the last warning passed (10, 5) while time remains; None before the first


def clock_state(
    *,
    minutes: int,
    started_at: dt.datetime,
    now: dt.datetime,
    paused_at: dt.datetime | None = None,
    paused_seconds: float = 0.0,
    ended_at: dt.datetime | None = None,
) -> ClockState:
    """Where a round clock stands at `now`: the round's `minutes` less the time it has run (the time
    since `started_at` less every pause, the one under way included)."""
    stop = min(x for x in (now, ended_at, paused_at) if x is not None)
    ran = max(0.0, (stop - started_at).total_seconds() - paused_seconds)
    left = max(0.0, minutes * 60 - ran)
    warning = next((w for w in sorted(WARNINGS) if 0 < left <= w * 60), None)
    if ended_at is not None and ended_at <= now:
        return ClockState("ended", left, None, None)
    if left <= 0:
        return ClockState("over", 0.0, None, None)
    if paused_at is not None:
        return ClockState("paused", left, None, warning)
    return ClockState("running", left, now + dt.timedelta(seconds=left), warning)
