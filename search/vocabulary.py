"""The shipped word tables: the judge vocabulary (judge phrase -> rule words), spoken words (the
judge's word -> the rules' word, for the embedded question) and card descriptions (card name ->
what it does in the rules' words). `card_descriptions()` is the one place search reads card
descriptions from: the card table when one holds cards (its provider registered in
search.card_source by the cards app), else the hand-written cards.toml.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from functools import lru_cache
from pathlib import Path

from search import card_source
from search.text import phrase_key, terms

VOCABULARY_PATH = Path(__file__).with_name("vocabulary.toml")
CARDS_PATH = Path(__file__).with_name("cards.toml")


def _read_toml(path: Path) -> Mapping:
    """The parsed TOML file, read again only when it changed on disk: an index built reads the
    vocabulary's tables four times (about 40 ms each time parsed). The callers copy what they
    take from it, never changing it."""
    stat = path.stat()
    return _parsed(path, stat.st_mtime_ns, stat.st_size)


@lru_cache(maxsize=16)
def _parsed(path: Path, _mtime_ns: int, _size: int) -> Mapping:
    with path.open("rb") as handle:
        return tomllib.load(handle)


def load_vocabulary(path: Path = VOCABULARY_PATH) -> dict[str, str]:
    """The judge vocabulary: judge phrase -> rule words, as written in the TOML file."""
    data = _read_toml(path)
    return {str(k): str(v) for k, v in data.get("phrases", {}).items()}


def load_spoken(path: Path = VOCABULARY_PATH) -> dict[str, str]:
    """Spoken words -> rule words for the question the sentence model embeds ([spoken] table)."""
    data = _read_toml(path)
    return {" ".join(str(k).lower().split()): str(v) for k, v in data.get("spoken", {}).items()}


def load_cards(path: Path = CARDS_PATH) -> dict[str, str]:
    """Card names judges type -> what the card does in the rules' words ([cards]); {} without
    the file."""
    if not path.is_file():
        return {}
    data = _read_toml(path)
    return {card_source.card_key(k): str(v) for k, v in data.get("cards", {}).items()}


def load_intent(path: Path = VOCABULARY_PATH) -> list[str]:
    """Words and phrases that make a question one of tournament policy ([intent] words)."""
    data = _read_toml(path)
    return [str(w) for w in data.get("intent", {}).get("words", [])]


def load_remedy(path: Path = VOCABULARY_PATH) -> tuple[list[str], list[str]]:
    """Of the [intent] words, those that ask for a penalty or a fix ([intent] remedy), and the words
    that place a question at Regular REL ([intent] regular)."""
    data = _read_toml(path)
    found = data.get("intent", {})
    return [str(w) for w in found.get("remedy", [])], [str(w) for w in found.get("regular", [])]


def load_competitive(path: Path = VOCABULARY_PATH) -> list[str]:
    """The words that place a question at Competitive or Professional REL ([intent] competitive)."""
    data = _read_toml(path)
    return [str(w) for w in data.get("intent", {}).get("competitive", [])]


def card_descriptions() -> dict[str, str]:
    """Card names judges type -> what the card does in the rules' words: what search reads for
    cards (the index's card words, the embedded question, "Read as" on the page, the offline pack).
    From the card table when one holds cards, and then only from it; the hand-written cards.toml
    only where no card table is imported. `card_source.card_stamp()` names which one this is."""
    table = card_source.table_descriptions()
    return dict(_hand_written() if table is None else table)


@lru_cache(maxsize=1)
def _hand_written() -> dict[str, str]:
    return load_cards()


@lru_cache(maxsize=1)
def shipped_spoken() -> dict[str, str]:
    """The shipped spoken words, read once per process."""
    return load_spoken()


def shipped_words() -> tuple[dict[str, str], dict[str, str]]:
    """The spoken words and the cards search reads now: for texts read as a judge's question
    outside an index (asked-as questions before embedding)."""
    return shipped_spoken(), card_descriptions()


def compile_vocabulary(phrases: Mapping[str, str]) -> dict[tuple[str, ...], tuple[str, ...]]:
    compiled: dict[tuple[str, ...], tuple[str, ...]] = {}
    for phrase, expansion in phrases.items():
        key = phrase_key(phrase)
        if key:
            compiled[key] = tuple(terms(expansion))
    return compiled
