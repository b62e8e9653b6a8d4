"""The Judging at Regular REL parser: a JAR HTML rendering in, one ParsedDocument out.

The JAR prints no numbers, so numbers are given by position, which is stable across the 2014
and 2019 versions (the same four headings in the same order):

    "0"       the opening text before the first heading (SECTION "Introduction")
    "1".."4"  the <h2> headings in order: Common Issues, General Unwanted Behaviors, Serious
              Problems, Resources (SECTION, parent None; text = what follows the heading up to
              its first bold item)
    "1.1".."1.5"
              the bold one-line situations under a heading ("A player forgets a triggered
              ability ...", RULE, parent "1", title = the bold line, text = the fix below it)

A new heading or situation inserted in a later JAR would shift the numbers after it; the
titles are what the differ can pair on.

Aliases: a situation or heading that describes an IPG infraction gets the infraction's name and
abbreviations (ipg.INFRACTION_ALIASES), so "HCE", "Missed Trigger" or "MPE" find the Regular REL
fix: situations are matched on their title (and mulligans on their text), headings on their list
items ("Inadequate shuffling." -> Insufficient Shuffling). Extra judge phrasings come from
_EXTRA_ALIASES ("drawing extra cards"). Dates, title, contents checks and references work as for
the MTR (rulesref.parsing.html); trademark lines go to `notes`.
"""

from __future__ import annotations

import re

from rulesref.parsing.html import (
    BOILERPLATE,
    Block,
    expect_dates,
    expect_title,
    extract_policy_references,
    join_blocks,
    read_dates,
    to_blocks,
)
from rulesref.parsing.ipg import INFRACTION_ALIASES
from rulesref.parsing.records import DocKind, ParsedDocument, ParsedRule, ParseError, RuleKind

INTRO_NUMBER = "0"

# (pattern on a situation's title or a heading's list item, IPG infraction it describes)
_INFRACTION_PATTERNS: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(pattern, re.IGNORECASE), name)
    for pattern, name in (
        (r"forgets a triggered ability", "Missed Trigger"),
        (r"sees a card in a library", "Looking at Extra Cards"),
        (r"draws\b.*\bmore cards than", "Hidden Card Error"),
        (r"in-game error", "Game Rule Violation"),
        (r"illegal, insufficient, or another player's cards", "Deck Problem"),
        (r"inadequate shuffling", "Insufficient Shuffling"),
        (r"unreasonable amounts? of time", "Slow Play"),
        (r"strategic advice", "Outside Assistance"),
        (r"tardiness", "Tardiness"),
        (r"determining match outcomes|gambling", "Bribery and Wagering"),
        (r"aggressive|violent|harassing|abusive", "Aggressive Behavior"),
        (r"knowingly breaking|lying", "Cheating"),
        (r"\btheft\b", "Theft of Tournament Material"),
    )
)
_MULLIGAN = re.compile(r"\bmulligan", re.IGNORECASE)
_EXTRA_ALIASES = {
    "Hidden Card Error": ("drawing extra cards", "extra cards"),
    "Deck Problem": ("illegal deck",),
}


def parse_jar(text: str, source: str = "<text>") -> ParsedDocument:
    """Parse a JAR rendering (already-decoded HTML); ParseError names `source` and the line."""
    blocks, closed, scrape = to_blocks(text)
    return jar_document(blocks, closed, scrape, source, text)


