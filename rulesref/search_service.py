"""Search service: builds the pure search index from stored versions, caches it, stores and loads
the rule embeddings that make search hybrid, and answers queries.

The ranking lives in rulesref.search and runs in Python over the same records whichever
database is underneath, so SQLite and PostgreSQL give the same answers. Embeddings are stored
content-addressed in SearchVector (key: model name + embedded text); a version's search is
hybrid once every one of its rules has a stored vector, and lexical until then (or when the
model package is not installed).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cache

from django.db import transaction

from rulesref import asked, changes, search, services
from rulesref.models import GlossaryTerm, Rule, SearchVector, Version
from rulesref.parsing.records import GlossaryEntry, RuleKind

# While a version's vectors are incomplete, look again at most this often (seconds).
_RECHECK_SECONDS = 5.0
# Keys per IN (...) query: well under SQLite's and PostgreSQL's parameter limits.
_KEYS_PER_QUERY = 500
_SAMPLE = 64   # keys checked first when looking for a complete set of vectors


@dataclass
class _Cached:
    index: search.SearchIndex
    keys: list[str]                      # vector key per index entry; [] when no encoder
    question_keys: list[str] = field(default_factory=list)   # vector key per asked-as question
    semantic: Callable[[str], Sequence[float]] | None = None
    checked_at: float = field(default=-1e9)


_indexes: dict[tuple[int, ...], _Cached] = {}
_lock = threading.Lock()


def _entries_for(version: Version) -> tuple[list[search.SearchEntry], list[GlossaryEntry]]:
    doc = version.document.slug
    rows = list(Rule.objects.filter(version=version).order_by("position").values(
        "number", "kind", "title", "text", "examples", "parent", "aliases"))
    titles = {r["number"]: (r["kind"], r["title"], r["parent"]) for r in rows}

    def section_of(row: dict) -> str:
        parent = row["parent"]
        if row["kind"] in (RuleKind.SECTION.value, RuleKind.CHAPTER.value):
            return row["title"]
        for _ in range(4):
            if not parent or parent not in titles:
                return ""
            kind, title, grand = titles[parent]
            if kind in (RuleKind.SECTION.value, RuleKind.APPENDIX.value):
                return title
            parent = grand
        return ""

    questions = asked_questions(version)
    entries = [
        search.SearchEntry(
            doc=doc, number=r["number"], title=r["title"], text=r["text"], examples=tuple(r["examples"]),
            section_title=section_of(r), aliases=tuple(r["aliases"]), questions=questions.get(r["number"], ()),
        )
        for r in rows
        if r["kind"] != RuleKind.CHAPTER.value
    ]
    glossary = [
        GlossaryEntry(term=g.term, definition=g.definition, aliases=tuple(g.aliases), references=tuple(g.references))
        for g in GlossaryTerm.objects.filter(version=version)
    ]
    return entries, glossary


@cache
def _shipped_asked() -> dict:
    """The shipped questions files, read once per process."""
    return asked.load_asked()


def asked_questions(version: Version) -> dict[str, tuple[str, ...]]:
    """Rule number in `version` -> the shipped asked-as questions about that rule.

    Each questions file is pinned to the version it was written against; its numbers are followed
    into `version` through the stored pairings (renumbering), or, before those are stored, kept
    where the rule's text is the same in both versions. A file whose version is not stored here
    is not used. The newest file that reaches a rule wins."""
    doc = version.document.slug
    out: dict[str, tuple[str, ...]] = {}
    for found in asked.newest_for(doc, _shipped_asked()):
        pinned = Version.objects.filter(document=version.document, effective_date=found.version).filter(changes.LIVE).first()
        if pinned is None:
            continue
        mapping = changes.stored_mapping(pinned, version)
        if mapping is None:
            mapping = _same_text_numbers(pinned, version)
        for number, questions in found.questions.items():
            target = mapping.get(number)
            if target is not None and target not in out:
                out[target] = questions
    return out


def _same_text_numbers(old: Version, new: Version) -> dict[str, str]:
    """Numbers whose rule has the same number and text in both versions (mapped to themselves)."""
    def texts(version: Version) -> dict[str, str]:
        return {n: " ".join(t.split()) for n, t in Rule.objects.filter(version=version).values_list("number", "text")}

    before, after = texts(old), texts(new)
    return {n: n for n, t in before.items() if after.get(n) == t}


def _semantic_module(*, load: bool = True):  # type: ignore[no-untyped-def]
    """rulesref.search_semantic when the model package is installed, else None (search stays lexical).
    With load=False the encoder is not loaded (0.7 s, 90 MB): enough to compute vector keys."""
    from rulesref import search_semantic

    if not load:
        return search_semantic if search_semantic.np is not None and search_semantic.model_dir() is not None else None
    return search_semantic if search_semantic.load_encoder() is not None else None


def vector_keys(entries: Sequence[search.SearchEntry], *, questions: bool = False) -> list[str]:
    """The content address of each entry's embedded text, or with `questions` of each asked-as
    question ([] when the model is not installed)."""
    semantic = _semantic_module(load=False)
    if semantic is None:
        return []
    texts = semantic.question_texts(entries) if questions else semantic.entry_texts(entries)
    return [semantic.vector_key(text) for text in texts]


def _stored(keys: Sequence[str], *, with_vectors: bool) -> dict[str, bytes]:
    """Stored vectors among `keys` (values b"" when `with_vectors` is False)."""
    found: dict[str, bytes] = {}
    unique = list(dict.fromkeys(keys))
    for k in range(0, len(unique), _KEYS_PER_QUERY):
        rows = SearchVector.objects.filter(key__in=unique[k:k + _KEYS_PER_QUERY])
        if with_vectors:
            found.update((key, bytes(vector)) for key, vector in rows.values_list("key", "vector"))
        else:
            found.update((key, b"") for key in rows.values_list("key", flat=True))
    return found


def _attach_semantic(cached: _Cached) -> None:
    """Switch a cached index to hybrid once all its vectors are stored (checked every few seconds)."""
    now = time.monotonic()
    if cached.semantic is not None or not cached.keys or now - cached.checked_at < _RECHECK_SECONDS:
        return
    cached.checked_at = now
    wanted = cached.keys + cached.question_keys
    # While vectors are still being built, a sample answers "not yet" in one small query; only a
    # sample found complete pays for counting every key (19,000 for the 2025 CR and its questions).
    sample = wanted[:: max(1, len(wanted) // _SAMPLE)][:_SAMPLE] + wanted[-1:]
    if len(_stored(sample, with_vectors=False)) < len(set(sample)):
        return
    if len(_stored(wanted, with_vectors=False)) < len(set(wanted)):
        return
    vectors = _stored(wanted, with_vectors=True)
    semantic = _semantic_module()
    if semantic is None:
        return
    cached.semantic = semantic.semantic_scorer(
        cached.index, b"".join(vectors[k] for k in cached.keys),
        question_vectors=b"".join(vectors[k] for k in cached.question_keys))


def _cached_for(versions: list[Version]) -> _Cached:
    key = tuple(sorted(v.pk for v in versions))
    cached = _indexes.get(key)
    if cached is None:
        with _lock:
            cached = _indexes.get(key)
            if cached is None:
                entries: list[search.SearchEntry] = []
                glossary: list[GlossaryEntry] = []
                keys: list[str] = []
                question_keys: list[str] = []
                for version in sorted(versions, key=lambda v: v.pk):
                    more_entries, more_glossary = _entries_for(version)
                    entries.extend(more_entries)
                    keys.extend(vector_keys(more_entries))   # per version: entry texts name their parents
                    question_keys.extend(vector_keys(more_entries, questions=True))
                    if version.document.slug == "cr":
                        glossary.extend(more_glossary)
                cached = _Cached(index=search.build_index(entries, glossary=glossary), keys=keys,
                                 question_keys=question_keys)
                _indexes[key] = cached
    _attach_semantic(cached)
    return cached


def index_for(versions: list[Version]) -> search.SearchIndex:
    return _cached_for(versions).index


def ranking_for(versions: list[Version]) -> str:
    """"hybrid" when the search over `versions` uses embeddings, else "lexical"."""
    return "hybrid" if _cached_for(versions).semantic is not None else "lexical"


def forget_indexes() -> None:
    _indexes.clear()


def _versions(doc: str | None, version: str | None) -> list[Version]:
    if doc is not None and version is not None:
        return [services.get_version(doc, version=version)]
    if doc is not None:
        return [services.get_version(doc)]
    return list(Version.objects.select_related("document").filter(is_current=True))


def search_rules(query: str, *, doc: str | None = None, version: str | None = None, limit: int = 10) -> list[dict]:
    """Best hits first, as API.md's result dicts ({"doc", "number", "snippet", "score"} and more)."""
    return search_answer(query, doc=doc, version=version, limit=limit)["results"]


