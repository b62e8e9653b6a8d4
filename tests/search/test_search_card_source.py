"""Where search reads card descriptions from (search/card_source.py, read through
search.vocabulary.card_descriptions): a registered card table holding cards, and only then;
else the hand-written cards.toml. No database: providers here are plain functions."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from search import build_index, card_source, spoken_rewrite, understood, vocabulary
from search.records import SearchEntry


@pytest.fixture(autouse=True)
def own_registry(monkeypatch):
    """Only the providers a test registers (the cards app's needs a database)."""
    monkeypatch.setattr(card_source, "_providers", {})
    card_source.forget_cards()
    yield
    card_source.forget_cards()


class Table:
    def __init__(self, cards: dict[str, str]) -> None:
        self.cards, self.stamp_calls, self.reads = dict(cards), 0, 0

    def stamp(self) -> str:
        self.stamp_calls += 1
        return f"{len(self.cards)}:{sorted(self.cards)}" if self.cards else ""

    def descriptions(self) -> dict[str, str]:
        self.reads += 1
        return dict(self.cards)


ENTRIES = [
    SearchEntry(
        doc="cr", number="702.19b", title="", text="A creature with trample assigns excess damage."
    ),
    SearchEntry(
        doc="cr", number="613.1d", title="", text="Type-changing effects are applied in layer 4."
    ),
]


class CardSourceTests:
    def test_without_a_table_the_hand_written_list_is_read(self):
        assert card_source.card_stamp() == card_source.SHIPPED
        assert vocabulary.card_descriptions() == vocabulary.load_cards()

    def test_an_empty_table_is_no_table(self):
        card_source.register_card_provider(
            "cards", stamp=Table({}).stamp, descriptions=Table({}).descriptions
        )
        assert vocabulary.card_descriptions() == vocabulary.load_cards()

    def test_an_unreadable_table_is_no_table(self):
        def broken() -> str:
            raise RuntimeError("no such table: cards_card")

        card_source.register_card_provider("cards", stamp=broken, descriptions=dict)
        assert vocabulary.card_descriptions() == vocabulary.load_cards()

    def test_a_table_with_cards_replaces_the_whole_hand_written_list(self):
        table = Table(
            {"Blood Moon": "Nonbasic lands are Mountains.", "Thassa’s  Oracle": "Win the game."}
        )
        card_source.register_card_provider(
            "cards", stamp=table.stamp, descriptions=table.descriptions
        )
        assert vocabulary.card_descriptions() == {
            "blood moon": "Nonbasic lands are Mountains.",
            "thassa's oracle": "Win the game.",
        }
        index = build_index(ENTRIES)
        assert index.card_text == vocabulary.card_descriptions()
        assert understood(index, "Steam Vents and Blood Moon") == [
            {
                "words": "Blood Moon",
                "means": "Nonbasic lands are Mountains.",
                "kind": "card",
                "card": "Blood Moon",
            }
        ]
        assert vocabulary.shipped_words()[1] == vocabulary.card_descriptions()

    def test_the_table_is_read_once_per_stamp(self):
        table = Table({"Blood Moon": "Nonbasic lands are Mountains."})
        card_source.register_card_provider(
            "cards", stamp=table.stamp, descriptions=table.descriptions
        )
        for _ in range(5):
            vocabulary.card_descriptions()
        assert table.reads == 1 and table.stamp_calls == 1
        table.cards["Humility"] = "All creatures lose all abilities."
        card_source.forget_cards()  # what an import in this process calls
        assert "humility" in vocabulary.card_descriptions()
        assert table.reads == 2

    @given(
        st.dictionaries(
            st.from_regex(r"\A[A-Z][a-z]{3,8}( [A-Z][a-z]{3,8}){1,2}\Z"),
            st.from_regex(r"\A[a-z]{3,8}( [a-z]{3,8}){0,4}\Z"),
            max_size=6,
        ),
        st.lists(st.sampled_from(["how does", "when is", "the", "blocks", "and"]), max_size=4),
    )
    def test_the_embedded_question_and_read_as_name_the_same_cards(self, cards, filler):
        """Whatever the table holds, the question the model embeds (spoken_rewrite) and the page's
        "Read as" (understood) read the same cards, with the same descriptions."""
        card_source._providers.clear()
        card_source.register_card_provider(
            "cards", stamp=lambda: str(sorted(cards.items())), descriptions=lambda: cards
        )
        if not cards:
            return
        index = build_index(ENTRIES)
        name = sorted(cards)[0]
        query = " ".join([*filler, name, *filler])
        read = understood(index, query)
        rewritten = spoken_rewrite({}, query, vocabulary.card_descriptions())
        assert [r["means"] for r in read if r["kind"] == "card"][:1] == [cards[name]]
        assert f"{name} ({cards[name]})" in rewritten
