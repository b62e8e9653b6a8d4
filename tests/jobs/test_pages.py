"""The shuffle check page: the questions, a ruling with linked citations, and a refused field."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.django_db


class ShuffleCheckPageTests:
    def test_the_questions_render(self, client):
        response = client.get("/check/shuffle/")
        assert response.status_code == 200
        assert (
            b"Rules Enforcement Level" in response.content
            and b"Riffle shuffles" in response.content
        )

    def test_pile_shuffling_alone_at_competitive(self, client):
        response = client.post(
            "/check/shuffle/",
            {"rel": "competitive", "deck_size": "60", "piles": "7", "riffle": "0"},
        )
        page = response.content.decode()
        assert response.status_code == 200
        assert "Insufficient Shuffling" in page and "Warning" in page
        assert 'href="/rules/cr/' in page  # citations link to the current rules

    def test_a_suspicious_pattern_asks_for_an_investigation(self, client):
        response = client.post(
            "/check/shuffle/",
            {
                "rel": "competitive",
                "deck_size": "60",
                "riffle": "8",
                "pattern": "LSLSLSLSLSLSLSLSLSLS",
                "lands": "24",
            },
        )
        assert "Investigate" in response.content.decode()

    def test_ten_lands_on_top_are_investigated_as_a_clump(self, client):
        response = client.post(
            "/check/shuffle/",
            {
                "rel": "competitive",
                "deck_size": "60",
                "riffle": "3",
                "pattern": "LLLLLLLLLL",
                "lands": "24",
            },
        )
        page = response.content.decode()
        assert "Investigate" in page and "more clumped" in page

    def test_seven_riffles_are_no_infraction_and_the_distance_is_information_in_words(self, client):
        page = client.post(
            "/check/shuffle/", {"rel": "competitive", "deck_size": "60", "riffle": "7"}
        ).content.decode()
        assert (
            "No infraction" in page
            and "information, not the ruling" in page
            and "short of random" in page
        )

    def test_a_bad_deck_size_names_the_field(self, client):
        response = client.post("/check/shuffle/", {"rel": "competitive", "deck_size": "999"})
        assert response.status_code == 400
        assert "deck_size" in response.content.decode()

    def test_the_shufflers_infraction_is_shown_with_its_own_penalty_beside_the_owners(self, client):
        # The opponent flipped a card while shuffling a deck its owner had riffled once: the
        # owner's Insufficient Shuffling (IPG 3.9) and the shuffler's Looking at Extra Cards
        # (IPG 2.2, example A), each with its penalty where the judge reads penalties.
        page = client.post(
            "/check/shuffle/",
            {
                "rel": "competitive",
                "deck_size": "50",
                "riffle": "1",
                "card_seen_while_shuffling": "yes",
                "shuffling_opponents_deck": "yes",
            },
        ).content.decode()
        assert "<h2>Tournament Error - Insufficient Shuffling</h2>" in page
        assert (
            "<h3>Also: Game Play Error - Looking at Extra Cards, charged to the opponent who "
            "shuffled</h3>\n"
            '    <p class="penalty"><strong>Penalty:</strong> Warning</p>'
        ) in page
