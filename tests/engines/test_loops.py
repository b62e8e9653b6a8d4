"""Loop outcomes: the CR 729 and 104.4 examples, the MTR 4.4 loop procedure, bad input, and the
arithmetic answer checked against playing the loop out one action at a time."""

from __future__ import annotations

import html
import json
import re
import unittest

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from engines import citations as cite
from engines import loops
from engines.errors import RequestError
from tests.conftest import RULES_DIR

BUDGET = 10_000


def resolve(data: dict, max_steps: int = BUDGET) -> dict:
    """The engine's answer as the API stores it; it must survive a JSON round trip unchanged."""
    out = loops.resolve_loop(loops.validate_loop_request(data), max_steps=max_steps).to_dict()
    assert json.loads(json.dumps(out)) == out
    # pinned, never bare numbers
    assert all(isinstance(ref, str) and "@" in ref for ref in out["citations"])
    return out


def cr_2025_text() -> str:
    raw = (RULES_DIR / "cr" / "MagicCompRules-20250207.txt").read_text(encoding="utf-8-sig")
    return raw.replace("\r\n", "\n")


def cr_rule(text: str, number: str) -> str:
    """The rule's paragraph and its examples in the rules body (after the contents list)."""
    body = text[text.index("\n100.1. ") :]
    match = re.search(
        rf"^{re.escape(number)}\.? (.+?)(?=^\d{{3}}\.\d+[a-z]?\.? |\Z)", body, re.M | re.S
    )
    assert match, number
    return match.group(1)


def mtr_section(number: str) -> str:
    raw = (RULES_DIR / "mtr" / "MagicTournamentRules-20190606.html").read_text(encoding="utf-8")
    start = raw.index(f'id="mtr{number.replace(".", "-")}"')
    end = raw.index('id="mtr', start + 10)
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", raw[start:end])))


GOND = {
    "players": ["AP", "NAP"],
    "state": {"AP": {"life": 20, "library": 30}, "NAP": {"life": 20, "library": 30}},
    "iteration": [
        {
            "player": "AP",
            "kind": "optional",
            "text": "activate the ability Presence of Gond grants",
            "effects": {"AP": {"tokens": 1}},
        },
        {
            "player": "NAP",
            "kind": "mandatory",
            "text": "Intruder Alarm's trigger untaps all creatures",
        },
    ],
}


@pytest.mark.corpus
class RulesTextTests(unittest.TestCase):
    """The real documents say what the engine encodes, and every pinned citation names a
    real rule."""

    def setUp(self) -> None:
        self.assertTrue(
            RULES_DIR.is_dir(), f"rules documents not found at {RULES_DIR}: set JUDGEAPP_RULES_DIR"
        )
        self.cr = cr_2025_text()

    def test_every_pinned_citation_exists_in_its_document_version(self) -> None:
        mtr = (RULES_DIR / "mtr" / "MagicTournamentRules-20190606.html").read_text(encoding="utf-8")
        self.assertIn("Last updated June 6, 2019", mtr)
        self.assertIn("effective as of February 7, 2025", self.cr)
        self.assertGreater(len(cite.ALL), 30)
        for ref in cite.ALL:
            doc, number = ref.split(":")
            if doc == "cr@2025-02-07":
                self.assertRegex(self.cr, rf"(?m)^{re.escape(number)}\.? ", ref)
            else:
                self.assertEqual(doc, "mtr@2019-06-06", ref)
                self.assertIn(f'id="mtr{number.replace(".", "-")}"', mtr, ref)

    def test_the_cited_rules_say_what_the_engine_does(self) -> None:
        self.assertIn("Presence of Gond", cr_rule(self.cr, "729.2a"))
        self.assertIn("Intruder Alarm", cr_rule(self.cr, "729.2a"))
        self.assertIn("must make a different game choice", cr_rule(self.cr, "729.2c"))
        self.assertIn(
            "the active player (or, if the active player is not involved in the loop, the first "
            "player in turn order",
            cr_rule(self.cr, "729.3"),
        )
        self.assertIn("only mandatory actions, the game is a draw", cr_rule(self.cr, "729.4"))
        self.assertIn("Seal of Cleansing", cr_rule(self.cr, "729.5"))
        self.assertIn("as though [A] were mandatory", cr_rule(self.cr, "729.6"))
        self.assertIn("lose simultaneously, the game is a draw", cr_rule(self.cr, "104.4a"))
        self.assertIn(
            "both win and lose the game simultaneously, that player loses",
            cr_rule(self.cr, "104.3f"),
        )
        loops_text = mtr_section("4.4")
        self.assertIn(
            "The game advances through the lowest number of iterations chosen", loops_text
        )
        self.assertIn(
            "If all players choose to continue indefinitely, the game is a draw", loops_text
        )
        self.assertIn("Non-deterministic loops", loops_text)
        self.assertIn(
            "may not be restarted until the game has changed in a relevant way", loops_text
        )


