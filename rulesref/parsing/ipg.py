"""The Infraction Procedure Guide parser: an IPG HTML rendering in, one ParsedDocument out.

Numbering, dates, introduction ("0"), chapters and appendices are read as for the MTR (see
rulesref.parsing.mtr and rulesref.parsing.html); the IPG chapters ("2. Game Play Errors") carry
text of their own. Each infraction, a section of chapters 2-4 titled "<category> - <name>"
("2.5 Game Play Error - Game Rule Violation"), also gets:

    fields      ("definition", ...), ("penalty", "Warning"), ("examples", ...), ("philosophy", ...),
                ("additional_remedy", ...), ("upgrade", ...), ("downgrade", ...): the parts present,
                in that order (PART_ORDER). The penalty is printed as a table row under a "Penalty"
                header (2017) or as a "Penalty" box (2018+), and is required: an infraction without
                one is a ParseError. Upgrades and downgrades are an "Upgrade"/"Downgrade" box (2018+)
                or "Upgrade: ..."/"Downgrade: ..." paragraphs (2017; Tardiness in every version since
                2019 prints "Downgrade: ..." right after its "Upgrade: ..." paragraph).
    examples    one string per example: each list item (2018+, "A. A player ..." or unlettered),
                or each lettered paragraph (2017), where an unlettered paragraph continues the
                example before it ("D. ... <br></p><p>She realizes ...").
    aliases     the infraction's name ("Game Rule Violation") and the abbreviations judges use,
                from INFRACTION_ALIASES ("GRV", "GPE-GRV"); an infraction missing from the table
                gets its initials and a note, so a new IPG still parses.
    text        everything else in reading order, with "Definition", "Philosophy" ... lines and a
                "Penalty: Warning" line where the markup has them; the examples are in `examples`.

The small contents tables at the top of each IPG chapter (2018+) repeat the section list and are
dropped after checking that every entry names a section of the document.
"""  # noqa: E501

from __future__ import annotations

import re

from rulesref.parsing.html import Block, Outline, Section, join_blocks, parse_heading, read_outline
from rulesref.parsing.mtr import (
    INTRO_NUMBER,
    build_document,
    intro_rule,
    section_rule,
    with_references,
)
from rulesref.parsing.records import DocKind, ParsedDocument, ParsedRule, ParseError, RuleKind

# The 23 infractions of every IPG in the corpus (2017-04 to 2021-01), by the name after the
# category, with the abbreviations judges write in reports and chats. The category prefixes are
# GPE (Game Play Error), TE (Tournament Error) and USC (Unsporting Conduct).
INFRACTION_ALIASES: dict[str, tuple[str, ...]] = {
    "Missed Trigger": ("MT", "GPE-MT"),
    "Looking at Extra Cards": ("LEC", "GPE-LEC"),
    "Hidden Card Error": ("HCE", "GPE-HCE"),
    "Mulligan Procedure Error": ("MPE", "GPE-MPE"),
    "Game Rule Violation": ("GRV", "GPE-GRV"),
    "Failure to Maintain Game State": ("FtMGS", "FMGS", "GPE-FtMGS"),
    "Tardiness": ("TE-Tardiness",),
    "Outside Assistance": ("OA", "TE-OA"),
    "Slow Play": ("SP", "TE-SP"),
    "Decklist Problem": ("DLP", "TE-DLP", "D/DLP"),
    "Deck Problem": ("DP", "TE-DP"),
    "Deck/Decklist Problem": ("D/DLP", "DDLP"),  # the pre-2017 single infraction
    "Limited Procedure Violation": ("LPV", "TE-LPV"),
    "Communication Policy Violation": ("CPV", "TE-CPV"),
    "Marked Cards": ("MC", "TE-MC"),
    "Insufficient Shuffling": ("IS", "TE-IS"),
    "Minor": ("USC-Minor", "USC Minor", "UC-Minor"),
    "Major": ("USC-Major", "USC Major", "UC-Major"),
    "Improperly Determining a Winner": ("IDW", "USC-IDW"),
    "Bribery and Wagering": ("B&W", "USC-B&W", "Bribery", "Wagering"),
    "Aggressive Behavior": ("AB", "USC-AB"),
    "Theft of Tournament Material": ("TTM", "USC-TTM", "Theft"),
    "Stalling": ("USC-Stalling",),
    "Cheating": ("USC-Cheating",),
}
_INFRACTION_CHAPTERS = frozenset({"2", "3", "4"})
_INFRACTION_TITLE = re.compile(
    r"^(?P<category>[^-\u2013\u2014]+?)\s*[-\u2013\u2014]\s*(?P<name>\S.*)$"
)
_SUBHEADINGS = {
    "definition": "definition",
    "examples": "examples",
    "example": "examples",
    "philosophy": "philosophy",
    "additional remedy": "additional_remedy",
    "upgrade": "upgrade",
    "upgrades": "upgrade",
    "downgrade": "downgrade",
    "downgrades": "downgrade",
}
# The parts of an infraction, in the order the IPG prints them.
PART_ORDER = (
    "definition",
    "penalty",
    "examples",
    "philosophy",
    "additional_remedy",
    "upgrade",
    "downgrade",
)
# "Upgrade: ..." or "Downgrade: ..." opening a paragraph: that part begins with the rest of it.
_PART_LEAD = re.compile(r"^(?P<part>Upgrade|Downgrade)s?\s*:\s*", re.IGNORECASE)
_EXAMPLE_LETTER = re.compile(r"^[A-Z]\.\s")
# The display names of the parts' subheadings, for the rule text (the penalty is a table row).
PART_LABELS = {
    "definition": "Definition",
    "examples": "Examples",
    "philosophy": "Philosophy",
    "additional_remedy": "Additional Remedy",
    "upgrade": "Upgrade",
    "downgrade": "Downgrade",
}


