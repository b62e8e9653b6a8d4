"""The call log's pages, included at the site root (see calllog.views)."""

from django.urls import path

from calllog import edit_views, views

urlpatterns = [
    path("events/", views.event_list, name="event-list"),
    path("events/new", views.event_new, name="event-new"),
    path("events/<int:event_id>/", views.event_detail, name="event-detail"),
    path("events/<int:event_id>/judges", views.event_add_judge, name="event-add-judge"),
    path(
        "events/<int:event_id>/record", edit_views.record_infraction, name="event-record-infraction"
    ),
    path("events/<int:event_id>/players/", edit_views.add_player, name="event-add-player"),
    path(
        "events/<int:event_id>/players/<str:name>/rename",
        edit_views.rename_player,
        name="event-rename-player",
    ),
    path(
        "events/<int:event_id>/players/<str:name>/remove",
        edit_views.remove_player,
        name="event-remove-player",
    ),
    path(
        "events/<int:event_id>/calls/<int:call_id>/edit",
        edit_views.edit_call,
        name="event-edit-call",
    ),
    path("events/<int:event_id>/players/<str:name>/", views.player_detail, name="event-player"),
    path("events/<int:event_id>/calls/<int:call_id>/", views.call_detail, name="event-call"),
    path("events/<int:event_id>/report/", views.event_report, name="event-report"),
    path("events/<int:event_id>/export.csv", views.export_csv, name="event-export-csv"),
    path("events/<int:event_id>/export.json", views.export_json, name="event-export-json"),
]
