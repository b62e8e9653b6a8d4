"""URL map: the API under /api/v1/, the pages, and the admin."""

from django.contrib import admin
from django.urls import include, path

from judgeapp import health, views
from judgeapp.models import Job

api = [
    path("health", health.health, name="health"),
    path("jobs/loop-outcome", views.create_view(Job.Kind.LOOP_OUTCOME), name="api-loop-outcome"),
    path("jobs/game-outcome", views.create_view(Job.Kind.GAME_OUTCOME), name="api-game-outcome"),
    path("jobs/shuffle-analysis", views.create_view(Job.Kind.SHUFFLE_ANALYSIS), name="api-shuffle-analysis"),
    path("shuffle-check", views.ShuffleCheckView.as_view(), name="api-shuffle-check"),
    path("jobs/<int:job_id>", views.JobDetailView.as_view(), name="api-job"),
    path("", include("rulesref.urls")),
    path("", include("rulesref.curation_urls")),
    path("", include("judgeapp.calllog.api_urls")),
    path("", include("judgeapp.guide_urls")),
]

urlpatterns = [
    path("admin/", admin.site.urls),
    path("api/v1/", include(api)),
    path("accounts/", include("django.contrib.auth.urls")),
    path("", include("judgeapp.calllog.urls")),
    path("", include("judgeapp.guide_page_urls")),
    path("", include("judgeapp.page_urls")),
    path("", include("rulesref.page_urls")),
]
