"""A second look at the first results of a hybrid search, where the first ranking is unsure.

The first ranking (search.ranking) blends two scores; the second reads the question and each of
its first RERANK_DEPTH candidates together through features the first stage already has, plus a
few it does not look at: how much of the question's last sentence (where a judge asks, after the
scene) the rule's words cover, how much of the rule's title the question names, how many of the
question's rare words the rule holds. A linear model over them (weights in rerank.json, learned by
`make search-rerank`, tools/train_rerank.py, from the tuning questions) orders the candidates again.

It is spent only where the first ranking is unsure, on a question told as a story (over STORY
characters): when the best blended score leads the second by less than the model's `margin` (a
share of the best score). A confident first answer and a one-line question are kept as they are,
and so is every lexical search (the tablet's offline engine must rank as the server's
lexical search does). Standard library only: a few dozen multiplications a candidate.
"""

from __future__ import annotations

import json
import logging
import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from search.records import SearchIndex
from search.text import STOPWORDS, stem, words

log = logging.getLogger(__name__)

MODEL_FILE = Path(__file__).resolve().parent / "rerank.json"
# Candidates read again: the first ranking's best entries (parts of one rule count apart).
RERANK_DEPTH = 20
DOCS = ("cr", "mtr", "ipg", "jar")
FEATURES = (
    "first",  # blended score / the best blended score
    "first_rank",  # 1 / (1 + place in the first ranking)
    "lexical",  # lexical score / the best lexical score
    "similarity",  # the sentence-embedding similarity (cosine)
    "similarity_gap",  # best candidate's similarity - this one's
    "end_cover",  # idf share of the question's last sentence's words found in the rule
    "cover",  # idf share of the question's words found in the rule
    "title_cover",  # share of the rule's title words the question names
    "rare_hits",  # the question's rare words (idf above RARE) found in the rule, log1p
    "length",  # log1p of the rule's words
    "heading_only",
    "part",  # an IPG infraction's part
    *(f"doc_{d}" for d in DOCS),
    "end_x_similarity",
    "first_x_cover",
)
# Only a question longer than this is read again: a story, then the question. Measured on the blind
# sets written from the documents (one line each, nearly all shorter): read again, their first
# ranking lost more than it gained, so a short question keeps it.
STORY = 150
# A word rarer than this (idf) is rare.
RARE = 4.0
_SENTENCE = re.compile(r"(?<=[.?!])\s+|\n+")


@dataclass(frozen=True)
class Model:
    weights: tuple[float, ...]  # one per FEATURES, on standardised features
    mean: tuple[float, ...]
    scale: tuple[float, ...]
    margin: float  # rerank only when (best - second) / best is below this

    def score(self, row: Sequence[float]) -> float:
        return sum(
            w * (x - m) / s
            for w, x, m, s in zip(self.weights, row, self.mean, self.scale, strict=True)
        )


def from_dict(data: Mapping) -> Model:
    if tuple(data["features"]) != FEATURES:
        raise ValueError("rerank model written for other features")
    return Model(
        weights=tuple(float(v) for v in data["weights"]),
        mean=tuple(float(v) for v in data["mean"]),
        scale=tuple(float(v) or 1.0 for v in data["scale"]),
        margin=float(data["margin"]),
    )


@lru_cache(maxsize=1)
def shipped() -> Model | None:
    """The shipped model (search/rerank.json), or None when there is none or it was written for
    other features (a search then keeps its first ranking rather than failing)."""
    if not MODEL_FILE.is_file():
        return None
    try:
        return from_dict(json.loads(MODEL_FILE.read_text(encoding="utf-8")))
    except (ValueError, KeyError):
        log.warning("search reranker %s not used: written for other features", MODEL_FILE)
        return None


def question_end(query: str) -> str:
    """The question a judge asks after the scene: the last sentence that asks ("?"), else the
    last sentence."""
    sentences = [s for s in _SENTENCE.split(query.strip()) if words(s)]
    if not sentences:
        return query
    asking = [s for s in sentences if "?" in s]
    return (asking or sentences)[-1]


