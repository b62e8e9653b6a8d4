"""The Comprehensive Rules parser: official CR text in, one ParsedDocument out.

Reads both layouts in the shared corpus: the official file as Wizards publishes it (no
indentation, curly quotes) and the 2017-2022 re-layout (lines indented by depth, straight
quotes). The document is read as five parts, in order, and every line must belong to one:

    title and effective date   "These rules are effective as of February 7, 2025."
    introduction               free text up to "Contents"
    contents                   chapters and sections, then "Glossary" and "Credits"
    numbered rules             chapters, sections, rules, subrules, "Example:" lines and
                               continuation lines (a further paragraph of the rule above)
    glossary, then credits     blank-line separated entries: a term line, definition lines

Anything else raises ParseError with the source and 1-based line, and so does a document that
stops early: the numbered rules must cover every section the contents list, and the glossary
must be followed by the credits.

Titles: chapters and sections carry their heading as `title`, and so does a rule whose whole text
is a heading for its subrules ("701.20. Shuffle", "702.19. Trample", "205.3. Subtypes"); its `text`
keeps the heading too, so a renumbered keyword rule can still be paired by its text.

References: a rule's `references` are the numbers cited by its text and then by its examples,
deduplicated, because a judge following an example's "see rule ..." wants the same link; a rule
never lists itself.

Glossary aliases: each entry's `aliases` holds every name that should find it, and a name
belongs to exactly one entry, so {alias: entry} is an unambiguous lookup table:
  - the term as printed ("Active Player, Nonactive Player Order");
  - the term without a parenthesised qualifier ("Bury (Obsolete)" -> "Bury");
  - each name of a comma list ("Control, Controller" -> "Control", "Controller";
    "Banding, “Bands with Other”" -> "Banding", "Bands with Other"), unless the first part is
    itself another entry's term, which marks a single name containing a comma
    ("Active Player, Nonactive Player Order" is not "Active Player");
  - the names of redirect entries, whose whole definition is "See <term>." ("APNAP Order").
    A redirect entry stays in the glossary (it is counted) but gives its name to its target,
    so its own aliases are empty.
Names are compared with common.term_key (case, curly quotes and spacing ignored); look terms up
the same way.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass, field

from rulesref.parsing.common import SUBRULE_LETTERS, extract_references, month_number
from rulesref.parsing.cr_glossary import _read_glossary
from rulesref.parsing.records import DocKind, ParsedDocument, ParsedRule, ParseError, RuleKind

_EFFECTIVE = re.compile(
    r"These rules are effective as of\s+([A-Za-z]+)\s*(\d{1,2}),\s*(\d{4})\.?", re.IGNORECASE
)
_CHAPTER = re.compile(r"^(\d)\.\s+(\S.*)$")
_SECTION = re.compile(r"^(\d{3})\.\s+(\S.*)$")
# "100.1. These Magic rules ..."; official typos: "606.5 If ..." (no period), "901.4.All ..."
# (no space)
_RULE = re.compile(r"^(\d{3})\.(\d+)(?:\.\s*|\s+)(\S.*)$")
# "100.1a A two-player game ..."; official typo: "119.1d. In a two-player Brawl game ..."
_SUBRULE = re.compile(r"^(\d{3})\.(\d+)([a-z])\.?\s+(\S.*)$")
_EXAMPLE = re.compile(r"^Example:\s*(.*)$")
# A rule that is only a heading ("702.19. Trample") is short and is not a sentence.
_MAX_HEADING = 60
_SENTENCE_ENDS = (".", ":", ";", "?", "!", ")", '"', "\u201d")


@dataclass
class _Draft:
    """A rule being assembled while its lines are read."""

    number: str
    kind: RuleKind
    line: int
    title: str = ""
    paragraphs: list[str] = field(default_factory=list)
    examples: list[str] = field(default_factory=list)
    parent: str | None = None

    def freeze(self) -> ParsedRule:
        text = "\n".join(self.paragraphs)
        cited = extract_references("\n".join([text, *self.examples]))
        refs = tuple(number for number in cited if number != self.number)
        return ParsedRule(
            number=self.number,
            kind=self.kind,
            text=text,
            title=self.title or self._heading(text),
            examples=tuple(self.examples),
            parent=self.parent,
            references=refs,
            line=self.line,
        )

    def _heading(self, text: str) -> str:
        """The text of a rule that is only a heading for its subrules: "701.20. Shuffle",
        "205.3. Subtypes"."""
        if (
            self.kind is not RuleKind.RULE
            or self.examples
            or "\n" in text
            or len(text) > _MAX_HEADING
        ):
            return ""
        return "" if text.endswith(_SENTENCE_ENDS) or not text[:1].isupper() else text


class _Lines:
    """1-based cursor over the document's lines."""

    def __init__(self, text: str, source: str) -> None:
        self.lines = text.split("\n")
        if self.lines and self.lines[-1] == "":
            self.lines.pop()  # a final newline ends the last line; it does not start a new one
        self.source = source
        self.pos = 0  # index of the next line to read

    def error(self, message: str, line: int | None = None) -> ParseError:
        return ParseError(message, source=self.source, line=line if line is not None else self.pos)

    def at_end(self) -> bool:
        return self.pos >= len(self.lines)

    def next(self) -> tuple[int, str]:
        self.pos += 1
        return self.pos, self.lines[self.pos - 1]


