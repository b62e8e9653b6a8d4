"""The project package's own table: API tokens, one per client (a bot, a scorekeeper's script),
kept as a SHA-256 digest of the key; judgeapp.api_tokens issues and checks them."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class ApiToken(models.Model):
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_tokens"
    )
    name = models.CharField(max_length=100, help_text="Which client holds it, e.g. 'round bot'.")
    # the key's first characters, to tell tokens apart in lists; the key itself is never stored
    prefix = models.CharField(max_length=8, editable=False)
    digest = models.CharField(max_length=64, unique=True, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)
    last_used_at = models.DateTimeField(null=True, blank=True, editable=False)

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = "API token"

    def __str__(self) -> str:
        return f"{self.name} ({self.prefix}…, {self.user})"
