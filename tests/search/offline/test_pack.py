"""The offline pack as the server builds it, and its routes (search/offline)."""

from __future__ import annotations

import gzip
import json

import pytest

import search
from search import index as search_index
from search import ranking as search_ranking
from search import text as search_text
from search.offline import pack as packing
from search.offline import service
from tests.conftest import needs_history

pytestmark = pytest.mark.django_db


@pytest.fixture
def built():
    service.forget_packs()
    found = service.current_pack()
    assert found is not None
    return found, json.loads(found.body)


class PackContentTests:
    def test_every_current_document_is_in_the_pack_whole(self, built):
        from rulesref.models import Rule, Version
        from rulesref.parsing.records import RuleKind

        _, body = built
        current = {
            v.document.slug: v
            for v in Version.objects.select_related("document").filter(is_current=True)
        }
        assert {d["doc"] for d in body["documents"]} == set(current)
        for doc, version in current.items():
            stored = set(
                Rule.objects.filter(version=version)
                .exclude(kind=RuleKind.CHAPTER.value)
                .values_list("number", flat=True)
            )
            kept = {
                n for d, n in zip(body["entries"]["doc"], body["entries"]["number"]) if d == doc
            }
            assert stored <= kept, doc  # every rule; chapters with text of their own (IPG 1-4) too
            assert kept - stored <= set(
                Rule.objects.filter(version=version, kind=RuleKind.CHAPTER.value).values_list(
                    "number", flat=True
                )
            )
        cr = next(d for d in body["documents"] if d["doc"] == "cr")
        assert cr["effective_date"] == current["cr"].effective_date.isoformat()

    def test_rule_text_and_examples_are_the_stored_ones(self, built):
        from rulesref.models import Rule

        _, body = built
        e = body["entries"]
        i = next(
            k for k, (d, n) in enumerate(zip(e["doc"], e["number"])) if (d, n) == ("cr", "729.3")
        )
        rule = Rule.objects.get(
            version__is_current=True, version__document__slug="cr", number="729.3"
        )
        assert (e["text"][i], e["examples"][i]) == (rule.text, list(rule.examples))

    def test_postings_are_the_servers_index(self, built):
        """The pack's postings and norms are the server's lexical index, written compactly."""
        from search import service as search_service

        _, body = built
        index = search_service.index_for(service.current_versions())
        for stem in ("trampl", "shortcut", "mulligan", "librari"):
            flat = body["postings"][stem]
            assert [(flat[k], flat[k + 1]) for k in range(0, len(flat), 2)] == [
                (i, pytest.approx(tf, rel=1e-3)) for i, tf in index.postings[stem]
            ]
        assert body["entries"]["norm"] == [pytest.approx(v, rel=1e-3) for v in index.norms]
        assert len(body["questions"]["owner"]) == len(index.question_owner)

    @needs_history
    def test_old_numbers_lead_to_where_the_rule_is_now(self, built):
        _, body = built
        assert body["moved"]["cr"]["725.3"] == ["729.3", "2022-04-29"]
        # a number the current version still has is never read as an old one
        assert "729.3" not in body["moved"]["cr"]

    def test_the_same_documents_give_the_same_pack(self, built):
        found, _ = built
        service.forget_packs()
        again = service.current_pack()
        assert (again.version, again.body) == (found.version, found.body)

    def test_it_is_compact(self, built):
        found, _ = built
        # the whole current CR, MTR, IPG and JAR with their index: a few MB, under a MB over
        # the wire
        assert len(found.body) < 6_000_000
        assert len(gzip.compress(found.body)) < 1_500_000


class PackParamsTests:
    def test_the_ranking_constants_are_the_servers(self, built):
        _, body = built
        params = body["params"]
        assert params["k1"] == search_index.K1 and params["w_asked"] == search_ranking._W_ASKED
        assert (
            params["named"] == search_ranking._NAMED and params["intent"] == search_ranking._INTENT
        )
        assert set(body["stopwords"]) == set(search_text.STOPWORDS)
        assert set(body["policy_docs"]) == set(search_ranking.POLICY_DOCS)


class PackRouteTests:
    def test_manifest_names_the_current_pack(self, client, built):
        found, _ = built
        response = client.get("/offline/manifest.json")
        assert response.status_code == 200
        assert "no-cache" in response["Cache-Control"]
        manifest = response.json()
        assert manifest["version"] == found.version
        assert manifest["url"] == f"/offline/pack/{found.version}.json"
        assert {d["doc"] for d in manifest["documents"]} >= {"cr"}
        pack = client.get(manifest["url"], HTTP_ACCEPT_ENCODING="gzip")
        assert pack.status_code == 200 and pack["Content-Encoding"] == "gzip"
        assert "immutable" in pack["Cache-Control"]
        assert json.loads(gzip.decompress(pack.content))["version"] == found.version

    def test_a_stale_pack_is_refused_in_json_with_the_current_one(self, client, built):
        found, _ = built
        response = client.get("/offline/pack/0123456789abcdef.json")
        assert response.status_code == 404
        assert response.json()["error"]["details"]["current"] == found.version

    @needs_history
    def test_a_publish_changes_the_pack(self, client, built):
        from rulesref import services
        from rulesref.models import Version

        found, _ = built
        older = Version.objects.get(document__slug="cr", effective_date="2022-04-29")
        current = Version.objects.get(document__slug="cr", is_current=True)
        services.publish_version(older)
        try:
            manifest = client.get("/offline/manifest.json").json()
            assert manifest["version"] != found.version
            assert (
                next(d for d in manifest["documents"] if d["doc"] == "cr")["effective_date"]
                == "2022-04-29"
            )
        finally:
            services.publish_version(current)
        assert client.get("/offline/manifest.json").json()["version"] == found.version

    def test_nothing_published_is_a_json_404(self, client):
        from rulesref.models import Version

        Version.objects.filter(is_current=True).update(is_current=False)
        service.forget_packs()
        response = client.get("/offline/manifest.json")
        assert response.status_code == 404
        assert response.json()["error"]["code"] == "not_published"
        service.forget_packs()


class BuildPackTests:
    def test_pack_of_a_tiny_index(self):
        entries = [
            search.SearchEntry(
                doc="cr", number="100.1", text="Trample lets a creature assign excess damage."
            ),
            search.SearchEntry(
                doc="cr", number="100.2", text="A player who draws from an empty library loses."
            ),
        ]
        index = search.build_index(
            entries, vocabulary={"deck out": "draw empty library loses"}, spoken={}, cards={}
        )
        body = packing.build_pack(
            index,
            [packing.PackDocument("cr", "CR", "2025-02-07", 1)],
            params={"k1": 1.2},
            stopwords=["a", "the"],
        )
        assert body["entries"]["number"] == ["100.1", "100.2"]
        assert (
            body["vocabulary"]["deck out"]
            == list(index.vocabulary[search.phrase_key("deck out")])
            == search.terms("draw empty library loses")
        )
        assert body["postings"]["trampl"] == [0, 1]
        assert len(body["version"]) == 16
