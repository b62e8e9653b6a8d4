"""Reading the "light" HTML renderings of the MTR, IPG and JAR: markup to text blocks, front matter, outline.

Three things every one of these documents needs, in the order a parser uses them:

    to_blocks(text)        markup -> flat list of Block (a paragraph, list item, heading, table row
                           or loose run of text), each with the 1-based line where its text starts
    read_front(...)        the title, the "Effective ... / Last updated ..." dates, the introduction
                           and the contents list that come before the first numbered heading
    read_outline(...)      chapters, numbered sections and appendices with the blocks under each
    split_examples(...)    "Example: ..." paragraphs out of a section's blocks
    extract_policy_references(...)
                           the numbers a text cites: this document's own ("4.2", "B", checked to
                           exist), another policy document's ("ipg:2.1", "mtr:4.3"), the CR's
                           ("cr:704.5a", never checked)

The renderings come in two layouts (both in the shared corpus):

  - 2017 ("bluewizard" conversion): a title line, "Effective <date>", a contents list of <h5> links,
    then <h4> headings ("1.  Tournament Fundamentals", "4.2 Tournament Shortcuts",
    "Appendix B-Time Limits") with paragraphs, loose text and <br>; old IPG appendices are bold
    loose text ("<b>APPENDIX A - PENALTY QUICK REFERENCE</b>").
  - 2018 on (blog export): <header><h1>Title</h1></header>, an <em> with the dates, <h2>Introduction,
    "Contents" with <h2>"1. Chapter" and a paragraph of section links per chapter, then one
    <header><h1>"MTR 4.2 Tournament Shortcuts"</h1></header> per section, chapter ("IPG 2. Game
    Play Errors") or appendix ("MTR Appendix A - ...").

Every text block lands somewhere: in the title/date lines, the introduction, the contents (checked
against the headings), a section, or `notes` (trademark and converter lines). A block that fits none
of these raises ParseError with the source and line. Images carry no text and are skipped; the first
line of each file (a scrape date, not part of the document) is reported in `notes`.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass, field
from html.parser import HTMLParser

from rulesref.parsing.common import month_number
from rulesref.parsing.records import DocKind, ParseError, RuleKind

# ---------------------------------------------------------------------------------------------
# Blocks

_LEAF = frozenset({"p", "li", "h1", "h2", "h3", "h4", "h5", "h6", "dt", "dd", "caption", "pre", "blockquote"})
_CONTAINER = frozenset({"div", "header", "ul", "ol", "table", "tbody", "thead", "body", "html", "section", "hr", "dl"})
_BOLD = frozenset({"b", "strong"})
_SKIP = frozenset({"head", "script", "style", "title"})
_SCRAPE_DATE = re.compile(r"^\s*\d{4}-\d{2}-\d{2}\s*$")


@dataclass(frozen=True)
class Block:
    """One unit of text: kind is the tag ("p", "li", "h1".."h6", "row" for a table row) or "text"."""

    kind: str
    text: str  # whitespace collapsed; "\n" where the markup had <br>; table cells joined by " | "
    line: int  # 1-based line of the raw text where the block's text starts
    bold: bool = False  # every letter of the block is inside <b>/<strong>
    links: tuple[str, ...] = ()  # in-page link targets ("#mtr4-2") the block holds
    header_row: bool = False  # a table row made of <th> cells

    @property
    def is_heading(self) -> bool:
        return len(self.kind) == 2 and self.kind[0] == "h"


class _BlockReader(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.blocks: list[Block] = []
        self.closed_html = False
        self._stack: list[str] = []  # open leaf tags
        self._skip = 0
        self._bold = 0
        self._parts: list[str] = []
        self._bold_chars = 0
        self._chars = 0
        self._line = 0
        self._links: list[str] = []
        self._cells: list[str] | None = None  # inside a <tr>
        self._row_header = False
        self._row_line = 0

    # -- text accumulation
    def _flush(self, kind: str) -> None:
        text = _clean("".join(self._parts))
        if text and self._cells is None:
            self.blocks.append(
                Block(
                    kind,
                    text,
                    self._line,
                    bold=self._chars > 0 and self._bold_chars >= self._chars,
                    links=tuple(self._links),
                )
            )
        if self._cells is None:
            self._parts, self._links, self._chars, self._bold_chars, self._line = [], [], 0, 0, 0

    def _current_kind(self) -> str:
        return self._stack[-1] if self._stack else "text"

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in _SKIP:
            self._skip += 1
            return
        if tag in _BOLD:
            self._bold += 1
        if tag == "a":
            href = dict(attrs).get("href") or ""
            if href.startswith("#"):
                self._links.append(href)
        if tag == "tr":
            self._flush(self._current_kind())
            self._cells, self._row_header, self._row_line = [], False, 0
            return
        if self._stack and self._stack[-1] == "p" and (tag in _LEAF or tag in _CONTAINER or tag == "tr"):
            # HTML closes an open <p> at the next block: the 2017 files leave "<p><b>APPENDIX A</b>"
            # open before a <table>.
            self._flush("p")
            self._stack.pop()
        if self._cells is not None:
            if tag in ("td", "th"):
                self._end_cell()
                self._row_header = self._row_header or tag == "th"
            elif tag in ("br", "p", "li"):
                self._parts.append("\n")
            return
        if tag == "br":
            if self._stack and not (self._chars and self._bold_chars >= self._chars):
                self._parts.append("\n")
            elif self._stack:  # a bold line ended by <br> ("<b>APPENDIX B - ...</b><br>") stands alone
                self._flush(self._current_kind())
            else:  # loose text: a <br> ends the line, which is its own block
                self._flush("text")
        elif tag in _LEAF:
            self._flush(self._current_kind())
            self._stack.append(tag)
        elif tag in _CONTAINER and not self._stack:
            self._flush("text")

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)
        if tag in _LEAF or tag in _BOLD or tag in _SKIP:
            self.handle_endtag(tag)

    def handle_endtag(self, tag: str) -> None:
        if tag in _SKIP:
            self._skip = max(0, self._skip - 1)
            return
        if tag == "html":
            self.closed_html = True
        if tag in _BOLD:
            self._bold = max(0, self._bold - 1)
        if self._cells is not None:
            if tag in ("td", "th"):
                self._end_cell()
            elif tag in ("tr", "table", "tbody"):
                self._end_row()
            return
        if tag in _LEAF and tag in self._stack:
            self._flush(tag)
            while self._stack and self._stack.pop() != tag:
                pass
        elif tag in _CONTAINER and not self._stack:
            self._flush("text")

    def handle_data(self, data: str) -> None:
        if self._skip:
            return
        stripped = data.strip()
        if stripped and not self._line:
            line, _ = self.getpos()
            self._line = line + data[: len(data) - len(data.lstrip())].count("\n")
            if self._cells is not None and not self._row_line:
                self._row_line = self._line
        self._parts.append(data.replace("\r", " ").replace("\n", " "))  # a source newline is a space
        letters = sum(1 for ch in stripped if not ch.isspace())
        self._chars += letters
        if self._bold:
            self._bold_chars += letters

    def _end_cell(self) -> None:
        if self._cells is None:
            return
        text = _clean("".join(self._parts)).replace("\n", " ")
        if text:
            self._cells.append(text)
        self._parts = []

    def _end_row(self) -> None:
        self._end_cell()
        cells = self._cells or []
        self._cells = None
        if cells:
            self.blocks.append(
                Block(
                    "row",
                    " | ".join(cells),
                    self._row_line or self._line,
                    bold=self._chars > 0 and self._bold_chars >= self._chars,
                    links=tuple(self._links),
                    header_row=self._row_header,
                )
            )
        self._parts, self._links, self._chars, self._bold_chars, self._line = [], [], 0, 0, 0

    def close(self) -> None:
        super().close()
        if self._cells is not None:
            self._end_row()
        self._flush(self._current_kind())


def _clean(text: str) -> str:
    text = text.replace("\xa0", " ").replace("\u200b", "")
    lines = [re.sub(r"[ \t\r\f\v]+", " ", part).strip() for part in text.split("\n")]  # "\n" only from <br>
    return "\n".join(line for line in lines if line)


def to_blocks(text: str) -> tuple[list[Block], bool, str | None]:
    """Split HTML into text blocks in document order.

    Returns (blocks, closed, scrape_date): `closed` is True when the markup ends with </html> (a cut
    file does not), `scrape_date` the first line when it is a bare YYYY-MM-DD date (that line is not
    part of the document and yields no block).
    """
    scrape = None
    first, sep, rest = text.partition("\n")
    if _SCRAPE_DATE.match(first):
        scrape = first.strip()
        text = sep + rest  # keep line numbers: the date line becomes empty
    reader = _BlockReader()
    reader.feed(text)
    reader.close()
    return reader.blocks, reader.closed_html, scrape


# ---------------------------------------------------------------------------------------------
# Which document: from its own title

_TITLES = (
    (DocKind.MTR, re.compile(r"\bTOURNAMENT\s+RULES\b", re.IGNORECASE)),
    (DocKind.IPG, re.compile(r"\bINFRACTION\s+PROCEDURE\s+GUIDE\b", re.IGNORECASE)),
    (DocKind.JAR, re.compile(r"\bJUDGING\s+AT\s+REGULAR\b", re.IGNORECASE)),
)


def detect_html_kind(text: str) -> DocKind | None:
    """MTR, IPG or JAR from the document's own title (its first text block); None for anything else."""
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


