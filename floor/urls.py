"""Floor tool routes: the clock API (under /api/v1/) and the pages."""

from django.urls import path

from floor import api, pages

api_urlpatterns = [
    path("events/<int:event_id>/clock", api.ClockView.as_view(), name="api-event-clock"),
]

page_urlpatterns = [
    path("events/<int:event_id>/clock/", pages.clock_page, name="event-clock"),
    path("tools/deck-check/", pages.deck_check, name="deck-check"),
]