def parse_cr(text: str, source: str = "<text>") -> ParsedDocument:
    """Parse the full text of a Comprehensive Rules document (use decode_document on raw bytes).

    Returns every chapter, section, rule and subrule in document order, then the glossary.
    Raises ParseError (source and 1-based line) for a line that fits nowhere, for a document
    that is truncated, and for a text that is not a CR.
    """
    text = text.lstrip("\ufeff").replace("\r\n", "\n").replace("\r", "\n")
    lines = _Lines(text, source)
    notes: list[str] = []
    title, effective = _read_header(lines)
    contents = _read_contents(lines)
    rules = _read_rules(lines, contents, notes)
    glossary = _read_glossary(lines, notes)
    _read_credits(lines, effective, notes)
    return ParsedDocument(
        doc=DocKind.CR,
        title=title,
        effective_date=effective,
        rules=tuple(rules),
        glossary=tuple(glossary),
        line_count=len(lines.lines),
        notes=tuple(notes),
    )


def _read_header(lines: _Lines) -> tuple[str, dt.date]:
    title = ""
    while not lines.at_end():
        number, line = lines.next()
        if line.strip():
            title = line.strip()
            break
    if "Comprehensive Rules" not in title:
        raise lines.error(
            "not a Comprehensive Rules document: the first line is not its title", max(lines.pos, 1)
        )
    while not lines.at_end():
        number, line = lines.next()
        match = _EFFECTIVE.search(line)
        if match is not None:
            return title, _read_date(match, lines, number)
        if line.strip() == "Contents" or _SECTION.match(line.strip()):
            break
    raise lines.error('no "These rules are effective as of ..." line before the contents')


def _read_date(match: re.Match[str], lines: _Lines, number: int) -> dt.date:
    month = month_number(match.group(1))
    try:
        if month is None:
            raise ValueError(match.group(1))
        return dt.date(int(match.group(3)), month, int(match.group(2)))
    except ValueError as exc:
        raise lines.error(f"unreadable effective date: {match.group(0)!r}", number) from exc


def _read_contents(lines: _Lines) -> list[tuple[str, str]]:
    """Skip the introduction, then return the contents as (number, title), chapters included."""
    while not lines.at_end():
        _, line = lines.next()
        if line.strip() == "Contents":
            break
    else:
        raise lines.error('no "Contents" list: not a complete Comprehensive Rules document')
    contents: list[tuple[str, str]] = []
    seen_glossary = False
    while not lines.at_end():
        number, raw = lines.next()
        line = raw.strip()
        if not line:
            continue
        if line == "Glossary" and contents:
            seen_glossary = True
            continue
        if line == "Credits" and seen_glossary:
            if not any(len(n) == 3 for n, _ in contents):
                raise lines.error("the contents list has no sections", number)
            return contents
        match = _CHAPTER.match(line) or _SECTION.match(line)
        if match is None or seen_glossary:
            raise lines.error(f"unexpected line in the contents: {line[:60]!r}", number)
        contents.append((match.group(1), match.group(2).strip()))
    raise lines.error("document ends inside the contents list (truncated?)")


