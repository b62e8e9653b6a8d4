"""Card names found anywhere in a question (search.card_names): faces, leading parts and
misspellings of the names search reads, and ordinary words that are not cards. The names are the
shipped Scryfall fixture's (tests/fixtures/scryfall) and the shipped hand-written list's."""

from __future__ import annotations

import json

import pytest

from search import card_names, card_source, vocabulary
from search.spoken import spoken_rewrite
from tests.cards.conftest import CARDS

FIXTURE_KEYS = [card_source.card_key(c["name"]) for c in json.loads(CARDS.read_text("utf-8"))]
# Names of real cards that share leading parts or are ordinary words, to test ambiguity and the
# common-word rule beside the fixture's.
MORE = [
    "emrakul, the aeons torn",
    "emrakul, the promised end",
    "kiki-jiki, mirror breaker",
    "shock",
    "fog",
    "dark confidant",
]


@pytest.fixture(scope="module")
def names() -> card_names.CardNames:
    return card_names.card_names(FIXTURE_KEYS + MORE)


def _found(query: str, names: card_names.CardNames) -> list[tuple[str, str, str]]:
    return [(query[m.begin : m.end], m.key, m.how) for m in card_names.find_cards(query, names)]


class FoundTests:
    def test_a_face_of_a_split_card_written_as_a_name(self, names):
        assert _found("I cast Fire on his two elves", names) == [("Fire", "fire // ice", "face")]
        assert _found("Then I held up Ice for his draw step", names) == [
            ("Ice", "fire // ice", "face")
        ]

    def test_a_leading_part_of_one_name_only(self, names):
        assert _found("he activates Kiki-Jiki twice", names) == [
            ("Kiki-Jiki", "kiki-jiki, mirror breaker", "short")
        ]
        # "Emrakul" starts two names: it names neither
        assert _found("my opponent cast Emrakul", names) == []

    def test_misspellings_capitalised_or_not(self, names):
        assert _found("AP controls Dark Confidnat and passes", names) == [
            ("Dark Confidnat", "dark confidant", "typo")
        ]
        assert _found("does thoughtsieze hit a land", names) == [
            ("thoughtsieze", "thoughtseize", "typo")
        ]
        assert _found("I resolve Thassas Oracel with an empty library", names) == [
            ("Thassas Oracel", "thassa's oracle", "typo")
        ]
        assert _found("can Lim-Dul's Vualt find a land", names) == [
            ("Lim-Dul's Vualt", "lim-dûl's vault", "typo")
        ]

    def test_a_shortened_name_after_the_whole_name_is_that_card(self, names):
        query = "Kiki-Jiki, Mirror Breaker is out. Then Kiki-Jiki copies a creature"
        taken = [(0, len("Kiki-Jiki, Mirror Breaker"))]
        found = card_names.find_cards(query, names, taken, ["kiki-jiki, mirror breaker"])
        assert [(query[m.begin : m.end], m.key) for m in found] == [
            ("Kiki-Jiki", "kiki-jiki, mirror breaker")
        ]


class NotACardTests:
    def test_ordinary_words_are_not_faces(self, names):
        assert _found("the fire spread and the ice melted", names) == []
        # a capital that only opens a sentence says nothing
        assert _found("Fire is hot. Ice is cold.", names) == []

    def test_ordinary_words_are_not_misspelt_cards(self, names):
        assert _found("I feel a dark confident mood", names) == []
        assert _found("a shocking opt, a foggy day", names) == []
        assert _found("my opponent revealed his hand", names) == []

    def test_a_name_said_as_a_verb_is_what_was_done(self, names):
        assert _found("I thoughtsiezed him on turn one", names) == []
        assert _found("then he Thoughtseize'd me", names) == []
        assert _found("Thassa's Oracle's trigger", names) != []

    def test_a_leading_part_inside_another_longer_name(self):
        names = card_names.card_names(["omnath, locus of creation", "nissa, who shakes the world"])
        query = "I play Omnath, Locus of Rage as my commander and Oath of Nissa. Omnath attacks"
        assert _found(query, names) == []
        assert _found("then Omnath attacks", names) == [
            ("Omnath", "omnath, locus of creation", "short")
        ]

    def test_no_misspelling_where_two_names_are_as_near(self):
        names = card_names.card_names(["abcdef ghij", "abcdef ghik"])
        assert _found("I cast Abcdef Ghix", names) == []


class ReadingTests:
    def test_the_sentence_model_reads_the_card_meant(self):
        spoken, cards = vocabulary.load_spoken(), vocabulary.load_cards()
        text = spoken_rewrite(
            spoken, "AP controls Dark Confidnat and reveals a land", cards, as_typed=True
        )
        assert f"Dark Confidnat (Dark Confidant: {cards['dark confidant']})" in text
        # an exact name reads as before: no name added
        text = spoken_rewrite(spoken, "AP controls Dark Confidant", cards, as_typed=True)
        assert text == f"AP controls Dark Confidant ({cards['dark confidant']})"
        # the shipped asked-as questions are embedded as written: their stored vectors stay theirs
        asked = spoken_rewrite(spoken, "AP controls Dark Confidnat", cards)
        assert asked == "AP controls Dark Confidnat"

    def test_a_card_named_again_is_described_once(self):
        cards = {"kiki-jiki, mirror breaker": "tap ability create a token copy"}
        query = "Kiki-Jiki, Mirror Breaker is out. Then Kiki-Jiki copies a creature"
        text = spoken_rewrite({}, query, cards, as_typed=True)
        assert text.count("tap ability create a token copy") == 1
        assert text.endswith("Then Kiki-Jiki copies a creature")

    def test_a_card_s_name_owning_something_is_found_and_read_as_exact_names_are(self):
        spoken, cards = vocabulary.load_spoken(), vocabulary.load_cards()
        query = "My Lightning Helix's only target vanished"
        found = card_names.find_cards(query, card_names.names_of(cards))
        assert [(m.key, m.how) for m in found] == [("lightning helix", "possessive")]
        assert spoken_rewrite(spoken, query, cards, as_typed=True) == query
