"""What each API view takes and answers, for the schema. Registered as drf-spectacular view
extensions, so the views in the rooms stay as they are: each extension hands the generator a
subclass of the view with its description attached. Importing this module registers them all."""

from __future__ import annotations

from typing import Final

from drf_spectacular.extensions import OpenApiViewExtension
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
    extend_schema_serializer,
    extend_schema_view,
    inline_serializer,
)
from rest_framework import serializers as drf_serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from calllog.players import PlayerChangeRequest, PlayerRequest
from calllog.services import EventRequest, JudgeRequest, NotesRequest
from engines.games.requests import GameOutcomeRequest
from engines.loops.requests import LoopOutcomeRequest
from engines.shuffle_check import ShuffleCheckRequest
from engines.shuffles.requests import ShuffleAnalysisRequest
from floor.services import ClockRequest
from guides.services import WalkRequest
from judgeapp import health
from judgeapp.openapi import shapes
from judgeapp.openapi.models import CallChangeBody, CallRequestBody
from rulesref import curation_views
from rulesref import views as rules_views

ERROR = OpenApiResponse(shapes.ErrorSerializer, description="the API's error shape")
Q: Final = OpenApiParameter.QUERY


def errors(*statuses: int) -> dict:
    return dict.fromkeys(statuses, ERROR)


def param(
    name: str, kind=OpenApiTypes.STR, *, required: bool = False, description: str = "", enum=None
) -> OpenApiParameter:
    return OpenApiParameter(name, kind, Q, required=required, description=description, enum=enum)


# Text the server refuses empty or blank (it strips it first): at least one character that is not
# a space.
TEXT: Final = {"type": "string", "minLength": 1, "pattern": r"\S"}
TEXT_300: Final = {**TEXT, "maxLength": 300}
DOC = OpenApiParameter(
    "doc",
    OpenApiTypes.STR,
    OpenApiParameter.PATH,
    enum=["cr", "mtr", "ipg", "jar"],
    description="the document",
)
VERSION = param(
    "version",
    OpenApiTypes.DATE,
    description="a version's effective date (default: the current version)",
)
AS_OF = param("as_of", OpenApiTypes.DATE, description="the version in effect on that day")
WAIT = param(
    "wait",
    {"type": "number", "minimum": 0, "maximum": 30},
    description="seconds (0 to 30) to wait for the result: 200 when it is ready in time",
)


def describe(target: str, **methods: dict) -> None:
    """Register a view extension for `target` (dotted path) whose methods carry these
    descriptions."""

    def view_replacement(self):
        described = type(
            self.target.__name__, (self.target,), {"__module__": self.target.__module__}
        )
        return extend_schema_view(
            **{method: extend_schema(**kwargs) for method, kwargs in methods.items()}
        )(described)

    name = target.rsplit(".", 1)[1] + "Description"
    type(
        name,
        (OpenApiViewExtension,),
        {"target_class": target, "view_replacement": view_replacement},
    )


class HealthDescription(APIView):
    """Describes judgeapp.health.health, a plain Django view (answered without DRF)."""

    @extend_schema(
        tags=["health"],
        summary="Database and broker reachability",
        auth=[],
        responses={200: shapes.HealthSerializer, 503: shapes.HealthSerializer},
    )
    def get(self, request):  # pragma: no cover  (never routed: the schema reads it)
        return Response()


# Plain Django views: the generator lists only views with a DRF class, so they name one to be read.
health.health.cls = HealthDescription  # type: ignore[attr-defined]  # read by the generator, like as_view()'s
health.health.initkwargs = {}  # type: ignore[attr-defined]
rules_views.rule_detail.cls = rules_views.RuleDetailView  # type: ignore[attr-defined]
rules_views.rule_detail.initkwargs = {}  # type: ignore[attr-defined]

JOB_ANSWERS = {200: shapes.JobSerializer, 202: shapes.JobSerializer, **errors(400, 413)}
JOB = {"tags": ["jobs"], "parameters": [WAIT], "responses": JOB_ANSWERS}

