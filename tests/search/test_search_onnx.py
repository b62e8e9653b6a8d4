"""The search encoder in ONNX Runtime (search/onnx_encoder.py) against the numpy encoder
it stands in for, on the shipped judge-tuned model and real judges' questions: the float graph
gives numpy's vectors, the int8 graph (the default) vectors that find the same neighbours among
the shipped asked-as questions' vectors."""

from __future__ import annotations

import sys
import threading
import time
import tomllib
from pathlib import Path

import numpy as np
import pytest

from search import embedder, onnx_encoder

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def encoder():
    found = embedder.load_encoder()
    assert found is not None, "the shipped model must load"
    return found


def _questions(count: int = 40) -> list[str]:
    found = tomllib.loads((ROOT / "bench" / "search_questions_final22.toml").read_text())["question"]
    return [q["q"] for q in found[:count]]


def _build(encoder, *, quantize: bool = False):
    return onnx_encoder.build_session(encoder.w, dimensions=embedder.DIMENSIONS, layers=embedder._LAYERS,
                                      heads=embedder._HEADS, eps=embedder._EPS, quantize=quantize)


def _unit(vector):
    return vector / np.linalg.norm(vector)


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


def test_the_int8_session_finds_the_same_asked_as_questions(encoder):
    """Quantized, a question's vector moves a little (cosine about 0.99 with numpy's) but its
    nearest shipped asked-as questions stay the same: the ranking reads those neighbours."""
    from search import shipped

    run = _build(encoder, quantize=True)
    assert run is not None
    rows = shipped.rows_f32()
    assert len(rows) > 20000, "the shipped vectors must load"
    matrix = np.frombuffer(b"".join(rows.values()), dtype="<f4").reshape(len(rows), embedder.DIMENSIONS)
    cosines, same_first, overlap = [], 0, 0
    questions = _questions(60)
    for text in questions:
        exact = _numpy(encoder, text)
        quick = _unit(run(encoder.tokenizer.encode(text)))
        cosines.append(float(quick @ exact))
        near_exact = np.argsort(-(matrix @ exact))[:10]
        near_quick = np.argsort(-(matrix @ quick))[:10]
        same_first += near_exact[0] == near_quick[0]
        overlap += len(set(near_exact.tolist()) & set(near_quick.tolist()))
    assert min(cosines) > 0.95 and sum(cosines) / len(cosines) > 0.98, (min(cosines), sum(cosines) / len(cosines))
    # Measured: 54 of 60 first neighbours the same, 560 of 600 of the ten (a neighbour can swap
    # with another question about the same rule).
    assert same_first >= 0.8 * len(questions), same_first
    assert overlap >= 0.85 * 10 * len(questions), overlap
    # It is not the float graph under another name: its vectors differ from numpy's.
    assert max(1 - c for c in cosines) > 1e-4


def test_the_int8_session_is_faster_than_the_float_one(encoder):
    """Not a timed target (bench/search_start_bench.py prints those), a sanity check that the
    quantized graph runs integer kernels: it does the same work in well under the float time."""
    quick, exact = _build(encoder, quantize=True), _build(encoder)
    ids = [encoder.tokenizer.encode(text) for text in _questions(40)]

    def total(run) -> float:
        best = float("inf")
        for _ in range(3):
            started = time.perf_counter()
            for x in ids:
                run(x)
            best = min(best, time.perf_counter() - started)
        return best

    assert total(quick) < 0.8 * total(exact)


@pytest.mark.parametrize("chosen", ["int8", "float"])
def test_one_question_is_encoded_by_the_session_once_it_is_built(encoder, monkeypatch, chosen):
    monkeypatch.setattr(embedder, "_SESSION_AFTER", 0.0)
    monkeypatch.setenv("JUDGEAPP_SEARCH_ONNX", chosen)
    fresh = _fresh(encoder)
    text = "opponent forgot his upkeep trigger, what's the fix"
    first = fresh.encode_question(text)[None]   # numpy answers while the session is built
    assert np.allclose(first[0], _numpy(encoder, text), atol=1e-6)
    deadline = time.monotonic() + 60
    while fresh.session() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    assert fresh.session() is not None
    pooled = fresh.session()(fresh.tokenizer.encode(text))
    assert np.allclose(fresh.encode_question(text), _unit(pooled), atol=1e-7)
    moved = float(np.abs(fresh.encode_question(text) - first[0]).max())
    if chosen == "float":
        assert moved < 1e-5
    else:
        assert 1e-5 < moved and float(fresh.encode_question(text) @ first[0]) > 0.95
    # What is stored (the worker embedding rules, one text or many) stays with numpy.
    assert np.allclose(fresh.encode([text])[0], _numpy(encoder, text), atol=1e-6)
    assert np.allclose(fresh.encode([text, "x"])[0], _numpy(encoder, text), atol=1e-6)


@pytest.mark.parametrize(("value", "expected"), [
    (None, "int8"), ("1", "int8"), ("int8", "int8"), (" Float ", "float"), ("0", None), ("off", None), ("no", None),
])
def test_the_setting_chooses_how_a_question_is_encoded(monkeypatch, value, expected):
    if value is None:
        monkeypatch.delenv("JUDGEAPP_SEARCH_ONNX", raising=False)
    else:
        monkeypatch.setenv("JUDGEAPP_SEARCH_ONNX", value)
    assert onnx_encoder.mode() == expected
    assert onnx_encoder.enabled() is (expected is not None)


def test_turned_off_no_session_is_built(encoder, monkeypatch):
    monkeypatch.setenv("JUDGEAPP_SEARCH_ONNX", "0")
    fresh = _fresh(encoder)
    assert fresh.session() is None and fresh._session_pid == 0


def test_without_the_packages_numpy_encodes(encoder, monkeypatch):
    monkeypatch.setitem(sys.modules, "onnxruntime", None)   # import fails as if not installed
    assert _build(encoder) is None
    assert _build(encoder, quantize=True) is None

