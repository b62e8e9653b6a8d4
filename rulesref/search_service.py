"""Search service: builds the pure search index from stored versions, caches it, answers queries.

The ranking lives in rulesref.search and runs in Python over the same records whichever
database is underneath, so SQLite and PostgreSQL give the same answers.
"""

from __future__ import annotations

import threading

from rulesref import search, services
from rulesref.models import GlossaryTerm, Rule, Version
from rulesref.parsing.records import GlossaryEntry, RuleKind

_indexes: dict[tuple[int, ...], search.SearchIndex] = {}
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

    entries = [
        search.SearchEntry(
            doc=doc, number=r["number"], title=r["title"], text=r["text"], examples=tuple(r["examples"]),
            section_title=section_of(r), aliases=tuple(r["aliases"]),
        )
        for r in rows
        if r["kind"] != RuleKind.CHAPTER.value
    ]
    glossary = [
        GlossaryEntry(term=g.term, definition=g.definition, aliases=tuple(g.aliases), references=tuple(g.references))
        for g in GlossaryTerm.objects.filter(version=version)
    ]
    return entries, glossary


def index_for(versions: list[Version]) -> search.SearchIndex:
    key = tuple(sorted(v.pk for v in versions))
    index = _indexes.get(key)
    if index is None:
        with _lock:
            index = _indexes.get(key)
            if index is None:
                entries: list[search.SearchEntry] = []
                glossary: list[GlossaryEntry] = []
                for version in versions:
                    more_entries, more_glossary = _entries_for(version)
                    entries.extend(more_entries)
                    if version.document.slug == "cr":
                        glossary.extend(more_glossary)
                index = search.build_index(entries, glossary=glossary)
                _indexes[key] = index
    return index


def forget_indexes() -> None:
    _indexes.clear()


def search_rules(query: str, *, doc: str | None = None, version: str | None = None, limit: int = 10) -> list[dict]:
    """Best hits first, as API.md's result dicts ({"doc", "number", "snippet", "score"} and more)."""
    if doc is not None and version is not None:
        versions = [services.get_version(doc, version=version)]
    elif doc is not None:
        versions = [services.get_version(doc)]
    else:
        versions = list(Version.objects.select_related("document").filter(is_current=True))
    if not versions:
        return []
    index = index_for(versions)
    hits = search.search(index, query, limit=limit, doc=doc)
    dates = {v.document.slug: v.effective_date.isoformat() for v in versions}
    return [
        {"doc": h.doc, "number": h.number, "snippet": h.snippet, "score": round(h.score, 4),
         "title": getattr(h, "title", ""), "version": dates.get(h.doc)}
        for h in hits
    ]
