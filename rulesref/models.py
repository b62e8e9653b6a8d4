"""Rules documents stored in every version: Document, Version (pending/published), Rule,
GlossaryTerm."""

from __future__ import annotations

import datetime as dt

from django.conf import settings
from django.db import models
from django.db.models import Q


class Document(models.Model):
    """One rules document (CR, MTR, IPG, JAR); its versions hang off it."""

    slug = models.CharField(max_length=8, unique=True)  # cr, mtr, ipg, jar
    title = models.CharField(max_length=200)

    class Meta:
        ordering = ["slug"]

    def __str__(self) -> str:
        return self.slug.upper()

    @property
    def current_version(self) -> Version | None:
        return self.versions.filter(is_current=True).first()


class Version(models.Model):
    """One dated version of a document. Exactly one published version of a document is current."""

    class Status(models.TextChoices):
        PARSING = "parsing", "Parsing"
        PENDING = "pending", "Pending review"
        PUBLISHED = "published", "Published"
        FAILED = "failed", "Failed"
        DISCARDED = "discarded", "Discarded"

    document = models.ForeignKey(Document, on_delete=models.CASCADE, related_name="versions")
    # Typed as a date: only an upload still parsing (or failed) has none, and the code that reads
    # dates reads them from versions that were parsed; a null shows there as the error it is, at
    # run time.
    effective_date: models.DateField[dt.date | None, dt.date] = models.DateField(  # type: ignore[misc]  # nullable: see above
        null=True, blank=True
    )
    title = models.CharField(max_length=200, blank=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    is_current = models.BooleanField(default=False)
    content_hash = models.CharField(max_length=64, blank=True)
    source_name = models.CharField(max_length=300, blank=True)
    upload = models.FileField(upload_to="rules-uploads/", blank=True)
    rule_count = models.PositiveIntegerField(default=0)
    example_count = models.PositiveIntegerField(default=0)
    glossary_count = models.PositiveIntegerField(default=0)
    progress = models.PositiveSmallIntegerField(default=0)  # percent, while a task parses an upload
    error = models.TextField(blank=True)  # parser message (file, line) of a failed upload
    notes = models.TextField(blank=True)
    imported_at = models.DateTimeField(auto_now_add=True)
    published_at = models.DateTimeField(null=True, blank=True)
    uploaded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering = ["document__slug", "-effective_date", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["document"], condition=Q(is_current=True), name="one_current_version"
            ),
            models.UniqueConstraint(
                fields=["document", "content_hash"],
                condition=~Q(content_hash=""),
                name="unique_version_content",
            ),
        ]

    def __str__(self) -> str:
        date = self.effective_date.isoformat() if self.effective_date else "undated"
        return (
            f"{self.document.slug.upper()} {date} "
            f"({self.get_status_display()}{', current' if self.is_current else ''})"
        )


class Rule(models.Model):
    """A numbered rule, subrule, section or chapter of one version, in document order."""

    version = models.ForeignKey(Version, on_delete=models.CASCADE, related_name="rules")
    number = models.CharField(max_length=20)
    position = models.PositiveIntegerField()
    kind = models.CharField(max_length=10)
    title = models.CharField(max_length=300, blank=True)
    text = models.TextField(blank=True)
    examples = models.JSONField(default=list, blank=True)
    parent = models.CharField(max_length=20, blank=True)
    references = models.JSONField(default=list, blank=True)
    aliases = models.JSONField(default=list, blank=True)
    fields = models.JSONField(default=dict, blank=True)
    line = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["version", "position"]
        constraints = [
            models.UniqueConstraint(fields=["version", "number"], name="unique_rule_number")
        ]

    def __str__(self) -> str:
        return f"{self.number} {self.title}".strip()


class GlossaryTerm(models.Model):
    version = models.ForeignKey(Version, on_delete=models.CASCADE, related_name="glossary")
    term = models.CharField(max_length=200)
    key = models.CharField(max_length=200, db_index=True)  # casefolded term for lookups
    definition = models.TextField()
    aliases = models.JSONField(default=list, blank=True)
    references = models.JSONField(default=list, blank=True)
    position = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["version", "position"]

    def __str__(self) -> str:
        return self.term


class VersionEvent(models.Model):
    """Audit trail: every publish, roll-back, discard — who, when, from which version to which."""

    class Action(models.TextChoices):
        IMPORT = "import", "Imported"
        PUBLISH = "publish", "Published"
        ROLLBACK = "rollback", "Rolled back"
        DISCARD = "discard", "Discarded"

    document = models.ForeignKey(Document, on_delete=models.CASCADE, related_name="events")
    action = models.CharField(max_length=10, choices=Action.choices)
    from_version = models.ForeignKey(
        Version, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    to_version = models.ForeignKey(
        Version, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )
    at = models.DateTimeField(auto_now_add=True)
    note = models.TextField(blank=True)

    class Meta:
        ordering = ["-at", "-id"]


class VersionPairing(models.Model):
    """Cached result of matching two versions' rules: old number -> new number, plus the
    full diff."""

    old = models.ForeignKey(Version, on_delete=models.CASCADE, related_name="+")
    new = models.ForeignKey(Version, on_delete=models.CASCADE, related_name="+")
    # old number -> new number, for every rule that survived
    mapping = models.JSONField(default=dict)
    diff = models.JSONField(default=dict)  # RulesDiff.to_dict()
    computed_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["old", "new"], name="unique_pairing")]
