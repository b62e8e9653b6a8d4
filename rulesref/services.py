"""Rules services: import, publish, roll back; looking up is rulesref.lookup, whose names are
importable from here too, and so are the errors (rulesref.errors).

The only rules code that mixes models, transactions and the pure parsers.
"""

from __future__ import annotations

import datetime as dt
import hashlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from django.db import IntegrityError, transaction
from django.utils import timezone

from rulesref import changes, published, references
from rulesref.errors import NotCurrentAnyMore, NotFound, PublishError, RulesError  # noqa: F401  (re-exported)
from rulesref.lookup import (  # noqa: F401  (re-exported: callers import them from here)
    DOC_TITLES,
    canonical_number,
    children_of,
    current_version_id,
    find_glossary_term,
    find_rule,
    forget_current_versions,
    get_version,
    list_documents,
    nearest_numbers,
    parse_date,
    section_title,
)
from rulesref.models import Document, GlossaryTerm, Rule, Version, VersionEvent
from rulesref.parsing.documents import parse_document
from rulesref.parsing.records import ParsedDocument, ParseError

RULES_SUFFIXES = {".txt", ".html", ".htm", ".pdf"}


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
    """Files named directly, plus every rules file (.txt/.html) below a named folder, in
    name order."""
    files: list[Path] = []
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            files.extend(
                sorted(
                    p
                    for p in path.rglob("*")
                    if p.is_file()
                    and p.suffix.lower() in RULES_SUFFIXES
                    and p.name.lower() != "readme.md"
                )
            )
        elif path.is_file():
            files.append(path)
        else:
            raise ParseError("no such file or folder", source=str(path))
    return files


def content_hash(raw: bytes) -> str:
    return hashlib.sha256(raw).hexdigest()


def parse_file(path: Path) -> tuple[ParsedDocument, str]:
    from django.conf import settings

    limit = settings.JUDGEAPP_MAX_DOCUMENT_BYTES
    try:
        size = path.stat().st_size
        if size > limit:  # refused before it is read or parsed: a padded file could take gigabytes
            raise ParseError(
                f"the file is {size / 1e6:.1f} MB, more than the {limit / 1e6:.1f} MB a rules "
                "document may be (JUDGEAPP_MAX_DOCUMENT_BYTES)",
                source=str(path),
            )
        raw = path.read_bytes()
    except OSError as exc:
        raise ParseError(f"cannot read the file: {exc.strerror}", source=str(path)) from exc
    from rulesref.parsing.pdf import PdfLimits

    limits = PdfLimits(
        max_pages=settings.JUDGEAPP_PDF_MAX_PAGES,
        max_stream_bytes=settings.JUDGEAPP_PDF_MAX_STREAM_BYTES,
    )
    return parse_document(raw, str(path), limits), content_hash(raw)


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
    """Store a parsed document as a pending version (one transaction). Same content twice is
    a no-op.

    `into` fills an existing placeholder version (an admin upload being parsed) instead of creating
    one. Two identical imports at once: the one that loses the race on the unique content hash finds
    the other's version and reports it as already stored.
    """
    check_rule_sizes(parsed, source)
    try:
        return _store_parsed(
            parsed, digest=digest, source=source, uploaded_by=uploaded_by, into=into
        )
    except IntegrityError:
        existing = Version.objects.filter(
            document__slug=parsed.doc.value, content_hash=digest
        ).first()
        if existing is None:
            raise
        return existing, False


def check_rule_sizes(parsed: ParsedDocument, source: str) -> None:
    """ParseError naming a section number given twice (both lines), or the first rule longer than
    settings.JUDGEAPP_MAX_RULE_CHARS (a broken file whose text ran into one rule, or a padded one):
    nothing is stored."""
    from django.conf import settings

    seen: dict[str, int] = {}
    # the store's unique (version, number): a clear error, never an IntegrityError
    for rule in parsed.rules:
        if rule.number in seen:
            raise ParseError(
                f"section {rule.number} appears twice: at line {seen[rule.number]} and at line "
                f"{rule.line}",
                source=source,
                line=rule.line,
            )
        seen[rule.number] = rule.line
    limit = settings.JUDGEAPP_MAX_RULE_CHARS
    for rule in parsed.rules:
        size = len(rule.text) + sum(len(example) for example in rule.examples)
        if size > limit:
            raise ParseError(
                f"rule {rule.number} is {size:,} characters long, more than the {limit:,} a rule "
                "may have (JUDGEAPP_MAX_RULE_CHARS)",
                source=source,
                line=rule.line,
            )


