"""The rules app's errors: a request about rules that cannot be met, each with its API
error code."""

from __future__ import annotations


class RulesError(Exception):
    """A request about rules that cannot be met; `code` is the API error code."""

    code = "invalid"

    def __init__(self, message: str, *, details: dict | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.details = details or {}


class NotFound(RulesError):
    code = "not_found"


class PublishError(RulesError):
    code = "cannot_publish"


class NotCurrentAnyMore(PublishError):
    """A roll-back named the version it expected to leave, and another is current now (someone
    else published or rolled back meanwhile)."""

    code = "conflict"
