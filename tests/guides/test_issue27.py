"""Issue 27, "Every penalty right": each wrong answer of the guides walked as a judge answers them
(through the API or the guide service), against the words of the imported IPG 2021-01-06, MTR
2019-06-06, JAR 2019-01-21 and CR 2025-02-07. (The property over every conclusion is
tests/guides/test_penalty_property.py.)"""

from __future__ import annotations

import uuid

import pytest
from rest_framework.test import APIClient

from guides import loader
from rulesref import references

pytestmark = pytest.mark.django_db

COMPETITIVE_TE = (
    "A tournament rule: time, decks, decklists, advice or notes, the draft, shuffling, "
    "communication"
)
SEARCHED = "They searched their library and did not shuffle it when told to"
FOUND_SHUFFLED_IN = "Cards found by a search were shuffled into the library"
LOOP_SAME = (
    "Yes, every iteration is the same (any choice that keeps it going is the same choice each time)"
)
LOOP_NAMED = "Yes, they can name a number and the resulting state"
LOOP_ONE_TURN = "No, it happens within one turn"
NOTHING_ENDS = "No, nothing in it ends the game by itself"


def text_of(ref: str) -> str:
    return " ".join(references.resolve(ref).text.split())


def walk(slug: str, answers: list) -> dict:
    body = (
        APIClient().post(f"/api/v1/guides/{slug}/walk", {"answers": answers}, format="json").json()
    )
    assert "error" not in body, body
    return body


def shown(body: dict) -> dict[str, list[str]]:
    return {item["name"]: item["lines"] for item in body["node"].get("shown_text", [])}


def cited(body: dict) -> set[str]:
    return {c["label"] for c in body["node"]["citations"]}


# --- 1. Insufficient Shuffling: upgraded only after a Warning for the same infraction -------------


class InsufficientShufflingRepeatTests:
    def test_the_walk_asks_about_no_other_tournament_error_and_gives_the_warning_with_its_repeat_line(  # noqa: E501
        self,
    ):
        assert "already received a Warning for an offense in the same category" in text_of(
            "ipg@2021-01-06:3"
        )
        body = walk("shuffle-infractions", ["Competitive", 53, SEARCHED, "Yes"])
        assert body["node_id"] == "insufficient-shuffling" and "prior-warning" not in body["path"]
        assert body["node"]["penalty"]["competitive"].startswith("Warning")
        assert any(
            "second Warning for Insufficient Shuffling" in u and "(IPG 3)" in u
            for u in body["node"]["upgrades"]
        )
        assert "insufficient-shuffling-repeat" not in loader.load_all()["shuffle-infractions"].nodes
        # No "Penalty:" line of the computation beside the table: the call log's highlighted row is
        # the only count.
        assert "penalty" not in shown(body) and "Warning" not in body["node"]["ruling"]

    def test_the_call_log_counts_the_same_infraction_only(self, people):
        from calllog import recording, services

        event = services.open_event(
            people["head_judge"], name="RCQ", date="2026-11-22", rel="competitive"
        )
        judge = people["head_judge"]

        def preview(player: str):
            node = loader.load_all()["shuffle-infractions"].nodes["insufficient-shuffling"]
            return services.preview_penalty(
                judge,
                event,
                player=player,
                infraction=node.infraction,
                category=node.category,
                penalty=node.penalty.competitive,
            )

        def record(body: dict) -> None:
            recording.record_call(
                judge, event, {"client_id": str(uuid.uuid4()), "table": "4", "round": 2, **body}
            )

        # A Slow Play Warning earlier today: Insufficient Shuffling is still a Warning.
        record({"infraction": "3.3", "players": ["Ana Costa", "Ben Ito"]})
        first = preview("Ana Costa")
        assert first.penalty.startswith("Warning") and not first.upgraded
        # An Insufficient Shuffling Warning from this guide earlier today: the next one is a Game
        # Loss, and the guide's conclusion says nothing that contradicts the upgraded row.
        record(
            {
                "guide": "shuffle-infractions",
                "answers": ["Competitive", 53, SEARCHED, "Yes"],
                "players": ["Ben Ito", "Ana Costa"],
            }
        )
        again = preview("Ben Ito")
        assert (
            again.penalty.startswith("Game Loss")
            and again.upgraded
            and "Insufficient Shuffling" in again.reason
        )

    def test_the_shuffle_check_page_asks_about_insufficient_shuffling_only(self, client):
        html = client.get("/check/shuffle/").content.decode()
        assert "already received a Warning for Insufficient Shuffling today" in html
        assert "Tournament Error Warning" not in html


