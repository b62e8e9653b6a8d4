"""Independent readings of the real MTR/IPG/JAR renderings for the corpus tests: plain regexes over
the raw HTML, so the parsers are checked against something other than themselves."""

from __future__ import annotations

import datetime as dt
import html
import re
from pathlib import Path

from rulesref.parsing.records import ParsedDocument

_NAME_DATE = re.compile(r"-(\d{4})(\d{2})(\d{2})\.html$")
# A numbered section heading as printed: "<h1 ...>MTR 4.2 ...", "<h1 ...>3.4 ...", "<h4>4.2 ...".
_SECTION_HEADING = re.compile(
    r"<h[14][^>]*>\s*(?:(?:MTR|IPG)\s+)?(\d{1,2})\.(\d{1,2})\.?\s", re.IGNORECASE
)
# "<h1 ...>MTR Appendix A - ...", "<h4>Appendix B-Time Limits", "<b>APPENDIX A - PENALTY ...</b>".
_APPENDIX_HEADING = re.compile(
    r"(?:<h[14][^>]*>\s*(?:(?:MTR|IPG)\s+)?|<b>)Appendix\s+([A-Z])\b", re.IGNORECASE
)
_PARAGRAPH = re.compile(r"<(p|li|td)\b[^>]*>(.*?)</\1>", re.DOTALL)


def name_date(path: Path) -> dt.date:
    """The YYYYMMDD in the file name (the README says it is the effective or last-updated date)."""
    match = _NAME_DATE.search(path.name)
    assert match is not None, path.name
    return dt.date(*(int(part) for part in match.groups()))


def heading_sections(raw: str) -> set[str]:
    return {f"{int(a)}.{int(b)}" for a, b in _SECTION_HEADING.findall(raw)}


def heading_appendices(raw: str) -> set[str]:
    return {letter.upper() for letter in _APPENDIX_HEADING.findall(raw)}


def _norm(text: str) -> str:
    return " ".join(text.replace("\xa0", " ").split()).casefold()


def unplaced_paragraphs(
    raw: str, parsed: ParsedDocument, min_words: int = 6
) -> list[tuple[int, str]]:
    """Paragraphs, list items and cells of the raw HTML (6+ words, not contents links, not headings)
    whose opening words appear nowhere in the parsed document: its rules' titles, texts, examples
    and fields, its title and its notes. Returns (line, opening words) of each."""
    pool = _norm(
        " ".join(
            [parsed.title, *parsed.notes]
            + [
                part
                for rule in parsed.rules
                for part in (rule.title, rule.text, *rule.examples, *(v for _, v in rule.fields))
            ]
        )
    )
    squeezed = pool.replace(" ", "")
    missing = []
    for match in _PARAGRAPH.finditer(raw):
        inner = match.group(2)
        if 'href="#' in inner or re.search(r"<b>\s*APPENDIX", inner):
            continue
        text = _norm(html.unescape(re.sub(r"<[^>]+>", " ", inner)))
        text = re.sub(r"^examples?\s*:\s*", "", text)
        if re.match(r"^appendix [a-z] -", text):
            continue  # a contents line; the parser checks those against the headings
        words = text.split()
        if len(words) < min_words:
            continue
        probe = " ".join(words[:min_words])
        if probe not in pool and probe.replace(" ", "") not in squeezed:
            missing.append((raw.count("\n", 0, match.start()) + 1, probe))
    return missing
