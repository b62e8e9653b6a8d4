"""Stable rule references: cite a rule once, show it in whatever version is current.

A reference is pinned to the version it was written against — "cr@2025-02-07:729.4" — and
resolved at the moment it is shown: the pinned rule is followed through renumbering (the differ's
pairing of the pinned version with the current one) to its number and text today. This is the one
interface judge features use to cite rules; nothing else turns a rule number into a citation.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import asdict, dataclass

from rulesref.citing import REF_PATTERN  # the pattern lives with the registry, which checks it
from rulesref.naming import citation_label  # how a citation is shown; kept importable from here

_cache: dict[tuple[str, int], ResolvedRef] = {}


class ReferenceError(ValueError):
    """A reference string that is malformed, or that names a document with no current version."""


@dataclass(frozen=True)
class PinnedRef:
    doc: str
    pinned_date: dt.date
    number: str

    def __str__(self) -> str:
        return f"{self.doc}@{self.pinned_date.isoformat()}:{self.number}"


@dataclass(frozen=True)
class ResolvedRef:
    ref: str
    doc: str
    number: str | None  # number in the current version; None when the rule is gone
    title: str
    text: str
    version: str  # effective date of the current version
    pinned_number: str
    pinned_version: str
    status: str  # "same", "moved", "changed", "moved_changed", "removed", "unverified"

    @property
    def found(self) -> bool:
        return self.number is not None

    def citation(self) -> dict:
        """The API's citation shape: {"doc", "number"} plus title and text for readers, and `label`,
        the citation as a judge says it (see citation_label)."""
        return {
            "doc": self.doc,
            "number": self.number,
            "title": self.title,
            "text": self.text,
            "ref": self.ref,
            "status": self.status,
            "label": citation_label(self.doc, self.number, self.title),
        }

    def as_dict(self) -> dict:
        return asdict(self)


def labelled(citations: list[dict]) -> list[dict]:
    """Stored citations (a call saved before citations had labels) with their `label` filled in."""
    return [
        c
        if c.get("label")
        else {
            **c,
            "label": citation_label(str(c.get("doc", "")), c.get("number"), c.get("title") or ""),
        }
        for c in citations
    ]


def parse_ref(ref: str) -> PinnedRef:
    match = REF_PATTERN.match(ref.strip())
    if match is None:
        raise ReferenceError(f"{ref!r} is not a rule reference like 'cr@2025-02-07:729.4'")
    try:
        date = dt.date.fromisoformat(match["date"])
    except ValueError:
        raise ReferenceError(f"{ref!r} has an impossible date") from None
    return PinnedRef(match["doc"], date, match["number"])


def forget_resolutions() -> None:
    """Called when a version is published or rolled back."""
    _cache.clear()


def resolve(ref: str) -> ResolvedRef:
    """Resolve a pinned reference against the current version of its document."""
    from rulesref.models import Version

    pinned = parse_ref(ref)
    current = (
        Version.objects.select_related("document")
        .filter(document__slug=pinned.doc, is_current=True)
        .first()
    )
    if current is None:
        raise ReferenceError(
            f"no {pinned.doc.upper()} version is current, so {ref} cannot be resolved"
        )
    key = (str(pinned), current.pk)
    if key not in _cache:
        _cache[key] = _resolve_against(pinned, current)
    return _cache[key]


def resolve_many(refs: list[str]) -> list[ResolvedRef]:
    return [resolve(ref) for ref in refs]


def citations(refs: list[str]) -> list[dict]:
    """Resolved citations for an API result, in order, without duplicates."""
    seen: set[str] = set()
    out: list[dict] = []
    for ref in refs:
        try:
            resolved = resolve(ref)
        except ReferenceError as exc:
            # A document not imported here must not sink the whole answer: say what is missing.
            pinned = parse_ref(ref)
            out.append(
                {
                    "doc": pinned.doc,
                    "number": None,
                    "ref": ref,
                    "status": "unresolved",
                    "text": str(exc),
                    "title": "",
                    "label": citation_label(pinned.doc, None, ""),
                }
            )
            continue
        key = f"{resolved.doc}:{resolved.number}"
        if key not in seen:
            seen.add(key)
            out.append(resolved.citation())
    return out


def _resolve_against(pinned: PinnedRef, current) -> ResolvedRef:
    from rulesref import changes
    from rulesref.models import Version

    base = dict(
        ref=str(pinned),
        doc=pinned.doc,
        version=current.effective_date.isoformat(),
        pinned_number=pinned.number,
        pinned_version=pinned.pinned_date.isoformat(),
    )
    old_version = (
        Version.objects.filter(document=current.document, effective_date=pinned.pinned_date)
        .exclude(status__in=["failed", "discarded"])
        .first()
    )
    if old_version is None:
        # The pinned version is not stored here: trust the number only if it still exists.
        rule = current.rules.filter(number=pinned.number).first()
        if rule is None:
            return ResolvedRef(number=None, title="", text="", status="removed", **base)
        return ResolvedRef(
            number=rule.number, title=rule.title, text=rule.text, status="unverified", **base
        )
    old_rule = old_version.rules.filter(number=pinned.number).first()
    if old_rule is None:
        old_rule = (
            old_version.rules.filter(title__iexact=pinned.number).order_by("position").first()
        )
    if old_rule is None:
        raise ReferenceError(
            f"{pinned} names no rule: {pinned.doc.upper()} {pinned.pinned_date} has no "
            f"{pinned.number}"
        )
    if old_version.pk == current.pk:
        return ResolvedRef(
            number=old_rule.number, title=old_rule.title, text=old_rule.text, status="same", **base
        )
    new_number = changes.follow(old_version, current, old_rule.number)
    if new_number is None:
        return ResolvedRef(
            number=None, title=old_rule.title, text=old_rule.text, status="removed", **base
        )
    rule = current.rules.get(number=new_number)
    moved = new_number != pinned.number
    edited = _said(rule) != _said(old_rule)
    status = {
        (False, False): "same",
        (True, False): "moved",
        (False, True): "changed",
        (True, True): "moved_changed",
    }[(moved, edited)]
    return ResolvedRef(number=rule.number, title=rule.title, text=rule.text, status=status, **base)


def _content(rule) -> str:
    """A stored rule's text with its examples (an IPG infraction's examples are part of what it
    says): what a citation of it shows, and what must not change unnoticed."""
    return "\n".join([rule.text, *(f"Example: {example}" for example in rule.examples or ())])


def _said(rule) -> str:
    return " ".join(_content(rule).split())


def review_changes(refs: list[str], old_version, new_version) -> list[dict]:
    """The references whose number or text differ between two versions, for the admin's review."""
    from rulesref import changes

    rows = []
    memo: dict = {}  # the pinned versions and pairings the references share, read once
    for ref in sorted(set(refs)):
        pinned = parse_ref(ref)
        if pinned.doc != new_version.document.slug:
            continue
        old_number = changes.follow_from_pinned(pinned, old_version, memo)
        new_number = changes.follow_from_pinned(pinned, new_version, memo)
        old_rule = old_version.rules.filter(number=old_number).first() if old_number else None
        new_rule = new_version.rules.filter(number=new_number).first() if new_number else None
        old_text = _content(old_rule) if old_rule else ""
        new_text = _content(new_rule) if new_rule else ""
        if old_number != new_number or " ".join(old_text.split()) != " ".join(new_text.split()):
            rows.append(
                {
                    "ref": ref,
                    "old_number": old_number,
                    "new_number": new_number,
                    "old_text": old_text,
                    "new_text": new_text,
                }
            )
    return rows
