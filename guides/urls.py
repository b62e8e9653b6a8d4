"""Guide API routes, mounted under /api/v1/ (judgeapp.urls: path("", include("guides.urls")))."""

from django.urls import path

from guides import views

urlpatterns = [
    path("guides", views.GuideListView.as_view(), name="api-guides"),
    path("guides/<slug:slug>", views.GuideDetailView.as_view(), name="api-guide"),
    path("guides/<slug:slug>/walk", views.GuideWalkView.as_view(), name="api-guide-walk"),
    path("guides/<slug:slug>/step", views.GuideWalkView.as_view(), name="api-guide-step"),
]
