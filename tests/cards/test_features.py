"""What a card raises in the rules (cards.features): read from the shipped Scryfall fixture's real
cards, in words that the current Comprehensive Rules still use."""

from __future__ import annotations

import json

from cards import features
from tests.cards.conftest import CARDS
from tests.conftest import rules_files

FIXTURE = {c["name"]: c for c in json.loads(CARDS.read_text("utf-8"))}


def _features(name: str) -> set[str]:
    card = FIXTURE[name]
    text = card.get("oracle_text") or "\n".join(f["oracle_text"] for f in card["card_faces"])
    type_line = card.get("type_line") or card["card_faces"][0]["type_line"]
    own = text.replace(name, "~")
    return {f.name for f in features.features_of(type_line, own, card["layout"], card["keywords"])}


class FeatureTests:
    def test_every_feature_is_named_in_the_rules_words_of_the_current_cr(self):
        current = sorted(rules_files("cr"))[-1].read_text("utf-8-sig").casefold()
        for feature in features.FEATURES:
            for words in feature.words.split(", "):
                assert words.casefold() in current, (feature.name, words)

    def test_the_fixture_cards_raise_what_their_text_says(self):
        assert "enters trigger" in _features("Thassa's Oracle")
        assert "replacement" in _features("Laboratory Maniac")
        assert "split" in _features("Fire // Ice")
        assert "double-faced" in _features("Delver of Secrets // Insectile Aberration")
        assert _features("Lightning Bolt") == set()
        assert _features("Serra Angel") == set()

    def test_reminder_text_raises_nothing(self):
        assert features.features_of("Instant", "Draw a card. (Copy it instead.)") == []
        assert [f.name for f in features.features_of("Instant", "Copy target spell.")] == ["copy"]
