"""Card names found anywhere in a judge's question as the judge typed them: a face of a split card
("Fire" of "Fire // Ice"), the leading part of a legendary name ("Kiki-Jiki" of "Kiki-Jiki, Mirror
Breaker"), a misspelling ("Dark Confidnat"). The exact names are search.spoken's; this module reads
what is left around them, against the names search reads now (the card table's when one is
imported, else the hand-written cards.toml: search.vocabulary.card_descriptions).

Ordinary words are not cards: a shortened name or a face that is an English word ("Fire", "Ice")
is a card only where the judge wrote it with a capital and not at the start of a sentence; a
misspelling is matched (RapidFuzz's normalised Indel similarity) only where the words typed are
capitalised or hold a word that is no English word, where the first letters agree, and where one
name stands out. A shortened name that starts several cards ("Urza", "Emrakul") names none of them.
Standard library and RapidFuzz: importing this starts no Django.
"""

from __future__ import annotations

import re
import unicodedata
from bisect import bisect_left, bisect_right
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from rapidfuzz import fuzz, process

from search.model import english_words
from search.text import STOPWORDS

# A word as a card name spells it: "Thassa's", "Kiki-Jiki", "Lim-Dûl's" are one word each.
_WORD = re.compile(r"[^\W_]+(?:['’\-][^\W_]+)*")
_ENDINGS = ("s", "es", "ed", "d", "ing", "ly", "er", "ers")
_CONTRACTION = re.compile(r"['’](?:t|ve|re|ll|d|m)$", re.IGNORECASE)
_OPENERS = frozenset('.!?:;\n"“(')
_LONGEST = 6  # words in the longest name read (longer names are read exactly or not at all)
# Similarity (0-100) a misspelt name needs: capitalised words, or words typed in lower case.
_TYPO_CAPITALISED = 85.0
_TYPO_LOWER = 90.0
_TYPO_ONE_WORD = 88.0  # a misspelt one-word name, capitalised or not ("Thoughtsieze")
_STANDS_OUT = 3.0  # points ahead of the next name, else the misspelling names none
_TYPO_MIN_CHARS = 6  # a misspelt one-word name is at least this long ("Ephemrate")
_LENGTH_SLACK = 2  # letters a misspelling may add or drop


@dataclass(frozen=True)
class CardMention:
    begin: int  # where the words typed begin and end in the question
    end: int
    key: str  # the card's key in the descriptions
    how: str  # "face", "short" (leading part of the name), "typo" or "possessive" ("Goyf's")


@dataclass(frozen=True)
class CardNames:
    aliases: dict[tuple[str, ...], str]  # face or leading part -> card key (one card each)
    names: dict[tuple[str, ...], str]  # a whole name's words -> card key
    # (words, first letter) -> (their lengths, names with words space-joined), shortest first
    by_shape: dict[tuple[int, str], tuple[list[int], list[str]]]
    joined: dict[str, str]  # space-joined name -> card key
    common: frozenset[str]  # words that are ordinary English
    heads: frozenset[str] = frozenset()  # the first words of the names
    tails: frozenset[str] = frozenset()  # and their last words


def fold(word: str) -> str:
    """A word as names are compared: lower case, no accents, no apostrophes or hyphens."""
    if word.isascii():
        return word.lower().replace("'", "").replace("-", "")
    text = unicodedata.normalize("NFKD", word)
    text = "".join(c for c in text if not unicodedata.combining(c)).casefold()
    return re.sub(r"['’\-]", "", text)


def name_words(text: str) -> tuple[str, ...]:
    return tuple(f for w in _WORD.findall(text) if (f := fold(w)))


def card_names(keys: Sequence[str], common: frozenset[str] | None = None) -> CardNames:
    """What the finder reads for the card keys `keys` (lower-case names, "fire // ice")."""
    names: dict[tuple[str, ...], str] = {}
    for key in keys:
        if words := name_words(key):
            names.setdefault(words, key)
    meant: dict[tuple[str, ...], set[str]] = defaultdict(set)
    for key in keys:
        parts = [p for p in key.split("//") if p.strip()] if "//" in key else []
        if (
            "," in key
        ):  # a legendary name's leading part: "kiki-jiki" of "kiki-jiki, mirror breaker"
            parts.append(key.split(",", 1)[0])
        for part in parts:
            if (words := name_words(part)) and words not in names:
                meant[words].add(key)
    # A leading part that begins several names ("Liliana": "Liliana, the Last Hope", "Liliana of
    # the Veil") names none of them.
    starts: dict[tuple[str, ...], set[str]] = defaultdict(set)
    for words, key in names.items():
        for size in range(1, len(words)):
            if words[:size] in meant:
                starts[words[:size]].add(key)
    aliases = {
        words: next(iter(found))
        for words, found in meant.items()
        if len(found | starts.get(words, set())) == 1
    }
    grouped: dict[tuple[int, str], list[str]] = defaultdict(list)
    joined: dict[str, str] = {}
    for words, key in names.items():
        text = " ".join(words)
        joined[text] = key
        grouped[(len(words), text[0])].append(text)
    by_shape = {}
    for shape, texts in grouped.items():
        texts.sort(key=lambda t: (len(t), t))
        by_shape[shape] = ([len(t) for t in texts], texts)
    if common is None:
        common = english_words() | STOPWORDS
    heads = frozenset(w[0] for w in names)
    tails = frozenset(w[-1] for w in names)
    return CardNames(aliases, names, by_shape, joined, common, heads, tails)


