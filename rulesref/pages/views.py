"""Page views for judges' tablets: thin edges over the rules services, rendered by templates.

Every page reads without a login. A page of an older version says so in its banner and keeps
`?version=` on its links, so a judge reading an older version stays in it.
"""

from __future__ import annotations

from urllib.parse import urlencode

from django.contrib.staticfiles import finders
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_GET

from rulesref import naming, services
from rulesref.models import Version
from rulesref.pages import content, jump, renumbered, what_changed
from rulesref.pages.outline import outline_for

# The longest question the search box, the jump box and GET /api/v1/search read (a judge's
# question told as a story: the scene, then the question asked at its end).
MAX_QUERY = 1000


# ---------------------------------------------------------------- shared


def _version(request: HttpRequest, doc: str) -> Version:
    # Any stored version can be read (as in the API); the banner says when it is not the
    # current one.
    return services.get_version(
        doc,
        version=request.GET.get("version") or None,
        as_of=request.GET.get("as_of") or None,
        include_pending=request.user.is_staff,
    )


def _problem(
    request: HttpRequest,
    exc: services.RulesError,
    *,
    doc: str = "",
    version: Version | None = None,
    number: str = "",
) -> HttpResponse:
    status = 404 if isinstance(exc, services.NotFound) else 400
    suggestions = exc.details.get("suggestions", []) if version is not None else []
    links = []
    if version is not None:
        outline = outline_for(version)
        links = [
            (s, content.rule_url(doc, s, version), getattr(outline.by_number.get(s), "title", ""))
            for s in suggestions
        ]
    return render(
        request,
        "rulesref/not_found.html",
        {
            "message": exc.message,
            "doc": doc,
            "number": number,
            "suggestions": links,
            "versions": exc.details.get("versions", []),
            "query": number,
            **(content.version_context(request, version) if version is not None else {}),
        },
        status=status,
    )


# ---------------------------------------------------------------- home, contents, rules


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    documents = []
    order = list(services.DOC_TITLES)  # CR, MTR, IPG, JAR: the order judges reach for them
    for document in sorted(
        services.list_documents(),
        key=lambda d: order.index(d.slug) if d.slug in order else len(order),
    ):
        current = next((v for v in document.versions.all() if v.is_current), None)
        documents.append({"doc": document.slug, "title": document.title, "current": current})
    return render(request, "rulesref/home.html", {"documents": documents})


@require_GET
def contents(request: HttpRequest, doc: str) -> HttpResponse:
    try:
        version = _version(request, doc.lower())
    except services.RulesError as exc:
        return _problem(request, exc, doc=doc)
    outline = outline_for(version)
    chapters = [
        {
            "entry": top,
            "url": content.rule_url(version.document.slug, top.number, version),
            "sections": [
                (s, content.rule_url(version.document.slug, s.number, version)) for s in sections
            ],
        }
        for top, sections in outline.headings()
    ]
    return render(
        request,
        "rulesref/contents.html",
        {"chapters": chapters, **content.version_context(request, version)},
    )


@require_GET
def rule(request: HttpRequest, doc: str, number: str) -> HttpResponse:
    source = request.GET.get("from")
    if source and request.GET.get("version"):
        return _switch_version(request, doc.lower(), number, source, request.GET["version"])
    version = None
    try:
        version = _version(request, doc.lower())
        found = services.find_rule(version, number)
    except services.RulesError as exc:
        now = exc.details.get("now") if version is not None else None
        if now:  # an old number: open the rule it became, saying so
            return redirect(renumbered.url(doc.lower(), now["number"], version, number))
        return _problem(request, exc, doc=doc.lower(), version=version, number=number)
    if found.number != number or doc != doc.lower():
        query = f"?{request.GET.urlencode()}" if request.GET else ""
        return redirect(reverse("page-rule", args=[doc.lower(), found.number]) + query)
    line = renumbered.line(request, version, found)
    return render(
        request,
        "rulesref/rule.html",
        {
            **content.rule_page(request, version, found),
            "renumbered": line,
            # The old number the line names: the history below does not say it a second time.
            "renumbered_from": renumbered.old_number(request, version) if line else "",
        },
    )


