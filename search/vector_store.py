"""Stored sentence-embedding vectors of the search: their keys, which are stored, and building the
missing ones (batch by batch, each committed, within a time budget). Content-addressed in
SearchVector (key: model name + embedded text), so rules whose text did not change between
versions share their vectors."""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass

from django.conf import settings
from django.db import transaction

from rulesref.models import Version
from search import embedder, model, shipped
from search.entries import entries_for
from search.models import SearchVector
from search.records import SearchEntry

# Keys per IN (...) query: well under SQLite's and PostgreSQL's parameter limits.
_KEYS_PER_QUERY = 500


def semantic_module(*, load: bool = True):
    """search.vectors when the model is installed, else None (search stays lexical).
    With load=False the encoder is not loaded (its tokenizer, 12 MB): enough to compute
    vector keys."""
    from search import vectors

    if not load:
        return vectors if embedder.np is not None and model.model_dir() is not None else None
    return vectors if embedder.load_encoder() is not None else None


def vector_keys(entries: Sequence[SearchEntry], *, questions: bool = False) -> list[str]:
    """The content address of each entry's embedded text, or with `questions` of each asked-as
    question ([] when the model is not installed)."""
    semantic = semantic_module(load=False)
    if semantic is None:
        return []
    texts = semantic.question_texts(entries) if questions else semantic.entry_texts(entries)
    return semantic.vector_keys_of(texts)


def stored(keys: Sequence[str], *, with_vectors: bool) -> dict[str, bytes]:
    """Stored vectors among `keys` (values b"" when `with_vectors` is False): in the database, or
    shipped with the repository (search.shipped; SEARCH_SHIPPED_VECTORS, default on)."""
    found: dict[str, bytes] = {}
    unique = list(dict.fromkeys(keys))
    if getattr(settings, "SEARCH_SHIPPED_VECTORS", True):
        if with_vectors:
            found.update(shipped.vectors(unique))
        else:
            present = shipped.keys()
            found.update((key, b"") for key in unique if key in present)
        unique = [key for key in unique if key not in found]
    for k in range(0, len(unique), _KEYS_PER_QUERY):
        rows = SearchVector.objects.filter(key__in=unique[k : k + _KEYS_PER_QUERY])
        if with_vectors:
            found.update((key, bytes(vector)) for key, vector in rows.values_list("key", "vector"))
        else:
            found.update((key, b"") for key in rows.values_list("key", flat=True))
    return found


@dataclass(frozen=True)
class VectorBuild:
    """What one run of `build_vectors` did: vectors computed, still missing, and whether it stopped
    at its time budget (the task then enqueues itself again)."""

    version_id: int
    computed: int
    missing: int
    gave_up: bool


def missing_vectors(version: Version) -> dict[str, str]:
    """Vector key -> embedded text for the rules of `version` that have no stored vector yet."""
    semantic = semantic_module(load=False)
    if semantic is None:
        return {}
    entries, _ = entries_for(version)
    texts = semantic.entry_texts(entries) + semantic.question_texts(entries)
    wanted = dict(zip(semantic.vector_keys_of(texts), texts, strict=True))
    found = stored(list(wanted), with_vectors=False)
    return {k: t for k, t in wanted.items() if k not in found}


def build_vectors(
    version_id: int,
    *,
    batch: int = 64,
    budget_seconds: float | None = None,
    limit: int | None = None,
) -> VectorBuild:
    """Embed the rules of one version that have no stored vector, `batch` texts at a time, each
    batch committed on its own: an interrupted build loses at most one batch and a new run
    continues where it stopped. Stops after `budget_seconds` (None: no limit) or `limit` vectors."""
    semantic = semantic_module()
    version = Version.objects.select_related("document").filter(pk=version_id).first()
    if semantic is None or version is None:
        return VectorBuild(version_id, 0, 0, gave_up=False)
    # similar lengths pad less
    missing = sorted(missing_vectors(version).items(), key=lambda kv: len(kv[1]))
    if limit is not None:
        missing = missing[:limit]
    started = time.monotonic()
    computed = 0
    for k in range(0, len(missing), batch):
        chunk = missing[k : k + batch]
        rows = semantic.embed_texts([text for _, text in chunk])
        with transaction.atomic():
            SearchVector.objects.bulk_create(
                [
                    SearchVector(key=key, model=model.model_name(), vector=row)
                    for (key, _), row in zip(chunk, rows, strict=True)
                ],
                ignore_conflicts=True,  # a concurrent build stored the same text: same vector
            )
        computed += len(chunk)
        # The budget is checked after a batch, so every run makes progress however small the budget.
        if (
            budget_seconds is not None
            and time.monotonic() - started > budget_seconds
            and k + batch < len(missing)
        ):
            left = len(missing_vectors(version))
            return VectorBuild(version_id, computed, left, gave_up=left > 0)
    return VectorBuild(version_id, computed, len(missing_vectors(version)), gave_up=False)
