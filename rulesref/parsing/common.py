"""Text handling every rules parser shares: decoding raw files, reading rule numbers,
finding citations.

Pure standard library; no Django. Rule numbers are strings everywhere ("704.5a", "4.2").
"""

from __future__ import annotations

import codecs
import re
import unicodedata

from rulesref.parsing.records import ParseError

# CR Introduction: "subrules skip the letters 'l' and 'o' due to potential confusion with
# the numbers '1' and '0'; subrule 704.5k is followed by 704.5m".
SUBRULE_LETTERS = "abcdefghijkmnpqrstuvwxyz"

# Unicode category Cc (C0 and C1 controls) except tab, line feed, vertical tab, form feed, return.
_CONTROL = re.compile("[\x00-\x08\x0e-\x1f\x7f-\x9f]")
# A text file may carry a stray control character; a file where more than this share of the
# characters are controls (and at least _MIN_BAD_CONTROLS of them) is treated as binary.
_MAX_CONTROL_SHARE = 0.01
_MIN_BAD_CONTROLS = 8


def decode_document(raw: bytes, source: str) -> str:
    """Decode a rules file to text with LF line endings and no byte-order mark.

    UTF-8 (with or without BOM) is tried first, UTF-16 when it carries a BOM, then Windows-1252,
    which older official CR files used. Raises ParseError naming `source` and the first bad line
    when the bytes are not text: a NUL byte, or a high share of control characters.
    """
    if raw.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        try:
            text = raw.decode("utf-16")
        except UnicodeDecodeError as exc:
            raise ParseError(
                "not valid UTF-16 text", source=source, line=_byte_line(raw, exc.start)
            ) from exc
    else:
        nul = raw.find(b"\x00")
        if nul >= 0:
            raise ParseError(
                "binary content (NUL byte); not a text document",
                source=source,
                line=_byte_line(raw, nul),
            )
        body = raw.removeprefix(codecs.BOM_UTF8)
        try:
            text = body.decode("utf-8")
        except UnicodeDecodeError:
            # Bytes 0x81, 0x8D, 0x8F, 0x90 and 0x9D are unassigned in Windows-1252.
            text = body.decode("cp1252", errors="replace")
    text = text.lstrip("\ufeff").replace("\r\n", "\n").replace("\r", "\n")
    _reject_binary(text, source)
    return text


def _byte_line(raw: bytes, offset: int) -> int:
    return raw.count(b"\n", 0, offset) + 1


def _reject_binary(text: str, source: str) -> None:
    bad = _CONTROL.findall(text)
    if not bad:
        return
    if "\x00" in bad or (
        len(bad) >= _MIN_BAD_CONTROLS and len(bad) > _MAX_CONTROL_SHARE * len(text)
    ):
        first = _CONTROL.search(text)
        line = text.count("\n", 0, first.start()) + 1 if first else 1
        raise ParseError(
            f"binary content ({len(bad)} control characters); not a text document",
            source=source,
            line=line,
        )


# ---------------------------------------------------------------------------------------------
# Rule numbers

_PREFIX = re.compile(
    r"^\s*(?:(?:cr|mtr|ipg|jar|comprehensive\s+rules?)(?![a-z])[\s:#§.-]*)?(?:(?:rules?|sections?|§)\s*)?",
    re.IGNORECASE,
)
_CR_DOTTED = re.compile(r"^(\d{3})(?:\.(\d+)(?:\.?([a-z]))?)?$")
_CR_RUN = re.compile(r"^(\d{3})(\d+)([a-z])?$")
_DOTTED = re.compile(r"^\d{1,2}(?:\.\d{1,3})*$")
# "Appendix A", "appendix b", or a lone capital "A" (a lone "a" is more likely a word than a number)
_APPENDIX = re.compile(r"^(?:[Aa][Pp][Pp][Ee][Nn][Dd][Ii][Xx]([A-Za-z])|([A-Z]))$")