describe(
    "rulesref.views.RuleDetailView",
    get={
        "tags": ["rules"],
        "summary": "One rule by number",
        "operation_id": "rules_detail",
        "parameters": [
            DOC,
            OpenApiParameter(
                "number",
                OpenApiTypes.STR,
                OpenApiParameter.PATH,
                description="729.3, 729.2a, CR 729.2a, 4.2…",
            ),
            VERSION,
            AS_OF,
        ],
        "responses": {200: shapes.RuleSerializer, **errors(400, 404)},
    },
)
describe(
    "rulesref.views.RuleTraceView",
    get={
        "tags": ["rules"],
        "summary": "A rule through every stored version",
        "parameters": [DOC, VERSION, AS_OF],
        "responses": {200: shapes.TraceStepSerializer(many=True), **errors(400, 404)},
    },
)
describe(
    "rulesref.views.GlossaryView",
    get={
        "tags": ["rules"],
        "summary": "A glossary term",
        "parameters": [param("doc", enum=["cr", "mtr", "ipg", "jar"]), VERSION, AS_OF],
        "responses": {200: shapes.GlossarySerializer, **errors(400, 404)},
    },
)
describe(
    "rulesref.views.DocumentsView",
    get={
        "tags": ["rules"],
        "summary": "Every document with its versions",
        "responses": {200: shapes.DocumentSerializer(many=True)},
    },
)
describe(
    "rulesref.views.DiffView",
    get={
        "tags": ["rules"],
        "summary": "What changed between two versions",
        "parameters": [
            DOC,
            param("from", OpenApiTypes.DATE, required=True),
            param("to", OpenApiTypes.DATE, required=True),
        ],
        "responses": {200: shapes.DiffSerializer, **errors(400, 404)},
    },
)
describe(
    "search.views.SearchView",
    get={
        "tags": ["rules"],
        "summary": "Search the rules in judges' words",
        "parameters": [
            param(
                "q",
                TEXT_300,
                required=True,
                description=(
                    "words, a quoted phrase, a rule number or a whole question told as a story"
                    " (at most 1000 characters)"
                ),
            ),
            param("doc", enum=["cr", "mtr", "ipg", "jar"]),
            param(
                "version",
                OpenApiTypes.DATE,
                description="with doc only (a version date belongs to one document): that "
                "version's effective date (default: the current versions)",
            ),
            param(
                "limit",
                {"type": "integer", "minimum": 1, "maximum": 100},
                description="1 to 100 (default 10)",
            ),
        ],
        "responses": {200: shapes.SearchSerializer, **errors(400, 404)},
    },
    post={
        "tags": ["rules"],
        "summary": "Search the rules in judges' words, the question in a JSON body",
        "description": "The same fields and answer as GET, for a question whose address would be "
        "too long (1,000 characters of Cyrillic or Greek pass 4,096 once percent-encoded).",
        "request": inline_serializer(
            "SearchRequest",
            {
                "q": drf_serializers.CharField(max_length=1000),
                "doc": drf_serializers.ChoiceField(["cr", "mtr", "ipg", "jar"], required=False),
                "version": drf_serializers.DateField(required=False),
                "limit": drf_serializers.IntegerField(min_value=1, max_value=100, required=False),
            },
        ),
        "responses": {200: shapes.SearchSerializer, **errors(400, 404)},
    },
)

# The engines' own request models: the schema is what they check (judgeapp.openapi.models).
JOB_REQUESTS = {
    "loop-outcome": LoopOutcomeRequest,
    "game-outcome": GameOutcomeRequest,
    "shuffle-analysis": ShuffleAnalysisRequest,
}


