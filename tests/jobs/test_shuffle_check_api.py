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
