"""Card routes: the API (mounted under /api/v1/) and the pages."""

from django.urls import path

from cards import api, pages

api_urlpatterns = [
    path("cards", api.CardSearchView.as_view(), name="api-cards"),
    path("cards/<path:name>", api.CardDetailView.as_view(), name="api-card"),
]

page_urlpatterns = [
    path("cards/offline/manifest.json", pages.offline_manifest, name="cards-offline-manifest"),
    path("cards/offline/<str:version>.json", pages.offline_pack, name="cards-offline-pack"),
    path("cards/", pages.card_search, name="card-search"),
    path("cards/<path:name>/", pages.card_page, name="card-page"),
]
