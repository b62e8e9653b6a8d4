"""Rules curation: upload a document, parse it in a task, review it against the current version,
publish, discard or roll back, and fetch new official documents (sync_rules).

The admin, the staff API, the Celery task and the sync_rules command call these services; the
storing itself is rulesref.services (store_parsed, publish_version, rollback_document,
discard_version).
"""

from __future__ import annotations

import re
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import cast

from django.core.files.uploadedfile import UploadedFile
from django.db import transaction

from rulesref import changes, citing, references, services
from rulesref.models import Document, Version, VersionEvent
from rulesref.parsing.documents import parse_document
from rulesref.parsing.records import DocKind, ParseError

PARSE_UPLOAD = "rulesref.parse_upload"  # rulesref.tasks.parse_upload, sent by name
SNIFF_BYTES = 64 * 1024  # enough of a file to tell which document it is


def document_limit() -> int:
    """Largest rules document accepted, in bytes (settings.JUDGEAPP_MAX_DOCUMENT_BYTES: about five
    times the largest real one, the 2025 CR at 0.94 MB). Checked before anything is parsed
    or enqueued."""
    from django.conf import settings

    return settings.JUDGEAPP_MAX_DOCUMENT_BYTES


def pdf_limits():
    """The bounds a PDF is read within (settings JUDGEAPP_PDF_MAX_PAGES,
    JUDGEAPP_PDF_MAX_STREAM_BYTES)."""
    from django.conf import settings

    from rulesref.parsing.pdf import PdfLimits

    return PdfLimits(
        max_pages=settings.JUDGEAPP_PDF_MAX_PAGES,
        max_stream_bytes=settings.JUDGEAPP_PDF_MAX_STREAM_BYTES,
    )


def too_large(name: str, size: int) -> str:
    return (
        f"{name} is {size / 1e6:.1f} MB, more than the {document_limit() / 1e6:.1f} MB a rules "
        "document may be"
    )


FILENAME_HINTS = (  # the last resort when the text cannot tell (a binary or truncated file)
    ("comprules", DocKind.CR),
    ("comprehensive", DocKind.CR),
    ("tournamentrules", DocKind.MTR),
    ("mtr", DocKind.MTR),
    ("infraction", DocKind.IPG),
    ("ipg", DocKind.IPG),
    ("judgingatregular", DocKind.JAR),
    ("jar", DocKind.JAR),
)


class UploadRefused(services.RulesError):
    """An upload that is not stored at all (it says which document it is not, or repeats one)."""

    code = "invalid_upload"


class DocumentTooLarge(UploadRefused):
    """A file far larger than any rules document: refused before it is parsed or a task is sent."""

    code = "too_large"


class DuplicateUpload(UploadRefused):
    code = "already_stored"


class SyncError(services.RulesError):
    """sync_rules could not fetch or read a document; nothing was stored."""

    code = "sync_failed"


# ---------------------------------------------------------------- uploading


def choose_document(head: bytes, name: str, requested: str | None = None) -> Document:
    """The document an upload belongs to before it is parsed (Version.document is required).

    An explicit choice wins; otherwise the text says (detect_kind, as the parser will); a file whose
    text cannot tell (binary, cut short) is placed by its name, so it can still become a failed
    version carrying the parser's message. UploadRefused when nothing tells.
    """
    kind: DocKind | None = None
    if requested:
        try:
            kind = DocKind(requested.strip().lower())
        except ValueError:
            raise UploadRefused(
                f"unknown document {requested!r}; use one of {', '.join(services.DOC_TITLES)}",
                details={"document": requested},
            ) from None
    if kind is None:
        from rulesref.parsing.documents import detect_raw_kind

        try:
            # a PDF by its first page's title, its first pages only
            kind = detect_raw_kind(head, name, pdf_limits())
        except ParseError as exc:
            if exc.message.startswith(_REFUSED_PDF):
                raise UploadRefused(str(exc), details={"file": name, "page": exc.page}) from None
            kind = _kind_from_name(name)
            if kind is None:
                raise UploadRefused(
                    f"{exc}; say which document it is (document = "
                    f"{' | '.join(services.DOC_TITLES)})",
                    details={"document": "required"},
                ) from None
    document, _ = Document.objects.get_or_create(
        slug=kind.value, defaults={"title": services.DOC_TITLES[kind.value]}
    )
    return document


# bounds: refused in the request, never stored
_REFUSED_PDF = ("the PDF has", "a compressed stream inflates")


def _kind_from_name(name: str) -> DocKind | None:
    flat = re.sub(r"[^a-z]", "", Path(name).name.lower())
    return next((kind for hint, kind in FILENAME_HINTS if hint in flat), None)


