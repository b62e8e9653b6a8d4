"""What the rules pages show: rule blocks with linked text, banners, histories (the search hits:
search/pages.py).

The views call these to build template contexts. Each rule page fetches its rules in one
query (a section such as CR 702 with its 700 subrules included); numbers, titles and
glossary terms come from per-version caches (outline.py, markup.py).
"""

from __future__ import annotations

import contextlib
import datetime as dt
import itertools
import logging
import re
from collections.abc import Callable
from typing import Any, TypeVar

from django.db import DatabaseError, transaction
from django.http import HttpRequest
from django.urls import reverse

from rulesref import naming, services
from rulesref.models import GlossaryTerm, Rule, Version
from rulesref.pages.markup import TextRenderer, glossary_for
from rulesref.pages.outline import outline_for

T = TypeVar("T")
logger = logging.getLogger(__name__)

# IPG infraction pages: the structured parts, in the order the IPG prints them.
# The penalty leads, as in the IPG's own layout (it heads each infraction).
FIELD_ORDER = (
    "penalty",
    "definition",
    "examples",
    "philosophy",
    "additional_remedy",
    "upgrade",
    "downgrade",
)


def guarded(produce: Callable[[], T]) -> tuple[T | None, bool]:
    """(answer, missing) from a change service. The rule text is what the page is for: when the
    history beside it is not built yet (NotImplementedError) or fails, the page still shows the
    rule. Inside a transaction, a savepoint keeps a failed query from spoiling it (PostgreSQL);
    outside one (a request: autocommit) no transaction is opened, so a history diffed for the first
    time (seconds) never holds SQLite's write lock while it diffs (judgeapp.settings: SQLite's
    transactions take that lock when they begin); the service stores what it computed on its own."""
    in_transaction = transaction.get_connection().in_atomic_block
    try:
        with transaction.atomic() if in_transaction else contextlib.nullcontext():
            return produce(), False
    except NotImplementedError:
        return None, True
    except (DatabaseError, services.RulesError, KeyError, LookupError, ValueError, StopIteration):
        logger.exception("change service failed; page shown without it")
        return None, True


def version_query(version: Version | None) -> str:
    if version is None or version.is_current:
        return ""
    return f"?version={version.effective_date.isoformat()}"


def rule_url(doc: str, number: str, version: Version | None = None) -> str:
    return reverse("page-rule", args=[doc, number]) + version_query(version)


def glossary_url(version: Version, term: str) -> str:
    params = [] if version.document.slug == "cr" else [f"doc={version.document.slug}"]
    if not version.is_current:
        params.append(f"version={version.effective_date.isoformat()}")
    return reverse("page-glossary-term", args=[term]) + ("?" + "&".join(params) if params else "")


def long_date(value: Any) -> str:
    """ "February 7, 2025" from a date or an ISO string."""
    if isinstance(value, str):
        try:
            value = dt.date.fromisoformat(value[:10])
        except ValueError:
            return value
    if isinstance(value, dt.date):
        return f"{value:%B} {value.day}, {value.year}"
    return str(value)


def version_context(request: HttpRequest, version: Version) -> dict:
    """The banner and the version switcher of every page about one version."""
    doc = version.document.slug
    stored = list(
        Version.objects.filter(
            document=version.document, status__in=[Version.Status.PUBLISHED, Version.Status.PENDING]
        )
        .order_by("-effective_date")
        .values_list("effective_date", "is_current", "status")
    )
    current_date = next((d for d, is_current, _ in stored if is_current), None)
    return {
        "version": version,
        "doc": doc,
        "doc_title": services.DOC_TITLES.get(doc, version.document.title).replace(
            "Magic: The Gathering ", ""
        ),
        "is_current": version.is_current,
        "effective": long_date(version.effective_date),
        "current_effective": long_date(current_date) if current_date else "",
        "is_newer": current_date is not None and version.effective_date > current_date,
        "vq": version_query(version),
        "switcher": [
            {
                "value": d.isoformat(),
                "label": long_date(d) + (" (current)" if is_current else ""),
                "selected": d == version.effective_date,
            }
            for d, is_current, status in stored
        ],
    }


def _glossary_source(version: Version) -> Version | None:
    """A document's own glossary, else the current CR's (the MTR uses the CR's game terms)."""
    if version.glossary_count:
        return version
    return (
        Version.objects.select_related("document")
        .filter(document__slug="cr", is_current=True)
        .first()
    )