class JobCreateDescription(OpenApiViewExtension):
    """One view class per kind (jobs.views.create_view): the request body follows the kind."""

    target_class = "jobs.views.JobCreateView"
    match_subclasses = True

    def view_replacement(self):
        kind = self.target.kind
        described = type(
            self.target.__name__, (self.target,), {"__module__": self.target.__module__}
        )
        return extend_schema_view(
            post=extend_schema(
                **JOB,
                request=JOB_REQUESTS[kind],
                operation_id=f"jobs_{kind.replace('-', '_')}_create",
                summary=f"Start a {kind.replace('-', ' ')} computation",
            )
        )(described)


describe(
    "jobs.views.JobDetailView",
    get={
        "tags": ["jobs"],
        "summary": "A job's status and result",
        "parameters": [OpenApiParameter("job_id", OpenApiTypes.UUID, OpenApiParameter.PATH)],
        "responses": {200: shapes.JobSerializer, **errors(404)},
    },
)
describe(
    "jobs.views.ShuffleCheckView",
    post={
        "tags": ["jobs"],
        "summary": "The judge's shuffle check: infraction, penalty, fix",
        "request": ShuffleCheckRequest,
        "responses": {200: OpenApiTypes.OBJECT, **errors(400)},
    },
)

describe(
    "guides.views.GuideListView",
    get={"tags": ["guides"], "responses": {200: shapes.GuideSummarySerializer(many=True)}},
)
describe(
    "guides.views.GuideDetailView",
    get={"tags": ["guides"], "responses": {200: shapes.GuideSerializer, **errors(404)}},
)
describe(
    "guides.views.GuideWalkView",
    post={
        "tags": ["guides"],
        "summary": "The node the answers lead to",
        "request": WalkRequest,
        "responses": {200: OpenApiTypes.OBJECT, **errors(400, 404)},
    },
)

describe(
    "cards.api.CardDetailView",
    get={
        "tags": ["cards"],
        "operation_id": "cards_detail",
        "parameters": [OpenApiParameter("name", OpenApiTypes.STR, OpenApiParameter.PATH)],
        "responses": {200: shapes.CardSerializer, **errors(400, 404)},
    },
)
describe(
    "cards.api.CardSearchView",
    get={
        "tags": ["cards"],
        "parameters": [param("q", TEXT, required=True)],
        "responses": {200: shapes.CardSearchSerializer, **errors(400)},
    },
)

SIGNED_IN = errors(400, 403, 404)
describe(
    "floor.api.ClockView",
    get={
        "tags": ["floor"],
        "summary": "The event's round clock",
        "responses": {200: shapes.ClockSerializer, **SIGNED_IN},
    },
    post={
        "tags": ["floor"],
        "summary": "Start, pause, resume, add minutes to or end a round",
        "request": ClockRequest,
        # 409: the round's clock is not in a state that allows the action (none started, ended)
        "responses": {200: shapes.ClockSerializer, **errors(400, 403, 404, 409)},
    },
)

