"""The offline pack: the current documents and a compact lexical index of them, as one JSON value.

A tablet stores the pack (the service worker's cache) and answers the number box, search and rule
pages from it without a network (static/judgeapp/offline-search.js). The index is the server's own
lexical index (search.SearchIndex) written compactly: BM25F postings over the rule fields,
the asked-as questions as small documents of their own, judge phrases, card names, rule names and
glossary terms; what it leaves out is typo correction and the sentence model. Pure: plain values in,
a JSON-ready dict out, no Django.

Compact forms: postings are flat lists `[entry, tf, entry, tf, …]` keyed by stem; stem tuples are
joined with a space; floats keep four significant digits, enough for a ranking.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from search.people import people_table

FORMAT = 1


@dataclass(frozen=True)
class PackDocument:
    doc: str
    title: str
    effective_date: str  # ISO date of the version in the pack
    version_id: int


@dataclass(frozen=True)
class PackGlossary:
    term: str
    definition: str
    references: tuple[str, ...] = ()


def _num(value: float) -> float | int:
    rounded = float(f"{value:.4g}")
    return int(rounded) if rounded.is_integer() else rounded


def _flat(postings: Mapping[str, Sequence[tuple[int, float]]]) -> dict[str, list[float | int]]:
    return {
        s: [x for i, tf in found for x in (i, _num(tf))] for s, found in sorted(postings.items())
    }


def _joined(table: Mapping[tuple[str, ...], Sequence[Any]]) -> dict[str, list[Any]]:
    return {" ".join(key): list(value) for key, value in sorted(table.items()) if key}


def build_pack(
    index: Any,
    documents: Sequence[PackDocument],
    glossary: Iterable[PackGlossary] = (),
    moved: Mapping[str, Mapping[str, tuple[str, str]]] | None = None,
    *,
    params: Mapping[str, float],
    stopwords: Iterable[str],
    policy_docs: Iterable[str] = (),
    card_words_on_device: bool = False,
) -> dict:
    """The pack for `index` (a search.SearchIndex over `documents`' current versions).

    `moved` maps doc -> old number -> (current number, date of the version the old number is from),
    so that a number quoted from an older printout leads to the rule where it stands now. `params`
    are the ranking's constants (k1, field and boost weights) so that the device ranks as the server
    does. The pack's `version` is a hash of its content: the same documents give the same pack.
    """
    entries = index.entries
    body = {
        "format": FORMAT,
        "documents": [
            {
                "doc": d.doc,
                "title": d.title,
                "effective_date": d.effective_date,
                "version_id": d.version_id,
            }
            for d in documents
        ],
        "entries": {
            "doc": [e.doc for e in entries],
            "number": [e.number for e in entries],
            "title": [e.title for e in entries],
            "section": [e.section_title for e in entries],
            "text": [e.text for e in entries],
            "examples": [list(e.examples) for e in entries],
            "aliases": [list(e.aliases) for e in entries],
            "part": [getattr(e, "part", "") for e in entries],
            "norm": [_num(v) for v in index.norms],
            "heading_only": [1 if v else 0 for v in index.heading_only],
        },
        "postings": _flat(index.postings),
        "questions": {
            "postings": _flat(index.question_postings),
            "norm": [_num(v) for v in index.question_norms],
            "owner": list(index.question_owner),
        },
        "vocabulary": _joined(index.vocabulary),
        # With a card table the tablet derives them from its card copy (cards/offline.py): about
        # 6.8 MB of the pack with every Scryfall card.
        "cards": {} if card_words_on_device else _joined(index.cards),
        "card_words": "cards" if card_words_on_device else "pack",
        "obsolete": _joined(index.obsolete),
        "glossary_refs": _joined(index.glossary),
        "names": _joined(index.names or {}),
        "intent": {
            " ".join(key): word for key, word in sorted(getattr(index, "intent", {}).items()) if key
        },
        "policy_docs": sorted(policy_docs),
        "remedy": sorted(getattr(index, "remedy", ())),
        "regular": {
            " ".join(key): word
            for key, word in sorted(getattr(index, "regular", {}).items())
            if key
        },
        "competitive": {
            " ".join(key): word
            for key, word in sorted(getattr(index, "competitive", {}).items())
            if key
        },
        "people": people_table(),
        "glossary": [
            {"term": g.term, "definition": g.definition, "references": list(g.references)}
            for g in glossary
        ],
        "moved": {
            doc: {old: list(new) for old, new in sorted(found.items())}
            for doc, found in sorted((moved or {}).items())
        },
        "params": {k: _num(v) for k, v in sorted(params.items())},
        "stopwords": sorted(stopwords),
    }
    encoded = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()
    return {"version": hashlib.sha256(encoded).hexdigest()[:16], **body}


def encode_pack(pack: Mapping[str, Any]) -> bytes:
    """The pack as the compact UTF-8 JSON a tablet downloads."""
    return json.dumps(pack, separators=(",", ":"), ensure_ascii=False).encode()
