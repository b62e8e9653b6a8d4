"""Looking rules up: versions by date or as of a day, the current version of each document (the hot
path of every lookup), rules by number with the nearest numbers when one is missing,
glossary terms."""

from __future__ import annotations

import datetime as dt
import re

from django.db.models import Q

from rulesref.errors import NotFound, RulesError
from rulesref.models import Document, GlossaryTerm, Rule, Version, VersionEvent
from rulesref.old_numbers import sentence, where_now
from rulesref.parsing.records import RuleKind

DOC_TITLES = {
    "cr": "Magic: The Gathering Comprehensive Rules",
    "mtr": "Magic: The Gathering Tournament Rules",
    "ipg": "Magic: The Gathering Infraction Procedure Guide",
    "jar": "Judging at Regular Rules Enforcement Level",
}


def parse_date(raw: str, field: str) -> dt.date:
    try:
        return dt.date.fromisoformat(raw)
    except ValueError:
        raise RulesError(
            f"{field} must be a date as YYYY-MM-DD, not {raw!r}", details={field: raw}
        ) from None


def withdrawn(doc: str) -> set[int]:
    """The versions of `doc` a roll-back to an older one left or skipped over, and no publish or
    roll-back has made current again since (the document's events, in order)."""
    events = (
        VersionEvent.objects.filter(
            document__slug=doc,
            action__in=[VersionEvent.Action.PUBLISH, VersionEvent.Action.ROLLBACK],
        )
        .order_by("at", "id")
        .values_list(
            "action",
            "from_version_id",
            "from_version__effective_date",
            "to_version_id",
            "to_version__effective_date",
        )
    )
    dated = list(Version.objects.filter(document__slug=doc).values_list("pk", "effective_date"))
    left: set[int] = set()
    for action, old, old_date, new, new_date in events:
        # back to an older version (a version made current again that had been current is recorded
        # as a roll-back too, whichever way it goes): every version after it, up to the one left,
        # is withdrawn, those the roll-back skipped over included
        if action == VersionEvent.Action.ROLLBACK and old is not None and new_date is not None:
            if old_date > new_date:
                left |= {pk for pk, date in dated if new_date < date <= old_date}
        if new is not None:
            left.discard(new)
    return left


def get_version(
    doc: str, *, version: str | None = None, as_of: str | None = None, include_pending: bool = False
) -> Version:
    """The current version of a document, or the one with that effective date, or the one in effect
    on a day. A pending (unreviewed) version is found by its date only with include_pending
    (staff, commands)."""
    doc = doc.lower()
    if doc not in DOC_TITLES:
        raise NotFound(
            f"unknown document {doc!r}; use one of {', '.join(DOC_TITLES)}", details={"doc": doc}
        )
    stored = Version.objects.select_related("document").filter(document__slug=doc)
    if version:
        date = parse_date(version, "version")
        hidden = (
            ["failed", "discarded"]
            if include_pending
            else ["failed", "discarded", "pending", "parsing"]
        )
        found = stored.filter(effective_date=date).exclude(status__in=hidden).first()
        if found is None:
            dates = [
                d.isoformat()
                for d in stored.filter(status="published").values_list("effective_date", flat=True)
            ]
            raise NotFound(
                f"no {doc.upper()} version effective {date.isoformat()}",
                details={"versions": dates},
            )
        return found
    if as_of:
        date = parse_date(as_of, "as_of")
        in_effect = stored.filter(status="published", effective_date__lte=date)
        # A version rolled back from, and not made current again since, was withdrawn: never in
        # effect (whatever was published after it).
        found = in_effect.exclude(pk__in=withdrawn(doc)).order_by("-effective_date").first()
        if found is None:
            raise NotFound(f"no {doc.upper()} version was in effect on {date.isoformat()}")
        return found
    found = stored.filter(is_current=True).first()
    if found is None:
        raise NotFound(f"no {doc.upper()} version is published yet; run import_rules --publish")
    return found


_current_ids: dict[str, tuple[float, int | None]] = {}
CURRENT_ID_TTL = 1.0  # seconds another process may serve the previous version after a publish


def forget_current_versions() -> None:
    _current_ids.clear()


def current_version_id(doc: str) -> int | None:
    """The id of a document's current version: the hot path of every lookup. Remembered for a
    second; this process forgets it at once when it publishes, others within CURRENT_ID_TTL."""
    import time

    from django.db import connection

    doc = doc.lower()
    now = time.monotonic()
    known = _current_ids.get(doc)
    if known is not None and now - known[0] < CURRENT_ID_TTL:
        return known[1]
    sql = (
        f"SELECT v.id FROM {Version._meta.db_table} v JOIN {Document._meta.db_table} d ON d.id = "
        "v.document_id WHERE d.slug = %s AND v.is_current"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [doc.lower()])
        row = cursor.fetchone()
    _current_ids[doc] = (now, row[0] if row else None)
    return _current_ids[doc][1]


