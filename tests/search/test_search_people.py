"""Tests for reading "guy" and "dude" as a creature or as a player (search/people.py): in the
sentence the model embeds, in the lexical words, on the "Read as" line, and in what search finds in
the real tournament documents."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

import search
from search import build_index, query
from search.people import load_people, person_spans, read_names, read_people
from search.records import SearchEntry
from tests.search.test_search_policy import _newest

PEOPLE = load_people()


def _read(q: str) -> str:
    return search.spoken_rewrite(search.load_spoken(), q)


class ReadingTests:
    @pytest.mark.parametrize(
        "question, reading",
        [
            ("guy keeps dropping f-bombs at the table", "player keeps"),
            ("the other guy's graveyard, can I look through it", "the other player's graveyard"),
            ("dude clearly fibbed to me about the board", "player clearly"),
            ("Guy is at 30 life but my general has hit him for 22", "player is at 30 life"),
            ("at FNM a guy is 15 minutes late to his match", "a player is 15 minutes late"),
            ("dude's 3/3 should have died, comp REL", "player's 3/3"),
            ("guys at table 5 keep yelling at each other", "players at table 5"),
        ],
    )
    def test_a_person_reads_as_a_player(self, question, reading):
        assert reading in _read(question)
        assert "creature" not in _read(question).split(reading)[0]

    @pytest.mark.parametrize(
        "question, reading",
        [
            ("my guy got blocked by a 1/8 wall", "my creature"),
            ("their hexproof guy, can a wrath kill it", "hexproof creature"),
            ("Bestowed aura on my guy, guy gets bounced", "my creature, creature gets"),
            ("I stole their dude with Control Magic at FNM, can it attack", "their creature"),
            ("two guys double-blocked my 5/5", "two creatures"),
            ("judge, can a guy with flying block my 4/4", "a creature with flying"),
            ("dude picks up hexproof in response to my removal", "creature picks up"),
        ],
    )
    def test_a_creature_still_reads_as_a_creature(self, question, reading):
        assert reading in _read(question)

    @given(
        st.sampled_from(sorted(PEOPLE.owners)),
        st.sampled_from(["guy", "dude", "guys", "dudes"]),
        st.sampled_from(
            [
                "keeps swearing at the table",
                "said he would pay me to scoop",
                "at comp REL got a penalty",
                "is late, warning?",
                "who cheated",
                "",
            ]
        ),
    )
    def test_an_owners_creature_is_a_creature_whatever_follows(self, owner, word, rest):
        """Checked another way: after "my", "opp's", ... the word is never read as a player."""
        assert person_spans(f"is it fine that {owner} {word} {rest}".strip()) == []

    @given(st.sampled_from(["guy", "dude", "Guy", "DUDE"]), st.sampled_from(PEOPLE.person_phrases))
    def test_a_phrase_that_names_a_person_reads_as_one(self, word, phrase):
        words = [word if w == "*" else w for w in phrase]
        spans = person_spans("what about " + " ".join(words) + "?")
        assert [(b, e) for b, e, _ in spans] and all(m.startswith("player") for _, _, m in spans)

    def test_reading_people_twice_changes_nothing(self):
        once = read_people("guy keeps dropping f-bombs at the table")
        assert once == "player keeps dropping f-bombs at the table" and read_people(once) == once

    def test_the_lexical_words_follow_the_same_reading(self):
        index = build_index(
            [SearchEntry(doc="cr", number="1.1", text="A creature attacks a player.")],
            vocabulary={"guy": "creature"},
            spoken={"guy": "creature"},
            cards={},
        )
        assert "creatur" in query.parse_query(index, "my guy got bolted").weights
        person = query.parse_query(index, "guy keeps swearing at the table")
        assert "creatur" not in person.weights and "player" in person.weights
        assert person.semantic_text == "player keeps swearing at the table"


@pytest.fixture(scope="module")
def policy_index():
    return build_index([*_newest("ipg"), *_newest("mtr"), *_newest("jar")])


class OnTheDocumentsTests:
    def test_the_read_as_line_says_player_in_a_conduct_question(self, policy_index):
        seen = search.understood(policy_index, "guy keeps dropping f-bombs at the table")
        assert {"words": "guy", "means": "player", "kind": "spoken"} in seen
        assert not any(s["means"] == "creature" for s in seen)
        mine = search.understood(policy_index, "my guy got bolted")
        assert {"words": "guy", "means": search.load_spoken()["guy"], "kind": "spoken"} in mine

    def test_a_player_named_as_a_card_is_read_as_a_player_on_the_read_as_line(self, policy_index):
        """ "Bob" is Dark Confidant's nickname and, in a story, often a player: where the question
        the model embeds reads the name as a player (read_names), "Read as" and the cards shown
        do not read it as the card; a card of someone's ("my Bob") is still the card."""
        story = (
            "Alice controls Dark Confidant and forgot the trigger. Bob calls me over and says he "
            "noticed it. What is the fix?"
        )
        read, named = search.spoken.read_question(policy_index, story)
        cards = [r["words"] for r in read if r["kind"] == "card"]
        assert cards == ["Dark Confidant"] and named == ["dark confidant"]
        assert "Bob" not in read_names(story)
        mine = "my Bob revealed a land, do I lose life?"
        assert [r["words"] for r in search.understood(policy_index, mine)] == ["Bob"]
        assert "Bob" in read_names(mine)
        assert "Bob" in read_names("my opponent's Bob revealed a land")

    def test_a_conduct_question_about_a_guy_finds_the_conduct_rules(self, policy_index):
        hits = search.search(policy_index, "guy keeps dropping f-bombs at the table", limit=5)
        assert ("ipg", "4.1") in [(h.doc, h.number) for h in hits]