def renderer_for(version: Version, *, with_glossary: bool = True) -> TextRenderer:
    doc = version.document.slug
    source = _glossary_source(version) if with_glossary else None
    return TextRenderer(
        rule_url=lambda number: rule_url(doc, number, version),
        known_numbers=outline_for(version),
        glossary=glossary_for(source) if source is not None else None,
        glossary_url=(lambda term: glossary_url(source, term)) if source is not None else None,
    )


def _field_blocks(rule: Rule, renderer: TextRenderer, seen: set[int]) -> list[dict]:
    fields = dict(rule.fields or {})
    keys = sorted(
        fields,
        key=lambda k: (
            FIELD_ORDER.index(_field_key(k)) if _field_key(k) in FIELD_ORDER else len(FIELD_ORDER),
            k,
        ),
    )
    blocks = []
    for key in keys:
        value = fields[key]
        paragraphs = (
            value if isinstance(value, list) else [p for p in str(value).split("\n") if p.strip()]
        )
        blocks.append(
            {
                "key": _field_key(key),
                "label": key.replace("_", " ").strip().capitalize(),
                "paragraphs": [
                    renderer.render(str(p), references=rule.references, seen_terms=seen)
                    for p in paragraphs
                ],
            }
        )
    return blocks


def _field_key(key: str) -> str:
    return re.sub(r"[\s\-]+", "_", key.strip().lower())


def rule_block(
    rule: Rule, renderer: TextRenderer, *, depth: int, doc: str, version: Version
) -> dict:
    seen: set[int] = set()
    fields = _field_blocks(rule, renderer, seen)
    # An IPG infraction's text is its parts run together: show the parts, each under its heading.
    text = (
        []
        if fields
        else [
            renderer.render(p, references=rule.references, seen_terms=seen, skip_number=rule.number)
            for p in rule.text.split("\n")
            if p.strip()
        ]
    )
    examples = [] if any(f["key"] == "examples" for f in fields) else rule.examples
    return {
        "number": rule.number,
        "kind": rule.kind,
        "title": rule.title,
        "depth": min(depth, 4),
        "url": rule_url(doc, rule.number, version),
        "text": text,
        "examples": [
            renderer.render(e, references=rule.references, seen_terms=seen) for e in examples
        ],
        "fields": fields,
        "aliases": list(rule.aliases),
    }


def rule_page(request: HttpRequest, version: Version, rule: Rule) -> dict:
    doc = version.document.slug
    outline = outline_for(version)
    renderer = renderer_for(version)
    base_depth = len(outline.ancestors(rule.number))
    if rule.kind == "chapter":
        # A chapter lists its sections instead of printing a thousand rules.
        rows = [rule]
        sections = [
            (outline.by_number[n], rule_url(doc, n, version))
            for n in outline.children.get(rule.number, ())
        ]
    else:
        last = outline.last_descendant_position(rule.number)
        rows = list(
            Rule.objects.filter(
                version=version, position__gte=rule.position, position__lte=last
            ).order_by("position")
        )
        sections = []
    blocks = [
        rule_block(
            r,
            renderer,
            depth=len(outline.ancestors(r.number)) - base_depth,
            doc=doc,
            version=version,
        )
        for r in rows
    ]
    before, after = outline.siblings(rule.number)
    cited = [(n, rule_url(doc, n, version)) for n in rule.references if n in outline]
    history, history_missing = guarded(
        lambda: _history(version, rule) if _pairings_stored(version) else None
    )
    section = outline.section_of(rule.number)
    return {
        "rule": rule,
        "blocks": blocks,
        "sections": sections,
        "crumbs": [(a, rule_url(doc, a.number, version)) for a in outline.ancestors(rule.number)],
        "section": section if section is not None and section.number != rule.number else None,
        "history_shown": bool(
            history and (history["changed_in"] or history["was"] or history["added_in"])
        ),
        "previous": (before, rule_url(doc, before.number, version)) if before else None,
        "next": (after, rule_url(doc, after.number, version)) if after else None,
        "cited": cited,
        "history": history,
        "history_missing": history_missing,
        "trace_url": reverse("page-trace", args=[doc, rule.number]) + version_query(version),
        "glossary_popovers": [
            {"id": k, "term": t, "definition": d} for k, (t, d) in renderer.used_terms.items()
        ],
        # the JAR's by its heading alone
        "page_title": naming.rule_name(doc, rule.number, rule.title),
        # the switcher follows this rule, not its number
        "follow_from": version.effective_date.isoformat(),
        **version_context(request, version),
    }