# ---------------------------------------------------------------------------------------------
# Headings

_DOC_PREFIX = re.compile(r"^(?:MTR|IPG|JAR)\s+", re.IGNORECASE)
_APPENDIX_HEAD = re.compile(
    r"^Appendix\s+([A-Za-z])(?![A-Za-z])\s*(?:[-\u2013\u2014:.]\s*)?(.*)$", re.IGNORECASE | re.DOTALL
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
    """ "MTR 4.2 Tournament Shortcuts", "4.  Communication", "IPG 3.4. X", "Appendix B-Time Limits"."""
    text = _DOC_PREFIX.sub("", " ".join(text.split()))
    match = _APPENDIX_HEAD.match(text)
    if match:
        return Heading(RuleKind.APPENDIX, match.group(1).upper(), match.group(2).strip())
    match = _SECTION_HEAD.match(text)
    if match and int(match.group(2)) > 0:
        return Heading(RuleKind.SECTION, f"{int(match.group(1))}.{int(match.group(2))}", match.group(3).strip())
    match = _CHAPTER_HEAD.match(text)
    if match and int(match.group(1)) > 0 and not re.match(r"^\d", match.group(2)):
        return Heading(RuleKind.CHAPTER, str(int(match.group(1))), match.group(2).strip())
    return None


# ---------------------------------------------------------------------------------------------
# Front matter and outline

BOILERPLATE = re.compile(r"^(?:All trademarks are property of Wizards|Converted by:)", re.IGNORECASE)
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
        return [f"Effective {self.effective.isoformat()}; last updated {self.updated.isoformat()} (the version date)"]


def read_outline(text: str, source: str, expected: DocKind) -> Outline:
    """Blocks of an MTR or IPG rendering grouped under their numbered headings.

    Raises ParseError (source, line) for: no text, a title that is not `expected`, no Effective
    date, no numbered section, a contents entry with no section in the body or a file cut short
    (no closing </html>), and text between the date and the contents that is not a contents entry.
    """
    blocks, closed, scrape = to_blocks(text)
    notes: list[str] = []
    if scrape:
        notes.append(f"line 1: scrape date {scrape} (not part of the document)")
    title_block = expect_title(blocks, source, expected)
    start = blocks.index(title_block) + 1
    first_body = _first_body_heading(blocks, start)
    if first_body is None:
        raise ParseError(
            f"no numbered section heading found; not a {expected.name} rendering", source=source, line=blocks[-1].line
        )
    front = blocks[start:first_body]
    effective, updated, date_lines = expect_dates(front, source, title_block.line)
    intro, intro_line, contents = _split_front(front, date_lines, source, notes)
    sections = _read_body(blocks[first_body:], contents, notes)
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
            f"not a {expected.name} rendering: its title reads {first.text[:60]!r}", source=source, line=first.line
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
    return block.kind in ("text", "p") and block.bold and _APPENDIX_HEAD.match(block.text) is not None


def expect_dates(front: list[Block], source: str, title_line: int) -> tuple[dt.date, dt.date | None, set[int]]:
    """The dates near the top; in the 2018+ files "Effective" and "Last updated" sit on two lines."""
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
        raise ParseError('no "Effective <date>" line after the title', source=source, line=title_line)
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
                f"text in the contents list that is not a contents entry: {part[:60]!r}", source=source, line=block.line
            )
        entries.append(ContentsEntry(parse_heading(part), part, block.line))
    return entries