def parse_ipg(text: str, source: str = "<text>") -> ParsedDocument:
    """Parse an IPG rendering (already-decoded HTML); ParseError names `source` and the line."""
    return ipg_document(read_outline(text, source, DocKind.IPG), source, text)


def ipg_document(outline: Outline, source: str, text: str) -> ParsedDocument:
    """The IPG's records of an outline, however it was read (HTML here, PDF in
    rulesref.parsing.pdf)."""
    known = {s.heading.number for s in outline.sections}
    notes = outline.notes
    rules: list[ParsedRule] = []
    intro = intro_rule(outline)
    if intro is not None:
        rules.append(intro)
        known.add(INTRO_NUMBER)
    for section in outline.sections:
        section.blocks = _drop_contents_rows(section.blocks, known, source)
        if _is_infraction(section):
            rules.append(infraction_rule(section, source, notes))
        else:
            rules.append(section_rule(section))
    rules = [with_references(rule, DocKind.IPG, known) for rule in rules]
    return build_document(outline, DocKind.IPG, text, rules)


def _is_infraction(section: Section) -> bool:
    heading = section.heading
    return (
        heading.kind is RuleKind.SECTION
        and heading.parent in _INFRACTION_CHAPTERS
        and _INFRACTION_TITLE.match(heading.title) is not None
    )


def infraction_name(title: str) -> str:
    """ "Game Play Error - Game Rule Violation" -> "Game Rule Violation"."""
    match = _INFRACTION_TITLE.match(title)
    return match.group("name").strip() if match else title


def infraction_aliases(title: str) -> tuple[tuple[str, ...], bool]:
    """(aliases, known): the name, then its abbreviations; initials when the name is not in
    the table."""
    name = infraction_name(title)
    table = {key.casefold(): value for key, value in INFRACTION_ALIASES.items()}
    found = table.get(name.casefold())
    if found is not None:
        return (name, *found), True
    initials = "".join(
        word[0].upper()
        for word in re.findall(r"[A-Za-z]+", name)
        if word.lower() not in ("of", "a", "to", "and", "the")
    )
    return (name, initials) if len(initials) > 1 else (name,), False


def _drop_contents_rows(blocks: list[Block], known: set[str], source: str) -> list[Block]:
    """The 2018+ chapter pages open with a table of links to their sections; it repeats
    the contents."""
    kept = []
    for block in blocks:
        if block.kind == "row" and block.links:
            cells = [c.strip() for c in block.text.split(" | ")]
            headings = [parse_heading(c) for c in cells]
            if all(h is not None for h in headings):
                for heading, cell in zip(headings, cells):
                    if heading is not None and heading.number not in known:
                        raise ParseError(
                            f"a chapter's contents table lists {cell!r}, which the body lacks "
                            "(truncated?)",
                            source=source,
                            line=block.line,
                        )
                continue
        kept.append(block)
    return kept


def infraction_rule(section: Section, source: str, notes: list[str]) -> ParsedRule:
    parts: dict[str, list[str]] = {key: [] for key in PART_ORDER}
    examples: list[str] = []
    text_blocks: list[Block] = []
    current = "definition"
    blocks = section.blocks
    index = 0
    while index < len(blocks):
        block = blocks[index]
        label = block.text.strip().rstrip(":").strip().casefold()
        if label == "penalty":
            value = blocks[index + 1] if index + 1 < len(blocks) else None
            if value is None or value.text.casefold().rstrip(":") in _SUBHEADINGS:
                raise ParseError(
                    f"{section.heading.number}: a Penalty header with no penalty after it",
                    source=source,
                    line=block.line,
                )
            parts["penalty"].append(value.text)
            text_blocks.append(Block("p", f"Penalty: {value.text}", block.line))
            index += 2
            continue
        if label in _SUBHEADINGS and len(block.text) < 30:
            current = _SUBHEADINGS[label]
            if current != "examples":
                text_blocks.append(Block("p", PART_LABELS[current], block.line))
            index += 1
            continue
        lead = _PART_LEAD.match(block.text)
        if lead and block.kind != "row":
            current = lead.group("part").casefold()
            parts[current].append(block.text[lead.end() :])
            text_blocks.append(block)
        elif current == "examples":
            if block.kind == "li" or _EXAMPLE_LETTER.match(block.text) or not examples:
                examples.append(block.text)
            else:
                examples[-1] = f"{examples[-1]} {block.text}"
        else:
            parts[current].append(block.text)
            text_blocks.append(block)
        index += 1
    if not parts["penalty"]:
        raise ParseError(
            f"infraction {section.heading.number} {section.heading.title!r} shows no penalty",
            source=source,
            line=section.line,
        )
    parts["examples"] = examples
    aliases, known = infraction_aliases(section.heading.title)
    if not known:
        notes.append(
            f"line {section.line}: infraction {section.heading.title!r} has no entry in the alias "
            f"table; aliases {aliases!r} made from its name"
        )
    fields = tuple((key, "\n\n".join(parts[key])) for key in PART_ORDER if parts[key])
    return ParsedRule(
        number=section.heading.number,
        kind=RuleKind.SECTION,
        text=join_blocks(text_blocks),
        title=section.heading.title,
        examples=tuple(examples),
        parent=section.heading.parent,
        aliases=aliases,
        fields=fields,
        line=section.line,
    )