# --- 2. Outside Assistance: the player's own notes made before the match --------------------------


class OutsideAssistanceTests:
    def test_own_notes_read_during_a_game_are_the_downgraded_game_loss(self):
        ipg = text_of("ipg@2021-01-06:3.2")
        assert "would have access to between games, the penalty is a Game Loss" in ipg
        from rulesref.models import Rule

        example_a = Rule.objects.get(
            version__document__slug="ipg", version__is_current=True, number="3.2"
        ).examples[0]
        assert (
            example_a.startswith("A.")
            and "references play notes that were created before the tournament" in example_a
        )
        start = [
            COMPETITIVE_TE,
            "Advice or notes: asked for or given play advice, used notes during a game",
        ]
        own = walk(
            "infraction-finder",
            [
                *start,
                "During a game, the player read their own notes made before the match (in their "
                "possession since it began)",
            ],
        )
        assert (
            own["node_id"] == "oa-game-loss"
            and own["node"]["penalty"]["competitive"] == "Game Loss"
        )
        assert "example A" in own["node"]["ruling"]
        advice = walk(
            "infraction-finder",
            [
                *start,
                "Play advice or private information sought, given or received once the players "
                "sat for their match",
            ],
        )
        assert (
            advice["node_id"] == "oa-match-loss"
            and advice["node"]["penalty"]["competitive"] == "Match Loss"
        )
        assert "notes made before the match during a game" not in advice["node"]["ruling"]
        handed = walk(
            "infraction-finder",
            [*start, "During a game, the player read notes someone gave them during the match"],
        )
        assert handed["node_id"] == "oa-match-loss"


# --- 3. A search whose found cards went into the shuffle: IPG 2.5's order -------------------------


class SearchFixTests:
    def test_competitive_the_simple_backup_first_the_zone_fix_only_for_known_cards(self):
        ipg = text_of("ipg@2021-01-06:2.5")
        assert (
            "the exact object is still known to all players" in ipg
            and "only minor disruption" in ipg
        )
        body = walk("shuffle-infractions", ["Competitive", 53, FOUND_SHUFFLED_IN, "Yes"])
        assert body["node_id"] == "game-rule-violation"
        fix = body["node"]["fix"]
        assert (
            fix.index("simple backup")
            < fix.index("known to all players")
            < fix.index("full backup")
        )
        assert (
            "minor disruption" in fix
            and "Head Judge" in fix
            and "Take the found cards back out" not in fix
        )

    def test_regular_the_jars_in_game_error(self):
        jar = text_of("jar@2019-01-21:1.4")
        assert "leave the game as it is after fixing anything that is currently illegal" in jar
        body = walk("shuffle-infractions", ["Regular", 53, FOUND_SHUFFLED_IN, "Yes", "No"])
        assert body["node_id"] == "regular-search-error"
        assert (
            "leave the game as it is" in body["node"]["fix"]
            and "Take the found cards back out" not in body["node"]["fix"]
        )
        assert any("in-game error not mentioned above" in label for label in cited(body))


# --- 4, 11, 12, 13, 16e. The loop guide -----------------------------------------------------------


