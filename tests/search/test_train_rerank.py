"""What the second look is trained on and how (tools/train_rerank.py, `make search-rerank`): the
held-out third of real-tune stays out, the fit learns the feature that tells the answer from the
first ranking's other candidates, and the simulated figures read the first ranking as the search
does (each rule once)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import numpy as np
import pytest

from search import rerank as second_look

ROOT = Path(__file__).resolve().parents[2]
TOOL = ROOT / "tools" / "train_rerank.py"


@pytest.fixture(scope="module")
def train():
    spec = importlib.util.spec_from_file_location("train_rerank", TOOL)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclass looks its module up by name
    spec.loader.exec_module(module)
    return module


def _example(train, answer_at: int, n: int = 6, *, story: bool = True):
    """n candidates, the answer at `answer_at` in the first ranking; only the answer has a high
    end_cover, and the first ranking's score falls with the place."""
    width = len(second_look.FEATURES)
    rows = np.zeros((n, width))
    rows[:, second_look.FEATURES.index("first")] = [1 - 0.01 * k for k in range(n)]
    rows[answer_at, second_look.FEATURES.index("end_cover")] = 1.0
    labels = np.zeros(n)
    labels[answer_at] = 1.0
    keys = [f"cr:{k}" for k in range(n)]
    return train.Example(rows, labels, keys, [1 - 0.01 * k for k in range(n)], story)


def test_the_held_out_third_is_fixed_and_about_a_third():
    sys.path.insert(0, str(ROOT / "bench"))
    import search_sets

    real = search_sets.load_sets()["real-tune"]
    held = [q for q in real if search_sets.held_out_real(q.text)]
    assert 0.2 < len(held) / len(real) < 0.45
    assert held == [q for q in real if search_sets.held_out_real(q.text)]


def test_the_fit_learns_what_tells_the_answer_apart(train):
    examples = [_example(train, k % 5 + 1) for k in range(30)]
    model = train.fit(examples, l2=0.01)
    weights = dict(zip(second_look.FEATURES, model.weights, strict=True))
    assert weights["end_cover"] > 0
    assert weights["end_cover"] > abs(weights["first"])
    before = train.simulate(examples, None)
    after = train.simulate(examples, model)
    assert after[1] == pytest.approx(1.0)
    assert before[1] < 0.5


def test_a_short_question_keeps_its_first_ranking_in_the_simulation(train):
    examples = [_example(train, 3, story=False)]
    model = train.fit([_example(train, k % 5 + 1) for k in range(30)], l2=0.01)
    assert train.simulate(examples, model) == train.simulate(examples, None) == (1.0, 0.25)
