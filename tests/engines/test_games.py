"""Game outcomes: CR 104 ways to win, lose and draw, the state-based actions of 704, Two-Headed
Giant (810) and Commander damage (903.10a), bad input, and an independent count of losers as a
property check."""

from __future__ import annotations

import json
import unittest

from hypothesis import given, settings
from hypothesis import strategies as st

from engines import citations as cite
from engines import games
from engines.errors import RequestError


def decide(data: dict) -> dict:
    """The engine's answer as the API stores it; it must survive a JSON round trip unchanged."""
    out = games.decide_game(games.validate_game_request(data)).to_dict()
    assert json.loads(json.dumps(out)) == out
    assert out["citations"] and all(isinstance(ref, str) and "@" in ref for ref in out["citations"])
    return out


def two(a: dict | None = None, b: dict | None = None, **extra) -> dict:
    return {
        "format": "two_player",
        "players": [{"name": "A", "life": 20, **(a or {})}, {"name": "B", "life": 20, **(b or {})}],
        **extra,
    }


class TwoPlayerTests(unittest.TestCase):
    def test_zero_life_loses_and_the_opponent_wins(self) -> None:
        out = decide(two({"life": 0}))
        self.assertEqual((out["result"], out["winners"], out["losers"]), ("win", ["B"], ["A"]))
        self.assertEqual(out["reasons"], {"A": ["life"]})
        for ref in (cite.LOSE_LIFE, cite.SBA_LIFE, cite.WIN_OPPONENTS_LEFT):
            self.assertIn(ref, out["citations"])
        self.assertIn("A has 0 life", out["explanation"])

    def test_ten_poison_counters_lose(self) -> None:
        self.assertEqual(decide(two(b={"poison": 10}))["winners"], ["A"])
        self.assertEqual(decide(two(b={"poison": 9}))["result"], "ongoing")

    def test_drawing_from_an_empty_library_loses(self) -> None:
        out = decide(two({"drew_from_empty_library": True}))
        self.assertEqual(out["winners"], ["B"])
        self.assertIn(cite.LOSE_EMPTY_LIBRARY, out["citations"])

    def test_both_losing_at_once_is_a_draw(self) -> None:
        out = decide(two({"life": -2}, {"poison": 12}))
        self.assertEqual((out["result"], out["winners"], out["losers"]), ("draw", [], []))
        self.assertIn(cite.DRAW_ALL_LOSE, out["citations"])

    def test_an_effect_can_win_even_at_zero_life_because_it_happens_before_state_based_actions(
        self,
    ) -> None:
        out = decide(two({"life": 0}, effects=[{"type": "win", "player": "A"}]))
        self.assertEqual(out["winners"], ["A"])
        self.assertIn(cite.WIN_EFFECT, out["citations"])

    def test_a_player_who_would_win_and_lose_at_once_loses(self) -> None:
        out = decide(two(effects=[{"type": "win", "player": "A"}, {"type": "lose", "player": "A"}]))
        self.assertEqual((out["result"], out["winners"], out["losers"]), ("win", ["B"], ["A"]))
        self.assertIn(cite.WIN_AND_LOSE, out["citations"])

    def test_lose_and_concede_effects(self) -> None:
        self.assertEqual(decide(two(effects=[{"type": "lose", "player": "B"}]))["winners"], ["A"])
        out = decide(two(effects=[{"type": "concede", "player": "A"}]))
        self.assertEqual(out["winners"], ["B"])
        self.assertIn(cite.LOSE_CONCEDE, out["citations"])

    def test_a_concession_stands_beside_a_lose_effect_and_a_cant_lose_in_any_order(self) -> None:
        # CR 101.1, 104.3a: a player can concede at any time; a can't-lose effect stops the lose
        # effect, never the concession; the order of the effects is not read.
        effects = [
            {"type": "cant_lose", "player": "A"},
            {"type": "concede", "player": "A"},
            {"type": "lose", "player": "A"},
        ]
        for order in (effects, effects[::-1], [effects[0], effects[2], effects[1]]):
            out = decide(two(effects=order))
            self.assertEqual((out["result"], out["winners"], out["losers"]), ("win", ["B"], ["A"]))
            self.assertIn(cite.LOSE_CONCEDE, out["citations"])

    def test_a_draw_effect_and_a_mandatory_loop_are_draws(self) -> None:
        out = decide(two(effects=[{"type": "draw"}]))
        self.assertEqual(out["result"], "draw")
        self.assertIn(cite.DRAW_EFFECT, out["citations"])
        out = decide(two(mandatory_loop=True))
        self.assertEqual(out["result"], "draw")
        self.assertIn(cite.DRAW_MANDATORY_LOOP, out["citations"])

    def test_state_based_actions_come_before_the_mandatory_loop_draw(self) -> None:
        self.assertEqual(decide(two({"life": 0}, mandatory_loop=True))["winners"], ["B"])

    def test_nothing_happening_is_ongoing(self) -> None:
        out = decide(two())
        self.assertEqual((out["result"], out["winners"], out["losers"]), ("ongoing", [], []))


