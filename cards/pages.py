"""Card pages for the tablet: /cards/?q= and /cards/<name>/, with rulings and the rules a
card cites."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_GET

from cards import offline, services

MAX_QUERY = 200


@require_GET
def card_search(request: HttpRequest) -> HttpResponse:
    # a NUL no database column can hold (PostgreSQL refuses it): no name has one
    query = request.GET.get("q", "").replace("\x00", " ").strip()[:MAX_QUERY]
    cards = services.search_cards(query) if query else []
    exact = [c for c in cards if c.name.casefold() == query.casefold()]
    if len(exact) == 1:
        return redirect(reverse("card-page", args=[exact[0].name]))
    return render(request, "cards/search.html", {"query": query, "cards": cards})


@require_GET
def card_page(request: HttpRequest, name: str) -> HttpResponse:
    try:
        card = services.find_card(name.replace("\x00", " ")[:MAX_QUERY])
    except services.CardNotFound as exc:
        return render(
            request,
            "cards/search.html",
            {"query": name, "cards": [], "close": exc.close},
            status=404,
        )
    if card.name != name:
        return redirect(reverse("card-page", args=[card.name]))
    return render(
        request,
        "cards/card.html",
        {"card": card, "rules": services.card_rules(card), "rulings": card.rulings.all()},
    )


@require_GET
@cache_control(no_cache=True)
def offline_manifest(request: HttpRequest) -> JsonResponse:
    """Which card pack is current, for the service worker (static/sw.js)."""
    pack = offline.current_card_pack()
    return JsonResponse(
        {
            "version": pack.version,
            "url": reverse("cards-offline-pack", args=[pack.version]),
            "count": pack.count,
            "bytes": len(pack.body),
        }
    )


@require_GET
def offline_pack(request: HttpRequest, version: str) -> HttpResponse:
    pack = offline.current_card_pack()
    if version != pack.version:
        return JsonResponse(
            {
                "error": {
                    "code": "stale_pack",
                    "message": f"Card pack {version} is no longer current.",
                    "details": {"current": pack.version},
                }
            },
            status=404,
        )
    response = HttpResponse(pack.body, content_type="application/json; charset=utf-8")
    response["Cache-Control"] = "public, max-age=31536000, immutable"
    return response