_CACHE: list[tuple[Mapping[str, str], CardNames]] = []


def names_of(cards: Mapping[str, str]) -> CardNames:
    """card_names of a description table, built once per table (by identity: an index's)."""
    for known, built in _CACHE:
        if known is cards:
            return built
    built = card_names(sorted(cards))
    _CACHE.insert(0, (cards, built))
    del _CACHE[2:]
    return built


def find_cards(
    query: str,
    names: CardNames,
    taken: Sequence[tuple[int, int]] = (),
    named: Sequence[str] = (),
) -> list[CardMention]:
    """The cards `query` names other than by their exact name, left to right, outside the spans
    `taken` (the exact names and people already read there). `named` are the keys of the cards
    it names exactly: a leading part of one of them ("Liliana" after "Liliana of the Veil") is
    that card again; a leading part first seen in a longer name that is no card known ("Omnath,
    Locus of Rage") names no card after it either."""
    tokens = list(_WORD.finditer(query))
    folded = [fold(t.group()) for t in tokens]
    seen = [name_words(k) for k in named]
    # Only words that may be a name's are looked at: a capital not opening a sentence, a word that
    # is no English word, a face or leading part, a word of a card named already. A span of plain
    # lower-case English words names no card, and is not compared with every name.
    firsts = {w[0] for w in seen if w} | {w[0] for w in names.aliases}
    odd = [
        not _english(f, names.common)
        or f in firsts
        or (t.group()[0].isupper() and not _opens_sentence(query, t.start()))
        for t, f in zip(tokens, folded, strict=True)
    ]
    found: list[CardMention] = []
    blocked: set[tuple[str, ...]] = set()
    k = 0
    while k < len(tokens):
        for size in range(min(_LONGEST, len(tokens) - k), 0, -1):
            begin, end = tokens[k].start(), tokens[k + size - 1].end()
            if not any(odd[k : k + size]) or any(b < end and begin < e for b, e in taken):
                continue
            words = tuple(folded[k : k + size])
            again = next(
                (key for key, w in zip(named, seen, strict=True) if w[:size] == words), None
            )
            if (
                again is not None
                and size < len(name_words(again))
                and _name_like(query, tokens[k : k + size], list(words), names)
            ):
                found.append(CardMention(begin, end, again, "short"))
                k += size
                break
            if words in blocked:
                continue
            if words in names.aliases and _in_longer_name(query, begin, end):
                blocked.add(words)
                continue
            mention = _mention(query, tokens[k : k + size], list(words), names)
            if mention is not None:
                found.append(mention)
                k += size
                break
        else:
            k += 1
    return found


def _opens_sentence(query: str, at: int) -> bool:
    """Whether the word at `at` is the first of the question, of a sentence, line or bracket."""
    k = at - 1
    while k >= 0 and query[k] in " \t":
        k -= 1
    return k < 0 or query[k] in _OPENERS


def _capitalised(query: str, tokens: Sequence[re.Match[str]]) -> bool:
    """Every word of the name that is not a small word starts with a capital letter; a name that
    opens a sentence needs a second capitalised word (the first is capitalised anyway)."""
    big = [t.group() for t in tokens if fold(t.group()) not in STOPWORDS]
    if not big or not all(w[0].isupper() for w in big):
        return False
    return len(big) > 1 or not _opens_sentence(query, tokens[0].start())


# A capitalised word (not one opening a sentence), with the small words that join a name's words.
_NAME_BEFORE = re.compile(r"[^.!?:;\n\"“(\s]\s+[A-Z][\w'’\-]*\s+(?:(?:of|the|from|to|and|in)\s+)*$")
_NAME_AFTER = re.compile(r"(?:\s*,\s*|\s+(?:(?:of|the|from|to|and|in)\s+)*)[A-Z]")


