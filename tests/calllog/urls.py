"""The site's URLs plus the call log's include lines (as handed to judgeapp/urls.py's owner)."""

from django.urls import include, path

from judgeapp import urls as site

urlpatterns = [
    path("api/v1/", include("calllog.api_urls")),
    path("", include("calllog.urls")),
    path("accounts/", include("django.contrib.auth.urls")),
    *site.urlpatterns,
]