class ShortcutTests(unittest.TestCase):
    """CR 729.2a-c and MTR 4.4: one player keeps the loop going and names a number; the lowest
    number wins."""

    def test_presence_of_gond_and_intruder_alarm_make_a_million_tokens(self) -> None:
        out = resolve({**GOND, "declared": {"AP": 1_000_000, "NAP": "accept"}})
        self.assertEqual(out["loop_kind"], "maintained_by_one")
        self.assertTrue(out["shortcut_allowed"])
        self.assertEqual(out["iterations"], 1_000_000)
        self.assertEqual(out["final_state"]["AP"]["tokens"], 1_000_000)
        self.assertEqual(out["stopped_by"], "AP")
        self.assertIsNone(out["game_over"])
        self.assertFalse(out["draw"])
        self.assertIn(cite.SHORTCUT_PROPOSAL, out["citations"])
        self.assertIn("1,000,000", out["explanation"])

    def test_a_lower_number_shortens_the_shortcut_and_that_player_acts(self) -> None:
        out = resolve({**GOND, "declared": {"AP": 1_000_000, "NAP": 999}})
        self.assertEqual(out["iterations"], 999)
        self.assertEqual(out["stopped_by"], "NAP")
        self.assertEqual(out["final_state"]["AP"]["tokens"], 999)
        self.assertIn(cite.SHORTCUT_TAKEN, out["citations"])
        self.assertIn("something other than what was proposed", out["explanation"])

    def test_the_shortest_of_several_shortenings_wins_in_turn_order_after_the_proposer(
        self,
    ) -> None:
        data = {
            **GOND,
            "players": ["P1", "P2", "P3", "P4"],
            "state": {},
            "iteration": [
                {
                    "player": "P3",
                    "kind": "optional",
                    "text": "make a token",
                    "effects": {"P3": {"tokens": 1}},
                }
            ],
            "declared": {"P3": 50, "P4": 20, "P1": 20, "P2": 30},
        }
        out = resolve(data)
        self.assertEqual([d["player"] for d in out["declarations"]], ["P3", "P4", "P1", "P2"])
        self.assertEqual(out["iterations"], 20)
        self.assertEqual(out["stopped_by"], "P4")  # P1's equal number does not shorten it further

    def test_a_loop_that_kills_ends_the_game_before_the_named_number(self) -> None:
        data = {
            **GOND,
            "state": {"AP": {"life": 20}, "NAP": {"life": 7}},
            "iteration": [
                {
                    "player": "AP",
                    "kind": "optional",
                    "text": "ping",
                    "effects": {"NAP": {"life": -2}, "AP": {"life": 1}},
                }
            ],
            "declared": {"AP": 10**18, "NAP": "accept"},
        }
        out = resolve(data)
        self.assertEqual(
            out["game_over"],
            {
                "winners": ["AP"],
                "losers": ["NAP"],
                "draw": False,
                "after_iteration": 4,
                "after_action": 0,
            },
        )
        self.assertEqual(out["iterations"], 4)
        self.assertEqual(out["final_state"]["NAP"]["life"], -1)
        self.assertEqual(out["final_state"]["AP"]["life"], 24)
        self.assertIn(cite.SBA_LIFE, out["citations"])

    def test_a_player_may_stop_partway_through_an_iteration(self) -> None:
        data = {
            **GOND,
            "iteration": GOND["iteration"]
            + [
                {
                    "player": "NAP",
                    "kind": "mandatory",
                    "text": "a third step",
                    "effects": {"NAP": {"tokens": 1}},
                }
            ],
        }
        out = resolve(
            {**data, "declared": {"AP": 100, "NAP": {"iterations": 7, "after_action": 0}}}
        )
        self.assertEqual((out["iterations"], out["then_actions"], out["stopped_by"]), (7, 1, "NAP"))
        self.assertEqual(
            (out["final_state"]["AP"]["tokens"], out["final_state"]["NAP"]["tokens"]), (8, 7)
        )
        self.assertIn('up to "activate the ability Presence of Gond grants"', out["explanation"])
        # the last action would make it a whole iteration
        with self.assertRaises(RequestError) as caught:
            loops.validate_loop_request(
                {**data, "declared": {"AP": 100, "NAP": {"iterations": 7, "after_action": 2}}}
            )
        self.assertEqual(caught.exception.field, "declared.NAP.after_action")

    def test_without_declarations_the_maintainer_must_name_a_number_and_the_horizon_is_reported(
        self,
    ) -> None:
        data = {
            **GOND,
            "iteration": [
                {
                    "player": "AP",
                    "kind": "optional",
                    "text": "ping",
                    "effects": {"NAP": {"life": -3}},
                }
            ],
        }
        out = resolve(data)
        self.assertIsNone(out["iterations"])
        self.assertEqual(out["stopped_by"], "AP")
        self.assertEqual(out["stop_kind"], "must_name_number")
        self.assertEqual(
            out["ends_game_after"], {"iteration": 7, "action": 0, "losers": {"NAP": ["life"]}}
        )


class FragmentedLoopTests(unittest.TestCase):
    """CR 729.3: the flying example."""

    FLYING = [
        {"player": "AP", "kind": "optional", "text": "{0}: this creature gains flying"},
        {"player": "NAP", "kind": "optional", "text": "{0}: target creature loses flying"},
    ]

    def test_without_numbers_the_active_player_must_make_a_different_choice(self) -> None:
        # CR 729.3: with no numbers named, the active player makes a different game choice so the
        # loop ends. "declared" is optional (docs/API.md): left out, null, empty, or only words,
        # nobody named a number.
        for declared in (
            {},
            {"declared": None},
            {"declared": {}},
            {"declared": {"AP": "accept", "NAP": "accept"}},
        ):
            out = resolve({"players": ["AP", "NAP"], "iteration": self.FLYING, **declared})
            self.assertEqual(out["loop_kind"], "fragmented")
            self.assertEqual(
                (out["stop_kind"], out["stopped_by"], out["must_deviate"]),
                ("makes_different_choice", "AP", "AP"),
                declared,
            )
            self.assertEqual(out["decided_by"], "cr")
            self.assertFalse(out["draw"])
            self.assertIsNone(out["game_over"])
            self.assertIn(cite.LOOP_FRAGMENTED, out["citations"])
            self.assertIn(
                "the active player, AP, must make a different game choice", out["explanation"]
            )

    def test_without_numbers_in_multiplayer_the_first_involved_player_in_turn_order_deviates(
        self,
    ) -> None:
        # CR 729.3: the active player P1 is not involved; P2 comes before P4 in turn order whatever
        # the iteration's order.
        iteration = [
            {"player": "P4", "kind": "optional", "text": "gain flying"},
            {"player": "P2", "kind": "optional", "text": "lose flying"},
        ]
        for declared in ({}, {"declared": {}}, {"declared": {"P1": "accept"}}):
            out = resolve({"players": ["P1", "P2", "P3", "P4"], "iteration": iteration, **declared})
            self.assertEqual(
                (out["loop_kind"], out["must_deviate"], out["stopped_by"]),
                ("fragmented", "P2", "P2"),
                declared,
            )
            self.assertIn("not involved", out["explanation"])
        ap_involved = [
            {"player": "P3", "kind": "optional", "text": "gain flying"},
            {"player": "P1", "kind": "optional", "text": "lose flying"},
        ]
        self.assertEqual(
            resolve({"players": ["P1", "P2", "P3"], "iteration": ap_involved})["must_deviate"], "P1"
        )

    def test_a_fragmented_loop_that_kills_during_its_first_iteration_ends_the_game_instead(
        self,
    ) -> None:
        iteration = [
            {"player": "AP", "kind": "optional", "text": "drain", "effects": {"NAP": {"life": -1}}},
            {
                "player": "NAP",
                "kind": "optional",
                "text": "gain it back",
                "effects": {"NAP": {"life": 1}},
            },
        ]
        out = resolve(
            {
                "players": ["AP", "NAP"],
                "state": {"NAP": {"life": 1}},
                "iteration": iteration,
                "fragmented": True,
            }
        )
        self.assertEqual(out["game_over"]["losers"], ["NAP"])
        self.assertIsNone(out["must_deviate"])

    def test_some_but_not_all_players_naming_numbers_is_still_refused(self) -> None:
        # MTR 4.4: once numbers are named, each player keeping the loop going names one.
        with self.assertRaises(RequestError) as caught:
            loops.validate_loop_request(
                {"players": ["AP", "NAP"], "iteration": self.FLYING, "declared": {"AP": 5}}
            )
        self.assertEqual(caught.exception.field, "declared.NAP")

    def test_within_a_turn_the_lowest_number_stands_and_that_player_changes_their_choice(
        self,
    ) -> None:
        out = resolve(
            {"players": ["AP", "NAP"], "iteration": self.FLYING, "declared": {"AP": 5, "NAP": 3}}
        )
        self.assertEqual(
            (out["iterations"], out["stopped_by"], out["must_deviate"]), (3, "NAP", "NAP")
        )
        self.assertEqual(out["stop_kind"], "makes_different_choice")
        self.assertEqual(out["decided_by"], "mtr")
        self.assertIn(cite.MTR_LOOPS, out["citations"])

    def test_a_fragmented_loop_may_not_be_continued_indefinitely_within_a_turn(self) -> None:
        with self.assertRaises(RequestError) as caught:
            loops.validate_loop_request(
                {
                    "players": ["AP", "NAP"],
                    "iteration": self.FLYING,
                    "declared": {"AP": "indefinitely", "NAP": 3},
                }
            )
        self.assertEqual(caught.exception.field, "declared.AP")

    def test_two_players_who_each_make_progress_maintain_the_loop_together(self) -> None:
        iteration = [
            {"player": "AP", "kind": "optional", "text": "a", "effects": {"AP": {"tokens": 1}}},
            {"player": "NAP", "kind": "optional", "text": "b"},
        ]
        out = resolve(
            {"players": ["AP", "NAP"], "iteration": iteration, "declared": {"AP": 40, "NAP": 12}}
        )
        self.assertEqual(out["loop_kind"], "maintained_by_several")
        self.assertEqual((out["iterations"], out["stopped_by"]), (12, "NAP"))