def normalize_rule_number(raw: str, doc: str = "cr") -> str | None:
    """Read a rule number the way a judge types it; None when it is not a rule number.

    "729.2a", "729.2 a", "7292a", "CR 729.2a", "729.2A" and "729.2a." all give "729.2a";
    "104" gives "104"; "729.3." gives "729.3"; a chapter "7" gives "7". Numbers shaped like
    MTR/IPG sections ("4.2", "3.9", "10.1") come back as written, and for those documents
    "Appendix B" or "B" gives "B". A run of digits without a dot is split CR-style
    (three-digit section, then the rule) only when `doc` is "cr".
    """
    if not isinstance(raw, str):
        return None
    text = unicodedata.normalize("NFKC", raw)
    text = _PREFIX.sub("", text, count=1)
    compact = re.sub(r"\s+", "", text).rstrip(".")
    text = compact.lower()
    if not text:
        return None
    match = _CR_DOTTED.match(text)
    if match is None and doc == "cr":
        match = _CR_RUN.match(text)
    if match is not None:
        section, rule, letter = match.groups()
        if int(section) < 100:
            return None
        if rule is None:
            return section if letter is None else None
        if int(rule) == 0 or (letter is not None and letter not in SUBRULE_LETTERS):
            return None
        return f"{section}.{int(rule)}{letter or ''}"
    if re.fullmatch(r"\d", text):
        return text  # CR chapter, or MTR/IPG chapter
    if _DOTTED.match(text) and (doc != "cr" or "." in text):
        return text
    appendix = _APPENDIX.match(compact)
    if appendix is not None and doc != "cr":
        return (appendix.group(1) or appendix.group(2)).upper()
    return None


def rule_sort_key(number: str) -> tuple[int, int, int, int]:
    """Document order for rule numbers: chapter 7 < 700 < 700.1 < 700.1a < 700.1b < 700.2 < 701.

    MTR/IPG numbers ("4.2", "10.1", "A") also get a key that sorts them in document order.
    Raises ValueError for something that is not a rule number.
    """
    match = re.fullmatch(r"(\d{3})(?:\.(\d+)([a-z])?)?", number)
    if match is not None:
        section, rule, letter = match.groups()
        return (
            int(section[0]),
            int(section),
            int(rule) if rule is not None else -1,
            ord(letter) if letter is not None else -1,
        )
    if re.fullmatch(r"\d", number):
        return (int(number), -1, -1, -1)
    match = re.fullmatch(r"(\d{1,2})(?:\.(\d{1,3}))?(?:\.(\d{1,3}))?", number)
    if match is not None:
        parts = [int(p) if p is not None else -1 for p in match.groups()]
        return (parts[0], parts[1], parts[2], -1)
    if re.fullmatch(r"[A-Z]", number):
        return (1000 + ord(number), -1, -1, -1)  # appendices follow the numbered sections
    raise ValueError(f"not a rule number: {number!r}")


# ---------------------------------------------------------------------------------------------
# Glossary names


def term_key(name: str) -> str:
    """How glossary names compare: case, curly versus straight quotes and runs of spaces ignored."""
    straight = (
        name.replace("\u201c", '"')
        .replace("\u201d", '"')
        .replace("\u2018", "'")
        .replace("\u2019", "'")
    )
    return re.sub(r"\s+", " ", straight).strip().casefold()


# ---------------------------------------------------------------------------------------------
# Citations inside CR text

_DASH = r"\s*[-\u2013\u2014]\s*"
_FULL = r"\d{3}\.\d+[a-z]?"
_NUMBER = rf"(?:{_FULL}|\d{{3}}|\d)"
_ITEM = rf"{_NUMBER}(?:{_DASH}(?:{_FULL}|\d+[a-z]?|[a-z]))?"
_EDGE_BEFORE = r"(?<![\w.+/$\-\u2013])(?<!\d,)"  # not inside "+1/+1", "$100.50", "1,000.5", a range
_EDGE_AFTER = r"(?![\w/%]|\.\d|[+\-]\d)"
# "rule 704", "rules 103.4 and 103.5", "section 7", "rules 601.2a–d, 601.2f, and 601.2h"
_KEYWORD_LIST = re.compile(
    rf"\b(?P<kw>[Rr]ules?|[Ss]ections?)\s+(?P<list>{_EDGE_BEFORE}{_ITEM}{_EDGE_AFTER}"
    rf"(?:(?:\s*,\s*(?:and\s+|or\s+)?|\s+and\s+|\s+or\s+){_ITEM}{_EDGE_AFTER})*)"
)
# A bare full rule number: "as specified in 101.4a", "see 601.2b and 601.2f–h"
_BARE = re.compile(
    rf"{_EDGE_BEFORE}(?P<item>{_FULL}(?:{_DASH}(?:{_FULL}|\d+[a-z]?|[a-z]))?){_EDGE_AFTER}"
)
_ITEM_RE = re.compile(
    rf"(?P<start>{_NUMBER})(?:{_DASH}(?P<end>{_FULL}|\d+[a-z]?|[a-z]))?{_EDGE_AFTER}"
)
_MAX_RANGE = 40  # a longer "range" is more likely a misreading than a citation


