"""Finding the judge's words and card names in a question (search.spoken) against the plain way of
doing it: at each word, every length from the longest key down to one word is tried. The search
tries only the lengths of keys that begin with that word; the two must find the same keys at the
same places."""

from __future__ import annotations

import re
from functools import lru_cache

from hypothesis import given, settings
from hypothesis import strategies as st

from search import asked, spoken
from search.vocabulary import shipped_words

WORD = re.compile(r"[0-9A-Za-z]+")
WORDS = ["blood", "moon", "walker", "dq", "d", "the", "cage", "grafdigger's", "a", "s", "moons"]


@lru_cache(maxsize=4)
def plain_table(keys: tuple[str, ...]) -> dict[tuple[str, ...], str]:
    table: dict[tuple[str, ...], str] = {}
    for k in sorted(keys):
        for form in (k.replace("'", "").replace("’", ""), k):
            table[tuple(w.lower() for w in WORD.findall(form))] = k
    table.pop((), None)
    return table


def plain_matches(keys: list[str], query: str) -> list[tuple[int, int, str]]:
    table = plain_table(tuple(keys))
    longest = max(map(len, table), default=0)
    tokens = list(WORD.finditer(query))
    found, k = [], 0
    while k < len(tokens):
        for size in range(min(longest, len(tokens) - k), 0, -1):
            key = table.get(tuple(t.group().lower() for t in tokens[k : k + size]))
            begin, end = tokens[k].start(), tokens[k + size - 1].end()
            if key is not None and not spoken._glued(query, begin, end):
                found.append((begin, end, key))
                k += size
                break
        else:
            k += 1
    return found


phrases = st.lists(st.sampled_from(WORDS), min_size=1, max_size=4).map(" ".join)


@settings(max_examples=300)
@given(st.data())
def test_the_keys_found_are_those_every_length_finds(data):
    keys = data.draw(st.lists(phrases, min_size=1, max_size=8), label="keys")
    # the question says the keys themselves (and keys that begin alike, one inside another), with
    # other words, in other cases and with apostrophes and punctuation between them
    said = st.sampled_from([*keys, *WORDS, "Blood", "MOON", "dq'd", "walker's"])
    words = data.draw(st.lists(said, max_size=10), label="words")
    gaps = data.draw(
        st.lists(st.sampled_from([" ", ", ", "'", "’", " - ", "\n"]), min_size=10, max_size=10)
    )
    query = "".join(w + g for w, g in zip(words, gaps, strict=False))
    assert spoken.spoken_matches(keys, query) == plain_matches(keys, query)


def test_the_shipped_words_and_cards_are_found_in_asked_questions_as_every_length_finds_them():
    spoken_words, cards = shipped_words()
    keys = sorted({*spoken_words, *cards})
    questions = [
        question
        for found in asked.load_asked(real=True).values()
        for said in found.questions.values()
        for question in said
    ][::50]
    assert len(questions) > 400
    for question in questions:
        assert spoken.spoken_matches(keys, question) == plain_matches(keys, question), question
    assert any(spoken.spoken_matches(keys, q) for q in questions)


def test_a_name_with_accents_is_found_typed_without_them():
    """Judges type on tablets without ö, û or Æ (cards audit F4): the card is found as the card
    API finds it; typed with them, as before."""
    keys = ["jötun grunt", "lim-dûl's vault", "æther vial", "aether vial of old"]
    typed = "Alice controls Jotun Grunt, Aether Vial and Lim-Dul's Vault; Bob has Jötun Grunt."
    found = [key for _, _, key in spoken.spoken_matches(keys, typed)]
    assert found == ["jötun grunt", "æther vial", "lim-dûl's vault", "jötun grunt"]
    assert spoken.spoken_matches(keys, "the aether vial of old") == [(4, 22, "aether vial of old")]
