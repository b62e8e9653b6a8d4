"""The call log's pages for issue 13: record an IPG infraction directly, keep the event's player
list (add, rename or merge, remove), and edit a call (its revisions shown on the call page). Each
works without JavaScript (plain form posts); static/judgeapp/calllog.js sends the record form
through the offline queue and shows the penalty with the player's history before it is saved."""

from __future__ import annotations

import uuid

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods, require_POST

from calllog import editing, players, recording, services, views
from calllog.models import Event

PENALTIES = ("Warning", "Game Loss", "Match Loss", "Disqualification", "No penalty")


def _back_to_event(request: HttpRequest, event_id: int, exc) -> HttpResponse:
    return views.event_detail(request, event_id, error=exc)


@login_required
@require_POST
def record_infraction(request: HttpRequest, event_id: int) -> HttpResponse:
    event = services.event_for(request.user, event_id)
    names = [request.POST.get("offender", ""), request.POST.get("opponent", "")]
    body = {
        "client_id": request.POST.get("client_id") or str(uuid.uuid4()),
        "infraction": request.POST.get("infraction", ""),
        "table": request.POST.get("table", ""),
        "round": request.POST.get("round", ""),
        "day": request.POST.get("day", ""),
        "players": [n for n in names if n.strip()],
        "time_extension": request.POST.get("time_extension", ""),
        "rel": event.rel,
        # the section's Downgrade applies (the box calllog.js shows for Tardiness, Outside
        # Assistance)
        **({"downgrade": True} if request.POST.get("downgrade") == "yes" else {}),
        # or its own Upgrade (Tardiness's Match Loss at 10 minutes)
        **({"upgrade": True} if request.POST.get("upgrade") == "yes" else {}),
    }
    try:
        call, _ = recording.record_call(request.user, event, body)
    except (services.InvalidCall, recording.RelMismatch) as exc:
        if isinstance(exc, recording.RelMismatch):
            exc = services.InvalidCall("rel", exc.message)
        return _back_to_event(request, event_id, exc)
    except services.ClientIdConflict as exc:
        call = exc.existing
    return redirect("event-call", event_id=event.pk, call_id=call.pk)


@login_required
@require_POST
def add_player(request: HttpRequest, event_id: int) -> HttpResponse:
    event = services.event_for(request.user, event_id)
    try:
        players.add_player(request.user, event, request.POST.get("name", ""))
    except services.InvalidCall as exc:
        return _back_to_event(request, event_id, exc)
    return redirect(reverse("event-detail", args=[event.pk]) + "#players")


@login_required
@require_POST
def rename_player(request: HttpRequest, event_id: int, name: str) -> HttpResponse:
    event = services.event_for(request.user, event_id)
    new_name = request.POST.get("new_name", "")
    try:
        player = players.rename_player(
            request.user, event, name, new_name, merge=request.POST.get("merge") == "yes"
        )
    except services.InvalidCall as exc:
        return _player_page(request, event, name, error=exc)
    except players.PlayerConflict as exc:
        return _player_page(request, event, name, error=exc, merge_into=new_name)
    return redirect("event-player", event_id=event.pk, name=player.name)


@login_required
@require_POST
def remove_player(request: HttpRequest, event_id: int, name: str) -> HttpResponse:
    event = services.event_for(request.user, event_id)
    try:
        players.remove_player(request.user, event, name)
    except players.PlayerConflict as exc:
        return _player_page(request, event, name, error=exc)
    return redirect(reverse("event-detail", args=[event.pk]) + "#players")


def _player_page(
    request: HttpRequest, event: Event, name: str, *, error, merge_into: str = ""
) -> HttpResponse:
    response = views.player_detail(request, event.pk, name, error=error, merge_into=merge_into)
    response.status_code = 409 if isinstance(error, players.PlayerConflict) else 400
    return response


@login_required
@require_http_methods(["GET", "POST"])
def edit_call(request: HttpRequest, event_id: int, call_id: int) -> HttpResponse:
    event = services.event_for(request.user, event_id)
    call = services.get_call(request.user, event, call_id)
    error = None
    if request.method == "POST":
        body = {
            "table": request.POST.get("table", ""),
            "round": request.POST.get("round", ""),
            "day": request.POST.get("day", "") or 1,
            "players": [n for n in request.POST.getlist("players") if n.strip()],
            "offender": request.POST.get("offender", ""),
            "time_extension": request.POST.get("time_extension", ""),
            "reason": request.POST.get("reason", ""),
        }
        if request.POST.get("penalty", "").strip():
            body["penalty"] = request.POST["penalty"]
        if request.POST.get("review_shown") == "yes":  # the head judge's flag box was on the form
            body["needs_review"] = request.POST.get("needs_review") == "yes"
        try:
            editing.edit_call(request.user, event, call, body)
        except services.InvalidCall as exc:
            error = exc
        else:
            return redirect("event-call", event_id=event.pk, call_id=call.pk)
    players_shown = list(call.players) + [""] * max(0, 2 - len(call.players))
    context = {
        "event": event,
        "call": call,
        "error": error,
        "players_shown": players_shown,
        "penalties": PENALTIES if call.penalty in PENALTIES else (call.penalty, *PENALTIES),
        "roster": list(event.players.order_by("key").values_list("name", flat=True)),
        "is_head": services.is_head(request.user, event),
    }
    return render(request, "judgeapp/events/edit_call.html", context, status=400 if error else 200)
