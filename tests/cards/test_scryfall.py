"""Reading Scryfall's bulk files (cards/scryfall.py): the shipped fixture, streaming, and
bad files."""

from __future__ import annotations

import io
import json
import uuid

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cards import scryfall
from tests.cards.conftest import CARDS, RULINGS


def read_all(text: str, reader=scryfall.read_cards, chunk: int | None = None) -> list:
    if chunk is not None:
        previous, scryfall._CHUNK = scryfall._CHUNK, chunk
    try:
        return list(reader(io.StringIO(text), "bulk.json"))
    finally:
        if chunk is not None:
            scryfall._CHUNK = previous


class FixtureTests:
    def test_cards_of_every_layout_and_no_tokens(self):
        cards = read_all(CARDS.read_text(encoding="utf-8"))
        raw = json.loads(CARDS.read_text(encoding="utf-8"))
        assert len(cards) == len([c for c in raw if c["layout"] != "token"])
        by_name = {c.name: c for c in cards}
        delver = by_name["Delver of Secrets // Insectile Aberration"]
        assert [f.name for f in delver.faces] == ["Delver of Secrets", "Insectile Aberration"]
        assert delver.mana_cost == "{U}" and "transform Delver of Secrets" in delver.oracle_text
        fire_ice = by_name["Fire // Ice"]
        assert (
            fire_ice.mana_cost == "{1}{R} // {1}{U}" and fire_ice.type_line == "Instant // Instant"
        )
        assert by_name["Colossal Dreadmaw"].keywords == ("Trample",)
        assert by_name["Platinum Angel"].legalities["modern"] == "legal"

    def test_rulings_with_their_dates(self):
        rulings = read_all(RULINGS.read_text(encoding="utf-8"), scryfall.read_rulings)
        assert len(rulings) == len(json.loads(RULINGS.read_text(encoding="utf-8")))
        assert all(r.published_at.year >= 2004 for r in rulings)


def card_object(name: str, text: str) -> dict:
    return {
        "object": "card",
        "oracle_id": str(uuid.uuid5(uuid.NAMESPACE_URL, name)),
        "name": name,
        "layout": "normal",
        "mana_cost": "{1}",
        "type_line": "Artifact",
        "oracle_text": text,
        "keywords": [],
        "legalities": {},
    }


class StreamingTests:
    @settings(max_examples=60, deadline=None)
    @given(
        st.lists(
            st.tuples(
                st.text(min_size=1, max_size=30).filter(
                    lambda s: "\x00" not in s and not any(0xD800 <= ord(c) <= 0xDFFF for c in s)
                ),
                st.text(max_size=200).filter(
                    lambda s: "\x00" not in s and not any(0xD800 <= ord(c) <= 0xDFFF for c in s)
                ),
            ),
            max_size=12,
        ),
        st.sampled_from([None, 1, 0, 2]),
        st.integers(min_value=7, max_value=300),
    )
    def test_any_layout_of_the_array_reads_the_same_as_json_load(self, pairs, indent, chunk):
        objects = [card_object(f"{name} {k}", text) for k, (name, text) in enumerate(pairs)]
        text = json.dumps(objects, indent=indent, ensure_ascii=indent == 2)
        got = read_all(text, chunk=chunk)
        assert [(c.name, c.oracle_text) for c in got] == [
            (o["name"], o["oracle_text"]) for o in objects
        ]


class BadFileTests:
    def refused(self, text: str, reader=scryfall.read_cards) -> scryfall.BulkError:
        with pytest.raises(scryfall.BulkError) as caught:
            read_all(text, reader)
        return caught.value

    def test_truncated_download_names_the_line_and_item(self):
        text = CARDS.read_text(encoding="utf-8")
        cut = text[: len(text) * 2 // 3]
        error = self.refused(cut)
        assert (
            error.source == "bulk.json"
            and error.line > 1
            and "truncated" in str(error)
            or "invalid JSON" in str(error)
        )

    def test_the_rulings_file_given_as_cards_is_named(self):
        error = self.refused(RULINGS.read_text(encoding="utf-8"))
        assert "is this the rulings file" in str(error) and error.item == 0

    def test_not_an_array(self):
        assert "expected a JSON array" in str(self.refused('{"object": "list"}'))

    def test_bad_fields_name_the_item(self):
        objects = [card_object("A", "x"), {**card_object("B", "y"), "oracle_id": "nope"}]
        error = self.refused(json.dumps(objects, indent=1))
        assert error.item == 1 and "not a UUID" in str(error) and error.line > 5
        bad_date = [
            {
                "object": "ruling",
                "oracle_id": str(uuid.uuid4()),
                "published_at": "2025-02-30",
                "comment": "x",
            }
        ]
        assert "not a date" in str(self.refused(json.dumps(bad_date), scryfall.read_rulings))
        nul = [card_object("C", "a\x00b")]
        assert "NUL" in str(self.refused(json.dumps(nul)))

    def test_bulk_list_needs_both_files(self):
        with pytest.raises(ValueError, match="rulings"):
            scryfall.bulk_files(
                {"object": "list", "data": [{"type": "oracle_cards", "download_uri": "https://x"}]}
            )