class MultiplayerTests(unittest.TestCase):
    def players(self, *specs: dict) -> list[dict]:
        return [{"name": n, **s} for n, s in zip("ABCDEF", specs, strict=False)]

    def test_some_lose_and_the_game_goes_on(self) -> None:
        out = decide(
            {"format": "multiplayer", "players": self.players({"life": 0}, {"poison": 10}, {}, {})}
        )
        self.assertEqual(
            (out["result"], out["losers"], out["remaining"]), ("ongoing", ["A", "B"], ["C", "D"])
        )
        self.assertIn(cite.MULTIPLAYER_CONTINUES, out["citations"])

    def test_the_variants_cr_names_are_read_as_their_format(self) -> None:
        # CR 806 calls it Free-for-All, 810 Two-Headed Giant: a client may send either name.
        for name in ("free_for_all", "Free-for-All", "ffa"):
            request = games.validate_game_request(
                {"format": name, "players": self.players({"life": 0}, {}, {})}
            )
            self.assertIs(request.format, games.GameFormat.MULTIPLAYER)
        thg = {"format": "2HG", "players": [{"name": n, "team": t} for n, t in zip("ABCD", "XXYY")]}
        self.assertIs(games.validate_game_request(thg).format, games.GameFormat.TWO_HEADED_GIANT)
        with self.assertRaises(RequestError) as refused:
            games.validate_game_request({"format": "emperor", "players": self.players({}, {}, {})})
        self.assertEqual(refused.exception.field, "format")

    def test_the_last_player_standing_wins(self) -> None:
        out = decide(
            {"format": "multiplayer", "players": self.players({"life": 0}, {}, {"left_game": True})}
        )
        self.assertEqual((out["result"], out["winners"], out["losers"]), ("win", ["B"], ["A"]))

    def test_every_remaining_player_losing_at_once_is_a_draw(self) -> None:
        out = decide(
            {
                "format": "multiplayer",
                "players": self.players(
                    {"life": 0}, {"life": -1}, {"drew_from_empty_library": True}
                ),
            }
        )
        self.assertEqual(out["result"], "draw")

    def test_a_winning_team_wins_whole_even_a_player_who_lost(self) -> None:
        out = decide(
            {
                "format": "multiplayer",
                "players": self.players(
                    {"team": "T1"},
                    {"team": "T1", "life": 0},
                    {"team": "T2", "life": 0},
                    {"team": "T2", "poison": 11},
                ),
            }
        )
        self.assertEqual(
            (out["result"], out["winners"], out["losers"]), ("win", ["A", "B"], ["C", "D"])
        )
        self.assertIn(cite.WIN_TEAM, out["citations"])

    def test_a_team_with_a_player_left_stays_in(self) -> None:
        out = decide(
            {
                "format": "multiplayer",
                "players": self.players(
                    {"team": "T1"}, {"team": "T1", "life": 0}, {"team": "T2"}, {"team": "T2"}
                ),
            }
        )
        self.assertEqual((out["result"], out["losers"]), ("ongoing", ["B"]))

    def test_outside_two_headed_giant_only_the_player_who_would_win_and_lose_loses(self) -> None:
        out = decide(
            {
                "format": "multiplayer",
                "players": self.players(
                    {"team": "T1"}, {"team": "T1"}, {"team": "T2"}, {"team": "T2"}
                ),
                "effects": [{"type": "win", "player": "A"}, {"type": "lose", "player": "A"}],
            }
        )
        self.assertEqual(
            (out["result"], out["losers"], out["remaining"]), ("ongoing", ["A"], ["B", "C", "D"])
        )
        self.assertIn(cite.WIN_AND_LOSE, out["citations"])

    def test_a_multiplayer_win_effect_ends_the_game_for_everyone(self) -> None:
        out = decide(
            {
                "format": "multiplayer",
                "players": self.players({}, {}, {}),
                "effects": [{"type": "win", "player": "C"}],
            }
        )
        self.assertEqual((out["winners"], out["losers"]), (["C"], ["A", "B"]))


