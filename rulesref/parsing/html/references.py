"""The numbers a policy text cites: its own ("4.2", "B", checked to exist), another policy
document's ("ipg:2.1"), the CR's ("cr:704.5a", never checked)."""

from __future__ import annotations

import re

from rulesref.parsing.records import DocKind

# ---------------------------------------------------------------------------------------------
# References

_NUM = r"(?:\d{3}\.\d{1,3}[a-z]?|\d{3}|\d{1,2}\.\d{1,2}|\d{1,2}|[A-F](?![\w]))"
_LIST = rf"{_NUM}(?:\s*(?:,\s*(?:and\s+|or\s+)?|\s+and\s+|\s+or\s+|\s*&\s*|\s*[-\u2013]\s*){_NUM})*"
_RANGE = re.compile(rf"(?P<a>{_NUM})(?:\s*[-\u2013]\s*(?P<b>{_NUM}))?")
_REF = re.compile(
    r"(?:\b(?P<doc>MTR|IPG|JAR|CR|Comprehensive\s+Rules)\b\.?\s*(?:[Ss]ections?\s+|[Rr]ules?\s+|§\s*)?"
    rf"|\b(?P<kw>[Ss]ections?|[Ss]ee(?:\s+also)?|[Rr]ules?|Appendi(?:x|ces))\s+|(?P<paren>\())"
    rf"(?P<list>{_LIST})(?![\w.]\d)"
)
_ITEM = re.compile(_NUM)
_MAX_RANGE = 30


def _expand_items(listed: str) -> list[str]:
    """ "2-4" -> 2, 3, 4; "4.1-4.3" -> 4.1, 4.2, 4.3; anything else as written."""
    numbers: list[str] = []
    for item in _RANGE.finditer(listed):
        first, last = item.group("a"), item.group("b")
        numbers.append(first)
        if last is None:
            continue
        if (
            re.fullmatch(r"\d{1,2}", first)
            and re.fullmatch(r"\d{1,2}", last)
            and 0 < int(last) - int(first) <= _MAX_RANGE
        ):
            numbers.extend(str(n) for n in range(int(first) + 1, int(last) + 1))
            continue
        head, tail = first.split(".")[0], last.split(".")[0]
        if (
            re.fullmatch(r"\d{1,2}\.\d{1,2}", first)
            and re.fullmatch(r"\d{1,2}\.\d{1,2}", last)
            and head == tail
        ):
            low, high = int(first.split(".")[1]), int(last.split(".")[1])
            if 0 < high - low <= _MAX_RANGE:
                numbers.extend(f"{head}.{n}" for n in range(low + 1, high + 1))
                continue
        numbers.append(last)
    return numbers


_DOC_NAMES = {"mtr": "mtr", "ipg": "ipg", "jar": "jar", "cr": "cr", "comprehensive rules": "cr"}


def extract_policy_references(
    text: str, doc: DocKind, known: set[str] | frozenset[str]
) -> tuple[str, ...]:
    """Rule numbers an MTR/IPG/JAR text cites, deduplicated, in order of first appearance.

    Understands "section 4.2", "sections 2.5 and 2.6", "see 3.9", "(2.5)", "Appendix B",
    "MTR 3.9" and "MTR section 4.3". A number in this document's own numbering is kept only when
    the document has it (`known`), so "see 4 players" or "(1.5 times)" is not a citation. Numbers
    of another document are prefixed with its name ("mtr:4.3" cited by the IPG, "cr:704.5a"), and a
    CR-shaped number (three digits: "704.5a", "rule 716") is always "cr:"; those are not checked.
    """
    found: dict[str, None] = {}
    for match in _REF.finditer(text):
        named = match.group("doc")
        target = _DOC_NAMES[" ".join(named.lower().split())] if named else doc.value
        keyword = (match.group("kw") or "").lower()
        for number in _expand_items(match.group("list")):
            if re.fullmatch(r"\d{3}(?:\.\d+[a-z]?)?", number):
                found.setdefault(f"cr:{number}", None)
                continue
            if target == "cr":
                continue  # a CR chapter or an MTR-shaped number after "CR": too ambiguous to keep
            if re.fullmatch(r"[A-F]", number) and not keyword.startswith("appendi"):
                continue
            if re.fullmatch(r"\d{1,2}", number) and not (keyword.startswith("section") or named):
                continue
            if target == doc.value:
                if number in known:
                    found.setdefault(number, None)
            else:
                found.setdefault(f"{target}:{number}", None)
    return tuple(found)
