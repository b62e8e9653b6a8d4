"""The call log's pages, included at the site root (see judgeapp.calllog.views)."""

from django.urls import path

from judgeapp.calllog import views

urlpatterns = [
    path("events/", views.event_list, name="event-list"),
    path("events/new", views.event_new, name="event-new"),
    path("events/<int:event_id>/", views.event_detail, name="event-detail"),
    path("events/<int:event_id>/judges", views.event_add_judge, name="event-add-judge"),
    path("events/<int:event_id>/players/<str:name>/", views.player_detail, name="event-player"),
    path("events/<int:event_id>/calls/<int:call_id>/", views.call_detail, name="event-call"),
    path("events/<int:event_id>/report/", views.event_report, name="event-report"),
    path("events/<int:event_id>/export.csv", views.export_csv, name="event-export-csv"),
    path("events/<int:event_id>/export.json", views.export_json, name="event-export-json"),
]