class TwoHeadedGiantTests(unittest.TestCase):
    def game(self, x: dict, y: dict, effects: list | None = None, size: int = 2) -> dict:
        names = iter("ABCDEFGH")
        # CR 810.4, 810.10a: each player of a team shows the team's shared life and poison counters.
        players = [
            {"name": next(names), "team": t, **side}
            for t, side in (("X", x), ("Y", y))
            for i in range(size)
        ]
        return {"format": "two_headed_giant", "players": players, "effects": effects or []}

    def test_shared_life_at_zero_loses_the_team(self) -> None:
        out = decide(self.game({"life": 0}, {"life": 30}))
        self.assertEqual((out["winners"], out["losers"]), (["C", "D"], ["A", "B"]))
        self.assertIn(cite.THG_TEAM_LIFE, out["citations"])

    def test_fifteen_poison_not_ten(self) -> None:
        self.assertEqual(
            decide(self.game({"life": 30, "poison": 14}, {"life": 30}))["result"], "ongoing"
        )
        self.assertEqual(
            decide(self.game({"life": 30, "poison": 15}, {"life": 30}))["winners"], ["C", "D"]
        )

    def test_three_headed_giant_needs_twenty_poison(self) -> None:
        self.assertEqual(
            decide(self.game({"life": 45, "poison": 19}, {"life": 45}, size=3))["result"], "ongoing"
        )
        out = decide(self.game({"life": 45, "poison": 20}, {"life": 45}, size=3))
        self.assertEqual(out["winners"], ["D", "E", "F"])
        self.assertIn(cite.THG_BIGGER_TEAMS, out["citations"])

    def test_one_player_drawing_from_an_empty_library_loses_the_team(self) -> None:
        g = self.game({"life": 30}, {"life": 30})
        g["players"][1]["drew_from_empty_library"] = True
        out = decide(g)
        self.assertEqual(out["losers"], ["A", "B"])
        self.assertIn(cite.THG_TEAM_WINS_LOSES, out["citations"])

    def test_a_team_that_would_win_and_lose_at_once_loses(self) -> None:
        out = decide(
            self.game(
                {"life": 30},
                {"life": 30},
                [{"type": "win", "player": "A"}, {"type": "lose", "player": "B"}],
            )
        )
        self.assertEqual(out["winners"], ["C", "D"])
        self.assertIn(cite.WIN_AND_LOSE, out["citations"])

    def test_both_teams_losing_at_once_is_a_draw(self) -> None:
        out = decide(self.game({"life": 0}, {"life": -3}))
        self.assertEqual(out["result"], "draw")
        self.assertIn(cite.DRAW_ALL_TEAMS_LOSE, out["citations"])

    def test_ten_poison_counters_shown_on_each_player_are_ten_for_the_team_not_twenty(self) -> None:
        # CR 810.10a: a player's poison count is the team's, so both players show the same ten.
        out = decide(self.game({"life": 30, "poison": 10}, {"life": 30}))
        self.assertEqual((out["result"], out["losers"]), ("ongoing", []))
        self.assertEqual(
            out["teams"]["X"], {"players": ["A", "B"], "life": 30, "poison": 10, "poison_limit": 15}
        )
        self.assertNotIn("20", out["explanation"])
        self.assertIn(
            "Team X (A and B) has 10 poison counters, shared by the team", out["explanation"]
        )
        self.assertIn(cite.THG_POISON_SHARED, out["citations"])

    def test_the_teams_counts_may_be_given_once_for_the_team(self) -> None:
        players = [{"name": n, "team": t} for n, t in zip("ABCD", "XXYY")]
        out = decide(
            {
                "format": "two_headed_giant",
                "players": players,
                "teams": {"X": {"poison": 15}, "Y": {"life": 4}},
            }
        )
        self.assertEqual((out["winners"], out["losers"]), (["C", "D"], ["A", "B"]))
        self.assertEqual(
            out["teams"]["Y"], {"players": ["C", "D"], "life": 4, "poison": 0, "poison_limit": 15}
        )
        self.assertIn(cite.SBA_TEAM_POISON, out["citations"])
        # the same count on each player too
        same = [{**p, "poison": 15} if p["team"] == "X" else p for p in players]
        self.assertEqual(
            decide({"format": "two_headed_giant", "players": same, "teams": {"X": {"poison": 15}}})[
                "losers"
            ],
            ["A", "B"],
        )

    def test_bigger_teams_start_with_fifteen_more_life_per_extra_player(self) -> None:
        # CR 810.11: each player beyond the second adds 15 starting life and 5 to the poison
        # counters the team can have.
        players = [{"name": n, "team": t} for n, t in zip("ABCDEFGH", "XXXXYYYY")]
        out = decide({"format": "two_headed_giant", "players": players})
        self.assertEqual((out["teams"]["X"]["life"], out["teams"]["X"]["poison_limit"]), (60, 25))
        players[0]["poison"] = 24
        self.assertEqual(
            decide({"format": "two_headed_giant", "players": players})["result"], "ongoing"
        )
        players[0]["poison"] = 25
        self.assertEqual(
            decide({"format": "two_headed_giant", "players": players})["losers"],
            ["A", "B", "C", "D"],
        )


