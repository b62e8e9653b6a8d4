"""Train the second look at a hybrid search's first results (search/rerank.py, search/rerank.json).

    make search-rerank           # = .venv/bin/python tools/train_rerank.py

Reads the tuning questions with the bench's corpus (bench/search_bench.py: the newest CR, MTR,
IPG and JAR of JUDGEAPP_RULES_DIR with the shipped asked-as questions and vectors), each asked with
no document filter as the box asks: the real questions measured and read (search_sets.READ) and
the first question set's parts (bench/search_questions.toml: dev, heldout, blind, blind2, docs; all
read long ago, now tuning data). Never the final* sets, the asked-as held-out slice or a blind set
of real questions not yet read (search_sets.BLIND): they measure it. A fixed third of the real
questions (by a digest of each question's text: search_sets.held_out_real) is kept out of training
and its figures are printed apart.

For every question the first ranking's first RERANK_DEPTH candidates are the examples: the ones
that answer it are positives, the others hard negatives (what the first ranking put near the top).
A linear model is fitted on pairs (positive - negative) with logistic loss and an L2 penalty by
full-batch gradient descent on standardised features: no randomness, the same weights on every
run. Then the margin (how unsure the first ranking must be to be read again) is chosen on the
training questions. Seconds on one core; numpy only (the service's .venv).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import search_bench  # noqa: E402
import search_sets  # noqa: E402

from search import rerank as second_look  # noqa: E402

REAL_PARTS = tuple(search_sets.READ)  # the real questions measured and read: tuning data
TRAIN_PARTS = ("dev", "heldout", "blind", "blind2", "docs", *REAL_PARTS)
L2S = (0.001, 0.01, 0.1, 1.0)
MARGINS = (0.0, 0.02, 0.04, 0.06, 0.08, 0.1, 0.12, 0.15, 0.2, 0.25, 0.3, 0.4, 0.6, 1.01)


def _questions() -> list[search_sets.SetQuestion]:
    sets = search_sets.load_sets()  # never the blind half
    return [q for part in TRAIN_PARTS for q in sets.get(part, [])]


@dataclass
class Example:
    """One question's first candidates as the search read them."""

    rows: np.ndarray  # FEATURES per candidate, first ranking's order
    labels: np.ndarray  # 1 for a candidate that answers
    keys: list[str]  # "doc:number" per candidate (parts of one rule share it)
    blended: list[float]  # first-stage scores
    story: bool = True  # longer than second_look.STORY: the only questions read again


def capture(corpus, questions) -> list[Example]:
    """The examples of `questions`, as the search reads them (hybrid, no document filter)."""
    found: list[Example] = []
    always = second_look.Model(
        weights=(0.0,) * len(second_look.FEATURES),
        mean=(0.0,) * len(second_look.FEATURES),
        scale=(1.0,) * len(second_look.FEATURES),
        margin=2.0,
    )
    real_rerank, real_shipped = second_look.rerank, second_look.shipped
    current: dict = {}

    def spy(model, index, query, weights, order, blended, lexical, similarity):
        head = order[: second_look.RERANK_DEPTH]
        reading = second_look.Reading.of(index, query, weights)
        rows = second_look.features(index, reading, head, blended, lexical, similarity)
        keys = [f"{index.entries[i].doc}:{index.entries[i].number}" for i in head]
        found.append(
            Example(
                np.array(rows, dtype=float),
                np.array([float(k in current["answers"]) for k in keys]),
                keys,
                [blended[i] for i in head],
                len(query.strip()) > second_look.STORY,
            )
        )
        return order

    second_look.rerank = spy
    second_look.shipped = lambda: always  # type: ignore[assignment]
    try:
        for q in questions:
            current["answers"] = set(q.answers)
            before = len(found)
            search_bench.evaluate_corpus(
                corpus, [search_bench.Question(q.part, q.text, q.answers, "any")], hybrid=True
            )
            if len(found) == before:  # a rule number or a quoted phrase: no second look
                found.append(Example(np.zeros((0, len(second_look.FEATURES))), np.zeros(0), [], []))
    finally:
        second_look.rerank = real_rerank
        second_look.shipped = real_shipped
    return found


def simulate(examples: Sequence[Example], model: second_look.Model | None) -> tuple[float, float]:
    """recall@5 and MRR@10 of the examples' rules, reordered by `model` where it is unsure
    (None: the first ranking), each rule once. What the search adds after (the IPG infraction
    beside a JAR section) is left out: the real figures are measured at the end."""
    hits5, rr = 0.0, 0.0
    for ex in examples:
        order = list(range(len(ex.keys)))
        if model is not None and len(order) > 1 and ex.story:
            best, second = ex.blended[0], ex.blended[1]
            if model.margin > 0 and (best <= 0 or (best - second) / best < model.margin):
                scores = [model.score(r) for r in ex.rows.tolist()]
                order.sort(key=lambda k: -scores[k])
        seen: list[str] = []
        for k in order:
            if ex.keys[k] not in seen:
                seen.append(ex.keys[k])
        rank = next((n + 1 for n, k in enumerate(seen[:10]) if ex.labels[ex.keys.index(k)]), None)
        if rank is not None:
            hits5 += rank <= 5
            rr += 1 / rank
    n = max(len(examples), 1)
    return hits5 / n, rr / n