def canonical_number(doc: str, raw: str) -> str | None:
    """A rule number as a judge types it to look it up; an appendix's lone letter in either case
    ("mtr b" is Appendix B). Search reads only a capital one: "a" in a question is a word."""
    from rulesref.parsing.common import normalize_rule_number

    if doc != "cr" and isinstance(raw, str) and len(raw.strip()) == 1 and raw.strip().isalpha():
        raw = raw.strip().upper()
    return normalize_rule_number(raw, doc=doc)


def find_rule(version: Version, raw_number: str) -> Rule:
    doc = version.document.slug
    number = canonical_number(doc, raw_number)
    rule = None
    if number:
        rule = version.rules.filter(number=number).first()
        if rule is None and doc != "cr":
            rule = version.rules.filter(number__iexact=number).first()
    if rule is None and doc != "cr":
        # a name, read without case or spaces ("Missed Trigger", "missedtrigger"), as the rules
        # view caches its answer (rulesref.views.rule_key): one answer whatever was asked first
        needle = "".join(raw_number.split()).casefold()
        rule = next(
            (
                r
                for r in version.rules.exclude(aliases=[])
                if needle in ("".join(a.split()).casefold() for a in r.aliases)
            ),
            None,
        )
    if rule is None:
        now = where_now(version, number or raw_number)  # an old number: where that rule is now
        raise NotFound(
            f"{doc.upper()} {version.effective_date} has no rule {raw_number!r}"
            + (f"; {sentence(doc, now)}" if now else ""),
            details={
                "suggestions": nearest_numbers(version, number or raw_number),
                **({"now": now} if now else {}),
            },
        )
    return rule


def _number_parts(number: str) -> list[str]:
    return re.findall(r"\d+|[a-z]+", number.lower())


def nearest_numbers(version: Version, number: str, *, limit: int = 5) -> list[str]:
    """Real numbers close to an unknown one: siblings under the deepest existing parent,
    then neighbours."""
    numbers = list(
        version.rules.exclude(kind=RuleKind.CHAPTER.value).values_list("number", flat=True)
    )
    target = _number_parts(number)

    def distance(candidate: str) -> tuple:
        parts = _number_parts(candidate)
        common = 0
        for a, b in zip(parts, target):
            if a != b:
                break
            common += 1
        tail = 0
        if common < len(parts) and common < len(target):
            a, b = parts[common], target[common]
            tail = (
                abs(int(a) - int(b)) if a.isdigit() and b.isdigit() else abs(ord(a[0]) - ord(b[0]))
            )
        return (-common, tail, abs(len(parts) - len(target)), candidate)

    return sorted(numbers, key=distance)[:limit]


def children_of(rule: Rule) -> list[str]:
    return list(rule.version.rules.filter(parent=rule.number).values_list("number", flat=True))


def find_glossary_term(version: Version, raw_term: str) -> GlossaryTerm:
    """A glossary entry by its name or any alternate name; a "See X." entry leads to X."""
    key = " ".join(raw_term.split()).casefold()
    term = version.glossary.filter(key=key).first()
    if term is None or term.definition.startswith("See "):
        main = next(
            (
                t
                for t in version.glossary.exclude(aliases=[])
                if key in (a.casefold() for a in t.aliases)
            ),
            None,
        )
        if main is None and term is not None:
            target = term.definition[4:].split(".")[0].strip().casefold()
            main = version.glossary.filter(key=target).first()
        term = main or term
    if term is None:
        close = [
            t.term
            for t in version.glossary.filter(Q(key__contains=key) | Q(key__startswith=key[:4]))[:5]
        ]
        raise NotFound(
            f"no glossary term {raw_term!r} in {version.document.slug.upper()} "
            f"{version.effective_date}",
            details={"suggestions": close},
        )
    return term


def list_documents() -> list[Document]:
    return list(Document.objects.prefetch_related("versions").order_by("slug"))


def section_title(rule: Rule) -> str:
    """The title of the section a rule belongs to ("Taking Shortcuts" for 729.3)."""
    if rule.kind in (RuleKind.SECTION.value, RuleKind.CHAPTER.value):
        return rule.title
    parent, version = rule.parent, rule.version
    for _ in range(4):
        if not parent:
            return ""
        found = version.rules.filter(number=parent).values_list("kind", "title", "parent").first()
        if found is None:
            return ""
        kind, title, parent = found
        if kind == RuleKind.SECTION.value:
            return title
    return ""