class CommanderTests(unittest.TestCase):
    def test_twenty_one_combat_damage_from_one_commander_loses(self) -> None:
        players = [{"name": "A", "commander_damage": {"Atraxa": 21}}, {"name": "B"}, {"name": "C"}]
        out = decide({"format": "commander", "players": players})
        self.assertEqual((out["result"], out["losers"]), ("ongoing", ["A"]))
        self.assertIn(cite.COMMANDER_DAMAGE, out["citations"])

    def test_damage_from_different_commanders_does_not_add_up(self) -> None:
        players = [{"name": "A", "commander_damage": {"Atraxa": 20, "Edgar": 20}}, {"name": "B"}]
        self.assertEqual(decide({"format": "commander", "players": players})["result"], "ongoing")

    def test_commander_life_defaults_to_forty(self) -> None:
        request = games.validate_game_request(
            {"format": "commander", "players": [{"name": "A"}, {"name": "B"}]}
        )
        self.assertEqual(request.players[0].life, 40)


class ValidationTests(unittest.TestCase):
    def assertRefused(self, data: dict, field: str) -> None:
        with self.assertRaises(RequestError) as caught:
            games.validate_game_request(data)
        self.assertEqual(caught.exception.field, field, caught.exception.message)

    def test_bad_input_names_the_field(self) -> None:
        self.assertRefused({"players": []}, "format")
        self.assertRefused({"format": "chess", "players": []}, "format")
        self.assertRefused(two({"poison": -1}), "players[0].poison")
        self.assertRefused(two({"life": 10**18 + 1}), "players[0].life")
        self.assertRefused(two(effects=[{"type": "lose", "player": "Z"}]), "effects[0].player")
        self.assertRefused(two(effects=[{"type": "explode", "player": "A"}]), "effects[0].type")
        self.assertRefused(two({"commander_damage": {"X": 3}}), "players[0].commander_damage")
        self.assertRefused(two(b={"name": "A"}), "players[1].name")
        self.assertRefused(
            two(effects=[{"type": "win", "player": "A"}, {"type": "win", "player": "B"}]), "effects"
        )
        self.assertRefused(
            two(effects=[{"type": "win", "player": "A"}, {"type": "draw"}]), "effects"
        )
        # CR 104.1: the game ends as soon as it is a draw, so a draw and a loss are never one
        # moment; either order in the list is refused (the list is one moment, not read in order).
        for effects in (
            [{"type": "draw"}, {"type": "lose", "player": "A"}],
            [{"type": "lose", "player": "A"}, {"type": "draw"}],
            [{"type": "concede", "player": "B"}, {"type": "draw", "player": "A"}],
        ):
            self.assertRefused(two(effects=effects), "effects")
        self.assertRefused(
            {"format": "multiplayer", "players": [{"name": "A"}, {"name": "B"}]}, "players"
        )
        players = [
            {"name": "A", "team": "X", "life": 20},
            {"name": "B", "team": "X", "life": 21},
            {"name": "C", "team": "Y"},
            {"name": "D", "team": "Y"},
        ]
        self.assertRefused({"format": "two_headed_giant", "players": players}, "players[1].life")

    def test_two_headed_giant_counts_that_contradict_each_other_are_refused(self) -> None:
        def thg(a: dict, b: dict, **extra) -> dict:
            return {
                "format": "two_headed_giant",
                "players": [
                    {"name": "A", "team": "X", **a},
                    {"name": "B", "team": "X", **b},
                    {"name": "C", "team": "Y"},
                    {"name": "D", "team": "Y"},
                ],
                **extra,
            }

        self.assertRefused(thg({"poison": 11}, {"poison": 2}), "players[1].poison")
        self.assertRefused(thg({"poison": 3}, {}, teams={"X": {"poison": 4}}), "players[0].poison")
        self.assertRefused(thg({}, {"life": 12}, teams={"X": {"life": 10}}), "players[1].life")
        self.assertRefused(thg({}, {}, teams={"Z": {"life": 10}}), "teams.Z")
        self.assertRefused(thg({}, {}, teams={"X": {"poison": -1}}), "teams.X.poison")
        self.assertRefused(thg({}, {}, teams={"X": {"mana": 1}}), "teams.X.mana")
        self.assertRefused(thg({}, {}, teams=["X"]), "teams")
        # CR 810.8a-b: a player leaves only with the team
        self.assertRefused(thg({"left_game": True}, {}), "players[0].left_game")
        self.assertRefused({**two(), "teams": {"X": {"life": 3}}}, "teams")


