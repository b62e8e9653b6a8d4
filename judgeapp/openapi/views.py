"""The schema at /api/v1/schema/ (JSON; YAML on ?format=yaml) and its docs page at /api/v1/docs/
(Swagger UI from drf-spectacular-sidecar's static files: no CDN)."""

from __future__ import annotations

from django.urls import path
from drf_spectacular.renderers import (
    OpenApiJsonRenderer,
    OpenApiJsonRenderer2,
    OpenApiYamlRenderer,
)
from drf_spectacular.utils import extend_schema
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView
from rest_framework.negotiation import DefaultContentNegotiation

from judgeapp.openapi import auth, describe  # noqa: F401  (register the schemes, the views)


class FormatNegotiation(DefaultContentNegotiation):
    """?format=yaml on the schema alone: the rest of the API has no such parameter (settings'
    URL_FORMAT_OVERRIDE is None)."""

    def select_renderer(self, request, renderers, format_suffix=None):
        # a format no renderer gives is ignored (JSON), never a 404 for a path that exists
        asked = format_suffix or request.query_params.get("format")
        known = {renderer.format for renderer in renderers}
        return super().select_renderer(request, renderers, asked if asked in known else None)


@extend_schema(exclude=True)
class SchemaView(SpectacularAPIView):
    # JSON first (the default); `Accept: application/json` gets the same JSON, not 406
    renderer_classes = [OpenApiJsonRenderer, OpenApiJsonRenderer2, OpenApiYamlRenderer]
    content_negotiation_class = FormatNegotiation


@extend_schema(exclude=True)
class DocsView(SpectacularSwaggerView):
    url_name = "api-schema"


urlpatterns = [
    path("schema/", SchemaView.as_view(), name="api-schema"),
    path("docs/", DocsView.as_view(), name="api-docs"),
]
