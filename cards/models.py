"""Cards as Scryfall publishes them (one per Oracle id), their rulings, and the imports that
filled them."""

from __future__ import annotations

from django.db import models


class Card(models.Model):
    oracle_id = models.UUIDField(unique=True)
    name = models.CharField(max_length=300)
    name_key = models.CharField(max_length=300, db_index=True)  # cards.names.name_key(name)
    face_keys = models.JSONField(default=list)  # name keys of each face ("Fire", "Ice")
    layout = models.CharField(max_length=40, blank=True)
    mana_cost = models.CharField(max_length=100, blank=True)
    type_line = models.CharField(max_length=300, blank=True)
    oracle_text = models.TextField(blank=True)
    colour_identity = models.JSONField(default=list)
    keywords = models.JSONField(default=list)
    legalities = models.JSONField(default=dict)
    faces = models.JSONField(default=list)  # [{"name", "mana_cost", "type_line", "oracle_text"}]
    scryfall_uri = models.URLField(max_length=500, blank=True)

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


class CardRuling(models.Model):
    card = models.ForeignKey(Card, on_delete=models.CASCADE, related_name="rulings")
    published_at = models.DateField()
    source = models.CharField(max_length=20)  # "wotc" or "scryfall"
    comment = models.TextField()

    class Meta:
        ordering = ["published_at", "id"]

    def __str__(self) -> str:
        return f"{self.card} {self.published_at}"


class CardSync(models.Model):
    """One import of the bulk files (import_cards, sync_cards or the daily task): what it read, how
    far it got, and a message an admin can read when it failed. The card table changes only when
    it succeeds."""

    class Status(models.TextChoices):
        RUNNING = "running", "Running"
        SUCCEEDED = "succeeded", "Succeeded"
        FAILED = "failed", "Failed"
        UNCHANGED = "unchanged", "Already current"

    source = models.CharField(max_length=500)
    # Scryfall's updated_at of the files
    bulk_updated_at = models.CharField(max_length=40, blank=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.RUNNING)
    # "downloading oracle_cards", "reading rulings" …
    stage = models.CharField(max_length=100, blank=True)
    cards_read = models.PositiveIntegerField(default=0)
    rulings_read = models.PositiveIntegerField(default=0)
    added = models.PositiveIntegerField(default=0)
    updated = models.PositiveIntegerField(default=0)
    removed = models.PositiveIntegerField(default=0)
    message = models.TextField(blank=True)
    started_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-started_at", "-id"]

    def __str__(self) -> str:
        return f"card sync #{self.pk} ({self.status})"
