"""Which policy document an HTML rendering is (its title), and its "Effective ... / Last updated
..." dates."""

from __future__ import annotations

import datetime as dt
import re

from rulesref.parsing.common import month_number
from rulesref.parsing.html.blocks import (
    Block,
    to_blocks,
)
from rulesref.parsing.records import DocKind

# ---------------------------------------------------------------------------------------------
# Which document: from its own title

_TITLES = (
    (DocKind.MTR, re.compile(r"\bTOURNAMENT\s+RULES\b", re.IGNORECASE)),
    (DocKind.IPG, re.compile(r"\bINFRACTION\s+PROCEDURE\s+GUIDE\b", re.IGNORECASE)),
    (DocKind.JAR, re.compile(r"\bJUDGING\s+AT\s+REGULAR\b", re.IGNORECASE)),
)


def detect_html_kind(text: str) -> DocKind | None:
    """MTR, IPG or JAR from the document's own title (its first text block); None for
    anything else."""
    if "<" not in text[:3000]:
        return None
    try:
        blocks, _, _ = to_blocks(text[:20000])
    except Exception:  # noqa: BLE001 - malformed markup is "not one of ours", not a crash
        return None
    title = _title_block(blocks)
    if title is None:
        return None
    for kind, pattern in _TITLES:
        if pattern.search(title.text):
            return kind
    return None


def _title_block(blocks: list[Block]) -> Block | None:
    for block in blocks[:3]:
        if len(block.text) <= 120:
            return block
    return None


# ---------------------------------------------------------------------------------------------
# Dates

_DATE = r"([A-Za-z]{3,9})\.?\s+(\d{1,2})(?:st|nd|rd|th)?\s*,?\s*(\d{4})"
_EFFECTIVE = re.compile(rf"\bEffective\s+(?:as\s+of\s+)?{_DATE}", re.IGNORECASE)
_UPDATED = re.compile(rf"\bLast\s+updated\s*:?\s+{_DATE}", re.IGNORECASE)


def _to_date(month: str, day: str, year: str) -> dt.date | None:
    number = month_number(month, abbreviated=True)
    if number is None:
        return None
    try:
        return dt.date(int(year), number, int(day))
    except ValueError:
        return None


def read_dates(text: str) -> tuple[dt.date | None, dt.date | None]:
    """("Effective" date, "Last updated" date) read from one block of text; None where absent.

    Accepts "May 3, 2019", "Oct 3rd, 2018", "Jan 6th , 2021" and "Sep 25, 2020".
    """
    effective = updated = None
    match = _EFFECTIVE.search(text)
    if match:
        effective = _to_date(*match.groups())
    match = _UPDATED.search(text)
    if match:
        updated = _to_date(*match.groups())
    return effective, updated
