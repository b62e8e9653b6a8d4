"""Reads any rules document: decodes the bytes (or reads the PDF), tells which document it is from
its own text, parses it."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rulesref.parsing.records import DocKind, ParsedDocument, ParseError

if TYPE_CHECKING:
    from rulesref.parsing.pdf import PdfLimits


def detect_kind(text: str, source: str) -> DocKind:
    """The kind of document, from its text (never its file name)."""
    head = text[:4000]
    if "Comprehensive Rules" in head and "<html" not in head.lower():
        return DocKind.CR
    if "<" in head:
        from rulesref.parsing.html import detect_html_kind

        kind = detect_html_kind(text)
        if kind is not None:
            return kind
    raise ParseError(
        "not a rules document: expected the Comprehensive Rules text, or the MTR, IPG or JAR as "
        "PDF or an HTML rendering",
        source=source,
        line=1,
    )


def detect_raw_kind(raw: bytes, source: str, pdf_limits: PdfLimits | None = None) -> DocKind:
    """detect_kind on raw bytes: a PDF is told by its first page's title (its first pages only are
    read), text by its text."""
    from rulesref.parsing.pdf import is_pdf

    if is_pdf(raw):
        from rulesref.parsing.pdf_rules import detect_pdf_kind

        return detect_pdf_kind(raw, source, pdf_limits)
    from rulesref.parsing.common import decode_document

    return detect_kind(decode_document(raw, source), source)


def parse_document(raw: bytes, source: str, pdf_limits: PdfLimits | None = None) -> ParsedDocument:
    """Parse raw bytes of a CR, MTR, IPG or JAR file; ParseError names the source and line."""
    from rulesref.parsing.common import decode_document

    if not raw.strip():
        raise ParseError("the file is empty", source=source, line=1)
    from rulesref.parsing.pdf import is_pdf

    if is_pdf(raw):  # MTR, IPG and JAR as Wizards publishes them
        from rulesref.parsing.pdf_rules import parse_pdf

        return parse_pdf(raw, source, pdf_limits)
    text = decode_document(raw, source)
    kind = detect_kind(text, source)
    if kind is DocKind.CR:
        from rulesref.parsing.cr import parse_cr

        return parse_cr(text, source)
    if kind is DocKind.MTR:
        from rulesref.parsing.mtr import parse_mtr

        return parse_mtr(text, source)
    if kind is DocKind.IPG:
        from rulesref.parsing.ipg import parse_ipg

        return parse_ipg(text, source)
    from rulesref.parsing.jar import parse_jar

    return parse_jar(text, source)