def _stems(text: str) -> set[str]:
    return {stem(w) for w in words(text) if w not in STOPWORDS}


@dataclass(frozen=True)
class Reading:
    """What the features read of one question, once per question."""

    all_stems: dict[str, float]  # stem -> idf
    end_stems: dict[str, float]
    names: set[str]

    @classmethod
    def of(cls, index: SearchIndex, query: str, weights: Mapping[str, float]) -> Reading:
        idf = index.idf
        found = _stems(query) | set(weights)
        end = _stems(question_end(query))
        return cls(
            all_stems={s: idf[s] for s in found if s in idf},
            end_stems={s: idf[s] for s in end if s in idf},
            names=found,
        )


def features(
    index: SearchIndex,
    reading: Reading,
    candidates: Sequence[int],
    blended: Mapping[int, float],
    lexical: Mapping[int, float],
    similarity: Sequence[float],
) -> list[list[float]]:
    """One row of FEATURES per candidate (entry indexes, best first)."""
    best = max((blended[i] for i in candidates), default=0.0) or 1.0
    top_lex = max(lexical.values(), default=0.0) or 1.0
    best_sim = max((float(similarity[i]) for i in candidates), default=0.0)
    all_total = sum(reading.all_stems.values()) or 1.0
    end_total = sum(reading.end_stems.values()) or 1.0
    rows = []
    for place, i in enumerate(candidates):
        e = index.entries[i]
        held = set(index.text_stems[i])
        title = _stems(e.title or e.section_title)
        end_cover = sum(v for s, v in reading.end_stems.items() if s in held) / end_total
        cover = sum(v for s, v in reading.all_stems.items() if s in held) / all_total
        title_cover = len(title & reading.names) / len(title) if title else 0.0
        rare = sum(1 for s, v in reading.all_stems.items() if v > RARE and s in held)
        sim = float(similarity[i])
        first = blended[i] / best
        rows.append(
            [
                first,
                1.0 / (1 + place),
                lexical.get(i, 0.0) / top_lex,
                sim,
                best_sim - sim,
                end_cover,
                cover,
                title_cover,
                math.log1p(rare),
                math.log1p(len(held)),
                float(index.heading_only[i]),
                float(bool(e.part)),
                *(float(e.doc == d) for d in DOCS),
                end_cover * sim,
                first * cover,
            ]
        )
    return rows


def unsure(
    model: Model, order: Sequence[int], blended: Mapping[int, float], query: str = ""
) -> bool:
    """A question told as a story (longer than STORY characters) whose first ranking's best leads
    its second by less than the model's margin."""
    if model.margin <= 0 or len(order) < 2 or len(query.strip()) <= STORY:
        return False
    best, second = blended[order[0]], blended[order[1]]
    return best <= 0 or (best - second) / best < model.margin


def rerank(
    model: Model,
    index: SearchIndex,
    query: str,
    weights: Mapping[str, float],
    order: list[int],
    blended: dict[int, float],
    lexical: Mapping[int, float],
    similarity: Sequence[float],
) -> list[int]:
    """`order` with its first RERANK_DEPTH entries ordered again by the model, when the first
    ranking is unsure; the rest, and a sure ranking, as they were. The scores of the reordered
    entries are rewritten to fall down the list (between the first and the last of theirs)."""
    if not unsure(model, order, blended, query):
        return order
    head = order[:RERANK_DEPTH]
    rows = features(index, Reading.of(index, query, weights), head, blended, lexical, similarity)
    scored = sorted(
        zip(head, (model.score(r) for r in rows), strict=True), key=lambda p: (-p[1], p[0])
    )
    new = [i for i, _ in scored]
    old_scores = sorted((blended[i] for i in head), reverse=True)
    for i, value in zip(new, old_scores, strict=True):
        blended[i] = value
    return new + order[RERANK_DEPTH:]
