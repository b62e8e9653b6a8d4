"""Rules services: import, publish, roll back, and look up versions, rules and glossary terms.

The only rules code that mixes models, transactions and the pure parsers.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from rulesref.models import Document, GlossaryTerm, Rule, Version, VersionEvent
from rulesref.parsing.documents import parse_document
from rulesref.parsing.records import ParsedDocument, ParseError, RuleKind

DOC_TITLES = {
    "cr": "Magic: The Gathering Comprehensive Rules",
    "mtr": "Magic: The Gathering Tournament Rules",
    "ipg": "Magic: The Gathering Infraction Procedure Guide",
    "jar": "Judging at Regular Rules Enforcement Level",
}
RULES_SUFFIXES = {".txt", ".html", ".htm"}


class RulesError(Exception):
    """A request about rules that cannot be met; `code` is the API error code."""

    code = "invalid"

    def __init__(self, message: str, *, details: dict | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.details = details or {}


class NotFound(RulesError):
    code = "not_found"


class PublishError(RulesError):
    code = "cannot_publish"


@dataclass(frozen=True)
class ImportOutcome:
    doc: str
    effective_date: dt.date
    version_id: int
    created: bool
    rules: int
    examples: int
    glossary: int
    source: str

    def summary(self) -> str:
        state = "imported" if self.created else "already stored"
        return (
            f"{self.doc.upper()} {self.effective_date.isoformat()}: {self.rules} rules, "
            f"{self.glossary} glossary terms, {self.examples} examples ({state}; {self.source})"
        )


# ---------------------------------------------------------------- importing


def expand_rules_paths(paths: Iterable[str | Path]) -> list[Path]:
    """Files named directly, plus every rules file (.txt/.html) below a named folder, in name order."""
    files: list[Path] = []
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            files.extend(sorted(p for p in path.rglob("*") if p.is_file() and p.suffix.lower() in RULES_SUFFIXES and p.name.lower() != "readme.md"))
        elif path.is_file():
            files.append(path)
        else:
            raise ParseError("no such file or folder", source=str(path))
    return files


def content_hash(raw: bytes) -> str:
    return hashlib.sha256(raw).hexdigest()


def parse_file(path: Path) -> tuple[ParsedDocument, str]:
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise ParseError(f"cannot read the file: {exc.strerror}", source=str(path)) from exc
    return parse_document(raw, str(path)), content_hash(raw)


def _rule_rows(version: Version, parsed: ParsedDocument) -> list[Rule]:
    return [
        Rule(
            version=version,
            number=rule.number,
            position=position,
            kind=rule.kind.value,
            title=rule.title,
            text=rule.text,
            examples=list(rule.examples),
            parent=rule.parent or "",
            references=list(rule.references),
            aliases=list(rule.aliases),
            fields=dict(rule.fields),
            line=rule.line,
        )
        for position, rule in enumerate(parsed.rules)
    ]


def _glossary_rows(version: Version, parsed: ParsedDocument) -> list[GlossaryTerm]:
    return [
        GlossaryTerm(
            version=version,
            term=entry.term,
            key=entry.term.casefold(),
            definition=entry.definition,
            aliases=list(entry.aliases),
            references=list(entry.references),
            position=position,
        )
        for position, entry in enumerate(parsed.glossary)
    ]


def store_parsed(
    parsed: ParsedDocument,
    *,
    digest: str,
    source: str,
    uploaded_by=None,
    into: Version | None = None,
) -> tuple[Version, bool]:
    """Store a parsed document as a pending version (one transaction). Same content twice is a no-op.

    `into` fills an existing placeholder version (an admin upload being parsed) instead of creating one.
    """
    from rulesref import changes

    with transaction.atomic():
        document, _ = Document.objects.get_or_create(
            slug=parsed.doc.value, defaults={"title": DOC_TITLES.get(parsed.doc.value, parsed.title)}
        )
        existing = document.versions.filter(content_hash=digest).exclude(pk=getattr(into, "pk", None)).first()
        if existing is not None:
            return existing, False
        clash = (
            document.versions.filter(effective_date=parsed.effective_date)
            .exclude(status__in=[Version.Status.FAILED, Version.Status.DISCARDED])
            .exclude(pk=getattr(into, "pk", None))
            .first()
        )
        if clash is not None:
            raise ParseError(
                f"{document.slug.upper()} version {parsed.effective_date.isoformat()} is already stored "
                f"with different content (version #{clash.pk}); discard it first to replace it",
                source=source,
            )
        version = into or Version(document=document)
        version.document = document
        version.effective_date = parsed.effective_date
        version.title = parsed.title
        version.status = Version.Status.PENDING
        version.content_hash = digest
        version.source_name = source
        version.rule_count = len(parsed.counted_rules)
        version.example_count = parsed.example_count
        version.glossary_count = len(parsed.glossary)
        version.notes = "\n".join(parsed.notes)
        version.error = ""
        version.progress = 100
        if uploaded_by is not None:
            version.uploaded_by = uploaded_by
        version.save()
        Rule.objects.bulk_create(_rule_rows(version, parsed), batch_size=1000)
        GlossaryTerm.objects.bulk_create(_glossary_rows(version, parsed), batch_size=1000)
        VersionEvent.objects.create(
            document=document, action=VersionEvent.Action.IMPORT, to_version=version, actor=uploaded_by, note=source
        )
        changes.schedule_pairings(document.pk)
    return version, True


def import_paths(paths: Sequence[str | Path], *, publish: bool = False, actor=None) -> list[ImportOutcome]:
    """Import rules files and folders. Every file is parsed before anything is written, so one bad
    file leaves the database as it was; each file is then stored in its own transaction."""
    parsed_files = [(path, *parse_file(path)) for path in expand_rules_paths(paths)]
    if not parsed_files:
        raise ParseError("no rules files found (expected .txt or .html files)", source=", ".join(map(str, paths)))
    outcomes: list[ImportOutcome] = []
    for path, parsed, digest in parsed_files:
        version, created = store_parsed(parsed, digest=digest, source=path.name, uploaded_by=actor)
        outcomes.append(
            ImportOutcome(
                doc=parsed.doc.value,
                effective_date=version.effective_date,
                version_id=version.pk,
                created=created,
                rules=version.rule_count,
                examples=version.example_count,
                glossary=version.glossary_count,
                source=path.name,
            )
        )
    if publish:
        # The older versions of a published batch were in effect in their day: they become published
        # (not current), so ?as_of= finds them. The newest of each document becomes current.
        Version.objects.filter(pk__in=[o.version_id for o in outcomes], status=Version.Status.PENDING).update(
            status=Version.Status.PUBLISHED
        )
        newest: dict[str, ImportOutcome] = {}
        for outcome in outcomes:
            if outcome.doc not in newest or outcome.effective_date > newest[outcome.doc].effective_date:
                newest[outcome.doc] = outcome
        for outcome in newest.values():
            version = Version.objects.get(pk=outcome.version_id)
            if not version.is_current:
                publish_version(version, actor=actor, note="import_rules --publish")
    return outcomes


# ---------------------------------------------------------------- publishing


def publish_version(version: Version, *, actor=None, note: str = "", action: str | None = None) -> VersionEvent:
    """Make a stored version the current one of its document, in one transaction.

    `action` is recorded in the audit trail; by default a version that was current before is a roll-back."""
    from rulesref import changes, references, search_tasks

    with transaction.atomic():
        version = Version.objects.select_for_update().get(pk=version.pk)
        if version.status not in (Version.Status.PENDING, Version.Status.PUBLISHED):
            raise PublishError(f"version #{version.pk} is {version.get_status_display().lower()} and cannot be published")
        previous = Version.objects.select_for_update().filter(document=version.document, is_current=True).first()
        if previous is not None and previous.pk == version.pk:
            raise PublishError(f"{version} is already current")
        was_current_before = version.published_at is not None
        if previous is not None:
            Version.objects.filter(pk=previous.pk).update(is_current=False)
        version.is_current = True
        version.status = Version.Status.PUBLISHED
        version.published_at = version.published_at or timezone.now()
        version.save(update_fields=["is_current", "status", "published_at"])
        if action is None:
            action = VersionEvent.Action.ROLLBACK if was_current_before and previous is not None else VersionEvent.Action.PUBLISH
        event = VersionEvent.objects.create(
            document=version.document, action=action, from_version=previous, to_version=version, actor=actor, note=note
        )
        forget_current_versions()
        changes.schedule_pairings(version.document_id)
        search_tasks.schedule_search_vectors(version)  # hybrid search once its vectors exist
        transaction.on_commit(references.forget_resolutions)
        transaction.on_commit(forget_current_versions)
    return event


def rollback_document(document: Document, *, to_version: Version | None = None, actor=None) -> VersionEvent:
    """Make an earlier published version current again (default: the one current before this one)."""
    current = document.current_version
    if to_version is None:
        last = (
            document.events.filter(action__in=[VersionEvent.Action.PUBLISH, VersionEvent.Action.ROLLBACK], to_version=current)
            .exclude(from_version=None)
            .first()
        )
        if last is None or last.from_version is None:
            raise PublishError(f"{document.slug.upper()} has no earlier published version to roll back to")
        to_version = last.from_version
    if to_version.status != Version.Status.PUBLISHED:
        raise PublishError("only a version that was published before can be made current again by a roll-back")
    return publish_version(to_version, actor=actor, note="roll back", action=VersionEvent.Action.ROLLBACK)


def discard_version(version: Version, *, actor=None) -> None:
    if version.is_current:
        raise PublishError("the current version cannot be discarded; publish or roll back to another first")
    with transaction.atomic():
        # Kept for the record, but its content hash is freed so the same file can be uploaded again.
        version.status = Version.Status.DISCARDED
        version.content_hash = ""
        version.save(update_fields=["status", "content_hash"])
        VersionEvent.objects.create(document=version.document, action=VersionEvent.Action.DISCARD, to_version=version, actor=actor)


# ---------------------------------------------------------------- looking up


def parse_date(raw: str, field: str) -> dt.date:
    try:
        return dt.date.fromisoformat(raw)
    except ValueError:
        raise RulesError(f"{field} must be a date as YYYY-MM-DD, not {raw!r}", details={field: raw}) from None


def get_version(doc: str, *, version: str | None = None, as_of: str | None = None) -> Version:
    """The current version of a document, or the one with that effective date, or the one in effect on a day."""
    doc = doc.lower()
    if doc not in DOC_TITLES:
        raise NotFound(f"unknown document {doc!r}; use one of {', '.join(DOC_TITLES)}", details={"doc": doc})
    stored = Version.objects.select_related("document").filter(document__slug=doc)
    if version:
        date = parse_date(version, "version")
        found = stored.filter(effective_date=date).exclude(status__in=["failed", "discarded"]).first()
        if found is None:
            dates = [d.isoformat() for d in stored.filter(status="published").values_list("effective_date", flat=True)]
            raise NotFound(f"no {doc.upper()} version effective {date.isoformat()}", details={"versions": dates})
        return found
    if as_of:
        date = parse_date(as_of, "as_of")
        found = stored.filter(status="published", effective_date__lte=date).order_by("-effective_date").first()
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
        f"SELECT v.id FROM {Version._meta.db_table} v JOIN {Document._meta.db_table} d ON d.id = v.document_id "
        "WHERE d.slug = %s AND v.is_current"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [doc.lower()])
        row = cursor.fetchone()
    _current_ids[doc] = (now, row[0] if row else None)
    return _current_ids[doc][1]


def canonical_number(doc: str, raw: str) -> str | None:
    from rulesref.parsing.common import normalize_rule_number

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
        needle = raw_number.strip()
        rule = next((r for r in version.rules.exclude(aliases=[]) if needle.casefold() in (a.casefold() for a in r.aliases)), None)
    if rule is None:
        raise NotFound(
            f"{doc.upper()} {version.effective_date} has no rule {raw_number!r}",
            details={"suggestions": nearest_numbers(version, number or raw_number)},
        )
    return rule


def _number_parts(number: str) -> list[str]:
    return re.findall(r"\d+|[a-z]+", number.lower())


def nearest_numbers(version: Version, number: str, *, limit: int = 5) -> list[str]:
    """Real numbers close to an unknown one: siblings under the deepest existing parent, then neighbours."""
    numbers = list(version.rules.exclude(kind=RuleKind.CHAPTER.value).values_list("number", flat=True))
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
            tail = abs(int(a) - int(b)) if a.isdigit() and b.isdigit() else abs(ord(a[0]) - ord(b[0]))
        return (-common, tail, abs(len(parts) - len(target)), candidate)

    return sorted(numbers, key=distance)[:limit]


def children_of(rule: Rule) -> list[str]:
    return list(rule.version.rules.filter(parent=rule.number).values_list("number", flat=True))


def find_glossary_term(version: Version, raw_term: str) -> GlossaryTerm:
    """A glossary entry by its name or any alternate name; a "See X." entry leads to X."""
    key = " ".join(raw_term.split()).casefold()
    term = version.glossary.filter(key=key).first()
    if term is None or term.definition.startswith("See "):
        main = next((t for t in version.glossary.exclude(aliases=[]) if key in (a.casefold() for a in t.aliases)), None)
        if main is None and term is not None:
            target = term.definition[4:].split(".")[0].strip().casefold()
            main = version.glossary.filter(key=target).first()
        term = main or term
    if term is None:
        close = [t.term for t in version.glossary.filter(Q(key__contains=key) | Q(key__startswith=key[:4]))[:5]]
        raise NotFound(f"no glossary term {raw_term!r} in {version.document.slug.upper()} {version.effective_date}", details={"suggestions": close})
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
