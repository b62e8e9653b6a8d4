"""API tokens: issue one for a client (shown once), find the token a request names.

A key is 32 random bytes (URL-safe text); the table keeps its SHA-256 digest, so a request costs one
cheap hash and one indexed lookup (a password costs PBKDF2's million iterations), and a copy of the
table gives no usable key.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import secrets

from django.utils import timezone

from judgeapp.models import ApiToken

TOUCH_EVERY = dt.timedelta(minutes=1)  # last_used_at is written at most this often


def digest(key: str) -> str:
    return hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()


def issue_token(user, name: str) -> tuple[ApiToken, str]:
    """A new token for `user`: (the row, the key). The key is not kept: hand it over now."""
    key = secrets.token_urlsafe(32)
    token = ApiToken.objects.create(user=user, name=name, prefix=key[:8], digest=digest(key))
    return token, key


def fill_new_token(token: ApiToken) -> str:
    """For a row built elsewhere (the admin's form): give it a key; returns the key."""
    key = secrets.token_urlsafe(32)
    token.prefix, token.digest = key[:8], digest(key)
    return key


def find_token(key: str) -> ApiToken | None:
    """The active user's token with this key, or None; notes when it was last used."""
    token = (
        ApiToken.objects.select_related("user")
        .filter(digest=digest(key), user__is_active=True)
        .first()
    )
    if token is not None:
        now = timezone.now()
        if token.last_used_at is None or now - token.last_used_at > TOUCH_EVERY:
            ApiToken.objects.filter(pk=token.pk).update(last_used_at=now)
    return token
