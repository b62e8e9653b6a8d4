"""Tests for search across the tournament documents: the IPG's chapters and infraction parts as
entries, tournament words lifting policy with no document chosen, the held-out slice of asked-as
questions, the shipped vectors and the int8 model weights the numpy encoder reads."""

from __future__ import annotations

import json
import re
import struct
from urllib.parse import urlencode

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulesref.parsing.documents import parse_document
from search import asked, build_index, entries_from_document, query, ranking, search, shipped
from search import index as index_module
from search.records import SearchEntry
from tests.conftest import rules_files


def _newest(kind: str) -> list[SearchEntry]:
    """The newest document of `kind` as search entries, with its shipped asked-as questions."""
    path = rules_files(kind)[-1]
    parsed = parse_document(path.read_bytes(), str(path))
    found = asked.load_asked().get((kind, parsed.effective_date))
    entries = entries_from_document(parsed)
    return asked.attach(entries, found.questions) if found else entries


@pytest.fixture(scope="module")
def ipg_entries():
    return _newest("ipg")


@pytest.fixture(scope="module")
def policy_entries(ipg_entries):
    """The newest IPG, MTR and JAR with a few CR rules that share game words with
    policy questions."""
    return [
        *ipg_entries,
        *_newest("mtr"),
        *_newest("jar"),
        SearchEntry(
            doc="cr",
            number="603.2",
            text="Whenever a game event or game state matches a triggered ability's "
            "trigger event, that ability automatically triggers.",
            section_title="Handling Triggered Abilities",
        ),
        SearchEntry(
            doc="cr",
            number="121.1",
            text="A player draws a card by putting the top card of their library into their hand.",
            section_title="Drawing a Card",
        ),
    ]


@pytest.fixture(scope="module")
def policy_index(policy_entries):
    return build_index(policy_entries)


class IpgStructureTests:
    def test_chapters_with_text_of_their_own_are_entries(self, ipg_entries):
        chapters = {e.number: e for e in ipg_entries if not e.part and "." not in e.number}
        assert "1" in chapters and chapters["1"].title == "General Philosophy"
        assert "deviate" in chapters["1"].text.lower()

    def test_each_infraction_part_is_an_entry_that_leads_to_the_infraction(self, ipg_entries):
        parts = {e.part: e for e in ipg_entries if e.number == "2.1" and e.part}
        assert set(parts) == {
            "definition",
            "examples",
            "philosophy",
            "additional_remedy",
            "upgrade",
        }
        assert all(p.section_title == "Game Play Error - Missed Trigger" for p in parts.values())
        assert parts["philosophy"].text.startswith("Philosophy. ")
        # The parts are the rule's own text, split: nothing invented.
        whole = next(e for e in ipg_entries if e.number == "2.1" and not e.part)
        assert parts["upgrade"].text.removeprefix("Upgrade. ")[:60] in whole.text

    def test_a_rule_and_its_parts_answer_once_naming_the_part_that_matched(self, policy_index):
        hits = search(
            policy_index, "missed trigger detrimental upgrade to warning", doc="ipg", limit=10
        )
        numbers = [h.number for h in hits]
        assert len(numbers) == len(set(numbers))
        assert hits[0].number == "2.1"

    def test_a_number_still_finds_the_whole_rule_and_its_sections(self, policy_index):
        hits = search(policy_index, "2.1", doc="ipg")
        assert hits[0].number == "2.1" and hits[0].part == ""
        assert [h.number for h in search(policy_index, "2", doc="ipg")][:3] == ["2", "2.1", "2.2"]


class RuleNameTests:
    """A question that names a rule lifts it; a one-word name of words nearly every question holds
    ("Players", MTR 1.10: "player" is in a third of the rules) names nothing."""

    def _named(self, index, question: str) -> set[str]:
        entries, named = index.entries, query.parse_query(index, question).named
        return {f"{entries[i].doc}:{entries[i].number}" for i in named}

    def test_a_story_about_players_does_not_name_the_players_section(self, policy_index):
        n = len(policy_index.entries)
        assert len(policy_index.postings["player"]) > index_module._NAME_MAX_DF * n
        story = "My opponent and I were playing, and the other player drew an extra card."
        assert "mtr:1.10" not in self._named(policy_index, story)
        hits = search(policy_index, story, limit=5)
        assert "1.10" not in [h.number for h in hits if h.doc == "mtr"]

    def test_a_rare_one_word_name_still_names_its_section(self, policy_index):
        assert "ipg:4.7" in self._named(policy_index, "is that stalling?")
        assert "ipg:4.8" in self._named(policy_index, "was it cheating at the table")
        assert "ipg:3.1" in self._named(policy_index, "the player came late: tardiness")