def _read_body(blocks: list[Block], contents: list[ContentsEntry], notes: list[str]) -> list[Section]:
    listed = {e.heading.number: e.heading for e in contents if e.heading is not None}
    sections: list[Section] = []
    chapters: set[str] = {n for n, h in listed.items() if h.kind is RuleKind.CHAPTER}
    for block in blocks:
        if BOILERPLATE.match(block.text):
            notes.append(f"line {block.line}: {block.text}")
            continue
        heading = parse_heading(block.text) if _is_body_heading(block) else None
        if heading is not None and heading.kind is RuleKind.CHAPTER and heading.number not in chapters and sections:
            # 2017-09 MTR: a paragraph of 2.13 was converted as "<h4>13 The Head Judge ...": a
            # chapter the contents do not list is text, not a heading.
            notes.append(f"line {block.line}: heading {block.text[:40]!r}... is not in the contents; kept as text")
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
        return Heading(heading.kind, heading.number, printed[: len(wanted)]), printed[len(wanted) :].strip()
    return heading, ""


def _check_against_contents(
    sections: list[Section], contents: list[ContentsEntry], closed: bool, source: str, notes: list[str], last_line: int
) -> None:
    found = {s.heading.number for s in sections}
    if not closed:
        raise ParseError("the file ends before its closing </html> (truncated?)", source=source, line=last_line)
    for entry in contents:
        heading = entry.heading
        if heading is None:
            continue
        if heading.kind is RuleKind.SECTION and heading.number not in found:
            raise ParseError(
                f"the contents list {heading.number} {heading.title!r} but the body has no such section (truncated?)",
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
                f"line {section.line}: {section.heading.number} {section.heading.title!r} is not in the contents"
            )
    # 2018+ MTR: chapters are printed only in the contents; give each a record before its sections.
    present = {s.heading.number for s in sections if s.heading.kind is RuleKind.CHAPTER}
    for entry in contents:
        heading = entry.heading
        if heading is not None and heading.kind is RuleKind.CHAPTER and heading.number not in present:
            first = next((i for i, s in enumerate(sections) if s.heading.parent == heading.number), None)
            if first is None:
                raise ParseError(
                    f"the contents list chapter {heading.number} {heading.title!r} but the body has "
                    "none of its sections (truncated?)",
                    source=source,
                    line=entry.line,
                )
            sections.insert(first, Section(heading, entry.line, from_contents=True))
            present.add(heading.number)
    if not any(s.heading.kind is RuleKind.SECTION for s in sections):
        raise ParseError("no numbered section found", source=source, line=last_line)


