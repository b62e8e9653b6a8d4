"""The Comprehensive Rules' glossary: its paragraphs read into entries, and each entry's other names
(plural forms, the words before a comma) assigned so a lookup by any of them finds it."""

from __future__ import annotations

import re
from typing import Protocol

from rulesref.parsing.common import extract_references, term_key
from rulesref.parsing.records import GlossaryEntry, ParseError

# Seen once (2021-06-18): a glossary term run together with its first numbered sense.
_GLUED_TERM = re.compile(r"^(.*?[^\s\d])1\.\s+(\S.*)$")
_REDIRECT = re.compile(r"^See (.+?)\.?$")


class LineCursor(Protocol):
    """What the glossary reader needs of the CR parser's line cursor (cr._Lines)."""

    pos: int

    def at_end(self) -> bool: ...
    def next(self) -> tuple[int, str]: ...
    def error(self, message: str, line: int | None = None) -> ParseError: ...


def _read_glossary(lines: LineCursor, notes: list[str]) -> list[GlossaryEntry]:
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


def _glossary_entry(
    paragraph: list[tuple[int, str]], lines: LineCursor, notes: list[str]
) -> GlossaryEntry:
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
    return GlossaryEntry(
        term=term, definition=definition, references=extract_references(definition), line=line
    )


def _derived_names(term: str, terms: set[str]) -> list[str]:
    names = [term]
    bare = re.sub(r"\s*\([^()]*\)$", "", term)
    if bare != term:
        names.append(bare)
    parts = [p.strip() for p in bare.split(",")]
    if len(parts) > 1 and all(parts) and term_key(parts[0]) not in terms:
        names.extend(p.strip('"\u201c\u201d') for p in parts)
    return names


def _assign_aliases(entries: list[GlossaryEntry]) -> list[GlossaryEntry]:
    terms = {term_key(e.term) for e in entries}
    owner: dict[str, int] = {}  # name key -> index of the entry it finds
    # Printed terms first, so a derived name never takes over another entry's own term.
    for index, entry in enumerate(entries):
        owner.setdefault(term_key(entry.term), index)
    names: list[list[str]] = [[] for _ in entries]
    redirects: dict[int, int] = {}
    for index, entry in enumerate(entries):
        match = _REDIRECT.match(entry.definition)
        target = (
            owner.get(term_key(match.group(1))) if match and "\n" not in entry.definition else None
        )
        if target is not None and target != index:
            redirects[index] = target
    for index, entry in enumerate(entries):
        goes_to = redirects.get(index, index)  # a redirect hands its names to its target
        for name in _derived_names(entry.term, terms):
            key = term_key(name)
            holder = owner.get(key, index)
            if holder != index:
                continue  # another entry's printed term, or a name an earlier entry already took
            owner[key] = goes_to
            if name not in names[goes_to]:
                names[goes_to].append(name)
    for index, entry in enumerate(entries):
        # the printed term leads, before names handed over by redirects
        if entry.term in names[index]:
            names[index].remove(entry.term)
            names[index].insert(0, entry.term)
    return [
        GlossaryEntry(
            term=e.term,
            definition=e.definition,
            aliases=tuple(names[i]),
            references=e.references,
            line=e.line,
        )
        for i, e in enumerate(entries)
    ]