class LoopTests:
    def restart(self, intent: str) -> dict:
        return walk(
            "loop-resolution",
            [
                LOOP_SAME,
                LOOP_NAMED,
                LOOP_ONE_TURN,
                "Both players",
                "No, each needs the other to keep it going and something changes",
                NOTHING_ENDS,
                5,
                3,
                "Yes, it is being started again",
                intent,
            ],
        )

    def test_stalling_waits_for_the_head_judge_before_anyone_is_removed(self):
        assert "recommended that only the Head Judge issue penalties of this nature" in text_of(
            "ipg@2021-01-06:1.2"
        )
        body = self.restart("Yes, it looks deliberate")
        assert body["node_id"] == "stalling"
        fix = body["node"]["fix"]
        assert (
            "remove the player" not in fix and "head judge" in fix.casefold() and "IPG 1.2" in fix
        )
        assert "IPG 1.2" in cited(body)

    def test_a_refused_restart_binds_whoever_restarts_it(self):
        body = self.restart("No")
        assert body["node_id"] == "restart-refused"
        words = body["node"]["ruling"] + " ".join(
            line for lines in shown(body).values() for line in lines
        )
        assert (
            "Active player must" not in words and "whichever player is starting it again" in words
        )
        assert body["node"]["penalty"]["competitive"].startswith("No penalty")

    def test_a_loop_sustained_by_the_same_choice_is_shortcut_and_a_decision_tree_is_not(self):
        mtr = text_of("mtr@2019-06-06:4.4")
        assert (
            "Some loops are sustained by choices rather than actions" in mtr
            and "decision trees" in mtr
        )
        question = walk("loop-resolution", [])["node"]
        labels = [a["label"] for a in question["answers"]]
        assert "choices along the way" not in " ".join(labels) and "decision tree" in labels[1]
        assert (
            "same choice each time" in labels[0]
            and "sustained by the same choice" in question["help"]
        )
        chosen = walk(
            "loop-resolution",
            [
                LOOP_SAME,
                LOOP_NAMED,
                LOOP_ONE_TURN,
                "Only the active player",
                NOTHING_ENDS,
                3,
                "Accepts",
                "No",
            ],
        )
        assert chosen["node_id"] == "shortcut"

    def test_slow_play_in_a_loop_has_the_mtrs_one_answer_in_both_guides(self):
        loop = walk("loop-resolution", [LOOP_SAME, "No, they keep going without being able to"])
        assert loop["node_id"] == "slow-play"
        finder = walk(
            "infraction-finder",
            [
                COMPETITIVE_TE,
                "Too slow",
                "No",
                "A loop continued without an exact number of iterations and the resulting game "
                "state",
            ],
        )
        assert finder["node_id"] == "sp-loop"
        answer = (
            "The player names an exact number of iterations and the resulting game state, and the "
            "loop is shortcut through that number; a non-deterministic loop, which cannot be "
            "shortcut, is played out and stops as soon as a previous game state is reached again "
            "(MTR 4.4)."
        )
        assert answer in loop["node"]["fix"] and answer in finder["node"]["fix"]
        assert "stop the loop and play on" not in loop["node"]["fix"]
        assert "must stop if at any point during the process a previous game state" in text_of(
            "mtr@2019-06-06:4.4"
        )

    def test_a_mandatory_loop_nobody_can_stop_has_no_declarations(self):
        body = walk(
            "loop-resolution",
            [
                LOOP_SAME,
                LOOP_NAMED,
                LOOP_ONE_TURN,
                "Nobody: every action in the loop is mandatory",
                "No",
                "No",
                NOTHING_ENDS,
            ],
        )
        assert body["node_id"] == "draw" and "restarted" not in body["path"]
        assert (
            "Declared" not in body["result"]["explanation"]
            and "accepts" not in body["result"]["explanation"]
        )

    def test_a_mandatory_loop_broken_after_one_iteration_is_performed_once(self):
        body = walk(
            "loop-resolution",
            [
                LOOP_SAME,
                LOOP_NAMED,
                LOOP_ONE_TURN,
                "Nobody: every action in the loop is mandatory",
                "No",
                "Yes, the active player",
                NOTHING_ENDS,
                "Yes, after a number of iterations",
                1,
                "No",
            ],
        )
        assert body["node_id"] == "shortcut" and body["result"]["iterations"] == 1
        explanation = " ".join(shown(body)["explanation"])
        assert "1 times" not in explanation and "performed once" in explanation
        # the non-active player cannot stop it: no action, not "accepts"
        assert "accepts" not in explanation


