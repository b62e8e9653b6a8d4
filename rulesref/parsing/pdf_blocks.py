"""PDF text lines (rulesref.parsing.pdf) to the text blocks the HTML reader makes (html.Block).

See rulesref.parsing.pdf for what each kind of line becomes; this module holds the grouping:
fragments of one baseline into table rows, lines into paragraphs and list items (over page breaks
too), and the line-end decisions (a wrap, a break the author made, a hyphen to drop or keep).
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

from rulesref.parsing.html import Block
from rulesref.parsing.pdf import _BULLETS, Line

_WORD = re.compile(r"[A-Za-z][A-Za-z'-]*[A-Za-z]")
_HYPHENATED_END = re.compile(r"([A-Za-z]+)-$")
_ITEM_LETTER = re.compile(r"^[A-Z]\.\s")  # "B. A player ...": an IPG example's letter
_SENTENCE_END = re.compile(r"[.:!?)\"\u201d]$")


def body_metrics(lines: list[Line]) -> tuple[float, float, float]:
    """(body font size, baseline-to-baseline leading, right edge of the text) of the body lines."""
    sizes = Counter(round(ln.size, 1) for ln in lines for _ in range(max(1, len(ln.text) // 10)))
    body = sizes.most_common(1)[0][0]
    # lines of one paragraph; a paragraph's spacing comes on top (one-line paragraphs give no
    # such gap)
    gaps = [
        round(b.top - a.top, 1)
        for a, b in zip(lines, lines[1:])
        if a.page == b.page
        and round(a.size, 1) == body == round(b.size, 1)
        and 0 < b.top - a.top <= body * 1.45
    ]
    leading = Counter(gaps).most_common(1)[0][0] if gaps else body * 1.25
    ends = sorted(ln.x1 for ln in lines if round(ln.size, 1) == body)
    # Where full lines end: a high share of them (a table or a long address set wider than the text
    # column would push the largest past it, and every ragged line would then look broken).
    edge = ends[int(len(ends) * 0.95)] if len(ends) >= 20 else (ends[-1] if ends else 0.0)
    return body, leading, edge


def _baselines(numbered: list[tuple[int, Line]]) -> list[tuple[int, list[Line]]]:
    """Fragments sharing a baseline on one page, left to right, with the first one's line number."""
    groups: list[tuple[int, list[Line]]] = []
    for number, line in numbered:
        if (
            groups
            and groups[-1][1][0].page == line.page
            and abs(groups[-1][1][0].top - line.top) < 1.5
        ):
            groups[-1][1].append(line)
        else:
            groups.append((number, [line]))
    for _, fragments in groups:
        fragments.sort(key=lambda ln: ln.x0)
    return groups


def _merge_bullet(fragments: list[Line]) -> list[Line]:
    """ "•" drawn apart from its item's text is one line: "• text"."""
    if len(fragments) >= 2 and fragments[0].text in _BULLETS:
        rest = fragments[1]
        merged = Line(
            rest.page,
            fragments[0].x0,
            rest.x1,
            rest.top,
            rest.size,
            rest.bold,
            f"{fragments[0].text} {rest.text}",
            rest.first_word,
            rest.space,
        )
        return [merged, *fragments[2:]]
    return fragments


def vocabulary(lines: list[Line]) -> set[str]:
    """Words printed whole inside a line (not at its end), lower-cased: to judge
    line-end hyphens."""
    words: set[str] = set()
    for line in lines:
        found = _WORD.findall(line.text)
        for word in (found[:-1] if line.text.endswith("-") else found)[1:]:
            words.add(word.casefold())
            words.update(part.casefold() for part in word.split("-") if "-" in word)
    return words


def _join(previous: Line, text: str, following: Line, edge: float, words: set[str]) -> str:
    """The previous line's text joined to the next line's: hyphen dropped, space, or a break."""
    hyphen = _HYPHENATED_END.search(text)
    if hyphen and following.text[:1].isupper():
        return text + following.text  # "non-" / "Premier": a hyphen of the word, never one added
    if hyphen and following.text[:1].islower():
        head = hyphen.group(1)
        tail = _WORD.match(following.text)
        tail_word = tail.group(0) if tail else following.text.split(" ")[0]
        whole, compound = f"{head}{tail_word}".casefold(), f"{head}-{tail_word}".casefold()
        parts = len(head) >= 3 and head.casefold() in words and tail_word.casefold() in words
        if compound in words and whole not in words or (parts and whole not in words):
            return text + following.text
        return text[:-1] + following.text
    return text + (" " if is_full(previous, following, edge) else "\n") + following.text


def is_full(line: Line, following: Line, edge: float) -> bool:
    """The line was wrapped: the next line's first word would not have fit after it."""
    return line.x1 + line.space + following.first_word > edge + 0.5


def _split_at_columns(line: Line, columns: list[float]) -> str:
    """A row's line that pdfminer read as one (a header row's cells set close): its words split
    where the rows beside start their columns ("Cards remaining | Time allotted"); "" when they do
    not fit."""
    cuts = []
    for column in columns[1:]:
        cut = next((index for index, x in line.word_x if abs(x - column) < 2.5), None)
        if cut is None:
            return ""
        cuts.append(cut)
    parts = [line.text[a:b].strip() for a, b in zip([0, *cuts], [*cuts, len(line.text)])]
    return " | ".join(parts) if all(parts) else ""


