"""Reading the "light" HTML renderings of the MTR, IPG and JAR: markup to text blocks, front
matter, outline.

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
  - 2018 on (blog export): <header><h1>Title</h1></header>, an <em> with the dates,
    <h2>Introduction, "Contents" with <h2>"1. Chapter" and a paragraph of section links per chapter,
    then one <header><h1>"MTR 4.2 Tournament Shortcuts"</h1></header> per section, chapter ("IPG 2.
    Game Play Errors") or appendix ("MTR Appendix A - ...").

Every text block lands somewhere: in the title/date lines, the introduction, the contents (checked
against the headings), a section, or `notes` (trademark and converter lines). A block that fits none
of these raises ParseError with the source and line. Images carry no text and are skipped; the first
line of each file (a scrape date, not part of the document) is reported in `notes`.
"""

from __future__ import annotations

from rulesref.parsing.html.blocks import (  # noqa: F401  (the package's public names)
    _BOLD,
    _CONTAINER,
    _LEAF,
    _SCRAPE_DATE,
    _SKIP,
    Block,
    _BlockReader,
    _clean,
    to_blocks,
)
from rulesref.parsing.html.front import (  # noqa: F401  (the package's public names)
    _DATE,
    _EFFECTIVE,
    _TITLES,
    _UPDATED,
    _title_block,
    _to_date,
    detect_html_kind,
    read_dates,
)
from rulesref.parsing.html.outline import (  # noqa: F401  (the package's public names)
    _APPENDIX_HEAD,
    _CHAPTER_HEAD,
    _CONTENTS_MARK,
    _DOC_PREFIX,
    _INTRO_MARK,
    _MAX_CONTENTS_LINE,
    _SECTION_HEAD,
    BOILERPLATE,
    ContentsEntry,
    Heading,
    Outline,
    Section,
    _check_against_contents,
    _contents_entries,
    _first_body_heading,
    _is_body_heading,
    _note_unmatched_entries,
    _read_body,
    _split_front,
    _title_from_contents,
    expect_dates,
    expect_title,
    outline_from_blocks,
    parse_heading,
    read_outline,
)
from rulesref.parsing.html.references import (  # noqa: F401  (the package's public names)
    _DOC_NAMES,
    _ITEM,
    _LIST,
    _MAX_RANGE,
    _NUM,
    _RANGE,
    _REF,
    _expand_items,
    extract_policy_references,
)
from rulesref.parsing.html.text import (  # noqa: F401  (the package's public names)
    _EXAMPLE_LEAD,
    _EXAMPLE_MARK,
    block_text,
    join_blocks,
    split_examples,
)

# the package's public names, for importers checked with no_implicit_reexport (mypy.ini)
__all__ = [
    "BOILERPLATE",
    "Block",
    "ContentsEntry",
    "Heading",
    "Outline",
    "Section",
    "_APPENDIX_HEAD",
    "_BOLD",
    "_BlockReader",
    "_CHAPTER_HEAD",
    "_CONTAINER",
    "_CONTENTS_MARK",
    "_DATE",
    "_DOC_NAMES",
    "_DOC_PREFIX",
    "_EFFECTIVE",
    "_EXAMPLE_LEAD",
    "_EXAMPLE_MARK",
    "_INTRO_MARK",
    "_ITEM",
    "_LEAF",
    "_LIST",
    "_MAX_CONTENTS_LINE",
    "_MAX_RANGE",
    "_NUM",
    "_RANGE",
    "_REF",
    "_SCRAPE_DATE",
    "_SECTION_HEAD",
    "_SKIP",
    "_TITLES",
    "_UPDATED",
    "_check_against_contents",
    "_clean",
    "_contents_entries",
    "_expand_items",
    "_first_body_heading",
    "_is_body_heading",
    "_note_unmatched_entries",
    "_read_body",
    "_split_front",
    "_title_block",
    "_title_from_contents",
    "_to_date",
    "block_text",
    "detect_html_kind",
    "expect_dates",
    "expect_title",
    "extract_policy_references",
    "join_blocks",
    "outline_from_blocks",
    "parse_heading",
    "read_dates",
    "read_outline",
    "split_examples",
    "to_blocks",
]
