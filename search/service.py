"""Search service: builds the pure search index from stored versions, caches it, stores and loads
the rule embeddings that make search hybrid, and answers queries.

The ranking lives in search.ranking and runs in Python over the same records whichever
database is underneath, so SQLite and PostgreSQL give the same answers. Embeddings are stored
content-addressed in SearchVector (key: model name + embedded text); a version's search is
hybrid once every one of its rules has a stored vector, and lexical until then (or when the
model package is not installed).
"""

from __future__ import annotations

import gc
import logging
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cache, lru_cache
from typing import Any, cast

from django.db import connection, connections

from rulesref import services
from rulesref.models import Version
from rulesref.parsing.records import GlossaryEntry
from search import calls as search_calls
from search import card_source, embedder, index_cache, ranking
from search.entries import entries_for
from search.index import build_index
from search.records import SearchEntry, SearchIndex
from search.spoken import read_question
from search.vector_store import semantic_module, stored, vector_keys

log = logging.getLogger(__name__)

_RECHECK_SECONDS = 5.0
# Keys per IN (...) query: well under SQLite's and PostgreSQL's parameter limits.
_SAMPLE = 64  # keys checked first when looking for a complete set of vectors


@dataclass
class _Cached:
    index: SearchIndex
    keys: list[str]  # vector key per index entry; [] when no encoder
    question_keys: list[str] = field(default_factory=list)  # vector key per asked-as question
    semantic: Callable[[str], Sequence[float]] | None = None
    checked_at: float = field(default=-1e9)
    # One thread looks for the vectors at a time; another asking meanwhile waits for its answer
    # instead of searching lexically while the first is still loading them.
    attaching: threading.Lock = field(default_factory=threading.Lock, repr=False, compare=False)


# (version ids, card stamp) -> index: the cards search reads are part of what an index is
# built from. Oldest use first.
_indexes: OrderedDict[tuple[tuple[int, ...], str], _Cached] = OrderedDict()
_lock = threading.Lock()
# Indexes kept of versions that are not all current (a search of an older version, or of the
# current ones before a publish): the least recently used go. Each is tens of megabytes, and one
# process kept one for every version ever searched (49 in the history: gigabytes per worker).
OLD_INDEXES = 2


def _attach_semantic(cached: _Cached) -> None:
    """Switch a cached index to hybrid once all its vectors are stored (checked every
    few seconds)."""
    if cached.semantic is not None or not cached.keys:
        return
    with cached.attaching:
        now = time.monotonic()
        if cached.semantic is not None or now - cached.checked_at < _RECHECK_SECONDS:
            return
        cached.checked_at = now
        _look_for_vectors(cached)