class LoopsAcrossTurnsTests(unittest.TestCase):
    """MTR 4.4, loops across turns: "If all players choose to continue indefinitely, the game is a
    draw. Otherwise, the game advances through the lowest number of iterations chosen and the player
    who chose that number receives priority"."""

    FLYING = FragmentedLoopTests.FLYING
    GROWING = [
        {"player": "AP", "kind": "optional", "text": "a", "effects": {"AP": {"x": 1}}},
        {"player": "NAP", "kind": "optional", "text": "b", "effects": {"NAP": {"y": 1}}},
    ]

    def across(self, iteration: list, declared: dict) -> dict:
        return resolve(
            {
                "players": ["AP", "NAP"],
                "iteration": iteration,
                "spans_turns": True,
                "declared": declared,
            }
        )

    def test_the_paragraph_encoded_is_in_the_mtr(self) -> None:
        text = mtr_section("4.4")
        self.assertIn(
            "If two or more players are involved in maintaining a loop across turns", text
        )
        self.assertIn("If all players choose to continue indefinitely, the game is a draw", text)

    def test_everyone_indefinitely_is_a_draw(self) -> None:
        for iteration in (self.FLYING, self.GROWING):
            out = self.across(iteration, {"AP": "indefinitely", "NAP": "indefinitely"})
            self.assertTrue(out["draw"])
            self.assertEqual(out["game_over"]["winners"], [])
            self.assertEqual(out["decided_by"], "mtr")
            self.assertIn(cite.MTR_LOOPS, out["citations"])

    def test_ap_indefinitely_and_nap_twelve_runs_twelve_then_nap_receives_priority(self) -> None:
        for iteration in (self.FLYING, self.GROWING):
            out = self.across(iteration, {"AP": "indefinitely", "NAP": 12})
            self.assertEqual(
                (out["iterations"], out["stopped_by"], out["draw"]), (12, "NAP", False)
            )
            self.assertIn(cite.MTR_LOOPS, out["citations"])
            self.assertIn("NAP then receives priority", out["explanation"])

    def test_ap_eight_and_nap_twelve_stops_after_eight_with_ap(self) -> None:
        for iteration in (self.FLYING, self.GROWING):
            out = self.across(iteration, {"AP": 8, "NAP": 12})
            self.assertEqual((out["iterations"], out["stopped_by"], out["draw"]), (8, "AP", False))

    def test_the_growing_loop_counts_the_iterations_performed(self) -> None:
        out = self.across(self.GROWING, {"AP": "indefinitely", "NAP": 12})
        self.assertEqual(out["final_state"]["AP"]["x"], 12)
        self.assertEqual(out["final_state"]["NAP"]["y"], 12)

    def test_a_player_who_keeps_the_loop_going_must_declare(self) -> None:
        with self.assertRaises(RequestError) as caught:
            loops.validate_loop_request(
                {
                    "players": ["AP", "NAP"],
                    "iteration": self.FLYING,
                    "spans_turns": True,
                    "declared": {"AP": "indefinitely", "NAP": "accept"},
                }
            )
        self.assertEqual(caught.exception.field, "declared.NAP")

    def test_three_players_across_turns_the_lowest_stands(self) -> None:
        iteration = [{"player": p, "kind": "optional", "text": p} for p in ("P1", "P2", "P3")]
        out = resolve(
            {
                "players": ["P1", "P2", "P3"],
                "iteration": iteration,
                "spans_turns": True,
                "fragmented": True,
                "declared": {"P1": "indefinitely", "P2": 30, "P3": 7},
            }
        )
        self.assertEqual(
            (out["iterations"], out["stopped_by"], out["must_deviate"]), (7, "P3", "P3")
        )

    def test_state_based_actions_end_a_loop_across_turns_before_the_lowest_number(self) -> None:
        # CR 704.5a: NAP at 0 life loses when state-based actions are checked, whatever numbers
        # were named.
        iteration = [
            {
                "player": "AP",
                "kind": "optional",
                "text": "drain 1",
                "effects": {"NAP": {"life": -1}},
            },
            {
                "player": "NAP",
                "kind": "optional",
                "text": "make a token",
                "effects": {"NAP": {"tokens": 1}},
            },
        ]
        out = resolve(
            {
                "players": ["AP", "NAP"],
                "state": {"NAP": {"life": 20}},
                "iteration": iteration,
                "spans_turns": True,
                "declared": {"AP": "indefinitely", "NAP": 100},
            }
        )
        self.assertEqual(out["game_over"]["losers"], ["NAP"])
        self.assertEqual(out["game_over"]["after_iteration"], 20)
        self.assertIn(cite.SBA_LIFE, out["citations"])

    def test_in_multiplayer_a_player_who_loses_leaves_and_the_loop_stops(self) -> None:
        # CR 104.5 / 800.4a: the player leaves with their objects; the others go on.
        iteration = [
            {
                "player": "P1",
                "kind": "optional",
                "text": "drain P3",
                "effects": {"P3": {"life": -2}},
            },
            {"player": "P2", "kind": "optional", "text": "gain 1", "effects": {"P2": {"life": 1}}},
        ]
        out = resolve(
            {
                "players": ["P1", "P2", "P3"],
                "state": {"P3": {"life": 5}},
                "iteration": iteration,
                "spans_turns": True,
                "declared": {"P1": "indefinitely", "P2": "indefinitely"},
            }
        )
        self.assertEqual(out["eliminated"], ["P3"])
        self.assertIsNone(out["game_over"])
        self.assertIn(cite.LEAVES_GAME, out["citations"])

    def test_a_partial_last_iteration_across_turns(self) -> None:
        # MTR 4.4: an intervening player may have the final iteration only partly performed.
        out = resolve(
            {
                "players": ["AP", "NAP"],
                "iteration": self.GROWING,
                "spans_turns": True,
                "declared": {"AP": "indefinitely", "NAP": {"iterations": 4, "after_action": 0}},
            }
        )
        self.assertEqual((out["iterations"], out["then_actions"], out["stopped_by"]), (4, 1, "NAP"))
        self.assertEqual((out["final_state"]["AP"]["x"], out["final_state"]["NAP"]["y"]), (5, 4))

    @settings(max_examples=60, deadline=None)
    @given(
        st.lists(st.one_of(st.just("indefinitely"), st.integers(0, 10**6)), min_size=2, max_size=4)
    )
    def test_outcome_is_the_minimum_of_the_numbers_or_a_draw(self, picks: list) -> None:
        players = [f"P{i}" for i in range(len(picks))]
        iteration = [{"player": p, "kind": "optional", "text": p} for p in players]
        out = resolve(
            {
                "players": players,
                "iteration": iteration,
                "spans_turns": True,
                "fragmented": True,
                "declared": dict(zip(players, picks)),
            }
        )
        numbers = [(n, i) for i, n in enumerate(picks) if n != "indefinitely"]
        if not numbers:
            self.assertTrue(out["draw"])
        else:
            lowest, who = min(numbers)
            self.assertEqual(
                (out["iterations"], out["stopped_by"], out["draw"]), (lowest, players[who], False)
            )