def make_blocks(numbered: list[tuple[int, Line]]) -> list[Block]:
    """Blocks in reading order from the kept lines (numbered 1-based in the extracted text)."""
    plain = [ln for _, ln in numbered]
    if not plain:
        return []
    body, leading, edge = body_metrics(plain)
    words = vocabulary(plain)
    # A browser draws list bullets as shapes, not text: where no line carries a bullet glyph, a body
    # line indented past the text's left margin is a list item (a new one after a break, not
    # a wrap).
    glyphless = not any(ln.text[:1] in _BULLETS for ln in plain)
    margins = Counter(round(ln.x0) for ln in plain if round(ln.size, 1) == body)
    margin = margins.most_common(1)[0][0] if margins else 0.0
    blocks: list[dict[str, Any]] = []
    last: Line | None = None
    groups = _baselines(numbered)
    index = 0
    while index < len(groups):
        number, fragments = groups[index]
        fragments = _merge_bullet(fragments)
        index += 1
        if len(fragments) > 1:
            cells = [[f.text] for f in fragments]
            columns = [f.x0 for f in fragments]
            bottom = fragments[0]
            while index < len(groups):
                _, more = groups[index]
                if more[0].page != bottom.page or more[0].top - bottom.top > leading + 2:
                    break
                slots = [
                    next((i for i, x in enumerate(columns) if abs(x - f.x0) < 2.5), None)
                    for f in more
                ]
                if None in slots:  # not set in this row's columns: the row has ended
                    break
                for slot, fragment in zip(slots, more):
                    # for the type checker: None in slots ended the row above
                    assert slot is not None
                    cells[slot].append(fragment.text)
                bottom = more[0]
                index += 1
            text = " | ".join(" ".join(parts) for parts in cells)
            blocks.append(
                {
                    "kind": "row",
                    "text": text,
                    "line": number,
                    "bold": all(f.bold for f in fragments),
                    "last": None,
                    "x0": columns[0],
                    "columns": columns,
                }
            )
            last = None
            continue
        line = fragments[0]
        heading = line.size >= body * 1.15
        current = blocks[-1] if blocks else None
        if heading:
            if (
                current
                and current["kind"] == "h1"
                and current["last"]
                and current["last"].page == line.page
                and abs(current["last"].size - line.size) < 0.5
                and line.top - current["last"].top <= line.size * 1.6
            ):
                current["text"] += " " + line.text
                current["last"] = line
            else:
                blocks.append(
                    {
                        "kind": "h1",
                        "text": line.text,
                        "line": number,
                        "bold": line.bold,
                        "last": line,
                        "x0": line.x0,
                    }
                )
            last = line
            continue
        bullet = line.text[:1] in _BULLETS
        shaped = glyphless and line.x0 >= margin + 15 and round(line.size, 1) == body
        if shaped and current and current["kind"] == "li" and current["last"] is not None:
            gap = line.top - current["last"].top
            if (
                current["last"].page == line.page
                and leading + 2.5 < gap <= 2 * leading + 2.5
                and current["x0"] is not None
                and abs(line.x0 - current["x0"]) < 2.5
            ):
                # a blank line inside the item (<br><br>): same item
                current["text"] += "\n" + line.text
                current["last"] = last = line
                continue
            if not is_full(current["last"], line, edge) or (
                _SENTENCE_END.search(current["last"].text) and _ITEM_LETTER.match(line.text)
            ):
                # the previous item ended (a short line, or "B." after a sentence): the next item
                current = None
        if (
            not bullet
            and current
            and current["kind"] in ("p", "li")
            and current["last"] is not None
            and last is not None
        ):
            prev = current["last"]
            same_page = prev.page == line.page and 0 < line.top - prev.top <= leading + 2.5
            over_page = (
                line.page == prev.page + 1
                and current is blocks[-1]
                and is_full(prev, line, edge)
                and not (_SENTENCE_END.search(prev.text) and line.text[:1].isupper())
            )
            if current["x0"] is None:  # a list item's second line: indented past its bullet
                aligned = line.x0 > current["bullet"] + 3
            else:
                aligned = abs(line.x0 - current["x0"]) < 2.5
            # A wrapped line goes on whatever its weight (a bold lead-in runs into plain text); a
            # line after a break joins only a block of its own weight (a bold caption is not its
            # paragraph's).
            if (
                (same_page or over_page)
                and aligned
                and (line.bold == current["bold"] or is_full(prev, line, edge))
            ):
                current["bold"] = current["bold"] and line.bold
                current["text"] = _join(prev, current["text"], line, edge, words)
                current["x0"] = line.x0 if current["x0"] is None else current["x0"]
                current["last"] = line
                last = line
                continue
        if bullet:
            blocks.append(
                {
                    "kind": "li",
                    "text": line.text[1:].strip(),
                    "line": number,
                    "bold": line.bold,
                    "last": line,
                    "x0": None,
                    "bullet": line.x0,
                }
            )
        elif shaped:
            blocks.append(
                {
                    "kind": "li",
                    "text": line.text,
                    "line": number,
                    "bold": line.bold,
                    "last": line,
                    "x0": line.x0,
                    "bullet": line.x0,
                }
            )
        else:
            blocks.append(
                {
                    "kind": "p",
                    "text": line.text,
                    "line": number,
                    "bold": line.bold,
                    "last": line,
                    "x0": line.x0,
                }
            )
        last = line
    for index, block in enumerate(blocks):  # a one-cell row: set in a row's column, beside rows
        beside = [
            blocks[i]
            for i in (index - 1, index + 1)
            if 0 <= i < len(blocks) and blocks[i]["kind"] == "row"
        ]
        if (
            block["kind"] == "p"
            and beside
            and any(abs(block["x0"] - b["x0"]) < 2.5 for b in beside)
        ):
            block["kind"] = "row"
            row_columns: list[float] | None = next(
                (b["columns"] for b in beside if b.get("columns")), None
            )
            if row_columns and block["last"] is not None and "\n" not in block["text"]:
                block["text"] = _split_at_columns(block["last"], row_columns) or block["text"]
    return [Block(b["kind"], b["text"], b["line"], bold=b["bold"]) for b in blocks]
