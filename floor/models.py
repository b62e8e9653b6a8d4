"""The round clock: one row per round an event's head judge starts."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class RoundClock(models.Model):
    event = models.ForeignKey("calllog.Event", on_delete=models.CASCADE, related_name="clocks")
    round = models.PositiveSmallIntegerField()
    minutes = models.PositiveSmallIntegerField()  # the round's length, extra minutes added included
    started_at = models.DateTimeField()
    paused_at = models.DateTimeField(null=True, blank=True)  # set while paused
    paused_seconds = models.FloatField(default=0)  # pauses already over
    ended_at = models.DateTimeField(null=True, blank=True)  # ended by hand before time ran out
    # The client_id of each minute added from a tablet's queue (offline at the time): one sent
    # twice (a reply lost on the way back) is added once.
    added_by_client = models.JSONField(default=list, blank=True)
    started_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering = ["-started_at", "-id"]

    def __str__(self) -> str:
        return f"round {self.round} clock of event {self.event_id}"
