"""The search pages: /search/ and the results-as-you-type fragment under the jump box, the hits
shown inside their sections with the judge's words marked (templates/rulesref/search.html,
_results.html). The hits come from search.service; the rule addresses, outlines and glossary from
rulesref's pages."""

from __future__ import annotations

import re

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.html import escape, format_html
from django.utils.safestring import SafeString, mark_safe
from django.views.decorators.http import require_GET

from rulesref import services
from rulesref.models import Version
from rulesref.pages import content, jump
from rulesref.pages.outline import outline_for
from rulesref.pages.views import MAX_QUERY
from search.spoken import spoken_rewrite
from search.text import terms
from search.vocabulary import shipped_spoken

SEARCH_UNAVAILABLE = (
    "Search is not available yet. Type a rule number (such as 729.3 or mtr 4.2) to go straight "
    "to it."
)


def highlight(snippet: str, query: str) -> SafeString:
    """The snippet escaped, with the words that meet the query's marked: whole words whose stem is
    one of the query's terms (stopwords left out), or of the rules' words its spoken words stand for
    ("walker" marks "planeswalker")."""
    stems = set(terms(query)) | set(terms(spoken_rewrite(shipped_spoken(), query)))
    out, at = [], 0
    for match in re.finditer(r"[\w’'+/-]+", snippet):
        found = terms(match.group(0))  # "+1/+1" is the term "p1/p1", "can't" is "cant"
        if not found or not stems.issuperset(found):
            continue
        out.append(escape(snippet[at : match.start()]))
        out.append(format_html("<mark>{}</mark>", match.group(0)))
        at = match.end()
    out.append(escape(snippet[at:]))
    return mark_safe("".join(out))


def _glossary_match(query: str) -> dict | None:
    """A query that is a glossary term ("trample", "APNAP order") gets its definition above
    the hits."""
    if not re.fullmatch(r"[\w\s'\u2019\-,]{3,60}", query):
        return None
    version = (
        Version.objects.select_related("document")
        .filter(document__slug="cr", is_current=True)
        .first()
    )
    if version is None:
        return None
    try:
        term = services.find_glossary_term(version, query)
    except services.NotFound:
        return None
    return {
        "term": term.term,
        "definition": term.definition,
        "url": content.glossary_url(version, term.term),
    }


def search_context(query: str, *, doc: str | None, limit: int, compact: bool = False) -> dict:
    target = jump.resolve(query)
    context: dict = {
        "query": query,
        "hits": [],
        "error": "",
        "jump": target,
        "compact": compact,
        "term": _glossary_match(query) if doc in (None, "cr") else None,
    }
    if target.moved is not None:
        # An old number ("725.3" of the 2022 CR) is answered by the rule it became: searching its
        # digits as words finds only rules that happen to mention "725" or "3".
        return context
    try:
        from search import service as search_service

        answer = search_service.search_answer(query, doc=doc, limit=limit)
        raw_hits = answer["results"]
        context["understood"] = answer["understood"]
        context["cards"] = answer.get("cards", [])
    except (ImportError, NotImplementedError):
        context["error"] = SEARCH_UNAVAILABLE
        return context
    except services.RulesError as exc:
        context["error"] = exc.message
        return context
    versions = {
        v.document.slug: v
        for v in Version.objects.select_related("document").filter(is_current=True)
    }
    hits = []
    for hit in raw_hits:
        version = versions.get(hit["doc"])
        outline = outline_for(version) if version is not None else None
        section = outline.heading_of(hit["number"]) if outline is not None else None
        entry = outline.by_number.get(hit["number"]) if outline is not None else None
        hits.append(
            {
                **hit,
                # An infraction's part that matched opens the rule page at that part.
                "url": content.rule_url(hit["doc"], hit["number"])
                + (f"#r-{hit['number']}-{hit['part']}" if hit.get("part") else ""),
                "part_label": PART_LABELS.get(hit.get("part", ""), ""),
                # The hit's own title ("Trample" for a keyword's rule); the section is shown on its
                # own line.
                "title": ""
                if entry is None or (section is not None and entry.title == section.title)
                else entry.title,
                "section": section,
                "section_url": content.rule_url(hit["doc"], section.number)
                if section is not None
                else "",
                "snippet_html": highlight(hit.get("snippet", ""), query),
            }
        )
    context["hits"] = hits
    context["rel_notes"] = rel_notes(hits)
    return context


# Which Rules Enforcement Level a tournament document's answer applies at.
REL_NOTES = {
    "ipg": "IPG penalties apply at Competitive and Professional REL",
    "jar": "JAR applies at Regular REL",
    "mtr": "MTR applies at every REL",
}
PART_LABELS = {
    "definition": "Definition",
    "examples": "Examples",
    "philosophy": "Philosophy",
    "additional_remedy": "Additional remedy",
    "upgrade": "Upgrade",
    "downgrade": "Downgrade",
}


def rel_notes(hits: list[dict], *, top: int = 3) -> list[str]:
    """When the best hit is tournament policy: which REL the policy among the best hits
    applies to."""
    if not hits or hits[0]["doc"] not in REL_NOTES:
        return []
    docs = dict.fromkeys(h["doc"] for h in hits[:top] if h["doc"] in REL_NOTES)
    return [REL_NOTES[d] for d in docs]


@require_GET
def search(request: HttpRequest) -> HttpResponse:
    query = request.GET.get("q", "").strip()[:MAX_QUERY]
    doc = (request.GET.get("doc") or "").lower() or None
    context = search_context(query, doc=doc, limit=40) if query else {"query": "", "hits": []}
    return render(
        request,
        "rulesref/search.html",
        {**context, "doc": doc or "", "docs": list(services.DOC_TITLES)},
    )


@require_GET
def search_fragment(request: HttpRequest) -> HttpResponse:
    """Results as you type: an HTML fragment the jump box's script puts under the box."""
    query = request.GET.get("q", "").strip()[:MAX_QUERY]
    doc = (request.GET.get("doc") or "").lower() or None
    if len(query) < 2 and not re.fullmatch(r"\d", query):
        return HttpResponse("")
    return render(
        request, "rulesref/_results.html", search_context(query, doc=doc, limit=8, compact=True)
    )