def _note_unmatched_entries(contents: list[ContentsEntry], blocks: list[Block], notes: list[str]) -> None:
    """Unnumbered contents entries ("Introduction", "Booster Draft Timing") should repeat a heading
    printed elsewhere; the ones that do not ("2017 Effective Date" in the 2017 MTR) are noted."""
    printed: dict[str, set[int]] = {}
    for block in blocks:
        for part in block.text.split("\n"):
            printed.setdefault(" ".join(part.split()).casefold(), set()).add(block.line)
    for entry in contents:
        if entry.heading is None and not printed.get(entry.text.casefold(), set()) - {entry.line}:
            notes.append(f"line {entry.line}: contents entry {entry.text!r} has no heading in the document")


# ---------------------------------------------------------------------------------------------
# Text


def block_text(block: Block) -> str:
    """A block as readable plain text: list items get a "- " bullet."""
    return f"- {block.text}" if block.kind == "li" and not block.text.startswith(("-", "\u2022")) else block.text


def join_blocks(blocks: list[Block]) -> str:
    """Paragraphs separated by a blank line; the items of one list, or rows of one table, by a newline."""
    out: list[str] = []
    previous = ""
    for block in blocks:
        if out:
            out.append("\n" if block.kind == previous and block.kind in ("li", "row") else "\n\n")
        out.append(block_text(block))
        previous = block.kind
    return "".join(out)


