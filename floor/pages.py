"""The round clock page of an event, and the deck-check counter (which keeps everything on
the device)."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.csrf import ensure_csrf_cookie
from django.views.decorators.http import require_GET

from calllog import services as calllog
from floor import services


@login_required
@require_GET
@ensure_csrf_cookie  # the page's buttons post to the clock API with the CSRF token
def clock_page(request: HttpRequest, event_id: int) -> HttpResponse:
    event = calllog.event_for(request.user, event_id)
    return render(
        request,
        "floor/clock.html",
        {
            "event": event,
            "is_head": calllog.is_head(request.user, event),
            "state": services.state_of(services.current(event)),
        },
    )


@require_GET
def deck_check(request: HttpRequest) -> HttpResponse:
    return render(request, "floor/deck_check.html", {"types": DECK_TYPES})


# Card types counted in a deck check, in the order a judge sorts the deck.
DECK_TYPES = (
    "Lands",
    "Creatures",
    "Instants",
    "Sorceries",
    "Artifacts",
    "Enchantments",
    "Planeswalkers",
    "Battles",
    "Other",
)
