"""Every answer under /api/v1/ is JSON in the API's error shape (docs/API.md), whatever produced it.

The middleware turns what Django or another middleware answers in HTML (routing 404s, 405, 413, 414,
a CSRF 403, a 500) into {"error": {"code", "message", "details"}}; an exception a view did not
handle becomes a 500 whose body carries an error id, logged with the traceback and never shown.
Before the view runs it refuses URLs that are too long and paths or query strings holding NUL or
unpaired surrogate characters, which PostgreSQL cannot store and SQLite stores, so both
answer alike.
"""

from __future__ import annotations

import logging
import uuid

from django.conf import settings
from django.core.exceptions import RequestDataTooBig, TooManyFieldsSent, TooManyFilesSent
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.views.csrf import csrf_failure as django_csrf_failure

from judgeapp.api_errors import error_body
from judgeapp.text_checks import bad_text_reason

logger = logging.getLogger("judgeapp.api")
API_PREFIX = "/api/v1/"
MAX_URL_LENGTH = 4096  # gunicorn refuses longer request lines itself (limit_request_line 4094)

CODES = {
    400: ("bad_request", "The request could not be read."),
    401: ("not_authenticated", "Sign in to do this."),
    403: ("forbidden", "You may not do this."),
    404: ("not_found", "No such path in the API: see /api/v1/schema/ for the ones there are."),
    405: ("method_not_allowed", "This path does not take that method."),
    406: ("not_acceptable", "The API answers JSON only."),
    413: ("too_large", "The request body is too large."),
    414: ("uri_too_long", "The URL is too long."),
    415: ("unsupported_media_type", "Send JSON (Content-Type: application/json)."),
    429: ("throttled", "Too many attempts; try again later."),
    500: ("server_error", "The service failed to answer; the error id names it in the server log."),
    503: ("unavailable", "A service this needs is unavailable; try again shortly."),
}


def is_api(request: HttpRequest) -> bool:
    return request.path.startswith(API_PREFIX)


def json_error(
    status: int, *, code: str | None = None, message: str | None = None, details: dict | None = None
) -> JsonResponse:
    default_code, default_message = CODES.get(status, ("error", "The request failed."))
    return JsonResponse(
        error_body(code or default_code, message or default_message, details), status=status
    )


def server_error(request: HttpRequest, exc: BaseException | None = None) -> JsonResponse:
    """A 500 with a fresh error id; the traceback (when there is one) goes to the log under
    that id."""
    error_id = uuid.uuid4().hex[:12]
    if exc is not None:
        logger.error(
            "error id %s: %s %s failed",
            error_id,
            request.method,
            request.path,
            exc_info=(type(exc), exc, exc.__traceback__),
        )
    else:
        logger.error("error id %s: %s %s answered 500", error_id, request.method, request.path)
    return json_error(500, details={"error_id": error_id})


def dependency_error(exc: BaseException | None) -> bool:
    """The database or the broker is down or not answering (not a bug of this service): 503."""
    if exc is None:
        return False
    from django.db import InterfaceError, OperationalError
    from kombu.exceptions import OperationalError as BrokerOperationalError

    if isinstance(exc, (OperationalError, InterfaceError, BrokerOperationalError)):
        return True
    try:
        from redis.exceptions import ConnectionError as RedisConnectionError
        from redis.exceptions import TimeoutError as RedisTimeoutError
    except ImportError:  # pragma: no cover (redis is in requirements.txt)
        return False
    return isinstance(exc, (RedisConnectionError, RedisTimeoutError))


def unavailable(request: HttpRequest, exc: BaseException) -> HttpResponse:
    """503 for a dependency that is down: JSON under /api/v1/, a plain page elsewhere, with
    Retry-After. Logged without the traceback (the cause is the dependency, named in the
    log line)."""
    logger.warning(
        "%s %s: a dependency is unavailable: %s: %s",
        request.method,
        request.path,
        exc.__class__.__name__,
        str(exc).strip().splitlines()[0] if str(exc).strip() else "",
    )
    retry_after = settings.JUDGEAPP_RETRY_AFTER
    response: HttpResponse
    if is_api(request):
        response = json_error(503, details={"retry_after_seconds": retry_after})
    else:
        from django.template import loader

        # Rendered without the request: no context processor may touch the database that is down.
        response = HttpResponse(
            loader.get_template("503.html").render({"retry_after": retry_after}), status=503
        )
    response["Retry-After"] = str(retry_after)
    return response


