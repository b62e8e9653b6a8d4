"""The call log's JSON API (/api/v1/events/...): events, their judges, calls, players, exports.

Session auth (the tablet pages send the CSRF token in X-CSRFToken) or HTTP basic auth (scripts);
every endpoint needs a signed-in judge. An event that is not yours answers 404, as if it did not
exist; head-judge-only actions on your own event answer 403. Errors: judgeapp.api_errors shape.

    GET  events                         -> {"events": [EVENT + "role"]}
    POST events {"name", "date": "YYYY-MM-DD", "rel": "regular|competitive|professional"}
                                        -> 201 EVENT (you are its head judge)
    GET  events/{id}                    -> EVENT + {"role", "judges": [{"username", "role"}]}
    POST events/{id}/judges {"username", "role": "floor|head"}     (head judge) -> 201 {"username", "role"}
    GET  events/{id}/calls[?needs_review=true|false] -> {"calls": [CALL]}, oldest first (only the
                                           calls flagged for the head judge, or only the others)
    POST events/{id}/calls CALL_REQUEST -> 201 CALL; 200 CALL when that client_id is already stored
                                           (a retry: nothing new is stored); 409 when the client_id
                                           is stored with a different guide or answers
    GET  events/{id}/calls/{call_id}    -> CALL (with "investigation_notes" for head judges)
    PUT  events/{id}/calls/{call_id}/notes {"investigation_notes"}  (head judge) -> CALL
    GET  events/{id}/players            -> {"players": [{"name", "penalties": [PENALTY], "calls": n}]}
    GET  events/{id}/players/{name}[?guide=slug&conclusion=node&day=1 | ?infraction=3.3&day=1]
                                        -> {"name", "penalties": [PENALTY], "calls": [CALL],
                                            "next": UPGRADE}  ("next": what that conclusion's
                                            penalty would be for this player now, upgrades applied;
                                            optional "round=3": a second Game Loss in that round
                                            says the player receives only one of those given at
                                            the same time (IPG 1.1), as the saved call does;
                                            with "infraction", optional "downgrade=true" or
                                            "upgrade=true": the section's Downgrade or its own
                                            Upgrade applies, as in a direct call)
    GET  events/{id}/export.csv | export.json   (head judge) -> every call with its notes

CALL_REQUEST, what the guide page posts (possibly queued offline and replayed later):

    {"client_id": "UUID made on the tablet when the call was finished",
     "guide": "shortcut-disputes",          the guide's slug
     "answers": [0, "Yes", 3],             the answers given, as POST /api/v1/guides/{slug}/step takes them
     "conclusion": "node-id",              optional: checked against where the answers lead
     "table": "12", "round": 3,            optional
     "day": 1,                             optional, tournament day (Warning counts reset between days)
     "players": ["Ana", "Ben"],            optional, up to 8 names
     "offender": "Ana",                    optional, who receives the penalty (default: the first player)
     "created_at": "2026-11-22T14:05:00Z", optional, the tablet's time (default: when it arrives)
     "rel": "competitive",                 optional, the REL the judge saw: another than the event's
                                           (or a guide answer naming another) is refused, 409
                                           "rel_mismatch", never silently overridden
     "time_extension": 3,                  optional, minutes given at the table (0-120)
     "announced_penalty": "Warning"}       optional, the penalty the tablet showed and the judge gave:
                                           stored as the call's "penalty"; when the server's count from
                                           the player's history gives another (a call saved offline),
                                           both are kept and the call is flagged ("needs_review")

A call for any infraction of the current IPG, without a guide: the same body with "infraction" (the
section, "3.3", or the name, "Slow Play") in place of "guide", "answers" and "conclusion"; its
penalty is the IPG's at Competitive and Professional and the JAR's handling at Regular (see
calllog.recording), and with "downgrade": true (optional, Competitive and Professional only, for a
section whose Downgrade names a penalty: Tardiness, Outside Assistance) the Downgrade's penalty, or
with "upgrade": true (the same RELs, for a section whose own Upgrade names another penalty than its
own: Tardiness's Match Loss, a detrimental Missed Trigger's Warning, Deck Problem's and Marked
Cards' Game Loss) the Upgrade's. Players are stored as the event's player list spells them, and names not
on the list are added to it. The player list, call edits and revisions: calllog.api_more.

The server replays the guide from slug + answers, takes the conclusion's ruling, fix, penalty at the
event's REL and citations (resolved now, stored as shown), and upgrades the penalty by the
offender's earlier Warnings at the event, and a repeated Unsporting Conduct - Minor (Game Loss) or
- Major (Disqualification) by any earlier one (calllog.penalties). Earlier means given before it: an
earlier day, or an earlier or the same round of its day (a call synced late from a tablet that was
offline is not upgraded by later rounds' calls). Recording such a call, or editing one (its
player, players, day, round or penalty), counts the player's other calls again; one whose count now
gives another penalty keeps the penalty it records and is flagged ("needs_review", its
"review_reason" says why). CALL is exports.call_record: the
request's fields plus "id", "judge", "guide_title", "ruling", "fix", "infraction", "category",
"base_penalty", "penalty" (the penalty given: announced at the table, else the server's after
upgrades), "upgraded", "upgrade_reason" (the server's count, and IPG 1.1's and 1.2's notes: several
Game Losses at once, another call in the same round), "head_judge_note" (IPG 1.2's word to report
the call to the Head Judge while the penalty it records is a Game Loss or more at Competitive or
Professional; "" otherwise), "announced_penalty",
"computed_penalty" (after upgrades), "needs_review" (announced and computed differ: for the head
judge), "review_reason", "citations", "received_at". Penalties are written one way: "Warning", never
"Warning (Tournament Error - ...)". UPGRADE is {"penalty", "upgraded", "reason", "refs",
"citations", "prior_warnings", "base_penalty", "rel"}.
"""  # noqa: E501

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpResponse, JsonResponse
from rest_framework import status
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from calllog import api_more, exports, recording, services
from calllog.models import Event
from judgeapp.api_errors import ApiError


