"""An MTR, IPG or JAR PDF in, the same ParsedDocument the HTML importer gives out.

The PDF is read to text blocks (rulesref.parsing.pdf, rulesref.parsing.pdf_blocks); from there the
HTML importer's own builders make the records (html.outline_from_blocks, mtr.build_document,
ipg.ipg_document, jar.jar_document), so numbers, titles, text, examples, infraction parts,
aliases, references and the effective date (read from the text) come out the same. Every
ParseError names the file and the page ("IPG.pdf: page 14: ...").
"""

from __future__ import annotations

import re
from dataclasses import replace

from rulesref.parsing.html import Block, ContentsEntry, outline_from_blocks, parse_heading
from rulesref.parsing.pdf import LeaderEntry, Line, PdfLimits, PdfText, read_pages, strip_furniture
from rulesref.parsing.pdf_blocks import make_blocks
from rulesref.parsing.records import DocKind, ParsedDocument, ParseError, SectionTwice

_TITLE_WORDS = (
    (DocKind.MTR, "tournament rules"),
    (DocKind.IPG, "infraction procedure guide"),
    (DocKind.JAR, "judging at regular"),
)


KIND_PAGES = 2  # the title is on the first page; a browser's print may push it to the second
_SCRAPE_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")


def detect_pdf_kind(raw: bytes, source: str, limits: PdfLimits | None = None) -> DocKind:
    """MTR, IPG or JAR from the title the PDF prints on its first page (only the first pages are
    read: an upload is told in the web request, the worker parses it); ParseError otherwise."""
    limits = limits or PdfLimits()
    return _kind(
        read_pages(
            raw,
            source,
            max_pages=limits.max_pages,
            max_stream_bytes=limits.max_stream_bytes,
            first_pages=KIND_PAGES,
        )
    )


def _kind(text: PdfText) -> DocKind:
    first = [ln.text for ln in text.lines if ln.page == text.lines[0].page]
    head = " ".join(" ".join(first[:6]).split()).casefold()
    for kind, words in _TITLE_WORDS:
        if words in head:
            return kind
    if "comprehensive rules" in head:
        raise ParseError(
            "the Comprehensive Rules are imported from the TXT file Wizards publishes, not a PDF",
            source=text.source,
            page=text.lines[0].page,
        )
    raise ParseError(
        f"not a rules document: page {text.lines[0].page} opens with {first[0][:60]!r}, not the "
        "title of the MTR, the IPG or Judging at Regular REL",
        source=text.source,
        page=text.lines[0].page,
    )


def _scrape_date(blocks: list[Block]) -> tuple[list[Block], str | None]:
    """A bare YYYY-MM-DD line before the title (the shipped HTML files open with their scrape date,
    which a browser prints as text): not part of the document, as the HTML reader has it."""
    if blocks and blocks[0].kind == "p" and _SCRAPE_DATE.match(blocks[0].text.strip()):
        return blocks[1:], blocks[0].text.strip()
    return blocks, None


def _contents_headings(blocks: list[Block], lines: dict[int, Line]) -> list[Block]:
    """A numbered heading set smaller than a later heading of the same number, or smaller than the
    body's largest numbered headings and before the first of them, is a contents entry (a browser
    prints the HTML's <h2> contents list as headings, the sections as larger <h1>): it becomes an
    "h2", as the HTML reader has it, and only the section's own heading opens it."""
    sizes: dict[str, list[float]] = {}
    numbers: dict[int, str] = {}
    for index, block in enumerate(blocks):
        heading = parse_heading(block.text) if block.kind == "h1" else None
        if heading is not None and block.line in lines:
            numbers[index] = heading.number
            sizes.setdefault(heading.number, []).append(lines[block.line].size)
    out = list(blocks)
    if not numbers:
        return out
    largest = max(lines[blocks[i].line].size for i in numbers)
    body_start = min(i for i in numbers if lines[blocks[i].line].size > largest - 0.5)
    for index, number in numbers.items():
        size = lines[blocks[index].line].size
        later = sizes[number][sizes[number].index(size) + 1 :]
        # smaller than a later heading of its number, or than the section headings it comes before
        if any(other > size + 0.5 for other in later) or (
            index < body_start and size < largest - 0.5
        ):
            out[index] = replace(blocks[index], kind="h2")
    return out


_SENTENCE_END = re.compile(r"[.:!?]$")
_NUMBERED_CELL = re.compile(r"(?:^|(?<=\s))(?=\d+\.\d+\.?\s+\S)")


