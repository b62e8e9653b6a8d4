"""The offline kit's routes: the pack a tablet keeps, whether its copy is current, the page that
reads the pack without a network, and the web app manifest that makes the site installable."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.templatetags.static import static
from django.urls import reverse
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_GET

from search.offline import service

THEME_COLOUR = "#15171b"  # the dark theme's page colour (static/judgeapp/app.css)


def _not_published() -> JsonResponse:
    return JsonResponse(
        {
            "error": {
                "code": "not_published",
                "message": (
                    "No rules document is published yet, so there is nothing to keep offline."
                ),
                "details": {},
            }
        },
        status=404,
    )


@require_GET
@cache_control(no_cache=True)
def pack_manifest(request: HttpRequest) -> JsonResponse:
    """Which pack is current: a tablet compares `version` with its copy and fetches `url` when
    they differ."""
    built = service.current_pack()
    if built is None:
        return _not_published()
    return JsonResponse(
        {
            "version": built.version,
            "url": reverse("offline-pack", args=[built.version]),
            "bytes": len(built.body),
            "documents": [
                {"doc": d.doc, "title": d.title, "effective_date": d.effective_date}
                for d in built.documents
            ],
        }
    )


@require_GET
def pack(request: HttpRequest, version: str) -> HttpResponse:
    """The pack itself; its URL names its content, so it is cached for good."""
    built = service.current_pack()
    if built is None:
        return _not_published()
    if version != built.version:
        return JsonResponse(
            {
                "error": {
                    "code": "stale_pack",
                    "message": (
                        f"Pack {version} is no longer current; the current one is {built.version}."
                    ),
                    "details": {
                        "current": built.version,
                        "url": reverse("offline-pack", args=[built.version]),
                    },
                }
            },
            status=404,
        )
    response = HttpResponse(built.body, content_type="application/json; charset=utf-8")
    response["Cache-Control"] = "public, max-age=31536000, immutable"
    return response


@require_GET
def reader(request: HttpRequest) -> HttpResponse:
    """The page the service worker shows for any rules page, search or jump that has no stored copy
    while the tablet is offline: it reads the rule, the contents or the results from the pack."""
    return render(request, "rulesref/offline.html", {})


@require_GET
@cache_control(max_age=3600)
def web_manifest(request: HttpRequest) -> JsonResponse:
    """The web app manifest: "Add to Home Screen" gives a full-screen app that opens offline too."""
    icons = [
        {
            "src": static("judgeapp/icons/icon-192.png"),
            "sizes": "192x192",
            "type": "image/png",
            "purpose": "any",
        },
        {
            "src": static("judgeapp/icons/icon-512.png"),
            "sizes": "512x512",
            "type": "image/png",
            "purpose": "any",
        },
        {
            "src": static("judgeapp/icons/maskable-512.png"),
            "sizes": "512x512",
            "type": "image/png",
            "purpose": "maskable",
        },
    ]
    response = JsonResponse(
        {
            "name": "judgeapp — rules and judge tools",
            "short_name": "judgeapp",
            "description": (
                "Comprehensive Rules, MTR, IPG and JAR with search, guides and the call log, "
                "also offline."
            ),
            "id": "/",
            "start_url": "/?source=home-screen",
            "scope": "/",
            "display": "standalone",
            "orientation": "any",
            "background_color": THEME_COLOUR,
            "theme_color": THEME_COLOUR,
            "icons": icons,
        }
    )
    response["Content-Type"] = "application/manifest+json"
    return response
