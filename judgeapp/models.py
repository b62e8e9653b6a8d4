"""Jobs: computations (loop, game and shuffle outcomes) that Celery workers run."""

from __future__ import annotations

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

    kind = models.CharField(max_length=20, choices=Kind.choices)
    input = models.JSONField(default=dict)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.QUEUED, db_index=True)
    result = models.JSONField(null=True, blank=True)
    error = models.TextField(blank=True)
    attempts = models.PositiveSmallIntegerField(default=0)
    worker = models.CharField(max_length=200, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"{self.kind} #{self.pk} ({self.status})"

    @property
    def duration_ms(self) -> float | None:
        if self.started_at and self.finished_at:
            return (self.finished_at - self.started_at).total_seconds() * 1000
        return None


# The call log (judgeapp.calllog): events, their judges, and the calls made with the guides.


class Event(models.Model):
    """A tournament whose calls are logged; its judges (EventJudge) are the only ones who see them."""

    class Rel(models.TextChoices):
        REGULAR = "regular", "Regular"
        COMPETITIVE = "competitive", "Competitive"
        PROFESSIONAL = "professional", "Professional"

    name = models.CharField(max_length=200)
    date = models.DateField()
    rel = models.CharField("REL", max_length=12, choices=Rel.choices, default=Rel.COMPETITIVE)
    head_judge = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="headed_events")
    judges = models.ManyToManyField(settings.AUTH_USER_MODEL, through="EventJudge", related_name="judged_events")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-date", "-id"]

    def __str__(self) -> str:
        return f"{self.name} ({self.date})"


class EventJudge(models.Model):
    class Role(models.TextChoices):
        HEAD = "head", "Head judge"
        FLOOR = "floor", "Floor judge"

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="memberships")
    judge = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="event_memberships")
    role = models.CharField(max_length=5, choices=Role.choices, default=Role.FLOOR)
    added_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["event", "judge"], name="one_membership_per_judge")]

    def __str__(self) -> str:
        return f"{self.judge} at {self.event} ({self.role})"


class Call(models.Model):
    """One guide run at a table: the answers given (the guide is replayed from slug + answers), and a
    snapshot of what was shown (ruling, fix, penalty at the event's REL after upgrades, citations
    resolved at the time), so a later rules version never rewrites the record."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="calls")
    judge = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="calls")
    client_id = models.UUIDField()              # from the tablet: a call queued offline and sent twice is stored once
    guide = models.CharField(max_length=100)    # slug
    guide_title = models.CharField(max_length=200, blank=True)
    answers = models.JSONField(default=list)
    conclusion = models.CharField(max_length=100)  # node id
    table = models.CharField(max_length=20, blank=True)
    round = models.PositiveSmallIntegerField(null=True, blank=True)
    day = models.PositiveSmallIntegerField(default=1)  # tournament day: upgrade counts reset between days
    players = models.JSONField(default=list)
    offender = models.CharField(max_length=200, blank=True)   # the player who receives the penalty
    offender_key = models.CharField(max_length=200, blank=True, db_index=True)  # casefolded, for matching
    ruling = models.TextField(blank=True)
    fix = models.TextField(blank=True)
    infraction = models.CharField(max_length=100, blank=True)
    category = models.CharField(max_length=40, blank=True)
    base_penalty = models.CharField(max_length=100, blank=True)  # the guide's penalty at the event's REL
    penalty = models.CharField(max_length=100, blank=True)       # after upgrades: what the player received
    upgraded = models.BooleanField(default=False)
    upgrade_reason = models.TextField(blank=True)
    citations = models.JSONField(default=list)
    investigation_notes = models.TextField(blank=True)            # head judges only
    created_at = models.DateTimeField()                           # the tablet's time when it sent one
    received_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [models.UniqueConstraint(fields=["event", "client_id"], name="one_call_per_client_id")]

    def __str__(self) -> str:
        return f"call #{self.pk} {self.guide}/{self.conclusion} at {self.event_id}"
