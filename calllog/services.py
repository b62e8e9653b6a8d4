"""Call-log services: events and their judges, the call request read and checked
(recording.record_call stores it, with penalty upgrades by count), player histories, investigation
notes, and who may see what.

Who sees what: an event's judges (EventJudge rows) read its calls and player histories; anyone else
gets Http404, never 403, so an event's existence does not leak. Among the event's judges, only head
judges add judges, read and write investigation notes and export. Views and the API call these.
"""

from __future__ import annotations

import datetime as dt
import uuid
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Annotated, Any, Literal

from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.db.models import QuerySet
from django.http import Http404
from django.utils import timezone
from django.utils.dateparse import parse_date, parse_datetime
from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    ValidationInfo,
    field_validator,
    model_validator,
)

from calllog import penalties
from calllog.models import Call, Event, EventJudge
from judgeapp import numbers

MAX_PLAYERS = 8
MAX_ANSWERS = 500


class InvalidCall(Exception):
    """Bad input, naming the field; nothing was stored."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message


class ClientIdConflict(Exception):
    """A client_id already used at this event for a different call (a client bug, not a retry)."""

    def __init__(self, existing: Call) -> None:
        super().__init__(
            f"client_id {existing.client_id} is already call #{existing.pk} with other answers"
        )
        self.existing = existing


def player_key(name: str) -> str:
    """Player names match however the tablet spelled their case and spaces."""
    return " ".join(str(name).split()).casefold()


# --- events and judges --------------------------------------------------------------------------


def my_events(user) -> QuerySet[Event]:
    return Event.objects.filter(memberships__judge=user).select_related("head_judge").distinct()


def _date_or_none(raw: Any) -> dt.date | None:
    """A date like 2026-11-22; None for anything else, 2025-02-30 included (parse_date raises
    on it)."""
    try:
        return parse_date(raw) if isinstance(raw, str) else None
    except ValueError:
        return None


def _datetime_or_none(raw: Any) -> dt.datetime | None:
    try:
        return parse_datetime(raw) if isinstance(raw, str) else None
    except ValueError:
        return None


def _event_name(name: Any) -> str:
    if not isinstance(name, str) or not name.strip():
        raise InvalidCall("name", "the event needs a name")
    if len(name.strip()) > 200:
        raise InvalidCall("name", "at most 200 characters")
    return name.strip()


def _event_date(date: Any) -> dt.date:
    day = date if isinstance(date, dt.date) else _date_or_none(date)
    if day is None:
        raise InvalidCall("date", "a date like 2026-11-22")
    return day


def _one_of(field: str, values: list[str]) -> Any:
    def check(value: Any) -> Any:
        if value not in values:
            raise InvalidCall(field, f"one of {', '.join(values)}")
        return value

    return check


class EventRequest(BaseModel):
    """POST /api/v1/events (and the HTML form): the event a judge opens, as its head judge. Read in
    this order; InvalidCall names the field."""

    model_config = ConfigDict(extra="ignore", title="EventRequest")
    name: Annotated[str, Field(min_length=1, max_length=200), BeforeValidator(_event_name)]
    date: Annotated[dt.date, BeforeValidator(_event_date)]
    rel: Annotated[
        Literal["regular", "competitive", "professional"],
        BeforeValidator(_one_of("rel", Event.Rel.values)),
    ] = Field(default="competitive", description="the event's Rules Enforcement Level")


def _username(username: Any) -> str:
    if not isinstance(username, str) or not username.strip():
        raise InvalidCall("username", "the judge's username")
    return username.strip()


class JudgeRequest(BaseModel):
    """POST /api/v1/events/{id}/judges (and the HTML form): a judge added to the event, or a
    role changed."""

    model_config = ConfigDict(extra="ignore", title="JudgeRequest")
    role: Annotated[
        Literal["head", "floor"], BeforeValidator(_one_of("role", EventJudge.Role.values))
    ] = Field(default="floor")
    username: Annotated[str, Field(min_length=1), BeforeValidator(_username)]


def _notes(notes: Any) -> str:
    if not isinstance(notes, str) or len(notes) > 20_000:
        raise InvalidCall("investigation_notes", "text, at most 20000 characters")
    return notes


class NotesRequest(BaseModel):
    """PUT/PATCH /api/v1/events/{id}/calls/{call_id}/notes (and the HTML form): head judges only."""

    model_config = ConfigDict(extra="ignore", title="NotesRequest")
    investigation_notes: Annotated[str, Field(max_length=20_000), BeforeValidator(_notes)]


def open_event(user, *, name: Any, date: Any, rel: Any = Event.Rel.COMPETITIVE) -> Event:
    """Any signed-in judge opens an event and becomes its head judge."""
    if not getattr(user, "is_authenticated", False):
        raise PermissionDenied("sign in to open an event")
    asked = EventRequest.model_validate({"name": name, "date": date, "rel": rel})
    with transaction.atomic():
        event = Event.objects.create(
            name=asked.name, date=asked.date, rel=asked.rel, head_judge=user
        )
        EventJudge.objects.create(event=event, judge=user, role=EventJudge.Role.HEAD)
    return event


def role_of(user, event: Event) -> str | None:
    if not getattr(user, "is_authenticated", False):
        return None
    return EventJudge.objects.filter(event=event, judge=user).values_list("role", flat=True).first()


def event_for(user, event_id: Any) -> Event:
    """The event, when `user` is one of its judges; Http404 otherwise (also for events that do
    not exist)."""
    try:
        pk = int(event_id)
    except (TypeError, ValueError):
        raise Http404("No such event.") from None
    event = Event.objects.filter(pk=pk).select_related("head_judge").first()
    if event is None or role_of(user, event) is None:
        raise Http404("No such event.")
    return event


def is_head(user, event: Event) -> bool:
    return role_of(user, event) == EventJudge.Role.HEAD


def require_head(user, event: Event, what: str) -> None:
    if not is_head(user, event):
        raise PermissionDenied(f"only the event's head judges {what}")


def judges_of(event: Event) -> QuerySet[EventJudge]:
    return event.memberships.select_related("judge").order_by("-role", "judge__username")


def add_judge(
    user, event: Event, *, username: Any, role: Any = EventJudge.Role.FLOOR
) -> EventJudge | None:
    """A head judge adds a judge by username (or changes the role of one already there).

    Whether an account exists is not a head judge's to learn (issue 29): for an unknown username
    this returns None and stores nothing, and the API and the page answer as they do for a judge
    added. Staff, who make the accounts, are told (InvalidCall)."""
    require_head(user, event, "add judges")
    asked = JudgeRequest.model_validate({"role": role, "username": username})
    role = asked.role
    judge = get_user_model().objects.filter(username=asked.username, is_active=True).first()
    if judge is None:
        if getattr(user, "is_staff", False):
            raise InvalidCall("username", f"no judge has the username {asked.username!r}")
        return None
    membership, created = EventJudge.objects.get_or_create(
        event=event, judge=judge, defaults={"role": role}
    )
    if not created and membership.role != role and judge.pk != event.head_judge_id:
        membership.role = role
        membership.save(update_fields=["role"])
    return membership


# --- calls --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class CallRequest:
    client_id: uuid.UUID
    guide: str
    answers: list
    conclusion: str
    table: str
    round: int | None
    day: int
    players: list[str]
    offender: str
    created_at: dt.datetime | None


# The call's request model: each field's check raises InvalidCall naming the field (it is no
# ValueError, so the first one stops the reading, in field order); the model also describes the
# request for the schema.


def _client_id(value: Any) -> uuid.UUID:
    try:
        return uuid.UUID(str(value))
    except ValueError:
        raise InvalidCall("client_id", "a UUID made by the tablet for this call") from None


def _guide(value: Any) -> str:
    if not isinstance(value, str) or not value:
        raise InvalidCall("guide", "the guide's slug")
    return value


def _answers(value: Any) -> list:
    if not isinstance(value, list) or len(value) > MAX_ANSWERS:
        raise InvalidCall("answers", f"a list of at most {MAX_ANSWERS} answers")
    return value


def _conclusion(value: Any) -> str:
    value = value or ""
    if not isinstance(value, str):
        raise InvalidCall("conclusion", "the conclusion's node id")
    return value


def _table(value: Any) -> str:
    if value is None:
        value = ""
    if isinstance(value, bool) or not isinstance(value, (str, int)) or len(str(value).strip()) > 20:
        raise InvalidCall("table", "a table number or name (at most 20 characters)")
    return str(value).strip()


def _players(value: Any) -> list[str]:
    if (
        not isinstance(value, list)
        or len(value) > MAX_PLAYERS
        or not all(
            isinstance(p, str) and p.strip() and len(p) <= 200 and "/" not in p for p in value
        )
    ):
        raise InvalidCall("players", f"a list of up to {MAX_PLAYERS} player names (without '/')")
    return [" ".join(p.split()) for p in value]


def _created_at(value: Any) -> dt.datetime | None:
    if value in (None, ""):
        return None
    when = _datetime_or_none(value)
    if when is None:
        raise InvalidCall("created_at", "an ISO 8601 time, e.g. 2026-11-22T14:05:00Z")
    return timezone.make_aware(when, dt.UTC) if timezone.is_naive(when) else when


def _no_default(schema: dict[str, Any]) -> None:
    schema.pop("default", None)  # a missing value is refused by the field's own check


PlayerName = Annotated[str, Field(min_length=1, max_length=200, pattern=r"^[^/]*$")]


class CallRequestModel(BaseModel):
    """POST /api/v1/events/{id}/calls: a call from a guide walk. Read like ``dict.get``, in
    this order."""

    model_config = ConfigDict(extra="ignore")
    client_id: Annotated[
        uuid.UUID,
        BeforeValidator(_client_id),
        Field(
            description="made by the tablet for this call: a second POST with it is the same call"
        ),
    ]
    guide: Annotated[str, BeforeValidator(_guide)] = Field(
        default=None,
        validate_default=True,
        json_schema_extra=_no_default,
        description="the guide's slug",
    )
    answers: Annotated[list[Any], Field(max_length=MAX_ANSWERS), BeforeValidator(_answers)] = Field(
        default_factory=list, description="the answers given in the guide, in order"
    )
    conclusion: Annotated[str, BeforeValidator(_conclusion)] = Field(
        default="", description="the conclusion's node id the answers must reach"
    )
    table: Annotated[str | int | None, BeforeValidator(_table)] = Field(
        default="", description="a table number or name (at most 20 characters)"
    )
    round: Annotated[
        Annotated[int, Field(ge=0, le=1000)] | None,
        BeforeValidator(lambda v: whole_number(v, "round", minimum=0, maximum=1000, default=None)),
    ] = None
    day: Annotated[
        int,
        Field(ge=1, le=30),
        BeforeValidator(lambda v: whole_number(v, "day", minimum=1, maximum=30, default=1) or 1),
    ] = 1
    players: Annotated[
        list[PlayerName], Field(max_length=MAX_PLAYERS), BeforeValidator(_players)
    ] = Field(default_factory=list)
    offender: Annotated[str, Field(max_length=200, pattern=r"^[^/]*$")] | None = Field(
        default=None,
        validate_default=True,
        description="who receives the penalty: one of the players (default: the first)",
    )
    created_at: Annotated[dt.datetime | None, BeforeValidator(_created_at)] = None

    @model_validator(mode="before")
    @classmethod
    def _object(cls, body: Any) -> Any:
        if not isinstance(body, Mapping):
            raise InvalidCall("body", "the request body must be a JSON object")
        return body if "client_id" in body else {**body, "client_id": ""}

    @field_validator("offender", mode="before")
    @classmethod
    def _offender(cls, offender: Any, info: ValidationInfo) -> str:
        players: list[str] = info.data.get("players", [])
        if offender is None or offender == "":
            offender = players[0] if players else ""
        if not isinstance(offender, str) or len(offender) > 200 or "/" in offender:
            raise InvalidCall("offender", "the name of the player who receives the penalty")
        offender = " ".join(offender.split())
        if players and player_key(offender) not in {player_key(p) for p in players}:
            raise InvalidCall("offender", "must be one of the players")
        return offender

    def request(self) -> CallRequest:
        table = "" if self.table is None else str(self.table)
        return CallRequest(
            self.client_id,
            self.guide,
            self.answers,
            self.conclusion,
            table,
            self.round,
            self.day,
            self.players,
            self.offender or "",
            self.created_at,
        )


def read_call_request(body: Any) -> CallRequest:
    """The tablet's call (see calllog.api for the shape), checked field by field: InvalidCall names
    the field."""
    return CallRequestModel.model_validate(body).request()


def whole_number(
    value: Any, name: str, *, minimum: int, maximum: int, default: int | None
) -> int | None:
    if value is None or value == "":
        return default
    number = numbers.whole(value)
    if number is None:
        if isinstance(value, float):  # 2.5, or 1e400 read as infinity
            raise InvalidCall(name, f"a whole number from {minimum} to {maximum}")
        raise InvalidCall(name, "a whole number")
    if not minimum <= number <= maximum:
        raise InvalidCall(name, f"a whole number from {minimum} to {maximum}")
    return number


def _offenses(event: Event, offender: str) -> list[penalties.Offense]:
    rows = Call.objects.filter(event=event, offender_key=player_key(offender)).exclude(
        infraction=""
    )
    return [offense_of(c, event.rel) for c in rows]


def offense_of(call: Call, rel: str, *, given: bool = True) -> penalties.Offense:
    """A stored call as the upgrade count reads it: with the penalty it records (`given`), or as
    a new offense whose penalty is to be counted."""
    return penalties.Offense(
        call.infraction,
        call.category,
        call.base_penalty,
        rel,
        call.day,
        call.penalty if given else "",
        call.round,
    )


def preview_penalty(
    user,
    event: Event,
    *,
    player: str,
    infraction: str,
    category: str = "",
    penalty: str,
    day: int = 1,
    round: int | None = None,
) -> penalties.UpgradeResult:
    """What the penalty would be for this player now (the guide page says so before the call
    is saved); with the round, the saved call's note too when it is a second Game Loss in that
    round (IPG 1.1: only one of several given at the same time is received)."""
    event_for(user, event.pk)
    return penalties.apply_upgrades(
        _offenses(event, player),
        penalties.Offense(infraction, category, penalty, event.rel, day, round=round),
    )


def list_calls(user, event: Event) -> QuerySet[Call]:
    event_for(user, event.pk)
    return event.calls.select_related("judge").order_by("created_at", "id")


def get_call(user, event: Event, call_id: Any) -> Call:
    event_for(user, event.pk)
    try:
        return event.calls.select_related("judge").get(pk=int(call_id))
    except (TypeError, ValueError, Call.DoesNotExist):
        raise Http404("No such call.") from None


def set_notes(user, event: Event, call: Call, notes: Any) -> Call:
    """Investigation notes: head judges only."""
    require_head(user, event, "keep investigation notes")
    notes = NotesRequest.model_validate({"investigation_notes": notes}).investigation_notes
    Call.objects.filter(pk=call.pk, event=event).update(investigation_notes=notes)
    call.refresh_from_db(fields=["investigation_notes"])
    return call


def calls_for_export(user, event: Event) -> QuerySet[Call]:
    require_head(user, event, "export the calls")
    return list_calls(user, event)


# --- players ------------------------------------------------------------------------------------


@dataclass
class PlayerRecord:
    name: str
    key: str
    penalties: list[Call] = field(default_factory=list)  # calls where this player was the offender
    calls: list[Call] = field(default_factory=list)  # every call naming this player


def players_of(user, event: Event) -> list[PlayerRecord]:
    """Every player on the event's list or named in its calls, with the penalties they received, by
    name (the list's spelling)."""
    records: dict[str, PlayerRecord] = {
        key: PlayerRecord(name=name, key=key)
        for key, name in event.players.values_list("key", "name")
    }
    for call in list_calls(user, event):
        names = list(call.players) + ([call.offender] if call.offender else [])
        for name in names:
            key = player_key(name)
            record = records.setdefault(key, PlayerRecord(name=name, key=key))
            if call not in record.calls:
                record.calls.append(call)
        if call.offender and call.infraction:
            records[call.offender_key].penalties.append(call)
    return sorted(records.values(), key=lambda r: r.key)


def player_history(user, event: Event, name: str) -> PlayerRecord:
    key = player_key(name)
    for record in players_of(user, event):
        if record.key == key:
            return record
    raise Http404("No such player at this event.")
