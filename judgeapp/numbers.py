"""Numbers as clients send them: one reading of a whole number for every form and request that takes
one, so that "1_0", "²", "٣", an infinite float or 5,000 digits are refused alike, with the field's
own error, instead of read as 10 or 3, or raising where the caller expected a clean refusal."""

from __future__ import annotations

import math
import re
from typing import Any

# Plain ASCII digits, at most 30 (a whole number no field takes more of), an optional minus sign.
_WHOLE = re.compile(r"-?[0-9]{1,30}")
# A number of seconds as JSON or Python writes one: "5", "2.5", ".5", "6.5e-228" (ASCII digits).
_DECIMAL = re.compile(r"[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][+-]?[0-9]+)?")


def whole(value: Any, *, floats: bool = True) -> int | None:
    """`value` as a whole number: an int (never a bool), a finite float with nothing after the
    point (with `floats`), or text of ASCII digits with an optional minus sign and surrounding
    spaces; None for anything else."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float):
        return int(value) if floats and math.isfinite(value) and value.is_integer() else None
    if isinstance(value, str) and _WHOLE.fullmatch(text := value.strip()):
        return int(text)
    return None


def decimal(text: str) -> float | None:
    """A query parameter's number ("5", "2.5", "1e1"), finite, else None ("1_0", "nan", "inf",
    "٣", " 5")."""
    if len(text) > 40 or not _DECIMAL.fullmatch(text):
        return None
    value = float(text)
    return value if math.isfinite(value) else None