def lost(p: dict) -> bool:
    return p["life"] <= 0 or p["poison"] >= 10 or p["drew_from_empty_library"]


player_states = st.fixed_dictionaries(
    {
        "life": st.integers(-3, 5),
        "poison": st.integers(0, 12),
        "drew_from_empty_library": st.booleans(),
    }
)


class IndependentCountTests(unittest.TestCase):
    """Counting losers directly must agree with the engine for free-for-all games."""

    @settings(max_examples=300, deadline=None)
    @given(st.lists(player_states, min_size=2, max_size=6), st.booleans())
    def test_free_for_all_outcome_matches_a_count_of_losers(
        self, states: list[dict], loop: bool
    ) -> None:
        players = [{"name": f"P{i}", **s} for i, s in enumerate(states)]
        fmt = "two_player" if len(players) == 2 else "multiplayer"
        out = decide({"format": fmt, "players": players, "mandatory_loop": loop})
        losers = [p["name"] for p in players if lost(p)]
        remaining = [p["name"] for p in players if not lost(p)]
        if not remaining:
            self.assertEqual((out["result"], out["losers"]), ("draw", []))
        elif len(remaining) == 1:
            self.assertEqual(
                (out["result"], out["winners"], out["losers"]), ("win", remaining, losers)
            )
        else:
            self.assertEqual(
                (out["result"], out["losers"]), ("draw" if loop else "ongoing", losers)
            )

    @settings(max_examples=200, deadline=None)
    @given(st.integers(2, 4), st.data())
    def test_two_headed_giant_outcome_matches_a_count_of_losing_teams(
        self, size: int, data
    ) -> None:
        limit = 15 + 5 * (size - 2)
        teams = {
            t: {
                "life": data.draw(st.integers(-2, 3)),
                "poison": data.draw(st.integers(limit - 2, limit + 1)),
            }
            for t in "XY"
        }
        players = []
        given = {}
        for t in "XY":
            # CR 810.4, 810.10a: the team's counts, given once for the team or shown (the same) on
            # any of its players.
            on_team = data.draw(st.booleans())
            if on_team:
                given[t] = teams[t]
            players += [
                {
                    "name": f"{t}{i}",
                    "team": t,
                    "drew_from_empty_library": data.draw(st.booleans())
                    and data.draw(st.booleans()),
                    **({} if on_team and data.draw(st.booleans()) else teams[t]),
                }
                for i in range(size)
            ]
        out = decide({"format": "two_headed_giant", "players": players, "teams": given})
        self.assertEqual(
            {t: (v["life"], v["poison"], v["poison_limit"]) for t, v in out["teams"].items()},
            {t: (teams[t]["life"], teams[t]["poison"], limit) for t in "XY"},
        )
        losing = {
            t
            for t in "XY"
            if teams[t]["life"] <= 0
            or teams[t]["poison"] >= limit
            or any(p["drew_from_empty_library"] for p in players if p["team"] == t)
        }
        if losing == {"X", "Y"}:
            self.assertEqual(out["result"], "draw")
        elif losing:
            (loser,) = losing
            self.assertEqual(out["result"], "win")
            self.assertEqual(out["losers"], [p["name"] for p in players if p["team"] == loser])
            self.assertEqual(out["winners"], [p["name"] for p in players if p["team"] != loser])
        else:
            self.assertEqual((out["result"], out["losers"]), ("ongoing", []))