class IntentTests:
    def test_tournament_words_are_read_as_policy(self, policy_index):
        assert query.parse_query(policy_index, "what’s the penalty for this").intent in (
            ("penalty",),
            ("penalties",),
        )
        assert query.parse_query(policy_index, "he called a judge at FNM").intent
        assert (
            query.parse_query(policy_index, "does trample carry over to a planeswalker").intent
            == ()
        )

    def test_the_issues_policy_questions_find_the_ipg_with_no_document_chosen(self, policy_index):
        def top(q: str, k: int) -> list[str]:
            return [f"{h.doc}:{h.number}" for h in search(policy_index, q, limit=k)]

        assert top("opponent forgot his upkeep trigger, what's the fix", 1) == ["ipg:2.1"]
        assert "ipg:2.2" in top("he looked at the next card when drawing, what's the penalty", 3)

    def test_the_lift_applies_only_to_a_question_in_tournament_words_with_no_document_chosen(
        self, policy_entries, policy_index
    ):
        unlifted = build_index(policy_entries, intent=[])

        def ranked(index, q, doc=None):
            return [
                (h.doc, h.number, round(h.score, 6)) for h in search(index, q, doc=doc, limit=10)
            ]

        plain = "a triggered ability triggers automatically"
        assert ranked(policy_index, plain) == ranked(unlifted, plain)
        policy = "what is the penalty when a triggered ability is forgotten"
        assert ranked(policy_index, policy, doc="ipg") == ranked(unlifted, policy, doc="ipg")
        lifted, before = ranked(policy_index, policy), ranked(unlifted, policy)
        assert lifted != before
        assert [n for d, n, _ in lifted if d != "cr"][:3] and lifted[0][0] != "cr"


class RemedyTests:
    """A question asking for a penalty or a fix lifts the document that gives them: the IPG, or the
    JAR when the question names Regular REL; the MTR and the CR keep their scores."""

    def scores(self, index, q):
        return {(h.doc, h.number): h.score for h in search(index, q, limit=1000)}

    @pytest.mark.parametrize(
        ("q", "lifted"),
        [
            ("opponent forgot his upkeep trigger, what's the fix", "ipg"),
            ("what's the penalty for looking at an extra card", "ipg"),
            ("at fnm my opponent forgot his upkeep trigger, what's the fix", "jar"),
            ("casual event, opponent drew an extra card, what happens", "jar"),
        ],
    )
    def test_only_the_document_that_gives_the_remedy_gains(
        self, policy_index, q, lifted, monkeypatch
    ):
        with_remedy = self.scores(policy_index, q)
        monkeypatch.setattr(ranking, "_REMEDY", 0.0)
        without = self.scores(policy_index, q)
        assert with_remedy.keys() == without.keys()
        gains = {key: with_remedy[key] - without[key] for key in with_remedy}
        assert all(abs(g) < 1e-9 for (d, _), g in gains.items() if d != lifted), q
        lifted_gains = {round(g, 9) for (d, _), g in gains.items() if d == lifted}
        assert len(lifted_gains) == 1 and lifted_gains.pop() > 0, q

    def test_a_question_without_remedy_or_regular_words_is_lifted_as_before(
        self, policy_entries, policy_index
    ):
        plain = build_index(policy_entries, remedy=([], []))
        q = "can a spectator point out a mistake in a match"
        assert self.scores(policy_index, q) == self.scores(plain, q)

    def test_words_that_only_place_the_question_at_regular_rel_are_context_not_content(
        self, policy_index
    ):
        placed = query.parse_query(policy_index, "casual fnm, opponent drew an extra card")
        plain = query.parse_query(policy_index, "opponent drew an extra card")
        assert placed.regular and not plain.regular
        # The situation's words keep their weight; "casual" and what "fnm" stands for weigh little.
        assert {s: w for s, w in placed.weights.items() if s in plain.weights} == plain.weights
        added = {s: w for s, w in placed.weights.items() if s not in plain.weights}
        assert "casual" in added and len(added) > 1
        assert set(added.values()) == {query._W_CONTEXT} and query._W_CONTEXT < 1.0
        assert placed.asked["casual"] == query._W_CONTEXT and placed.asked["opponent"] == 1.0
        # Asked about on their own, they are what the question is about.
        alone = query.parse_query(policy_index, "fnm casual")
        assert alone.regular and set(alone.weights.values()) == {1.0}

    def test_the_done_means_question_puts_ipg_2_1_first_and_at_fnm_the_jar(self, policy_index):
        assert (
            search(policy_index, "opponent forgot his upkeep trigger, what's the fix", limit=1)[
                0
            ].doc
            == "ipg"
        )
        assert (
            search(
                policy_index, "at fnm opponent forgot his upkeep trigger, what's the fix", limit=1
            )[0].doc
            == "jar"
        )


