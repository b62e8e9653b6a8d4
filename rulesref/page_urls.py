"""Page routes for the tablet pages (server-rendered)."""

from django.urls import path

from rulesref import pages

urlpatterns = [
    path("", pages.home, name="home"),
]
