"""Rules API (docs/API.md "Rules reference"): thin views over rulesref.services and changes (search:
search/views.py)."""

from __future__ import annotations

import json

from django.http import HttpResponse
from django.views.decorators.csrf import csrf_exempt
from rest_framework.response import Response
from rest_framework.views import APIView

from judgeapp import api_limits
from judgeapp.api_errors import ApiError
from judgeapp.api_guard import json_error
from rulesref import changes, serializers, services

_RULE_CACHE_SIZE = 20_000
_rule_cache: dict[tuple[int, str], dict] = {}
_current_rule_bytes: dict[tuple[int | None, str], bytes] = {}


def _api_error(exc: services.RulesError) -> ApiError:
    status_code = 404 if isinstance(exc, services.NotFound) else 400
    return ApiError(exc.code, exc.message, status_code=status_code, details=exc.details)


class RulesView(APIView):
    """Base: turns a RulesError into the API's error shape."""

    def handle_exception(self, exc):
        if isinstance(exc, services.RulesError):
            exc = _api_error(exc)
        return super().handle_exception(exc)

    def version(self, request, doc: str):
        return services.get_version(
            doc,
            version=request.query_params.get("version"),
            as_of=request.query_params.get("as_of"),
            include_pending=request.user.is_staff,
        )


def rule_key(doc: str, number: str) -> str:
    """What a rule's answer is cached under: its number as the lookup reads it (" 100.1",
    "100.1 " and "CR 100.1" are one entry), else the spelling without case or spaces."""
    return services.canonical_number(doc, number) or "".join(number.split()).casefold()


@csrf_exempt  # nothing is written here: any other method is a 405, never a CSRF refusal
def rule_detail(request, doc: str, number: str):
    """GET /api/v1/rules/{doc}/{number}. The hot path (the current version, a rule asked for before,
    no credentials) answers from encoded bytes after one small query and the address's rate count;
    everything else goes through RuleDetailView."""
    if request.method not in ("GET", "HEAD", "OPTIONS"):
        refused = json_error(
            405,
            code="method_not_allowed",
            message=f"{request.method} is not allowed: rules are read with GET",
        )
        refused["Allow"] = "GET, HEAD, OPTIONS"
        return refused
    if (
        request.method == "GET"
        and not request.GET.get("version")
        and not request.GET.get("as_of")
        and not api_limits.carries_credentials(request)
    ):
        encoded = _current_rule_bytes.get((services.current_version_id(doc), rule_key(doc, number)))
        if encoded is not None:
            # counted here as DRF's throttle counts the other views (it never sees this answer)
            return api_limits.limit_lookup(request) or HttpResponse(
                encoded, content_type="application/json"
            )
    return _rule_detail_view(request, doc=doc, number=number)


class RuleDetailView(RulesView):
    def get(self, request, doc: str, number: str):
        version = self.version(request, doc)
        # A stored version's rules never change, so a rule's answer is cached per version.
        key = (version.pk, rule_key(doc, number))
        body = _rule_cache.get(key)
        if body is None:
            rule = services.find_rule(version, number)
            section = services.section_title(rule)
            body = serializers.rule_detail(
                rule, children=services.children_of(rule), section_title=section
            )
            if len(_rule_cache) >= _RULE_CACHE_SIZE:
                _rule_cache.pop(next(iter(_rule_cache)))
            _rule_cache[key] = body
        # "current" changes when another version is published; the rest of the answer does not.
        answer = {**body, "version": {**body["version"], "current": version.is_current}}
        if version.is_current:
            if len(_current_rule_bytes) >= _RULE_CACHE_SIZE:
                _current_rule_bytes.pop(next(iter(_current_rule_bytes)))
            _current_rule_bytes[key] = json.dumps(answer).encode()
        return Response(answer)


class RuleTraceView(RulesView):
    def get(self, request, doc: str, number: str):
        version = self.version(request, doc)
        rule = services.find_rule(version, number)
        return Response(changes.trace(version, rule.number, include_pending=request.user.is_staff))


class GlossaryView(RulesView):
    def get(self, request, term: str):
        doc = request.query_params.get("doc") or "cr"  # empty: the default, as search reads it
        if doc.lower() not in services.DOC_TITLES:
            raise ApiError(
                "invalid",
                f"doc must be one of {', '.join(services.DOC_TITLES)}",
                details={"doc": doc},
            )
        version = self.version(request, doc)
        return Response(serializers.glossary_detail(services.find_glossary_term(version, term)))


class DocumentsView(RulesView):
    def get(self, request):
        staff = request.user.is_staff
        return Response(
            [
                serializers.document_listing(d, include_pending=staff)
                for d in services.list_documents()
            ]
        )


class DiffView(RulesView):
    def get(self, request, doc: str):
        params = request.query_params
        missing = [name for name in ("from", "to") if not params.get(name)]
        if missing:
            raise ApiError(
                "invalid",
                f"{missing[0]} is required: a version's effective date as YYYY-MM-DD",
                details={name: "required" for name in missing},
            )
        old, new = (
            self._version(doc, name, params[name], request.user.is_staff) for name in ("from", "to")
        )
        return Response(changes.diff_versions(old, new))

    @staticmethod
    def _version(doc: str, name: str, date: str, staff: bool):
        """The version `from` or `to` names; an error names that parameter, not "version"."""
        services.parse_date(date, name)
        try:
            return services.get_version(doc, version=date, include_pending=staff)
        except services.NotFound as exc:
            if "doc" in exc.details:
                raise
            raise services.NotFound(
                f"{name}: {exc.message}", details={name: date, **exc.details}
            ) from None


_rule_detail_view = RuleDetailView.as_view()
