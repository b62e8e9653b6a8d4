"""Rules API routes, mounted under /api/v1/."""

from django.urls import path, re_path

from rulesref import views

urlpatterns = [
    path("documents", views.DocumentsView.as_view(), name="api-documents"),
    path("glossary/<path:term>", views.GlossaryView.as_view(), name="api-glossary"),
    path("diff/<str:doc>", views.DiffView.as_view(), name="api-diff"),
    re_path(
        r"^rules/(?P<doc>[A-Za-z]+)/(?P<number>.+)/trace$",
        views.RuleTraceView.as_view(),
        name="api-rule-trace",
    ),
    re_path(r"^rules/(?P<doc>[A-Za-z]+)/(?P<number>.+)$", views.rule_detail, name="api-rule"),
]
