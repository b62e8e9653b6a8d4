"""Asked-as questions: how judges and players ask about a rule, shipped as data beside the code.

`search/questions/*.toml` lists, for rules of one document version, questions in the words
used at a table ("he decked himself", "can I respond to a fetch") whose answer is that rule. The
search indexes them beside the rule (search.index, SearchEntry.questions) and embeds them, so a
question that shares no words with a rule still meets the questions people ask about it.

Each file names the document and the version its numbers are written in:

    doc = "cr"
    version = "2025-02-07"
    [questions]
    "729.4" = ["mandatory infinite loop nobody can stop", "..."]

The numbers are pinned to that version; the service follows them through renumbering into the
version it searches (search.entries). Pure: reads the shipped files, nothing else.

`search/questions/real/*.toml` (`kind = "real"`) hold, in the same shape, the real questions people
posted on public pages that the search bench has measured and read (bench/real_questions: the source
address, the asker's words and the section of the current documents that decides each, checked
against its text), written there by tools/real_asked.py and never by hand: a question a judge asks
again in other words meets the one already answered. They are up to 1,000 characters (a question's
limit) and as many per rule as were asked; `load_asked(real=...)` says whether they are read (the
service reads them; what trains or measures on questions chooses).
"""

from __future__ import annotations

import datetime as dt
import hashlib
import re
import tomllib
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, replace
from pathlib import Path

from search.records import SearchEntry

QUESTIONS_DIR = Path(__file__).with_name("questions")
DOCS = ("cr", "mtr", "ipg", "jar")
MAX_PER_RULE = 8
MAX_CHARS = 300
# The real questions (kind = "real"): as long as a question may be, and as many as were asked.
MAX_PER_RULE_REAL = 60
MAX_CHARS_REAL = 1000
REAL_DIR = QUESTIONS_DIR / "real"
KINDS = ("written", "real")


def normalized(question: str) -> str:
    """A question as the files are read into it: its whitespace collapsed to single spaces."""
    return " ".join(question.split())


class AskedError(ValueError):
    """A questions file that cannot be used; the message names the file and what is wrong."""


@dataclass(frozen=True)
class AskedSet:
    """The questions of one document version: rule number -> questions, in file order."""

    doc: str
    version: dt.date
    questions: Mapping[str, tuple[str, ...]]
    sources: tuple[str, ...]

    @property
    def count(self) -> int:
        return sum(len(q) for q in self.questions.values())


def _line_of(raw: str, key: str) -> int:
    """The line of `raw` where `key` is defined, for error messages (0 when not found)."""
    pattern = re.compile(rf'^\s*"?{re.escape(key)}"?\s*=', re.MULTILINE)
    match = pattern.search(raw)
    return raw.count("\n", 0, match.start()) + 1 if match else 0