class BothRelsTests:
    """A question that names no REL and finds a JAR section (Regular REL) first gets the IPG
    infraction for the same situation (Competitive and Professional) right after it."""

    def test_the_ipg_infraction_follows_the_jar_section(self, policy_index):
        q = "player saw a card in the library he should not have"
        plain = {(h.doc, h.number): h.score for h in search(policy_index, q, limit=1000)}
        hits = search(policy_index, q, limit=10)
        assert hits[0].doc == "jar"
        assert (hits[1].doc, hits[1].number) == ("ipg", "2.2")
        assert any(e.number == "2.2" and e.part for e in policy_index.entries if e.doc == "ipg")
        # It moved up: the plain order (no counterpart) had it lower, and scores still fall.
        unmoved = sorted(plain, key=lambda k: -plain[k])
        assert unmoved.index(("ipg", "2.2")) >= 1
        assert [h.score for h in hits] == sorted((h.score for h in hits), reverse=True)

    def test_no_move_when_the_question_names_regular_rel_or_a_document(
        self, policy_index, monkeypatch
    ):
        q = "player saw a card in the library he should not have"
        for query_, doc in ((f"at fnm {q}", None), (q, "jar"), (q, "ipg")):
            with_move = [(h.doc, h.number) for h in search(policy_index, query_, doc=doc, limit=10)]
            monkeypatch.setattr(ranking, "_COUNTERPART", 0)
            without = [(h.doc, h.number) for h in search(policy_index, query_, doc=doc, limit=10)]
            monkeypatch.undo()
            assert with_move == without, query_

    @settings(max_examples=60, deadline=None)
    @given(
        st.lists(
            st.sampled_from(
                [
                    "player",
                    "saw",
                    "card",
                    "library",
                    "extra",
                    "drew",
                    "trigger",
                    "forgot",
                    "deck",
                    "shuffle",
                    "opponent",
                    "looked",
                    "hand",
                    "missed",
                    "judge",
                    "fnm",
                    "penalty",
                ]
            ),
            min_size=1,
            max_size=6,
        )
    )
    def test_the_move_keeps_every_rule_once_and_scores_falling(self, policy_index, words_):
        q = " ".join(words_)
        hits = search(policy_index, q, limit=10)
        keys = [(h.doc, h.number) for h in hits]
        assert len(keys) == len(set(keys))
        assert [h.score for h in hits] == sorted((h.score for h in hits), reverse=True)
        ranked = [h.doc for h in hits]
        infractions = {e.number for e in policy_index.entries if e.doc == "ipg" and e.part}
        first_jar = ranked.index("jar") if "jar" in ranked else None
        if (
            first_jar is not None
            and first_jar < 3
            and "ipg" not in ranked[:first_jar]
            and not query.parse_query(policy_index, q).regular
            and first_jar + 1 < len(hits)
            and any(h.doc == "ipg" and h.number in infractions for h in hits[first_jar + 1 :])
        ):
            assert ranked[first_jar + 1] == "ipg", (q, keys)


class HeldOutTests:
    def test_about_one_in_ten_questions_is_held_out_and_the_choice_is_stable(self):
        found = [q for s in asked.load_asked().values() for qs in s.questions.values() for q in qs]
        share = sum(map(asked.held_out, found)) / len(found)
        assert 0.07 < share < 0.13
        assert asked.held_out("  The SAME   words ") == asked.held_out("the same words")