def _read_rules(
    lines: _Lines, contents: list[tuple[str, str]], notes: list[str]
) -> list[ParsedRule]:
    return _RulesReader(lines, contents, notes).read()


class _RulesReader:
    """Reads the numbered rules, from the first chapter heading to the "Glossary" heading."""

    def __init__(self, lines: _Lines, contents: list[tuple[str, str]], notes: list[str]) -> None:
        self.lines = lines
        self.notes = notes
        self.expected = list(contents)  # chapters and sections still to come, in order
        self.drafts: list[_Draft] = []
        self.chapter: _Draft | None = None
        self.section: _Draft | None = None
        self.rule: _Draft | None = None
        self.current: _Draft | None = None  # what an example or continuation line attaches to
        self.in_example = False
        self.last_key: tuple[int, int, int] = (0, 0, 0)

    def read(self) -> list[ParsedRule]:
        previous_blank = True
        while not self.lines.at_end():
            number, raw = self.lines.next()
            line = raw.strip()
            if not line:
                previous_blank = True
                continue
            if line == "Glossary":
                self._finish(number)
                return [draft.freeze() for draft in self.drafts]
            if match := _SUBRULE.match(line):
                self._subrule(match, number, line)
            elif match := _RULE.match(line):
                self._rule(match, number, line)
            elif match := _SECTION.match(line):
                self._section(match, number)
            elif match := _CHAPTER.match(line):
                self._chapter(match, number)
            elif match := _EXAMPLE.match(line):
                self._example(match, number)
            elif self.current is not None and not previous_blank:
                self._continuation(line)
            else:
                raise self.lines.error(
                    f"cannot place this line in the numbered rules: {line[:60]!r}", number
                )
            previous_blank = False
        where = self.section or self.chapter
        at = f"at {where.number}" if where is not None else "before the first chapter"
        raise self.lines.error(
            f"document ends inside the numbered rules ({at}); no glossary (truncated?)"
        )

    def _finish(self, number: int) -> None:
        if self.expected:
            missing = ", ".join(n for n, _ in self.expected[:3])
            raise self.lines.error(
                f"the numbered rules end before {missing}, which the contents list (truncated?)",
                number,
            )
        # Only the last section is checked: "600. General" has no rules of its own in every version.
        if self.section is not None and self.drafts[-1] is self.section:
            raise self.lines.error(
                f"section {self.section.number} has no rules (truncated?)", self.section.line
            )

    def _text_begins(self, body: str, name: str, number: int) -> None:
        """A rule's text begins with a word or a quote, never with punctuation ("729.3.. Sometimes":
        a number mistyped): no published CR has one, and stored it would read ". Sometimes"."""
        text = body.strip()
        if text[:1] in (".", ",", ":", ";"):
            raise self.lines.error(f"{name}'s text begins with {text[:1]!r}: {text[:30]!r}", number)

    def _advance(self, key: tuple[int, int, int], name: str, number: int) -> None:
        if key <= self.last_key:
            raise self.lines.error(f"{name} is out of order", number)
        self.last_key = key

    def _subrule(self, match: re.Match[str], number: int, line: str) -> None:
        sec, rul, letter, body = match.groups()
        name = f"{sec}.{int(rul)}{letter}"
        if letter not in SUBRULE_LETTERS:
            # CR introduction: subrules skip the letters "l" and "o".
            raise self.lines.error(
                f"subrule letter {letter!r} is never used (letters skip l and o)", number
            )
        if self.rule is None or self.rule.number != f"{sec}.{int(rul)}":
            raise self.lines.error(f"subrule {name} is not under rule {sec}.{int(rul)}", number)
        self._advance((int(sec), int(rul), ord(letter)), f"subrule {name}", number)
        self._text_begins(body, f"subrule {name}", number)
        if line.startswith(f"{sec}.{rul}{letter}."):
            self.notes.append(
                f"line {number}: subrule {name} printed with a period after its number"
            )
        self._open(
            _Draft(
                name, RuleKind.SUBRULE, number, paragraphs=[body.strip()], parent=self.rule.number
            )
        )

    def _rule(self, match: re.Match[str], number: int, line: str) -> None:
        sec, rul, body = match.groups()
        name = f"{sec}.{int(rul)}"
        if self.section is None or self.section.number != sec:
            raise self.lines.error(f"rule {name} is not under section {sec}", number)
        self._advance((int(sec), int(rul), 0), f"rule {name}", number)
        self._text_begins(body, f"rule {name}", number)
        if not re.match(r"\d{3}\.\d+\.", line):
            self.notes.append(
                f"line {number}: rule {name} printed without the period after its number"
            )
        elif not re.match(r"\d{3}\.\d+\.\s", line):
            self.notes.append(
                f"line {number}: rule {name} printed without a space after its number"
            )
        self.rule = _Draft(name, RuleKind.RULE, number, paragraphs=[body.strip()], parent=sec)
        self._open(self.rule)

    def _section(self, match: re.Match[str], number: int) -> None:
        sec, title = match.group(1), match.group(2).strip()
        self._expect(sec, title, number)
        if self.chapter is None or self.chapter.number != sec[0]:
            raise self.lines.error(f"section {sec} is not under chapter {sec[0]}", number)
        self._advance((int(sec), 0, 0), f"section {sec}", number)
        self.section = _Draft(
            sec, RuleKind.SECTION, number, title=title, parent=self.chapter.number
        )
        self.drafts.append(self.section)
        self.rule = self.current = None

    def _chapter(self, match: re.Match[str], number: int) -> None:
        chapter, title = match.group(1), match.group(2).strip()
        if self.chapter is not None and int(chapter) <= int(self.chapter.number):
            raise self.lines.error(f"chapter {chapter} is out of order", number)
        self._expect(chapter, title, number)
        self.chapter = _Draft(chapter, RuleKind.CHAPTER, number, title=title)
        self.drafts.append(self.chapter)
        self.section = self.rule = self.current = None

    def _open(self, draft: _Draft) -> None:
        self.drafts.append(draft)
        self.current = draft
        self.in_example = False

    def _example(self, match: re.Match[str], number: int) -> None:
        if self.current is None:
            raise self.lines.error("an example that follows no rule", number)
        # An "Example:" paragraph belongs to the rule above it.
        self.current.examples.append(match.group(1).strip())
        self.in_example = True

    def _continuation(self, line: str) -> None:
        # A further paragraph of the rule (or example) above: "205.3i ... / Of that list, ..."
        assert self.current is not None
        if self.in_example:
            self.current.examples[-1] += "\n" + line
        else:
            self.current.paragraphs.append(line)

    def _expect(self, number: str, title: str, line: int) -> None:
        """Chapters and sections arrive in the order the contents list them; none may be skipped.

        A heading the contents do not list is kept with a note (an editorial slip in the
        contents should not block an import); one the contents list further on means the
        headings in between are missing, which is how a document with its middle cut out fails.
        """
        listed = [n for n, _ in self.expected]
        if number in listed:
            at = listed.index(number)
            if at > 0:
                missing = ", ".join(listed[: min(at, 3)])
                raise self.lines.error(
                    f"found {number} {title!r} but the contents list {missing} before it", line
                )
            printed = self.expected.pop(0)[1]
            if printed != title:
                self.notes.append(
                    f"line {line}: {number} is titled {title!r} but the contents say {printed!r}"
                )
        else:
            self.notes.append(f"line {line}: {number} {title!r} is not in the contents list")


def _read_credits(lines: _Lines, effective: dt.date, notes: list[str]) -> None:
    credit_lines = 0
    while not lines.at_end():
        number, line = lines.next()
        if not line.strip():
            continue
        credit_lines += 1
        match = _EFFECTIVE.search(line)
        if match is not None:
            try:
                stated = _read_date(match, lines, number)
            except ParseError:
                stated = None
            if stated != effective:
                notes.append(f"line {number}: the credits give the date as {match.group(0)!r}")
    if credit_lines == 0:
        raise lines.error('the "Credits" heading is not followed by the credits (truncated?)')
