"""Reading a rules document typeset as PDF (as Wizards publishes the MTR, IPG and JAR): text lines
out of pdfminer.six, what the layout adds taken away, the same text blocks the HTML reader makes.

    read_pages(raw, source)   the text lines of every page, with position, size and weight; refuses
                              (ParseError naming the file and page) an encrypted, cut or image-only
                              file and anything that is not a PDF
    layout_blocks(pages)      the lines a reader does not want removed, the rest as html.Block:

      running headers/footers  a line in the top or bottom band of the page whose text (digits
                               aside) comes back on at least two and half the pages, bare page
                               numbers ("12", "Page 12", "12 of 40", "3/32") there, and what a
                               browser prints there (the date and time, the file's address)
      contents                 lines ending in dot leaders and a page number ("4.2. Tournament
                               Shortcuts ..... 12"): returned apart as contents entries, so the
                               outline checks them against the headings (a listed section missing
                               from the body is a cut file) as it does the HTML contents
      ligatures                U+FB00..FB06 ("ﬁ") spelled out
      hyphenation              "judg-" / "ment" at a line end joined to "judgment"; a hyphen kept
                               where the document prints the hyphenated word unbroken elsewhere
                               ("pre-game") and never the joined one
      line breaks              a line that ends where the next word would still have fit is a break
                               the author made (HTML <br>: "\\n" in the block); a full line wraps. The
                               same test joins a paragraph that runs on over a page break

    Blocks: a line set larger than the body text is a heading ("h1"); "•" opens a list item ("li");
    fragments of one baseline are table cells ("row", joined by " | "); the rest are paragraphs
    ("p"), bold when every line of them is. Block.line is the 1-based line of the extracted text;
    PdfText.page_of(line) names its page.

    Bounds (a PDF is untrusted input): read_pages refuses a file whose page tree counts more than
    `max_pages` pages before reading any, and a stream that inflates past `max_stream_bytes` as soon
    as it does (never holding more than that cap of it); `first_pages` reads only the first pages,
    which is all telling the document's kind needs.
"""  # noqa: E501

from __future__ import annotations

import contextvars
import io
import re
import statistics
import zlib
from collections import Counter
from dataclasses import dataclass
from typing import Any

from rulesref.parsing.records import ParseError

_LIGATURES = {
    "\ufb00": "ff",
    "\ufb01": "fi",
    "\ufb02": "fl",
    "\ufb03": "ffi",
    "\ufb04": "ffl",
    "\ufb05": "st",
    "\ufb06": "st",
}
_BULLETS = ("\u2022", "\u25cf", "\u25aa", "\u2023", "\u2043")
_PAGE_NUMBER = re.compile(r"^(?:page\s*)?\d{1,4}(?:\s*(?:of|/)\s*\d{1,4})?$", re.IGNORECASE)
_LEADER = re.compile(r"^(?P<title>\S.*?)\s*(?:\.\s*){3,}(?P<page>\d{1,4})$")
# What a browser prints around every page (Chromium, Firefox): the date and time, the
# file's address.
_BROWSER_FURNITURE = re.compile(
    r"^(?:\d{1,2}/\d{1,2}/\d{2,4},?\s+\d{1,2}:\d{2}(?::\d{2})?(?:\s*[AP]M)?|(?:file|https?)://\S+)$",
    re.IGNORECASE,
)
_CONTENTS_TITLE = re.compile(r"^(?:table\s+of\s+)?contents$", re.IGNORECASE)
_BAND = 0.08  # top and bottom share of the page where running headers and footers sit
MAX_PAGES = 1000  # defaults of read_pages' bounds (judgeapp passes its settings)
MAX_STREAM_BYTES = 64 * 1024 * 1024


class StreamTooLarge(Exception):
    """A compressed stream inflated past the cap (a "PDF bomb"); raised from inside pdfminer."""


_STREAM_CAP: contextvars.ContextVar[int] = contextvars.ContextVar(
    "pdf_stream_cap", default=MAX_STREAM_BYTES
)


