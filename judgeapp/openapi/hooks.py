"""drf-spectacular hooks: only /api/v1/ is described, and every operation documents the error shape
for any status it does not list (docs/API.md: every error is {"error": {"code", "message",
"details"}})."""

from __future__ import annotations

from judgeapp.api_guard import API_PREFIX

ERROR_REF = {"$ref": "#/components/schemas/Error"}


def api_only(endpoints, **kwargs):
    return [
        (path, regex, method, view)
        for path, regex, method, view in endpoints
        if path.startswith(API_PREFIX)
        and not path.startswith(API_PREFIX + "schema")
        and not path.startswith(API_PREFIX + "docs")
    ]


def add_default_errors(result, generator, request, public):
    for operations in result.get("paths", {}).values():
        for operation in operations.values():
            responses = operation.setdefault("responses", {})
            responses.setdefault(
                "default",
                {
                    "description": (
                        "an error: 400 bad input, 403, 404, 405, 413, 415, 429, 500 (with an "
                        "error id), 503"
                    ),
                    "content": {"application/json": {"schema": ERROR_REF}},
                },
            )
    return result


def json_request_bodies(result, generator, request, public):
    """A request body is described as JSON wherever JSON is one of its forms: the API's bodies are
    JSON objects (docs/API.md); form and multipart encodings, which DRF's parsers also read, carry
    only strings and cannot spell the numbers, booleans and lists the requests need. An upload
    (multipart only) keeps its form."""
    for operations in result.get("paths", {}).values():
        for operation in operations.values():
            content = operation.get("requestBody", {}).get("content", {})
            if "application/json" in content:
                for media_type in [m for m in content if m != "application/json"]:
                    del content[media_type]
    return result