class ShippedVectorTests:
    @settings(max_examples=20, deadline=None)
    @given(st.integers(min_value=1, max_value=40), st.integers(min_value=0, max_value=2**31 - 1))
    def test_int8_rows_keep_every_cosine_within_a_hundredth(self, count, seed):
        rng = np.random.default_rng(seed)
        matrix = rng.normal(size=(count, 384)).astype("<f4")
        matrix /= np.linalg.norm(matrix, axis=1, keepdims=True)
        keys = [f"{n:064x}" for n in rng.choice(2**40, size=count, replace=False).tolist()]
        path = shipped.PATH.parent.parent / ".test-shipped.npz"
        try:
            shipped.write(dict(zip(keys, (row.tobytes() for row in matrix), strict=True)), path)
            shipped._load.cache_clear()
            loaded = shipped._load(path)
            index, rows, scales = loaded
            back = (
                rows[[index[k] for k in keys]].astype("<f4")
                * scales[[index[k] for k in keys]][:, None]
            )
        finally:
            path.unlink(missing_ok=True)
            shipped._load.cache_clear()
        assert np.abs((back * matrix).sum(axis=1) - 1.0).max() < 0.01

    def test_the_model_name_fits_where_each_stored_vector_records_it(self):
        # SQLite stores a longer name without a word; PostgreSQL refuses it, and every vector the
        # worker embeds for a new version would fail to be stored.
        from search import model
        from search.models import SearchVector

        assert model.model_dir() is not None
        assert len(model.model_name()) <= SearchVector._meta.get_field("model").max_length

    def test_the_shipped_file_names_vectors_of_the_model_in_use(self):
        from search import model, vectors

        if not shipped.PATH.is_file() or model.model_dir() is None:
            pytest.fail("search/shipped/vectors.npz and a model must ship with the repository")
        path = rules_files("ipg")[-1]
        entries = entries_from_document(parse_document(path.read_bytes(), str(path)))
        keys = {vectors.vector_key(t) for t in vectors.entry_texts(entries)}
        assert keys <= shipped.keys()


class Int8WeightsTests:
    def test_the_encoder_reads_int8_rows_with_their_scales(self, tmp_path):
        from search import embedder

        weight = np.array([[0.5, -1.0, 0.25], [2.0, 0.0, -2.0]], dtype="<f4")
        scale = np.abs(weight).max(axis=1) / 127.0
        rows = np.rint(weight / scale[:, None]).astype("i1")
        bias = np.array([0.1, 0.2, 0.3], dtype="<f4")
        tensors = {
            "w.weight": ("I8", rows),
            "w.weight.scale": ("F32", scale.astype("<f4")),
            "b": ("F32", bias),
            "h": ("F16", bias.astype("<f2")),
        }
        header, blobs, at = {}, [], 0
        for name, (dtype, value) in tensors.items():
            raw = value.tobytes()
            header[name] = {
                "dtype": dtype,
                "shape": list(value.shape),
                "data_offsets": [at, at + len(raw)],
            }
            blobs.append(raw)
            at += len(raw)
        head = json.dumps(header).encode()
        (tmp_path / "m.safetensors").write_bytes(
            struct.pack("<Q", len(head)) + head + b"".join(blobs)
        )
        read = embedder._read_safetensors(tmp_path / "m.safetensors")
        assert set(read) == {"w.weight", "b", "h"}
        assert np.allclose(read["w.weight"], weight, atol=0.01)
        assert np.allclose(read["h"], bias, atol=1e-3)


@pytest.mark.django_db
class DoneMeansTests:
    """The issue's four questions, asked of the API as `make run` serves it: the shipped documents,
    the judge-tuned model and its shipped vectors, no document chosen."""

    @pytest.fixture(autouse=True)
    def shipped_vectors(self, settings):
        from search import service

        settings.SEARCH_SHIPPED_VECTORS = True  # as `make run` has it (the suite turns them off)
        service.forget_indexes()
        yield
        service.forget_indexes()

    @pytest.mark.parametrize(
        ("q", "answer", "within"),
        [
            ("opponent forgot his upkeep trigger, what's the fix", "ipg:2.1", 1),
            ("he looked at the next card when drawing", "ipg:2.2", 3),
            ("can I use my phone for notes during the match", "mtr:2.11", 5),
            ("my walker used its minus and went to zero", "cr:704.5i", 5),
        ],
    )
    def test_the_answer_is_where_the_issue_wants_it(self, client, q, answer, within):
        body = client.get("/api/v1/search?" + urlencode({"q": q})).json()
        assert body["ranking"] == "hybrid", body["ranking"]
        found = [f"{h['doc']}:{h['number']}" for h in body["results"]]
        assert answer in found[:within], (q, found)


