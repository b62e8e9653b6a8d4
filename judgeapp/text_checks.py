"""Text the database cannot hold alike everywhere: NUL (PostgreSQL refuses it, SQLite keeps it) and
unpaired UTF-16 surrogates (not valid Unicode text; neither driver encodes them). Refused
with 400."""

from __future__ import annotations

import re
from typing import Any

_BAD = re.compile("[\x00\ud800-\udfff]")


def bad_text_reason(text: str) -> str | None:
    """Why a string is refused, or None when it is fine."""
    found = _BAD.search(text)
    if found is None:
        return None
    return (
        "holds a NUL character"
        if found.group() == "\x00"
        else "holds an unpaired surrogate character"
    )


def find_bad_text(value: Any, path: str = "body") -> tuple[str, str] | None:
    """(field path, reason) of the first bad string in parsed JSON (keys included), or None.
    Iterative: the depth was limited by the parser, but no recursion is needed."""
    stack: list[tuple[Any, str]] = [(value, path)]
    while stack:
        item, where = stack.pop()
        if isinstance(item, str):
            reason = bad_text_reason(item)
            if reason:
                return where, reason
        elif isinstance(item, dict):
            for key, inner in item.items():
                reason = bad_text_reason(key) if isinstance(key, str) else None
                if reason:
                    return f"{where}.{key.encode('unicode_escape').decode()}", f"key {reason}"
                stack.append((inner, key if where == "body" else f"{where}.{key}"))
        elif isinstance(item, list):
            stack.extend((inner, f"{where}[{i}]") for i, inner in enumerate(item))
    return None


def depth_of(value: Any) -> int:
    """How deeply arrays and objects nest (a scalar: 0)."""
    deepest = 0
    stack: list[tuple[Any, int]] = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            stack.extend((inner, depth + 1) for inner in item.values())
            deepest = max(deepest, depth + 1)
        elif isinstance(item, list):
            stack.extend((inner, depth + 1) for inner in item)
            deepest = max(deepest, depth + 1)
    return deepest
