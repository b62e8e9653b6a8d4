"""Spoken rewriting: a judge's own words found in a question ("walker", "DQ'd", "Blood Moon") and
the question re-said in the rules' words, as the sentence model reads it."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Mapping
from functools import lru_cache

from search.card_names import find_cards, name_words, names_of
from search.people import bare, name_spans, person_spans
from search.records import SearchIndex

_TOKEN = re.compile(r"[0-9A-Za-z]+")
_APOSTROPHES = "'’"


# A phrase table: each key's words (letters and digits, lower case) -> the key, and for each first
# word the lengths in words of the keys that begin with it, longest first.
Phrases = tuple[dict[tuple[str, ...], str], dict[str, tuple[int, ...]]]


_LIGATURES = str.maketrans({"æ": "ae", "Æ": "Ae", "œ": "oe", "Œ": "Oe", "ø": "o", "Ø": "O"})


def _unaccented(text: str) -> str:
    """`text` without its accents and ligatures, as a keyboard without them types it."""
    decomposed = unicodedata.normalize("NFKD", text.translate(_LIGATURES))
    return "".join(c for c in decomposed if not unicodedata.combining(c))


@lru_cache(maxsize=8)
def _phrase_table(keys: tuple[str, ...]) -> Phrases:
    """Each key's words -> the key, and the lengths of the keys each first word begins."""
    table: dict[tuple[str, ...], str] = {}
    for k in keys:  # "grafdigger's cage" is also typed "grafdiggers cage"
        bare = k.replace("'", "").replace("’", "")
        # "Jötun Grunt", "Æther Vial" typed on a tablet without ö or Æ: "jotun grunt", "aether vial"
        for form in (_unaccented(bare), _unaccented(k), bare, k):
            table[tuple(w.lower() for w in _TOKEN.findall(form))] = k
    table.pop((), None)
    sizes: dict[str, set[int]] = {}
    for words in table:
        sizes.setdefault(words[0], set()).add(len(words))
    return table, {first: tuple(sorted(n, reverse=True)) for first, n in sizes.items()}


# The phrase tables of the last word tables read, by identity: with a card table of 30,000 names,
# sorting and hashing the keys again for every question cost about 10 ms a search.
_TABLES: list[tuple[Mapping[str, str], Mapping[str, str], Phrases]] = []
_NO_CARDS: Mapping[str, str] = {}


def _table_of(spoken: Mapping[str, str], cards: Mapping[str, str]) -> Phrases:
    for known_spoken, known_cards, table in _TABLES:
        if known_spoken is spoken and known_cards is cards:
            return table
    table = _phrase_table(tuple(sorted({*spoken, *cards})))
    _TABLES.insert(0, (spoken, cards, table))
    del _TABLES[4:]
    return table


def spoken_matches(keys: Iterable[str], query: str) -> list[tuple[int, int, str]]:
    """(begin, end, key) for each key found in `query`: whole words, longest first, left to right,
    whatever the punctuation and spacing between a key's words ("DQ'd", "dq’d"); a word glued to an
    apostrophe ("you'll", "walker's") is not a key's word."""
    return _matches(_phrase_table(tuple(sorted(keys))), query)


def _matches(phrases: Phrases, query: str) -> list[tuple[int, int, str]]:
    """Only the lengths of keys that begin with a token's word are tried there: the 45,000 asked-as
    questions read for an index took 16 s of a profiled build when every length up to the longest
    card name was tried at every word."""
    table, sizes = phrases
    if not table:
        return []
    tokens = list(_TOKEN.finditer(query))
    words = [t.group().lower() for t in tokens]
    found: list[tuple[int, int, str]] = []
    k = 0
    while k < len(tokens):
        for size in sizes.get(words[k], ()):
            if size > len(tokens) - k:
                continue
            key = table.get(tuple(words[k : k + size]))
            begin, end = tokens[k].start(), tokens[k + size - 1].end()
            if key is not None and not _glued(query, begin, end):
                found.append((begin, end, key))
                k += size
                break
        else:
            k += 1
    return found


def spoken_rewrite(
    spoken: Mapping[str, str],
    query: str,
    cards: Mapping[str, str] | None = None,
    *,
    as_typed: bool = False,
) -> str:
    """`query` with the judge's spoken words replaced by the rules' words, in place, as a sentence:
    "my walker went to zero" -> "my planeswalker went to zero" (what the sentence model embeds).
    A card named in it keeps its name, followed by what it does: "Blood Moon (nonbasic lands are
    Mountains)". A word said of a player ("guy keeps swearing") is read as one (search.people).
    With `as_typed` (a judge's question, not the shipped asked-as questions, whose stored vectors
    are of their texts as written), a card named otherwise than by its whole name is read too
    (search.card_names): "Dark Confidnat (Dark Confidant: ...)"."""
    out: list[str] = []
    done = 0
    for begin, end, means, _ in _readings(spoken, cards or _NO_CARDS, query, as_typed=as_typed):
        out.append(query[done:begin])
        out.append(means)
        done = end
    out.append(query[done:])
    return "".join(out)