class _Inflater:
    """zlib.decompressobj counting what it gives out: StreamTooLarge past the cap."""

    def __init__(self, cap: int) -> None:
        self._inner = zlib.decompressobj()
        self._cap = cap
        self._out = 0

    def decompress(self, data: bytes, max_length: int = 0) -> bytes:
        room = self._cap - self._out + 1
        out = self._inner.decompress(data, min(max_length, room) if max_length else room)
        self._out += len(out)
        if self._out > self._cap:
            raise StreamTooLarge(self._cap)
        return out

    def flush(self, *args: int) -> bytes:
        out = self._inner.flush(*args)
        self._out += len(out)
        if self._out > self._cap:
            raise StreamTooLarge(self._cap)
        return out

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)


class _BoundedZlib:
    """What pdfminer.pdftypes calls as `zlib`: inflating never holds more than the current cap
    (zlib.decompress would build the whole inflated stream first)."""

    error = zlib.error
    MAX_WBITS = zlib.MAX_WBITS

    @staticmethod
    def decompressobj(*args: Any, **kwargs: Any) -> _Inflater:
        return _Inflater(_STREAM_CAP.get())

    @staticmethod
    def decompress(data: bytes, *args: Any) -> bytes:
        inflater = _Inflater(_STREAM_CAP.get())
        out = inflater.decompress(data)
        if not inflater.eof:
            raise zlib.error("Error -5 while decompressing data: incomplete or truncated stream")
        return out

    def __getattr__(self, name: str) -> Any:
        return getattr(zlib, name)


def _bound_pdfminer() -> None:
    from pdfminer import pdftypes

    if not isinstance(pdftypes.zlib, _BoundedZlib):
        pdftypes.zlib = _BoundedZlib()  # type: ignore[assignment]


@dataclass(frozen=True)
class PdfLimits:
    """read_pages' bounds, as one value the callers pass along (judgeapp: its settings)."""

    max_pages: int = MAX_PAGES
    max_stream_bytes: int = MAX_STREAM_BYTES


def count_pages(raw: bytes) -> int:
    """The page count the file's page tree declares (/Count), read without reading a page; 0
    when unknown."""
    from pdfminer.pdfdocument import PDFDocument
    from pdfminer.pdfparser import PDFParser
    from pdfminer.pdftypes import resolve1

    try:
        document = PDFDocument(PDFParser(io.BytesIO(raw)))
        pages = resolve1(document.catalog.get("Pages"))
        return int(resolve1(pages.get("Count", 0))) if isinstance(pages, dict) else 0
    except StreamTooLarge:
        raise
    except Exception:  # noqa: BLE001 - a damaged file: read_pages reports it with its page
        return 0


def is_pdf(raw: bytes) -> bool:
    """A PDF by its content: the "%PDF-" signature in the first kilobyte (never the file name)."""
    return b"%PDF-" in raw[:1024]


@dataclass
class Line:
    page: int
    x0: float
    x1: float
    top: float  # distance from the top of the page to the baseline area
    size: float
    bold: bool
    text: str
    first_word: float  # width of the first word, to tell a wrapped line from a broken one
    space: float  # width of a space in this line's font
    word_x: tuple[tuple[int, float], ...] = ()  # (index in text, x0) of each word after the first


@dataclass
class PdfText:
    source: str
    pages: int
    lines: list[Line]
    height: float = 792.0

    def page_of(self, line: int) -> int:
        """The page of a 1-based Block.line (1 when out of range)."""
        if 1 <= line <= len(self.lines):
            return self.lines[line - 1].page
        return self.pages or 1


# ---------------------------------------------------------------------------------------------
# Extraction


