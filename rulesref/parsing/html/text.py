"""A section's blocks as text, and its "Example: ..." paragraphs split out."""

from __future__ import annotations

import re

from rulesref.parsing.html.blocks import (
    Block,
)

# ---------------------------------------------------------------------------------------------
# Text


def block_text(block: Block) -> str:
    """A block as readable plain text: list items get a "- " bullet."""
    return (
        f"- {block.text}"
        if block.kind == "li" and not block.text.startswith(("-", "\u2022"))
        else block.text
    )


def join_blocks(blocks: list[Block]) -> str:
    """Paragraphs separated by a blank line; the items of one list, or rows of one table, by
    a newline."""
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


def _introduces_table(blocks: list[Block], index: int) -> bool:
    """An example paragraph that a table follows (MTR Appendix C: "Examples: These three players
    competed ...", then their records) is the table's introduction: both stay in the text."""
    return index + 1 < len(blocks) and blocks[index + 1].kind == "row"


def split_examples(blocks: list[Block]) -> tuple[list[Block], list[str]]:
    """Take "Example:" paragraphs out of a section's blocks: (the other blocks, the examples).

    "Example: text" gives "text". A bare "Example(s):" line gives the list items right after it,
    one example each, or else the one paragraph after it; the bare line itself is then dropped.
    An example followed by a table introduces it, and stays in the text with it.
    """
    kept: list[Block] = []
    examples: list[str] = []
    index = 0
    while index < len(blocks):
        block = blocks[index]
        lead = _EXAMPLE_LEAD.match(block.text)
        if lead and block.kind != "row" and not _introduces_table(blocks, index):
            examples.append(block.text[lead.end() :].strip())
            index += 1
            continue
        if _EXAMPLE_MARK.match(block.text) and index + 1 < len(blocks):
            following = index + 1
            while following < len(blocks) and blocks[following].kind == "li":
                examples.append(blocks[following].text)
                following += 1
            if (
                following == index + 1
                and blocks[following].kind in ("p", "text")
                and not _introduces_table(blocks, following)
            ):
                examples.append(blocks[following].text)
                following += 1
            if following > index + 1:
                index = following
                continue
        kept.append(block)
        index += 1
    return kept, examples