# --- 5, 16a. Improperly Determining a Winner ------------------------------------------------------


class ImproperlyDeterminingAWinnerTests:
    def test_it_cites_the_mtrs_rule_against_a_random_result_and_reports_no_other_result(self):
        assert "may not be randomly or arbitrarily determined" in text_of("mtr@2019-06-06:5.2")
        body = walk(
            "infraction-finder",
            [
                "Behaviour: language, harassment, threats, bribes or bets, deciding a winner "
                "outside the game, theft",
                "Deciding a game or match by a method outside the game (a die, a coin, comparing "
                "cards)",
                "No",
            ],
        )
        assert body["node_id"] == "idw" and body["node"]["penalty"]["competitive"] == "Match Loss"
        assert "MTR 5.2" in cited(body) and "MTR 2.4" not in cited(body)
        assert "real result" not in body["node"]["fix"]


# --- 6, 16d. The drawing guide --------------------------------------------------------------------


class DrawingTests:
    def test_the_smallest_set_is_ipg_2_3s_and_cr_121_2_is_not_cited(self):
        assert "Always operate on the smallest set possible" in text_of("ipg@2021-01-06:2.3")
        assert "smallest" not in text_of("ipg@2021-01-06:1.5")
        body = walk(
            "drawing-and-mulligans",
            ["Competitive", "During the game", "Has more cards in hand than can be accounted for"],
        )
        assert body["node_id"] == "hce-excess-unknown"
        assert (
            "smallest set possible" in body["node"]["fix"]
            and "(IPG 1.5)" not in body["node"]["fix"]
        )
        assert "CR 121.2" not in cited(body)

    def test_a_legal_first_draw_has_nothing_to_do_with_the_stack(self):
        body = walk(
            "drawing-and-mulligans",
            [
                "Competitive",
                "During the game",
                "Drew on their first turn while playing first",
                "Another multiplayer game (not Two-Headed Giant)",
            ],
        )
        assert body["node_id"] == "multiplayer-first-draw" and "stack" not in body["node"]["fix"]


# --- 7. JAR citations by situation, never the empty "Common Issues" -------------------------------


class JarCitationTests:
    def test_no_guide_cites_the_heading_without_text(self):
        assert not text_of("jar@2019-01-21:Common Issues").strip()
        for guide in loader.load_all().values():
            for node in guide.nodes.values():
                assert "jar@2019-01-21:Common Issues" not in node.refs, (guide.slug, node.id)

    def test_a_card_seen_in_a_library_cites_that_situation(self):
        opponents = "The opponent's deck (they were shuffling it before the game or after a search)"
        seen = "A card face was seen while shuffling and they did not shuffle again"
        for rel, end in (
            ("Competitive", "looking-at-extra-cards"),
            ("Regular", "regular-card-seen"),
        ):
            body = walk("shuffle-infractions", [rel, 53, seen, opponents])
            assert body["node_id"] == end
            assert any("sees a card in a library" in label for label in cited(body)), cited(body)


# --- 8. The request for priority nullified --------------------------------------------------------


class PriorityRequestTests:
    def test_only_the_mtr_is_cited_for_a_request_nullified(self):
        assert "the next player in turn order receives priority" in text_of("cr@2025-02-07:117.3d")
        body = walk(
            "shortcut-disputes", ["Asked for priority (“wait”, “in response”) and then did nothing"]
        )
        assert body["node_id"] == "request-priority-nothing"
        assert cited(body) == {"MTR 4.2"}


# --- 10, 14, 16b, 16c, 16g. The shuffle guide's words ---------------------------------------------


