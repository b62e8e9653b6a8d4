"""Staff curation API routes, mounted under /api/v1/ (judgeapp.urls: path("",
include("rulesref.curation_urls")))."""

from django.urls import path

from rulesref import curation_views as views

urlpatterns = [
    path("admin/versions", views.VersionUploadView.as_view(), name="api-admin-versions"),
    path(
        "admin/versions/<int:version_id>",
        views.VersionStatusView.as_view(),
        name="api-admin-version",
    ),
    path(
        "admin/versions/<int:version_id>/publish",
        views.VersionPublishView.as_view(),
        name="api-admin-version-publish",
    ),
    path(
        "admin/versions/<int:version_id>/discard",
        views.VersionDiscardView.as_view(),
        name="api-admin-version-discard",
    ),
    path(
        "admin/documents/<str:doc>/rollback",
        views.DocumentRollbackView.as_view(),
        name="api-admin-document-rollback",
    ),
]
