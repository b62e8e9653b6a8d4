"""URL map: the API under /api/v1/, the pages, and the admin."""

from django.contrib import admin
from django.urls import include, path

from judgeapp import health

urlpatterns = [
    path("admin/", admin.site.urls),
    path("api/v1/health", health.health, name="health"),
]