def cr_says(ref: str, words: str) -> None:
    """The pinned CR rule exists in the 2025 CR and says ``words`` (so the engine cites what
    it encodes)."""
    from tests.engines.test_shuffles import assert_pinned_ref_exists

    assert_pinned_ref_exists(ref, words)


class CitedRulesTests(unittest.TestCase):
    def test_the_rules_cited_say_what_the_engine_does(self) -> None:
        cr_says(cite.THG_POISON_SHARED, "poison counters happen to each player individually")
        cr_says(cite.THG_CONCEDE, "their team leaves the game immediately")
        cr_says(cite.LOSE_TEAM, "all players on that team have lost")
        cr_says(cite.CARD_OVERRIDES_RULES, "the card takes precedence")
        cr_says(cite.DRAW_EFFECT, "the game is a draw")
        cr_says(cite.THG_TEAM_WINS_LOSES, "can’t lose the game, that player’s team can’t lose")


class DrawEffectTests(unittest.TestCase):
    """CR 104.4c: an effect may state that the game is a draw; it is somebody's effect."""

    def test_a_draw_naming_whose_effect_it_is_is_a_draw(self) -> None:
        out = decide(two(effects=[{"type": "draw", "player": "A"}]))
        self.assertEqual((out["result"], out["winners"], out["losers"]), ("draw", [], []))
        self.assertIn(cite.DRAW_EFFECT, out["citations"])
        self.assertIn("A controls", out["explanation"])

    def test_a_draw_naming_nobody_is_still_accepted(self) -> None:
        self.assertEqual(decide(two(effects=[{"type": "draw"}]))["result"], "draw")

    def test_a_draw_naming_a_stranger_is_refused(self) -> None:
        with self.assertRaises(RequestError) as caught:
            games.validate_game_request(two(effects=[{"type": "draw", "player": "Z"}]))
        self.assertEqual(caught.exception.field, "effects[0].player")


