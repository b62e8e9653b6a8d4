"""Guides API (docs/API.md "Guides"): the list, one guide whole as data, and a walk through one."""

from __future__ import annotations

from rest_framework.response import Response
from rest_framework.views import APIView

from engines.errors import RequestError
from engines.validation import read
from guides import services as guide_services
from judgeapp import api_limits
from judgeapp.api_errors import ApiError


def _guide_or_404(slug: str) -> None:
    try:
        guide_services.get_guide(slug)
    except guide_services.UnknownGuide:
        raise ApiError("not_found", f"no guide {slug!r}", status_code=404) from None


class GuideListView(APIView):
    """GET /api/v1/guides: [{"slug", "title", "summary"}]."""

    def get(self, request):
        return Response(guide_services.guide_list())


class GuideDetailView(APIView):
    """GET /api/v1/guides/{slug}: {"slug", "title", "start", "nodes": {id: node}}, citations resolved."""  # noqa: E501

    def get(self, request, slug: str):
        _guide_or_404(slug)
        return Response(guide_services.guide_data(slug))


class GuideWalkView(APIView):
    """POST /api/v1/guides/{slug}/walk (also /step) {"answers": [...]}: the node those answers lead to."""  # noqa: E501

    def post(self, request, slug: str):
        _guide_or_404(slug)
        try:
            body = read(guide_services.WalkRequest, request.data)
        except RequestError as exc:
            message = "must be a JSON object with answers" if exc.field == "body" else exc.message
            raise ApiError(
                "invalid", f"{exc.field}: {message}", details={exc.field: exc.message}
            ) from None
        try:
            # an engine the walk runs counts against the client's computations, as a job does
            counted = api_limits.computation_counter(request)
            return Response(guide_services.walk(slug, body.answers, counted))
        except guide_services.WalkError as exc:
            raise ApiError(
                "invalid", f"{exc.field}: {exc.message}", details={exc.field: exc.message}
            ) from None