def _look_for_vectors(cached: _Cached) -> None:
    """Attach the semantic scorer to `cached` when every vector it needs is stored."""
    wanted = cached.keys + cached.question_keys
    # While vectors are still being built, a sample answers "not yet" in one small query; only a
    # sample found complete pays for counting every key (19,000 for the 2025 CR and its questions).
    sample = wanted[:: max(1, len(wanted) // _SAMPLE)][:_SAMPLE] + wanted[-1:]
    if len(stored(sample, with_vectors=False)) < len(set(sample)):
        return
    if len(stored(wanted, with_vectors=False)) < len(set(wanted)):
        return
    vectors = stored(wanted, with_vectors=True)
    semantic = semantic_module()
    if semantic is None:
        return
    cached.semantic = semantic.semantic_scorer(
        cached.index,
        b"".join(vectors[k] for k in cached.keys),
        question_vectors=b"".join(vectors[k] for k in cached.question_keys),
    )


def _cached_for(versions: list[Version]) -> _Cached:
    stamp = card_source.card_stamp()
    key = (tuple(sorted(v.pk for v in versions)), stamp)
    cached = _indexes.get(key)
    if cached is None:
        with _lock:
            cached = _indexes.get(key)
            if cached is None:
                cached = _load_or_build(versions, stamp)
                # built with cards no longer in the table
                for old in [k for k in _indexes if k[1] != stamp]:
                    del _indexes[old]
                _indexes[key] = cached
                _forget_old()
    else:
        with _lock:
            if key in _indexes:
                _indexes.move_to_end(key)
    _attach_semantic(cached)
    return cached


def _forget_old() -> None:
    """Keep OLD_INDEXES indexes of versions not all current, the most recently used (under _lock);
    an index of the current versions stays until a publish makes it old."""
    current = {v.pk for v in Version.objects.filter(is_current=True).only("pk")}
    old = [k for k in _indexes if not set(k[0]) <= current]
    for key in old[: max(0, len(old) - OLD_INDEXES)]:
        del _indexes[key]


def _load_or_build(versions: list[Version], stamp: str) -> _Cached:
    """The index of `versions` from the disk cache (search.index_cache), else built and saved."""
    name = index_cache.name_for(versions, cards=stamp)
    found = index_cache.load(name)
    if found is not None:
        index, keys, question_keys = found
        return _Cached(index=index, keys=keys, question_keys=question_keys)
    cached = _build(versions)
    # the cards did not change while it was built: the name is true
    if card_source.card_stamp() == stamp:
        index_cache.save(name, (cached.index, cached.keys, cached.question_keys))
    return cached


def _build(versions: list[Version]) -> _Cached:
    entries: list[SearchEntry] = []
    glossary: list[GlossaryEntry] = []
    keys: list[str] = []
    question_keys: list[str] = []
    for version in sorted(versions, key=lambda v: v.pk):
        more_entries, more_glossary = entries_for(version)
        entries.extend(more_entries)
        keys.extend(vector_keys(more_entries))  # per version: entry texts name their parents
        question_keys.extend(vector_keys(more_entries, questions=True))
        if version.document.slug == "cr":
            glossary.extend(more_glossary)
    return _Cached(
        index=build_index(entries, glossary=glossary), keys=keys, question_keys=question_keys
    )


def index_for(versions: list[Version]) -> SearchIndex:
    return _cached_for(versions).index


def ranking_for(versions: list[Version]) -> str:
    """ "hybrid" when the search over `versions` uses embeddings, else "lexical"."""
    return "hybrid" if _cached_for(versions).semantic is not None else "lexical"


def forget_indexes() -> None:
    global _current
    _indexes.clear()
    _current = ((), [])


def _versions(doc: str | None, version: str | None, include_pending: bool = True) -> list[Version]:
    if doc is not None and version is not None:
        return [services.get_version(doc, version=version, include_pending=include_pending)]
    if doc is not None:
        return [services.get_version(doc)]
    return _current_versions()


# (what the current versions' light query said, the Version objects it names), for
# _current_versions.
_current: tuple[tuple[tuple, ...], list[Version]] = ((), [])


def _current_versions() -> list[Version]:
    """Every document's current version, as a search with no document chosen reads them. One light
    query, asked for every search, names them (ids, content hashes, dates: 0.05 ms); the Version
    objects (0.8 to 1.5 ms through the ORM) are read again only when it says something else, such as
    after a publish in any process."""
    global _current
    with connection.cursor() as cursor:
        cursor.execute(_current_sql())
        stamp = tuple(tuple(row) for row in cursor.fetchall())
    seen, versions = _current
    if seen != stamp or not stamp:
        versions = list(
            Version.objects.select_related("document")
            .filter(pk__in=[row[0] for row in stamp])
            .order_by("pk")
        )
        _current = (stamp, versions)
    return list(versions)


@cache
def _current_sql() -> str:
    """The light query of _current_versions, written once per process from the model's names."""
    meta, quote = Version._meta, connection.ops.quote_name

    def column(name: str) -> str:
        # concrete fields: a column each
        return quote(cast(str, cast(Any, meta.get_field(name)).column))

    columns = ", ".join(column(name) for name in ("id", "content_hash", "effective_date"))
    return (
        f"SELECT {columns} FROM {quote(meta.db_table)} WHERE {column('is_current')} "  # noqa: S608 - names from the model, no input
        f"ORDER BY {column('id')}"
    )


def current_versions(doc: str | None) -> list[Version]:
    """The versions a search with no version chosen reads: the current one of `doc`, or of
    every document."""
    return _versions(doc, None)


def search_rules(
    query: str, *, doc: str | None = None, version: str | None = None, limit: int = 10
) -> list[dict]:
    """Best hits first, as docs/API.md's result dicts ({"doc", "number", "snippet", "score"}
    and more)."""
    return search_answer(query, doc=doc, version=version, limit=limit)["results"]


def search_answer(
    query: str,
    *,
    doc: str | None = None,
    version: str | None = None,
    limit: int = 10,
    include_pending: bool = True,
) -> dict:
    """One search with all it says, from one look-up of the versions: {"results": hits best first
    (as search_rules), "ranking": "hybrid"|"lexical", "understood": how the judge's words were
    read, "cards": the cards it names, as the card table holds them}. A pending version is searched
    by its date only with include_pending (the API: staff only)."""
    versions = _versions(doc, version, include_pending)
    if not versions:
        return {"results": [], "ranking": "lexical", "understood": [], "cards": []}
    cached = _cached_for(versions)
    hits = ranking.search(cached.index, query, limit=limit, doc=doc, semantic=cached.semantic)
    dates = {
        v.document.slug: v.effective_date.isoformat() if v.effective_date else None
        for v in versions
    }
    # an IPG infraction among the hits: its penalty at each REL and the finder's address
    ipg = next((v for v in versions if v.document.slug == "ipg"), None)
    calls = (
        search_calls.calls_for(ipg.pk, ipg.content_hash)
        if ipg is not None and any(h.doc == "ipg" for h in hits)
        else {}
    )
    read, named = read_question(cached.index, query)
    results = [
        {
            "doc": h.doc,
            "number": h.number,
            "snippet": h.snippet,
            "score": round(h.score, 4),
            "title": h.title,
            "version": dates.get(h.doc),
            **({"part": h.part} if h.part else {}),
            **({"call": calls[h.number]} if h.doc == "ipg" and h.number in calls else {}),
        }
        for h in hits
    ]
    return {
        "results": results,
        "ranking": "hybrid" if cached.semantic is not None else "lexical",
        "understood": shown_readings(read),
        # the named cards as the card table holds them (none without one)
        "cards": card_source.card_details(named),
    }


def shown_readings(read: list[dict[str, str]]) -> list[dict[str, str]]:
    """The readings a judge is shown: a card named, as the card table describes it; while no table
    holds cards, only which card was recognised, since the hand-written list (search/cards.toml,
    written from memory to steer the search) is never shown as what a card does."""
    shipped = card_source.card_stamp() == card_source.SHIPPED
    return [
        {
            "words": r["words"],
            "means": f"the card {_card_name(r['card'])}"
            if shipped and r["kind"] == "card"
            else r["means"],
            "kind": r["kind"],
        }
        for r in read
    ]


_SMALL_WORDS = frozenset("of the and to a an in on for from with at by or".split())


@lru_cache(maxsize=1)
def _full_names() -> dict[str, str]:
    """The hand-written list's nicknames ("bob", "goyf") -> the full name written with the same
    words ("dark confidant"): the list gives a nickname its card's words, and no other link."""
    from search import vocabulary

    cards = vocabulary.load_cards()
    alike: dict[str, list[str]] = {}
    for key, words in cards.items():
        alike.setdefault(words, []).append(key)
    full: dict[str, str] = {}
    for key, words in cards.items():
        if " " in key:  # a card's own name ("lightning bolt"), never a nickname of another
            continue
        longer = [other for other in alike[words] if len(other) > len(key)]
        holding = [other for other in longer if key in other]  # "goyf" of "tarmogoyf"
        widest = max(holding, key=len, default="")
        if holding and all(other in widest for other in holding):  # "kiki-jiki, mirror breaker"
            full[key] = widest
        elif not holding and len(longer) == 1:  # "bob": one card has its words
            full[key] = longer[0]
    return full


def _card_name(name: str) -> str:
    """A hand-written list's key as the card is written: "Kiki-Jiki, Mirror Breaker", "Lurrus of
    the Dream-Den", the full name for a nickname ("Bob": Dark Confidant)."""
    key = _full_names().get(card_source.card_key(name), card_source.card_key(name))
    words = key.split(" ")
    return " ".join(
        w if i and w in _SMALL_WORDS else "-".join(p[:1].upper() + p[1:] for p in w.split("-"))
        for i, w in enumerate(words)
    )


def preload() -> str | None:
    """In a process about to fork its workers (gunicorn's master, docker/gunicorn.conf.py): load the
    current versions' index and vectors before the fork, so that every worker shares their pages
    instead of loading its own copy. Only read-only arrays and objects: no encoder session (ONNX
    Runtime's is built after the fork, in each worker, by `warm`) and no database connection left
    open. The objects made so far are moved out of the garbage collector's sight (gc.freeze), so
    that a collection in a worker does not write to their pages. Returns the ranking loaded, or None
    when there was nothing to load or it failed (each worker then loads on its first search)."""
    ranking = None
    try:
        versions = current_versions(None)
        if versions:
            ranking = "hybrid" if _cached_for(versions).semantic is not None else "lexical"
    except Exception:
        # a database not migrated yet, a broken cache file: each worker loads for itself
        log.warning("search not preloaded; each worker loads the index", exc_info=True)
    finally:
        connections.close_all()
    gc.collect()
    gc.freeze()
    return ranking


def warm() -> str | None:
    """Make a new web process ready before its first request: build its encoder's ONNX Runtime
    session (search.embedder; else built by its first question), load the current
    versions' index and vectors (already there when the master preloaded them), answer one
    question and read the current IPG's calls. Returns the ranking it found ("hybrid" or
    "lexical"), or None when there was nothing to load or it failed: the process then loads on its
    first search, as without it; it never stops a process from starting. docker/gunicorn.conf.py
    calls it as each worker starts."""
    try:
        if not current_versions(None):
            return None
        encoder = embedder.load_encoder()
        if encoder is not None:
            encoder.warm()
        ranking = search_answer("opponent forgot his upkeep trigger")["ranking"]
        # the IPG's calls too, whichever documents the question above found
        ipg = next((v for v in current_versions(None) if v.document.slug == "ipg"), None)
        if ipg is not None:
            search_calls.calls_for(ipg.pk, ipg.content_hash)
        return ranking
    except Exception:  # a database not migrated yet, a broken cache file: the first search loads
        log.warning("search not warmed up; the first search loads the index", exc_info=True)
        return None
