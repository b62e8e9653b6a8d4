"""Judge-facing page routes."""

from django.urls import path

from jobs import pages

urlpatterns = [
    path("check/shuffle/", pages.shuffle_check, name="page-shuffle-check"),
]
