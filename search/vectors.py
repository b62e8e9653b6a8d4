"""What is embedded for the rules search, its content address, and how a question is scored.

What is embedded for a rule is `entry_texts` (section title, enclosing heading names, title, text).
Each embedded text has a content address, `vector_key` (sha256 of the model name and the text): the
service stores one float32 row per key (search.models.SearchVector), so rules whose text did not
change between versions share their vectors. `embed_texts` computes rows in length-sorted batches
(about 80 s for the whole 2025 CR on one core); `semantic_scorer` scores a question against every
rule with one matrix-vector product, caching question vectors (LRU), since encoding the question
(a few to 20 ms, dominated by six layers of small matrix products) is most of a hybrid query.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from functools import lru_cache
from typing import Any

from search import bm25, card_source, embedder, model
from search.embedder import DIMENSIONS, Encoder, np
from search.index import is_heading_text, parent_number
from search.records import SearchEntry, SearchIndex
from search.spoken import spoken_rewrite
from search.vocabulary import shipped_words

# A rule's similarity to a judge's question through its asked-as questions is their soft maximum at
# this temperature: SUPPORT x log(sum of exp(cosine / SUPPORT)). With one close question it is that
# question's cosine; with several close ones it is a little more, so a rule that many ways of
# asking come near outranks one that a single question matches by chance. Measured on the tuning
# sets and the held-out asked-as questions (0 is the plain maximum).
SUPPORT = 0.06


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
    (spoken_rewrite with the shipped tables)."""
    stamp = card_source.card_stamp()
    spoken, cards = shipped_words()
    read = _read_questions.get(stamp)
    if read is None:  # the card words changed: what was read with the old ones is dropped
        _read_questions.clear()
        read = _read_questions[stamp] = {}
    out = []
    for e in entries:
        for question in e.questions:
            text = read.get(question)
            if text is None:
                text = read[question] = spoken_rewrite(spoken, question, cards)
            out.append(text)
    return out


# The asked-as questions as read with the card words of one card stamp (stamp -> question -> text):
# every index built reads the same 45,000 (each version's, each set of current versions), about
# 3 s of CPU each time unremembered.
_read_questions: dict[str, dict[str, str]] = {}


def fingerprint(entries: Sequence[SearchEntry], *, questions: bool = False) -> str:
    """A digest of what `embed_entries` (or, with `questions`, `question_texts`) embeds, model
    included: stored vectors are only used with the entries they were computed from."""
    digest = hashlib.sha256(model.model_name().encode())
    for text in question_texts(entries) if questions else entry_texts(entries):
        digest.update(b"\0" + text.encode())
    return digest.hexdigest()


def vector_key(text: str) -> str:
    """The content address of one embedded text: sha256 of the model name and the text. A rule
    whose text (with its section and heading names) did not change between two versions keeps
    its key, so a new version only embeds what changed."""
    return vector_keys_of([text])[0]


def vector_keys_of(texts: Sequence[str]) -> list[str]:
    """vector_key of each of `texts`, the model named once (finding it reads the disk)."""
    name = model.model_name()
    return [hashlib.sha256(f"{name}\0{text}".encode()).hexdigest() for text in texts]


def embed_texts(
    texts: Sequence[str], encoder: Encoder | None = None, *, batch: int = 32
) -> list[bytes]:
    """One float32 embedding per text, as 1,536 little-endian bytes each (what is stored)."""
    encoder = encoder or embedder.load_encoder()
    if encoder is None:
        raise RuntimeError(f"the {model.MODEL_PACKAGE} package is not installed")
    matrix = encoder.encode(texts, batch=batch).astype("<f4")
    return [row.tobytes() for row in matrix]


def embed_entries(entries: Sequence[SearchEntry], encoder: Encoder | None = None) -> bytes:
    """float32 embeddings of `entries`, row by row, as bytes (1,536 per rule) to store.

    Minutes for a whole CR on one CPU: run it as a separate step (a task after import).
    """
    return b"".join(embed_texts(entry_texts(entries), encoder))


def semantic_scorer(
    index: SearchIndex,
    vectors: bytes,
    encoder: Encoder | None = None,
    *,
    question_vectors: bytes = b"",
) -> Callable[[str], Sequence[float]] | None:
    """A function query -> similarity per entry of `index` (same order as `index.entries`), for
    `ranking.search(..., semantic=...)`; None when the encoder or the vectors cannot be used.

    `vectors` holds one float32 row per entry (`embed_entries`, or the stored rows joined), and
    `question_vectors` one per asked-as question (`question_texts`; b"" for none). An entry's
    similarity is the best of its own cosine and its questions' soft maximum (SUPPORT): a judge's
    question is closest to other questions about the same thing."""
    encoder = encoder or embedder.load_encoder()
    owners = index.question_owner
    if encoder is None or np is None or len(vectors) != len(index.entries) * DIMENSIONS * 4:
        return None
    if len(question_vectors) != len(owners) * DIMENSIONS * 4:
        return None
    matrix = np.frombuffer(vectors, dtype="<f4").reshape(len(index.entries), DIMENSIONS)
    if owners:
        # Questions are stored in entry order: each entry's questions are one run, maxed
        # with reduceat.
        asked = np.frombuffer(question_vectors, dtype="<f4").reshape(len(owners), DIMENSIONS)
        starts, run_of, asked_by = bm25.question_runs(owners)  # run per question; entry per run

    @lru_cache(maxsize=1024)  # judges repeat questions; encoding is most of a hybrid query's time
    def encode(query: str) -> Any:
        return encoder.encode_question(query)

    def score(query: str) -> Sequence[float]:
        # One matrix-vector product scores every rule (unit vectors: the dot product is the cosine).
        vector = encode(query)
        similarity = matrix @ vector
        if owners:
            found = asked @ vector
            best = np.maximum.reduceat(found, starts)
            # the soft maximum, each run shifted by its own maximum so that exp never underflows
            # to 0
            if SUPPORT > 0:
                best = best + SUPPORT * np.log(
                    np.add.reduceat(np.exp((found - best[run_of]) / SUPPORT), starts)
                )
            similarity[asked_by] = np.maximum(similarity[asked_by], best)
        return similarity  # a numpy array: ranking._blend partial-sorts it

    def prepare(texts: Sequence[str]) -> None:
        """Encode the texts one question will be scored with (a story: the whole question, its
        asking sentences, its longest sentences) two at a time, into the cache that `score`
        reads: the first on the calling thread, the others beside it on one more thread (ONNX
        Runtime and numpy let go of the interpreter while they compute), so a long question
        waits for its longest text rather than for all of them in turn."""
        todo = list(dict.fromkeys(texts))
        if len(todo) < 2:
            return
        beside = _encoding_thread().submit(lambda: [encode(t) for t in todo[1:]])
        encode(todo[0])
        beside.result()

    score.cache_clear = encode.cache_clear  # type: ignore[attr-defined]
    score.prepare = prepare  # type: ignore[attr-defined]
    return score


_thread: tuple[int, ThreadPoolExecutor] | None = None


def _encoding_thread() -> ThreadPoolExecutor:
    """This process's one thread that encodes beside a request's own (made again after a fork:
    a forked web worker does not inherit its parent's threads)."""
    global _thread
    if _thread is None or _thread[0] != os.getpid():
        _thread = (os.getpid(), ThreadPoolExecutor(max_workers=1, thread_name_prefix="encode"))
    return _thread[1]
