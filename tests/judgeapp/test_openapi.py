"""The OpenAPI schema (issue 14): served as JSON and YAML, lists every endpoint of docs/API.md and
the extensions, documents the error shape, and its docs page uses the project's own static files."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml
from django.test import Client

pytestmark = pytest.mark.django_db
API_MD = Path(__file__).resolve().parents[2] / "docs" / "API.md"
EXPECTED = {
    "/api/v1/health",
    "/api/v1/rules/{doc}/{number}",
    "/api/v1/rules/{doc}/{number}/trace",
    "/api/v1/search",
    "/api/v1/glossary/{term}",
    "/api/v1/documents",
    "/api/v1/diff/{doc}",
    "/api/v1/jobs/loop-outcome",
    "/api/v1/jobs/game-outcome",
    "/api/v1/jobs/shuffle-analysis",
    "/api/v1/jobs/{job_id}",
    "/api/v1/guides",
    "/api/v1/guides/{slug}",
    "/api/v1/guides/{slug}/walk",
    "/api/v1/cards/{name}",
    "/api/v1/cards",
    "/api/v1/shuffle-check",
    "/api/v1/events",
    "/api/v1/events/{event_id}/calls",
    "/api/v1/events/{event_id}/clock",
    "/api/v1/admin/versions",
    "/api/v1/admin/versions/{version_id}/publish",
    "/api/v1/admin/documents/{doc}/rollback",
}


@pytest.fixture(scope="module")
def schema(django_db_blocker):
    with django_db_blocker.unblock():
        response = Client().get("/api/v1/schema/")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/vnd.oai.openapi+json")
    return response.json()


class SchemaTests:
    def test_it_is_openapi_3_and_lists_every_endpoint(self, schema):
        assert schema["openapi"].startswith("3.")
        assert EXPECTED <= set(schema["paths"])

    def test_every_path_api_md_names_is_described(self, schema):
        named = {
            m.group(1).split("?")[0]
            for m in re.finditer(r"`(?:GET|POST) (/api/v1/[^`\s]+)", API_MD.read_text())
        }
        described = {re.sub(r"\{[^}]+\}", "{}", p) for p in schema["paths"]}
        for path in named - {"/api/v1/schema/"}:
            assert re.sub(r"\{[^}]+\}", "{}", path) in described, path

    def test_every_operation_documents_the_error_shape(self, schema):
        assert set(schema["components"]["schemas"]["Error"]["properties"]) == {"error"}
        for path, operations in schema["paths"].items():
            for method, operation in operations.items():
                assert "default" in operation["responses"], (method, path)

    def test_job_requests_and_answers_are_described(self, schema):
        post = schema["paths"]["/api/v1/jobs/game-outcome"]["post"]
        assert "requestBody" in post and {"202", "200"} <= set(post["responses"])
        assert any(p["name"] == "wait" for p in post["parameters"])
        job = schema["components"]["schemas"]["Job"]
        assert {"id", "kind", "status", "result", "error"} <= set(job["required"])

    def test_yaml_on_request(self):
        response = Client().get("/api/v1/schema/?format=yaml")
        assert response.status_code == 200 and response["Content-Type"].startswith(
            "application/vnd.oai.openapi;"
        )
        assert "/api/v1/search" in yaml.safe_load(response.content)["paths"]
        for unknown in ("xml", "openapi-json"):
            other = Client().get(f"/api/v1/schema/?format={unknown}")
            assert other.status_code == 200 and "/api/v1/search" in other.json()["paths"]


class DocsPageTests:
    def test_the_docs_page_uses_our_own_static_files(self):
        response = Client().get("/api/v1/docs/")
        assert response.status_code == 200
        page = response.content.decode()
        assert "/static/drf_spectacular_sidecar/swagger-ui-dist/" in page
        # no address on a CDN (a bare "cdn" can be inside the page's random nonce)
        hosts = re.findall(r"(?:https?:)?//([a-z0-9.-]+)", page.lower())
        assert not [h for h in hosts if "cdn" in h or "unpkg" in h], hosts


class RequestModelSchemaTests:
    """The job requests and the call are described by the models that read them (issue 26)."""

    def body(self, schema, path):
        ref = schema["paths"][path]["post"]["requestBody"]["content"]["application/json"]["schema"][
            "$ref"
        ]
        return schema["components"]["schemas"][ref.rsplit("/", 1)[1]]

    def test_each_job_request_has_its_models_fields(self, schema):
        from engines.games.requests import GameOutcomeRequest
        from engines.loops.requests import LoopOutcomeRequest
        from engines.shuffles.requests import ShuffleAnalysisRequest

        for kind, model in {
            "loop-outcome": LoopOutcomeRequest,
            "game-outcome": GameOutcomeRequest,
            "shuffle-analysis": ShuffleAnalysisRequest,
        }.items():
            body = self.body(schema, f"/api/v1/jobs/{kind}")
            assert set(body["properties"]) == {
                f.alias or n for n, f in model.model_fields.items()
            }, kind

    def test_constraints_are_those_the_server_enforces(self, schema):
        loop = self.body(schema, "/api/v1/jobs/loop-outcome")
        assert (
            loop["properties"]["players"]["minItems"],
            loop["properties"]["players"]["maxItems"],
        ) == (2, 16)
        assert set(loop["required"]) == {"players", "iteration"}  # state and the rest have defaults
        shuffle = self.body(schema, "/api/v1/jobs/shuffle-analysis")
        assert (
            shuffle["properties"]["deck_size"]["minimum"],
            shuffle["properties"]["deck_size"]["maximum"],
        ) == (1, 250)
        kinds = schema["components"]["schemas"]["ActionKind"]["enum"]
        assert kinds == ["optional", "mandatory", "unless"]
        call = self.body(schema, "/api/v1/events/{event_id}/calls")
        assert call["required"] == ["client_id"] and call["properties"]["players"]["maxItems"] == 8

    def test_the_rooms_requests_are_the_models_their_views_read(self, schema):
        from calllog.players import PlayerRequest
        from calllog.services import EventRequest, JudgeRequest
        from engines.shuffle_check import ShuffleCheckRequest
        from floor.services import ACTIONS, ClockRequest
        from guides.services import WalkRequest

        for path, model in {
            "/api/v1/shuffle-check": ShuffleCheckRequest,
            "/api/v1/guides/{slug}/walk": WalkRequest,
            "/api/v1/events/{event_id}/clock": ClockRequest,
            "/api/v1/events": EventRequest,
            "/api/v1/events/{event_id}/judges": JudgeRequest,
            "/api/v1/events/{event_id}/players": PlayerRequest,
        }.items():
            body = self.body(schema, path)
            assert set(body["properties"]) == set(model.model_fields), path
        check = self.body(schema, "/api/v1/shuffle-check")
        assert (
            set(check["required"]) == {"rel", "deck_size"}
            and check["properties"]["presented_to_opponent"]["default"] is True
        )
        assert (
            check["properties"]["deck_size"]["minimum"],
            check["properties"]["deck_size"]["maximum"],
        ) == (0, 250)
        clock = self.body(schema, "/api/v1/events/{event_id}/clock")
        action = clock["properties"]["action"]["allOf"][0]["$ref"].rsplit("/", 1)[1]
        # "add", as the server takes it
        assert schema["components"]["schemas"][action]["enum"] == list(ACTIONS)
        event = self.body(schema, "/api/v1/events")
        assert (
            set(event["required"]) == {"name", "date"}
            and event["properties"]["name"]["maxLength"] == 200
        )

    def test_drf_owned_requests_are_their_views_serializers(self, schema):
        upload = schema["paths"]["/api/v1/admin/versions"]["post"]["requestBody"]["content"][
            "multipart/form-data"
        ]["schema"]
        assert upload["$ref"].endswith("/UploadRequest")
        assert schema["components"]["schemas"]["UploadRequest"]["required"] == ["file"]
        assert set(schema["components"]["schemas"]["RollbackRequest"]["properties"]) == {
            "to",
            "from",
        }

    def test_basic_auth_and_the_token_are_described(self, schema):
        """Issue 29: the schema lacked the basic auth the API takes (a warning per view)."""
        schemes = schema["components"]["securitySchemes"]
        assert schemes["basicAuth"] == {**schemes["basicAuth"], "type": "http", "scheme": "basic"}
        assert schemes["tokenAuth"] == {**schemes["tokenAuth"], "type": "http", "scheme": "bearer"}
        events = schema["paths"]["/api/v1/events"]["get"]["security"]
        assert {"basicAuth": []} in events and {"tokenAuth": []} in events

    def test_generating_the_schema_warns_of_nothing(self):
        from drf_spectacular.drainage import GENERATOR_STATS
        from drf_spectacular.generators import SchemaGenerator

        GENERATOR_STATS.reset()
        SchemaGenerator().get_schema(request=None, public=True)
        assert not GENERATOR_STATS, dict(GENERATOR_STATS._warn_cache)

    def test_query_parameters_declare_what_the_server_takes(self, schema):
        for path in ("/api/v1/search", "/api/v1/cards"):
            (q,) = [p for p in schema["paths"][path]["get"]["parameters"] if p["name"] == "q"]
            assert q["required"] and q["schema"]["minLength"] == 1 and q["schema"]["pattern"]
            assert Client().get(f"{path}?q=%20").status_code == 400
        limit = [
            p
            for p in schema["paths"]["/api/v1/search"]["get"]["parameters"]
            if p["name"] == "limit"
        ][0]["schema"]
        assert (limit["minimum"], limit["maximum"]) == (1, 100)
        wait = [
            p
            for p in schema["paths"]["/api/v1/jobs/game-outcome"]["post"]["parameters"]
            if p["name"] == "wait"
        ][0]["schema"]
        assert (wait["minimum"], wait["maximum"]) == (0, 30)  # jobs.views.MAX_WAIT_SECONDS

    def test_accept_application_json_gets_the_schema(self):
        response = Client().get("/api/v1/schema/", HTTP_ACCEPT="application/json")
        assert response.status_code == 200, response.content[:300]
        assert response["Content-Type"].startswith("application/json")
        assert response.json()["openapi"].startswith("3.")

    def test_no_null_type_of_json_schema_2020_in_an_openapi_3_0_schema(self, schema):
        assert schema["openapi"].startswith("3.0") and {"type": "null"} not in list(walk(schema))


def walk(node):
    """Every dict in a JSON document."""
    if isinstance(node, dict):
        yield node
        for value in node.values():
            yield from walk(value)
    elif isinstance(node, list):
        for value in node:
            yield from walk(value)


def _valid(schema: dict, ref_name: str, body) -> bool:
    """Whether `body` is valid for the component `ref_name` (its $refs resolved in the schema)."""
    import jsonschema

    root = {"components": schema["components"], "$ref": f"#/components/schemas/{ref_name}"}
    return jsonschema.Draft7Validator(root).is_valid(body)


class CrossFieldRuleTests:
    """Rules across fields that the server enforces and the schema states (issue 29 item 10): a
    body the server refuses for one of them is not valid by the schema, the same body with the
    rule kept is, and the server takes it."""

    PLAYERS = [{"name": "A"}, {"name": "B"}]
    CASES = [
        # (operation, component, refused by the server, the same with the rule kept)
        (
            "/api/v1/jobs/game-outcome",
            "GameOutcomeRequest",
            {"format": "two_player", "players": [*PLAYERS, {"name": "C"}]},
            {"format": "multiplayer", "players": [*PLAYERS, {"name": "C"}]},
        ),
        (
            "/api/v1/jobs/game-outcome",
            "GameOutcomeRequest",
            {
                "format": "two_player",
                "players": [{"name": "A", "commander_damage": {"X": 3}}, {"name": "B"}],
            },  # noqa: E501
            {
                "format": "commander",
                "players": [{"name": "A", "commander_damage": {"X": 3}}, {"name": "B"}],
            },  # noqa: E501
        ),
        (
            "/api/v1/jobs/game-outcome",
            "GameOutcomeRequest",
            {"format": "two_player", "players": PLAYERS, "effects": [{"type": "lose"}]},
            {"format": "two_player", "players": PLAYERS, "effects": [{"type": "draw"}]},
        ),
        (
            "/api/v1/jobs/game-outcome",
            "GameOutcomeRequest",
            {"format": "two_headed_giant", "players": [{"name": n} for n in "ABCD"]},
            {
                "format": "two_headed_giant",
                "players": [{"name": n, "team": t} for n, t in zip("ABCD", "XXYY", strict=True)],
            },
        ),
        (
            "/api/v1/jobs/game-outcome",
            "GameOutcomeRequest",
            {"format": "commander", "players": PLAYERS, "teams": {"X": {"life": 30}}},
            {
                "format": "two_headed_giant",
                "players": [{"name": n, "team": t} for n, t in zip("ABCD", "XXYY", strict=True)],
                "teams": {"X": {"life": 30}},
            },
        ),
        (
            "/api/v1/jobs/loop-outcome",
            "LoopOutcomeRequest",
            {"players": ["A", "B"], "iteration": [{"player": "A", "kind": "unless"}]},
            {
                "players": ["A", "B"],
                "iteration": [{"player": "A", "kind": "unless", "unless_player": "B"}],
            },
        ),
        (
            "/api/v1/jobs/shuffle-analysis",
            "ShuffleAnalysisRequest",
            {"deck_size": 60, "procedure": [{"method": "riffle", "times": 7, "piles": 3}]},
            {"deck_size": 60, "procedure": [{"method": "pile", "times": 1, "piles": 3}]},
        ),
    ]

    @pytest.mark.parametrize(("path", "component", "refused", "kept"), CASES)
    def test_a_rule_across_fields_is_in_the_schema(self, schema, path, component, refused, kept):
        from rest_framework.test import APIClient

        assert not _valid(schema, component, refused)
        assert _valid(schema, component, kept)
        api = APIClient()
        assert api.post(path, refused, format="json").status_code == 400
        # accepted (the job runs at the commit, which this test's transaction never makes)
        assert api.post(path, kept, format="json").status_code == 202

    def test_a_call_names_a_guide_or_an_infraction_with_its_players(self, schema):
        call = {"client_id": "e3e70682-c209-4cac-a29f-6fbed82c07cd"}
        assert not _valid(schema, "CallRequest", call)
        assert not _valid(schema, "CallRequest", {**call, "infraction": "2.2"})
        assert _valid(schema, "CallRequest", {**call, "infraction": "2.2", "players": ["Alice"]})
        assert _valid(schema, "CallRequest", {**call, "guide": "loop-resolution"})

    def test_a_call_correction_takes_only_the_editable_fields(self, schema):
        from calllog.editing import EDITABLE

        component = "PatchedCallChangeRequest"
        assert set(schema["components"]["schemas"][component]["properties"]) == {
            *EDITABLE,
            "reason",
        }
        assert _valid(schema, component, {"table": "12", "reason": "typo"})
        assert not _valid(schema, component, {"judge": "someone else"})

    def test_request_bodies_are_json_but_an_upload(self, schema):
        kinds = {
            (path, method): sorted(operation["requestBody"]["content"])
            for path, operations in schema["paths"].items()
            for method, operation in operations.items()
            if "requestBody" in operation
        }
        uploads = {key for key, media in kinds.items() if media == ["multipart/form-data"]}
        assert uploads == {("/api/v1/admin/versions", "post")}
        assert all(
            media == ["application/json"] for key, media in kinds.items() if key not in uploads
        )

    def test_a_clock_action_the_rounds_state_refuses_is_a_documented_conflict(self, schema):
        responses = schema["paths"]["/api/v1/events/{event_id}/clock"]["post"]["responses"]
        assert "409" in responses