describe(
    "calllog.api.EventListView",
    get={"tags": ["calllog"], "responses": {200: shapes.EventListSerializer, **errors(403)}},
    post={
        "tags": ["calllog"],
        "request": EventRequest,
        "responses": {201: shapes.EventSerializer, **SIGNED_IN},
    },
)
describe(
    "calllog.api.EventDetailView",
    get={
        "tags": ["calllog"],
        "operation_id": "events_detail",
        "responses": {200: shapes.EventSerializer, **SIGNED_IN},
    },
)
describe(
    "calllog.api.EventJudgesView",
    post={
        "tags": ["calllog"],
        "request": JudgeRequest,
        "responses": {201: shapes.MembershipSerializer, **SIGNED_IN},
    },
)
describe(
    "calllog.api.CallListView",
    get={"tags": ["calllog"], "responses": {200: OpenApiTypes.OBJECT, **SIGNED_IN}},
    post={
        "tags": ["calllog"],
        "request": CallRequestBody,
        "responses": {
            200: OpenApiTypes.OBJECT,
            201: OpenApiTypes.OBJECT,
            **errors(400, 403, 404, 409),
        },
    },
)
describe(
    "calllog.api.CallDetailView",
    get={
        "tags": ["calllog"],
        "operation_id": "events_calls_detail",
        "responses": {200: OpenApiTypes.OBJECT, **SIGNED_IN},
    },
    patch={
        "tags": ["calllog"],
        "request": CallChangeBody,
        "responses": {200: OpenApiTypes.OBJECT, **errors(400, 403, 404, 409)},
    },
)
NOTES = {
    "tags": ["calllog"],
    "request": NotesRequest,
    "responses": {200: OpenApiTypes.OBJECT, **SIGNED_IN},
}
describe(
    "calllog.api.CallNotesView",
    put=NOTES,
    patch={**NOTES, "operation_id": "events_calls_notes_partial_update"},
)
describe(
    "calllog.api_more.CallRevisionsView",
    get={"tags": ["calllog"], "responses": {200: shapes.RevisionListSerializer, **SIGNED_IN}},
)
describe(
    "calllog.api_more.InfractionListView",
    get={"tags": ["calllog"], "responses": {200: OpenApiTypes.OBJECT, **SIGNED_IN}},
)
describe(
    "calllog.api.PlayerListView",
    get={"tags": ["calllog"], "responses": {200: OpenApiTypes.OBJECT, **SIGNED_IN}},
    post={
        "tags": ["calllog"],
        "request": PlayerRequest,
        "responses": {
            200: OpenApiTypes.OBJECT,
            201: OpenApiTypes.OBJECT,
            **errors(400, 403, 404, 409),
        },
    },
)
describe(
    "calllog.api.PlayerView",
    get={
        "tags": ["calllog"],
        "operation_id": "events_players_detail",
        "responses": {200: OpenApiTypes.OBJECT, **SIGNED_IN},
    },
    patch={
        "tags": ["calllog"],
        "request": PlayerChangeRequest,
        "responses": {200: OpenApiTypes.OBJECT, **errors(400, 403, 404, 409)},
    },
    delete={"tags": ["calllog"], "responses": {204: None, **errors(403, 404, 409)}},
)
describe(
    "calllog.api.ExportCsvView",
    get={
        "tags": ["calllog"],
        "responses": {
            (200, "text/csv"): OpenApiResponse(OpenApiTypes.STR, description="one call a row"),
            **SIGNED_IN,
        },
    },
)
describe(
    "calllog.api.ExportJsonView",
    get={"tags": ["calllog"], "responses": {200: OpenApiTypes.OBJECT, **SIGNED_IN}},
)

# DRF owns these two requests (a multipart upload, a date): the schema is the serializers their
# views validate with, named without the class's "Request" (the generator adds its own).
extend_schema_serializer(component_name="Upload")(curation_views.UploadRequestSerializer)
extend_schema_serializer(component_name="Rollback")(curation_views.RollbackRequestSerializer)
CURATED = {200: shapes.CurationAnswerSerializer, **errors(400, 403, 404, 409)}
describe(
    "rulesref.curation_views.VersionUploadView",
    post={
        "tags": ["curation"],
        "summary": "Upload a new document version (staff)",
        "request": {"multipart/form-data": curation_views.UploadRequestSerializer},
        "responses": {202: shapes.CuratedVersionSerializer, **errors(400, 403, 409, 413)},
    },
)
describe(
    "rulesref.curation_views.VersionStatusView",
    get={
        "tags": ["curation"],
        "responses": {200: shapes.CuratedVersionSerializer, **errors(403, 404)},
    },
)
describe(
    "rulesref.curation_views.VersionPublishView",
    post={"tags": ["curation"], "request": None, "responses": CURATED},
)
describe(
    "rulesref.curation_views.VersionDiscardView",
    post={"tags": ["curation"], "request": None, "responses": CURATED},
)
describe(
    "rulesref.curation_views.DocumentRollbackView",
    post={
        "tags": ["curation"],
        "request": curation_views.RollbackRequestSerializer,
        "parameters": [DOC],
        "responses": CURATED,
    },
)