def _invalid(exc: services.InvalidCall) -> ApiError:
    return ApiError("invalid", f"{exc.field}: {exc.message}", details={exc.field: [exc.message]})


def _event_data(event: Event, user, *, judges: bool = False) -> dict:
    data = exports.event_record(event)
    data["role"] = services.role_of(user, event)
    if judges:
        data["judges"] = [
            {"username": m.judge.username, "role": m.role} for m in services.judges_of(event)
        ]
    return data


class CallLogView(APIView):
    permission_classes = [IsAuthenticated]


class EventListView(CallLogView):
    def get(self, request: Request) -> Response:
        return Response(
            {"events": [_event_data(e, request.user) for e in services.my_events(request.user)]}
        )

    def post(self, request: Request) -> Response:
        body = api_more.object_body(request)
        try:
            event = services.open_event(
                request.user,
                name=body.get("name"),
                date=body.get("date"),
                rel=body.get("rel", Event.Rel.COMPETITIVE),
            )
        except services.InvalidCall as exc:
            raise _invalid(exc) from None
        return Response(
            _event_data(event, request.user, judges=True), status=status.HTTP_201_CREATED
        )


class EventDetailView(CallLogView):
    def get(self, request: Request, event_id: int) -> Response:
        event = services.event_for(request.user, event_id)
        return Response(_event_data(event, request.user, judges=True))


class EventJudgesView(CallLogView):
    def post(self, request: Request, event_id: int) -> Response:
        event = services.event_for(request.user, event_id)
        body = api_more.object_body(request)
        try:
            membership = services.add_judge(
                request.user, event, username=body.get("username"), role=body.get("role", "floor")
            )
        except services.InvalidCall as exc:
            raise _invalid(exc) from None
        # The same answer whether or not the account exists (services.add_judge).
        asked = str(body.get("username", "")).strip()
        return Response(
            {
                "username": membership.judge.username if membership else asked,
                "role": membership.role if membership else body.get("role", "floor"),
            },
            status=status.HTTP_201_CREATED,
        )


class CallListView(CallLogView):
    def get(self, request: Request, event_id: int) -> Response:
        event = services.event_for(request.user, event_id)
        head = services.is_head(request.user, event)
        calls = services.list_calls(request.user, event)
        flag = request.query_params.get("needs_review")
        if flag is not None:
            if flag not in ("true", "false"):
                raise ApiError(
                    "invalid",
                    "needs_review: true or false",
                    details={"needs_review": ["true or false"]},
                )
            calls = calls.filter(needs_review=flag == "true")
        return Response({"calls": [exports.call_record(c, with_notes=head) for c in calls]})

    def post(self, request: Request, event_id: int) -> Response:
        event = services.event_for(request.user, event_id)
        try:
            call, created = recording.record_call(request.user, event, request.data)
        except services.InvalidCall as exc:
            raise _invalid(exc) from None
        except services.ClientIdConflict as exc:
            raise ApiError(
                "conflict", str(exc), status_code=409, details={"call": exc.existing.pk}
            ) from None
        except recording.RelMismatch as exc:
            raise api_more.rel_mismatch(exc) from None
        head = services.is_head(request.user, event)
        return Response(
            exports.call_record(call, with_notes=head),
            status=status.HTTP_201_CREATED if created else status.HTTP_200_OK,
        )


class CallDetailView(CallLogView):
    def get(self, request: Request, event_id: int, call_id: int) -> Response:
        event = services.event_for(request.user, event_id)
        call = services.get_call(request.user, event, call_id)
        return Response(
            api_more.call_with_revisions(call, head=services.is_head(request.user, event))
        )

    def patch(self, request: Request, event_id: int, call_id: int) -> Response:
        return api_more.edit_call(request, event_id, call_id)


