"""The call log's API for issue 13: the current IPG's infractions, the event's player list (add,
rename or merge, remove), editing a call with its revisions, and the penalty preview for an
infraction chosen directly. Mounted by api_urls; errors in judgeapp.api_errors' shape.

    GET    events/{id}/infractions        -> {"ipg": "2021-01-06", "rel", "infractions": [INFRACTION]}
    POST   events/{id}/players {"name"}   -> 201 PLAYER (200 when already on the list)
    PATCH  events/{id}/players/{name} {"name": new, "merge": false}
                                          -> PLAYER; every call naming them is renamed (a revision
                                             each); 409 "conflict" onto a listed name without merge
    DELETE events/{id}/players/{name}     -> 204; 409 while a call names them
    PATCH  events/{id}/calls/{call_id} {"table", "round", "day", "players", "offender", "penalty",
                                        "time_extension", "reason"}   (any of them; any judge of the event)
                                          -> CALL with "revisions": [REVISION]
    GET    events/{id}/calls/{call_id}/revisions -> {"revisions": [REVISION]}

INFRACTION is {"number", "name", "title", "category", "penalty": {"regular", "competitive",
"professional"}, "regular_ref", "upgrade", "count_upgrade", "ref", "penalty_line", "downgrade",
"downgrade_penalty", "upgrade_penalty", "regular_note", "fix": {"regular", "competitive",
"professional"}, "head_judge_note"}: "penalty" is the penalty to give ("Warning" where the IPG's
Penalty line reads "Warning with potential upgrade"), "penalty_line" the line as printed, "upgrade"
and "count_upgrade" the IPG's upgrades (Competitive and Professional), "downgrade" the section's
Downgrade text ("" when none) and "downgrade_penalty" the penalty it gives ("" when it names no one
penalty; a direct call sends "downgrade": true to give it), "upgrade_penalty" the penalty the
section's own Upgrade gives when it names one other than "penalty" ("" otherwise; "upgrade": true
gives it), "regular_note" what Regular REL says in
place of the IPG's upgrades and downgrades (the JAR), "fix" the fix to explain with the penalty at
each REL (IPG 1.2): the section's Additional Remedy (or that it has none), and at Regular what the
JAR says to do; a direct call stores the one of the event's REL as its "fix";
"head_judge_note" IPG 1.2's word to report a penalty of Game Loss or more to the Head Judge, said
while the penalty to give is one at Competitive or Professional ("" for Tardiness and Decklist
Problem, which floor judges issue); "count_upgrade" is "" for an infraction with no upgrade by
count (one that never gives a Warning); PLAYER {"name", "calls": n};
REVISION {"id", "editor", "edited_at", "changes": {"field": [old, new]}, "reason"}.
"""  # noqa: E501

from __future__ import annotations

from rest_framework import status
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from calllog import editing, exports, infractions, penalties, players, recording, services
from judgeapp.api_errors import ApiError
from rulesref import references


class CallLogView(APIView):
    permission_classes = [IsAuthenticated]


def object_body(request: Request) -> dict:
    """The request's JSON object; any other body (a list, a number) is refused naming "body"."""
    if isinstance(request.data, dict):
        return request.data
    message = "the request body must be a JSON object"
    raise ApiError("invalid", f"body: {message}", details={"body": [message]})


def _invalid(exc: services.InvalidCall) -> ApiError:
    return ApiError("invalid", f"{exc.field}: {exc.message}", details={exc.field: [exc.message]})


def _player_data(event, player) -> dict:
    return {"name": player.name, "calls": len(players.calls_naming(event, player.key))}


def _conflict(exc: players.PlayerConflict) -> ApiError:
    return ApiError(
        "conflict",
        f"{exc.field}: {exc.message}",
        status_code=409,
        details={exc.field: [exc.message]},
    )


def rel_mismatch(exc: recording.RelMismatch) -> ApiError:
    return ApiError(
        "rel_mismatch",
        str(exc),
        status_code=409,
        details={"rel": [exc.message], "event_rel": [exc.event_rel]},
    )


class InfractionListView(CallLogView):
    def get(self, request: Request, event_id: int) -> Response:
        event = services.event_for(request.user, event_id)
        version = infractions.current_ipg()
        return Response(
            {
                "ipg": version.effective_date.isoformat()
                if version and version.effective_date
                else None,
                "rel": event.rel,
                "infractions": [i.as_dict() for i in infractions.catalogue()],
            }
        )


