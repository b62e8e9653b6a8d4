"""Page routes for the tablet pages (server-rendered); mounted at the site root."""

from django.urls import path, re_path

from rulesref.pages import views

urlpatterns = [
    path("", views.home, name="home"),
    path("jump/", views.jump_to, name="page-jump"),
    path("rules/<str:doc>/", views.contents, name="page-contents"),
    re_path(r"^rules/(?P<doc>[A-Za-z]+)/(?P<number>[^/]+)/trace/$", views.trace, name="page-trace"),
    re_path(r"^rules/(?P<doc>[A-Za-z]+)/(?P<number>[^/]+)/$", views.rule, name="page-rule"),
    path("changes/<str:doc>/", views.changes, name="page-changes-latest"),
    path("changes/<str:doc>/<str:date>/", views.changes, name="page-changes"),
    path("glossary/", views.glossary_index, name="page-glossary"),
    path("glossary/<path:term>/", views.glossary_term, name="page-glossary-term"),
    path("sw.js", views.service_worker, name="service-worker"),
]
