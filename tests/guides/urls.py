"""A URL map for the guide API tests: the guide routes under /api/v1/, as judgeapp.urls
mounts them."""

from django.urls import include, path

urlpatterns = [path("api/v1/", include("guides.urls"))]
