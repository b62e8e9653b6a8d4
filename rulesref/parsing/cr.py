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
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass, field

from rulesref.parsing.common import SUBRULE_LETTERS, extract_references
from rulesref.parsing.records import DocKind, GlossaryEntry, ParsedDocument, ParsedRule, ParseError, RuleKind

DEFAULT_TITLE = "Magic: The Gathering Comprehensive Rules"

_MONTHS = {
    name: index
    for index, name in enumerate(
        ["january", "february", "march", "april", "may", "june", "july",
         "august", "september", "october", "november", "december"],
        start=1,
    )
}
_EFFECTIVE = re.compile(r"These rules are effective as of\s+([A-Za-z]+)\s*(\d{1,2}),\s*(\d{4})\.?", re.I)
_CHAPTER = re.compile(r"^(\d)\.\s+(\S.*)$")
_SECTION = re.compile(r"^(\d{3})\.\s+(\S.*)$")
# "100.1. These Magic rules ..."; official typos: "606.5 If ..." (no period), "901.4.All ..." (no space)
_RULE = re.compile(r"^(\d{3})\.(\d+)(?:\.\s*|\s+)(\S.*)$")
# "100.1a A two-player game ..."; official typo: "119.1d. In a two-player Brawl game ..."
_SUBRULE = re.compile(r"^(\d{3})\.(\d+)([a-z])\.?\s+(\S.*)$")
_EXAMPLE = re.compile(r"^Example:\s*(.*)$")
# Seen once (2021-06-18): a glossary term run together with its first numbered sense.
_GLUED_TERM = re.compile(r"^(.*?[^\s\d])1\.\s+(\S.*)$")
_REDIRECT = re.compile(r"^See (.+?)\.?$")


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
            title=self.title,
            examples=tuple(self.examples),
            parent=self.parent,
            references=refs,
            line=self.line,
        )


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
        raise lines.error("not a Comprehensive Rules document: the first line is not its title", max(lines.pos, 1))
    while not lines.at_end():
        number, line = lines.next()
        match = _EFFECTIVE.search(line)
        if match is not None:
            return title, _read_date(match, lines, number)
        if line.strip() == "Contents" or _SECTION.match(line.strip()):
            break
    raise lines.error('no "These rules are effective as of ..." line before the contents')


def _read_date(match: re.Match[str], lines: _Lines, number: int) -> dt.date:
    month = _MONTHS.get(match.group(1).lower())
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
                raise lines.error("the contents list no sections", number)
            return contents
        match = _CHAPTER.match(line) or _SECTION.match(line)
        if match is None or seen_glossary:
            raise lines.error(f"unexpected line in the contents: {line[:60]!r}", number)
        contents.append((match.group(1), match.group(2).strip()))
    raise lines.error("document ends inside the contents list (truncated?)")


