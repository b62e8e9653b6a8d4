"""Chapters, numbered sections and appendices with the blocks under each; the title, dates,
introduction and contents before the first heading, the contents checked against the headings."""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass, field

from rulesref.parsing.html.blocks import (
    Block,
    to_blocks,
)
from rulesref.parsing.html.front import (
    _TITLES,
    _title_block,
    read_dates,
)
from rulesref.parsing.records import DocKind, ParseError, RuleKind, SectionTwice

# ---------------------------------------------------------------------------------------------
# Headings

_DOC_PREFIX = re.compile(r"^(?:MTR|IPG|JAR)\s+", re.IGNORECASE)
_APPENDIX_HEAD = re.compile(
    r"^Appendix\s+([A-Za-z])(?![A-Za-z])\s*(?:[-\u2013\u2014:.]\s*)?(.*)$",
    re.IGNORECASE | re.DOTALL,
)
_SECTION_HEAD = re.compile(r"^(\d{1,2})\.(\d{1,2})\.?\s+(\S.*)$", re.DOTALL)
_CHAPTER_HEAD = re.compile(r"^(\d{1,2})\.?\s+(\S.*)$", re.DOTALL)


@dataclass(frozen=True)
class Heading:
    kind: RuleKind  # CHAPTER, SECTION or APPENDIX
    number: str  # "4", "4.2", "A"
    title: str

    @property
    def parent(self) -> str | None:
        return self.number.split(".")[0] if self.kind is RuleKind.SECTION else None


def parse_heading(text: str) -> Heading | None:
    """ "MTR 4.2 Tournament Shortcuts", "4.  Communication", "IPG 3.4. X", "Appendix B-Time Limits"."""  # noqa: E501
    text = _DOC_PREFIX.sub("", " ".join(text.split()))
    match = _APPENDIX_HEAD.match(text)
    if match:
        return Heading(RuleKind.APPENDIX, match.group(1).upper(), match.group(2).strip())
    match = _SECTION_HEAD.match(text)
    if match and int(match.group(2)) > 0:
        return Heading(
            RuleKind.SECTION, f"{int(match.group(1))}.{int(match.group(2))}", match.group(3).strip()
        )
    match = _CHAPTER_HEAD.match(text)
    if match and int(match.group(1)) > 0 and not re.match(r"^\d", match.group(2)):
        return Heading(RuleKind.CHAPTER, str(int(match.group(1))), match.group(2).strip())
    return None


# ---------------------------------------------------------------------------------------------
# Front matter and outline

BOILERPLATE = re.compile(
    r"^(?:All trademarks are property of Wizards|Converted by:)", re.IGNORECASE
)
_CONTENTS_MARK = re.compile(r"^(?:table\s+of\s+)?contents:?$", re.IGNORECASE)
_INTRO_MARK = re.compile(r"^introduction$", re.IGNORECASE)
_MAX_CONTENTS_LINE = 110  # a contents entry is a title, not a sentence


@dataclass
class Section:
    """A heading and the blocks under it, before a parser turns it into a ParsedRule."""

    heading: Heading
    line: int
    blocks: list[Block] = field(default_factory=list)
    from_contents: bool = False  # a chapter known only from the contents (2018+ MTR)


@dataclass
class Outline:
    title: str
    effective: dt.date
    updated: dt.date | None
    intro: list[Block]
    intro_line: int
    sections: list[Section]
    notes: list[str]

    @property
    def version_date(self) -> dt.date:
        """The version key: "Last updated" when printed, else "Effective"."""
        return self.updated or self.effective

    def date_notes(self) -> list[str]:
        if self.updated is None:
            return []
        return [
            f"Effective {self.effective.isoformat()}; last updated {self.updated.isoformat()} "
            "(the version date)"
        ]


def read_outline(text: str, source: str, expected: DocKind, *, unique: bool = True) -> Outline:
    """Blocks of an MTR or IPG rendering grouped under their numbered headings.

    Raises ParseError (source, line) for: no text, a title that is not `expected`, no Effective
    date, no numbered section, a contents entry with no section in the body or a file cut short
    (no closing </html>), and text between the date and the contents that is not a contents entry.
    """
    blocks, closed, scrape = to_blocks(text)
    return outline_from_blocks(blocks, closed, scrape, source, expected, unique=unique)