def _same_rules(version: Version, parsed: ParsedDocument) -> bool:
    """The stored version holds the parsed document's rules (numbers, titles, texts, examples) and
    glossary: the same content in other bytes (another encoding, other line ends)."""
    stored = list(
        version.rules.order_by("position").values_list("number", "title", "text", "examples")
    )
    if stored != [(r.number, r.title, r.text, list(r.examples)) for r in parsed.rules]:
        return False
    terms = list(version.glossary.order_by("position").values_list("term", "definition"))
    return [tuple(t) for t in terms] == [(e.term, e.definition) for e in parsed.glossary]


def _store_parsed(
    parsed: ParsedDocument, *, digest: str, source: str, uploaded_by, into: Version | None
) -> tuple[Version, bool]:
    with transaction.atomic():
        document, _ = Document.objects.get_or_create(
            slug=parsed.doc.value,
            defaults={"title": DOC_TITLES.get(parsed.doc.value, parsed.title)},
        )
        existing = (
            document.versions.filter(content_hash=digest)
            .exclude(pk=getattr(into, "pk", None))  # type: ignore[misc]  # pk=None excludes nothing
            .first()
        )
        if existing is not None:
            return existing, False
        clash = (
            document.versions.filter(effective_date=parsed.effective_date)
            .exclude(status__in=[Version.Status.FAILED, Version.Status.DISCARDED])
            .exclude(pk=getattr(into, "pk", None))  # type: ignore[misc]  # pk=None excludes nothing
            .first()
        )
        if clash is not None and _same_rules(clash, parsed):
            # the same text in other bytes (e.g. the CR re-encoded in Windows-1252)
            return clash, False
        if clash is not None:
            raise ParseError(
                f"{document.slug.upper()} version {parsed.effective_date.isoformat()} is already "
                f"stored with different content (version #{clash.pk}); discard it first to replace "
                "it",
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
            document=document,
            action=VersionEvent.Action.IMPORT,
            to_version=version,
            actor=uploaded_by,
            note=source,
        )
        changes.schedule_pairings(document.pk)
    return version, True


def import_paths(
    paths: Sequence[str | Path], *, publish: bool = False, actor=None
) -> list[ImportOutcome]:
    """Import rules files and folders, all or nothing. Every file is parsed and checked (sections
    given twice, rules too long) before anything is written, and the batch is stored and published
    in one transaction: a file refused as it is stored (a date already stored with other content)
    leaves the database as it was, the files before it included."""
    parsed_files = [(path, *parse_file(path)) for path in expand_rules_paths(paths)]
    if not parsed_files:
        raise ParseError(
            "no rules files found (expected .txt or .html files)", source=", ".join(map(str, paths))
        )
    for path, parsed, _ in parsed_files:
        check_rule_sizes(parsed, path.name)
    with transaction.atomic():
        return _store_batch(parsed_files, publish=publish, actor=actor)


def _store_batch(
    parsed_files: Sequence[tuple[Path, ParsedDocument, str]], *, publish: bool, actor
) -> list[ImportOutcome]:
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
        _publish_batch(outcomes, actor=actor)
    return outcomes


def _publish_batch(outcomes: Sequence[ImportOutcome], *, actor) -> None:
    """`import_rules --publish`: what the batch brought that no one has published yet (stored now,
    or left pending by an earlier import) is published; a version already published is left as the
    curators left it, so running the same import again (every start of a deployment does) never
    undoes a publish or a roll-back made since. The older versions of a batch were in effect in
    their day: published, not current, so ?as_of= finds them. The newest of each document becomes
    current when it is newer than the current one (or there is none)."""
    fresh = list(
        Version.objects.filter(
            pk__in=[o.version_id for o in outcomes], status=Version.Status.PENDING
        ).select_related("document")
    )
    Version.objects.filter(pk__in=[v.pk for v in fresh]).update(status=Version.Status.PUBLISHED)
    newest: dict[str, Version] = {}
    for version in fresh:
        slug = version.document.slug
        if slug not in newest or version.effective_date > newest[slug].effective_date:
            newest[slug] = version
    for version in newest.values():
        current = Version.objects.filter(document=version.document, is_current=True).first()
        if current is None or version.effective_date > current.effective_date:
            version.refresh_from_db()
            publish_version(version, actor=actor, note="import_rules --publish")


