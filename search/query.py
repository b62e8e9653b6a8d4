"""Reading a judge's question: typo correction, judge phrases, cards, obsolete glossary names,
glossary terms, rule names and quoted phrases, into the weights the ranking looks up."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TypeVar

from search.asking import asking_text, pieces
from search.model import english_words
from search.people import read_names, read_people
from search.records import SearchIndex
from search.spoken import spoken_rewrite
from search.text import STOPWORDS, stem, words

_V = TypeVar("_V")

# Weight of query words that come from a typo correction or a vocabulary expansion.
_W_TYPO = 0.8
_W_EXPANSION = 1.0
_W_OBSOLETE = 0.5
# Weight of the rule words a card's name stands for (cards.toml).
_W_CARD = 0.6
# Words that only place a question at Regular REL ("at FNM", "casual") keep this share of their
# weight when the question has other words: they choose the document (ranking's remedy lift), they
# are not what the question is about, and lexically they match the JAR's introduction and the MTR's
# REL chart rather than the section that answers.
_W_CONTEXT = 0.3
# A glossary term lifts rules only when its words are rarer than this share of all entries.
_GLOSSARY_MAX_DF = 0.03
_QUOTED = re.compile(r"[\"“”]([^\"“”]+)[\"“”]")
# A question told as a story (search.asking): the words of its scene keep this share of their
# weight; those of the sentences that ask keep all of it. A card named anywhere keeps its weight.
# Measured on the real questions' tuning half (bench real-tune), with ranking._ASKING: 0.5 to 0.7
# alike; 0.3 loses more of the scene than it gains.
_W_SCENE = 0.7


@dataclass(frozen=True)
class ParsedQuery:
    weights: dict[str, float]  # stem -> weight
    phrases: list[tuple[str, ...]]  # quoted phrases, stemmed
    glossary: list[tuple[str, ...]]  # rule numbers cited by glossary terms found
    shown: frozenset[str]  # stems to highlight in snippets
    semantic_text: str = ""  # the question in the rules' words ([spoken]), for embeddings
    # a question told as a story: its asking sentences alone, in the rules' words, for embeddings
    # (search.ranking weighs them beside the whole); "" when it has no scene
    asking_text: str = ""
    named: tuple[int, ...] = ()  # entries whose title or alias the question names
    # the judge's own words (typos fixed), for asked-as questions
    asked: Mapping[str, float] = field(default_factory=dict)
    intent: tuple[str, ...] = ()  # words that make it a question of tournament policy ([intent])
    # it names Regular REL ("fnm", "casual"): the JAR answers its penalties and fixes
    regular: bool = False
    # it names Competitive or Professional REL ("comp", "PTQ"): the JAR does not
    competitive: bool = False


def _correct(index: SearchIndex, form: str) -> str | None:
    """The most frequent index word one edit away from `form` (deletion, insertion, substitution,
    transposition all meet in the one-deletion neighbourhood); None when there is none."""
    if len(form) < 4 or not form.isalpha():
        return None
    candidates: set[str] = set()
    candidates.update(index.deletes.get(form, ()))
    variants = {form[:k] + form[k + 1 :] for k in range(len(form))}
    for variant in variants:
        if variant in index.surface:
            candidates.add(variant)
        candidates.update(index.deletes.get(variant, ()))
    candidates = {
        c for c in candidates if abs(len(c) - len(form)) <= 1 and _within_one_edit(form, c)
    }
    if not candidates:
        return None
    return max(sorted(candidates), key=lambda c: index.surface_count.get(c, 0))


def _within_one_edit(a: str, b: str) -> bool:
    if a == b:
        return True
    if len(a) == len(b):
        diff = [k for k in range(len(a)) if a[k] != b[k]]
        return len(diff) == 1 or (
            len(diff) == 2
            and diff[1] == diff[0] + 1
            and a[diff[0]] == b[diff[1]]
            and a[diff[1]] == b[diff[0]]
        )
    if len(a) > len(b):
        a, b = b, a
    return any(b[:k] + b[k + 1 :] == a for k in range(len(b)))


def find_phrases(
    tokens: Sequence[str], table: Mapping[tuple[str, ...], _V], longest: int = 6
) -> list[tuple[int, int, _V]]:
    """Non-overlapping (start, end, value) matches of `table` keys in `tokens`, longest first."""
    found: list[tuple[int, int, _V]] = []
    k = 0
    while k < len(tokens):
        for size in range(min(longest, len(tokens) - k), 0, -1):
            value = table.get(tuple(tokens[k : k + size]))
            if value is not None:
                found.append((k, k + size, value))
                k += size
                break
        else:
            k += 1
    return found


def parse_query(index: SearchIndex, query: str) -> ParsedQuery:
    # "guy" said of a player is read as "player", not as the judge phrase for a creature.
    # Names and letters that stand for players ("Player A", "my opponent Sarah") are players.
    players = read_names(query)
    semantic_text = spoken_rewrite(index.spoken, players, index.card_text, as_typed=True)
    asking = asking_text(players)
    if asking:
        asking = spoken_rewrite(index.spoken, asking, index.card_text, as_typed=True)
    query = read_people(query)
    # Quoted phrases keep every word, stopwords included: "legend rule" is not just "legend".
    phrases = [tuple(stem(w) for w in words(p)) for p in _QUOTED.findall(query)]
    # Typos are fixed first, so that a misspelt judge phrase still meets the vocabulary. Judge
    # phrases match every word, stopwords included (`sequence`); the rest looks up `tokens`.
    sequence: list[str] = []
    is_stop: list[bool] = []
    sequence_weight: list[float] = []
    # each word's share: the scene's words weigh _W_SCENE, those of the asking sentences all
    scene = [
        1.0 if ask else _W_SCENE for piece, ask in pieces(query) for _ in range(len(words(piece)))
    ]
    if len(scene) != len(words(query)):  # never: the sentences split at spaces only
        scene = [1.0] * len(words(query))
    for form in words(query):
        s = stem(form)
        stop = form in STOPWORDS
        known = (
            stop
            or s in index.idf
            or s in index.vocabulary_words
            or s in index.question_idf
            or form in english_words()
        )
        fixed = None if known else _correct(index, form)
        sequence.append(index.surface[fixed] if fixed else s)
        is_stop.append(stop)
        sequence_weight.append((_W_TYPO if fixed else 1.0) * scene[len(sequence) - 1])
    tokens = [s for s, stop in zip(sequence, is_stop, strict=True) if not stop]

    weights: dict[str, float] = {}

    def add(stems: Iterable[str], weight: float) -> None:
        for s in stems:
            weights[s] = max(weights.get(s, 0.0), weight)

    # Words that only place the question at Regular REL, when it has other words, weigh _W_CONTEXT.
    places = find_phrases(sequence, index.regular) if index.regular else []
    at = {k for start, end, _ in places for k in range(start, end)}
    context = at if any(k not in at and not is_stop[k] for k in range(len(sequence))) else set()
    weight_at = [min(w, _W_CONTEXT) if k in context else w for k, w in enumerate(sequence_weight)]

    consumed: set[int] = set()
    # A card's name stands for what the card does; its own words ("Blood", "Moon") say nothing of
    # the rules.
    for start, end, meaning in find_phrases(sequence, index.cards):
        consumed.update(range(start, end))
        add(meaning, _W_CARD)
    for start, end, expansion in find_phrases(sequence, index.vocabulary):
        if consumed.isdisjoint(range(start, end)):
            consumed.update(range(start, end))
            share = max(scene[start:end])
            add(
                expansion,
                share * (_W_CONTEXT if context.issuperset(range(start, end)) else _W_EXPANSION),
            )
    for k, s in enumerate(sequence):
        if k not in consumed and not is_stop[k]:
            add([s], weight_at[k])
    for _, _, meaning in find_phrases(sequence, index.obsolete):
        add(meaning, _W_OBSOLETE)

    # A glossary term made of common words ("card", "player") would lift rules for any question.
    n = max(len(index.entries), 1)
    cited = []
    for start, end, refs in find_phrases(tokens, index.glossary):
        df = min(len(index.postings.get(s, ())) for s in tokens[start:end])
        if df <= max(1.0, _GLOSSARY_MAX_DF * n):
            cited.append(refs)
    phrases = [p for p in phrases if p]
    shown = (
        frozenset(s for p in phrases for s in p)
        if phrases
        else frozenset(weights) | frozenset(tokens)
    )
    named = tuple(i for _, _, found in find_phrases(tokens, index.names or {}) for i in found)
    asked: dict[str, float] = {}
    for s, weight, stop in zip(sequence, weight_at, is_stop, strict=True):
        if not stop:
            asked[s] = max(asked.get(s, 0.0), weight)
    intent = tuple(word for _, _, word in find_phrases(sequence, index.intent))
    return ParsedQuery(
        weights=weights,
        phrases=phrases,
        glossary=cited[:3],
        shown=shown,
        semantic_text=semantic_text,
        asking_text=asking,
        named=named,
        asked=asked,
        intent=intent,
        regular=bool(places),
        competitive=bool(index.competitive and find_phrases(sequence, index.competitive)),
    )