class ShuffleWordsTests:
    def test_mash_and_overhand_shuffles_get_no_figure_that_rests_on_a_convention(self):
        for method in ("Mash shuffles", "Overhand shuffles"):
            body = walk(
                "shuffle-infractions",
                [
                    "Competitive",
                    53,
                    "Their shuffle looked too short or too weak",
                    method,
                    7,
                    "No",
                    "Yes",
                ],
            )
            assert body["node_id"] == "no-infraction"
            info = " ".join(body["result"]["information"])
            assert (
                "no figure is given" in info
                and "fully predictable" not in info
                and "0.25" not in info
            )
            assert body["result"]["distance_from_random"] is None

    def test_a_riffle_figure_says_what_it_is_and_is_not(self):
        body = walk(
            "shuffle-infractions",
            [
                "Competitive",
                53,
                "Their shuffle looked too short or too weak",
                "Riffle shuffles",
                2,
                "No",
                "Yes",
            ],
        )
        info = " ".join(body["result"]["information"])
        assert (
            "total variation distance" in info
            and "does not mean a player can tell where any card is" in info
        )
        assert "fully predictable" not in info and "within 0.25" not in info

    @pytest.mark.parametrize("size", [0, 1])
    def test_a_library_of_one_card_searched_and_not_shuffled_is_no_infraction(self, size):
        body = walk("shuffle-infractions", ["Competitive", size, SEARCHED, "No"])
        assert body["node_id"] == "no-infraction"
        assert body["node"]["penalty"]["competitive"].startswith("No penalty")
        assert "No randomizing is needed" in " ".join(shown(body)["fix"])

    def test_an_investigation_shows_no_infraction_name_line(self):
        body = walk(
            "shuffle-infractions",
            [
                "Competitive",
                60,
                "The opponent saw a suspicious pattern of lands and spells",
                "No",
                "LLLLLLLLLL",
                24,
                "Yes",
            ],
        )
        assert body["node_id"] == "investigate"
        assert "infraction_name" not in shown(body)
        assert not any("No infraction" in line for lines in shown(body).values() for line in lines)

    def test_a_rules_question_is_not_told_the_deck_was_shuffled_and_presented(self):
        body = walk(
            "shuffle-infractions",
            [
                "Competitive",
                53,
                "Nothing done wrong: a question about a shuffle instruction",
                "An ability triggers whenever a library is shuffled",
            ],
        )
        assert body["node_id"] == "no-infraction"
        assert "shuffled and presented" not in " ".join(shown(body)["fix"])

    def test_the_game_rule_violation_path_asks_no_tournament_error_question_and_gives_the_third_warning_line(  # noqa: E501
        self,
    ):
        assert "the third or subsequent warning for a Game Play Error offense" in text_of(
            "ipg@2021-01-06:2"
        )
        body = walk("shuffle-infractions", ["Competitive", 53, FOUND_SHUFFLED_IN, "Yes"])
        assert body["node_id"] == "game-rule-violation" and "prior-warning" not in body["path"]
        assert any(
            "third or later Warning for Game Rule Violation" in u and "(IPG 2)" in u
            for u in body["node"]["upgrades"]
        )


# --- 16f. The go shortcut sentence only where it applies ------------------------------------------


class MissedTriggerTests:
    GO = "The “go” shortcut carries only end of turn triggers"

    def test_a_trigger_forgotten_outside_the_go_shortcut_does_not_mention_it(self):
        body = walk(
            "shortcut-disputes",
            [
                "Forgot a triggered ability (beginning of combat, upkeep, end step …)",
                "It changes the visible game state or asks for a choice on resolution (a beginning "
                "of combat trigger, a non-targeting end step trigger, a “target opponent” one)",
                "No: they went on past it (e.g. declared attackers without the beginning of "
                "combat trigger)",
                "No",
            ],
        )
        assert body["node_id"] == "missed-trigger" and self.GO not in body["node"]["ruling"]
        assert body["node"]["penalty"]["competitive"] == "No penalty"

    def test_after_a_go_it_still_does(self):
        body = walk(
            "shortcut-disputes",
            [
                "Said “go” or “your turn”, or passed with an empty stack in the second main phase",
                "An end of turn triggered ability is involved",
                "No, it does not target",
                "No: the turn moved on and it was never performed",
                "No",
            ],
        )
        assert body["node_id"] == "go-missed-trigger" and self.GO in body["node"]["ruling"]
