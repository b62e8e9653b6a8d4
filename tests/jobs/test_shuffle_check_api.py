"""POST /api/v1/shuffle-check: the judge's check answered at once, with citations resolved."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

pytestmark = pytest.mark.django_db


@pytest.fixture
def api():
    return APIClient()


class ShuffleCheckApiTests:
    def test_pile_shuffle_only_at_competitive_is_insufficient_shuffling(self, api):
        response = api.post(
            "/api/v1/shuffle-check",
            {
                "rel": "competitive",
                "deck_size": 60,
                "procedure": [{"method": "pile", "times": 1, "piles": 7}],
            },
            format="json",
        )
        assert response.status_code == 200, response.content
        body = response.json()
        assert body["infraction"] == "insufficient_shuffling"
        assert body["penalty"] == "Warning"
        assert body["penalties"]["regular"] != body["penalties"]["competitive"]
        cr = [c for c in body["citations"] if c["doc"] == "cr"]
        assert cr and all(c["number"] for c in cr)

    def test_a_proper_shuffle_is_no_infraction(self, api):
        body = api.post(
            "/api/v1/shuffle-check",
            {
                "rel": "competitive",
                "deck_size": 60,
                "procedure": [{"method": "riffle", "times": 8}],
            },
            format="json",
        ).json()
        assert body["infraction"] == "none"

    @pytest.mark.parametrize(
        ("payload", "field"),
        [
            ({"rel": "casual", "deck_size": 60}, "rel"),
            ({"rel": "regular", "deck_size": 900}, "deck_size"),
            (
                {"rel": "regular", "deck_size": 60, "procedure": [{"method": "shake", "times": 1}]},
                "procedure[0].method",
            ),
            ({"rel": "regular", "deck_size": 60, "pattern_seen": "yes"}, "pattern_seen"),
        ],
    )
    def test_bad_facts_are_400_naming_the_field(self, api, payload, field):
        response = api.post("/api/v1/shuffle-check", payload, format="json")
        assert response.status_code == 400
        assert field in response.json()["error"]["details"]

    def test_the_owners_and_the_shufflers_infractions_both_come_back_with_citations(self, api):
        body = api.post(
            "/api/v1/shuffle-check",
            {
                "rel": "competitive",
                "deck_size": 50,
                "procedure": [{"method": "riffle"}],
                "card_seen_while_shuffling": True,
                "shuffling_opponents_deck": True,
            },
            format="json",
        ).json()
        # the ruling's own fields as before: the owner's Insufficient Shuffling (IPG 3.9)
        assert (body["infraction"], body["charged_to"], body["penalty"]) == (
            "insufficient_shuffling",
            "owner",
            "Warning",
        )
        # and the shuffler's Looking at Extra Cards (IPG 2.2, example A) beside it
        (lec,) = body["further_infractions"]
        assert (lec["infraction"], lec["charged_to"], lec["penalty"]) == (
            "looking_at_extra_cards",
            "shuffler",
            "Warning",
        )
        # resolved like the ruling's own citations
        assert [(c["doc"], c["number"]) for c in lec["citations"]] == [("ipg", "2.2")]
        assert ("ipg", "2.2") in [(c["doc"], c["number"]) for c in body["citations"]]
        assert "Looking at Extra Cards" in body["fix"]

    def test_a_single_overhand_shuffle_is_the_judges_call_not_a_proper_shuffle(self, api):
        body = api.post(
            "/api/v1/shuffle-check",
            {"rel": "competitive", "deck_size": 60, "procedure": [{"method": "overhand"}]},
            format="json",
        ).json()
        assert body["judge_call"] is True
        assert body["infraction"] == "none"  # the IPG gives no penalty of its own
        assert "properly" not in body["fix"] and "judge's call" in body["fix"]
        assert body["penalty"].startswith("Judge's call")
        assert body["further_infractions"] == []