def outline_from_blocks(
    blocks: list[Block],
    closed: bool,
    scrape: str | None,
    source: str,
    expected: DocKind,
    contents: list[ContentsEntry] | None = None,
    *,
    unique: bool = True,
) -> Outline:
    """read_outline on blocks another reader made (rulesref.parsing.pdf); `contents` are entries it
    read from a contents page of its own, added to any the front matter holds. `unique=False` reads
    a section numbered twice as it is (a test typesets such a file as a PDF)."""
    notes: list[str] = []
    if scrape:
        notes.append(f"line 1: scrape date {scrape} (not part of the document)")
    title_block = expect_title(blocks, source, expected)
    start = blocks.index(title_block) + 1
    first_body = _first_body_heading(blocks, start)
    if first_body is None:
        raise ParseError(
            f"no numbered section heading found; not a {expected.name} rendering",
            source=source,
            line=blocks[-1].line,
        )
    front = blocks[start:first_body]
    effective, updated, date_lines = expect_dates(front, source, title_block.line)
    intro, intro_line, listed = _split_front(front, date_lines, source, notes)
    contents = listed + list(contents or [])
    sections = _read_body(blocks[first_body:], contents, notes)
    if unique:
        _check_unique(sections, source)
    _check_against_contents(sections, contents, closed, source, notes, blocks[-1].line)
    _note_unmatched_entries(contents, blocks[start:], notes)
    title = " ".join(title_block.text.split())
    return Outline(title, effective, updated, intro, intro_line, sections, notes)


def expect_title(blocks: list[Block], source: str, expected: DocKind) -> Block:
    if not blocks:
        raise ParseError("the document has no text", source=source, line=1)
    title = _title_block(blocks)
    pattern = dict(_TITLES)[expected]
    if title is None or not pattern.search(title.text):
        first = title or blocks[0]
        raise ParseError(
            f"not a {expected.name} rendering: its title reads {first.text[:60]!r}",
            source=source,
            line=first.line,
        )
    return title


def _first_body_heading(blocks: list[Block], start: int) -> int | None:
    for index in range(start, len(blocks)):
        block = blocks[index]
        if _is_body_heading(block) and parse_heading(block.text) is not None:
            return index
    return None


def _is_body_heading(block: Block) -> bool:
    """<h1> (2018+) and <h4> (2017) headings, and the 2017 IPG's bold "APPENDIX A - ..." lines."""
    if block.kind in ("h1", "h4"):
        return True
    return (
        block.kind in ("text", "p") and block.bold and _APPENDIX_HEAD.match(block.text) is not None
    )


def expect_dates(
    front: list[Block], source: str, title_line: int
) -> tuple[dt.date, dt.date | None, set[int]]:
    """The dates near the top; in the 2018+ files "Effective" and "Last updated" sit on
    two lines."""
    effective = updated = None
    lines: set[int] = set()
    for block in front[:6]:
        found_effective, found_updated = read_dates(block.text)
        if found_effective is not None and effective is None:
            effective = found_effective
            lines.add(block.line)
        if found_updated is not None and updated is None:
            updated = found_updated
            lines.add(block.line)
    if effective is None:
        raise ParseError(
            'no "Effective <date>" line after the title', source=source, line=title_line
        )
    return effective, updated, lines


@dataclass(frozen=True)
class ContentsEntry:
    heading: Heading | None  # None for unnumbered entries ("Introduction", "Booster Draft Timing")
    text: str
    line: int


def _split_front(
    front: list[Block], date_lines: set[int], source: str, notes: list[str]
) -> tuple[list[Block], int, list[ContentsEntry]]:
    intro: list[Block] = []
    intro_line = 0
    contents: list[ContentsEntry] = []
    in_contents = False
    for block in front:
        if block.line in date_lines and any(d is not None for d in read_dates(block.text)):
            continue
        if BOILERPLATE.match(block.text):
            notes.append(f"line {block.line}: {block.text}")
            continue
        if not in_contents and (
            _CONTENTS_MARK.match(block.text)
            or (block.kind == "h5" and block.links)
            or (block.kind == "h2" and parse_heading(block.text) is not None)
        ):
            in_contents = True
            if _CONTENTS_MARK.match(block.text):
                continue
        if in_contents:
            contents.extend(_contents_entries(block, source))
            continue
        if not intro and _INTRO_MARK.match(block.text):
            intro_line = block.line
            continue
        intro_line = intro_line or block.line
        intro.append(block)
    return intro, intro_line, contents


def _contents_entries(block: Block, source: str) -> list[ContentsEntry]:
    entries = []
    for part in block.text.split("\n"):
        part = part.strip()
        if not part or part.lower() == "appendices":
            continue
        if len(part) > _MAX_CONTENTS_LINE:
            raise ParseError(
                f"text in the contents list that is not a contents entry: {part[:60]!r}",
                source=source,
                line=block.line,
            )
        entries.append(ContentsEntry(parse_heading(part), part, block.line))
    return entries


