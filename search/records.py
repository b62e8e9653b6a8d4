"""What the search engine reads and answers: entries to index, hits, and the built index."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class SearchEntry:
    doc: str  # "cr", "mtr", "ipg", "jar"
    number: str  # canonical rule number, "729.4"
    title: str = ""  # the rule's own heading ("Taking Shortcuts"), "" for plain rules
    text: str = ""
    examples: tuple[str, ...] = ()
    section_title: str = ""  # the enclosing section's title ("Taking Shortcuts")
    aliases: tuple[str, ...] = ()
    questions: tuple[str, ...] = ()  # how judges ask about it (search.asked), matched as questions
    part: str = ""  # one part of an IPG infraction ("philosophy"); "" for the whole rule


@dataclass(frozen=True)
class SearchHit:
    doc: str
    number: str
    score: float
    snippet: str
    title: str = ""  # the rule's heading, else its section's title
    part: str = ""  # the part of the rule that matched best ("philosophy"), "" for the rule


@dataclass
class SearchIndex:
    """Everything a query needs; plain containers only, so it pickles."""

    entries: list[SearchEntry]
    postings: dict[str, list[tuple[int, float]]]  # stem -> [(entry index, weighted term frequency)]
    idf: dict[str, float]
    norms: list[float]  # BM25 length factor per entry
    heading_only: list[bool]
    text_stems: list[tuple[str, ...]]  # title + text stems in order, for quoted phrases
    by_number: dict[tuple[str, str], int]  # (doc, number) -> entry index
    children: dict[tuple[str, str], list[int]]  # (doc, parent number) -> entry indexes
    surface: dict[str, str]  # every indexed word form -> its stem
    deletes: dict[str, list[str]]  # one-deletion variants -> word forms (typos)
    surface_count: dict[str, int]
    # stemmed term/alias -> cited rule numbers (CR)
    glossary: dict[tuple[str, ...], tuple[str, ...]]
    # stemmed obsolete term -> stemmed words of its definition
    obsolete: dict[tuple[str, ...], tuple[str, ...]]
    vocabulary: dict[tuple[str, ...], tuple[str, ...]]  # stemmed judge phrase -> stemmed rule words
    vocabulary_words: frozenset[str] = frozenset()  # stems that appear in judge phrases
    # stemmed rule title or alias -> entry indexes
    names: dict[tuple[str, ...], tuple[int, ...]] | None = None
    # Asked-as questions, each its own small document: stem -> [(question index, term frequency)].
    question_postings: dict[str, list[tuple[int, float]]] = field(default_factory=dict)
    question_idf: dict[str, float] = field(default_factory=dict)
    question_norms: list[float] = field(default_factory=list)
    question_owner: list[int] = field(default_factory=list)  # question index -> entry index
    # spoken word -> rule words, for the embedded question
    spoken: dict[str, str] = field(default_factory=dict)
    # card name (all words) -> rule words
    cards: dict[tuple[str, ...], tuple[str, ...]] = field(default_factory=dict)
    # card name -> what it does, as written, for the embedded question
    card_text: dict[str, str] = field(default_factory=dict)
    # document -> its entry indexes, in order
    doc_entries: dict[str, list[int]] = field(default_factory=dict)
    # stemmed policy word -> the word ([intent])
    intent: dict[tuple[str, ...], str] = field(default_factory=dict)
    # the [intent] words that ask for a penalty or a fix ([intent] remedy)
    remedy: frozenset[str] = frozenset()
    # stemmed word of Regular REL -> the word
    regular: dict[tuple[str, ...], str] = field(default_factory=dict)
    # stemmed word of Competitive REL -> the word
    competitive: dict[tuple[str, ...], str] = field(default_factory=dict)
    # The postings laid out flat for fast sums (search.bm25.Packed; None without numpy).
    packed: Any = field(default=None, repr=False, compare=False)
    question_packed: Any = field(default=None, repr=False, compare=False)
