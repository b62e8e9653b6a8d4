"""The search encoder in ONNX Runtime (rulesref/search/onnx_encoder.py) against the numpy encoder
it stands in for, on the shipped judge-tuned model and real judges' questions."""

from __future__ import annotations

import sys
import threading
import time
import tomllib
from pathlib import Path

import numpy as np
import pytest

from rulesref.search import embedder, onnx_encoder

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def encoder():
    found = embedder.load_encoder()
    assert found is not None, "the shipped model must load"
    return found


def _questions(count: int = 40) -> list[str]:
    found = tomllib.loads((ROOT / "bench" / "search_questions_final22.toml").read_text())["question"]
    return [q["q"] for q in found[:count]]


def _build(encoder):
    return onnx_encoder.build_session(encoder.w, dimensions=embedder.DIMENSIONS, layers=embedder._LAYERS,
                                      heads=embedder._HEADS, eps=embedder._EPS)


def _fresh(encoder):
    """The shipped encoder's weights in an Encoder whose session was never asked for."""
    fresh = embedder.Encoder.__new__(embedder.Encoder)
    fresh.__dict__.update(encoder.__dict__)
    fresh._session, fresh._session_pid, fresh._session_lock = None, 0, threading.Lock()
    return fresh


def _numpy(encoder, text: str):
    return encoder._forward([encoder.tokenizer.encode(text)])[0]


def test_the_session_gives_the_numpy_encoders_vectors(encoder):
    run = _build(encoder)
    assert run is not None
    for text in [*_questions(), "x", "my walker used its minus and went to zero " * 12]:
        pooled = run(encoder.tokenizer.encode(text))
        fast = pooled / np.linalg.norm(pooled)
        assert float(fast @ _numpy(encoder, text)) > 0.99999, text
        assert float(np.abs(fast - _numpy(encoder, text)).max()) < 1e-5, text


def test_one_question_is_encoded_by_the_session_once_it_is_built(encoder, monkeypatch):
    monkeypatch.setattr(embedder, "_SESSION_AFTER", 0.0)
    fresh = _fresh(encoder)
    text = "opponent forgot his upkeep trigger, what's the fix"
    first = fresh.encode([text])            # numpy answers while the session is built
    deadline = time.monotonic() + 60
    while fresh.session() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    assert fresh.session() is not None
    pooled = fresh.session()(fresh.tokenizer.encode(text))
    assert np.allclose(fresh.encode([text])[0], pooled / np.linalg.norm(pooled), atol=1e-7)
    assert np.abs(fresh.encode([text])[0] - first[0]).max() < 1e-5
    # A batch (the worker embedding rules) stays with numpy: the session takes one text.
    assert np.allclose(fresh.encode([text, "x"])[0], _numpy(encoder, text), atol=1e-6)


def test_turned_off_no_session_is_built(encoder, monkeypatch):
    monkeypatch.setenv("JUDGEAPP_SEARCH_ONNX", "0")
    fresh = _fresh(encoder)
    assert fresh.session() is None and fresh._session_pid == 0


def test_without_the_packages_numpy_encodes(encoder, monkeypatch):
    monkeypatch.setitem(sys.modules, "onnxruntime", None)   # import fails as if not installed
    assert _build(encoder) is None