# ---------------------------------------------------------------- publishing


def publish_version(
    version: Version,
    *,
    actor=None,
    note: str = "",
    action: str | None = None,
    leaving: Version | None = None,
) -> VersionEvent:
    """Make a stored version the current one of its document, in one transaction.

    `action` is recorded in the audit trail; by default a version that was current before is
    a roll-back. With `leaving`, the version the caller saw current: when another one is current
    by the time the document is locked, nothing changes and NotCurrentAnyMore says which."""
    with transaction.atomic():
        # The document row first: publishes of one document run one after another, so the second
        # sees the first's outcome (already current: 409) instead of racing it to the
        # one-current constraint.
        Document.objects.select_for_update().get(pk=version.document_id)
        version = Version.objects.select_for_update().get(pk=version.pk)
        if version.status not in (Version.Status.PENDING, Version.Status.PUBLISHED):
            raise PublishError(
                f"version #{version.pk} is {version.get_status_display().lower()} and cannot be "
                "published"
            )
        previous = (
            Version.objects.select_for_update()
            .filter(document=version.document, is_current=True)
            .first()
        )
        if leaving is not None and (previous is None or previous.pk != leaving.pk):
            raise NotCurrentAnyMore(
                f"{leaving} is not current any more ({previous or 'no version'} is): another "
                "publish or roll-back came first",
                details={
                    "current": previous.effective_date.isoformat()
                    if previous is not None and previous.effective_date
                    else None
                },
            )
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
            # back to an older version that was current before is a roll-back; to a newer one a
            # publish, even one that was current before ("Rolled back" was said of a forward one)
            action = (
                VersionEvent.Action.ROLLBACK
                if was_current_before
                and previous is not None
                and version.effective_date < previous.effective_date
                else VersionEvent.Action.PUBLISH
            )
        event = VersionEvent.objects.create(
            document=version.document,
            action=action,
            from_version=previous,
            to_version=version,
            actor=actor,
            note=note,
        )
        forget_current_versions()
        changes.schedule_pairings(version.document_id)
        # search: hybrid once the version's vectors exist (search/apps.py)
        published.announce_published(version)
        transaction.on_commit(references.forget_resolutions)
        transaction.on_commit(forget_current_versions)
    return event


def rollback_document(
    document: Document,
    *,
    to_version: Version | None = None,
    actor=None,
    leaving: Version | None = None,
) -> VersionEvent:
    """Make an earlier published version current again (default: the one current before
    this one). With `leaving`, only while that version is still the current one (else
    NotCurrentAnyMore): two roll-backs sent at once cannot undo each other."""
    current = leaving or document.current_version
    if to_version is None:
        last = (
            document.events.filter(
                action__in=[VersionEvent.Action.PUBLISH, VersionEvent.Action.ROLLBACK],
                to_version=current,
            )
            .exclude(from_version=None)
            .first()
        )
        if last is None or last.from_version is None:
            raise PublishError(
                f"{document.slug.upper()} has no earlier published version to roll back to"
            )
        to_version = last.from_version
    if to_version.status != Version.Status.PUBLISHED:
        raise PublishError(
            "only a version that was published before can be made current again by a roll-back"
        )
    return publish_version(
        to_version,
        actor=actor,
        note="roll back",
        action=VersionEvent.Action.ROLLBACK,
        leaving=leaving,
    )


def discard_version(version: Version, *, actor=None) -> None:
    if version.is_current:
        raise PublishError(
            "the current version cannot be discarded; publish or roll back to another first"
        )
    with transaction.atomic():
        # Kept for the record, but its content hash is freed so the same file can be uploaded again.
        version.status = Version.Status.DISCARDED
        version.content_hash = ""
        version.save(update_fields=["status", "content_hash"])
        VersionEvent.objects.create(
            document=version.document,
            action=VersionEvent.Action.DISCARD,
            to_version=version,
            actor=actor,
        )