def search_answer(query: str, *, doc: str | None = None, version: str | None = None, limit: int = 10) -> dict:
    """One search with all it says, from one look-up of the versions: {"results": hits best first
    (as search_rules), "ranking": "hybrid"|"lexical", "understood": how the judge's words were read}."""
    versions = _versions(doc, version)
    if not versions:
        return {"results": [], "ranking": "lexical", "understood": []}
    cached = _cached_for(versions)
    hits = search.search(cached.index, query, limit=limit, doc=doc, semantic=cached.semantic)
    dates = {v.document.slug: v.effective_date.isoformat() if v.effective_date else None for v in versions}
    results = [
        {"doc": h.doc, "number": h.number, "snippet": h.snippet, "score": round(h.score, 4),
         "title": h.title, "version": dates.get(h.doc)}
        for h in hits
    ]
    return {"results": results, "ranking": "hybrid" if cached.semantic is not None else "lexical",
            "understood": search.understood(cached.index, query)}


# --------------------------------------------------------------------------------------- vectors


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
    semantic = _semantic_module(load=False)
    if semantic is None:
        return {}
    entries, _ = _entries_for(version)
    texts = semantic.entry_texts(entries) + semantic.question_texts(entries)
    wanted = {semantic.vector_key(text): text for text in texts}
    stored = _stored(list(wanted), with_vectors=False)
    return {k: t for k, t in wanted.items() if k not in stored}


