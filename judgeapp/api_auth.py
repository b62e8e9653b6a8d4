"""Basic authentication for the API that django-axes can lock out like the sign-in page.

DRF hands its own Request wrapper to authenticate(); axes marks a locked-out request on the object
it receives, and its middleware reads the Django request. Passing the Django request makes a lockout
answer 429 `locked_out` (judgeapp.api_guard.locked_out) instead of "invalid username/password".
"""

from __future__ import annotations

from rest_framework.authentication import BasicAuthentication


class LockableBasicAuthentication(BasicAuthentication):
    def authenticate_credentials(self, userid, password, request=None):
        return super().authenticate_credentials(
            userid, password, getattr(request, "_request", request)
        )