class MandatoryLoopTests(unittest.TestCase):
    """CR 729.4-729.6 and 104.4a-b."""

    SEAL = {
        "players": ["AP", "NAP"],
        "iteration": [
            {"player": "AP", "kind": "mandatory", "text": "the artifact's trigger"},
            {"player": "NAP", "kind": "mandatory", "text": "the other trigger"},
        ],
        "breakers": [
            {"player": "NAP", "text": "sacrifice Seal of Cleansing to destroy the artifact"}
        ],
    }

    def test_seal_of_cleansing_need_not_be_used_and_the_game_is_a_draw(self) -> None:
        out = resolve({**self.SEAL, "declared": {"AP": "no_action", "NAP": "no_action"}})
        self.assertEqual(out["loop_kind"], "mandatory")
        self.assertTrue(out["draw"])
        self.assertTrue(out["game_over"]["draw"])
        self.assertIsNone(out["iterations"])
        for ref in (cite.LOOP_NOT_FORCED, cite.DRAW_MANDATORY_LOOP, cite.LOOP_MANDATORY):
            self.assertIn(ref, out["citations"])

    def test_without_declarations_the_player_who_can_break_it_is_asked_not_presumed(self) -> None:
        # MTR 4.4: a draw only "If all players choose to take no action"; NAP has not chosen.
        for declared in (None, {"AP": "no_action"}):
            data = self.SEAL if declared is None else {**self.SEAL, "declared": declared}
            out = resolve(data)
            self.assertEqual(
                (out["stop_kind"], out["stopped_by"], out["draw"], out["game_over"]),
                ("must_name_number", "NAP", False, None),
            )
            self.assertIsNone(out["iterations"])
            self.assertIn(cite.MTR_LOOPS, out["citations"])
            self.assertIn("NAP, who can break the loop, has not said", out["explanation"])
            self.assertIn("draw only if all players choose to take no action", out["explanation"])
            self.assertNotIn("taken to take no action", out["explanation"])
        # Once NAP says so, it is the draw it was.
        self.assertTrue(resolve({**self.SEAL, "declared": {"NAP": "no_action"}})["draw"])

    def test_an_unless_player_who_would_lose_is_asked_before_anyone_loses(self) -> None:
        data = {
            "players": ["A", "B"],
            "iteration": [
                {
                    "player": "A",
                    "kind": "unless",
                    "unless_player": "B",
                    "effects": {"B": {"life": -1}},
                }
            ],
        }
        out = resolve(data)
        self.assertEqual(
            (out["stop_kind"], out["stopped_by"], out["draw"], out["game_over"]),
            ("must_name_number", "B", False, None),
        )
        self.assertIn("during iteration 20: B would lose", out["explanation"])
        self.assertEqual(out["ends_game_after"]["iteration"], 20)
        # B declining to pay is B's choice to make; then the loop ends the game.
        chose = resolve({**data, "declared": {"A": "no_action", "B": "no_action"}})
        self.assertEqual(chose["game_over"]["winners"], ["A"])
        # Each breaker in turn order: the first not yet declared is asked first.
        both = resolve(
            {**self.SEAL, "breakers": [{"player": "AP"}, {"player": "NAP"}], "declared": {}}
        )
        self.assertEqual(both["stopped_by"], "AP")
        self.assertIn("AP and NAP, who can each break the loop, have", both["explanation"])

    def test_the_seal_player_may_name_a_number_and_then_breaks_the_loop(self) -> None:
        out = resolve({**self.SEAL, "declared": {"AP": "no_action", "NAP": 3}})
        self.assertEqual(
            (out["iterations"], out["stopped_by"], out["stop_kind"]), (3, "NAP", "breaks_loop")
        )
        self.assertFalse(out["draw"])

    def test_a_player_with_no_way_to_break_the_loop_cannot_name_a_number(self) -> None:
        with self.assertRaises(RequestError) as caught:
            resolve({**self.SEAL, "declared": {"AP": 3}})
        self.assertEqual(caught.exception.field, "declared.AP")

    def test_unless_repeats_as_mandatory_unless_that_player_chooses_otherwise(self) -> None:
        data = {
            "players": ["AP", "NAP"],
            "iteration": [
                {"player": "AP", "kind": "mandatory", "text": "a trigger"},
                {
                    "player": "NAP",
                    "kind": "unless",
                    "unless_player": "AP",
                    "text": "counter it unless AP pays 1",
                },
            ],
        }
        out = resolve({**data, "declared": {"AP": "no_action"}})
        self.assertEqual(out["loop_kind"], "mandatory")
        self.assertTrue(out["draw"])
        self.assertIn(cite.LOOP_UNLESS, out["citations"])
        # CR 729.6: "If no player chooses to perform [B]": AP's choice, asked for when not given.
        asked = resolve(data)
        self.assertEqual((asked["stop_kind"], asked["stopped_by"]), ("must_name_number", "AP"))
        self.assertFalse(asked["draw"])
        paid = resolve({**data, "declared": {"AP": 2}})
        self.assertEqual((paid["iterations"], paid["stopped_by"], paid["draw"]), (2, "AP", False))

    def test_a_mandatory_loop_that_reduces_life_ends_by_state_based_actions_not_a_draw(
        self,
    ) -> None:
        data = {
            "players": ["AP", "NAP"],
            "state": {"AP": {"life": 10}, "NAP": {"life": 3}},
            "iteration": [
                {
                    "player": "AP",
                    "kind": "mandatory",
                    "text": "drain",
                    "effects": {"NAP": {"life": -1}, "AP": {"life": 1}},
                }
            ],
        }
        out = resolve(data)
        self.assertFalse(out["draw"])
        self.assertEqual(out["game_over"]["winners"], ["AP"])
        self.assertEqual(out["game_over"]["after_iteration"], 3)

    def test_all_players_losing_at_once_is_a_draw(self) -> None:
        data = {
            "players": ["AP", "NAP"],
            "state": {"AP": {"life": 3}, "NAP": {"life": 6}},
            "iteration": [
                {
                    "player": "AP",
                    "kind": "mandatory",
                    "text": "both lose life",
                    "effects": {"AP": {"life": -1}, "NAP": {"life": -2}},
                }
            ],
        }
        out = resolve(data)
        self.assertTrue(out["draw"])
        self.assertEqual(
            out["game_over"],
            {
                "winners": [],
                "losers": ["AP", "NAP"],
                "draw": True,
                "after_iteration": 3,
                "after_action": 0,
            },
        )
        self.assertIn(cite.DRAW_ALL_LOSE, out["citations"])

    def test_the_order_of_actions_inside_an_iteration_decides_who_loses_first(self) -> None:
        data = {
            "players": ["AP", "NAP"],
            "state": {"AP": {"life": 2}, "NAP": {"life": 2}},
            "iteration": [
                {
                    "player": "NAP",
                    "kind": "mandatory",
                    "text": "hit AP",
                    "effects": {"AP": {"life": -1}},
                },
                {
                    "player": "AP",
                    "kind": "mandatory",
                    "text": "hit NAP",
                    "effects": {"NAP": {"life": -1}},
                },
            ],
        }
        out = resolve(data)
        self.assertEqual(out["game_over"]["losers"], ["AP"])
        self.assertEqual(
            (out["game_over"]["after_iteration"], out["game_over"]["after_action"]), (2, 0)
        )
        self.assertEqual(out["final_state"]["NAP"]["life"], 1)

    def test_drawing_from_an_empty_library_loses_on_the_draw_after_the_last_card(self) -> None:
        data = {
            "players": ["AP", "NAP"],
            "state": {"AP": {"library": 3}},
            "iteration": [
                {
                    "player": "AP",
                    "kind": "mandatory",
                    "text": "draw a card",
                    "effects": {"AP": {"cards_drawn": 1}},
                }
            ],
        }
        out = resolve(data)
        self.assertEqual(out["game_over"]["losers"], ["AP"])
        self.assertEqual(out["game_over"]["after_iteration"], 4)
        self.assertEqual(out["final_state"]["AP"]["library"], 0)
        self.assertEqual(out["final_state"]["AP"]["cards_drawn"], 4)
        self.assertIn(cite.SBA_EMPTY_LIBRARY, out["citations"])

    def test_poison_counters_reach_the_threshold(self) -> None:
        data = {
            "players": ["AP", "NAP"],
            "state": {"NAP": {"poison": 4}},
            "iteration": [
                {
                    "player": "AP",
                    "kind": "mandatory",
                    "text": "proliferate-ish",
                    "effects": {"NAP": {"poison": 2}},
                }
            ],
        }
        self.assertEqual(resolve(data)["game_over"]["after_iteration"], 3)

    def test_a_billion_billion_iterations_are_answered_by_arithmetic(self) -> None:
        big = 10**18
        data = {
            "players": ["AP", "NAP"],
            "state": {"AP": {"life": big}, "NAP": {"life": big - 1}},
            "iteration": [
                {
                    "player": "AP",
                    "kind": "mandatory",
                    "text": "both lose 1",
                    "effects": {"AP": {"life": -1}, "NAP": {"life": -1}},
                }
            ],
        }
        out = resolve(data)
        self.assertEqual(out["method"], "arithmetic")
        self.assertEqual(out["game_over"]["after_iteration"], big - 1)
        self.assertEqual(out["game_over"]["winners"], ["AP"])
        self.assertEqual(out["final_state"]["AP"]["life"], 1)