def _switch_version(
    request: HttpRequest, doc: str, number: str, source_date: str, target_date: str
) -> HttpResponse:
    """The version switcher on a rule page: the same rule in the other version, under the number it
    has there (729.3 in 2025 is 725.3 in 2022), not whatever rule carries the same number."""
    target = None
    try:
        source = services.get_version(
            doc, version=source_date, include_pending=request.user.is_staff
        )
        target = services.get_version(
            doc, version=target_date, include_pending=request.user.is_staff
        )
        found = services.find_rule(source, number)
    except services.RulesError as exc:
        return _problem(request, exc, doc=doc, version=target, number=number)
    steps, missing = content.guarded(lambda: content.trace_rows(source, found))
    if missing or steps is None:
        return redirect(content.rule_url(doc, found.number, target))  # no differ: the same number
    there = next((step for step in steps if step["iso"] == target.effective_date.isoformat()), None)
    if there is not None and there["number"]:
        return redirect(content.rule_url(doc, there["number"], target))
    message = (
        f"{doc.upper()} {found.number} of {content.long_date(source.effective_date)} has no "
        f"counterpart in the version of {content.long_date(target.effective_date)}."
    )
    return render(
        request,
        "rulesref/not_found.html",
        {
            "message": message,
            "query": found.number,
            "trace_url": reverse("page-trace", args=[doc, found.number])
            + content.version_query(source),
            **content.version_context(request, target),
        },
        status=404,
    )


@require_GET
def trace(request: HttpRequest, doc: str, number: str) -> HttpResponse:
    version = None
    try:
        version = _version(request, doc.lower())
        found = services.find_rule(version, number)
    except services.RulesError as exc:
        return _problem(request, exc, doc=doc.lower(), version=version, number=number)
    rows, missing = content.guarded(lambda: content.trace_rows(version, found))
    return render(
        request,
        "rulesref/trace.html",
        {
            "rule": found,
            "rows": rows,
            "missing": missing,
            "rule_name": naming.rule_name(doc.lower(), found.number, found.title),
            "rule_link": content.rule_url(version.document.slug, found.number, version),
            **content.version_context(request, version),
        },
    )


@require_GET
def changes(request: HttpRequest, doc: str, date: str | None = None) -> HttpResponse:
    try:
        if date is None:
            current = services.get_version(doc.lower())
            return redirect(
                "page-changes", doc=doc.lower(), date=current.effective_date.isoformat()
            )
        new = services.get_version(doc.lower(), version=date, include_pending=request.user.is_staff)
    except services.RulesError as exc:
        return _problem(request, exc, doc=doc.lower())
    return render(request, "rulesref/changes.html", what_changed.changes_page(request, new))


# ---------------------------------------------------------------- glossary


@require_GET
def glossary_index(request: HttpRequest) -> HttpResponse:
    try:
        version = _version(request, request.GET.get("doc", "cr").lower())
    except services.RulesError as exc:
        return _problem(request, exc)
    terms = list(version.glossary.order_by("key").values_list("term", flat=True))
    letters: dict[str, list[tuple[str, str]]] = {}
    for term in terms:
        letters.setdefault(term[:1].upper(), []).append((term, content.glossary_url(version, term)))
    return render(
        request,
        "rulesref/glossary_index.html",
        {"letters": letters, **content.version_context(request, version)},
    )


@require_GET
def glossary_term(request: HttpRequest, term: str) -> HttpResponse:
    version = None
    try:
        version = _version(request, request.GET.get("doc", "cr").lower())
        found = services.find_glossary_term(version, term)
    except services.RulesError as exc:
        if version is None:  # unknown document or version date
            return _problem(request, exc, number=term)
        return render(
            request,
            "rulesref/not_found.html",
            {
                "message": exc.message,
                "query": term,
                "term_suggestions": [
                    (t, content.glossary_url(version, t))
                    for t in exc.details.get("suggestions", [])
                ],
                **content.version_context(request, version),
            },
            status=404,
        )
    return render(
        request, "rulesref/glossary_term.html", content.glossary_page(request, version, found)
    )


# --------------------------------------------------------------- jump box (search: search/pages.py)


@require_GET
def jump_to(request: HttpRequest) -> HttpResponse:
    """The jump box: a rule number (or a name such as "GRV") opens that rule; anything
    else searches."""
    query = request.GET.get("q", "").strip()[:MAX_QUERY]
    if not query:
        return redirect("home")
    target = jump.resolve(query)
    if target.url:
        return redirect(target.url)
    return redirect(reverse("page-search") + "?" + urlencode({"q": query}))


# ---------------------------------------------------------------- offline reading


@cache_control(no_cache=True)
def service_worker(request: HttpRequest) -> HttpResponse:
    """static/sw.js served from the site root so that its scope is the whole site."""
    path = finders.find("sw.js")
    if not path:
        raise Http404("no service worker")
    with open(path, encoding="utf-8") as handle:
        response = HttpResponse(handle.read(), content_type="application/javascript; charset=utf-8")
    response["Service-Worker-Allowed"] = "/"
    return response
