"""The site's routes with the guide pages, the guide API and the call log API mounted, for tests that run
before (or without) judgeapp.urls including them; routes judgeapp.urls already has are matched there
first, so this adds nothing once the project mounts them."""

from django.urls import include, path

urlpatterns = [
    path("", include("judgeapp.urls")),
    path("", include("judgeapp.guide_page_urls")),
    path("api/v1/", include("judgeapp.guide_urls")),
    path("api/v1/", include("judgeapp.calllog.api_urls")),
]
