"""An MTR, IPG or JAR PDF in, the same ParsedDocument the HTML importer gives out.

The PDF is read to text blocks (rulesref.parsing.pdf, rulesref.parsing.pdf_blocks); from there the
HTML importer's own builders make the records (html.outline_from_blocks, mtr.build_document,
ipg.ipg_document, jar.jar_document), so numbers, titles, text, examples, infraction parts,
aliases, references and the effective date (read from the text) come out the same. Every
ParseError names the file and the page ("IPG.pdf: page 14: ...").
"""

from __future__ import annotations

from rulesref.parsing.html import ContentsEntry, outline_from_blocks, parse_heading
from rulesref.parsing.pdf import PdfText, read_pages, strip_furniture
from rulesref.parsing.pdf_blocks import make_blocks
from rulesref.parsing.records import DocKind, ParsedDocument, ParseError

_TITLE_WORDS = (
    (DocKind.MTR, "tournament rules"),
    (DocKind.IPG, "infraction procedure guide"),
    (DocKind.JAR, "judging at regular"),
)


def detect_pdf_kind(raw: bytes, source: str) -> DocKind:
    """MTR, IPG or JAR from the title the PDF prints on its first page; ParseError otherwise."""
    return _kind(read_pages(raw, source))


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


def parse_pdf(raw: bytes, source: str) -> ParsedDocument:
    """Parse an MTR, IPG or JAR PDF; ParseError naming the file and the page for anything else."""
    text = read_pages(raw, source)
    kind = _kind(text)
    kept, leaders = strip_furniture(text)
    blocks = make_blocks(kept)
    plain = "\n".join(ln.text for _, ln in kept)
    try:
        if kind is DocKind.JAR:
            from rulesref.parsing.jar import jar_document

            return jar_document(blocks, True, None, source, plain)
        contents = [ContentsEntry(parse_heading(e.title), e.title, e.line) for e in leaders if e.title.casefold() != "introduction"]
        outline = outline_from_blocks(blocks, True, None, source, kind, contents)
        if kind is DocKind.IPG:
            from rulesref.parsing.ipg import ipg_document

            return ipg_document(outline, source, plain)
        from rulesref.parsing.mtr import build_document

        return build_document(outline, kind, plain)
    except ParseError as exc:
        if exc.page:
            raise
        raise ParseError(exc.message, source=source, page=text.page_of(exc.line)) from None
