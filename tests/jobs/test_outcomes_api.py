"""Loop and game outcomes through the API: answers, refusals, and citations that
follow renumbering."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from jobs.models import Job
from rulesref import references, services
from rulesref.models import Version
from tests.conftest import RULES_DIR, needs_history

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("rules_loaded")]

PING_LOOP = {
    "players": ["AP", "NAP"],
    "state": {"AP": {"life": 20, "library": 30}, "NAP": {"life": 20, "library": 30}},
    "iteration": [
        {
            "player": "AP",
            "kind": "optional",
            "text": "deal 1 damage",
            "effects": {"NAP": {"life": -1}},
        }
    ],
    "declared": {"AP": 10**18, "NAP": "accept"},
}
MANDATORY_LOOP = {
    "players": ["AP", "NAP"],
    "state": {"AP": {"life": 20}, "NAP": {"life": 20}},
    "iteration": [
        {"player": "AP", "kind": "mandatory", "text": "trigger A returns creature"},
        {"player": "NAP", "kind": "mandatory", "text": "trigger B returns it again"},
    ],
}


@pytest.fixture
def api():
    return APIClient()


def post(api, kind: str, payload: dict):
    response = api.post(f"/api/v1/jobs/{kind}?wait=10", payload, format="json")
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["status"] == "succeeded", body["error"]
    return body["result"]


class LoopOutcomeApiTests:
    def test_a_huge_declared_count_ends_when_the_opponent_dies(self, api):
        result = post(api, "loop-outcome", PING_LOOP)
        assert result["game_over"]["losers"] == ["NAP"]
        assert result["game_over"]["after_iteration"] == 20
        assert result["draw"] is False
        assert "NAP" in result["explanation"]

    def test_a_loop_of_mandatory_actions_is_a_draw(self, api):
        result = post(api, "loop-outcome", MANDATORY_LOOP)
        assert result["loop_kind"] == "mandatory" and result["draw"] is True
        texts = [c["text"] for c in result["citations"] if c["doc"] == "cr"]
        assert any("mandatory actions" in text for text in texts), result["citations"]

    @needs_history
    def test_citations_follow_the_current_version(self, api):
        """The engine pins its references to the 2025 CR; with the 2022 CR current they come back
        as 725.x."""
        now = [
            c["number"]
            for c in post(api, "loop-outcome", MANDATORY_LOOP)["citations"]
            if c["doc"] == "cr"
        ]
        services.import_paths([RULES_DIR / "cr" / "MagicCompRules-20220429.txt"])
        services.publish_version(
            Version.objects.get(document__slug="cr", effective_date="2022-04-29")
        )
        then = [
            c["number"]
            for c in post(api, "loop-outcome", MANDATORY_LOOP)["citations"]
            if c["doc"] == "cr"
        ]
        assert len(now) == len(then)
        moved = {a: b for a, b in zip(now, then) if a != b}
        assert moved, "the 2025 loop rules were numbered 725 in 2022"
        for new_number, old_number in moved.items():
            assert new_number.startswith("729") and old_number.startswith("725")
        references.forget_resolutions()

    @pytest.mark.parametrize(
        ("change", "field"),
        [
            ({"players": ["AP"]}, "players"),
            ({"declared": {"AP": -5, "NAP": "accept"}}, "declared.AP"),
            ({"declared": {"AP": 10**18 + 1, "NAP": "accept"}}, "declared.AP"),
            ({"declared": {"Zed": 3}}, "declared.Zed"),
            (
                {"iteration": [{"player": "Zed", "kind": "optional", "text": "x"}]},
                "iteration[0].player",
            ),
            (
                {"iteration": [{"player": "AP", "kind": "sometimes", "text": "x"}]},
                "iteration[0].kind",
            ),
        ],
    )
    def test_bad_input_is_400_naming_the_field(self, api, change, field):
        response = api.post("/api/v1/jobs/loop-outcome", {**PING_LOOP, **change}, format="json")
        assert response.status_code == 400, response.content
        assert field in response.json()["error"]["details"], response.json()
        assert Job.objects.count() == 0

    def test_missing_fields_are_named(self, api):
        response = api.post("/api/v1/jobs/loop-outcome", {"players": ["AP", "NAP"]}, format="json")
        assert response.status_code == 400
        assert Job.objects.count() == 0


class GameOutcomeApiTests:
    def test_a_player_at_zero_life_loses(self, api):
        result = post(
            api,
            "game-outcome",
            {
                "format": "two_player",
                "players": [{"name": "A", "life": 0}, {"name": "B", "life": 7}],
            },
        )
        assert (
            result["result"] == "win" and result["winners"] == ["B"] and result["losers"] == ["A"]
        )

    def test_both_players_at_zero_is_a_draw(self, api):
        result = post(
            api,
            "game-outcome",
            {
                "format": "two_player",
                "players": [{"name": "A", "life": 0}, {"name": "B", "life": -2}],
            },
        )
        assert result["result"] == "draw"
        assert result["winners"] == []  # CR 104.4a: all remaining players lose at once, nobody wins

    def test_multiplayer_goes_on_without_the_loser(self, api):
        result = post(
            api,
            "game-outcome",
            {
                "format": "multiplayer",
                "players": [
                    {"name": "A", "life": 5},
                    {"name": "B", "poison": 10},
                    {"name": "C", "life": 3},
                ],
            },
        )
        assert result["result"] == "ongoing" and result["losers"] == ["B"]

    def test_unknown_player_in_an_effect_is_400(self, api):
        response = api.post(
            "/api/v1/jobs/game-outcome",
            {
                "format": "two_player",
                "players": [{"name": "A", "life": 5}, {"name": "B", "life": 5}],
                "effects": [{"type": "lose", "player": "Q"}],
            },
            format="json",
        )
        assert response.status_code == 400
        assert any("effects" in key for key in response.json()["error"]["details"])
        assert Job.objects.count() == 0

    def test_a_draw_effect_naming_its_player_is_answered(self, api):
        result = post(
            api,
            "game-outcome",
            {
                "format": "two_player",
                "players": [{"name": "A"}, {"name": "B"}],
                "effects": [{"type": "draw", "player": "A"}],
            },
        )
        assert result["result"] == "draw"
        assert any(c["number"] == "104.4c" for c in result["citations"])

    def test_a_two_headed_giant_team_that_cant_win_wins_when_the_other_team_leaves(self, api):
        """CR 104.2a: winning as the opponents have left "overrides all effects that would
        preclude" it, and the answer says so and cites it."""
        result = post(
            api,
            "game-outcome",
            {
                "format": "two_headed_giant",
                "players": [
                    {"name": n, "team": t}
                    for n, t in (("A", "X"), ("B", "X"), ("C", "Y"), ("D", "Y"))
                ],
                "teams": {"X": {"life": 10}, "Y": {"life": 0}},
                "effects": [{"type": "cant_win", "player": "A"}],
            },
        )
        assert (result["result"], result["winners"]) == ("win", ["A", "B"])
        assert "overrides the effect saying the team can't win" in result["explanation"]
        assert any(c["doc"] == "cr" and c["number"] == "104.2a" for c in result["citations"])

    def test_a_draw_listed_with_a_loss_is_400_naming_the_effects(self, api):
        """CR 104.1: a draw ends the game at once; the list is one moment, not read in order."""
        response = api.post(
            "/api/v1/jobs/game-outcome",
            {
                "format": "two_player",
                "players": [{"name": "A"}, {"name": "B"}],
                "effects": [{"type": "draw"}, {"type": "lose", "player": "A"}],
            },
            format="json",
        )
        assert response.status_code == 400, response.content
        assert "effects" in response.json()["error"]["details"]
        assert Job.objects.count() == 0

    def test_two_headed_giant_poison_on_each_player_is_the_teams_count(self, api):
        """CR 810.10a: ten poison counters shown on each player of a team are the team's ten,
        not twenty."""
        result = post(
            api,
            "game-outcome",
            {
                "format": "two_headed_giant",
                "players": [
                    {"name": "A", "team": "X", "poison": 10},
                    {"name": "B", "team": "X", "poison": 10},
                    {"name": "C", "team": "Y"},
                    {"name": "D", "team": "Y"},
                ],
            },
        )
        assert result["result"] == "ongoing" and result["losers"] == []
        assert result["teams"]["X"] == {
            "players": ["A", "B"],
            "life": 30,
            "poison": 10,
            "poison_limit": 15,
        }
        result = post(
            api,
            "game-outcome",
            {
                "format": "two_headed_giant",
                "teams": {"X": {"poison": 15}},
                "players": [
                    {"name": "A", "team": "X"},
                    {"name": "B", "team": "X"},
                    {"name": "C", "team": "Y"},
                    {"name": "D", "team": "Y"},
                ],
            },
        )
        assert result["result"] == "win" and result["winners"] == ["C", "D"]
        assert any(c["number"] == "810.10" for c in result["citations"])

    def test_two_headed_giant_teammates_who_contradict_each_other_are_400(self, api):
        response = api.post(
            "/api/v1/jobs/game-outcome",
            {
                "format": "two_headed_giant",
                "players": [
                    {"name": "A", "team": "X", "poison": 11},
                    {"name": "B", "team": "X", "poison": 2},
                    {"name": "C", "team": "Y"},
                    {"name": "D", "team": "Y"},
                ],
            },
            format="json",
        )
        assert response.status_code == 400, response.content
        assert "players[1].poison" in response.json()["error"]["details"]
        assert Job.objects.count() == 0

    def test_a_player_drained_out_of_a_loop_they_take_no_action_in_may_not_stop_it(self, api):
        """CR 800.4a: only the objects of the player who leaves go with them; C takes no action of
        A's loop, so it is not said to stop for that reason."""
        result = post(
            api,
            "loop-outcome",
            {
                "players": ["A", "B", "C"],
                "iteration": [{"player": "A", "kind": "mandatory", "effects": {"C": {"life": -1}}}],
            },
        )
        assert (result["eliminated"], result["iterations"]) == (["C"], 20)
        assert "stops here" not in result["explanation"]
        assert "the loop may still go on" in result["explanation"]
        assert any(c["doc"] == "cr" and c["number"] == "800.4a" for c in result["citations"])

    def test_a_player_who_can_break_a_mandatory_loop_is_asked_first(self, api):
        """MTR 4.4: a draw only "If all players choose to take no action"; B has not chosen."""
        result = post(
            api,
            "loop-outcome",
            {
                "players": ["A", "B"],
                "iteration": [
                    {
                        "player": "A",
                        "kind": "unless",
                        "unless_player": "B",
                        "effects": {"B": {"life": -1}},
                    }
                ],
            },
        )
        assert (result["stop_kind"], result["stopped_by"], result["game_over"]) == (
            "must_name_number",
            "B",
            None,
        )

    def test_a_loop_across_turns_follows_the_mtr(self, api):
        flying = [
            {"player": "AP", "kind": "optional", "text": "gain flying"},
            {"player": "NAP", "kind": "optional", "text": "lose flying"},
        ]
        result = post(
            api,
            "loop-outcome",
            {
                "players": ["AP", "NAP"],
                "iteration": flying,
                "spans_turns": True,
                "declared": {"AP": "indefinitely", "NAP": 12},
            },
        )
        assert (result["iterations"], result["stopped_by"], result["decided_by"]) == (
            12,
            "NAP",
            "mtr",
        )
        assert any(c["doc"] == "mtr" and c["number"] == "4.4" for c in result["citations"])

    @pytest.mark.parametrize(
        ("players", "iteration", "deviates"),
        [
            (["AP", "NAP"], [("AP", "gain flying"), ("NAP", "lose flying")], "AP"),
            # P1 not involved
            (["P1", "P2", "P3", "P4"], [("P4", "gain flying"), ("P2", "lose flying")], "P2"),
        ],
    )
    def test_a_fragmented_loop_with_no_declarations_follows_cr_729_3(
        self, api, players, iteration, deviates
    ):
        """`declared` is optional: with no numbers named the active player (or the first involved
        player in turn order) must make a different choice, cited in the current CR's numbering."""
        actions = [{"player": p, "kind": "optional", "text": t} for p, t in iteration]
        for declared in ({}, {"declared": {}}):
            result = post(
                api, "loop-outcome", {"players": players, "iteration": actions, **declared}
            )
            assert (result["loop_kind"], result["must_deviate"], result["stopped_by"]) == (
                "fragmented",
                deviates,
                deviates,
            )
            cited = {c["number"]: c for c in result["citations"] if c["doc"] == "cr"}
            assert "729.3" in cited and "fragmented" in cited["729.3"]["text"], result["citations"]


class ShuffleAnalysisWordsApiTests:
    def test_a_distance_near_one_is_not_read_out_as_fully_predictable(self, api):
        """Two riffles of 60 cards are at distance 1.000 in the model; nobody can tell where a card
        is, and MTR 3.9 and IPG 3.9 set no distance yardstick."""
        result = post(
            api,
            "shuffle-analysis",
            {"deck_size": 60, "procedure": [{"method": "riffle", "times": 2}]},
        )
        assert "1.000" in result["distance_words"]
        assert "predictable" not in result["distance_words"]
        assert "does not mean a player can tell where any card is" in result["distance_words"]
