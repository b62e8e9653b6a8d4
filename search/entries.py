"""Stored versions as search entries: each rule of a version with its section title and the
asked-as questions that reach it (followed through renumbering from the version they were written
against), and the CR's glossary."""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import Any

from rulesref import changes
from rulesref.models import GlossaryTerm, Rule, Version
from rulesref.parsing.records import GlossaryEntry, RuleKind
from search import asked
from search.index import has_own_text, part_entries
from search.records import SearchEntry


def entries_for(version: Version) -> tuple[list[SearchEntry], list[GlossaryEntry]]:
    doc = version.document.slug
    rows = list(
        Rule.objects.filter(version=version)
        .order_by("position")
        .values("number", "kind", "title", "text", "examples", "parent", "aliases", "fields")
    )
    titles = {r["number"]: (r["kind"], r["title"], r["parent"]) for r in rows}

    def section_of(row: Mapping[str, Any]) -> str:
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
    entries: list[SearchEntry] = []
    for r in rows:
        if not has_own_text(RuleKind(r["kind"]), r["text"]):
            continue
        entry = SearchEntry(
            doc=doc,
            number=r["number"],
            title=r["title"],
            text=r["text"],
            examples=tuple(r["examples"]),
            section_title=section_of(r),
            aliases=tuple(r["aliases"]),
            questions=questions.get(r["number"], ()),
        )
        entries.append(entry)
        entries.extend(part_entries(entry, r["fields"] or {}))
    glossary = [
        GlossaryEntry(
            term=g.term,
            definition=g.definition,
            aliases=tuple(g.aliases),
            references=tuple(g.references),
        )
        for g in GlossaryTerm.objects.filter(version=version)
    ]
    return entries, glossary


@cache
def _shipped_asked() -> dict:
    """The shipped questions files, read once per process."""
    return asked.load_asked(real=True)


def asked_questions(version: Version) -> dict[str, tuple[str, ...]]:
    """Rule number in `version` -> the shipped asked-as questions about that rule.

    Each questions file is pinned to the version it was written against; its numbers are followed
    into `version` through the stored pairings (renumbering), or, before those are stored, kept
    where the rule's text is the same in both versions. A file whose version is not stored here
    is not used. The newest file that reaches a rule wins."""
    doc = version.document.slug
    out: dict[str, tuple[str, ...]] = {}
    for found in asked.newest_for(doc, _shipped_asked()):
        pinned = (
            Version.objects.filter(document=version.document, effective_date=found.version)
            .filter(changes.LIVE)
            .first()
        )
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
        return {
            n: " ".join(t.split())
            for n, t in Rule.objects.filter(version=version).values_list("number", "text")
        }

    before, after = texts(old), texts(new)
    return {n: n for n, t in before.items() if after.get(n) == t}
