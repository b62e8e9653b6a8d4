"""Search API (docs/API.md "Rules reference", GET /api/v1/search): a thin view over
search.service."""

from __future__ import annotations

from rest_framework.response import Response

from judgeapp import numbers
from judgeapp.api_errors import ApiError
from rulesref import services
from rulesref.pages.views import MAX_QUERY
from rulesref.views import RulesView


class SearchView(RulesView):
    def get(self, request):
        params = request.query_params
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
