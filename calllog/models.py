"""The call log: events, their judges, and the calls made with the guides."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class Event(models.Model):
    """A tournament whose calls are logged; its judges (EventJudge) are the only ones who
    see them."""

    class Rel(models.TextChoices):
        REGULAR = "regular", "Regular"
        COMPETITIVE = "competitive", "Competitive"
        PROFESSIONAL = "professional", "Professional"

    name = models.CharField(max_length=200)
    date = models.DateField()
    rel = models.CharField("REL", max_length=12, choices=Rel.choices, default=Rel.COMPETITIVE)
    head_judge = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="headed_events"
    )
    judges = models.ManyToManyField(
        settings.AUTH_USER_MODEL, through="EventJudge", related_name="judged_events"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        db_table = "judgeapp_event"  # kept from before the move (calllog/migrations/0001)
        ordering = ["-date", "-id"]

    def __str__(self) -> str:
        return f"{self.name} ({self.date})"


class EventJudge(models.Model):
    class Role(models.TextChoices):
        HEAD = "head", "Head judge"
        FLOOR = "floor", "Floor judge"

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="memberships")
    judge = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="event_memberships"
    )
    role = models.CharField(max_length=5, choices=Role.choices, default=Role.FLOOR)
    added_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        db_table = "judgeapp_eventjudge"  # kept from before the move (calllog/migrations/0001)
        constraints = [
            models.UniqueConstraint(fields=["event", "judge"], name="one_membership_per_judge")
        ]

    def __str__(self) -> str:
        return f"{self.judge} at {self.event} ({self.role})"


class Call(models.Model):
    """One guide run at a table: the answers given (the guide is replayed from slug + answers), and
    a snapshot of what was shown (ruling, fix, penalty at the event's REL after upgrades, citations
    resolved at the time), so a later rules version never rewrites the record."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="calls")
    judge = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="calls"
    )
    # from the tablet: a call queued offline and sent twice is stored once
    client_id = models.UUIDField()
    guide = models.CharField(max_length=100)  # slug
    guide_title = models.CharField(max_length=200, blank=True)
    answers = models.JSONField(default=list)
    conclusion = models.CharField(max_length=100)  # node id
    table = models.CharField(max_length=20, blank=True)
    round = models.PositiveSmallIntegerField(null=True, blank=True)
    # tournament day: upgrade counts reset between days
    day = models.PositiveSmallIntegerField(default=1)
    players = models.JSONField(default=list)
    offender = models.CharField(max_length=200, blank=True)  # the player who receives the penalty
    # casefolded, for matching
    offender_key = models.CharField(max_length=200, blank=True, db_index=True)
    ruling = models.TextField(blank=True)
    fix = models.TextField(blank=True)
    infraction = models.CharField(max_length=100, blank=True)
    category = models.CharField(max_length=40, blank=True)
    # 500: a Regular REL penalty is the JAR's handling in a sentence (longer than 100 characters).
    # Penalties are written one way (penalties.penalty_label): "Warning", never "Warning (Tournament
    # Error - ...)". the guide's penalty at the event's REL
    base_penalty = models.CharField(max_length=500, blank=True)
    # what the player received: the one given at the table
    penalty = models.CharField(max_length=500, blank=True)
    upgraded = models.BooleanField(default=False)  # `penalty` is an upgrade by count
    upgrade_reason = models.TextField(blank=True)  # the server's count (computed_penalty's reason)
    # Issue 27: the penalty the tablet showed and the judge announced ("" from a client that did not
    # say; then `penalty` is the computed one), the server's penalty from the player's history when
    # it stored the call, and the flag for the head judge when the two differ (a call saved
    # offline, unchecked).
    announced_penalty = models.CharField(max_length=500, blank=True)
    computed_penalty = models.CharField(max_length=500, blank=True)
    needs_review = models.BooleanField(default=False, db_index=True)
    review_reason = models.TextField(blank=True)
    citations = models.JSONField(default=list)
    investigation_notes = models.TextField(blank=True)  # head judges only
    # Issue 13: a call recorded straight from the IPG (no guide) has guide "" and the IPG
    # section here.
    ipg_section = models.CharField(max_length=20, blank=True)
    rel = models.CharField("REL", max_length=12, blank=True)  # the REL the call was judged at
    # minutes given at the table
    time_extension = models.PositiveSmallIntegerField(null=True, blank=True)
    updated_at = models.DateTimeField(null=True, blank=True)  # last edit (CallRevision keeps each)
    created_at = models.DateTimeField()  # the tablet's time when it sent one
    received_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        db_table = "judgeapp_call"  # kept from before the move (calllog/migrations/0001)
        ordering = ["-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(fields=["event", "client_id"], name="one_call_per_client_id")
        ]

    def __str__(self) -> str:
        return f"call #{self.pk} {self.guide}/{self.conclusion} at {self.event_id}"

    @property
    def head_judge_note(self) -> str:
        """IPG 1.2's word to report the call to the Head Judge, while the penalty it records is a
        Game Loss or more at Competitive or Professional REL ("" otherwise, for Tardiness and
        Decklist Problem, and where the ruling or fix already sends it to the Head Judge)."""
        from calllog import penalties
        from guides.loader import HEAD_JUDGE_NOTE, needs_head_judge

        infraction = penalties.infraction_name(self.infraction)
        if self.rel == "regular" or not needs_head_judge(
            self.penalty, infraction, f"{self.fix} {self.ruling}"
        ):
            return ""
        return HEAD_JUDGE_NOTE


class Player(models.Model):
    """A player on an event's list, kept by its judges; calls name players by this list's spelling,
    so one typo does not split a player's penalty history (renaming a player renames them in
    the calls)."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="players")
    name = models.CharField(max_length=200)
    key = models.CharField(max_length=200)  # casefolded, spaces collapsed: how names are matched
    added_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    added_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["key", "id"]
        constraints = [
            models.UniqueConstraint(fields=["event", "key"], name="one_player_per_name_per_event")
        ]

    def __str__(self) -> str:
        return f"{self.name} at {self.event_id}"


class CallRevision(models.Model):
    """One change to a saved call: who, when, and each field's value before and after
    ({"field": [old, new]}); a call's history is its revisions, oldest first."""

    call = models.ForeignKey(Call, on_delete=models.CASCADE, related_name="revisions")
    editor = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    edited_at = models.DateTimeField(auto_now_add=True)
    changes = models.JSONField(default=dict)
    reason = models.TextField(blank=True)

    class Meta:
        ordering = ["edited_at", "id"]

    def __str__(self) -> str:
        return f"revision #{self.pk} of call #{self.call_id}"
