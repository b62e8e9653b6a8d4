"""Round clocks: the head judge starts, pauses, resumes, extends and ends them; every judge of the
event reads them. The call log's time extensions are shown per table beside the clock."""

from __future__ import annotations

import datetime as dt
import re
from typing import Annotated, Any, ClassVar, Literal, cast

from django.db import transaction
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from pydantic import BeforeValidator, Field, ValidationInfo

from calllog import services as calllog
from calllog.models import Call, Event
from engines.errors import RequestError
from engines.validation import Invalid, Shape, drop_default, read
from floor import clock
from floor.models import RoundClock
from judgeapp import numbers

ACTIONS = ("start", "pause", "resume", "add", "end")


class ClockError(ValueError):
    """A clock action refused, naming the field. `conflict`: the request is well formed but the
    round's clock is not in a state that allows it (the API answers 409, not 400)."""

    def __init__(self, field: str, message: str, *, conflict: bool = False) -> None:
        super().__init__(f"{field}: {message}")
        self.field, self.message, self.conflict = field, message, conflict


def current(event: Event) -> RoundClock | None:
    return event.clocks.order_by("-started_at", "-id").first()


def extensions_for(event: Event, round_number: int | None) -> list[dict]:
    """Time extensions the call log gave in a round, per table: [{"table", "minutes"}], most first.
    A round's clock runs for every table; a table given extra minutes plays that much longer."""
    if round_number is None:
        return []
    totals: dict[str, int] = {}
    for table, minutes in Call.objects.filter(
        event=event, round=round_number, time_extension__gt=0
    ).values_list("table", "time_extension"):
        key = table.strip() or "?"
        # time_extension__gt=0: never null here
        totals[key] = totals.get(key, 0) + cast(int, minutes)
    return [
        {"table": t, "minutes": m}
        for t, m in sorted(totals.items(), key=lambda item: (-item[1], item[0]))
    ]


def state_of(found: RoundClock | None, now=None) -> dict:
    now = now or timezone.now()
    if found is None:
        return {
            "state": "none",
            "round": None,
            "minutes": None,
            "seconds_left": None,
            "ends_at": None,
            "warning": None,
            "started_at": None,
            "server_time": now.isoformat(),
            "warnings": list(clock.WARNINGS),
        }
    s = clock.clock_state(
        minutes=found.minutes,
        started_at=found.started_at,
        now=now,
        paused_at=found.paused_at,
        paused_seconds=found.paused_seconds,
        ended_at=found.ended_at,
    )
    return {
        "state": s.state,
        "round": found.round,
        "minutes": found.minutes,
        "seconds_left": round(s.seconds_left, 1),
        "ends_at": s.ends_at.isoformat() if s.ends_at else None,
        "warning": s.warning,
        "started_at": found.started_at.isoformat(),
        "server_time": now.isoformat(),
        "warnings": list(clock.WARNINGS),
        "extensions": extensions_for(found.event, found.round),
    }


def _whole(value: Any, low: int, high: int) -> int:
    number = numbers.whole(value, floats=False)
    if number is None or not low <= number <= high:
        raise Invalid(f"a whole number from {low} to {high}")
    return number


def _action(value: Any) -> str:
    if value not in ACTIONS:
        raise Invalid(f"one of {', '.join(ACTIONS)}")
    return cast(str, value)


def _action_of(info: ValidationInfo) -> str | None:
    return info.data.get("action")  # None: the action was refused, and that error is reported


def _round(value: Any, info: ValidationInfo) -> int | None:
    if _action_of(info) != "start" or value in (None, ""):
        return None
    return _whole(value, 1, 99)


def _minutes(value: Any, info: ValidationInfo) -> int | None:
    action = _action_of(info)
    if action == "start":
        return 50 if value in (None, "") else _whole(value, 1, 240)
    if action == "add":
        return 1 if value in (None, "") else _whole(value, 1, 60)
    return None


def _started_at(value: Any, info: ValidationInfo) -> dt.datetime | None:
    """When a round was started on a tablet that was offline at the time (its queued
    request says)."""
    if _action_of(info) != "start" or value in (None, ""):
        return None
    try:
        moment = parse_datetime(value) if isinstance(value, str) else None
    except ValueError:  # well formed but not a real time, e.g. 2025-02-30T10:00:00Z
        moment = None
    if moment is None or timezone.is_naive(moment):
        raise Invalid("a time with its zone, like 2026-11-24T10:00:00Z")
    return moment


def _client_id(value: Any, info: ValidationInfo) -> str | None:
    """The id a tablet gave an extension it queued while offline (its queue's client_id)."""
    if _action_of(info) != "add" or value in (None, ""):
        return None
    if not isinstance(value, str) or not re.fullmatch(r"[0-9A-Za-z-]{8,64}", value):
        raise Invalid("an id of 8 to 64 letters, digits and dashes, like a UUID")
    return value


def _restart(value: Any, info: ValidationInfo) -> bool:
    if _action_of(info) != "start" or value in (None, ""):
        return False
    if not isinstance(value, bool):
        raise Invalid("true or false")
    return value