def _read_body(
    blocks: list[Block], contents: list[ContentsEntry], notes: list[str]
) -> list[Section]:
    listed = {e.heading.number: e.heading for e in contents if e.heading is not None}
    sections: list[Section] = []
    chapters: set[str] = {n for n, h in listed.items() if h.kind is RuleKind.CHAPTER}
    for block in blocks:
        if BOILERPLATE.match(block.text):
            notes.append(f"line {block.line}: {block.text}")
            continue
        heading = parse_heading(block.text) if _is_body_heading(block) else None
        if (
            heading is not None
            and heading.kind is RuleKind.CHAPTER
            and heading.number not in chapters
            and sections
        ):
            # 2017-09 MTR: a paragraph of 2.13 was converted as "<h4>13 The Head Judge ...": a
            # chapter the contents do not list is text, not a heading.
            notes.append(
                f"line {block.line}: heading {block.text[:40]!r}... is not in the contents; kept "
                "as text"
            )
            heading = None
        if heading is None:
            sections[-1].blocks.append(block)
            continue
        heading, rest = _title_from_contents(heading, listed)
        if heading.kind is RuleKind.CHAPTER:
            chapters.add(heading.number)
        section = Section(heading, block.line)
        if rest:
            section.blocks.append(Block("p", rest, block.line))
        sections.append(section)
    return sections


def _title_from_contents(heading: Heading, listed: dict[str, Heading]) -> tuple[Heading, str]:
    """Prefer the contents' spelling of a title ("Definition of Penalties" over "DEFINITION OF
    PENALTIES"); a 2017 heading that runs into its first sentence is split at the listed title."""
    known = listed.get(heading.number)
    if known is None or known.kind is not heading.kind:
        return heading, ""
    printed, wanted = heading.title, known.title
    if printed.casefold() == wanted.casefold():
        return Heading(heading.kind, heading.number, wanted if printed.isupper() else printed), ""
    if printed.casefold().startswith(wanted.casefold()) and len(printed) > len(wanted):
        return Heading(heading.kind, heading.number, printed[: len(wanted)]), printed[
            len(wanted) :
        ].strip()
    return heading, ""


def _check_unique(sections: list[Section], source: str) -> None:
    """A heading numbered twice (a typo in the source) is the fault, not the section it hides from
    the contents: named at both lines, before the contents are checked."""
    seen: dict[str, int] = {}
    for section in sections:
        number = section.heading.number
        if number in seen and section.heading.kind is not RuleKind.CHAPTER:
            raise SectionTwice(number, seen[number], section.line, source=source)
        seen.setdefault(number, section.line)


def _check_against_contents(
    sections: list[Section],
    contents: list[ContentsEntry],
    closed: bool,
    source: str,
    notes: list[str],
    last_line: int,
) -> None:
    found = {s.heading.number for s in sections}
    if not closed:
        raise ParseError(
            "the file ends before its closing </html> (truncated?)", source=source, line=last_line
        )
    for entry in contents:
        heading = entry.heading
        if heading is None:
            continue
        if heading.kind is RuleKind.SECTION and heading.number not in found:
            raise ParseError(
                f"the contents list {heading.number} {heading.title!r} but the body has no such "
                "section (truncated?)",
                source=source,
                line=entry.line,
            )
        if heading.kind is RuleKind.APPENDIX and heading.number not in found:
            notes.append(
                f"line {entry.line}: the contents list Appendix {heading.number} {heading.title!r} "
                "but the body has no such appendix"
            )
    listed = {e.heading.number for e in contents if e.heading is not None}
    for section in sections:
        if section.heading.number not in listed and section.heading.kind is not RuleKind.CHAPTER:
            notes.append(
                f"line {section.line}: {section.heading.number} {section.heading.title!r} is not "
                "in the contents"
            )
    # 2018+ MTR: chapters are printed only in the contents; give each a record before its sections.
    present = {s.heading.number for s in sections if s.heading.kind is RuleKind.CHAPTER}
    for entry in contents:
        heading = entry.heading
        if (
            heading is not None
            and heading.kind is RuleKind.CHAPTER
            and heading.number not in present
        ):
            first = next(
                (i for i, s in enumerate(sections) if s.heading.parent == heading.number), None
            )
            if first is None:
                raise ParseError(
                    f"the contents list chapter {heading.number} {heading.title!r} but the body "
                    "has "
                    "none of its sections (truncated?)",
                    source=source,
                    line=entry.line,
                )
            sections.insert(first, Section(heading, entry.line, from_contents=True))
            present.add(heading.number)
    if not any(s.heading.kind is RuleKind.SECTION for s in sections):
        raise ParseError("no numbered section found", source=source, line=last_line)


def _note_unmatched_entries(
    contents: list[ContentsEntry], blocks: list[Block], notes: list[str]
) -> None:
    """Unnumbered contents entries ("Introduction", "Booster Draft Timing") should repeat a heading
    printed elsewhere; the ones that do not ("2017 Effective Date" in the 2017 MTR) are noted."""
    printed: dict[str, set[int]] = {}
    for block in blocks:
        for part in block.text.split("\n"):
            printed.setdefault(" ".join(part.split()).casefold(), set()).add(block.line)
    for entry in contents:
        if entry.heading is None and not printed.get(entry.text.casefold(), set()) - {entry.line}:
            notes.append(
                f"line {entry.line}: contents entry {entry.text!r} has no heading in the document"
            )