class TournamentLoopTests(unittest.TestCase):
    """MTR 4.4: several players, loops across turns, non-deterministic loops, restarting."""

    TWO = [
        {"player": "AP", "kind": "optional", "text": "a", "effects": {"AP": {"x": 1}}},
        {"player": "NAP", "kind": "optional", "text": "b", "effects": {"NAP": {"y": 1}}},
    ]

    def test_indefinitely_by_everyone_across_turns_is_a_draw(self) -> None:
        out = resolve(
            {
                "players": ["AP", "NAP"],
                "iteration": self.TWO,
                "spans_turns": True,
                "declared": {"AP": "indefinitely", "NAP": "indefinitely"},
            }
        )
        self.assertTrue(out["draw"])
        self.assertIn(cite.MTR_LOOPS, out["citations"])

    def test_across_turns_the_one_number_named_wins(self) -> None:
        out = resolve(
            {
                "players": ["AP", "NAP"],
                "iteration": self.TWO,
                "spans_turns": True,
                "declared": {"AP": "indefinitely", "NAP": 8},
            }
        )
        self.assertEqual((out["iterations"], out["stopped_by"], out["draw"]), (8, "NAP", False))

    def test_indefinitely_within_a_turn_is_refused(self) -> None:
        with self.assertRaises(RequestError) as caught:
            loops.validate_loop_request(
                {
                    "players": ["AP", "NAP"],
                    "iteration": self.TWO,
                    "declared": {"AP": "indefinitely", "NAP": 8},
                }
            )
        self.assertEqual(caught.exception.field, "declared.AP")

    def test_a_non_deterministic_loop_cannot_be_shortcut(self) -> None:
        out = resolve({**GOND, "deterministic": False, "declared": {"AP": 5}})
        self.assertEqual(out["loop_kind"], "non_deterministic")
        self.assertFalse(out["shortcut_allowed"])
        self.assertIsNone(out["iterations"])

    def test_a_loop_restarted_without_a_relevant_change_is_refused(self) -> None:
        out = resolve({**GOND, "restarted_without_change": True, "declared": {"AP": 5}})
        self.assertTrue(out["refused"])
        self.assertFalse(out["shortcut_allowed"])
        self.assertEqual((out["iterations"], out["must_deviate"]), (0, "AP"))

    def test_in_multiplayer_a_player_who_loses_leaves_and_the_loop_stops(self) -> None:
        data = {
            "players": ["A", "B", "C"],
            "state": {"B": {"life": 2}},
            "iteration": [
                {
                    "player": "A",
                    "kind": "optional",
                    "text": "drain each opponent",
                    "effects": {"B": {"life": -1}, "C": {"life": -1}, "A": {"life": 2}},
                }
            ],
            "declared": {"A": 100},
        }
        out = resolve(data)
        self.assertIsNone(out["game_over"])
        self.assertEqual(out["eliminated"], ["B"])
        self.assertEqual(out["iterations"], 2)
        self.assertEqual(out["final_state"]["C"]["life"], 18)
        # B takes no action of the loop: nothing of it need leave with B (CR 800.4a).
        self.assertNotIn("the loop stops here", out["explanation"])
        self.assertIn(
            "No action of the loop is taken by B, so the loop may still go on", out["explanation"]
        )

    def test_a_leaving_player_stops_the_loop_only_when_they_take_an_action_of_it(self) -> None:
        drain = {
            "players": ["A", "B", "C"],
            "iteration": [{"player": "A", "kind": "mandatory", "effects": {"C": {"life": -1}}}],
        }
        out = resolve(drain)
        self.assertEqual((out["eliminated"], out["iterations"]), (["C"], 20))
        self.assertNotIn("stops here", out["explanation"])
        self.assertIn(cite.LEAVES_WITH_OBJECTS, out["citations"])
        # The same loop when the player who loses is the one whose trigger it is.
        own = {
            **drain,
            "iteration": [{"player": "C", "kind": "mandatory", "effects": {"C": {"life": -1}}}],
        }
        out = resolve(own)
        self.assertEqual(out["eliminated"], ["C"])
        self.assertIn(
            "the loop stops here: C controls an action of it, and the objects of a player who "
            "leaves leave with them",
            out["explanation"],
        )


