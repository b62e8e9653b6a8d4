"""A computed result's fields in words, for a conclusion a judge reads aloud: never a raw dict, list
or JSON. Pure (standard library only).

    describe("final_state", {"Active player": {"life": 20, "poison": 0}})
        -> ["Active player: 20 life, 0 poison"]
    describe("game_over", {"losers": ["B"], "draw": False}) -> ["Losers: B", "Draw: no"]
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

MAX_LINES = 60


def label(name: str) -> str:
    """A field name as words: "final_state" -> "Final state", "result.stopped_by" ->
    "Stopped by"."""
    words = name.rsplit(".", 1)[-1].replace("_", " ").strip()
    return words[:1].upper() + words[1:]


def describe(name: str, value: Any) -> list[str]:
    """The lines that say `value` in words ([] when there is nothing to say)."""
    if value is None or value == "" or value == [] or value == {}:
        return []
    if isinstance(value, Mapping):
        lines = [line for key, item in value.items() for line in _entry(str(key), item)]
    elif isinstance(value, (list, tuple)):
        lines = [line for item in value for line in _item(item)]
    else:
        lines = [scalar(value)]
    return [line for line in lines if line][:MAX_LINES]


_ONE_TIMES = re.compile(r"(?<![\d,.])\b1 times\b")


def scalar(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return (
            f"{value:.3g}"
            if abs(value) < 1e-3 and value
            else f"{value:.3f}".rstrip("0").rstrip(".")
        )
    if value is None:
        return "none"
    # A computed sentence counts "performed 1 times": said to the players as "performed once".
    return _ONE_TIMES.sub("once", " ".join(str(value).split()))


def _entry(key: str, value: Any) -> list[str]:
    """One key of a mapping: "Key: value", a nested mapping inline ("Active player: 20 life,
    0 poison")."""
    if value is None or value == "" or value == [] or value == {}:
        return []
    if isinstance(value, Mapping):
        return [f"{label(key)}: {inline(value)}"]
    if isinstance(value, (list, tuple)):
        return [f"{label(key)}: {'; '.join(_phrase(v) for v in value)}"]
    return [f"{label(key)}: {scalar(value)}"]


def _item(value: Any) -> list[str]:
    if isinstance(value, Mapping):
        return [inline(value)]
    if isinstance(value, (list, tuple)):
        return ["; ".join(_phrase(v) for v in value)]
    return [scalar(value)]


def _phrase(value: Any) -> str:
    if isinstance(value, Mapping):
        return inline(value)
    if isinstance(value, (list, tuple)):
        return ", ".join(_phrase(v) for v in value)
    return scalar(value)


def inline(mapping: Mapping) -> str:
    """A mapping as one phrase: counts as "20 life", other values as "key: value"."""
    parts = []
    for key, value in mapping.items():
        words = str(key).replace("_", " ").strip()
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            parts.append(f"{scalar(value)} {words}")
        elif isinstance(value, Mapping):
            parts.append(f"{words} ({inline(value)})")
        elif value not in (None, "", [], {}):
            parts.append(f"{words}: {_phrase(value)}")
    return ", ".join(parts)