def _read_rules(lines: _Lines, contents: list[tuple[str, str]], notes: list[str]) -> list[ParsedRule]:
    expected = list(contents)  # chapters and sections still to come, in order
    drafts: list[_Draft] = []
    chapter: _Draft | None = None
    section: _Draft | None = None
    rule: _Draft | None = None
    current: _Draft | None = None  # what a continuation or example line attaches to
    in_example = False
    previous_blank = True
    last_key: tuple[int, int, int] = (0, 0, 0)

    while not lines.at_end():
        number, raw = lines.next()
        line = raw.strip()
        if not line:
            previous_blank = True
            continue
        if line == "Glossary":
            if expected:
                missing = ", ".join(n for n, _ in expected[:3])
                raise lines.error(
                    f"the numbered rules end before {missing}, which the contents list (truncated?)", number
                )
            _check_section_has_rules(drafts, section, lines)
            return [d.freeze() for d in drafts]

        match = _SUBRULE.match(line)
        if match is not None:
            sec, rul, letter, body = match.groups()
            if letter not in SUBRULE_LETTERS:
                # CR introduction: subrules skip the letters "l" and "o".
                raise lines.error(f"subrule letter {letter!r} is never used (letters skip l and o)", number)
            if rule is None or rule.number != f"{sec}.{int(rul)}":
                raise lines.error(f"subrule {sec}.{rul}{letter} is not under rule {sec}.{rul}", number)
            key = (int(sec), int(rul), ord(letter))
            if key <= last_key:
                raise lines.error(f"subrule {sec}.{rul}{letter} is out of order", number)
            if line.startswith(f"{sec}.{rul}{letter}."):
                notes.append(f"line {number}: subrule {sec}.{rul}{letter} printed with a period")
            last_key = key
            current = _Draft(f"{sec}.{int(rul)}{letter}", RuleKind.SUBRULE, number, paragraphs=[body.strip()],
                             parent=rule.number)
            drafts.append(current)
            in_example, previous_blank = False, False
            continue

        match = _RULE.match(line)
        if match is not None:
            sec, rul, body = match.groups()
            if section is None or section.number != sec:
                raise lines.error(f"rule {sec}.{rul} is not under section {sec}", number)
            key = (int(sec), int(rul), 0)
            if key <= last_key:
                raise lines.error(f"rule {sec}.{rul} is out of order", number)
            if not re.match(r"^\d{3}\.\d+\.", line):
                notes.append(f"line {number}: rule {sec}.{rul} printed without the period after its number")
            elif not re.match(r"^\d{3}\.\d+\.\s", line):
                notes.append(f"line {number}: rule {sec}.{rul} printed without a space after its number")
            last_key = key
            rule = current = _Draft(f"{sec}.{int(rul)}", RuleKind.RULE, number, paragraphs=[body.strip()],
                                    parent=sec)
            drafts.append(rule)
            in_example, previous_blank = False, False
            continue

        match = _SECTION.match(line)
        if match is not None:
            sec, title = match.group(1), match.group(2).strip()
            _expect(expected, sec, title, lines, number, notes)
            if chapter is None or chapter.number != sec[0]:
                raise lines.error(f"section {sec} is not under chapter {sec[0]}", number)
            section = _Draft(sec, RuleKind.SECTION, number, title=title, parent=chapter.number)
            drafts.append(section)
            last_key = (int(sec), 0, 0)
            rule = current = None
            in_example, previous_blank = False, False
            continue

        match = _CHAPTER.match(line)
        if match is not None:
            chap, title = match.group(1), match.group(2).strip()
            _expect(expected, chap, title, lines, number, notes)
            chapter = _Draft(chap, RuleKind.CHAPTER, number, title=title)
            drafts.append(chapter)
            section = rule = current = None
            in_example, previous_blank = False, False
            continue

        match = _EXAMPLE.match(line)
        if match is not None:
            if current is None:
                raise lines.error("an example that follows no rule", number)
            # CR: an "Example:" paragraph belongs to the rule above it.
            current.examples.append(match.group(1).strip())
            in_example, previous_blank = True, False
            continue

        if current is not None and not previous_blank:
            # A further paragraph of the rule (or example) above: "205.3i ... / Of that list, ..."
            if in_example:
                current.examples[-1] += "\n" + line
            else:
                current.paragraphs.append(line)
            continue

        raise lines.error(f"cannot place this line in the numbered rules: {line[:60]!r}", number)

    where = section.number if section is not None else (chapter.number if chapter is not None else "the start")
    raise lines.error(f"document ends inside the numbered rules (at {where}); no glossary (truncated?)")


def _expect(expected: list[tuple[str, str]], number: str, title: str, lines: _Lines, line: int,
            notes: list[str]) -> None:
    """Chapters and sections must arrive in the order the contents list them."""
    if not expected or expected[0][0] != number:
        want = expected[0][0] if expected else "the glossary"
        raise lines.error(f"found {number} {title!r} where the contents list {want} next", line)
    listed = expected.pop(0)[1]
    if listed != title:
        notes.append(f"line {line}: {number} is titled {title!r} but the contents say {listed!r}")


