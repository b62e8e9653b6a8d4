"""Words said of a creature and of a player: "guy" is a creature in "my guy got bolted" and a player
in "guy keeps swearing at his opponent". The [people] table of vocabulary.toml says which words
these are and what tells the two apart; `person_spans` finds where a question means a player, so
that the question is read (lexically, as the sentence model embeds it, and on the page's "Read as"
line) with "player" there and with the spoken table's "creature" everywhere else.

A word is read as a player, in this order of evidence:
  1. after an owner ("my", "opp's", "their", ... up to three words back in the same clause) or a
     creature's kind or keyword ("hexproof guy"): a creature;
  2. followed by what only a person does ("the dude fibbed", "guy keeps dropping f-bombs"):
     a player;
  3. after a number or a power and toughness ("two dudes", "4/4 guy"): a creature;
  4. in a phrase that only names a person ("the other guy", "the guy who") or as someone's owner
     ("guy's pile", "dude's 3/3"): a player;
  5. opening a clause and later called "he" or "she" before anything is called "it" ("Guy is at 30
     life but my general smacked him"): a player;
  6. in a question of tournament policy (a word of [intent] or of Regular REL that says more than
     "judge"): a player;
  7. otherwise a creature.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from search.vocabulary import VOCABULARY_PATH, load_intent, load_remedy

# A word with its apostrophe suffixes ("guy's", "opp's", "should've"); "4/4" and "5-power" split.
_WORD = re.compile(r"[0-9A-Za-z]+(?:['’][A-Za-z]+)*")
# What ends a clause: the words before it say nothing of the word after it.
_CLAUSE_END = re.compile(r"[.,;:!?()\[\]\"“”]|\s[-–—]\s|\n")
_NUMBER_WORDS = frozenset(
    "two three four five six seven eight nine ten both several many few all".split()
)


@dataclass(frozen=True)
class People:
    words: dict[str, str]  # "guy" -> "player", "guys" -> "players"
    owners: frozenset[str]  # "my", "opp's": a creature follows
    # ("the", "other", "*"), ("*", "who"): "*" is the word
    person_phrases: tuple[tuple[str, ...], ...]
    acts: frozenset[str]  # "said", "fibbed": what only a person does, right after the word
    kinds: frozenset[str]  # "hexproof", "pro": a creature follows
    policy: tuple[tuple[str, ...], ...]  # words of a question of tournament policy
    not_policy: frozenset[str]  # policy words that say nothing of who "guy" is ("judge")


def load_people(path: Path = VOCABULARY_PATH) -> People:
    """The [people] table, with the [intent] words (and those of Regular REL) as the
    policy words."""
    with path.open("rb") as handle:
        table = tomllib.load(handle).get("people", {})
    policy = [*load_intent(path), *load_remedy(path)[1]]
    return People(
        words={str(k).lower(): str(v) for k, v in table.get("words", {}).items()},
        owners=frozenset(_folded(w) for w in table.get("owners", [])),
        person_phrases=tuple(
            tuple(_folded(w) for w in p.split()) for p in table.get("person_phrases", [])
        ),
        acts=frozenset(_folded(w) for w in table.get("acts", [])),
        kinds=frozenset(_folded(w) for w in table.get("kinds", [])),
        policy=tuple(t for p in policy if (t := tuple(_folded(w) for w in _WORD.findall(str(p))))),
        not_policy=frozenset(_folded(w) for w in table.get("not_policy", [])),
    )


@lru_cache(maxsize=1)
def shipped_people() -> People:
    return load_people()


def people_table(people: People | None = None) -> dict:
    """The table as plain JSON for the offline pack, whose engine
    (static/judgeapp/offline-search.js) reads "guy" as this module does."""
    people = people or shipped_people()
    return {
        "words": dict(sorted(people.words.items())),
        "owners": sorted(people.owners),
        "kinds": sorted(people.kinds),
        "acts": sorted(people.acts),
        "person_phrases": [list(p) for p in people.person_phrases],
        "policy": [list(p) for p in people.policy],
        "not_policy": sorted(people.not_policy),
        "adverbs": sorted(_ADVERBS),
        "he": sorted(_HE),
        "it": sorted(_IT),
        "numbers": sorted(_NUMBER_WORDS),
        # read_names: the names and letters that stand for players
        "player_nouns": sorted(_PLAYER_NOUNS),
        "player_verbs": sorted(_PLAYER_VERBS),
        "card_verbs": sorted(_CARD_VERBS),
        "not_names": sorted(_NOT_NAMES),
        "numbered": sorted(_NUMBERED),
        "turn_players": dict(sorted(_TURN_PLAYERS.items())),
    }


def _folded(word: str) -> str:
    return word.lower().replace("’", "'")


def bare(word: str) -> tuple[str, bool]:
    """The word in lower case without a possessive ending, and whether it had one ("Guy's" ->
    ("guy", True), "dudes'" -> ("dudes", True))."""
    word = _folded(word)
    if len(word) > 2 and word.endswith("'s"):
        return word[:-2], True
    if len(word) > 2 and word.endswith("s'"):
        return word[:-1], True
    return word, False


def person_spans(query: str, people: People | None = None) -> list[tuple[int, int, str]]:
    """(begin, end, rules' words) for each word of [people] that `query` uses of a player
    ("guy" -> "player", "guy's" -> "player's"), left to right."""
    people = people or shipped_people()
    if not people.words:
        return []
    tokens = [(m.start(), m.end(), _folded(m.group())) for m in _WORD.finditer(query)]
    bares = [bare(w) for _, _, w in tokens]
    if not any(word in people.words for word, _ in bares):
        return []
    forms = [w for _, _, w in tokens]
    policy = _is_policy(forms, [word for word, _ in bares], people)
    found = []
    for k, (begin, end, _) in enumerate(tokens):
        word, possessive = bares[k]
        if word not in people.words:
            continue
        if _is_person(query, tokens, [word for word, _ in bares], k, possessive, policy, people):
            meaning = people.words[word]
            found.append(
                (
                    begin,
                    end,
                    meaning
                    + (
                        "'s"
                        if possessive and not meaning.endswith("s")
                        else "'"
                        if possessive
                        else ""
                    ),
                )
            )
    return found


def read_people(query: str, people: People | None = None) -> str:
    """`query` with each word said of a player replaced by the rules' word ("guy keeps swearing" ->
    "player keeps swearing"), and each name or letter that stands for a player read as one
    (read_names: "Player A casts" -> "player casts"); the other words as typed."""
    query = read_names(query, people)
    out, done = [], 0
    for begin, end, meaning in person_spans(query, people):
        out += [query[done:begin], meaning]
        done = end
    return "".join(out) + query[done:]


def _is_policy(forms: list[str], bares: list[str], people: People) -> bool:
    flat = [w.replace("'", "") for w in bares]
    said: dict[int, set[tuple[str, ...]]] = {}  # the question's runs of n words, as typed or bare
    for phrase in people.policy:
        if len(phrase) == 1 and phrase[0] in people.not_policy:
            continue
        n = len(phrase)
        runs = said.get(n)
        if runs is None:
            starts = range(len(forms) - n + 1)
            runs = said[n] = {tuple(words[k : k + n]) for words in (flat, forms) for k in starts}
        if phrase in runs:
            return True
    return False


def _is_person(
    query: str,
    tokens: list[tuple[int, int, str]],
    bares: list[str],
    k: int,
    possessive: bool,
    policy: bool,
    people: People,
) -> bool:
    clause_start = _clause_start(query, tokens, k)
    before = [tokens[j][2] for j in range(max(clause_start, k - 3), k)]
    # 1. someone's creature, or a kind of creature
    if any(w in people.owners or w in people.kinds for w in before):
        return False
    # 2. what only a person does, right after the word or after an adverb ("the dude
    #    clearly fibbed")
    after = [t[2] for t in tokens[k + 1 : k + 4]]
    if after and after[0] in _ADVERBS:
        after = after[1:]
    if any(" ".join(after[:n]) in people.acts for n in (1, 2, 3)):
        return True
    # 3. a count of creatures
    if any(_counts(w) for w in before):
        return False
    # 4. a phrase that names a person, or the word as someone's owner
    for phrase in people.person_phrases:
        start = k - phrase.index("*")
        if (
            start >= 0
            and start + len(phrase) <= len(bares)
            and all(p == "*" or p == bares[start + j] for j, p in enumerate(phrase))
        ):
            return True
    if possessive:
        return True
    # 5. opening its clause and later called "he" or "she"
    if k == clause_start and _called_a_person([t[2] for t in tokens[k + 1 :]]):
        return True
    # 6. a question of tournament policy
    return policy


_ADVERBS = frozenset(
    "just then also still already clearly never always openly deliberately really".split()
)
_HE = frozenset(
    "he his him himself she her hers herself he's she's he'd she'd he'll she'll".split()
)
_IT = frozenset("it its itself it's".split())


def _called_a_person(after: list[str]) -> bool:
    """Whether the words after the word call it "he" or "she" before they call anything "it"."""
    for w in after:
        if w in _IT:
            return False
        if w in _HE:
            return True
    return False


def _counts(word: str) -> bool:
    return word in _NUMBER_WORDS or any(c.isdigit() for c in word)


def _clause_start(query: str, tokens: list[tuple[int, int, str]], k: int) -> int:
    """The index of the first token of the clause holding token k."""
    j = k
    while j > 0 and not _CLAUSE_END.search(query[tokens[j - 1][1] : tokens[j][0]]):
        j -= 1
    return j


# --------------------------------------------------------------- names that stand for players

# Words after which a capitalised word is a player's name ("my opponent Sarah", "my friend Bob").
_PLAYER_NOUNS = frozenset(
    "opponent opp friend buddy teammate player brother sister roommate son daughter".split()
)
# What a player does, said right after a name ("Bob casts", "Sarah controls"), beside [people] acts.
_PLAYER_VERBS = frozenset(
    (
        "casts controls controlled activates activated draws discards discarded responds "
        "responded passes passed chooses chose pays paid sacrifices sacrificed mulligans reveals "
        "revealed searches searched declares declared decides decided targets targeted"
    ).split()
)
# Acts of [people] that a card does as well ("Humility says"): after a name they say nothing.
_CARD_VERBS = frozenset("says say reads shows keeps".split())
# Capitalised words that open a sentence and are not names.
_NOT_NAMES = frozenset(
    (
        "then so now later next first finally eventually meanwhile suddenly instead also "
        "opponent opponents player players judge judges everyone everybody someone somebody "
        "anyone anybody nobody noone each both neither either who he she they we you it ok okay "
        "yes no hey hi hello thanks edit update"
    ).split()
)
# "AP", "NAP" as typed (in capitals): the active and the nonactive player.
_TURN_PLAYERS = {"AP": "active player", "NAP": "nonactive player"}
_NUMBERED = frozenset("1 2 3 4 5 6 7 8 one two three four".split())
_NAME = re.compile(r"[A-Z][a-z]+")


def name_spans(query: str, people: People | None = None) -> list[tuple[int, int, str]]:
    """(begin, end, reading) for each name or letter of `query` that stands for a player, left to
    right: "Player A", "P1" and a letter that acts ("A casts", "B's creature") read "player"; "AP"
    and "NAP" the active and the nonactive player; a name after a player's noun ("my opponent
    Sarah") reads nothing, the noun says it; a capitalised name that acts ("Bob casts") reads
    "player", and so does every other place the question names that player. A name is never one
    word of a longer capitalised name (a card's: "Serra Angel")."""
    from search.text import STOPWORDS

    people = people or shipped_people()
    acts = people.acts | _PLAYER_VERBS
    # what a card does too ("Humility says ..."): not a player's act after a name
    name_acts = acts - _CARD_VERBS
    tokens = [(m.start(), m.end(), m.group()) for m in _WORD.finditer(query)]
    names: set[str] = set()
    found: dict[int, tuple[int, int, str]] = {}

    def said(k: int, reading: str) -> tuple[int, int, str]:
        begin, end, word = tokens[k]
        possessive = bare(word)[1]
        return begin, end, reading + ("'s" if possessive and reading else "")

    for k, (_, _, word) in enumerate(tokens):
        if k in found:
            continue
        plain, possessive = bare(word)
        plain_cased = word[: len(plain)] if possessive else word
        nxt = tokens[k + 1][2].lower() if k + 1 < len(tokens) else ""
        prev = tokens[k - 1][2] if k > 0 else ""
        if plain in ("player", "players") and k + 1 < len(tokens):
            letter, _ = bare(tokens[k + 1][2])
            if (len(letter) == 1 and letter.isalpha() and tokens[k + 1][2][0].isupper()) or (
                letter in _NUMBERED
            ):
                found[k + 1] = said(k + 1, "")  # "Player A" -> "player"
            continue
        if re.fullmatch(r"[Pp][1-8]", plain_cased):
            found[k] = said(k, "player")
        elif plain_cased in _TURN_PLAYERS:
            found[k] = said(k, _TURN_PLAYERS[plain_cased])
        elif len(plain_cased) == 1 and plain_cased in "ABCDEFGH" and (possessive or nxt in acts):
            found[k] = said(k, "player")
        elif _NAME.fullmatch(plain_cased) and plain not in STOPWORDS and plain not in _NOT_NAMES:
            if plain in people.words or _folded(prev) in people.owners:
                continue  # "my Bob", "opponent's Kiki": a creature or card of someone's
            after_noun = bare(prev)[0] in _PLAYER_NOUNS
            in_name = (
                bool(_NAME.match(prev))
                and bare(prev)[0] not in STOPWORDS
                and bare(prev)[0] not in _NOT_NAMES
                and not after_noun
                and not _clause_break(query, tokens, k)
            )
            if after_noun:
                names.add(plain_cased)
                found[k] = said(k, "")
            elif not in_name and (
                (nxt in name_acts and not _NAME.match(tokens[k + 1][2]))
                or _appositive(query, tokens, k)
            ):
                names.add(plain_cased)
                found[k] = said(k, "player")
    for k, (_, _, word) in enumerate(tokens):
        plain, possessive = bare(word)
        if k not in found and (word[: len(plain)] if possessive else word) in names:
            found[k] = said(k, "player")
    return [found[k] for k in sorted(found)]


_DETERMINERS = frozenset("his her their my your our the".split())


def _appositive(query: str, tokens: list[tuple[int, int, str]], k: int) -> bool:
    """A name set off by commas around a player's noun ("Bob, her opponent, says", "Sam, my
    friend, casts"): the name stands for that player. Closed by a second comma, the noun not
    owning anything: "I cast Thoughtseize, opponent reveals" and "Jaheira, Friend of the Forest"
    are no such thing."""
    if k + 1 >= len(tokens) or query[tokens[k][1] : tokens[k + 1][0]].strip() != ",":
        return False
    noun = k + 1
    if tokens[noun][2].lower() in _DETERMINERS and noun + 1 < len(tokens):
        noun += 1
    word, possessive = bare(tokens[noun][2])
    if possessive or word.lower() not in _PLAYER_NOUNS or noun + 1 >= len(tokens):
        return False
    return query[tokens[noun][1] : tokens[noun + 1][0]].strip() == ","


def _clause_break(query: str, tokens: list[tuple[int, int, str]], k: int) -> bool:
    return k > 0 and bool(_CLAUSE_END.search(query[tokens[k - 1][1] : tokens[k][0]]))


def read_names(query: str, people: People | None = None) -> str:
    """`query` with the names and letters that stand for players read as players ("Player A
    casts" -> "player casts", "my opponent Sarah has" -> "my opponent has"); the rest as typed."""
    out, done = [], 0
    for begin, end, reading in name_spans(query, people):
        before = query[done:begin]
        if not reading:  # the name says nothing the word before it does not: drop a space too
            before = before.rstrip(" ")
        out += [before, reading]
        done = end
    return "".join(out) + query[done:]