class TwoHeadedGiantScenarioTests(unittest.TestCase):
    """CR 810.8b, 810.10: concessions and poison counters in Two-Headed Giant."""

    @staticmethod
    def game(a: dict, b: dict, effects: list | None = None) -> dict:
        return {
            "format": "two_headed_giant",
            "effects": effects or [],
            "players": [
                {"name": "A", "team": "X", "life": 30, **a},
                {"name": "B", "team": "X", "life": 30, **b},
                {"name": "C", "team": "Y", "life": 30},
                {"name": "D", "team": "Y", "life": 30},
            ],
        }

    def test_different_poison_counts_on_teammates_are_refused_not_added(self) -> None:
        # CR 810.10a: each player's count is the team's; 11 and 2 cannot both be the team's count.
        with self.assertRaises(RequestError) as caught:
            games.validate_game_request(self.game({"poison": 11}, {"poison": 2}))
        self.assertEqual(caught.exception.field, "players[1].poison")
        self.assertIn("810.10", caught.exception.message)

    def test_the_team_count_reaching_fifteen_loses(self) -> None:
        out = decide(self.game({"poison": 15}, {"poison": 15}))
        self.assertEqual((out["winners"], out["losers"]), (["C", "D"], ["A", "B"]))
        self.assertIn(cite.THG_TEAM_POISON, out["citations"])
        self.assertIn(cite.THG_POISON_SHARED, out["citations"])
        self.assertEqual(decide(self.game({"poison": 14}, {"poison": 14}))["result"], "ongoing")

    def test_teammates_with_different_life_are_still_refused(self) -> None:
        with self.assertRaises(RequestError) as caught:
            games.validate_game_request(self.game({"life": 10}, {"life": 12}))
        self.assertEqual(caught.exception.field, "players[1].life")

    def test_a_player_who_concedes_takes_the_team_out(self) -> None:
        out = decide(self.game({}, {}, [{"type": "concede", "player": "B"}]))
        self.assertEqual((out["winners"], out["losers"]), (["C", "D"], ["A", "B"]))
        self.assertIn(cite.THG_CONCEDE, out["citations"])

    def test_platinum_angel_protects_the_whole_team(self) -> None:
        # CR 810.8a, example: neither that player nor their teammate can lose while Platinum Angel
        # is on the battlefield.
        out = decide(
            self.game(
                {"life": 0},
                {"life": 0},
                [
                    {"type": "cant_lose", "player": "A"},
                    {"type": "cant_win", "player": "C"},
                    {"type": "cant_win", "player": "D"},
                ],
            )
        )
        self.assertEqual((out["result"], out["losers"]), ("ongoing", []))
        self.assertIn(cite.THG_TEAM_WINS_LOSES, out["citations"])

    def test_a_concession_beats_cant_lose(self) -> None:
        out = decide(
            self.game(
                {}, {}, [{"type": "cant_lose", "player": "A"}, {"type": "concede", "player": "A"}]
            )
        )
        self.assertEqual(out["winners"], ["C", "D"])
        self.assertIn(cite.CARD_OVERRIDES_RULES, out["citations"])

    def test_a_teammates_cant_lose_effect_is_named_as_theirs_and_covers_the_team(self) -> None:
        # CR 810.8a: B's effect covers the team at 0 life; it is not an effect saying A can't lose.
        out = decide(self.game({"life": 0}, {"life": 0}, [{"type": "cant_lose", "player": "B"}]))
        self.assertEqual((out["result"], out["losers"]), ("ongoing", []))
        self.assertIn(
            "but an effect says B can't lose the game, and in Two-Headed Giant that covers the "
            "whole team, so Team X (A and B) doesn't lose.",
            out["explanation"],
        )
        self.assertNotIn("an effect says A can't lose", out["explanation"])
        self.assertIn(cite.THG_TEAM_WINS_LOSES, out["citations"])
        lose = decide(
            self.game(
                {}, {}, [{"type": "cant_lose", "player": "B"}, {"type": "lose", "player": "A"}]
            )
        )
        self.assertIn("another effect says B can't lose the game", lose["explanation"])

    def test_a_team_that_cant_win_still_wins_when_the_other_team_leaves(self) -> None:
        # CR 104.2a: winning because every opponent has left "overrides all effects that would
        # preclude that player from winning the game".
        out = decide(
            {
                **self.game({}, {}, [{"type": "cant_win", "player": "A"}]),
                "teams": {"X": {"life": 10}, "Y": {"life": 0}},
                "players": [
                    {"name": n, "team": t}
                    for n, t in (("A", "X"), ("B", "X"), ("C", "Y"), ("D", "Y"))
                ],
            }
        )
        self.assertEqual((out["result"], out["winners"]), ("win", ["A", "B"]))
        self.assertIn("This overrides the effect saying the team can't win.", out["explanation"])
        self.assertIn(cite.WIN_OPPONENTS_LEFT, out["citations"])
        cr_says(cite.WIN_OPPONENTS_LEFT, "overrides all effects that would preclude")


class TeamPlaysOnTests(unittest.TestCase):
    """CR 104.3g: in a multiplayer game between teams, a team loses only when all its players
    have lost."""

    def test_one_player_of_a_team_loses_and_the_team_plays_on(self) -> None:
        players = [
            {"name": "A", "team": "T1", "life": 0},
            {"name": "B", "team": "T1"},
            {"name": "C", "team": "T2"},
            {"name": "D", "team": "T2"},
        ]
        out = decide({"format": "multiplayer", "players": players})
        self.assertEqual((out["result"], out["losers"]), ("ongoing", ["A"]))
        self.assertEqual(out["remaining"], ["B", "C", "D"])
        self.assertIn(cite.LOSE_TEAM, out["citations"])
        self.assertIn("Team T1 has not lost", out["explanation"])

    def test_a_free_for_all_loser_does_not_cite_the_team_rule(self) -> None:
        out = decide(
            {
                "format": "multiplayer",
                "players": [{"name": "A", "life": 0}, {"name": "B"}, {"name": "C"}],
            }
        )
        self.assertNotIn(cite.LOSE_TEAM, out["citations"])