class NonLinearLoopTests(unittest.TestCase):
    def test_doubling_is_played_out_step_by_step(self) -> None:
        data = {
            "players": ["AP", "NAP"],
            "state": {"AP": {"tokens": 1}},
            "iteration": [
                {
                    "player": "AP",
                    "kind": "optional",
                    "text": "double tokens",
                    "effects": {"AP": {"tokens": {"times": 2}}},
                },
                {
                    "player": "AP",
                    "kind": "optional",
                    "text": "each token pings",
                    "effects": {
                        "NAP": {
                            "life": {"per": {"player": "AP", "counter": "tokens"}, "factor": -1}
                        }
                    },
                },
            ],
            "declared": {"AP": 100},
        }
        out = resolve(data)
        self.assertEqual(out["method"], "step_by_step")
        # 2 + 4 + 8 + 16 = 30 >= 20: NAP dies in the fourth iteration.
        self.assertEqual(out["game_over"]["after_iteration"], 4)
        self.assertEqual(out["final_state"]["NAP"]["life"], -10)

    def test_a_repeating_cycle_gives_the_state_after_any_count(self) -> None:
        data = {
            "players": ["AP", "NAP"],
            "state": {"AP": {"x": 3}},
            "iteration": [
                {
                    "player": "AP",
                    "kind": "optional",
                    "text": "flip",
                    "effects": {
                        "AP": {"x": {"per": {"player": "AP", "counter": "x"}, "factor": -2}}
                    },
                }
            ],
            "declared": {"AP": 10**18 - 1},
        }
        out = resolve(data, max_steps=100)
        self.assertEqual(out["cycle"], {"start": 1, "length": 2})
        self.assertEqual(out["final_state"]["AP"]["x"], -3)
        self.assertEqual(
            resolve({**data, "declared": {"AP": 10**18}}, max_steps=100)["final_state"]["AP"]["x"],
            3,
        )

    def test_running_out_of_budget_is_a_normal_answer(self) -> None:
        data = {
            "players": ["AP", "NAP"],
            "state": {"AP": {"tokens": 1}},
            "iteration": [
                {
                    "player": "AP",
                    "kind": "optional",
                    "text": "double",
                    "effects": {"AP": {"tokens": {"times": 2}}},
                }
            ],
            "declared": {"AP": 10**6},
        }
        out = resolve(data, max_steps=50)
        self.assertTrue(out["gave_up"])
        self.assertIsNone(out["iterations"])

    def test_a_counter_multiplied_past_all_sense_is_given_up_not_a_result_that_cannot_be_stored(
        self,
    ) -> None:
        # x10^6 a step, 800 steps declared: 10^4800, past the 4,300 digits Python writes; every
        # input is inside its documented bounds.
        data = {
            "players": ["AP", "NAP"],
            "state": {"AP": {"gold": 1}},
            "iteration": [
                {
                    "player": "AP",
                    "kind": "optional",
                    "text": "x",
                    "effects": {"AP": {"gold": {"times": 10**6}}},
                }
            ],
            "declared": {"AP": 800},
        }
        out = resolve(data)  # a JSON round trip
        self.assertTrue(out["gave_up"])
        self.assertIsNone(out["iterations"])
        self.assertIn("AP's gold grew past 10^100", out["explanation"])
        self.assertNotIn("step budget", out["explanation"])

    def test_a_repeated_state_is_a_cycle_and_a_mandatory_loop_is_then_a_draw(self) -> None:
        data = {
            "players": ["AP", "NAP"],
            "iteration": [
                {
                    "player": "AP",
                    "kind": "mandatory",
                    "text": "set to 3",
                    "effects": {"AP": {"x": {"set": 3}}},
                }
            ],
        }
        out = resolve(data)
        self.assertTrue(out["draw"])
        self.assertEqual(out["cycle"], {"start": 2, "length": 1})


class DeclarationOrderTests(unittest.TestCase):
    """MTR 4.4: with several players keeping the loop going, the lowest number wins; on a tie the
    first in turn order."""

    @settings(max_examples=200, deadline=None)
    @given(st.integers(2, 5), st.data())
    def test_lowest_number_first_in_turn_order_stops_the_loop(self, n_players: int, data) -> None:
        players = [f"P{i}" for i in range(n_players)]
        numbers = {p: data.draw(st.integers(0, 30)) for p in players}
        iteration = [
            {"player": p, "kind": "optional", "text": f"{p} acts", "effects": {p: {"tokens": 1}}}
            for p in players
        ]
        out = resolve({"players": players, "iteration": iteration, "declared": numbers})
        low = min(numbers.values())
        self.assertEqual(out["loop_kind"], "maintained_by_several")
        self.assertEqual(out["iterations"], low)
        self.assertEqual(out["stopped_by"], next(p for p in players if numbers[p] == low))
        self.assertEqual(out["final_state"]["P0"]["tokens"], low)


class ValidationTests(unittest.TestCase):
    def assertRefused(self, data: dict, field: str) -> None:
        with self.assertRaises(RequestError) as caught:
            loops.validate_loop_request(data)
        self.assertEqual(caught.exception.field, field, caught.exception.message)

    def test_unknown_player_in_an_action(self) -> None:
        bad = {**GOND, "iteration": [GOND["iteration"][0], {"player": "Bob", "kind": "mandatory"}]}
        self.assertRefused(bad, "iteration[1].player")

    def test_unknown_declaring_player(self) -> None:
        self.assertRefused({**GOND, "declared": {"AP": 3, "Zed": "accept"}}, "declared.Zed")

    def test_count_above_a_billion_billion(self) -> None:
        self.assertRefused({**GOND, "declared": {"AP": 10**18 + 1}}, "declared.AP")

    def test_negative_count(self) -> None:
        self.assertRefused({**GOND, "declared": {"AP": -1}}, "declared.AP")
        self.assertRefused({**GOND, "state": {"AP": {"library": -2}}}, "state.AP.library")

    def test_true_is_not_a_number(self) -> None:
        self.assertRefused({**GOND, "declared": {"AP": True}}, "declared.AP")

    def test_unless_without_its_player(self) -> None:
        self.assertRefused(
            {
                "players": ["AP", "NAP"],
                "iteration": [{"player": "AP", "kind": "unless", "text": "x"}],
            },
            "iteration[0].unless_player",
        )

    def test_missing_iteration_and_players(self) -> None:
        self.assertRefused({"players": ["AP", "NAP"]}, "iteration")
        self.assertRefused({"iteration": GOND["iteration"]}, "players")

    def test_a_loop_that_draws_needs_the_library_size(self) -> None:
        data = {
            "players": ["AP", "NAP"],
            "iteration": [{"player": "AP", "kind": "optional", "effects": {"AP": {"library": -1}}}],
        }
        self.assertRefused(data, "state.AP.library")

    def test_the_maintainer_must_name_a_number(self) -> None:
        self.assertRefused({**GOND, "declared": {"NAP": 4}}, "declared.AP")

    def test_a_higher_number_does_not_shorten(self) -> None:
        self.assertRefused({**GOND, "declared": {"AP": 4, "NAP": 5}}, "declared.NAP")

    def test_unknown_kind_and_effect_form(self) -> None:
        self.assertRefused(
            {"players": ["AP", "NAP"], "iteration": [{"player": "AP", "kind": "sometimes"}]},
            "iteration[0].kind",
        )
        data = {
            "players": ["AP", "NAP"],
            "iteration": [
                {"player": "AP", "kind": "optional", "effects": {"AP": {"life": {"square": 1}}}}
            ],
        }
        self.assertRefused(data, "iteration[0].effects.AP.life")


