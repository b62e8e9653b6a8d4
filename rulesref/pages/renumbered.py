"""The line above a rule opened by an old number: "725.3 in the CR of 2022-04-29 is now 729.3".

The rule page is opened as /rules/cr/729.3/?was=725.3 (by the jump box, or by the rule page of the
old number); the line is worked out again from the trace, so a link cannot make the page claim a
renumbering that did not happen.
"""

from __future__ import annotations

from urllib.parse import urlencode

from django.http import HttpRequest

from rulesref import old_numbers, services
from rulesref.models import Rule, Version
from rulesref.pages import content


def url(doc: str, number: str, version: Version | None, was: str) -> str:
    """The rule page of `number`, saying it was `was`."""
    target = content.rule_url(doc, number, version)
    return target + ("&" if "?" in target else "?") + urlencode({"was": was})


def old_number(request: HttpRequest, version: Version) -> str:
    """The number `?was=` names, as the document writes its numbers ("" when none)."""
    was = request.GET.get("was", "").strip()[:40]
    if not was:
        return ""
    return services.canonical_number(version.document.slug, was) or was


def line(request: HttpRequest, version: Version, rule: Rule) -> str:
    number = old_number(request, version)
    if not number:
        return ""
    doc = version.document.slug
    now = old_numbers.where_now(version, number)
    if now is None or now["number"] != rule.number:
        return ""
    return old_numbers.sentence(doc, now)