def start_upload(upload: UploadedFile, *, uploaded_by=None, document: str | None = None) -> Version:
    """Store an uploaded file as a version being parsed and enqueue the parse (sent on commit).

    Refused (nothing stored) when the same bytes are already a stored version, or when neither the
    caller, the text nor the file name says which document it is.
    """
    from celery import current_app

    name = Path(upload.name or "upload").name
    if upload.size is not None and upload.size > document_limit():
        raise DocumentTooLarge(
            too_large(name, upload.size), details={"file": name, "limit_bytes": document_limit()}
        )
    raw = b"".join(upload.chunks())
    upload.seek(0)
    digest = services.content_hash(raw)
    same = Version.objects.select_related("document").filter(content_hash=digest).first()
    if same is not None:
        raise DuplicateUpload(
            f"{name} is already stored: {same} (version #{same.pk})",
            details={"version": same.pk, "status": same.status},
        )
    from rulesref.parsing.pdf import is_pdf

    if is_pdf(raw):
        from rulesref.parsing.pdf import count_pages

        # The page tree's count (no page read): a 10,000-page file is refused here, not in a worker.
        limits = pdf_limits()
        pages = count_pages(raw)
        if pages > limits.max_pages:
            raise UploadRefused(
                f"{name}: the PDF has {pages} pages, more than the {limits.max_pages} a rules "
                "document may have",
                details={"file": name, "pages": pages, "max_pages": limits.max_pages},
            )
    target = choose_document(raw if is_pdf(raw) else raw[:SNIFF_BYTES], name, document)
    stored_name = ""
    try:
        with transaction.atomic():
            version = Version(
                document=target,
                status=Version.Status.PARSING,
                source_name=name,
                uploaded_by=_user_or_none(uploaded_by),
                progress=0,
            )
            version.upload.save(name, upload, save=False)
            stored_name = version.upload.name or ""
            version.save()
            # Sent by its registered name: rulesref.tasks imports this module, not the reverse.
            current_app.tasks[PARSE_UPLOAD].delay_on_commit(version.pk)
    except BaseException:
        if stored_name:  # the row was rolled back: its file goes too
            version.upload.storage.delete(stored_name)
        raise
    return version


def _user_or_none(user):
    return user if user is not None and getattr(user, "is_authenticated", False) else None


def claim_upload(version_id: int) -> Version | None:
    """Mark an upload as read by a worker; None when it is no longer being parsed (done, or
    redelivered)."""
    claimed = Version.objects.filter(pk=version_id, status=Version.Status.PARSING).update(
        progress=10
    )
    return Version.objects.select_related("document").get(pk=version_id) if claimed else None


def parse_claimed_upload(version: Version) -> Version:
    """Read, parse and store a claimed upload: pending with its counts, or failed with
    "file:line: message".

    Nothing current changes either way: store_parsed only ever writes a pending version.
    """
    # an upload has a name
    source = version.source_name or Path(cast(str, version.upload.name)).name
    try:
        with version.upload.open("rb") as handle:
            raw = handle.read()
        _set_progress(version, 30)
        parsed = parse_document(raw, source, pdf_limits())
        _set_progress(version, 60)
        if parsed.doc.value != version.document.slug:
            # The sniffed or chosen document was wrong (e.g. a name hint): move the placeholder.
            Version.objects.filter(pk=version.pk).update(
                document=Document.objects.get_or_create(
                    slug=parsed.doc.value, defaults={"title": services.DOC_TITLES[parsed.doc.value]}
                )[0]
            )
            version.refresh_from_db()
        with transaction.atomic():
            # A second delivery of the same message waits here, then finds the version no
            # longer parsing.
            locked = Version.objects.select_for_update().get(pk=version.pk)
            if locked.status != Version.Status.PARSING:
                return locked
            stored, created = services.store_parsed(
                parsed, digest=services.content_hash(raw), source=source, into=locked
            )
        if not created:
            return fail_upload(
                version.pk,
                f"{source}: the same document is already stored as {stored} (version #{stored.pk})",
            )
        prepare_review(stored)
        return stored
    except ParseError as exc:
        return fail_upload(version.pk, str(exc))
    except OSError as exc:
        return fail_upload(
            version.pk, f"{source}: cannot read the uploaded file: {exc.strerror or exc}"
        )


def prepare_review(version: Version) -> None:
    """Pair the new version with the current one now, in the worker, so the review page
    opens fast."""
    baseline = baseline_for(version)
    if baseline is None:
        return
    try:
        changes.pairing(baseline, version)
    except NotImplementedError:
        pass


