"""The call log's API routes, included under /api/v1/ (see calllog.api)."""

from django.urls import path

from calllog import api, api_more

urlpatterns = [
    path("events", api.EventListView.as_view(), name="api-events"),
    path("events/<int:event_id>", api.EventDetailView.as_view(), name="api-event"),
    path("events/<int:event_id>/judges", api.EventJudgesView.as_view(), name="api-event-judges"),
    path("events/<int:event_id>/calls", api.CallListView.as_view(), name="api-event-calls"),
    path(
        "events/<int:event_id>/calls/<int:call_id>",
        api.CallDetailView.as_view(),
        name="api-event-call",
    ),
    path(
        "events/<int:event_id>/calls/<int:call_id>/notes",
        api.CallNotesView.as_view(),
        name="api-event-call-notes",
    ),
    path(
        "events/<int:event_id>/calls/<int:call_id>/revisions",
        api_more.CallRevisionsView.as_view(),
        name="api-event-call-revisions",
    ),
    path(
        "events/<int:event_id>/infractions",
        api_more.InfractionListView.as_view(),
        name="api-event-infractions",
    ),
    path("events/<int:event_id>/players", api.PlayerListView.as_view(), name="api-event-players"),
    path(
        "events/<int:event_id>/players/<str:name>",
        api.PlayerView.as_view(),
        name="api-event-player",
    ),
    path(
        "events/<int:event_id>/export.csv", api.ExportCsvView.as_view(), name="api-event-export-csv"
    ),
    path(
        "events/<int:event_id>/export.json",
        api.ExportJsonView.as_view(),
        name="api-event-export-json",
    ),
]
