"""The records every parser returns: plain frozen dataclasses, no Django.

These are the contract between the parsers, the importer, search and the differ.
Rule numbers are strings everywhere ("704.5a", "4.2", "3.9"), never floats.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from enum import Enum


class DocKind(str, Enum):
    CR = "cr"
    MTR = "mtr"
    IPG = "ipg"
    JAR = "jar"


class RuleKind(str, Enum):
    # CR "7. Additional Rules"; MTR/IPG "4. Communication" — not counted as a rule
    CHAPTER = "chapter"
    # CR "729. Taking Shortcuts"; MTR "4.2 Tournament Shortcuts"; IPG "2.1 Missed Trigger"
    SECTION = "section"
    RULE = "rule"  # CR "729.3."
    SUBRULE = "subrule"  # CR "729.2a"
    APPENDIX = "appendix"  # MTR/IPG "Appendix A ..."


@dataclass(frozen=True)
class ParsedRule:
    number: str  # canonical: "729.2a", "729", "7", "4.2", "A", "3.9"
    kind: RuleKind
    text: str  # the rule's own text (for sections: any intro text)
    title: str = ""  # section/chapter heading ("Taking Shortcuts"); "" for plain rules
    examples: tuple[str, ...] = ()  # "Example:" paragraphs, without the "Example:" prefix
    parent: str | None = None  # number of the enclosing rule, None at top level
    references: tuple[str, ...] = ()  # rule numbers cited by the text, in order of first appearance
    aliases: tuple[str, ...] = ()  # other names lookups/search accept ("GRV", "HCE")
    fields: tuple[tuple[str, str], ...] = ()  # structured parts, e.g. IPG ("definition", "...")
    line: int = 0  # 1-based line in the source where the rule starts


@dataclass(frozen=True)
class GlossaryEntry:
    term: str  # as printed: "Active Player, Nonactive Player Order"
    definition: str
    # every name that finds it: ("Active Player, Nonactive Player Order", "APNAP Order")
    aliases: tuple[str, ...] = ()
    references: tuple[str, ...] = ()  # rule numbers the definition cites
    line: int = 0


@dataclass(frozen=True)
class ParsedDocument:
    doc: DocKind
    title: str  # "Magic: The Gathering Comprehensive Rules"
    effective_date: dt.date
    rules: tuple[ParsedRule, ...]  # in document order, chapters and sections included
    glossary: tuple[GlossaryEntry, ...] = ()
    line_count: int = 0
    # anything a reader should know (e.g. "Last updated ...")
    notes: tuple[str, ...] = field(default=())

    @property
    def counted_rules(self) -> tuple[ParsedRule, ...]:
        """Rules as docs/API.md counts them: every numbered rule and subrule, chapters that are only
        a heading excluded (the CR's nine, the MTR's); a chapter with text of its own (the IPG's
        General Philosophy and its categories' introductions) is a section like any, compared and
        counted as the diff counts it."""
        return tuple(r for r in self.rules if r.kind is not RuleKind.CHAPTER or r.text.strip())

    @property
    def example_count(self) -> int:
        return sum(len(r.examples) for r in self.rules)


class ParseError(ValueError):
    """A document that cannot be read; names the source and the 1-based line (a PDF: the page)."""

    def __init__(
        self, message: str, *, source: str = "<text>", line: int = 0, page: int = 0
    ) -> None:
        self.message = message
        self.source = source
        self.line = line
        self.page = page
        if page:
            super().__init__(f"{source}: page {page}: {message}")
        else:
            super().__init__(f"{source}:{line}: {message}" if line else f"{source}: {message}")


class SectionTwice(ParseError):
    """A section number given twice, at lines `first` and `second` (a PDF names the pages)."""

    def __init__(self, number: str, first: int, second: int, *, source: str) -> None:
        self.number, self.first, self.second = number, first, second
        super().__init__(
            f"section {number} appears twice: at line {first} and at line {second}",
            source=source,
            line=second,
        )
