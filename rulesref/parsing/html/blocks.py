"""Markup to text blocks: a paragraph, list item, heading, table row or loose run of text, each with
the 1-based line where its text starts."""

from __future__ import annotations

import re
from dataclasses import dataclass
from html.parser import HTMLParser

# ---------------------------------------------------------------------------------------------
# Blocks

_LEAF = frozenset(
    {"p", "li", "h1", "h2", "h3", "h4", "h5", "h6", "dt", "dd", "caption", "pre", "blockquote"}
)
_CONTAINER = frozenset(
    {"div", "header", "ul", "ol", "table", "tbody", "thead", "body", "html", "section", "hr", "dl"}
)
_BOLD = frozenset({"b", "strong"})
_SKIP = frozenset({"head", "script", "style", "title"})
_SCRAPE_DATE = re.compile(r"^\s*\d{4}-\d{2}-\d{2}\s*$")
# What an <img> in the text becomes: the 2018+ MTRs print the playoff brackets (10.4) and two of
# Appendix C's results ("... so their opponents' match-win percentage is:") as images only.
IMAGE_NOTE = "[an image in the published document, not shown here]"


@dataclass(frozen=True)
class Block:
    """One unit of text: kind is the tag ("p", "li", "h1".."h6", "row" for a table row)
    or "text"."""

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
        if tag == "img":
            if not self._skip and (self._stack or self._cells is not None):
                self._line = self._line or self.getpos()[0]
                self._parts.append(f" {IMAGE_NOTE} ")
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
        if (
            self._stack
            and self._stack[-1] == "p"
            and (tag in _LEAF or tag in _CONTAINER or tag == "tr")
        ):
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
            elif self._stack:
                # a bold line ended by <br> ("<b>APPENDIX B - ...</b><br>") stands alone
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
        # a source newline is a space
        self._parts.append(data.replace("\r", " ").replace("\n", " "))
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
    # "\n" only from <br>
    lines = [re.sub(r"[ \t\r\f\v]+", " ", part).strip() for part in text.split("\n")]
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
