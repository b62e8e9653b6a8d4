"""The second look at a hybrid search's first results (search/rerank.py)."""

from __future__ import annotations

import json

import pytest

import search
from search import SearchEntry, build_index
from search import rerank as second_look

ENTRIES = [
    SearchEntry(
        doc="cr",
        number="1.1",
        text="Combat damage is dealt by attacking and blocking creatures in combat.",
        section_title="Combat",
    ),
    SearchEntry(
        doc="cr",
        number="1.2",
        text="A player who has no cards in their library and must draw loses the game.",
        section_title="Drawing",
    ),
    SearchEntry(
        doc="cr",
        number="1.3",
        text="Each deck must contain at least sixty cards.",
        section_title="Decks",
    ),
]
# A story of combat, then the question: who loses when drawing from an empty library.
QUESTION = (
    "My creature was attacking and his creature was blocking, combat damage went through. "
    "Then he had no cards in his library: does he lose when he must draw?"
)


@pytest.fixture(scope="module")
def index():
    return build_index(ENTRIES, vocabulary={})


def _similarity(values):
    def score(_query):
        return list(values)

    score.cache_clear = lambda: None
    return score


def _model(margin: float, **weights: float) -> second_look.Model:
    n = len(second_look.FEATURES)
    return second_look.Model(
        weights=tuple(weights.get(name, 0.0) for name in second_look.FEATURES),
        mean=(0.0,) * n,
        scale=(1.0,) * n,
        margin=margin,
    )


def _numbers(hits):
    return [h.number for h in hits]


def test_the_question_end_is_the_last_sentence_that_asks():
    assert second_look.question_end(QUESTION) == (
        "Then he had no cards in his library: does he lose when he must draw?"
    )
    assert second_look.question_end("What is a mulligan? I kept seven. Then I drew.") == (
        "What is a mulligan?"
    )
    assert second_look.question_end("no question mark here") == "no question mark here"


def test_an_unsure_first_ranking_is_ordered_again(index, monkeypatch):
    # The embedding puts 1.1 (the scene's combat) first, close to 1.2 (what is asked: the asking
    # sentence already weighs more, search.asking).
    semantic = _similarity([0.66, 0.6, 0.1])
    first = search.search(index, QUESTION, semantic=semantic, rerank=False)
    assert _numbers(first)[:2] == ["1.1", "1.2"]
    monkeypatch.setattr(second_look, "shipped", lambda: _model(0.5, end_cover=1.0))
    hits = search.search(index, QUESTION, semantic=semantic)
    assert hits[0].number == "1.2"
    assert sorted(_numbers(hits)) == sorted(_numbers(first))
    # scores still fall down the list
    assert [h.score for h in hits] == sorted((h.score for h in hits), reverse=True)


def test_a_short_question_is_never_read_again(index, monkeypatch):
    # one line, as the sets written from the documents ask: the first ranking stands
    short = "Does he lose when he must draw with no cards in his library?"
    assert len(short) <= second_look.STORY < len(QUESTION)
    semantic = _similarity([0.66, 0.6, 0.1])
    first = search.search(index, short, semantic=semantic, rerank=False)
    monkeypatch.setattr(second_look, "shipped", lambda: _model(2.0, end_cover=-1.0, first=-1.0))
    assert _numbers(search.search(index, short, semantic=semantic)) == _numbers(first)


def test_a_sure_first_ranking_is_kept(index, monkeypatch):
    semantic = _similarity([0.95, 0.1, 0.05])
    first = search.search(index, QUESTION, semantic=semantic, rerank=False)
    assert first[0].number == "1.1"
    monkeypatch.setattr(second_look, "shipped", lambda: _model(0.2, end_cover=1.0))
    assert _numbers(search.search(index, QUESTION, semantic=semantic)) == _numbers(first)


def test_a_lexical_search_is_never_ordered_again(index, monkeypatch):
    # the tablet's offline engine ranks as the server's lexical search: no second look there
    first = search.search(index, QUESTION)
    monkeypatch.setattr(second_look, "shipped", lambda: _model(2.0, end_cover=-1.0, first=-1.0))
    assert _numbers(search.search(index, QUESTION)) == _numbers(first)


def test_the_shipped_model_reads_these_features_and_is_small():
    data = json.loads(second_look.MODEL_FILE.read_text(encoding="utf-8"))
    model = second_look.from_dict(data)
    assert len(model.weights) == len(second_look.FEATURES)
    assert 0 < model.margin <= 1.01
    assert second_look.MODEL_FILE.stat().st_size < 10_000
    with pytest.raises(ValueError):
        second_look.from_dict({**data, "features": data["features"][:-1]})


def test_a_model_for_other_features_keeps_the_first_ranking(index, tmp_path, monkeypatch):
    stale = tmp_path / "rerank.json"
    data = json.loads(second_look.MODEL_FILE.read_text(encoding="utf-8"))
    stale.write_text(json.dumps({**data, "features": data["features"][:-1]}), encoding="utf-8")
    monkeypatch.setattr(second_look, "MODEL_FILE", stale)
    second_look.shipped.cache_clear()
    try:
        assert second_look.shipped() is None
        semantic = _similarity([0.66, 0.6, 0.1])
        first = search.search(index, QUESTION, semantic=semantic, rerank=False)
        assert _numbers(search.search(index, QUESTION, semantic=semantic)) == _numbers(first)
    finally:
        second_look.shipped.cache_clear()
