"""The packed BM25 sums (search/bm25.py) against the plain loops they replace, on the real
2025 CR with its shipped asked-as questions: the same scores, bit for bit, in the same order."""

from __future__ import annotations

import datetime as dt
import tomllib
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import search
from search import bm25, build_index, ranking
from search.asked import attach, load_asked
from search.query import parse_query
from tests.conftest import parsed_cr_2025

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def cr_asked():
    document = parsed_cr_2025()
    questions = load_asked()[("cr", dt.date(2025, 2, 7))].questions
    index = build_index(
        attach(search.entries_from_document(document), questions), glossary=document.glossary
    )
    assert (
        index.packed is not None
        and index.question_packed is not None
        and len(index.question_owner) > 10000
    )
    return index


def _both(index, weights, asked):
    packed = (
        bm25.sums(weights, index.postings, index.idf, index.norms, index.packed),
        bm25.best_by_question(
            asked,
            index.question_postings,
            index.question_idf,
            index.question_norms,
            index.question_owner,
            index.question_packed,
        ),
    )
    looped = (
        bm25.sums(weights, index.postings, index.idf, index.norms),
        bm25.best_by_question(
            asked,
            index.question_postings,
            index.question_idf,
            index.question_norms,
            index.question_owner,
        ),
    )
    return packed, looped


def test_packed_sums_are_the_loops_on_judges_questions(cr_asked):
    questions = [
        q["q"]
        for q in tomllib.loads((ROOT / "bench" / "search_questions_final23.toml").read_text())[
            "question"
        ]
    ]
    for question in questions:
        parsed = parse_query(cr_asked, question)
        packed, looped = _both(cr_asked, parsed.weights, parsed.asked)
        assert [list(d.items()) for d in packed] == [list(d.items()) for d in looped], question
        assert packed[1], question  # every one of them meets some asked-as question


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_packed_sums_are_the_loops_for_any_weights(cr_asked, data):
    """Any stems (common ones with thousands of postings, rare ones, unknown ones) at
    any weights."""
    stems = sorted(cr_asked.question_idf)
    chosen = data.draw(
        st.lists(
            st.one_of(
                st.sampled_from(stems), st.sampled_from(["creatur", "card", "player", "zzzq"])
            ),
            max_size=12,
        )
    )
    weights = {s: data.draw(st.floats(0.0, 3.0)) for s in chosen}
    packed, looped = _both(cr_asked, weights, weights)
    assert [list(d.items()) for d in packed] == [list(d.items()) for d in looped]


def test_search_without_numpy_ranks_the_same(cr_asked):
    """An index built where numpy is missing has no packed postings; its answers are the same."""
    plain = replace(cr_asked, packed=None, question_packed=None)
    for question in (
        "my walker went to zero loyalty",
        "opponent forgot his upkeep trigger",
        "can I respond to a fetch",
    ):
        assert ranking.search(plain, question) == ranking.search(cr_asked, question)


def test_pack_needs_numpy(monkeypatch):
    monkeypatch.setattr(bm25, "np", None)
    assert bm25.pack({"draw": [(0, 1.0)]}, [1.0]) is None
