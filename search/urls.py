"""Search API route, mounted under /api/v1/."""

from django.urls import path

from search import views

urlpatterns = [
    path("search", views.SearchView.as_view(), name="api-search"),
]
