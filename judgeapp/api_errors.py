"""One JSON error shape for the whole API: {"error": {"code", "message", "details"}}
(docs/API.md)."""

from __future__ import annotations

from typing import Any

from django.http import Http404, JsonResponse
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler


class ApiError(exceptions.APIException):
    """Raise from a view to answer with a specific code, message and details."""

    def __init__(
        self, code: str, message: str, *, status_code: int = 400, details: dict | None = None
    ) -> None:
        super().__init__(detail=message, code=code)
        self.status_code = status_code
        self.error_code = code
        self.message = message
        self.details = details or {}


class RateLimited(exceptions.Throttled):
    """429: a limit of judgeapp.api_limits was reached. The answer names the limit and says when to
    try again (Retry-After)."""

    def __init__(self, limit: str, message: str, wait: int) -> None:
        super().__init__(wait=wait, detail=message)
        self.limit = limit
        self.message = message
        self.seconds = max(1, int(wait))


def error_body(code: str, message: str, details: dict | None = None) -> dict[str, Any]:
    return {"error": {"code": code, "message": message, "details": details or {}}}


def _first_message(detail: Any) -> str:
    if isinstance(detail, dict):
        for key, value in detail.items():
            return f"{key}: {_first_message(value)}"
    if isinstance(detail, list) and detail:
        return _first_message(detail[0])
    return str(detail)


def rate_limited_response(exc: RateLimited) -> JsonResponse:
    """The 429 of a view outside DRF (the rule lookup's fast path): the same body and header."""
    limited = JsonResponse(
        error_body(
            "rate_limited", exc.message, {"limit": exc.limit, "retry_after_seconds": exc.seconds}
        ),
        status=status.HTTP_429_TOO_MANY_REQUESTS,
    )
    limited["Retry-After"] = str(exc.seconds)
    return limited


def handle_api_exception(exc: Exception, context: dict) -> Response | None:
    if isinstance(exc, ApiError):
        return Response(
            error_body(exc.error_code, exc.message, exc.details), status=exc.status_code
        )
    if isinstance(exc, RateLimited):
        limited = Response(
            error_body(
                "rate_limited",
                exc.message,
                {"limit": exc.limit, "retry_after_seconds": exc.seconds},
            ),
            status=status.HTTP_429_TOO_MANY_REQUESTS,
        )
        limited["Retry-After"] = str(exc.seconds)
        return limited
    if isinstance(exc, Http404):
        return Response(
            error_body("not_found", str(exc) or "Not found."), status=status.HTTP_404_NOT_FOUND
        )
    response = exception_handler(exc, context)
    if response is None:
        return None
    if isinstance(exc, exceptions.ValidationError):
        details = exc.detail if isinstance(exc.detail, dict) else {"non_field_errors": exc.detail}
        response.data = error_body("invalid", _first_message(details), details)
    else:
        code = getattr(exc, "default_code", "error")
        response.data = error_body(code, _first_message(getattr(exc, "detail", str(exc))))
    return response
