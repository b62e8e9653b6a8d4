"""Tablet guide page routes: /guides/ and /guides/<slug>/."""

from django.urls import path

from guides import pages as guide_pages

urlpatterns = [
    path("guides/", guide_pages.guide_list, name="page-guides"),
    path("guides/<slug:slug>/", guide_pages.guide_run, name="page-guide"),
]
