"""Page routes of search (server-rendered) and the offline pack; mounted at the site root."""

from django.urls import path

from search import pages
from search.offline import views as offline

urlpatterns = [
    path("search/", pages.search, name="page-search"),
    path("search/fragment/", pages.search_fragment, name="page-search-fragment"),
    path("offline/", offline.reader, name="offline-reader"),
    path("offline/manifest.json", offline.pack_manifest, name="offline-manifest"),
    path("offline/pack/<str:version>.json", offline.pack, name="offline-pack"),
    path("manifest.webmanifest", offline.web_manifest, name="web-manifest"),
]