def read_pages(
    raw: bytes,
    source: str,
    *,
    max_pages: int = MAX_PAGES,
    max_stream_bytes: int = MAX_STREAM_BYTES,
    first_pages: int = 0,
) -> PdfText:
    """Every text line of every page (of the first `first_pages` when that is set), in reading
    order; ParseError naming the file and page, also for a file over `max_pages` pages or a stream
    that inflates past `max_stream_bytes`."""
    from pdfminer.high_level import extract_pages
    from pdfminer.layout import LAParams, LTChar, LTFigure, LTImage, LTTextLine
    from pdfminer.pdfdocument import PDFEncryptionError, PDFPasswordIncorrect
    from pdfminer.pdfparser import PDFSyntaxError
    from pdfminer.psparser import PSException

    if not is_pdf(raw):
        raise ParseError("not a PDF (no %PDF- signature)", source=source, page=1)
    if b"%%EOF" not in raw[-2048:]:
        # the page objects that made it into the file
        pages = len(re.findall(rb"/Type\s*/Page(?!s)", raw))
        raise ParseError(
            "the file ends before its %%EOF marker (truncated?); nothing after this page can be "
            "read",
            source=source,
            page=max(1, pages),
        )
    _bound_pdfminer()
    lines: list[Line] = []
    page_number = 0
    height = 792.0
    cap = _STREAM_CAP.set(max_stream_bytes)
    try:
        declared = count_pages(raw)
        if declared > max_pages:
            raise ParseError(
                f"the PDF has {declared} pages, more than the {max_pages} a rules document may "
                "have "
                "(JUDGEAPP_PDF_MAX_PAGES)",
                source=source,
                page=1,
            )
        for page_number, page in enumerate(
            extract_pages(
                io.BytesIO(raw),
                maxpages=first_pages or max_pages + 1,
                laparams=LAParams(char_margin=1.5, line_margin=0.3, boxes_flow=None),
            ),
            start=1,
        ):
            if page_number > max_pages:
                raise ParseError(
                    f"the PDF has more than the {max_pages} pages a rules document may have "
                    "(JUDGEAPP_PDF_MAX_PAGES)",
                    source=source,
                    page=page_number,
                )
            height = page.height
            found: list[Line] = []
            images = 0
            stack = list(page)
            while stack:
                item = stack.pop()
                if isinstance(item, LTTextLine):
                    found.extend(_lines(item, page_number, height, LTChar))
                elif isinstance(item, LTImage):
                    images += 1
                elif isinstance(item, LTFigure) or hasattr(item, "__iter__"):
                    stack.extend(item)
            if not found and images:
                raise ParseError(
                    "the page is an image with no text (a scan?); judgeapp reads text and does "
                    "no OCR",
                    source=source,
                    page=page_number,
                )
            lines.extend(sorted(found, key=lambda ln: (round(ln.top, 0), ln.x0)))
    except ParseError:
        raise
    except StreamTooLarge:
        raise ParseError(
            f'a compressed stream inflates to more than {max_stream_bytes / 1e6:.1f} MB (a "PDF '
            'bomb"?); '
            "refused (JUDGEAPP_PDF_MAX_STREAM_BYTES)",
            source=source,
            page=max(1, page_number + 1),
        ) from None
    except (PDFPasswordIncorrect, PDFEncryptionError) as exc:
        raise ParseError(
            "the PDF is encrypted and cannot be read without its password "
            f"({exc.__class__.__name__})",
            source=source,
            page=max(1, page_number),
        ) from None
    except (PDFSyntaxError, PSException, ValueError, KeyError, TypeError, AttributeError) as exc:
        raise ParseError(
            f"the PDF cannot be read past this page: {exc or exc.__class__.__name__} (damaged or "
            "truncated?)",
            source=source,
            page=max(1, page_number),
        ) from None
    except Exception as exc:  # noqa: BLE001 - pdfminer raises assorted errors on damaged files
        if "encrypt" in exc.__class__.__name__.lower() or "password" in str(exc).lower():
            raise ParseError(
                "the PDF is encrypted and cannot be read without its password",
                source=source,
                page=max(1, page_number),
            ) from None
        raise ParseError(
            f"the PDF cannot be read past this page: {exc.__class__.__name__}: {exc}",
            source=source,
            page=max(1, page_number),
        ) from None
    finally:
        _STREAM_CAP.reset(cap)
    if page_number == 0:
        raise ParseError("the PDF has no pages", source=source, page=1)
    if not lines:
        raise ParseError(
            "no page has any text (an image-only scan?); judgeapp does no OCR",
            source=source,
            page=1,
        )
    return PdfText(source, page_number, lines, height)


# pdfminer layout objects (untyped)
def _lines(item: Any, page: int, height: float, char_type: Any) -> list[Line]:
    """The line's text, split where a gap wider than two and a half ems parts it: table cells that
    pdfminer ran into one line (a browser sets a table's cells closer than its character margin)."""
    runs: list[list[Any]] = [[]]
    previous = None
    for child in item:
        if isinstance(child, char_type):
            if (
                previous is not None
                and child.x0 - previous.x1 > 2.5 * max(previous.size, child.size)
                and runs[-1]
            ):
                runs.append([])
            previous = child
        runs[-1].append(child)
    found = []
    for run in runs:
        line = _line(run, page, height, char_type)
        if line is not None:
            found.append(line)
    return found