def _in_longer_name(query: str, begin: int, end: int) -> bool:
    """Whether the words at begin:end are part of a longer capitalised name: "Nissa" in "Oath of
    Nissa", "Omnath" in "Omnath, Locus of Rage" (a card the list may not hold)."""
    return bool(
        _NAME_BEFORE.search(query[max(0, begin - 80) : begin]) or _NAME_AFTER.match(query, end)
    )


def _name_like(
    query: str, tokens: Sequence[re.Match[str]], words: list[str], names: CardNames
) -> bool:
    """Capitalised as a name, or no English word: "Beast" may be "Beast Within" again, "a 3/3 beast"
    is not."""
    return not all(_english(w, names.common) for w in words) or _capitalised(query, tokens)


def _mention(
    query: str, tokens: Sequence[re.Match[str]], words: list[str], names: CardNames
) -> CardMention | None:
    key = tuple(words)
    if words[0] in STOPWORDS or words[-1] in STOPWORDS:
        return None
    begin, end = tokens[0].start(), tokens[-1].end()
    # English words, and any word of three letters or fewer ("Ice", "Oko"): too short to tell
    # from a word typed in passing
    ordinary = all(_english(w, names.common) for w in words)
    alias = names.aliases.get(key)
    if alias is not None:
        if ordinary and not _capitalised(query, tokens):
            return None
        return CardMention(begin, end, alias, "face" if "//" in alias else "short")
    if key in names.names:  # an exact name, left to search.spoken (which did not take it)
        return None
    return _typo(query, tokens, words, names, ordinary)


def _english(word: str, common: frozenset[str]) -> bool:
    """An English word, as written or with an ending ("tokens", "forgets", "activates", "Nathan's"),
    or a word of three letters or fewer."""
    if len(word) <= 3 or word in common:
        return True
    for ending in _ENDINGS:
        if word.endswith(ending) and len(word) - len(ending) >= 3:
            bare = word[: -len(ending)]
            if bare in common or bare + "e" in common:
                return True
    return False


def _typo(
    query: str,
    tokens: Sequence[re.Match[str]],
    words: list[str],
    names: CardNames,
    ordinary: bool,
) -> CardMention | None:
    text = " ".join(words)
    if len(words) == 1 and (
        ordinary or len(text) < _TYPO_MIN_CHARS or _CONTRACTION.search(tokens[0].group())
    ):
        return None  # an English word spelt right ("haven't") is not a misspelt card
    # a name's first and last words, each spelt right or misspelt (no English word)
    if (words[0] in names.common and words[0] not in names.heads) or (
        words[-1] in names.common and words[-1] not in names.tails
    ):
        return None
    shape = names.by_shape.get((len(words), text[0]))
    if shape is None:
        return None
    lengths, sorted_names = shape
    choices = sorted_names[
        bisect_left(lengths, len(text) - _LENGTH_SLACK) : bisect_right(
            lengths, len(text) + _LENGTH_SLACK
        )
    ]
    if not choices:
        return None
    capitalised = _capitalised(query, tokens)
    if ordinary and not capitalised:
        return None  # "dark confident" in lower case is said of someone, "Dark Confident" a card
    cutoff = _TYPO_CAPITALISED if capitalised else _TYPO_LOWER
    if len(words) == 1:
        cutoff = max(cutoff, _TYPO_ONE_WORD)
    best = process.extract(text, choices, scorer=fuzz.ratio, score_cutoff=cutoff, limit=2)
    if not best:
        return None
    runner_up = best[1][1] if len(best) > 1 else 0.0
    if best[0][1] - runner_up < _STANDS_OUT:
        return None
    card = best[0][0]
    # a name said as a verb ("I Mindslavered him", "Giant Growth'd bear") tells what was done, not
    # a card the question turns on
    said = tokens[-1].group().casefold().replace("’", "'")
    last = card.rsplit(" ", 1)[-1]
    if said.endswith("'d") or (words[-1] in (last + "ed", last + "d") and last != words[-1]):
        return None
    # each misspelt word is near its own, and an English word stands for another only where the
    # judge capitalised the name
    for typed, meant in zip(words, card.split(), strict=True):
        if typed != meant and (
            (_english(typed, names.common) and not capitalised)
            or fuzz.ratio(typed, meant) < cutoff - 15
        ):
            return None
    # "Lightning Helix's": the name itself, owning something
    how = "possessive" if said.endswith("'s") and words[-1] == last + "s" else "typo"
    return CardMention(tokens[0].start(), tokens[-1].end(), names.joined[card], how)
