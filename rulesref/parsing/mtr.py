"""The Magic Tournament Rules parser: an MTR HTML rendering in, one ParsedDocument out.

Reads both layouts of the shared corpus (see rulesref.parsing.html). What becomes of each part:

    title, dates        ParsedDocument.title; effective_date is the "Last updated" date when the
                        document prints one, else the "Effective" date (several 2019 versions share
                        "Effective May 3, 2019"); the other date goes to `notes`
    introduction        one SECTION numbered "0", titled "Introduction" (the MTR's opening text is
                        unnumbered but is policy: "this document takes precedence" over the CR)
    "4. Communication"  CHAPTER "4"; the 2018+ files print chapters only in the contents, so the
                        record's line is the contents line and its text is empty
    "4.2 Tournament Shortcuts"
                        SECTION "4.2", parent "4", text = its paragraphs, list items ("- ...") and
                        table rows ("cell | cell") separated by blank lines
    "Appendix B - Time Limits"
                        APPENDIX "B" (a capital letter, as common.normalize_rule_number reads
                        "Appendix B" and "B"); sub-headings inside it ("Booster Draft Timing") are
                        paragraphs of its text
    "Example: ..."      ParsedRule.examples, without the prefix, and not repeated in `text`
    contents list       checked against the headings (a listed section missing from the body is a
                        ParseError: the file was cut); not stored
    trademark lines     `notes`

References: see html.extract_policy_references; numbers of the MTR itself are kept only when the
MTR has them, IPG numbers come as "ipg:2.1", Comprehensive Rules numbers as "cr:704.5a".
"""

from __future__ import annotations

import dataclasses

from rulesref.parsing.html import (
    Outline,
    Section,
    extract_policy_references,
    join_blocks,
    read_outline,
    split_examples,
)
from rulesref.parsing.records import DocKind, ParsedDocument, ParsedRule, RuleKind

INTRO_NUMBER = "0"  # the unnumbered introduction; normalize_rule_number("0") reads it back


def intro_rule(outline: Outline) -> ParsedRule | None:
    """The text before the first numbered heading, kept as section "0", "Introduction" (MTR
    and IPG)."""
    if not outline.intro:
        return None
    kept, examples = split_examples(outline.intro)
    return ParsedRule(
        number=INTRO_NUMBER,
        kind=RuleKind.SECTION,
        text=join_blocks(kept),
        title="Introduction",
        examples=tuple(examples),
        line=outline.intro_line or outline.intro[0].line,
    )


def parse_mtr(text: str, source: str = "<text>") -> ParsedDocument:
    """Parse an MTR rendering (already-decoded HTML). Raises ParseError naming `source` and the line
    for anything that is not a whole MTR: another document, no dates, no sections, a cut file."""
    outline = read_outline(text, source, DocKind.MTR)
    return build_document(outline, DocKind.MTR, text)


def build_document(
    outline: Outline, doc: DocKind, text: str, rules: list[ParsedRule] | None = None
) -> ParsedDocument:
    """The ParsedDocument of an outline: the MTR's records, or `rules` when a parser built
    its own."""
    if rules is None:
        rules = outline_rules(outline, doc)
    return ParsedDocument(
        doc=doc,
        title=outline.title,
        effective_date=outline.version_date,
        rules=tuple(rules),
        line_count=text.count("\n") + (0 if text.endswith("\n") else 1),
        notes=tuple(outline.date_notes() + outline.notes),
    )


def outline_rules(outline: Outline, doc: DocKind) -> list[ParsedRule]:
    """Introduction, chapters, sections and appendices in document order, references resolved."""
    known = {s.heading.number for s in outline.sections}
    if outline.intro:
        known.add(INTRO_NUMBER)
    drafts: list[ParsedRule] = []
    intro = intro_rule(outline)
    if intro is not None:
        drafts.append(intro)
    for section in outline.sections:
        drafts.append(section_rule(section))
    return [with_references(rule, doc, known) for rule in drafts]


def section_rule(section: Section) -> ParsedRule:
    kept, examples = split_examples(section.blocks)
    heading = section.heading
    return ParsedRule(
        number=heading.number,
        kind=heading.kind,
        text=join_blocks(kept),
        title=heading.title,
        examples=tuple(examples),
        parent=heading.parent,
        line=section.line,
    )


def with_references(rule: ParsedRule, doc: DocKind, known: set[str]) -> ParsedRule:
    """The rule with the numbers its text and examples cite; a rule never cites itself."""
    cited = extract_policy_references("\n\n".join((rule.text, *rule.examples)), doc, known)
    refs = tuple(n for n in cited if n != rule.number)
    return dataclasses.replace(rule, references=refs)