def _line(run: list[Any], page: int, height: float, char_type: Any) -> Line | None:
    chars = [c for c in run if isinstance(c, char_type)]
    text = _spell("".join(c.get_text() for c in run)).replace("\n", " ").strip()
    if not chars or not text:
        return None
    size = statistics.median(round(c.size, 1) for c in chars)
    bold = sum(1 for c in chars if "bold" in c.fontname.lower()) * 2 > len(chars)
    first_end = next((i for i, c in enumerate(chars) if c.get_text() == " "), len(chars))
    first = chars[max(0, first_end - 1)].x1 - chars[0].x0
    space = next((c.x1 - c.x0 for c in chars if c.get_text() == " "), size * 0.3)
    x0, x1 = min(c.x0 for c in chars), max(c.x1 for c in chars)
    return Line(
        page,
        x0,
        x1,
        height - min(c.y0 for c in chars),
        size,
        bold,
        text,
        first,
        space,
        _word_x(run, text, char_type),
    )


def _word_x(run: list[Any], text: str, char_type: Any) -> tuple[tuple[int, float], ...]:
    """Where each word after the first starts, as (index in `text`, x0): to split a line at
    a column."""
    starts: list[float] = []
    after_space = False
    for child in run:
        glyph = child.get_text()
        if glyph.isspace():
            after_space = True
        elif isinstance(child, char_type):
            if after_space:
                starts.append(child.x0)
            after_space = False
    indexes = [m.start() for m in re.finditer(r"(?<=\s)\S", text)]
    return tuple(zip(indexes, starts)) if len(indexes) == len(starts) else ()


def _spell(text: str) -> str:
    for ligature, letters in _LIGATURES.items():
        text = text.replace(ligature, letters)
    return text.replace("\xa0", " ")


# ---------------------------------------------------------------------------------------------
# Layout clean-up


@dataclass(frozen=True)
class LeaderEntry:
    title: str
    page: int  # the page the contents line is on
    line: int  # 1-based line of the extracted text


def strip_furniture(text: PdfText) -> tuple[list[tuple[int, Line]], list[LeaderEntry]]:
    """(kept lines with their 1-based line number, contents entries): headers, footers, page
    numbers and the contents page left out."""
    page_height = text.height
    band_lines = [ln for ln in text.lines if _in_band(ln, page_height)]
    signatures = Counter(
        key[:2]
        for key in {(_signature(ln.text), ln.top < page_height / 2, ln.page) for ln in band_lines}
    )
    # On two pages at least (a line once in a band of a two-page file is no running header) and half
    # of them.
    repeated = {key for key, count in signatures.items() if count >= 2 and count * 2 >= text.pages}
    kept: list[tuple[int, Line]] = []
    entries: list[LeaderEntry] = []
    leaders = Counter(ln.page for ln in text.lines if _LEADER.match(ln.text))
    contents_pages: set[int] = set()
    for page in sorted(leaders):  # a page of three entries or more, and the pages it runs on to
        if leaders[page] >= 3 or page - 1 in contents_pages:
            contents_pages.add(page)
    for number, ln in enumerate(text.lines, start=1):
        if _in_band(ln, page_height) and (
            (_signature(ln.text), ln.top < page_height / 2) in repeated
            or _PAGE_NUMBER.match(ln.text)
            or (_BROWSER_FURNITURE.match(ln.text) and _at_edge(ln, page_height))
        ):
            continue
        if ln.page in contents_pages:
            match = _LEADER.match(ln.text)
            if match:
                entries.append(LeaderEntry(" ".join(match.group("title").split()), ln.page, number))
                continue
            if _CONTENTS_TITLE.match(ln.text):
                continue
        kept.append((number, ln))
    return kept, entries


def _at_edge(ln: Line, page_height: float) -> bool:
    """In the page's margin proper, where a browser prints (a URL in the body's first line
    is text)."""
    return ln.top < page_height * 0.04 or ln.top > page_height * 0.96


def _in_band(ln: Line, page_height: float) -> bool:
    return ln.top < page_height * _BAND or ln.top > page_height * (1 - _BAND)


def _signature(text: str) -> str:
    return re.sub(r"\d+", "#", " ".join(text.split()).casefold())
