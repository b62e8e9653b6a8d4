"""The call log's pages: my events, a new event, an event (calls, players, judges), a player, a call
(with notes for head judges), the printable report and the head judge's downloads. Every page needs
a signed-in judge; another event's pages answer 404 (calllog.services decides)."""

from __future__ import annotations

import datetime as dt

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_http_methods, require_POST

from calllog import editing, exports, infractions, services
from calllog.models import Event, EventJudge


def _event_context(request: HttpRequest, event: Event) -> dict:
    return {
        "event": event,
        "role": services.role_of(request.user, event),
        "is_head": services.is_head(request.user, event),
    }


@login_required
def event_list(request: HttpRequest) -> HttpResponse:
    events = list(services.my_events(request.user))
    roles = dict(EventJudge.objects.filter(judge=request.user).values_list("event_id", "role"))  # type: ignore[misc]  # signed in
    return render(
        request, "judgeapp/events/list.html", {"events": [(e, roles.get(e.pk)) for e in events]}
    )


@login_required
@require_http_methods(["GET", "POST"])
def event_new(request: HttpRequest) -> HttpResponse:
    form = {"name": "", "date": timezone.localdate().isoformat(), "rel": Event.Rel.COMPETITIVE}
    error = None
    if request.method == "POST":
        form = {key: request.POST.get(key, "") for key in form}
        try:
            event = services.open_event(
                request.user, name=form["name"], date=form["date"], rel=form["rel"]
            )
        except services.InvalidCall as exc:
            error = exc
        else:
            return redirect("event-detail", event_id=event.pk)
    return render(
        request,
        "judgeapp/events/new.html",
        {"form": form, "error": error, "rels": Event.Rel.choices},
        status=400 if error else 200,
    )


def record_context(event: Event) -> dict:
    """What the event page needs for "Record an infraction" and the player list."""
    catalogue = infractions.catalogue()
    extensions: dict[tuple, int] = {}
    for call in event.calls.exclude(time_extension=None).order_by("day", "round", "table"):
        where = (call.day, call.round, call.table)
        extensions[where] = extensions.get(where, 0) + (call.time_extension or 0)
    return {
        "time_extensions": [
            {"day": day, "round": rnd, "table": table, "minutes": minutes}
            for (day, rnd, table), minutes in extensions.items()
        ],
        "infractions": catalogue,
        "infraction_data": [i.as_dict() for i in catalogue],
        "roster": list(event.players.order_by("key").values_list("name", flat=True)),
        "rels": Event.Rel.choices,
        "today_day": event_day(event),
    }


def event_day(event: Event, today: dt.date | None = None) -> int:
    """The tournament day a call made today belongs to: 1 on the event's date, 2 the day after
    (IPG 2 and 3: Warning counts reset between days), the day turning at 06:00 (a round past
    midnight is still the day before's), up to a week; a call made later than that is entered
    after the event, and is day 1 unless the judge says otherwise. The tablet works it out from
    its own calendar the same way (penalty.js eventDay), and the judge may change it."""
    today = today or (timezone.localtime() - DAY_TURNS).date()
    day = (today - event.date).days + 1 if event.date else 1
    return day if 1 <= day <= EVENT_DAYS else 1


EVENT_DAYS = 7  # the longest event a day is worked out for (penalty.js eventDay says the same)
# A tournament day runs past midnight: until 06:00 it is the day before's (penalty.js too).
DAY_TURNS = dt.timedelta(hours=6)


@login_required
def event_detail(
    request: HttpRequest, event_id: int, *, error: services.InvalidCall | None = None
) -> HttpResponse:
    event = services.event_for(request.user, event_id)
    context = _event_context(request, event)
    calls = list(services.list_calls(request.user, event))[::-1]
    flagged = [c for c in calls if c.needs_review]
    flagged_only = request.GET.get("flagged") == "1"
    context.update(
        calls=flagged if flagged_only else calls,
        flagged=flagged,
        flagged_only=flagged_only,
        players=services.players_of(request.user, event),
        judges=services.judges_of(event),
        roles=EventJudge.Role.choices,
        error=error,
        **record_context(event),
    )
    return render(request, "judgeapp/events/detail.html", context, status=400 if error else 200)


@login_required
@require_POST
def event_add_judge(request: HttpRequest, event_id: int) -> HttpResponse:
    event = services.event_for(request.user, event_id)
    try:
        services.add_judge(
            request.user,
            event,
            username=request.POST.get("username", ""),
            role=request.POST.get("role", "floor"),
        )
    except services.InvalidCall as exc:
        return event_detail(request, event_id, error=exc)
    return redirect(reverse("event-detail", args=[event.pk]) + "#judges")


@login_required
def player_detail(
    request: HttpRequest, event_id: int, name: str, *, error=None, merge_into: str = ""
) -> HttpResponse:
    event = services.event_for(request.user, event_id)
    context = _event_context(request, event)
    context["player"] = services.player_history(request.user, event, name)
    context.update(
        error=error,
        merge_into=merge_into,
        on_list=event.players.filter(key=context["player"].key).exists(),
    )
    return render(request, "judgeapp/events/player.html", context)


@login_required
@require_http_methods(["GET", "POST"])
def call_detail(request: HttpRequest, event_id: int, call_id: int) -> HttpResponse:
    event = services.event_for(request.user, event_id)
    call = services.get_call(request.user, event, call_id)
    error = None
    if request.method == "POST":
        try:
            services.set_notes(
                request.user, event, call, request.POST.get("investigation_notes", "")
            )
        except services.InvalidCall as exc:
            error = exc
        else:
            return redirect("event-call", event_id=event.pk, call_id=call.pk)
    context = _event_context(request, event)
    context.update(call=call, error=error, revisions=editing.revisions(call))
    return render(request, "judgeapp/events/call.html", context, status=400 if error else 200)


@login_required
def event_report(request: HttpRequest, event_id: int) -> HttpResponse:
    event = services.event_for(request.user, event_id)
    context = _event_context(request, event)
    calls = list(services.list_calls(request.user, event))
    context.update(
        calls=calls,
        players=[p for p in services.players_of(request.user, event) if p.penalties],
        judges=services.judges_of(event),
        printed_at=timezone.now(),
        upgraded=sum(1 for c in calls if c.upgraded),
        flagged=sum(1 for c in calls if c.needs_review),
    )
    return render(request, "judgeapp/events/report.html", context)


@login_required
def export_csv(request: HttpRequest, event_id: int) -> HttpResponse:
    event = services.event_for(request.user, event_id)
    response = HttpResponse(
        exports.calls_csv(services.calls_for_export(request.user, event)),
        content_type="text/csv; charset=utf-8",
    )
    response["Content-Disposition"] = f'attachment; filename="event-{event.pk}-calls.csv"'
    return response


@login_required
def export_json(request: HttpRequest, event_id: int) -> HttpResponse:
    event = services.event_for(request.user, event_id)
    response = JsonResponse(
        exports.calls_json(event, services.calls_for_export(request.user, event)),
        json_dumps_params={"indent": 1},
    )
    response["Content-Disposition"] = f'attachment; filename="event-{event.pk}-calls.json"'
    return response
