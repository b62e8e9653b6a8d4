"""Jobs: computations (loop, game and shuffle outcomes) that Celery workers run."""

from __future__ import annotations

import uuid

from django.conf import settings
from django.db import models


class Job(models.Model):
    class Kind(models.TextChoices):
        LOOP_OUTCOME = "loop-outcome", "Loop outcome"
        GAME_OUTCOME = "game-outcome", "Game outcome"
        SHUFFLE_ANALYSIS = "shuffle-analysis", "Shuffle analysis"
        RULES_IMPORT = "rules-import", "Rules import"

    class Status(models.TextChoices):
        QUEUED = "queued", "Queued"
        RUNNING = "running", "Running"
        SUCCEEDED = "succeeded", "Succeeded"
        FAILED = "failed", "Failed"

    # The id clients see (API and URLs): random, so one client cannot read another's input
    # by counting.
    public_id = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    kind = models.CharField(max_length=20, choices=Kind.choices)
    input = models.JSONField(default=dict)
    status = models.CharField(
        max_length=10, choices=Status.choices, default=Status.QUEUED, db_index=True
    )
    result = models.JSONField(null=True, blank=True)
    error = models.TextField(blank=True)
    attempts = models.PositiveSmallIntegerField(default=0)
    worker = models.CharField(max_length=200, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    # When the broker accepted the job's message; null while it waits to be sent (jobs.dispatch).
    sent_at = models.DateTimeField(null=True, blank=True)
    started_at = models.DateTimeField(null=True, blank=True)
    # Renewed every few seconds by the worker running the job (jobs.running.heartbeat); a running
    # job whose heartbeat stopped lost its worker (jobs.recovery).
    heartbeat_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )

    class Meta:
        # the table kept its name when the model moved here (jobs/migrations/0001)
        db_table = "judgeapp_job"
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"{self.kind} #{self.pk} ({self.status})"

    @property
    def duration_ms(self) -> float | None:
        if self.started_at and self.finished_at:
            return (self.finished_at - self.started_at).total_seconds() * 1000
        return None