class ClockRequest(Shape):
    """POST /api/v1/events/{id}/clock: a head judge's action on the round clock. Read in this order;
    round, minutes, started_at and client_id are read only for the actions that take them."""

    not_object: ClassVar[str] = f"one of {', '.join(ACTIONS)}"
    action: Annotated[Literal["start", "pause", "resume", "add", "end"], BeforeValidator(_action)]
    round: Annotated[Annotated[int, Field(ge=1, le=99)] | None, BeforeValidator(_round)] = Field(
        default=None, description="start: the round's number (default: the last round's + 1)"
    )
    minutes: Annotated[Annotated[int, Field(ge=1, le=240)] | None, BeforeValidator(_minutes)] = (
        Field(
            default=None,
            validate_default=True,
            json_schema_extra=drop_default,
            description=(
                "start: the round's length, 1 to 240 (default 50); add: minutes added, 1 to "
                "60 (default 1)"
            ),
        )
    )
    started_at: Annotated[dt.datetime | None, BeforeValidator(_started_at)] = Field(
        default=None,
        description="start: when it was started on a tablet that was offline then, with its zone, "
        "within the last four hours (default: now)",
    )
    client_id: Annotated[
        Annotated[str, Field(pattern=r"^[0-9A-Za-z-]{8,64}$")] | None, BeforeValidator(_client_id)
    ] = Field(
        default=None,
        description="add: the id a tablet gave the extension it queued while offline; the same id "
        "sent again adds nothing",
    )
    restart: Annotated[bool, BeforeValidator(_restart)] = Field(
        default=False,
        description="start: true to start again a round that is running or paused (refused "
        "without it, so a second tap on Start never restarts a round at full time)",
    )


def read_clock_request(body: Any) -> ClockRequest:
    """The request read and checked; ClockError names the field ("body" for a body that is not an
    object)."""
    try:
        return read(ClockRequest, body)
    except RequestError as exc:
        raise ClockError(exc.field, exc.message) from None


def act(user, event: Event, body: Any) -> dict:
    """A head judge's action on the event's clock (ClockRequest); the clock's state after it. A
    start may carry the time it was made on a tablet that was offline then (`started_at`)."""
    calllog.require_head(user, event, "run the round clock")
    asked = read_clock_request(body)
    action = asked.action
    now = timezone.now()
    with transaction.atomic():
        found = (
            RoundClock.objects.select_for_update()
            .filter(event=event)
            .order_by("-started_at", "-id")
            .first()
        )
        if action == "start":
            last = found.round if found else 0
            number = last + 1 if asked.round is None else asked.round
            length = cast(int, asked.minutes)  # a start's minutes: given or 50
            begun = asked.started_at or now
            if begun > now + dt.timedelta(minutes=5) or begun < now - dt.timedelta(hours=4):
                raise ClockError("started_at", "within the last four hours")
            same = RoundClock.objects.filter(event=event, round=number, started_at=begun).first()
            if same is not None:  # the same queued start sent twice
                return state_of(same, now)
            if found is not None and begun < found.started_at:
                # A start queued on a tablet offline, arriving after another judge's later start:
                # the later start stands (the newest start is the clock every tablet shows).
                raise ClockError(
                    "started_at",
                    f"round {found.round} was started at {found.started_at:%H:%M:%S} UTC, after "
                    f"this start was made ({begun:%H:%M:%S} UTC): the later start stands",
                    conflict=True,
                )
            under_way = state_of(found, now)["state"] if found is not None else "none"
            if found is not None and under_way in ("running", "paused") and not asked.restart:
                # Every tablet follows the clock: a second tap on Start must not put a round that
                # is under way back to full time.
                raise ClockError(
                    "restart",
                    f"round {found.round} is {under_way}: end it first, or send restart: true "
                    "to start again",
                    conflict=True,
                )
            if found is not None and under_way in ("running", "paused"):
                found.ended_at = now  # restarted: the round under way stops where it was
                found.save(update_fields=["ended_at"])
            found = RoundClock.objects.create(
                event=event, round=number, minutes=length, started_at=begun, started_by=user
            )
            return state_of(found, now)
        if found is None:
            raise ClockError("action", "no round clock is started at this event", conflict=True)
        running = state_of(found, now)["state"]
        if action == "pause":
            if running != "running":
                raise ClockError("action", f"the clock is {running}, not running", conflict=True)
            found.paused_at = now
        elif action == "resume":
            if running != "paused":
                raise ClockError("action", f"the clock is {running}, not paused", conflict=True)
            # paused: set
            found.paused_seconds += (now - cast(dt.datetime, found.paused_at)).total_seconds()
            found.paused_at = None
        elif action == "add":
            if running in ("ended",):
                raise ClockError("action", "the round's clock was ended", conflict=True)
            if asked.client_id is not None and asked.client_id in found.added_by_client:
                return state_of(found, now)  # the same queued extension sent twice
            found.minutes += cast(int, asked.minutes)  # an add's minutes: given or 1
            if asked.client_id is not None:
                found.added_by_client = [*found.added_by_client, asked.client_id]
        elif action == "end":
            found.ended_at = now
        found.save()
    return state_of(found, now)