def _chapter_index_rows(blocks: list[Block]) -> list[Block]:
    """The lines right after a chapter heading that only list that chapter's sections ("2.1. Game
    Play Error - Missed Trigger 2.5. ...": the HTML's table of links, its cells run together or
    wrapped in a print) become the table rows the HTML reader gives, links and all, so the IPG
    builder drops them as it does there; a wrapped cell's tail ("State") goes with them."""
    out: list[Block] = []
    chapter: str | None = None
    for block in blocks:
        heading = parse_heading(block.text) if block.kind == "h1" else None
        if heading is not None:
            chapter = heading.number if "." not in heading.number else None
            out.append(block)
            continue
        if chapter is None or block.kind not in ("p", "row", "li"):
            chapter = None
            out.append(block)
            continue
        cells = [
            c.strip()
            for part in re.split(r"\n| \| ", block.text)
            for c in _NUMBERED_CELL.split(part)
            if c.strip()
        ]
        numbered = [parse_heading(c) for c in cells]
        listed = [
            (h, c)
            for h, c in zip(numbered, cells)
            if h is not None and h.number.startswith(f"{chapter}.")
        ]
        tails = [c for h, c in zip(numbered, cells) if h is None]
        if listed and all(len(t.split()) <= 4 and not _SENTENCE_END.search(t) for t in tails):
            out.append(
                replace(
                    block,
                    kind="row",
                    text=" | ".join(c for _, c in listed),
                    links=tuple(f"#{h.number}" for h, _ in listed),
                )
            )
        elif (
            not listed
            and out
            and out[-1].kind == "row"
            and out[-1].links
            and len(block.text.split()) <= 4
            and not _SENTENCE_END.search(block.text)
        ):
            continue  # a wrapped cell's last words
        else:
            chapter = None
            out.append(block)
    return out


def parse_pdf(raw: bytes, source: str, limits: PdfLimits | None = None) -> ParsedDocument:
    """Parse an MTR, IPG or JAR PDF; ParseError naming the file and the page for anything else."""
    limits = limits or PdfLimits()
    text = read_pages(
        raw, source, max_pages=limits.max_pages, max_stream_bytes=limits.max_stream_bytes
    )
    kind = _kind(text)
    kept, leaders = strip_furniture(text)
    blocks, scrape = _scrape_date(
        _chapter_index_rows(_contents_headings(make_blocks(kept), dict(kept)))
    )
    plain = "\n".join(ln.text for _, ln in kept)
    try:
        return _unique(_build(kind, blocks, leaders, scrape, source, plain), text)
    except SectionTwice as exc:
        raise _twice(exc.number, exc.first, exc.second, text) from None
    except ParseError as exc:
        if exc.page:
            raise
        raise ParseError(exc.message, source=source, page=text.page_of(exc.line)) from None


def _unique(parsed: ParsedDocument, text: PdfText) -> ParsedDocument:
    """A section number read twice (a running header or a contents line taken for a heading) is an
    error naming both places, never a clash in the store."""
    seen: dict[str, int] = {}
    for rule in parsed.rules:
        if rule.number in seen:
            raise _twice(rule.number, seen[rule.number], rule.line, text)
        seen[rule.number] = rule.line
    return parsed


def _twice(number: str, first: int, second: int, text: PdfText) -> ParseError:
    return ParseError(
        f"section {number} appears twice: on page {text.page_of(first)} (line {first}) "
        f"and on page {text.page_of(second)} (line {second})",
        source=text.source,
        page=text.page_of(second),
    )


def _build(
    kind: DocKind,
    blocks: list[Block],
    leaders: list[LeaderEntry],
    scrape: str | None,
    source: str,
    plain: str,
) -> ParsedDocument:
    if kind is DocKind.JAR:
        from rulesref.parsing.jar import jar_document

        return jar_document(blocks, True, scrape, source, plain)
    contents = [
        ContentsEntry(parse_heading(e.title), e.title, e.line)
        for e in leaders
        if e.title.casefold() != "introduction"
    ]
    outline = outline_from_blocks(blocks, True, scrape, source, kind, contents)
    if kind is DocKind.IPG:
        from rulesref.parsing.ipg import ipg_document

        return ipg_document(outline, source, plain)
    from rulesref.parsing.mtr import build_document

    return build_document(outline, kind, plain)
