"""The OpenAPI schema (issue 14): served as JSON and YAML, lists every endpoint of docs/API.md and the
extensions, documents the error shape, and its docs page uses the project's own static files."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml
from django.test import Client

pytestmark = pytest.mark.django_db
API_MD = Path(__file__).resolve().parents[2] / "docs" / "API.md"
EXPECTED = {
    "/api/v1/health", "/api/v1/rules/{doc}/{number}", "/api/v1/rules/{doc}/{number}/trace", "/api/v1/search",
    "/api/v1/glossary/{term}", "/api/v1/documents", "/api/v1/diff/{doc}", "/api/v1/jobs/loop-outcome",
    "/api/v1/jobs/game-outcome", "/api/v1/jobs/shuffle-analysis", "/api/v1/jobs/{job_id}", "/api/v1/guides",
    "/api/v1/guides/{slug}", "/api/v1/guides/{slug}/walk", "/api/v1/cards/{name}", "/api/v1/cards",
    "/api/v1/shuffle-check", "/api/v1/events", "/api/v1/events/{event_id}/calls", "/api/v1/events/{event_id}/clock",
    "/api/v1/admin/versions", "/api/v1/admin/versions/{version_id}/publish", "/api/v1/admin/documents/{doc}/rollback",
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
        named = {m.group(1).split("?")[0] for m in re.finditer(r"`(?:GET|POST) (/api/v1/[^`\s]+)", API_MD.read_text())}
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
        assert response.status_code == 200 and response["Content-Type"].startswith("application/vnd.oai.openapi;")
        assert "/api/v1/search" in yaml.safe_load(response.content)["paths"]


class DocsPageTests:
    def test_the_docs_page_uses_our_own_static_files(self):
        response = Client().get("/api/v1/docs/")
        assert response.status_code == 200
        page = response.content.decode()
        assert "/static/drf_spectacular_sidecar/swagger-ui-dist/" in page
        assert "cdn" not in page.lower() and "unpkg" not in page.lower()