def add_player(request: Request, event_id: int) -> Response:
    event = services.event_for(request.user, event_id)
    body = object_body(request)
    try:
        player, created = players.add_player(request.user, event, body.get("name"))
    except services.InvalidCall as exc:
        raise _invalid(exc) from None
    return Response(
        _player_data(event, player),
        status=status.HTTP_201_CREATED if created else status.HTTP_200_OK,
    )


def rename_player(request: Request, event_id: int, name: str) -> Response:
    event = services.event_for(request.user, event_id)
    body = object_body(request)
    try:
        asked = players.PlayerChangeRequest.model_validate(
            {"merge": body.get("merge", False), "name": body.get("name")}
        )
        player = players.rename_player(request.user, event, name, asked.name, merge=asked.merge)
    except services.InvalidCall as exc:
        raise _invalid(exc) from None
    except players.PlayerConflict as exc:
        raise _conflict(exc) from None
    return Response(_player_data(event, player))


def remove_player(request: Request, event_id: int, name: str) -> Response:
    event = services.event_for(request.user, event_id)
    try:
        players.remove_player(request.user, event, name)
    except players.PlayerConflict as exc:
        raise _conflict(exc) from None
    return Response(status=status.HTTP_204_NO_CONTENT)


def call_with_revisions(call, *, head: bool) -> dict:
    record = exports.call_record(call, with_notes=head)
    record["revisions"] = [editing.revision_record(r) for r in editing.revisions(call)]
    return record


def edit_call(request: Request, event_id: int, call_id: int) -> Response:
    event = services.event_for(request.user, event_id)
    call = services.get_call(request.user, event, call_id)
    try:
        call, _ = editing.edit_call(request.user, event, call, request.data)
    except services.InvalidCall as exc:
        raise _invalid(exc) from None
    return Response(call_with_revisions(call, head=services.is_head(request.user, event)))


class CallRevisionsView(CallLogView):
    def get(self, request: Request, event_id: int, call_id: int) -> Response:
        event = services.event_for(request.user, event_id)
        call = services.get_call(request.user, event, call_id)
        return Response(
            {"revisions": [editing.revision_record(r) for r in editing.revisions(call)]}
        )


def infraction_preview(
    request: Request, event, name: str, day: int, round: int | None = None
) -> dict:
    """PlayerView's "next" for ?infraction= (and &downgrade=true or &upgrade=true): what that
    infraction's penalty would be for this player now."""
    wanted = request.query_params.get("infraction", "")
    infraction = infractions.find(wanted)
    if infraction is None:
        raise ApiError(
            "invalid",
            f"infraction: {wanted!r} is not an infraction of the current IPG",
            details={"infraction": ["unknown infraction"]},
        )
    flag = request.query_params.get("downgrade", "false")
    if flag not in ("true", "false"):
        raise ApiError(
            "invalid", "downgrade: true or false", details={"downgrade": ["true or false"]}
        )
    raised = request.query_params.get("upgrade", "false")
    if raised not in ("true", "false"):
        raise ApiError("invalid", "upgrade: true or false", details={"upgrade": ["true or false"]})
    try:
        downgraded = recording.read_downgrade(flag == "true" or None, infraction, event.rel)
        upgraded = recording.read_upgrade(
            raised == "true" or None, infraction, event.rel, downgraded=downgraded
        )
    except services.InvalidCall as exc:
        raise _invalid(exc) from None
    result = recording.preview_infraction(
        request.user,
        event,
        player=name,
        infraction=infraction,
        day=day,
        round=round,
        downgraded=downgraded,
        upgraded=upgraded,
    )
    return preview_record(
        result,
        infraction.penalty_at(event.rel, downgraded=downgraded, upgraded=upgraded),
        event.rel,
    )


def preview_record(result, base_penalty: str, rel: str) -> dict:
    """A penalty preview as PlayerView answers it ("next"): the penalty now, upgraded or not,
    and why."""
    return {
        "penalty": result.penalty,
        "upgraded": result.upgraded,
        "reason": result.reason,
        "refs": list(result.refs),
        "citations": references.citations(list(result.refs)),
        "prior_warnings": result.prior_warnings,
        "base_penalty": penalties.penalty_label(base_penalty),
        "rel": rel,
    }
