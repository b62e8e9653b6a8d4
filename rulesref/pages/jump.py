"""The jump box: read what a judge typed as a rule of one of the current documents, if it is one.

"729.3", "cr 704.5a", "7292a", "mtr 4.2" and an IPG name such as "GRV" or "Missed Trigger" open
that rule; a number several documents have ("4.2" is in the MTR and the IPG) offers each; a name
several documents use opens the first of cr, mtr, ipg, jar; anything else searches.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import cast

from django.urls import reverse

from rulesref import services
from rulesref.models import Rule, Version
from rulesref.pages.outline import outline_for

_DOC_PREFIX = re.compile(r"^\s*(cr|mtr|ipg|jar)(?![a-z])[\s:.#-]*(.*)$", re.IGNORECASE)
_NAME = re.compile(r"[A-Za-z][A-Za-z' \-]{1,40}")  # "GRV", "Missed Trigger"
_CR_SHAPE = re.compile(r"\d{3}(?:\.\d+[a-z]?)?")


@dataclass(frozen=True)
class JumpChoice:
    doc: str
    number: str
    title: str
    url: str
    by_number: bool = True  # False when found by a name ("GRV")


@dataclass(frozen=True)
class JumpTarget:
    """Where the box leads: `url` when it is one rule (or one document), `choices` when
    several fit."""

    url: str = ""
    choices: tuple[JumpChoice, ...] = field(default=())
    # An old number ("725.3" of the 2022 CR): the rule it became, and the line saying so
    # ("725.3 in the CR of 2022-04-29 is now 729.3").
    moved: JumpChoice | None = None
    moved_line: str = ""


def resolve(query: str) -> JumpTarget:
    match = _DOC_PREFIX.match(query)
    if match is not None:
        docs, rest = [match.group(1).lower()], match.group(2).strip()
    else:
        docs, rest = list(services.DOC_TITLES), query.strip()
    versions = {
        v.document.slug: v
        for v in Version.objects.select_related("document").filter(
            is_current=True, document__slug__in=docs
        )
    }
    if not rest:
        return JumpTarget(
            url=reverse("page-contents", args=[docs[0]])
            if match is not None and docs[0] in versions
            else ""
        )
    choices = [
        choice for doc in docs if doc in versions for choice in _matches(versions[doc], rest)
    ]
    if len(choices) == 1 or (choices and not any(c.by_number for c in choices)):
        # A name such as "GRV" is the IPG's infraction before it is the JAR's matching entry:
        # documents are tried in order (cr, mtr, ipg, jar) and the others are offered beside it.
        return JumpTarget(url=choices[0].url, choices=tuple(choices))
    if not choices:
        moved = _old_number(docs, versions, rest)
        if moved is not None:
            return moved
        number = services.canonical_number("cr", rest)
        if "cr" in docs and "cr" in versions and number and _CR_SHAPE.fullmatch(number):
            # A CR-shaped number that does not exist: its page says so and suggests the nearest.
            return JumpTarget(url=reverse("page-rule", args=["cr", number]))
    return JumpTarget(choices=tuple(choices))


def _matches(version: Version, rest: str) -> list[JumpChoice]:
    doc = version.document.slug
    outline = outline_for(version)
    number = services.canonical_number(doc, rest)
    for candidate in filter(None, [number, number.upper() if number else None]):
        if candidate in outline:
            entry = outline.by_number[candidate]
            return [
                JumpChoice(doc, candidate, entry.title, reverse("page-rule", args=[doc, candidate]))
            ]
    if doc != "cr" and _NAME.fullmatch(rest):
        wanted = " ".join(rest.split()).casefold()
        for found_number, title, aliases in (
            Rule.objects.filter(version=version)
            .exclude(aliases=[])
            .values_list("number", "title", "aliases")
        ):
            if wanted in (a.casefold() for a in aliases):
                return [
                    JumpChoice(
                        doc,
                        found_number,
                        title,
                        reverse("page-rule", args=[doc, found_number]),
                        by_number=False,
                    )
                ]
    return []


def _old_number(docs: list[str], versions: dict[str, Version], rest: str) -> JumpTarget | None:
    """A number of an earlier version ("725.3" of the 2022 CR) opens the rule it became,
    saying so."""
    from rulesref import old_numbers
    from rulesref.pages import renumbered

    for doc in docs:
        number = services.canonical_number(doc, rest) if doc in versions else None
        now = old_numbers.where_now(versions[doc], number) if number else None
        if now:
            # now: a number was given
            url = renumbered.url(doc, now["number"], versions[doc], cast(str, number))
            entry = outline_for(versions[doc]).by_number.get(now["number"])
            return JumpTarget(
                url=url,
                moved=JumpChoice(doc, now["number"], entry.title if entry else "", url),
                moved_line=old_numbers.sentence(doc, now),
            )
    return None