def parse_asked(raw: str, source: str) -> AskedSet:
    """One questions file's text -> AskedSet; AskedError naming `source` and the line on
    bad input."""
    try:
        data = tomllib.loads(raw)
    except tomllib.TOMLDecodeError as exc:
        raise AskedError(f"{source}: not valid TOML: {exc}") from None
    doc = data.get("doc")
    if doc not in DOCS:
        raise AskedError(
            f"{source}:{_line_of(raw, 'doc')}: doc must be one of {', '.join(DOCS)}, not {doc!r}"
        )
    try:
        version = dt.date.fromisoformat(str(data.get("version", "")))
    except ValueError:
        raise AskedError(
            f"{source}:{_line_of(raw, 'version')}: version must be a date like 2025-02-07"
        ) from None
    unknown = set(data) - {"doc", "version", "kind", "questions"}
    if unknown:
        raise AskedError(
            f"{source}: unknown keys {', '.join(sorted(unknown))} (doc, version, kind, questions)"
        )
    kind = data.get("kind", "written")
    if kind not in KINDS:
        at = f"{source}:{_line_of(raw, 'kind')}"
        raise AskedError(f"{at}: kind must be one of {', '.join(KINDS)}, not {kind!r}")
    most, longest = (
        (MAX_PER_RULE_REAL, MAX_CHARS_REAL) if kind == "real" else (MAX_PER_RULE, MAX_CHARS)
    )
    table = data.get("questions")
    if not isinstance(table, dict) or not table:
        raise AskedError(f"{source}: a [questions] table of rule number = [questions] is required")
    questions: dict[str, tuple[str, ...]] = {}
    for number, listed in table.items():
        # the line is looked for only when there is an error to name it in (a search of the whole
        # file a rule: 8,000 of them were most of the time it took to load the shipped questions)
        def where(number: str = number) -> str:
            return f"{source}:{_line_of(raw, number)}"

        if not re.fullmatch(r"[0-9A-Z][0-9a-z.]*", number):
            raise AskedError(f"{where()}: {number!r} is not a rule number")
        if not isinstance(listed, list) or not listed or len(listed) > most:
            raise AskedError(f"{where()}: {number} needs a list of 1 to {most} questions")
        for question in listed:
            if not isinstance(question, str) or not question.strip() or len(question) > longest:
                raise AskedError(
                    f"{where()}: {number} has an empty or over-long question: {question!r}"
                )
        questions[number] = tuple(normalized(q) for q in listed)
    return AskedSet(doc=doc, version=version, questions=questions, sources=(source,))


def merge(sets: Iterable[AskedSet]) -> dict[tuple[str, dt.date], AskedSet]:
    """Sets of the same document version joined into one ((doc, version) -> AskedSet)."""
    merged: dict[tuple[str, dt.date], AskedSet] = {}
    for found in sets:
        key = (found.doc, found.version)
        before = merged.get(key)
        if before is None:
            merged[key] = found
            continue
        questions = dict(before.questions)
        for number, listed in found.questions.items():
            questions[number] = tuple(dict.fromkeys(questions.get(number, ()) + listed))
        merged[key] = AskedSet(found.doc, found.version, questions, before.sources + found.sources)
    return merged


def load_asked(
    directory: Path = QUESTIONS_DIR, *, real: bool | Callable[[str], bool] = False
) -> dict[tuple[str, dt.date], AskedSet]:
    """Every questions file shipped in `directory`, joined per document version; with `real`, the
    real questions of its `real/` folder too (a callable keeps only the real questions it is true
    of: a bench leaves out the ones it measures)."""
    files = sorted(directory.glob("*.toml")) if directory.is_dir() else []
    sets = [parse_asked(path.read_text(encoding="utf-8"), str(path)) for path in files]
    if real is not False and (directory / "real").is_dir():
        for path in sorted((directory / "real").glob("*.toml")):
            found = parse_asked(path.read_text(encoding="utf-8"), str(path))
            if callable(real):
                kept = {n: tuple(q for q in qs if real(q)) for n, qs in found.questions.items()}
                found = replace(found, questions={n: qs for n, qs in kept.items() if qs})
            sets.append(found)
    return merge(sets)


def newest_for(doc: str, sets: Mapping[tuple[str, dt.date], AskedSet]) -> list[AskedSet]:
    """The sets of one document, newest version first (the first that applies wins for a rule)."""
    return sorted(
        (s for (d, _), s in sets.items() if d == doc), key=lambda s: s.version, reverse=True
    )


def attach(
    entries: Iterable[SearchEntry], questions: Mapping[str, tuple[str, ...]]
) -> list[SearchEntry]:
    """`entries` with the questions asked about each (by its number in the entries' own version)."""
    return [
        replace(e, questions=questions[e.number]) if e.number in questions and not e.part else e
        for e in entries
    ]


def held_out(question: str) -> bool:
    """Whether an asked-as question is in the slice kept out of training the search model (about one
    in ten, chosen by a hash of its words, so the slice is the same on every machine and stays put
    when other questions are added): recall on it measures the model on questions it never saw."""
    digest = hashlib.sha256(normalized(question.lower()).encode()).digest()
    return digest[0] % 10 == 0
