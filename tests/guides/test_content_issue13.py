"""Issue 13's corrections to the drawing-and-mulligans and shortcut-disputes guides, each checked
against the words of the imported documents (IPG 2.1, 2.3, 2.5, the JAR's opening, CR 103.5c,
103.8c, 805.3a, 810.6, MTR 4.8), and reached by walking the guides through the API as a
judge would."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from guides import loader
from rulesref import references
from tests.guides.test_content import all_paths

pytestmark = pytest.mark.django_db


def text_of(ref: str) -> str:
    return " ".join(references.resolve(ref).text.split())


def node(slug: str, node_id: str):
    return loader.load_all()[slug].nodes[node_id]


def walk(slug: str, labels: list[str]) -> dict:
    body = (
        APIClient().post(f"/api/v1/guides/{slug}/walk", {"answers": labels}, format="json").json()
    )
    assert "error" not in body, body
    return body


class DrawingTests:
    def test_too_few_after_mulligans_is_a_full_backup_or_nothing_not_a_draw(self):
        ipg25 = text_of("ipg@2021-01-06:2.5")
        assert "a full backup may be considered or the game state may be left as is" in ipg25
        assert "too few cards is a Game Play Error - Game Rule Violation" in text_of(
            "ipg@2021-01-06:2.4"
        )
        end = walk(
            "drawing-and-mulligans",
            [
                "Competitive",
                "During the game",
                "Too few cards after mulligans (e.g. put too many on the bottom), found during "
                "the game",
            ],
        )
        assert end["node_id"] == "grv-too-few-mulligan"
        fix = end["node"]["fix"]
        assert (
            "a full backup may be considered" in fix
            and "left as is" in fix
            and "does not draw" in fix
        )
        # a missed draw keeps IPG 2.5's partial fix
        assert "If a player failed to draw cards" in ipg25
        assert "draws the missing cards" in node("drawing-and-mulligans", "grv-too-few").fix

    def test_the_hidden_card_simple_backup_is_optional(self):
        assert "a simple backup to the point just after the error may be performed" in text_of(
            "ipg@2021-01-06:2.3"
        )
        fix = node("drawing-and-mulligans", "hce-excess-unknown").fix
        assert "may be performed" in fix and "first perform" not in fix

    def test_no_ipg_mulligan_fix_is_offered_at_regular(self):
        assert "don't apply at Regular REL" in text_of("jar@2019-01-21:Introduction")
        g = loader.load_all()["drawing-and-mulligans"]
        regular = {
            end
            for answers, end in all_paths(g)
            if g.nodes[g.start].answers[answers[0]].label == "Regular"
        }
        assert "jar-mulligan-order" in regular
        for node_id in regular:
            fix = g.nodes[node_id].fix.casefold()
            assert "additional mulligan" not in fix and "one more mulligan" not in fix, node_id

    def test_multiplayer_first_draw_and_mulligans_follow_the_cr(self):
        assert "no player skips the draw step of their first turn" in text_of(
            "cr@2025-02-07:103.8c"
        )
        assert "first mulligan a player takes doesn't count" in text_of(
            "cr@2025-02-07:103.5c"
        ).replace("’", "'")
        assert "all mulligans are taken at the same time" in text_of("cr@2025-02-07:805.3a")
        assert "skips the draw step of its first turn" in text_of("cr@2025-02-07:810.6")
        for rel in ("Competitive", "Regular"):
            end = walk(
                "drawing-and-mulligans",
                [
                    rel,
                    "During the game",
                    "Drew on their first turn while playing first",
                    "Another multiplayer game (not Two-Headed Giant)",
                ],
            )
            assert end["node_id"] == "multiplayer-first-draw"
            assert end["node"]["penalty"]["competitive"].startswith("No penalty")
            two_hg = walk(
                "drawing-and-mulligans",
                [
                    rel,
                    "During the game",
                    "Drew on their first turn while playing first",
                    "Two players, or Two-Headed Giant (they are on the team that plays first)",
                ],
            )
            assert not two_hg["finished"]  # still an extra draw: on to who knew the card
        mulligans = node("drawing-and-mulligans", "multiplayer-mulligans")
        assert {"cr@2025-02-07:103.5c", "cr@2025-02-07:805.3a", "cr@2025-02-07:810.6"} <= set(
            mulligans.refs
        )
        assert "first mulligan a player takes is free" in mulligans.ruling


class ShortcutTests:
    def test_target_opponent_is_exempt_from_announcing_before_passing_priority(self):
        assert "other than 'target opponent'" in text_of("ipg@2021-01-06:2.1").replace(
            "’", "'"
        ).replace("‘", "'")
        start = [
            "Said “go” or “your turn”, or passed with an empty stack in the second main phase",
            "An end of turn triggered ability is involved",
            "It targets only “target opponent”",
        ]
        assert (
            walk("shortcut-disputes", [*start, "Yes, or they have only passed priority so far"])[
                "node_id"
            ]
            == "go-target-opponent-remembered"
        )
        assert (
            walk("shortcut-disputes", [*start, "No, they went on without it", "No"])["node_id"]
            == "go-missed-trigger"
        )

    def test_both_missing_missed_trigger_remedies_are_given(self):
        remedy = text_of("ipg@2021-01-06:2.1")
        assert "delayed triggered ability that undoes a zone change" in remedy
        assert "created an effect whose duration has already expired" in remedy
        for node_id in ("go-missed-trigger", "go-missed-trigger-detrimental"):
            fix = node("shortcut-disputes", node_id).fix
            assert (
                "delayed triggered ability that undoes a zone change" in fix
                and "duration has already expired" in fix
            )
            assert "next phase" in fix

    def test_missed_triggers_outside_the_end_of_turn(self):
        forgot = "Forgot a triggered ability (beginning of combat, upkeep, end step …)"
        visible = (
            "It changes the visible game state or asks for a choice on resolution (a beginning of "
            "combat trigger, a non-targeting end step trigger, a “target opponent” one)"
        )
        went_on = (
            "No: they went on past it (e.g. declared attackers without the beginning of combat "
            "trigger)"
        )
        end = walk(
            "shortcut-disputes",
            [forgot, visible, went_on, "Yes, usually detrimental and they own the card"],
        )
        assert (
            end["node_id"] == "go-missed-trigger-detrimental"
            and end["node"]["penalty"]["competitive"] == "Warning"
        )
        never = walk(
            "shortcut-disputes",
            [
                "Said “go” or “your turn”, or passed with an empty stack in the second main phase",
                "An end of turn triggered ability is involved",
                "No, it does not target",
                "No: the turn moved on and it was never performed",
                "No",
            ],
        )
        assert never["node_id"] == "go-missed-trigger"
        still = walk(
            "shortcut-disputes",
            [
                forgot,
                visible,
                "Yes, or they have only passed priority, cast an instant or activated an ability",
            ],
        )
        assert still["node_id"] == "mt-remembered"

    def test_reversing_a_decision_follows_mtr_4_8(self):
        mtr48 = text_of("mtr@2019-06-06:4.8")
        assert (
            "may allow that player to change their mind" in mtr48
            and "should not allow the decision to be changed" in mtr48
        )
        wait = "Wants to take back an action or change a decision (“no blocks — wait”)"
        assert (
            walk(
                "shortcut-disputes",
                [wait, "No: they changed their mind at once, before anything could be learned"],
            )["node_id"]
            == "reverse-allowed"
        )
        assert (
            walk("shortcut-disputes", [wait, "Yes, or you cannot be sure"])["node_id"]
            == "reverse-refused"
        )