def jar_document(
    blocks: list[Block], closed: bool, scrape: str | None, source: str, text: str
) -> ParsedDocument:
    """The JAR's records of its blocks, however they were read (HTML here, PDF in
    rulesref.parsing.pdf)."""
    notes: list[str] = (
        [f"line 1: scrape date {scrape} (not part of the document)"] if scrape else []
    )
    title = expect_title(blocks, source, DocKind.JAR)
    body = blocks[blocks.index(title) + 1 :]
    effective, updated, date_lines = expect_dates(body, source, title.line)
    if not closed:
        raise ParseError(
            "the file ends before its closing </html> (truncated?)",
            source=source,
            line=blocks[-1].line,
        )
    drafts = _read_parts(body, date_lines, notes, source)
    known = {rule.number for rule in drafts}
    rules = []
    for rule in drafts:
        refs = tuple(
            n for n in extract_policy_references(rule.text, DocKind.JAR, known) if n != rule.number
        )
        rules.append(
            ParsedRule(
                number=rule.number,
                kind=rule.kind,
                text=rule.text,
                title=rule.title,
                parent=rule.parent,
                references=refs,
                aliases=rule.aliases,
                line=rule.line,
            )
        )
    if updated is not None:
        notes.insert(
            0,
            f"Effective {effective.isoformat()}; last updated {updated.isoformat()} (the version "
            "date)",
        )
    return ParsedDocument(
        doc=DocKind.JAR,
        title=" ".join(title.text.split()),
        effective_date=updated or effective,
        rules=tuple(rules),
        line_count=text.count("\n") + (0 if text.endswith("\n") else 1),
        notes=tuple(notes),
    )


class _Part:
    def __init__(
        self, number: str, kind: RuleKind, title: str, line: int, parent: str | None
    ) -> None:
        self.number, self.kind, self.title, self.line, self.parent = (
            number,
            kind,
            title,
            line,
            parent,
        )
        self.blocks: list[Block] = []

    def rule(self) -> ParsedRule:
        return ParsedRule(
            number=self.number,
            kind=self.kind,
            text=join_blocks(self.blocks),
            title=self.title,
            parent=self.parent,
            aliases=self.aliases(),
            line=self.line,
        )

    def aliases(self) -> tuple[str, ...]:
        probes = (
            [self.title]
            if self.kind is RuleKind.RULE
            else [b.text for b in self.blocks if b.kind == "li"]
        )
        names: list[str] = []
        for probe in probes:
            names.extend(name for pattern, name in _INFRACTION_PATTERNS if pattern.search(probe))
        if self.kind is RuleKind.RULE and _MULLIGAN.search(join_blocks(self.blocks)):
            names.append("Mulligan Procedure Error")
        found: dict[str, None] = {}
        for name in names:
            for alias in (name, *INFRACTION_ALIASES.get(name, ()), *_EXTRA_ALIASES.get(name, ())):
                found.setdefault(alias, None)
        return tuple(found)


def _read_parts(
    body: list[Block], date_lines: set[int], notes: list[str], source: str
) -> list[ParsedRule]:
    intro = _Part(INTRO_NUMBER, RuleKind.SECTION, "Introduction", 0, None)
    parts: list[_Part] = []
    current = intro
    section: _Part | None = None
    for block in body:
        if block.line in date_lines and any(d is not None for d in read_dates(block.text)):
            continue
        if BOILERPLATE.match(block.text):
            notes.append(f"line {block.line}: {block.text}")
            continue
        if block.kind in ("h1", "h2", "h3"):
            section = _Part(
                str(sum(1 for p in parts if p.kind is RuleKind.SECTION) + 1),
                RuleKind.SECTION,
                block.text,
                block.line,
                None,
            )
            parts.append(section)
            current = section
            continue
        if (
            section is not None
            and block.bold
            and block.kind in ("p", "text")
            and "\n" not in block.text
        ):
            index = sum(1 for p in parts if p.parent == section.number) + 1
            current = _Part(
                f"{section.number}.{index}", RuleKind.RULE, block.text, block.line, section.number
            )
            parts.append(current)
            continue
        if current is intro and not intro.line:
            intro.line = block.line
        current.blocks.append(block)
    if not parts:
        raise ParseError(
            "no headings found; not a JAR rendering",
            source=source,
            line=body[-1].line if body else 1,
        )
    return ([intro.rule()] if intro.blocks else []) + [p.rule() for p in parts]
