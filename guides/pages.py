"""Tablet guide pages: the list of guides and one guide run a question at a time.

The page embeds the whole guide as data (the API's shape, citations resolved) and
static/judgeapp/guides.js walks it in the browser; without JavaScript the same page walks the guide
on the server from the answers in the query string (?a=0&a=2&a=60: an answer's index for a question,
the typed value for an input), with the service layer running compute steps. Saving a call goes to
the call log API from the browser (offline.js queues it while the tablet has no connection).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from typing import Any

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from django.middleware.csrf import get_token
from django.shortcuts import render
from django.urls import reverse

from guides import services as guide_services
from guides.loader import AT_REGULAR
from judgeapp import api_limits, numbers
from judgeapp.api_errors import RateLimited

RELS = (("regular", "Regular"), ("competitive", "Competitive"), ("professional", "Professional"))


def _guide(slug: str) -> dict:
    try:
        return guide_services.guide_data(slug)
    except guide_services.UnknownGuide:
        raise Http404(f"no guide {slug!r}") from None


def _walk(slug: str, raw: list[str], before_engine: Callable[[], None] | None = None) -> dict:
    """guide_services.walk with the query string's answers: a number is an answer's index (?a=0)
    unless the step it answers refuses it as one, then it is the text typed into an input (a
    table number)."""
    typed: list[int | str] = [a if (n := numbers.whole(a)) is None or n < 0 else n for a in raw]
    while True:
        try:
            return guide_services.walk(slug, typed, before_engine)
        except guide_services.WalkError as exc:
            match = re.fullmatch(r"answers\[(\d+)\]", exc.field)
            i = int(match[1]) if match else -1
            if not 0 <= i < len(typed) or not isinstance(typed[i], int):
                raise
            typed[i] = raw[i]


# Who lists a signed-in judge's events, for saving a call from a guide: the call log registers its
# own at start-up (calllog/apps.py), so guides never import it; without one the page offers
# no event.
_event_source: Callable[[Any], Iterable[Any]] | None = None


def register_event_source(source: Callable[[Any], Iterable[Any]]) -> None:
    """`source(user)` gives the events a judge may log calls to (objects with pk, name,
    date, rel)."""
    global _event_source
    _event_source = source


def _judge_events(request: HttpRequest) -> list[dict]:
    """Events the signed-in judge may log calls to, as {"id", "name", "date", "rel"} (empty when
    signed out or when no room lists events)."""
    if not request.user.is_authenticated or _event_source is None:
        return []
    events = _event_source(request.user)
    return [
        {"id": e.pk, "name": e.name, "date": e.date.isoformat() if e.date else "", "rel": e.rel}
        for e in events
    ]


def guide_list(request: HttpRequest) -> HttpResponse:
    """GET /guides/: every guide with its summary, big enough to tap."""
    guides = guide_services.guide_list()
    for guide in guides:
        guide["url"] = reverse("page-guide", args=[guide["slug"]])
    return render(request, "judgeapp/guides/list.html", {"guides": guides})


def _rel(request: HttpRequest) -> str:
    rel = request.GET.get("rel", "competitive")
    return rel if rel in dict(RELS) else "competitive"


def guide_run(request: HttpRequest, slug: str) -> HttpResponse:
    """GET /guides/<slug>/: the guide as data for the script, and the current step rendered for
    readers without it (answers from ?a=...)."""
    guide = _guide(slug)
    get_token(request)  # the csrftoken cookie the script sends back when it walks or saves a call
    answers = request.GET.getlist("a")
    limited: RateLimited | None = None
    try:
        # an engine the walk runs counts against the client's computations, as on the API
        step = _walk(slug, answers, api_limits.computation_counter(request))
    except guide_services.WalkError as exc:
        step, error = guide_services.walk(slug, []), f"{exc.field}: {exc.message}"
        answers = []
    except RateLimited as exc:
        step, error, limited = guide_services.walk(slug, []), exc.message, exc
        answers = []
    else:
        error = ""
    node = step["node"]
    rel = step["facts"].get("rel") if step["facts"].get("rel") in dict(RELS) else _rel(request)
    trail = _trail(guide, step["path"], step["answers"])
    choices = node.get("answers", [])
    links = [
        (answer["label"], _query([*answers, str(index)], rel))
        for index, answer in enumerate(choices)
    ]
    context: dict[str, Any] = {
        "guide": guide,
        "events": _judge_events(request),
        "node": node,
        "step": step,
        "answers": answers,
        "trail": trail,
        "error": error,
        "rel": rel,
        "rels": RELS,
        # A guide that asks the REL itself is the one place it is asked: no REL menu beside it.
        "asks_rel": any(
            (answer.get("set") or {}).get("rel")
            for n in guide["nodes"].values()
            for answer in n.get("answers", [])
        ),
        "back_query": _query(answers[:-1], rel) if answers else "",
        "answer_links": links,
        "answer_groups": _answer_groups(choices, links),
        "hidden_answers": answers,
        "penalties": _penalties(node, rel),
        "fix_parts": fix_at(node.get("fix") or "", rel),
        "upgrades": upgrades_at(node.get("upgrades") or [], rel),
        "result_lines": _result_lines(node, step["result"]),
        # The shuffle check run on the tablet offline (static/judgeapp/shuffle-check.js) uses the
        # server's threshold ...
        "shuffle_threshold": repr(float(settings.JUDGEAPP_SHUFFLE_THRESHOLD)),
        # ... and its shuffle analysis (shuffle-analysis.js) the server's sample budget.
        "shuffle_samples": int(settings.JUDGEAPP_SHUFFLE_MAX_SAMPLES),
    }
    if limited is not None:
        page = render(request, "judgeapp/guides/run.html", context, status=429)
        page["Retry-After"] = str(limited.seconds)
        return page
    return render(request, "judgeapp/guides/run.html", context, status=400 if error else 200)


def _answer_groups(
    choices: list[dict], links: list[tuple[str, str]]
) -> list[tuple[str, list[tuple[str, str]]]]:
    """A question's answer links (`links`, one per answer of `choices`, in order) under their
    headings (the answers' `group`), as guides.js shows them: the headings in the order they first
    appear; empty when the answers are not grouped."""
    if not all(answer.get("group") for answer in choices):
        return []
    groups: dict[str, list[tuple[str, str]]] = {}
    for answer, link in zip(choices, links, strict=True):
        groups.setdefault(answer["group"], []).append(link)
    return list(groups.items())


def _query(answers: list[str], rel: str) -> str:
    from urllib.parse import urlencode

    return "?" + urlencode([("rel", rel), *(("a", a) for a in answers)])


def _trail(guide: dict, path: list[str], recorded: list) -> list[dict]:
    """The breadcrumb: each question or input already answered, with the answer as the walk recorded
    it (a question's label, an input's value)."""
    asked = [guide["nodes"][n] for n in path if guide["nodes"][n]["kind"] in ("question", "input")]
    return [
        {
            "question": node.get("text", ""),
            "answer": ", ".join(map(str, value)) if isinstance(value, list) else str(value),
        }
        for node, value in zip(asked, recorded, strict=False)
    ]


# The JAR: "The fixes found in the Infraction Procedure Guide ... don't apply at Regular REL". A
# conclusion's fix gives the IPG's fix, then "At Regular (JAR): ..."; at Regular the page shows the
# JAR's first and labels the IPG's, and labels the IPG's upgrades in the same words (guides.js
# fixAt and upgradesAt do the same on the tablet).
IPG_RELS = "At Competitive and Professional: "


def fix_at(fix: str, rel: str) -> list[str]:
    """A conclusion's fix as paragraphs for a page at `rel`: as written, except at Regular where
    the JAR's part ("At Regular ...") comes first and the IPG's after it, labelled."""
    start = fix.find(AT_REGULAR)
    if rel != "regular" or start <= 0:
        return [fix] if fix else []
    ipg, regular = fix[:start].strip(), fix[start:].strip()
    return [regular, IPG_RELS + ipg]


def upgrades_at(upgrades: list[str], rel: str) -> list[str]:
    """A conclusion's upgrades for a page at `rel`: at Regular, a line from the IPG that does not
    say its REL is labelled as Competitive and Professional's."""
    if rel != "regular":
        return list(upgrades)
    return [
        IPG_RELS + line if "IPG" in line and not line.startswith("At ") else line
        for line in upgrades
    ]


def _penalties(node: dict, rel: str) -> list[dict]:
    penalty = node.get("penalty") or {}
    return [
        {"rel": key, "label": label, "penalty": penalty.get(key, ""), "current": key == rel}
        for key, label in RELS
    ]


def _result_lines(node: dict, result: Any) -> list[tuple[str, list[str]]]:
    """The computed result's fields a conclusion asks to show (show_result), in words:
    (label, lines)."""
    from guides import result_words

    if not isinstance(result, dict):
        return []
    lines = []
    for name in node.get("show_result", []) or []:
        value: Any = result
        for part in name.split("."):
            value = value.get(part) if isinstance(value, dict) else None
        said = result_words.describe(name, value)
        if said:
            lines.append((result_words.label(name), said))
    return lines