def _check_section_has_rules(drafts: list[_Draft], section: _Draft | None, lines: _Lines) -> None:
    # Only the last section is checked: "600. General" has no rules of its own in every version.
    if section is not None and drafts[-1] is section:
        raise lines.error(f"section {section.number} has no rules (truncated?)", section.line)


def _read_glossary(lines: _Lines, notes: list[str]) -> list[GlossaryEntry]:
    paragraphs: list[list[tuple[int, str]]] = []
    current: list[tuple[int, str]] = []
    while not lines.at_end():
        number, raw = lines.next()
        line = raw.strip()
        if line == "Credits" and not current:
            break
        if not line:
            if current:
                paragraphs.append(current)
                current = []
            continue
        current.append((number, line))
    else:
        raise lines.error('document ends inside the glossary; no "Credits" follow (truncated?)')
    if not paragraphs:
        raise lines.error("the glossary is empty", lines.pos)
    entries = [_glossary_entry(p, lines, notes) for p in paragraphs]
    return _assign_aliases(entries)


def _glossary_entry(paragraph: list[tuple[int, str]], lines: _Lines, notes: list[str]) -> GlossaryEntry:
    (line, term), rest = paragraph[0], [text for _, text in paragraph[1:]]
    if not rest:
        glued = _GLUED_TERM.match(term)
        if glued is None:
            raise lines.error(f"glossary term without a definition: {term[:60]!r}", line)
        term, rest = glued.group(1), [f"1. {glued.group(2)}"]
        notes.append(f"line {line}: glossary term {term!r} run together with its definition")
    elif rest[0].startswith("2. ") and (glued := _GLUED_TERM.match(term)) is not None:
        term, rest = glued.group(1), [f"1. {glued.group(2)}", *rest]
        notes.append(f"line {line}: glossary term {term!r} run together with its definition")
    definition = "\n".join(rest)
    return GlossaryEntry(term=term, definition=definition, references=extract_references(definition), line=line)


def _name_key(name: str) -> str:
    return re.sub(r"\s+", " ", name.replace("\u201c", '"').replace("\u201d", '"').replace("\u2019", "'")).casefold()


def _derived_names(term: str, terms: set[str]) -> list[str]:
    names = [term]
    bare = re.sub(r"\s*\([^()]*\)$", "", term)
    if bare != term:
        names.append(bare)
    parts = [p.strip() for p in bare.split(",")]
    if len(parts) > 1 and all(parts) and _name_key(parts[0]) not in terms:
        names.extend(p.strip("\"\u201c\u201d") for p in parts)
    return names


def _assign_aliases(entries: list[GlossaryEntry]) -> list[GlossaryEntry]:
    terms = {_name_key(e.term) for e in entries}
    owner: dict[str, int] = {}  # name key -> index of the entry it finds
    # Printed terms first, so a derived name never takes over another entry's own term.
    for index, entry in enumerate(entries):
        owner.setdefault(_name_key(entry.term), index)
    names: list[list[str]] = [[] for _ in entries]
    redirects: dict[int, int] = {}
    for index, entry in enumerate(entries):
        match = _REDIRECT.match(entry.definition)
        target = owner.get(_name_key(match.group(1))) if match and "\n" not in entry.definition else None
        if target is not None and target != index:
            redirects[index] = target
    for index, entry in enumerate(entries):
        goes_to = redirects.get(index, index)
        for name in _derived_names(entry.term, terms):
            key = _name_key(name)
            if owner.get(key, goes_to) == index and goes_to != index:
                owner[key] = goes_to
            if owner.setdefault(key, goes_to) == goes_to and name not in names[goes_to]:
                names[goes_to].append(name)
    return [
        GlossaryEntry(term=e.term, definition=e.definition, aliases=tuple(names[i]), references=e.references,
                      line=e.line)
        for i, e in enumerate(entries)
    ]


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