# ---------------------------------------------------------------------- the loop played out naively


SHORT = "(short of tokens)"


def naive_play(data: dict, limit: int, extra: int = 0) -> tuple[int, int | None, set[str], dict]:
    """Perform ``limit`` iterations and ``extra`` actions of one more, one action at a time:
    (iterations, action index, losers, state). An action that would take tokens below 0 can't be
    taken: the loop stops before it, and the answer is (whole iterations done, that action's index,
    {SHORT}, the state before it)."""
    players = data["players"]
    state = {p: {"life": 20, "poison": 0, **data["state"].get(p, {})} for p in players}

    def losers() -> set[str]:
        return {
            p
            for p in players
            if state[p]["life"] <= 0 or state[p]["poison"] >= 10 or state[p].get("library", 0) < 0
        }

    if losers():
        return 0, None, losers(), state
    for n in range(1, limit + 2):
        for j, action in enumerate(data["iteration"] if n <= limit else data["iteration"][:extra]):
            before = {p: dict(c) for p, c in state.items()}
            for target, counters in action.get("effects", {}).items():
                for counter, change in counters.items():
                    value = state[target].get(counter, 0)
                    if isinstance(change, int):
                        value += change
                    elif "times" in change:
                        value *= change["times"]
                    else:
                        value += change["factor"] * before[change["per"]["player"]].get(
                            change["per"]["counter"], 0
                        )
                    state[target][counter] = max(value, 0) if counter == "poison" else value
            if any(state[p].get("tokens", 0) < 0 for p in players):
                return n - 1, j, {SHORT}, before
            if losers():
                return n, j, losers(), state
    return limit, None, set(), state


def clamp(state: dict) -> dict:
    return {
        p: {k: max(v, 0) if k == "library" else v for k, v in c.items()} for p, c in state.items()
    }


counters = st.sampled_from(["life", "poison", "library", "tokens"])


@st.composite
def linear_loops(draw, nonlinear: bool = False) -> tuple[dict, int]:
    n_players = draw(st.integers(2, 4))
    players = [f"P{i}" for i in range(n_players)]
    state = {
        p: {
            "life": draw(st.integers(1, 15)),
            "poison": draw(st.integers(0, 9)),
            "library": draw(st.integers(0, 6)),
            "tokens": draw(st.integers(0, 3)),
        }
        for p in players
    }
    actions = []
    for i in range(draw(st.integers(1, 4))):
        effects: dict = {}
        for _ in range(draw(st.integers(0, 3))):
            target = draw(st.sampled_from(players))
            counter = draw(counters)
            change: object = draw(st.integers(-3, 3))
            if nonlinear and counter in ("tokens", "life") and draw(st.booleans()):
                change = draw(
                    st.one_of(
                        st.builds(lambda k: {"times": k}, st.integers(0, 3)),
                        st.builds(
                            lambda p, f: {"per": {"player": p, "counter": "tokens"}, "factor": f},
                            st.sampled_from(players),
                            st.integers(-2, 2),
                        ),
                    )
                )
            effects.setdefault(target, {})[counter] = change
        actions.append(
            {
                "player": players[0],
                "kind": "optional" if i == 0 else "mandatory",
                "text": f"action {i}",
                "effects": effects,
            }
        )
    limit = draw(st.integers(1, 40))
    extra = draw(st.integers(0, len(actions) - 1))
    declared = {"iterations": limit, "after_action": extra - 1} if extra else limit
    return (
        {
            "players": players,
            "state": state,
            "iteration": actions,
            "declared": {players[0]: declared},
        },
        limit,
        extra,
    )


class ArithmeticAgreesWithPlayingOutTests(unittest.TestCase):
    def check(self, data: dict, limit: int, extra: int) -> None:
        out = resolve(data, max_steps=10_000)
        n, j, losers, state = naive_play(data, limit, extra)
        if losers == {SHORT}:
            self.assertIsNone(out["game_over"])
            self.assertEqual((out["iterations"], out["then_actions"]), (n, j))
            self.assertEqual(out["stop_kind"], "cannot_continue")
        elif losers:
            remaining = [p for p in data["players"] if p not in losers]
            self.assertEqual(out["iterations"], n)
            if len(remaining) >= 2:
                self.assertIsNone(out["game_over"])
                self.assertEqual(set(out["eliminated"]), losers)
            else:
                self.assertEqual(set(out["game_over"]["losers"]), losers)
                self.assertEqual(out["game_over"]["after_iteration"], n)
                self.assertEqual(out["game_over"]["after_action"], j)
                self.assertEqual(out["game_over"]["draw"], not remaining)
        else:
            self.assertIsNone(out["game_over"])
            self.assertEqual((out["iterations"], out["then_actions"]), (limit, extra))
        for p, counters_ in clamp(state).items():
            for k, v in counters_.items():
                self.assertEqual(out["final_state"][p].get(k, 0), v, (p, k))

    @settings(max_examples=300, deadline=None)
    @given(linear_loops())
    def test_linear_loops(self, case: tuple[dict, int, int]) -> None:
        self.check(*case)

    @settings(max_examples=150, deadline=None)
    @given(linear_loops(nonlinear=True))
    def test_non_linear_loops(self, case: tuple[dict, int, int]) -> None:
        self.check(*case)

    @settings(max_examples=200, deadline=None)
    @given(linear_loops(), st.integers(2, 10**18))
    def test_a_huge_count_scales_the_small_answer(
        self, case: tuple[dict, int, int], big: int
    ) -> None:
        data, _, _ = case
        data = {**data, "declared": {data["players"][0]: big}}
        request = loops.validate_loop_request(data)
        assume(all(ch.arithmetic for a in request.iteration for ch in a.changes))
        loss = loops.first_loss_arithmetic(request, big)
        unlimited = loops.first_loss_arithmetic(request, None)
        crossed = [
            n
            for t in loops.thresholds_by_player(request).values()
            for n in t.values()
            if n is not None
        ]
        self.assertEqual(min(crossed, default=None), unlimited.iteration if unlimited else None)
        if unlimited is None or unlimited.iteration > big:
            self.assertIsNone(loss)
        else:
            self.assertEqual(loss, unlimited)
            if unlimited.iteration <= 40:
                n, j, losers, _ = naive_play(data, unlimited.iteration)
                if losers == {SHORT}:  # the loop runs out of tokens first: no loss is reached
                    short = loops.first_shortage(request)
                    assert short is not None
                    self.assertEqual((short.iterations, short.action), (n, j))
                else:
                    self.assertEqual(
                        (n, j, losers),
                        (unlimited.iteration, unlimited.action, set(unlimited.reasons)),
                    )

    @settings(max_examples=300, deadline=None)
    @given(linear_loops(), st.booleans())
    def test_stopping_just_before_or_at_the_fatal_action(
        self, case: tuple[dict, int, int], at: bool
    ) -> None:
        data, _, _ = case
        request = loops.validate_loop_request({**data, "declared": None})
        if not all(ch.arithmetic for a in request.iteration for ch in a.changes):
            return  # removing poison counters: played out (test_linear_loops)
        horizon = loops.first_loss_arithmetic(request, None)
        if horizon is None or horizon.iteration < 1:
            return
        short = loops.first_shortage(request)
        if short is not None and (short.iterations, short.action) <= (
            horizon.iteration - 1,
            horizon.action,
        ):
            return  # the loop runs out of tokens before the fatal action (test_linear_loops)
        # actions of the partial iteration: up to the fatal one, or one short
        extra = horizon.action + (1 if at else 0)
        if not 0 < extra < len(data["iteration"]):
            return
        declared = {"iterations": horizon.iteration - 1, "after_action": extra - 1}
        data = {**data, "declared": {data["players"][0]: declared}}
        self.check(data, horizon.iteration - 1, extra)
        out = resolve(data)
        self.assertEqual(out["iterations"] == horizon.iteration, at)


