"""How API clients sign in: a token per client (`Authorization: Token <key>` or `Bearer <key>`),
or basic auth that django-axes can lock out like the sign-in page.

Both refuse at once (429) an address that failed to authenticate too often lately, whatever the
username, before any password is hashed (judgeapp.api_limits); every failure counts. A right
basic-auth password is remembered for JUDGEAPP_BASIC_AUTH_CACHE_SECONDS under a keyed SHA-256 of the
credentials, so a client sending it on every request pays PBKDF2 once; it is forgotten when the
password changes and when any wrong password is sent for that username (so a lockout still holds).

DRF hands its own Request wrapper to authenticate(); axes marks a locked-out request on the object
it receives, and its middleware reads the Django request. Passing the Django request makes a lockout
answer 429 `locked_out` (judgeapp.api_guard.locked_out) instead of "invalid username/password".
"""

from __future__ import annotations

import hashlib
import hmac

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.cache import caches
from rest_framework import exceptions
from rest_framework.authentication import (
    BaseAuthentication,
    BasicAuthentication,
    get_authorization_header,
)

# judgeapp.api_limits is imported in the functions: DRF's settings import this module while
# rest_framework.views is still loading, and api_limits needs the API's errors, which need it.

TOKEN_KEYWORDS = (b"token", b"bearer")


def _keyed(*parts: str) -> str:
    message = "\0".join(parts).encode("utf-8", "surrogatepass")
    return hmac.new(settings.SECRET_KEY.encode(), message, hashlib.sha256).hexdigest()


class ApiTokenAuthentication(BaseAuthentication):
    def authenticate(self, request):
        from judgeapp import api_limits

        parts = get_authorization_header(request).split()
        if not parts or parts[0].lower() not in TOKEN_KEYWORDS:
            return None
        api_limits.refuse_if_failing(request)
        if len(parts) != 2:
            api_limits.count_failure(request)
            raise exceptions.AuthenticationFailed("Send 'Authorization: Token <key>'.")
        from judgeapp import api_tokens

        try:
            key = parts[1].decode("ascii")
        except UnicodeDecodeError:
            key = ""
        token = api_tokens.find_token(key) if key else None
        if token is None:
            api_limits.count_failure(request)
            raise exceptions.AuthenticationFailed("Invalid or revoked API token.")
        return token.user, token

    def authenticate_header(self, request) -> str:
        return 'Token realm="api"'


class LockableBasicAuthentication(BasicAuthentication):
    def authenticate(self, request):
        from judgeapp import api_limits

        parts = get_authorization_header(request).split()
        if not parts or parts[0].lower() != b"basic":
            return None
        api_limits.refuse_if_failing(request)
        try:
            return super().authenticate(request)
        except exceptions.AuthenticationFailed:
            api_limits.count_failure(request)
            raise

    def authenticate_credentials(self, userid, password, request=None):
        store = caches["limits"]
        seconds = settings.JUDGEAPP_BASIC_AUTH_CACHE_SECONDS
        generation_key = f"basic-gen:{_keyed(userid)}"
        try:
            generation = str(store.get(generation_key, 0)) if seconds > 0 else ""
            remembered = store.get(f"basic:{_keyed(generation, userid, password)}")
        except Exception:  # the store is down: check the password the slow way
            generation, remembered = "", None
        if remembered is not None:
            user = get_user_model().objects.filter(pk=remembered[0], is_active=True).first()
            if user is not None and hmac.compare_digest(remembered[1], _keyed(user.password)):
                return user, None
        try:
            user, auth = super().authenticate_credentials(
                userid, password, getattr(request, "_request", request)
            )
        except exceptions.AuthenticationFailed:
            self._forget_successes(generation_key)
            raise
        if seconds > 0 and generation:
            try:
                store.set(
                    f"basic:{_keyed(generation, userid, password)}",
                    (user.pk, _keyed(user.password)),
                    timeout=seconds,
                )
            except Exception:
                pass  # not remembered: the next request hashes again
        return user, auth

    @staticmethod
    def _forget_successes(generation_key: str) -> None:
        """A wrong password for this username: remembered right ones stop counting."""
        store = caches["limits"]
        try:
            store.add(generation_key, 0, timeout=2 * settings.JUDGEAPP_BASIC_AUTH_CACHE_SECONDS + 1)
            store.incr(generation_key)
        except Exception:
            pass
