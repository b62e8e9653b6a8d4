"""Reads any rules document: decodes the bytes, tells which document it is from its own text, parses it."""

from __future__ import annotations

from rulesref.parsing.records import DocKind, ParsedDocument, ParseError


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
        "not a rules document: expected the Comprehensive Rules text or an MTR, IPG or JAR HTML rendering",
        source=source,
        line=1,
    )


def parse_document(raw: bytes, source: str) -> ParsedDocument:
    """Parse raw bytes of a CR, MTR, IPG or JAR file; ParseError names the source and line."""
    from rulesref.parsing.common import decode_document

    if not raw.strip():
        raise ParseError("the file is empty", source=source, line=1)
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