class SecondEnginesAuditTests(unittest.TestCase):
    """What the second audit of the engines found, each against the rule it quotes."""

    def test_an_amount_read_off_a_negative_counter_is_zero(self) -> None:
        # CR 107.1b: "You can't ... deal negative damage, gain negative life ... If a calculation
        # that would determine the result of an effect yields a negative number, zero is used"
        gain = {
            "players": ["A", "B"],
            "state": {"A": {"x": -1}, "B": {"life": 3}},
            "iteration": [
                {
                    "player": "A",
                    "kind": "mandatory",
                    "text": "B gains life equal to X",
                    "effects": {
                        "B": {"life": {"per": {"player": "A", "counter": "x"}, "factor": 1}}
                    },
                }
            ],
        }
        out = resolve(gain)
        self.assertTrue(out["draw"], out["explanation"])  # nothing changes: CR 729.4
        self.assertFalse(out["game_over"] and not out["draw"])

    def test_a_poison_limit_other_than_ten_is_not_cited_as_the_ten_counter_rules(self) -> None:
        data = {
            "players": ["A", "B"],
            "iteration": [
                {
                    "player": "A",
                    "kind": "mandatory",
                    "text": "B gets poison",
                    "effects": {"B": {"poison": 1}},
                }
            ],
        }
        ten = resolve(data)["citations"]
        self.assertIn(cite.SBA_POISON, ten)
        for limit, expected in ((15, cite.SBA_TEAM_POISON), (12, cite.CARD_OVERRIDES_RULES)):
            refs = resolve({**data, "poison_threshold": limit})["citations"]
            self.assertNotIn(cite.SBA_POISON, refs)
            self.assertNotIn(cite.LOSE_POISON, refs)
            self.assertIn(expected, refs)

    def test_a_library_or_poison_is_never_set_below_zero(self) -> None:
        for counter in ("library", "poison", "tokens"):
            data = {
                "players": ["A", "B"],
                "state": {"A": {"library": 5}},
                "iteration": [
                    {
                        "player": "A",
                        "kind": "optional",
                        "text": "set",
                        "effects": {"A": {counter: {"set": -1}}},
                    }
                ],
                "declared": {"A": 3},
            }
            with self.assertRaises(RequestError) as raised:
                loops.validate_loop_request(data)
            self.assertEqual(raised.exception.field, f"iteration[0].effects.A.{counter}.set")

    def test_no_proposal_to_accept_in_a_loop_of_mandatory_actions(self) -> None:
        # MTR 4.4: a number of iterations, or no action
        data = {
            "players": ["A", "B"],
            "breakers": [{"player": "B", "text": "cast Stifle"}],
            "iteration": [{"player": "A", "kind": "mandatory", "text": "t"}],
            "declared": {"B": "accept"},
        }
        with self.assertRaises(RequestError) as raised:
            resolve(data)
        self.assertEqual(raised.exception.field, "declared.B")
        self.assertTrue(resolve({**data, "declared": {"B": "no_action"}})["draw"])

    def test_a_loop_of_mandatory_actions_that_can_never_end_the_game_is_a_draw(self) -> None:
        # CR 729.4: "If a loop contains only mandatory actions, the game is a draw"; CR 104.4b
        # needs no repeated state: a life total doubled forever is such a loop
        def mandatory(effects: dict, state: dict | None = None) -> dict:
            return resolve(
                {
                    "players": ["A", "B"],
                    "state": state or {},
                    "iteration": [
                        {"player": "A", "kind": "mandatory", "text": "t", "effects": effects}
                    ],
                }
            )

        for effects, state in (
            ({"A": {"life": {"times": 2}}}, None),
            ({"A": {"life": {"times": 1}, "storm": 1}}, None),
            ({"A": {"life": {"set": 20}, "storm": 1}}, None),
            ({"A": {"poison": -1, "life": 1}}, {"A": {"poison": 3}}),
        ):
            out = mandatory(effects, state)
            self.assertTrue(out["draw"] and not out["gave_up"], (effects, out["explanation"]))
            self.assertIn(cite.DRAW_MANDATORY_LOOP, out["citations"])
        # a loop that can end the game is played to its end, never called a draw
        out = mandatory({"A": {"life": {"times": 2}}, "B": {"life": -1}})
        self.assertEqual(out["game_over"]["winners"], ["A"])
        # and one the test cannot clear stays the judge's: poison multiplied
        out = mandatory({"B": {"poison": {"times": 2}}, "A": {"x": 1}}, {"B": {"poison": 1}})
        self.assertFalse(out["draw"])

    def test_a_loop_that_draws_more_cards_each_time_is_never_called_a_draw(self) -> None:
        # the review: cards drawn that grow are draws from the library; CR 704.5b, not 104.4b
        data = {
            "players": ["A", "B"],
            "state": {"A": {"library": 30, "n": 1}},
            "iteration": [
                {
                    "player": "A",
                    "kind": "mandatory",
                    "text": "double life, n += 1, draw n",
                    "effects": {
                        "A": {
                            "life": {"times": 2},
                            "n": 1,
                            "cards_drawn": {"per": {"player": "A", "counter": "n"}, "factor": 1},
                        }
                    },
                }
            ],
        }
        self.assertFalse(resolve(data)["draw"])