def fail_upload(version_id: int, error: str) -> Version:
    """A parse that cannot finish: the version becomes failed with the message (what the admin and
    the API show of the job) and its uploaded file is deleted; nothing else changes."""
    Version.objects.filter(pk=version_id, status=Version.Status.PARSING).update(
        status=Version.Status.FAILED, error=error, progress=100
    )
    version = Version.objects.get(pk=version_id)
    if version.status == Version.Status.FAILED and version.upload:
        try:
            version.upload.delete(save=False)
        except OSError:
            pass  # already gone
        Version.objects.filter(pk=version_id).update(upload="")
    return version


def _set_progress(version: Version, percent: int) -> None:
    Version.objects.filter(pk=version.pk, status=Version.Status.PARSING).update(progress=percent)
    version.progress = percent


# ---------------------------------------------------------------- reviewing


@dataclass(frozen=True)
class VersionReview:
    """What an admin reads before publishing: the version, what it replaces, what changed in it."""

    version: Version
    baseline: Version | None  # the current version (or, once published, the one it replaced)
    release_notes: list[dict] = field(default_factory=list)
    notes_unavailable: str = ""  # why there are no release notes (no baseline, differ not ready)
    changed_references: list[dict] = field(default_factory=list)
    references_unavailable: str = ""
    references_checked: int = 0
    # citing.affected_by: guides.services.guides_affected
    affected_guides: list[dict] = field(default_factory=list)


def baseline_for(version: Version) -> Version | None:
    """The version a review compares against: the current one, or for the current version the one
    it replaced."""
    if not version.is_current:
        return version.document.versions.filter(is_current=True).first()
    event = (
        VersionEvent.objects.filter(
            to_version=version,
            action__in=[VersionEvent.Action.PUBLISH, VersionEvent.Action.ROLLBACK],
        )
        .exclude(from_version=None)
        .select_related("from_version")
        .first()
    )
    if event is not None:
        return event.from_version
    # published in a batch: compare with the version before it
    return changes.previous_version(version)


def review_version(version: Version, *, with_notes: bool = True) -> VersionReview:
    """Release notes against the baseline (unless with_notes is False), and the pinned references
    whose number or text changed."""
    baseline = baseline_for(version)
    notes: list[dict] = []
    notes_missing = refs_missing = ""
    rows: list[dict] = []
    guides: list[dict] = []
    refs = [ref for ref in known_references() if ref.startswith(f"{version.document.slug}@")]
    if version.status not in (Version.Status.PENDING, Version.Status.PUBLISHED):
        notes_missing = refs_missing = (
            f"this version is {version.get_status_display().lower()}: it has no rules to compare"
        )
    elif baseline is None and version.is_current:
        notes_missing = refs_missing = (
            f"this is the first stored {version.document.slug.upper()} version: there is nothing "
            "earlier to compare against"
        )
    elif baseline is None:
        notes_missing = refs_missing = (
            f"no {version.document.slug.upper()} version is current, so there is nothing to "
            "compare against"
        )
    else:
        try:
            notes = changes.release_notes(baseline, version) if with_notes else []
        except NotImplementedError:
            notes_missing = (
                "release notes are not available yet (rulesref.changes.release_notes is not "
                "implemented)"
            )
        try:
            rows = references.review_changes(refs, baseline, version)
            guides = _guides_affected(baseline, version)
        except NotImplementedError:
            refs_missing = (
                "reference review is not available yet (the differ's rule tracing is not "
                "implemented)"
            )
    return VersionReview(
        version=version,
        baseline=baseline,
        release_notes=notes,
        notes_unavailable=notes_missing,
        changed_references=rows,
        references_unavailable=refs_missing,
        references_checked=len(refs),
        affected_guides=guides,
    )


def _guides_affected(baseline: Version, version: Version) -> list[dict]:
    """What the registered features (the guides) have that moved or changed (rulesref.citing)."""
    return citing.affected_by(baseline, version)


def known_references() -> list[str]:
    """Every pinned reference the product cites, as the features registered them
    (rulesref.citing)."""
    return citing.known_references()


# ---------------------------------------------------------------- publishing


def publish_upload(
    version: Version, *, actor=None, note: str = ""
) -> tuple[VersionEvent, VersionReview]:
    """Publish a pending version (one transaction); return the event and the cited references
    that changed."""
    event = services.publish_version(
        version, actor=_user_or_none(actor), note=note or "published after review"
    )
    version.refresh_from_db()
    return event, review_version(version, with_notes=False)


def discard_upload(version: Version, *, actor=None) -> Version:
    """Discard a pending or failed version; a published one stays (it may be rolled back to)."""
    if version.status == Version.Status.PUBLISHED:
        raise services.PublishError(f"{version} was published; roll back instead of discarding it")
    if version.status == Version.Status.DISCARDED:
        raise services.PublishError(f"version #{version.pk} is already discarded")
    if version.status == Version.Status.PARSING:
        raise services.PublishError(
            f"version #{version.pk} is still being parsed; wait for it to finish"
        )
    services.discard_version(version, actor=_user_or_none(actor))
    version.refresh_from_db()
    return version