def _pairings_stored(version: Version) -> bool:
    """Whether every pair of neighbouring versions is already paired. Pairing two CR versions takes
    about a quarter of a second each (seven seconds for 27 versions), so a rule page never pays for
    it: it shows the history once the pairings exist (the trace page or an import computes them)."""
    from django.db.models import Q

    from rulesref import changes
    from rulesref.models import VersionPairing

    versions = changes.stored_versions(version)
    pairs = list(itertools.pairwise(versions))
    if not pairs:
        return True
    wanted = Q(pk__in=[])
    for old, new in pairs:
        wanted |= Q(old=old, new=new)
    return VersionPairing.objects.filter(wanted).count() == len(pairs)


def _history(version: Version, rule: Rule) -> dict:
    from rulesref import changes

    raw = changes.rule_history(version, rule.number) or {}
    doc = version.document.slug
    was = []
    for item in raw.get("was", []):
        date = str(item.get("effective_date", ""))[:10]
        url = reverse("page-rule", args=[doc, item["number"]]) + (
            f"?version={date}" if date else ""
        )
        was.append({"number": item["number"], "date": long_date(date), "url": url})
    changed = [
        {"date": long_date(d), "url": reverse("page-changes", args=[doc, str(d)[:10]])}
        for d in raw.get("changed_in", [])
    ]
    added = raw.get("added_in")
    was.reverse()  # the number judges remember best, the latest, first
    return {
        "reused": _reused(version, rule),
        "changed_in": changed,
        "was": was[:1],
        "was_earlier": was[1:],
        "added_in": {
            "date": long_date(added),
            "url": reverse("page-changes", args=[doc, str(added)[:10]]),
        }
        if added
        else None,
    }


def _reused(version: Version, rule: Rule) -> list[dict]:
    """The line over a rule whose number named another rule before ("719.3 in the CR of 2017-04-28
    to 2021-11-19 was another rule, now 729.3"), with what that rule says now."""
    from rulesref import old_numbers

    doc = version.document.slug
    items = old_numbers.reused(version, rule.number)
    now = {
        r.number: r
        for r in Rule.objects.filter(
            version=version, number__in=[i["now"] for i in items if i["now"]]
        )
    }
    lines = []
    for item in items:
        target = now.get(item["now"] or "")
        lines.append(
            {
                "number": item["number"],
                "from": long_date(item["from"]),
                "until": long_date(item["until"]) if item["until"] != item["from"] else "",
                "now": target.number if target else "",
                "now_url": rule_url(doc, target.number, version) if target else "",
                "now_words": (target.title or target.text)[:90] if target else "",
            }
        )
    return lines


def trace_rows(version: Version, rule: Rule) -> list[dict]:
    from rulesref import changes

    doc = version.document.slug
    rows: list[dict] = []
    previous_text = None
    for item in changes.trace(version, rule.number):
        date = str(item.get("effective_date", ""))[:10]
        number = item.get("number")
        text = item.get("text") or ""
        rows.append(
            {
                "date": long_date(date),
                "iso": date,
                "number": number,
                "text": text,
                "url": reverse("page-rule", args=[doc, number]) + f"?version={date}"
                if number
                else "",
                "same_text": previous_text is not None and text == previous_text,
                "renumbered": bool(rows)
                and number is not None
                and rows[-1]["number"] not in (None, number),
                "is_shown": date == version.effective_date.isoformat(),
            }
        )
        previous_text = text
    return rows


def glossary_page(request: HttpRequest, version: Version, term: GlossaryTerm) -> dict:
    renderer = renderer_for(version, with_glossary=False)
    doc = version.document.slug
    outline = outline_for(version)
    return {
        "term": term,
        "definition": [
            renderer.render(p, references=term.references)
            for p in term.definition.split("\n")
            if p.strip()
        ],
        "cited": [(n, rule_url(doc, n, version)) for n in term.references if n in outline],
        "page_title": term.term,
        **version_context(request, version),
    }