def understood(index: SearchIndex, query: str) -> list[dict[str, str]]:
    """How the search reads the judge's own words in `query`: each spoken word or card name found,
    as typed, with the rules' words it stands for ({"words", "means", "kind": "spoken"|"card"},
    and "card", the card's name, for a card). A card named otherwise than by its name ("Dark
    Confidnat", "Kiki") is read as "<its name>: what it does"."""
    return read_question(index, query)[0]


def read_question(index: SearchIndex, query: str) -> tuple[list[dict[str, str]], list[str]]:
    """understood(index, query), and the keys of the cards `query` names (in
    search.vocabulary.card_descriptions), each once, in the order named: by their name, a face,
    a leading part or a misspelling."""
    # a name that stands for a player is read as a player ("Bob calls me over"), as the question
    # the model embeds reads it (search.query), never as the card it also names
    players = [(begin, end) for begin, end, _ in name_spans(query)]
    found = [
        reading
        for reading in _readings(index.spoken, index.card_text, query, as_typed=True)
        if not any(begin < reading[1] and reading[0] < end for begin, end in players)
    ]
    read = [
        {
            "words": query[begin:end],
            "means": means
            if kind == "spoken"
            else _named(query[begin:end], key) + index.card_text[key],
            "kind": kind,
            **({"card": _title(key)} if kind == "card" else {}),
        }
        for begin, end, means, (kind, key) in found
    ]
    return read, list(dict.fromkeys(key for *_, (kind, key) in found if kind == "card"))


def _readings(
    spoken: Mapping[str, str], cards: Mapping[str, str], query: str, *, as_typed: bool = False
) -> list[tuple[int, int, str, tuple[str, str]]]:
    """(begin, end, what the sentence model reads there, (kind, key)) for each spoken word and card
    name in `query`, left to right. Word tables are read as given once built (an index's, or
    shipped_words() for one batch of questions). A card keeps its name and is followed by what it
    does; a word of search.people that the question says of a player reads as a player."""
    found: list[tuple[int, int, str, tuple[str, str]]] = [
        (b, e, means, ("spoken", key))
        for b, e, means in person_spans(query)
        if (key := bare(query[b:e])[0]) in spoken
    ]
    people = list(found)
    for begin, end, key in _matches(_table_of(spoken, cards), query):
        if any(b < end and begin < e for b, e, *_ in people):
            continue
        if key in spoken:
            found.append((begin, end, spoken[key], ("spoken", key)))
        else:
            found.append((begin, end, f"{query[begin:end]} ({cards[key]})", ("card", key)))
    # Cards named otherwise than by their whole name: a face, a leading part, a misspelling
    # (search.card_names). The sentence model reads the card's name as it is spelt.
    if cards and as_typed:
        taken = [(b, e) for b, e, *_ in found]
        named = [key for *_, (kind, key) in found if kind == "card"]
        for mention in find_cards(query, names_of(cards), taken, named):
            b, e, key = mention.begin, mention.end, mention.key
            # a card named again ("Urborg" after "Urborg, Tomb of Yawgmoth") was described where
            # it was first named: the sentence says it once; its name owning something ("Lightning
            # Helix's") is read as the exact names are (a word glued to an apostrophe is none)
            plain = key in named or mention.how == "possessive"
            said = query[b:e] if plain else f"{query[b:e]} ({_title(key)}: {cards[key]})"
            found.append((b, e, said, ("card", key)))
    return sorted(found, key=lambda f: f[0])


def _named(said: str, key: str) -> str:
    """ "Dark Confidant: " where the judge named the card otherwise ("Dark Confidnat", "Kiki");
    nothing where the words typed are its name."""
    return "" if name_words(said) == name_words(key) else f"{_title(key)}: "


def _title(key: str) -> str:
    """A card key as a name: "dark confidant" -> "Dark Confidant"."""
    return " ".join(w[:1].upper() + w[1:] for w in key.split(" "))


def _glued(text: str, begin: int, end: int) -> bool:
    """Whether text[begin:end] is part of a longer word through an apostrophe
    ("you'll", "walker's")."""
    before = begin >= 2 and text[begin - 1] in _APOSTROPHES and text[begin - 2].isalnum()
    after = end + 1 < len(text) and text[end] in _APOSTROPHES and text[end + 1].isalnum()
    return before or after