def extract_references(text: str) -> tuple[str, ...]:
    """Rule numbers a CR text cites, deduplicated, in order of first appearance.

    Understands "See rule 704.5a", "rules 103.4 and 103.5", "section 7", "rule 903" and bare
    numbers such as "as specified in 101.4a". Ranges are expanded: "601.2f–h" gives 601.2f,
    601.2g, 601.2h (skipping l and o); "119.7-8" gives 119.7, 119.8. Numbers that are not
    citations ("20 life", "+1/+1", dates, "100 cards") are not picked up: a chapter or a
    three-digit section counts only right after "rule(s)"/"section(s)".
    """
    found: list[tuple[int, str]] = []
    for match in _KEYWORD_LIST.finditer(text):
        keyword = match.group("kw").lower()
        offset = match.start("list")
        for item in _ITEM_RE.finditer(match.group("list")):
            start = item.group("start")
            if len(start) == 1 and not keyword.startswith("section"):
                continue
            for number in _expand(start, item.group("end")):
                found.append((offset + item.start(), number))
    for bare in _BARE.finditer(text):
        parts = _ITEM_RE.match(bare.group("item"))
        if parts is not None:
            for number in _expand(parts.group("start"), parts.group("end")):
                found.append((bare.start(), number))
    found.sort(key=lambda pair: pair[0])
    seen: dict[str, None] = {}
    for _, number in found:
        seen.setdefault(number, None)
    return tuple(seen)


def _expand(start: str, end: str | None) -> list[str]:
    if end is None:
        return [start]
    head = re.fullmatch(r"(\d{3})\.(\d+)([a-z]?)", start)
    if head is None:
        return [start]
    section, rule, letter = head.group(1), int(head.group(2)), head.group(3)
    if re.fullmatch(r"[a-z]", end) and letter:
        return _letter_range(f"{section}.{rule}", letter, end) or [start]
    tail = re.fullmatch(r"(?:(\d{3})\.)?(\d+)([a-z]?)", end)
    if tail is None or (tail.group(1) and tail.group(1) != section):
        return [start, end] if re.fullmatch(_FULL, end) else [start]
    last_rule, last_letter = int(tail.group(2)), tail.group(3)
    if not letter and not last_letter and rule < last_rule <= rule + _MAX_RANGE:
        return [f"{section}.{n}" for n in range(rule, last_rule + 1)]
    if letter and last_letter and last_rule == rule:
        return _letter_range(f"{section}.{rule}", letter, last_letter) or [start]
    return [start]


def _letter_range(prefix: str, first: str, last: str) -> list[str]:
    if first not in SUBRULE_LETTERS or last not in SUBRULE_LETTERS:
        return []
    i, j = SUBRULE_LETTERS.index(first), SUBRULE_LETTERS.index(last)
    if j <= i:
        return []
    return [f"{prefix}{letter}" for letter in SUBRULE_LETTERS[i : j + 1]]


MONTH_NAMES = (
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
)


def month_number(name: str, *, abbreviated: bool = False) -> int | None:
    """1-12 for a month's full name, any case; with `abbreviated`, also "Jan", "Sep" and "Sept"."""
    name = name.lower()
    if name in MONTH_NAMES:
        return MONTH_NAMES.index(name) + 1
    if abbreviated and (len(name) == 3 or name == "sept"):
        return next((i + 1 for i, full in enumerate(MONTH_NAMES) if full.startswith(name)), None)
    return None