# ---------------------------------------------------------------------------------------------
# Examples

_EXAMPLE_LEAD = re.compile(r"^Examples?\s*:\s*(?=\S)", re.IGNORECASE)
_EXAMPLE_MARK = re.compile(r"^Examples?\s*:?$", re.IGNORECASE)


def split_examples(blocks: list[Block]) -> tuple[list[Block], list[str]]:
    """Take "Example:" paragraphs out of a section's blocks: (the other blocks, the examples).

    "Example: text" gives "text". A bare "Example(s):" line gives the list items right after it,
    one example each, or else the one paragraph after it; the bare line itself is then dropped.
    """
    kept: list[Block] = []
    examples: list[str] = []
    index = 0
    while index < len(blocks):
        block = blocks[index]
        lead = _EXAMPLE_LEAD.match(block.text)
        if lead and block.kind != "row":
            examples.append(block.text[lead.end() :].strip())
            index += 1
            continue
        if _EXAMPLE_MARK.match(block.text) and index + 1 < len(blocks):
            following = index + 1
            while following < len(blocks) and blocks[following].kind == "li":
                examples.append(blocks[following].text)
                following += 1
            if following == index + 1 and blocks[following].kind in ("p", "text"):
                examples.append(blocks[following].text)
                following += 1
            if following > index + 1:
                index = following
                continue
        kept.append(block)
        index += 1
    return kept, examples


# ---------------------------------------------------------------------------------------------
# References

_NUM = r"(?:\d{3}\.\d{1,3}[a-z]?|\d{3}|\d{1,2}\.\d{1,2}|\d{1,2}|[A-F](?![\w]))"
_LIST = rf"{_NUM}(?:\s*(?:,\s*(?:and\s+|or\s+)?|\s+and\s+|\s+or\s+|\s*&\s*|\s*[-\u2013]\s*){_NUM})*"
_RANGE = re.compile(rf"(?P<a>{_NUM})(?:\s*[-\u2013]\s*(?P<b>{_NUM}))?")
_REF = re.compile(
    rf"(?:\b(?P<doc>MTR|IPG|JAR|CR|Comprehensive\s+Rules)\b\.?\s*(?:[Ss]ections?\s+|[Rr]ules?\s+|§\s*)?"
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
        if re.fullmatch(r"\d{1,2}\.\d{1,2}", first) and re.fullmatch(r"\d{1,2}\.\d{1,2}", last) and head == tail:
            low, high = int(first.split(".")[1]), int(last.split(".")[1])
            if 0 < high - low <= _MAX_RANGE:
                numbers.extend(f"{head}.{n}" for n in range(low + 1, high + 1))
                continue
        numbers.append(last)
    return numbers


_DOC_NAMES = {"mtr": "mtr", "ipg": "ipg", "jar": "jar", "cr": "cr", "comprehensive rules": "cr"}


def extract_policy_references(text: str, doc: DocKind, known: set[str] | frozenset[str]) -> tuple[str, ...]:
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
