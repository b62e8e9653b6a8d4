"""The one error the computation engines raise for bad input: which field, and what is wrong
with it."""

from __future__ import annotations


class RequestError(ValueError):
    """Invalid engine input. ``field`` is a path into the request, e.g. "declared.AP" or
    "iteration[1].player"."""

    def __init__(self, field: str, message: str) -> None:
        self.field = field
        self.message = message
        super().__init__(f"{field}: {message}")