def handler500(request: HttpRequest) -> HttpResponse:
    """urls.handler500: what an exception no one handled answers, wherever it was raised (a view or
    a middleware). A dependency that is down is 503; anything else is the API's JSON 500 or
    the page."""
    import sys

    exc = sys.exc_info()[1]
    if exc is not None and dependency_error(exc):
        return unavailable(request, exc)
    if is_api(request):
        return server_error(request, exc)
    from django.views.defaults import server_error as page_server_error

    return page_server_error(request)


def _refusal(request: HttpRequest) -> JsonResponse | None:
    if len(request.get_full_path()) > MAX_URL_LENGTH:
        return json_error(
            414, message=f"The URL is too long (at most {MAX_URL_LENGTH} characters)."
        )
    reason = bad_text_reason(request.path)
    if reason:
        return json_error(
            400, code="invalid", message=f"path: {reason}", details={"path": [reason]}
        )
    for key, values in request.GET.lists():
        for text in (key, *values):
            reason = bad_text_reason(text)
            if reason:
                return json_error(
                    400, code="invalid", message=f"{key}: {reason}", details={key: [reason]}
                )
    return None


def _is_json(response: HttpResponse) -> bool:
    return response.get("Content-Type", "").split(";")[0].strip() == "application/json"


class ApiGuardMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if not is_api(request):
            return self.get_response(request)
        refusal = _refusal(request)
        if refusal is not None:
            return refusal
        response = self.get_response(request)
        if response.status_code >= 400 and not _is_json(response):
            if response.status_code >= 500:
                return server_error(request)
            response = self._as_json(response)
        return response

    @staticmethod
    def _as_json(response: HttpResponse) -> JsonResponse:
        answer = json_error(response.status_code)
        for header in ("Allow", "Retry-After", "WWW-Authenticate"):
            if header in response:
                answer[header] = response[header]
        return answer

    def process_exception(self, request: HttpRequest, exc: Exception) -> HttpResponse | None:
        if dependency_error(exc):
            return unavailable(request, exc)
        if not is_api(request):
            return None
        if isinstance(exc, RequestDataTooBig):
            return json_error(
                413,
                message=(
                    "The request body is too large (at most "
                    f"{settings.DATA_UPLOAD_MAX_MEMORY_SIZE} bytes)."
                ),
            )
        if isinstance(exc, (TooManyFieldsSent, TooManyFilesSent)):
            return json_error(400, code="invalid", message=str(exc))
        from django.core.exceptions import PermissionDenied
        from django.http import Http404

        if isinstance(exc, (Http404, PermissionDenied)):
            return None  # Django answers these (404, 403); __call__ turns them into JSON
        return server_error(request, exc)


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    """CSRF_FAILURE_VIEW: JSON under /api/v1/, Django's page elsewhere."""
    if is_api(request):
        return json_error(
            403,
            code="csrf_failed",
            message=f"CSRF check failed: {reason.rstrip('.')}. Send the csrftoken cookie's value "
            "in the X-CSRFToken header, or use basic authentication.",
            details={"reason": reason},
        )
    return django_csrf_failure(request, reason=reason)


def locked_out(
    request: HttpRequest, credentials: dict | None = None, *args, **kwargs
) -> HttpResponse:
    """AXES_LOCKOUT_CALLABLE: too many wrong passwords. JSON 429 under /api/v1/, a plain
    page elsewhere."""
    minutes = round(settings.AXES_COOLOFF_TIME * 60)
    message = f"Too many failed sign-ins: locked out for {minutes} minutes."
    response: HttpResponse
    if is_api(request):
        response = json_error(
            429, code="locked_out", message=message, details={"retry_after_seconds": minutes * 60}
        )
    else:
        response = HttpResponse(
            f"<!doctype html><title>Locked out</title><p>{message}</p>", status=429
        )
    response["Retry-After"] = str(minutes * 60)
    return response
