"""BM25 sums of one query over the rules or over the asked-as questions.

A query's words each walk a postings list (the asked-as questions' lists run to thousands for words
like "creature"), and summing them in Python loops was a third of a hybrid search. When numpy is
importable, `build_index` also lays every postings list end to end in flat arrays (`Packed`), and
a query gathers its lists' slices and sums them with one `bincount`. The arithmetic is the loop's,
operation for operation and in the same order (numpy's float64 is IEEE arithmetic, as Python's float
is), so both ways give exactly the same scores; without numpy the loops run.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

try:  # numpy makes the sums fast, but the engine must not need it
    import numpy as np
except ImportError:  # pragma: no cover - exercised only without numpy
    np = None  # type: ignore[assignment]

# BM25 saturation and length normalisation (the usual defaults measured best on the dev questions).
K1 = 1.2
B = 0.75


@dataclass(frozen=True)
class Packed:
    """Postings lists end to end: stem -> (start, stop) in `ids` (entry or question index), `tf`
    (term frequency) and `norm` (that document's BM25 length factor, repeated per posting). For
    questions, `runs` is (first question of each entry's run, run per question, entry per run): an
    entry's questions are consecutive."""

    spans: dict[str, tuple[int, int]]
    ids: Any
    tf: Any
    norm: Any
    size: int  # how many documents (entries or questions) there are
    runs: tuple[Any, Any, Any] | None = None


def pack(
    postings: Mapping[str, Sequence[tuple[int, float]]],
    norms: Sequence[float],
    owner: Sequence[int] | None = None,
) -> Packed | None:
    """`postings` laid out flat for `sums` (with `owner`, question -> entry, for
    `best_by_question`); None without numpy."""
    if np is None:
        return None
    spans: dict[str, tuple[int, int]] = {}
    ids: list[int] = []
    tf: list[float] = []
    for s, found in postings.items():
        spans[s] = (len(ids), len(ids) + len(found))
        for i, f in found:
            ids.append(i)
            tf.append(f)
    index = np.asarray(ids, dtype=np.int64)
    return Packed(
        spans=spans,
        ids=index,
        tf=np.asarray(tf, dtype=np.float64),
        norm=np.asarray(norms, dtype=np.float64)[index],
        size=len(norms),
        runs=question_runs(owner) if owner else None,
    )


def question_runs(owner: Sequence[int]) -> tuple[Any, Any, Any]:
    """The asked-as questions in runs, one per entry (they are stored in entry order): (first
    question of each run, run per question, entry per run); numpy arrays, for reduceat per entry.
    Also what search.vectors takes the soft maximum of an entry's questions over."""
    owners = np.asarray(owner, dtype=np.int64)
    starts = np.flatnonzero(np.r_[True, owners[1:] != owners[:-1]])
    return (
        starts,
        np.repeat(np.arange(len(starts)), np.diff(np.r_[starts, len(owners)])),
        owners[starts],
    )


def sums(
    weights: Mapping[str, float],
    postings: Mapping[str, Sequence[tuple[int, float]]],
    idf: Mapping[str, float],
    norms: Sequence[float],
    packed: Packed | None = None,
) -> dict[int, float]:
    """Document index -> sum over the query's stems of weight x BM25 term score, for every document
    that one of the stems is posted to (0.0 included), in first-posted order."""
    if packed is None or np is None:
        found: dict[int, float] = defaultdict(float)
        for s, weight in weights.items():
            w = idf.get(s)
            if w is None:
                continue
            for i, tf in postings[s]:
                found[i] += weight * w * tf * (K1 + 1) / (tf + norms[i])
        return dict(found)
    gathered = _gather(weights, idf, packed)
    if gathered is None:
        return {}
    totals, touched = gathered
    return dict(zip(touched.tolist(), totals[touched].tolist(), strict=True))


def best_by_question(
    weights: Mapping[str, float],
    postings: Mapping[str, Sequence[tuple[int, float]]],
    idf: Mapping[str, float],
    norms: Sequence[float],
    owner: Sequence[int],
    packed: Packed | None = None,
) -> dict[int, float]:
    """Entry index -> the BM25 sum (`sums`) of its best-matching asked-as question, for entries
    with one above 0 (`owner`: question index -> entry index; a packed index holds it too)."""
    if packed is None or np is None or packed.runs is None:
        best: dict[int, float] = {}
        for k, v in sums(weights, postings, idf, norms).items():
            i = owner[k]
            if v > best.get(i, 0.0):
                best[i] = v
        return best
    gathered = _gather(weights, idf, packed)
    if gathered is None:
        return {}
    totals, touched = gathered
    starts, run_of, run_owner = packed.runs
    positive = touched[totals[touched] > 0]
    if not len(positive):
        return {}
    runs = run_of[positive]
    # each entry where its first positive question was posted
    first = np.unique(runs, return_index=True)[1]
    runs = runs[np.sort(first)]
    # a run is one entry's questions; untouched ones are 0
    top = np.maximum.reduceat(totals, starts)[runs]
    return dict(zip(run_owner[runs].tolist(), top.tolist(), strict=True))


def _gather(
    weights: Mapping[str, float], idf: Mapping[str, float], packed: Packed
) -> tuple[Any, Any] | None:
    """(sum per document, as an array of packed.size; the documents posted to, in
    first-posted order)."""
    chosen = [(packed.spans[s], weight * idf[s]) for s, weight in weights.items() if s in idf]
    if not chosen:
        return None
    slices = [slice(start, stop) for (start, stop), _ in chosen]
    ids = np.concatenate([packed.ids[part] for part in slices])
    tf = np.concatenate([packed.tf[part] for part in slices])
    norm = np.concatenate([packed.norm[part] for part in slices])
    coefficient = np.repeat(
        np.array([c for _, c in chosen], dtype=np.float64),
        [stop - start for (start, stop), _ in chosen],
    )
    # The loop's weight * idf * tf * (K1 + 1) / (tf + norm), left to right, summed in posting order.
    totals = np.bincount(ids, coefficient * tf * (K1 + 1) / (tf + norm), minlength=packed.size)
    if len(chosen) == 1:  # one list: each document once, already in posting order
        return totals, ids
    first = np.unique(ids, return_index=True)[1]
    return totals, ids[np.sort(first)]
