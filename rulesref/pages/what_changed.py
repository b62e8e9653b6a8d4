"""The "What changed" page of a version: its release notes against the stored version before it,
filtered by kind and by chapter or section, a page of changes at a time.

A CR version that renumbers whole chapters has thousands of changes (one page of them all was
561 KB and 167,813 px tall), so the page shows PAGE_SIZE changes, grouped by section in document
order, with a filter for the kind of change (added, moved: renumbered, changed, removed) and one
for a chapter or a section. The filters are query parameters (`?kind=moved&section=7&page=2`);
a value the page does not know is ignored, never an error. The release notes themselves
(rulesref.changes) are unchanged.
"""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import urlencode

from django.http import HttpRequest
from django.utils.safestring import mark_safe

from rulesref.models import Version
from rulesref.pages.content import guarded, long_date, rule_url, version_context
from rulesref.pages.outline import Outline, OutlineEntry, outline_for
from rulesref.parsing.common import rule_sort_key

PAGE_SIZE = 100
KINDS = ("added", "moved", "changed", "removed")
KIND_LABELS = {
    "added": "added",
    "moved": "moved (renumbered)",
    "changed": "changed",
    "removed": "removed",
}
KIND_ALIASES = {"renumbered": "moved", "edited": "changed"}


@dataclass(frozen=True)
class Filters:
    kind: str = ""  # one of KINDS, or "" for every kind
    section: str = ""  # a chapter's or a section's number, or "" for the whole document
    page: int = 1

    @classmethod
    def read(cls, request: HttpRequest) -> Filters:
        kind = request.GET.get("kind", "").strip().lower()
        kind = KIND_ALIASES.get(kind, kind)
        try:
            page = int(request.GET.get("page", "1"))
        except ValueError:
            page = 1
        return cls(
            kind=kind if kind in KINDS else "",
            section=request.GET.get("section", "").strip()[:20],
            page=max(1, page),
        )

    def query(self, **changed: object) -> str:
        values = {"kind": self.kind, "section": self.section, "page": self.page, **changed}
        kept = {k: v for k, v in values.items() if v and not (k == "page" and v == 1)}
        return "?" + urlencode(kept) if kept else "?"


def _previous_version(new: Version) -> Version | None:
    return (
        Version.objects.filter(document=new.document, effective_date__lt=new.effective_date)
        .exclude(
            status__in=[Version.Status.FAILED, Version.Status.DISCARDED, Version.Status.PARSING]
        )
        .order_by("-effective_date")
        .first()
    )


def _place(outline: Outline | None, number: str) -> tuple[OutlineEntry | None, OutlineEntry | None]:
    """(chapter, section) of a rule: the outermost enclosing entry and the nearest section."""
    if outline is None or not number:
        return None, None
    entry = outline.by_number.get(number)
    if entry is not None and entry.kind == "chapter":  # the IPG's chapters have text of their own
        return entry, entry
    section = outline.section_of(number)
    ancestors = outline.ancestors(section.number if section is not None else number)
    chapter = ancestors[0] if ancestors else section
    return chapter, section


def changes_page(request: HttpRequest, new: Version) -> dict:
    """What changed in `new` since the stored version before it: the filtered changes of one page,
    section by section in document order, with the counts the filters offer."""
    from rulesref import changes

    old = _previous_version(new)
    notes, missing = (
        (None, False) if old is None else guarded(lambda: changes.release_notes(old, new))
    )
    doc = new.document.slug
    outlines = {"new": outline_for(new), "old": outline_for(old) if old is not None else None}
    filters = Filters.read(request)
    items: list[dict] = []
    counts: dict[str, int] = {}
    chapters: dict[str, dict] = {}
    for item in notes or []:
        kind = item.get("kind", "changed")
        counts[kind] = counts.get(kind, 0) + 1
        number, old_number = item.get("number"), item.get("old_number")
        side, shown = ("new", number) if number else ("old", old_number)
        chapter, section = _place(outlines[side], shown or "")
        entry = {
            **item,
            "kind": kind,
            "shown": shown,
            "url": rule_url(doc, shown, new if number else old) if shown else "",
            # The change service builds this HTML from escaped rule text with <ins>/<del> marks.
            "html": mark_safe(item["html"]) if item.get("html") else "",
            "text": item.get("text") or "",
            "section": section,
            "places": {e.number for e in (chapter, section) if e is not None},
        }
        items.append(entry)
        if chapter is not None and section is not None:
            listed = chapters.setdefault(
                chapter.number, {"entry": chapter, "count": 0, "sections": {}}
            )
            listed["count"] += 1
            if section.number != chapter.number:
                listed["sections"].setdefault(section.number, {"entry": section, "count": 0})
                listed["sections"][section.number]["count"] += 1
    # Document order, section by section (front matter last), so that pages follow the document.
    items.sort(key=lambda i: _sort_key(i["section"].number if i["section"] else ""))
    section_known = any(filters.section in i["places"] for i in items)
    wanted = [
        i
        for i in items
        if (not filters.kind or i["kind"] == filters.kind)
        and (not filters.section or not section_known or filters.section in i["places"])
    ]
    pages = max(1, -(-len(wanted) // PAGE_SIZE))
    page = min(filters.page, pages)
    shown = wanted[(page - 1) * PAGE_SIZE : page * PAGE_SIZE]
    applied = Filters(filters.kind, filters.section if section_known else "", page)
    return {
        "old": old,
        "old_effective": long_date(old.effective_date) if old else "",
        "sections": _grouped(shown),
        "counts": sorted(
            counts.items(), key=lambda kv: KINDS.index(kv[0]) if kv[0] in KINDS else len(KINDS)
        ),
        "count": len(items),
        "matching": len(wanted),
        "filters": applied,
        "filtered": bool(applied.kind or applied.section),
        "kind_choices": [(k, KIND_LABELS[k], counts.get(k, 0)) for k in KINDS],
        "chapters": [
            {**c, "sections": sorted(c["sections"].values(), key=lambda s: s["entry"].position)}
            for c in sorted(chapters.values(), key=lambda c: c["entry"].position)
        ],
        "pager": {
            "page": page,
            "pages": pages,
            "first": (page - 1) * PAGE_SIZE + 1 if shown else 0,
            "last": (page - 1) * PAGE_SIZE + len(shown),
            "previous": applied.query(page=page - 1) if page > 1 else "",
            "next": applied.query(page=page + 1) if page < pages else "",
        },
        "missing": missing,
        **version_context(request, new),
    }


def _sort_key(number: str) -> tuple:
    try:
        return (0, rule_sort_key(number))
    except ValueError:
        return (1, (number,))


def _grouped(items: list[dict]) -> list[dict]:
    """The changes of one page under their sections, in the order given."""
    groups: dict[str, dict] = {}
    for item in items:
        section = item["section"]
        key = section.number if section is not None else ""
        groups.setdefault(key, {"section": section, "items": []})["items"].append(item)
    return list(groups.values())
