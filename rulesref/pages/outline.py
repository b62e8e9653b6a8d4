"""The shape of one stored version for the pages: every rule's number, kind, title and parent.

Loaded in one light query per version and kept in memory (a stored version never changes its
rules), so tables of contents, breadcrumbs, section labels on search hits and "does this cited
number exist" checks cost no further queries.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass, field

from rulesref.models import Rule, Version

HEADING_KINDS = ("chapter", "section", "appendix")
_CACHE_SIZE = 12
_cache: OrderedDict[tuple[int, str], Outline] = OrderedDict()
_lock = threading.Lock()


@dataclass(frozen=True)
class OutlineEntry:
    number: str
    kind: str
    title: str
    parent: str
    position: int


@dataclass(frozen=True)
class Outline:
    entries: tuple[OutlineEntry, ...]
    by_number: dict[str, OutlineEntry] = field(repr=False)
    children: dict[str, tuple[str, ...]] = field(repr=False)

    @classmethod
    def build(cls, entries: list[OutlineEntry]) -> Outline:
        children: dict[str, list[str]] = {}
        for entry in entries:
            children.setdefault(entry.parent, []).append(entry.number)
        return cls(
            entries=tuple(entries),
            by_number={e.number: e for e in entries},
            children={k: tuple(v) for k, v in children.items()},
        )

    def __contains__(self, number: object) -> bool:
        return number in self.by_number

    def ancestors(self, number: str) -> list[OutlineEntry]:
        """Enclosing entries, outermost first (chapter, section, rule for a subrule)."""
        found: list[OutlineEntry] = []
        entry = self.by_number.get(number)
        while entry is not None and entry.parent and len(found) < 8:
            entry = self.by_number.get(entry.parent)
            if entry is not None:
                found.append(entry)
        return found[::-1]

    def section_of(self, number: str) -> OutlineEntry | None:
        """The nearest enclosing section or appendix (729 "Taking Shortcuts" for 729.3), or the
        entry itself."""
        entry = self.by_number.get(number)
        if entry is not None and entry.kind in ("section", "appendix"):
            return entry
        for ancestor in reversed(self.ancestors(number)):
            if ancestor.kind in ("section", "appendix"):
                return ancestor
        return None

    def heading_of(self, number: str) -> OutlineEntry | None:
        """The nearest enclosing heading (section, appendix or chapter): where a search hit sits."""
        return next((a for a in reversed(self.ancestors(number)) if a.kind in HEADING_KINDS), None)

    def last_descendant_position(self, number: str) -> int:
        """Position of the last rule inside `number` (its own position when it has none)."""
        entry = self.by_number[number]
        last = entry.position
        todo = list(self.children.get(number, ()))
        while todo:
            child = self.by_number[todo.pop()]
            last = max(last, child.position)
            todo.extend(self.children.get(child.number, ()))
        return last

    def siblings(self, number: str) -> tuple[OutlineEntry | None, OutlineEntry | None]:
        """The previous and next entry with the same parent, for page-to-page navigation."""
        entry = self.by_number.get(number)
        if entry is None:
            return None, None
        row = self.children.get(entry.parent, ())
        index = row.index(number)
        before = self.by_number[row[index - 1]] if index > 0 else None
        after = self.by_number[row[index + 1]] if index + 1 < len(row) else None
        return before, after

    def headings(self) -> list[tuple[OutlineEntry, list[OutlineEntry]]]:
        """Top-level entries, each with its heading-kind children: the table of contents."""
        tops = [self.by_number[n] for n in self.children.get("", ())]
        return [
            (
                top,
                [
                    self.by_number[n]
                    for n in self.children.get(top.number, ())
                    if self.by_number[n].kind in HEADING_KINDS
                ],
            )
            for top in tops
        ]


def outline_for(version: Version) -> Outline:
    """The outline of a version, from memory after the first call."""
    key = (version.pk, version.content_hash)
    with _lock:
        found = _cache.get(key)
        if found is not None:
            _cache.move_to_end(key)
            return found
    rows = (
        Rule.objects.filter(version=version)
        .order_by("position")
        .values_list("number", "kind", "title", "parent", "position")
    )
    outline = Outline.build([OutlineEntry(*row) for row in rows])
    with _lock:
        _cache[key] = outline
        while len(_cache) > _CACHE_SIZE:
            _cache.popitem(last=False)
    return outline


def forget_outlines() -> None:
    with _lock:
        _cache.clear()
