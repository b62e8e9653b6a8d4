"""Search API (docs/API.md "Rules reference", GET /api/v1/search, and POST with the same fields in
a JSON body, for a long question whose address would be too long: 1,000 characters of Cyrillic or
Greek are over 4,096 once percent-encoded): a thin view over search.service."""

from __future__ import annotations

from collections.abc import Mapping

from rest_framework.response import Response

from judgeapp import numbers
from judgeapp.api_errors import ApiError
from rulesref import services
from rulesref.pages.views import MAX_QUERY
from rulesref.views import RulesView


class SearchView(RulesView):
    def get(self, request):
        return self.answer(request, request.query_params)

    def post(self, request):
        if not isinstance(request.data, dict):
            message = "the request body must be a JSON object with q"
            raise ApiError("invalid", f"body: {message}", details={"body": [message]})
        # the body's values as the query string gives them: text, a limit a whole number too
        params: dict[str, str] = {}
        for key in ("q", "doc", "version", "limit"):
            value = request.data.get(key)
            if value is None:
                continue
            if key == "limit" and isinstance(value, int) and not isinstance(value, bool):
                value = str(value)
            if not isinstance(value, str):
                raise ApiError("invalid", f"{key} must be text", details={key: "must be text"})
            params[key] = value
        return self.answer(request, params)

    def answer(self, request, params: Mapping[str, str]) -> Response:
        query = params.get("q", "").strip()
        if not query:
            raise ApiError(
                "invalid",
                "q is required: the words, phrase or rule number to search for",
                details={"q": "required"},
            )
        if len(query) > MAX_QUERY:
            raise ApiError(
                "invalid",
                f"q is too long (at most {MAX_QUERY} characters)",
                details={"q": "too long"},
            )
        raw_limit = params.get("limit", "10")
        limit = numbers.whole(raw_limit)
        if limit is None or not 1 <= limit <= 100:
            raise ApiError(
                "invalid",
                "limit must be a whole number from 1 to 100",
                details={"limit": raw_limit},
            )
        doc = (params.get("doc") or "").lower() or None
        if doc is not None and doc.lower() not in services.DOC_TITLES:
            raise ApiError(
                "invalid",
                f"doc must be one of {', '.join(services.DOC_TITLES)}",
                details={"doc": doc},
            )
        if params.get("version") and doc is None:
            raise ApiError(
                "invalid",
                "version needs doc: a version date belongs to one document",
                details={"version": params["version"]},
            )
        from search import service as search_service

        answer = search_service.search_answer(
            query,
            doc=doc,
            version=params.get("version"),
            limit=limit,
            include_pending=request.user.is_staff,
        )
        return Response(
            {
                "results": answer["results"],
                "count": len(answer["results"]),
                "query": query,
                "ranking": answer["ranking"],
                "understood": answer["understood"],
                "cards": answer["cards"],
            }
        )
