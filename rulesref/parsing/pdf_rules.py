"""An MTR, IPG or JAR PDF in, the same ParsedDocument the HTML importer gives out.

The PDF is read to text blocks (rulesref.parsing.pdf, rulesref.parsing.pdf_blocks); from there the
HTML importer's own builders make the records (html.outline_from_blocks, mtr.build_document,
ipg.ipg_document, jar.jar_document), so numbers, titles, text, examples, infraction parts,
aliases, references and the effective date (read from the text) come out the same. Every
ParseError names the file and the page ("IPG.pdf: page 14: ...").
"""

from __future__ import annotations

import re

from rulesref.parsing.html import Block, ContentsEntry, outline_from_blocks, parse_heading
from rulesref.parsing.pdf import PdfLimits, PdfText, read_pages, strip_furniture
from rulesref.parsing.pdf_blocks import make_blocks
from rulesref.parsing.records import DocKind, ParsedDocument, ParseError

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
    return _kind(read_pages(raw, source, max_pages=limits.max_pages, max_stream_bytes=limits.max_stream_bytes,
                            first_pages=KIND_PAGES))


def _kind(text: PdfText) -> DocKind:
    first = [ln.text for ln in text.lines if ln.page == text.lines[0].page]
    head = " ".join(" ".join(first[:6]).split()).casefold()
    for kind, words in _TITLE_WORDS:
        if words in head:
            return kind
    if "comprehensive rules" in head:
        raise ParseError("the Comprehensive Rules are imported from the TXT file Wizards publishes, not a PDF",
                         source=text.source, page=text.lines[0].page)
    raise ParseError(f"not a rules document: page {text.lines[0].page} opens with {first[0][:60]!r}, not the title of "
                     "the MTR, the IPG or Judging at Regular REL", source=text.source, page=text.lines[0].page)


def _scrape_date(blocks: list[Block]) -> tuple[list[Block], str | None]:
    """A bare YYYY-MM-DD line before the title (the shipped HTML files open with their scrape date,
    which a browser prints as text): not part of the document, as the HTML reader has it."""
    if blocks and blocks[0].kind == "p" and _SCRAPE_DATE.match(blocks[0].text.strip()):
        return blocks[1:], blocks[0].text.strip()
    return blocks, None


def parse_pdf(raw: bytes, source: str, limits: PdfLimits | None = None) -> ParsedDocument:
    """Parse an MTR, IPG or JAR PDF; ParseError naming the file and the page for anything else."""
    limits = limits or PdfLimits()
    text = read_pages(raw, source, max_pages=limits.max_pages, max_stream_bytes=limits.max_stream_bytes)
    kind = _kind(text)
    kept, leaders = strip_furniture(text)
    blocks, scrape = _scrape_date(make_blocks(kept))
    plain = "\n".join(ln.text for _, ln in kept)
    try:
        return _unique(_build(kind, blocks, leaders, scrape, source, plain), text)
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
            first = seen[rule.number]
            raise ParseError(
                f"section {rule.number} appears twice: on page {text.page_of(first)} (line {first}) and on page "
                f"{text.page_of(rule.line)} (line {rule.line})", source=text.source, page=text.page_of(rule.line))
        seen[rule.number] = rule.line
    return parsed


def _build(kind: DocKind, blocks: list[Block], leaders: list, scrape: str | None, source: str, plain: str) -> ParsedDocument:
    if kind is DocKind.JAR:
        from rulesref.parsing.jar import jar_document

        return jar_document(blocks, True, scrape, source, plain)
    contents = [ContentsEntry(parse_heading(e.title), e.title, e.line) for e in leaders if e.title.casefold() != "introduction"]
    outline = outline_from_blocks(blocks, True, scrape, source, kind, contents)
    if kind is DocKind.IPG:
        from rulesref.parsing.ipg import ipg_document

        return ipg_document(outline, source, plain)
    from rulesref.parsing.mtr import build_document

    return build_document(outline, kind, plain)