@pytest.mark.django_db
class PolicyPageTests:
    def test_a_policy_answer_says_its_rel_and_opens_the_infraction(self, client):
        page = client.get(
            "/search/?" + urlencode({"q": "opponent forgot his upkeep trigger, what's the fix"})
        ).content.decode()
        assert "IPG penalties apply at Competitive and Professional REL" in page
        first = re.search(r'<a class="hit" href="([^"]+)"', page).group(1)
        assert first.startswith("/rules/ipg/2.1/")

    def test_a_game_rule_answer_has_no_rel_note(self, client):
        page = client.get(
            "/search/?" + urlencode({"q": "does trample damage carry over to the player"})
        ).content.decode()
        assert 'class="hit"' in page and "rel-note" not in page

    def test_a_matched_part_opens_the_rule_page_at_that_part(self, client):
        from search import service

        hits = service.search_rules(
            "triggered abilities are common and invisible so players should not be penalized",
            doc="ipg",
            limit=10,
        )
        part = next(h for h in hits if h.get("part"))
        page = client.get(
            "/search/?"
            + urlencode(
                {
                    "q": "triggered abilities are common and invisible so players should "
                    "not be penalized",
                    "doc": "ipg",
                }
            )
        ).content.decode()
        assert f'href="/rules/ipg/{part["number"]}/#r-{part["number"]}-{part["part"]}"' in page
        rule = client.get(f"/rules/ipg/{part['number']}/").content.decode()
        assert f'id="r-{part["number"]}-{part["part"]}"' in rule


class TunedModelTests:
    """The judge-tuned model (`make search-model`) ships in the repository and is the one in use;
    on asked-as questions it never trained on, it finds their rules better than the stock model."""

    def test_the_tuned_model_ships_and_names_every_vector(self):
        from search import model

        info = json.loads((model.TUNED_DIR / "model.json").read_text(encoding="utf-8"))
        assert model.tuned_model_dir() == model.TUNED_DIR == model.model_dir()
        assert model.model_name() == info["name"] != model.PACKAGE_MODEL_NAME
        assert info["held_out_questions"] > 0 and info["pairs"] > 0

    def test_on_held_out_questions_it_beats_the_stock_model(self, ipg_entries):
        """A sample: every seventh held-out question against the IPG's whole rules (not their
        parts). Recall on every held-out question over every entry, with both models, is measured by
        bench/search_model_bench.py (it embeds the whole document twice: too slow for a
        unit test)."""
        import importlib.util
        import sys
        from pathlib import Path

        from search import model

        stock = model.package_model_dir()
        if stock is None:
            pytest.skip("the stock model package (requirements-models.txt) is not installed")
        path = Path(__file__).resolve().parents[2] / "bench" / "search_model_bench.py"
        spec = importlib.util.spec_from_file_location("search_model_bench", path)
        bench = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = bench
        try:
            spec.loader.exec_module(bench)
        finally:
            del sys.modules[spec.name]
        held = bench.held_out_questions(ipg_entries)
        assert len(held) >= 100
        sample = held[::7]
        whole = [e for e in ipg_entries if not e.part]
        assert len(sample) >= 19 and len(whole) >= 30
        assert {key for _, key in sample} <= {(e.doc, e.number) for e in whole}
        tuned, before = (
            bench.recall_at_5(model.TUNED_DIR, whole, sample),
            bench.recall_at_5(stock, whole, sample),
        )
        assert tuned > before and tuned >= 0.8, (tuned, before)


class NamedRelTests:
    """A question that names its REL is answered by that REL's document first: the IPG at a PPTQ,
    the JAR at FNM, for the same situation."""

    SITUATION = (
        "my opponent drew two cards off a spell that said draw one and mixed them into his hand"
    )

    def _order(self, policy_index, q):
        return [(h.doc, h.number) for h in search(policy_index, q, limit=10)]

    def test_competitive_puts_the_ipg_before_the_jar(self, policy_index):
        order = self._order(policy_index, f"at a PPTQ {self.SITUATION}")
        # Hidden Card Error: drawing extra cards at Competitive REL
        assert order[0] == ("ipg", "2.3")
        assert "jar" not in [doc for doc, _ in order[:5]]

    def test_regular_puts_the_jar_before_the_ipg(self, policy_index):
        order = self._order(policy_index, f"at FNM {self.SITUATION}")
        assert order[0] == ("jar", "1.3")

    def test_naming_neither_or_both_keeps_both_documents(self, policy_index):
        assert not query.parse_query(policy_index, self.SITUATION).competitive
        for q in (self.SITUATION, f"at FNM, not comp, {self.SITUATION}"):
            docs = [doc for doc, _ in self._order(policy_index, q)[:6]]
            assert "ipg" in docs and "jar" in docs
