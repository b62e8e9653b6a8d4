"""Checking a shuffle-analysis request (docs/API.md) and building the typed request; errors name the field."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engines.errors import RequestError
from engines.shuffles.records import (
    MAX_DECK_SIZE,
    MAX_STEPS,
    MAX_TIMES,
    ObservedPattern,
    ShuffleMethod,
    ShuffleRequest,
    ShuffleStep,
)


def _integer(value: Any, name: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise RequestError(name, f"must be a whole number from {low} to {high}")
    if not low <= value <= high:
        raise RequestError(name, f"must be from {low} to {high}, got {value}")
    return value


def _step(data: Any, name: str, deck_size: int) -> ShuffleStep:
    if not isinstance(data, Mapping):
        raise RequestError(name, "must be an object with 'method' and 'times'")
    raw = data.get("method")
    try:
        method = ShuffleMethod(raw)
    except ValueError:
        known = ", ".join(m.value for m in ShuffleMethod)
        raise RequestError(f"{name}.method", f"unknown method {raw!r}; expected one of {known}") from None
    times = _integer(data.get("times", 1), f"{name}.times", 0, MAX_TIMES)
    piles = data.get("piles")
    if piles is not None:
        if method is not ShuffleMethod.PILE:
            raise RequestError(f"{name}.piles", "only a pile shuffle has piles")
        piles = _integer(piles, f"{name}.piles", 2, max(2, deck_size))
    return ShuffleStep(method, times, piles)


def _observed(data: Any, deck_size: int) -> ObservedPattern:
    if not isinstance(data, Mapping):
        raise RequestError("observed", "must be an object with 'pattern' and 'lands'")
    raw = data.get("pattern")
    if not isinstance(raw, str):
        raise RequestError("observed.pattern", "must be a string of L (land) and S (spell)")
    pattern = "".join(raw.split()).upper()
    if not pattern or set(pattern) - {"L", "S"}:
        raise RequestError("observed.pattern", "must be a non-empty string of only L (land) and S (spell)")
    if len(pattern) > deck_size:
        raise RequestError("observed.pattern", f"has {len(pattern)} cards but the deck has {deck_size}")
    lands = _integer(data.get("lands"), "observed.lands", 0, deck_size)
    seen_lands = pattern.count("L")
    if seen_lands > lands:
        raise RequestError("observed.pattern", f"shows {seen_lands} lands but the deck has only {lands}")
    if len(pattern) - seen_lands > deck_size - lands:
        raise RequestError(
            "observed.pattern", f"shows {len(pattern) - seen_lands} spells but the deck has only {deck_size - lands}")
    return ObservedPattern(pattern, lands)


def validate_procedure(raw_steps: Any, deck_size: int, name: str = "procedure") -> tuple[ShuffleStep, ...]:
    """Check a list of procedure steps; errors name the step, e.g. "procedure[1].method"."""
    if not isinstance(raw_steps, Sequence) or isinstance(raw_steps, str | bytes):
        raise RequestError(name, "must be a list of steps")
    if len(raw_steps) > MAX_STEPS:
        raise RequestError(name, f"has {len(raw_steps)} steps; at most {MAX_STEPS}")
    return tuple(_step(item, f"{name}[{i}]", deck_size) for i, item in enumerate(raw_steps))


def validate_shuffle_request(data: Mapping[str, Any]) -> ShuffleRequest:
    """Check a shuffle-analysis payload (docs/API.md) and build the request; raises RequestError naming the
    field ("deck_size", "procedure[2].times", "observed.pattern", ...). Unknown keys are ignored."""
    if not isinstance(data, Mapping):
        raise RequestError("body", "must be a JSON object")
    deck_size = _integer(data.get("deck_size"), "deck_size", 1, MAX_DECK_SIZE)
    steps = validate_procedure(data.get("procedure", []), deck_size)
    observed = None if data.get("observed") is None else _observed(data["observed"], deck_size)
    seed = data.get("seed")
    if seed is not None:
        seed = _integer(seed, "seed", 0, 2**63 - 1)
    return ShuffleRequest(deck_size, steps, observed, seed)