class CallNotesView(CallLogView):
    def put(self, request: Request, event_id: int, call_id: int) -> Response:
        event = services.event_for(request.user, event_id)
        call = services.get_call(request.user, event, call_id)
        body = api_more.object_body(request)
        try:
            call = services.set_notes(request.user, event, call, body.get("investigation_notes"))
        except services.InvalidCall as exc:
            raise _invalid(exc) from None
        return Response(exports.call_record(call, with_notes=True))

    patch = put


def _penalty_data(call) -> dict:
    return {
        "call": call.pk,
        "infraction": call.infraction,
        "category": call.category,
        "base_penalty": call.base_penalty,
        "penalty": call.penalty,
        "upgraded": call.upgraded,
        "announced_penalty": call.announced_penalty,
        "computed_penalty": call.computed_penalty,
        "needs_review": call.needs_review,
        "day": call.day,
        "round": call.round,
        "created_at": call.created_at.isoformat(),
    }


class PlayerListView(CallLogView):
    def get(self, request: Request, event_id: int) -> Response:
        event = services.event_for(request.user, event_id)
        return Response(
            {
                "players": [
                    {
                        "name": p.name,
                        "penalties": [_penalty_data(c) for c in p.penalties],
                        "calls": len(p.calls),
                    }
                    for p in services.players_of(request.user, event)
                ]
            }
        )

    def post(self, request: Request, event_id: int) -> Response:
        return api_more.add_player(request, event_id)


class PlayerView(CallLogView):
    def get(self, request: Request, event_id: int, name: str) -> Response:
        event = services.event_for(request.user, event_id)
        head = services.is_head(request.user, event)
        data: dict[str, Any] = {"name": name, "penalties": [], "calls": []}
        try:
            record = services.player_history(request.user, event, name)
            data.update(
                name=record.name,
                penalties=[_penalty_data(c) for c in record.penalties],
                calls=[exports.call_record(c, with_notes=head) for c in record.calls],
            )
        except Http404:
            if "guide" not in request.query_params and "infraction" not in request.query_params:
                raise
        if "guide" in request.query_params:
            data["next"] = self._next(request, event, name)
        elif "infraction" in request.query_params:
            data["next"] = api_more.infraction_preview(
                request, event, name, self._day(request), self._round(request)
            )
        return Response(data)

    def patch(self, request: Request, event_id: int, name: str) -> Response:
        return api_more.rename_player(request, event_id, name)

    def delete(self, request: Request, event_id: int, name: str) -> Response:
        return api_more.remove_player(request, event_id, name)

    def _day(self, request: Request) -> int:
        try:
            return (
                services.whole_number(
                    request.query_params.get("day"), "day", minimum=1, maximum=30, default=1
                )
                or 1
            )
        except services.InvalidCall as exc:
            raise _invalid(exc) from None

    def _round(self, request: Request) -> int | None:
        """The round the call is in (?round=3): a second Game Loss in it carries IPG 1.1's note."""
        try:
            return services.whole_number(
                request.query_params.get("round"), "round", minimum=0, maximum=1000, default=None
            )
        except services.InvalidCall as exc:
            raise _invalid(exc) from None

    def _next(self, request: Request, event: Event, name: str) -> dict:
        from guides import services as guide_services

        slug, node_id = (
            request.query_params.get("guide", ""),
            request.query_params.get("conclusion", ""),
        )
        try:
            node = guide_services.get_guide(slug).nodes.get(node_id)
        except guide_services.UnknownGuide:
            raise ApiError(
                "invalid", f"guide: no guide {slug!r}", details={"guide": ["unknown guide"]}
            ) from None
        if node is None or node.penalty is None:
            raise ApiError(
                "invalid",
                f"conclusion: {slug} has no conclusion {node_id!r}",
                details={"conclusion": ["unknown conclusion"]},
            )
        day = self._day(request)
        result = services.preview_penalty(
            request.user,
            event,
            player=name,
            infraction=node.infraction,
            category=node.category,
            penalty=getattr(node.penalty, event.rel),
            day=day,
            round=self._round(request),
        )
        return api_more.preview_record(result, getattr(node.penalty, event.rel), event.rel)


class ExportCsvView(CallLogView):
    def get(self, request: Request, event_id: int) -> HttpResponse:
        event = services.event_for(request.user, event_id)
        calls = services.calls_for_export(request.user, event)
        response = HttpResponse(exports.calls_csv(calls), content_type="text/csv; charset=utf-8")
        response["Content-Disposition"] = f'attachment; filename="event-{event.pk}-calls.csv"'
        return response


class ExportJsonView(CallLogView):
    def get(self, request: Request, event_id: int) -> HttpResponse:
        event = services.event_for(request.user, event_id)
        calls = services.calls_for_export(request.user, event)
        response = JsonResponse(exports.calls_json(event, calls), json_dumps_params={"indent": 1})
        response["Content-Disposition"] = f'attachment; filename="event-{event.pk}-calls.json"'
        return response
