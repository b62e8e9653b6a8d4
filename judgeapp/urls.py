"""URL map: the API under /api/v1/, the pages, and the admin."""

from django.contrib import admin
from django.urls import include, path

from cards import urls as cards_urls
from floor import urls as floor_urls
from jobs import views
from jobs.models import Job
from judgeapp import health
from judgeapp.openapi import views as openapi_views

handler500 = "judgeapp.api_guard.handler500"  # a dependency that is down answers 503, never 500

api = [
    path("health", health.health, name="health"),
    path("", include(openapi_views.urlpatterns)),
    path("jobs/loop-outcome", views.create_view(Job.Kind.LOOP_OUTCOME), name="api-loop-outcome"),
    path("jobs/game-outcome", views.create_view(Job.Kind.GAME_OUTCOME), name="api-game-outcome"),
    path(
        "jobs/shuffle-analysis",
        views.create_view(Job.Kind.SHUFFLE_ANALYSIS),
        name="api-shuffle-analysis",
    ),
    path("shuffle-check", views.ShuffleCheckView.as_view(), name="api-shuffle-check"),
    path("jobs/<uuid:job_id>", views.JobDetailView.as_view(), name="api-job"),
    path("", include("rulesref.urls")),
    path("", include("search.urls")),
    path("", include("rulesref.curation_urls")),
    path("", include("calllog.api_urls")),
    path("", include("guides.urls")),
    path("", include(cards_urls.api_urlpatterns)),
    path("", include(floor_urls.api_urlpatterns)),
]

urlpatterns = [
    path("admin/", admin.site.urls),
    path("api/v1/", include(api)),
    path("accounts/", include("django.contrib.auth.urls")),
    path("", include("calllog.urls")),
    path("", include("guides.page_urls")),
    path("", include("jobs.page_urls")),
    path("", include(cards_urls.page_urlpatterns)),
    path("", include(floor_urls.page_urlpatterns)),
    path("", include("rulesref.page_urls")),
    path("", include("search.page_urls")),
]