class CantLoseCantWinTests(unittest.TestCase):
    """Platinum Angel: "You can't lose the game and your opponents can't win the game" (CR 101.1:
    the card prevails)."""

    def test_zero_life_under_platinum_angel_does_not_lose(self) -> None:
        out = decide(
            two(
                {"life": -3},
                effects=[{"type": "cant_lose", "player": "A"}, {"type": "cant_win", "player": "B"}],
            )
        )
        self.assertEqual((out["result"], out["losers"]), ("ongoing", []))
        self.assertIn(cite.CARD_OVERRIDES_RULES, out["citations"])
        self.assertIn("can't lose", out["explanation"])

    def test_poison_and_an_empty_library_are_also_stopped(self) -> None:
        out = decide(
            two(
                {"poison": 12, "drew_from_empty_library": True},
                effects=[{"type": "cant_lose", "player": "A"}],
            )
        )
        self.assertEqual(out["result"], "ongoing")

    def test_a_lose_effect_is_stopped(self) -> None:
        out = decide(
            two(effects=[{"type": "cant_lose", "player": "A"}, {"type": "lose", "player": "A"}])
        )
        self.assertEqual(out["result"], "ongoing")

    def test_a_win_effect_for_a_player_who_cant_win_does_nothing(self) -> None:
        out = decide(
            two(effects=[{"type": "cant_win", "player": "B"}, {"type": "win", "player": "B"}])
        )
        self.assertEqual(out["result"], "ongoing")

    def test_the_unprotected_opponent_still_loses(self) -> None:
        out = decide(two({"life": 0}, {"life": 0}, effects=[{"type": "cant_lose", "player": "A"}]))
        self.assertEqual((out["result"], out["winners"], out["losers"]), ("win", ["A"], ["B"]))

    def test_conceding_is_always_possible(self) -> None:
        out = decide(
            two(effects=[{"type": "cant_lose", "player": "A"}, {"type": "concede", "player": "A"}])
        )
        self.assertEqual((out["result"], out["winners"]), ("win", ["B"]))

    def test_the_last_player_left_wins_even_if_they_cant_win(self) -> None:
        # CR 104.2a: this "overrides all effects that would preclude that player from winning
        # the game".
        out = decide(
            two(effects=[{"type": "cant_win", "player": "B"}, {"type": "concede", "player": "A"}])
        )
        self.assertEqual((out["result"], out["winners"]), ("win", ["B"]))
        self.assertIn(cite.WIN_OPPONENTS_LEFT, out["citations"])
        self.assertIn("overrides", out["explanation"])
        cr_says(cite.WIN_OPPONENTS_LEFT, "overrides all effects that would preclude")

    def test_a_cant_lose_effect_must_name_a_player(self) -> None:
        with self.assertRaises(RequestError) as caught:
            games.validate_game_request(two(effects=[{"type": "cant_lose"}]))
        self.assertEqual(caught.exception.field, "effects[0].player")

    @settings(max_examples=150, deadline=None)
    @given(st.lists(player_states, min_size=2, max_size=5), st.data())
    def test_protected_players_never_lose_and_the_rest_are_counted_as_usual(
        self, states: list[dict], data
    ) -> None:
        players = [{"name": f"P{i}", **s} for i, s in enumerate(states)]
        protected = {p["name"] for p in players if data.draw(st.booleans())}
        fmt = "two_player" if len(players) == 2 else "multiplayer"
        out = decide(
            {
                "format": fmt,
                "players": players,
                "effects": [{"type": "cant_lose", "player": n} for n in sorted(protected)],
            }
        )
        losers = [p["name"] for p in players if lost(p) and p["name"] not in protected]
        self.assertFalse(protected & set(out["losers"]))
        remaining = [p["name"] for p in players if p["name"] not in losers]
        if len(remaining) == 1:
            self.assertEqual((out["result"], out["winners"]), ("win", remaining))
        elif remaining:
            self.assertEqual((out["result"], out["losers"]), ("ongoing", losers))
        else:
            self.assertEqual(out["result"], "draw")