def build_vectors(version_id: int, *, batch: int = 64, budget_seconds: float | None = None, limit: int | None = None) -> VectorBuild:
    """Embed the rules of one version that have no stored vector, `batch` texts at a time, each
    batch committed on its own: an interrupted build loses at most one batch and a new run
    continues where it stopped. Stops after `budget_seconds` (None: no limit) or `limit` vectors."""
    semantic = _semantic_module()
    version = Version.objects.select_related("document").filter(pk=version_id).first()
    if semantic is None or version is None:
        return VectorBuild(version_id, 0, 0, gave_up=False)
    missing = sorted(missing_vectors(version).items(), key=lambda kv: len(kv[1]))   # similar lengths pad less
    if limit is not None:
        missing = missing[:limit]
    started = time.monotonic()
    computed = 0
    for k in range(0, len(missing), batch):
        chunk = missing[k:k + batch]
        rows = semantic.embed_texts([text for _, text in chunk])
        with transaction.atomic():
            SearchVector.objects.bulk_create(
                [SearchVector(key=key, model=semantic.MODEL_NAME, vector=row) for (key, _), row in zip(chunk, rows, strict=True)],
                ignore_conflicts=True,   # a concurrent build stored the same text: same vector
            )
        computed += len(chunk)
        # The budget is checked after a batch, so every run makes progress however small the budget.
        if budget_seconds is not None and time.monotonic() - started > budget_seconds and k + batch < len(missing):
            left = len(missing_vectors(version))
            return VectorBuild(version_id, computed, left, gave_up=left > 0)
    return VectorBuild(version_id, computed, len(missing_vectors(version)), gave_up=False)