def roll_back(
    doc: str,
    *,
    to_date: str | None = None,
    to_version: Version | None = None,
    from_date: str | None = None,
    actor=None,
) -> VersionEvent:
    """Make an earlier published version of a document current again (default: the one
    current before). `from_date` names the version the caller expects to leave: when another is
    current, nothing changes (NotCurrentAnyMore, 409)."""
    current = services.get_version(doc)
    leaving = None
    if from_date:
        leaving = services.get_version(doc, version=from_date, include_pending=True)
        if leaving.pk != current.pk:
            raise services.NotCurrentAnyMore(
                f"{leaving} is not current any more ({current} is): another publish or roll-back "
                "came first",
                details={"current": current.effective_date.isoformat()},
            )
    if to_version is None and to_date:
        to_version = services.get_version(doc, version=to_date, include_pending=True)
    if to_version is not None and to_version.document_id != current.document_id:
        raise services.PublishError(f"version #{to_version.pk} is not a {doc.upper()} version")
    return services.rollback_document(
        current.document, to_version=to_version, actor=_user_or_none(actor), leaving=leaving
    )


def rollback_choices(document: Document) -> list[Version]:
    """Versions a roll-back may return to: published before, not current, newest first."""
    return list(
        document.versions.filter(status=Version.Status.PUBLISHED, is_current=False).order_by(
            "-effective_date", "-id"
        )
    )


# ---------------------------------------------------------------- syncing


@dataclass(frozen=True)
class SyncOutcome:
    url: str
    doc: str
    effective_date: str
    version_id: int
    created: bool
    rules: int

    def summary(self) -> str:
        state = "stored as pending" if self.created else "already stored as"
        return (
            f"{self.url}: {self.doc.upper()} {self.effective_date} {state} version "
            f"#{self.version_id} ({self.rules} rules)"
        )


def fetch_document(url: str, *, timeout: float) -> bytes:
    """The bytes at a URL; SyncError naming the URL when it cannot be fetched."""
    try:
        request = urllib.request.Request(url, headers={"User-Agent": "judgeapp-sync-rules"})
        with urllib.request.urlopen(request, timeout=timeout) as response:  # noqa: S310 (URLs come from settings or the admin)
            raw = response.read(document_limit() + 1)
    except urllib.error.HTTPError as exc:
        raise SyncError(
            f"cannot fetch {url}: the server answered {exc.code} {exc.reason}", details={"url": url}
        ) from None
    except urllib.error.URLError as exc:
        raise SyncError(
            f"cannot fetch {url}: {exc.reason} (no network, or the address is wrong)",
            details={"url": url},
        ) from None
    except (TimeoutError, OSError) as exc:
        raise SyncError(
            f"cannot fetch {url}: {exc or exc.__class__.__name__} (timed out after {timeout:g} s?)",
            details={"url": url},
        ) from None
    except ValueError as exc:
        raise SyncError(f"cannot fetch {url}: {exc}", details={"url": url}) from None
    if len(raw) > document_limit():
        raise SyncError(
            f"{url} is more than {document_limit() / 1e6:.1f} MB; not a rules document",
            details={"url": url},
        )
    return raw


def sync_documents(urls: Sequence[str], *, timeout: float = 20.0, actor=None) -> list[SyncOutcome]:
    """Fetch and parse every URL, then store the new documents as pending versions. Never publishes.

    Every URL is fetched and parsed before anything is written, so one that fails (no network, a
    bad address, a file the parser refuses) raises SyncError naming it and changes nothing.
    """
    if not urls:
        raise SyncError("no URLs to fetch: set JUDGEAPP_SYNC_URLS or pass --url")
    fetched = []
    for url in urls:
        raw = fetch_document(url, timeout=timeout)
        source = urllib.parse.unquote(Path(urllib.parse.urlparse(url).path).name) or url
        try:
            fetched.append((url, source, parse_document(raw, source), services.content_hash(raw)))
        except ParseError as exc:
            raise SyncError(
                f"{url} is not a rules document the parser accepts: {exc}", details={"url": url}
            ) from None
    outcomes = []
    with transaction.atomic():
        for url, source, parsed, digest in fetched:
            try:
                version, created = services.store_parsed(
                    parsed, digest=digest, source=source, uploaded_by=_user_or_none(actor)
                )
            except ParseError as exc:
                raise SyncError(f"{url}: {exc}", details={"url": url}) from None
            outcomes.append(
                SyncOutcome(
                    url,
                    parsed.doc.value,
                    version.effective_date.isoformat(),
                    version.pk,
                    created,
                    version.rule_count,
                )
            )
    return outcomes