def fit(examples: Sequence[Example], *, l2: float, steps: int = 2000) -> second_look.Model:
    """Pairwise logistic regression on standardised features (margin left at 1: always)."""
    rows = np.vstack([ex.rows for ex in examples if len(ex.keys)])
    mean = rows.mean(axis=0)
    scale = rows.std(axis=0)
    scale[scale == 0] = 1.0
    diffs = []
    for ex in examples:
        x, y = ex.rows, ex.labels
        if not len(ex.keys):
            continue
        z = (x - mean) / scale
        pos, neg = z[y > 0], z[y == 0]
        if len(pos) and len(neg):
            # each question weighs the same, whatever its number of pairs
            pairs = (pos[:, None, :] - neg[None, :, :]).reshape(-1, z.shape[1])
            diffs.append((pairs, 1.0 / len(pairs)))
    d = np.vstack([p for p, _ in diffs])
    weight = np.concatenate([np.full(len(p), w) for p, w in diffs])
    weight /= weight.sum()
    w = np.zeros(d.shape[1])
    rate = 0.5
    for _ in range(steps):
        margin = d @ w
        grad = -(d * (weight / (1 + np.exp(margin)))[:, None]).sum(axis=0) + l2 * w
        w -= rate * grad
    return second_look.Model(tuple(w), tuple(mean), tuple(scale), 1.0)


def measure(corpus, questions, *, rerank: bool) -> tuple[float, float]:
    """recall@5 and MRR@10 of `questions` through the search itself, with or without the shipped
    model."""
    second_look.shipped.cache_clear()
    real = second_look.shipped
    if not rerank:
        second_look.shipped = lambda: None  # type: ignore[assignment]
    try:
        outcomes = search_bench.evaluate_corpus(
            corpus,
            [search_bench.Question(q.part, q.text, q.answers, "any") for q in questions],
            hybrid=True,
        )
    finally:
        second_look.shipped = real
    return search_bench.recall_at(outcomes), search_bench.mrr(outcomes)


def write(path: Path, model: second_look.Model) -> None:
    path.write_text(
        json.dumps(
            {
                "features": list(second_look.FEATURES),
                "weights": [round(float(v), 6) for v in model.weights],
                "mean": [round(float(v), 6) for v in model.mean],
                "scale": [round(float(v), 6) for v in model.scale],
                "margin": model.margin,
            },
            indent=1,
        )
        + "\n",
        encoding="utf-8",
    )


def cross_validated(examples: Sequence[Example], l2: float, folds: int = 5) -> dict[float, float]:
    """MRR@10 per margin of models fitted on all folds but one and asked the one left out."""
    by_margin = dict.fromkeys(MARGINS, 0.0)
    for fold in range(folds):
        fitted = fit([ex for k, ex in enumerate(examples) if k % folds != fold], l2=l2)
        left = [ex for k, ex in enumerate(examples) if k % folds == fold]
        for margin in MARGINS:
            model = dataclasses.replace(fitted, margin=margin)
            by_margin[margin] += simulate(left, model)[1] * len(left) / len(examples)
    return by_margin


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules-dir", type=Path, default=search_bench.DEFAULT_RULES)
    parser.add_argument("--out", type=Path, default=second_look.MODEL_FILE)
    args = parser.parse_args()
    started = time.perf_counter()
    version, _ = search_bench.load_questions()
    # Without the real questions as asked-as questions: each would meet itself.
    corpus = search_bench.load_corpus(args.rules_dir, version, real_asked="none")
    if not search_bench.add_semantic(corpus):
        raise SystemExit("the reranker reads a hybrid search: the model package is needed")
    questions = _questions()
    train = [
        q for q in questions if not (q.part in REAL_PARTS and search_sets.held_out_real(q.text))
    ]
    held = [q for q in questions if q.part in REAL_PARTS and search_sets.held_out_real(q.text)]
    real_train = [q for q in train if q.part in REAL_PARTS]
    print(f"questions: {len(train)} to train on ({len(real_train)} real), {len(held)} held out")
    # Only stories are read again (second_look.STORY): they are what it learns from.
    train = [q for q in train if len(q.text.strip()) > second_look.STORY]
    print(f"of them told as a story (over {second_look.STORY} characters): {len(train)}")
    examples = capture(corpus, train)
    held_examples = capture(corpus, held)
    base = simulate(examples, None)[1]
    print(f"first ranking, train MRR@10 (simulated) {base:.3f}")
    best: tuple[float, float, float] | None = None  # (cv MRR, l2, margin)
    for l2 in L2S:
        for margin, value in cross_validated(examples, l2).items():
            if best is None or value > best[0] + 1e-9:
                best = (value, l2, margin)
    assert best is not None
    print(f"cross-validated on train: MRR@10 {best[0]:.3f} at l2 {best[1]}, margin {best[2]}")
    model = dataclasses.replace(fit(examples, l2=best[1]), margin=best[2])
    for name, group in (("train", examples), ("real held", held_examples)):
        r0, m0 = simulate(group, None)
        r1, m1 = simulate(group, model)
        print(f"simulated {name:15} R@5 {r0:.3f} -> {r1:.3f}   MRR@10 {m0:.3f} -> {m1:.3f}")
    write(args.out, model)
    second_look.MODEL_FILE = args.out  # what measure's searches read
    for name, asked in (("real train", real_train), ("real held", held)):
        # every real question, short ones too (kept as the first ranking had them)
        r0, m0 = measure(corpus, asked, rerank=False)
        r1, m1 = measure(corpus, asked, rerank=True)
        print(f"measured  {name:15} R@5 {r0:.3f} -> {r1:.3f}   MRR@10 {m0:.3f} -> {m1:.3f}")
    print(f"wrote {args.out} in {time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()
