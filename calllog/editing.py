"""Editing a saved call: any judge of the event corrects the table, round, day, players, the player
penalised, the penalty given or the time extension; every change is kept as a CallRevision (who,
when, each field before and after, and the reason given), shown on the call.

The ruling, fix and citations stay the snapshot of what was shown at the table. A penalty edited by
hand is no longer an upgrade by count: "upgraded" and its reason are cleared, and the revision keeps
what they were. A call flagged for the head judge (its announced and computed penalties differ)
stays flagged until a head judge settles it: by setting the penalty, or with "needs_review": false
when the penalty given stands (both kept as a revision, with the reason given).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.utils import timezone

from calllog import penalties, recording, services
from calllog.models import Call, CallRevision, Event
from calllog.services import InvalidCall, player_key

EDITABLE = (
    "table",
    "round",
    "day",
    "players",
    "offender",
    "penalty",
    "time_extension",
    "needs_review",
)


def edit_call(user, event: Event, call: Call, body: Any) -> tuple[Call, CallRevision | None]:
    """Apply the fields given in `body` (any of EDITABLE, plus an optional "reason"); (call,
    revision), revision None when nothing changed. Bad input raises InvalidCall naming the field;
    nothing is stored."""
    services.event_for(user, event.pk)
    if not isinstance(body, Mapping):
        raise InvalidCall("body", "the request body must be a JSON object")
    unknown = sorted(set(body) - {*EDITABLE, "reason"})
    if unknown:
        raise InvalidCall(unknown[0], f"not editable (editable: {', '.join(EDITABLE)})")
    reason = body.get("reason", "") or ""
    if not isinstance(reason, str) or len(reason) > 2000:
        raise InvalidCall("reason", "text, at most 2000 characters")
    new = _read(call, body)
    new = _with_roster(event, new)
    head = services.is_head(user, event)
    if "needs_review" in new and new["needs_review"] != call.needs_review and not head:
        raise PermissionDenied("only the event's head judges settle a call flagged for them")
    changes = {
        name: [_value(getattr(call, name)), value]
        for name, value in new.items()
        if _value(getattr(call, name)) != value
    }
    if not changes:
        return call, None
    if "penalty" in changes and call.upgraded:
        changes["upgraded"] = [True, False]
        changes["upgrade_reason"] = [call.upgrade_reason, ""]
    if "penalty" in changes and call.needs_review and head:
        changes["needs_review"] = [True, False]  # the head judge decided which penalty stands
    with transaction.atomic():
        # the event first, as recording a call locks it: every count of an event's calls is
        # changed in one order (no deadlock between an edit and a call, or two edits)
        Event.objects.select_for_update().filter(pk=event.pk).first()
        locked = Call.objects.select_for_update().get(pk=call.pk)
        for name, (_, value) in changes.items():
            setattr(locked, name, value)
        if "offender" in changes:
            locked.offender_key = player_key(locked.offender)
            recording.add_to_roster(event, _roster_request(locked), user)
        elif "players" in changes:
            recording.add_to_roster(event, _roster_request(locked), user)
        locked.updated_at = timezone.now()
        locked.save()
        if changes.keys() & {"offender", "players", "day", "round", "penalty"}:
            # The player's history changed: their other calls are counted again (and the
            # player's the call left, when it moved to another).
            # The edited call too; one whose penalty the edit set (the head judge's decision) gets
            # the new count without a flag.
            quiet = locked.pk if "penalty" in changes else None
            for key in dict.fromkeys([call.offender_key, locked.offender_key]):
                if key:
                    recording.recheck(event, key, f"call #{locked.pk} was edited", quiet=quiet)
        revision = CallRevision.objects.create(
            call=locked, editor=user, changes=changes, reason=reason.strip()
        )
    return locked, revision


def _value(value: Any) -> Any:
    return list(value) if isinstance(value, (list, tuple)) else value


def _read(call: Call, body: Mapping) -> dict:
    """The edited fields, checked as a new call's are; the offender must be one of the players."""
    merged = {
        "client_id": str(call.client_id),
        "guide": call.guide or "-",
        "table": body.get("table", call.table),
        "round": body.get("round", call.round),
        "day": body.get("day", call.day),
        "players": body.get("players", call.players),
        "offender": body.get("offender", call.offender),
    }
    request = services.read_call_request(merged)
    out: dict[str, Any] = {}
    for name in ("table", "round", "day", "players", "offender"):
        if name in body:
            out[name] = getattr(request, name)
    if "players" in body and "offender" not in body and request.offender != call.offender:
        out["offender"] = request.offender
    if "penalty" in body:
        penalty = body["penalty"]
        if not isinstance(penalty, str) or not penalty.strip() or len(penalty) > 500:
            raise InvalidCall("penalty", "the penalty given, at most 500 characters")
        out["penalty"] = penalties.penalty_label(penalty)
    if "needs_review" in body:
        if not isinstance(body["needs_review"], bool):
            raise InvalidCall("needs_review", "true or false")
        out["needs_review"] = body["needs_review"]
    if "time_extension" in body:
        out["time_extension"] = recording.read_extras(
            {"time_extension": body["time_extension"]}
        ).time_extension
    return out


def _with_roster(event: Event, new: dict) -> dict:
    spelled = dict(event.players.values_list("key", "name"))
    if "players" in new:
        new["players"] = [spelled.get(player_key(p), p) for p in new["players"]]
    if new.get("offender"):
        new["offender"] = spelled.get(player_key(new["offender"]), new["offender"])
    return new


def _roster_request(call: Call) -> services.CallRequest:
    return services.CallRequest(
        call.client_id,
        call.guide,
        [],
        call.conclusion,
        call.table,
        call.round,
        call.day,
        list(call.players),
        call.offender,
        None,
    )


def revisions(call: Call) -> list[CallRevision]:
    return list(call.revisions.select_related("editor").order_by("edited_at", "id"))


def revision_record(revision: CallRevision) -> dict:
    return {
        "id": revision.pk,
        "editor": revision.editor.username if revision.editor else None,
        "edited_at": revision.edited_at.isoformat(),
        "changes": revision.changes,
        "reason": revision.reason,
    }
