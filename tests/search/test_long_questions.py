"""Questions told as a story (issue 28): up to 1,000 characters through GET /api/v1/search, the
asking sentences weighed above the scene (search/asking.py, search.query, search.ranking), and the
names and letters that stand for players read as players (search.people.read_names)."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from search import asking, build_index, query, ranking, search
from search.people import read_names, read_people
from search.text import stem
from tests.search.test_search_policy import _newest

STORY = (
    "Player A controls two creatures and casts a spell at his opponent. Player B then shuffles his "
    "library by accident while searching it. Is that a game rule violation?"
)


@pytest.fixture(scope="module")
def policy_index():
    return build_index([*_newest("ipg"), *_newest("mtr")])


class AskingTests:
    def test_the_scene_comes_before_the_question(self):
        split = asking.pieces(STORY)
        assert [ask for _, ask in split] == [False, False, True]
        assert asking.asking_text(STORY) == "Is that a game rule violation?"

    @pytest.mark.parametrize(
        "sentence",
        [
            "What happens",
            "how do I rule this.",
            "I'm wondering if he gets the mana back.",
            "Can he still block with it.",
            "Does it trigger again?",
        ],
    )
    def test_a_sentence_asks(self, sentence):
        assert asking.asks(sentence)

    @pytest.mark.parametrize(
        "sentence",
        ["I control Blood Moon.", "When my opponent cast it, I responded.", "He drew a card."],
    )
    def test_a_sentence_tells(self, sentence):
        assert not asking.asks(sentence)

    def test_a_story_with_no_asking_sentence_asks_at_its_end(self):
        told = (
            "I cast a spell with three targets on my turn. My opponent then drew two cards off his "
            "own effect\nHe then called a judge over to the table"
        )
        assert [ask for _, ask in asking.pieces(told)] == [False, False, True]

    def test_a_short_question_with_a_line_of_scene_is_read_whole(self):
        short = "My opponent controls Blood Moon. Can I still crack my fetch lands?"
        assert asking.pieces(short) == [(short, True)]

    @pytest.mark.parametrize(
        "question", ["can I respond to a triggered ability", "What is it? And why?", ""]
    )
    def test_a_question_without_a_scene_is_read_whole(self, question):
        assert asking.pieces(question) == [(question, True)]
        assert asking.asking_text(question) == ""


class NameTests:
    @pytest.mark.parametrize(
        "question, reading",
        [
            ("Player A casts a spell and player B responds.", "Player casts a spell and player r"),
            ("AP attacks and NAP's creature blocks.", "active player attacks and nonactive"),
            ("P1 passes priority, P2 casts Shock.", "player passes priority, player casts"),
            ("A casts Shock, B's creature dies.", "player casts Shock, player's creature"),
            ("My opponent Sarah cast Wrath. Sarah's deck", "My opponent cast Wrath. player's deck"),
            ("Then Bob said no. Bob drew a card.", "Then player said no. player drew a card."),
        ],
    )
    def test_names_and_letters_are_players(self, question, reading):
        assert reading in read_names(question)
        assert reading in read_people(question)

    @pytest.mark.parametrize(
        "question",
        [
            "I control Garruk, Unleashed and Garruk has two loyalty counters.",
            "Serra Angel attacks. A creature with flying blocks it.",
            "Jace is a planeswalker and Humility says all creatures lose their abilities.",
            "I cast Lightning Bolt at my opponent.",
        ],
    )
    def test_cards_and_words_stay_as_typed(self, question):
        assert read_names(question) == question

    def test_names_are_no_search_words(self, policy_index):
        parsed = query.parse_query(
            policy_index, "My opponent Sarah drew an extra card. Bob saw it."
        )
        assert "sarah" not in parsed.weights and "bob" not in parsed.weights
        assert stem("opponent") in parsed.weights


class WeightTests:
    def test_the_scene_weighs_less_than_the_question(self, policy_index):
        parsed = query.parse_query(policy_index, STORY)
        assert parsed.weights[stem("library")] == pytest.approx(query._W_SCENE)
        assert parsed.weights[stem("creature")] == pytest.approx(query._W_SCENE)
        assert parsed.weights[stem("violation")] == 1.0
        assert query._W_SCENE < 1.0
        assert parsed.asking_text == "Is that a game rule violation?"

    def test_a_word_of_the_question_keeps_its_weight_in_the_scene_too(self, policy_index):
        parsed = query.parse_query(
            policy_index,
            "My opponent shuffled his library at the start of the game, then drew seven cards and "
            "kept them. Can he shuffle his library again?",
        )
        assert parsed.weights[stem("library")] == 1.0

    def test_a_one_sentence_question_is_weighed_as_before(self, policy_index):
        parsed = query.parse_query(policy_index, "player shuffles his library by accident")
        assert parsed.weights[stem("library")] == 1.0 and parsed.asking_text == ""

    def test_the_sentence_model_reads_the_question_beside_the_whole(self, policy_index):
        asked: list[str] = []

        def semantic(text: str) -> list[float]:
            asked.append(text)
            return [1.0 if text.startswith("Is that") else 0.0] * len(policy_index.entries)

        assert search(policy_index, STORY, semantic=semantic)
        assert asked[:2] == [query.parse_query(policy_index, STORY).semantic_text, asked[1]]
        assert asked[1] == "Is that a game rule violation?"
        mixed = ranking._with_asking([0.0, 1.0], [1.0, 1.0])
        assert mixed == pytest.approx([ranking._ASKING, 1.0])

    def test_a_story_that_quotes_is_still_read_by_the_sentence_model(self, policy_index):
        # A judge's story quotes what a player said or what a card says; the quote is no search
        # operator there, and the sentence model still reads the whole question.
        quoting = (
            'Player A says "Move to my end step" and Player B answers "in response, I draw". '
            "Player A then untaps and draws a card as if it were his turn. Is that a game rule "
            "violation?"
        )
        read: list[str] = []

        def semantic(text: str) -> list[float]:
            read.append(text)
            return [0.0] * len(policy_index.entries)

        assert len(quoting) > ranking.second_look.STORY
        search(policy_index, quoting, semantic=semantic)
        assert read and read[0] == query.parse_query(policy_index, quoting).semantic_text

    def test_a_short_quoted_phrase_is_searched_lexically(self, policy_index):
        read: list[str] = []

        def semantic(text: str) -> list[float]:
            read.append(text)
            return [0.0] * len(policy_index.entries)

        hits = search(policy_index, '"hidden card error"', semantic=semantic)
        assert hits and read == []
        assert hits == search(policy_index, '"hidden card error"')


@pytest.mark.django_db
class LengthTests:
    def test_a_question_of_1000_characters_is_read(self):
        question = (STORY + " ") * (1000 // (len(STORY) + 1))
        question = question + "x" * (1000 - len(question))
        assert len(question) == 1000
        response = APIClient().get("/api/v1/search", {"q": question})
        assert response.status_code == 200
        assert response.json()["query"] == question.strip()

    def test_a_longer_one_is_refused_naming_q(self):
        response = APIClient().get("/api/v1/search", {"q": "a" * 1001})
        assert response.status_code == 400
        body = response.json()
        assert body["error"]["details"] == {"q": "too long"} and "1000" in body["error"]["message"]


class SentenceTests:
    def test_the_two_longest_sentences_of_a_story_are_read_alone_in_order(self):
        text = (
            "I attack. My opponent blocks my attacking creature with his first striker creature. "
            "Then he casts a spell that gives it plus two plus two until end of turn. "
            "What happens?"
        )
        assert ranking.story_sentences(text) == [
            "My opponent blocks my attacking creature with his first striker creature.",
            "Then he casts a spell that gives it plus two plus two until end of turn.",
        ]
        assert ranking.story_sentences("What happens now? It dies.") == []

    def test_the_best_sentence_weighs_a_share_of_the_similarity(self):
        mixed = ranking._with_sentences([0.5, 0.5], [[1.0, 0.0], [0.0, 0.5]])
        share = ranking._SENTENCE
        assert mixed == pytest.approx([0.5 * (1 - share) + share, 0.5])
        np = pytest.importorskip("numpy")
        as_arrays = ranking._with_sentences(
            np.array([0.5, 0.5]), [np.array([1.0, 0.0]), np.array([0.0, 0.5])]
        )
        assert as_arrays.tolist() == pytest.approx(mixed)

    def test_a_story_is_read_by_its_sentences_and_a_short_question_is_not(self, policy_index):
        read: list[str] = []

        def semantic(text: str) -> list[float]:
            read.append(text)
            return [0.0] * len(policy_index.entries)

        search(policy_index, "player shuffles his library by accident", semantic=semantic)
        assert len(read) == 1
        read.clear()
        story = STORY + " His opponent called a judge after the game had ended for that turn."
        search(policy_index, story, semantic=semantic)
        parsed = query.parse_query(policy_index, story)
        assert read[2:] == ranking.story_sentences(parsed.semantic_text)
        assert len(read) == 4
