"""Request parsers for the API (REST_FRAMEWORK's DEFAULT_PARSER_CLASSES): JSON with a size cap and a
nesting limit, and form and multipart bodies, all refusing NUL and unpaired surrogates with 400
naming the field, instead of a RecursionError or a database error (500)."""

from __future__ import annotations

import json

from django.conf import settings
from rest_framework import parsers

from judgeapp.text_checks import bad_text_reason, depth_of, find_bad_text

MAX_DEPTH = 32  # the deepest real request (a loop's iteration effects) nests 5 levels


def ApiError(*args, **kwargs):  # noqa: N802  (imported late: api_errors imports DRF's views, which read these settings)
    from judgeapp.api_errors import ApiError as error

    return error(*args, **kwargs)


def _reject_constant(name: str):
    raise ValueError(f"{name} is not valid JSON")


def _refuse_bad_text(data) -> None:
    found = find_bad_text(data)
    if found is not None:
        field, reason = found
        raise ApiError("invalid", f"{field}: {reason}", details={field: [reason]})


class GuardedJSONParser(parsers.JSONParser):
    def parse(self, stream, media_type=None, parser_context=None):
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        raw = stream.read(limit + 1)
        if len(raw) > limit:
            raise ApiError(
                "too_large",
                f"the request body is too large (at most {limit} bytes)",
                status_code=413,
            )
        encoding = (parser_context or {}).get("encoding", settings.DEFAULT_CHARSET)
        try:
            data = json.loads(raw.decode(encoding), parse_constant=_reject_constant)
        except RecursionError:
            raise ApiError(
                "invalid",
                f"body: JSON nested too deeply (at most {MAX_DEPTH} levels)",
                details={"body": ["nested too deeply"]},
            ) from None
        except (UnicodeDecodeError, ValueError) as exc:
            raise ApiError(
                "parse_error", f"body: not valid JSON ({exc})", details={"body": ["not valid JSON"]}
            ) from None
        if depth_of(data) > MAX_DEPTH:
            raise ApiError(
                "invalid",
                f"body: JSON nested too deeply (at most {MAX_DEPTH} levels)",
                details={"body": ["nested too deeply"]},
            )
        _refuse_bad_text(data)
        return data


def _refuse_bad_form(data) -> None:
    for key, values in data.lists():
        for text in (key, *values):
            reason = bad_text_reason(text) if isinstance(text, str) else None
            if reason:
                raise ApiError("invalid", f"{key}: {reason}", details={key: [reason]})


class GuardedFormParser(parsers.FormParser):
    def parse(self, stream, media_type=None, parser_context=None):
        data = super().parse(stream, media_type, parser_context)
        _refuse_bad_form(data)
        return data


class GuardedMultiPartParser(parsers.MultiPartParser):
    def parse(self, stream, media_type=None, parser_context=None):
        result = super().parse(stream, media_type, parser_context)
        _refuse_bad_form(result.data)
        return result
