"""Rulings a judge reaches by answering truthfully, checked against the documents' own words (the
audit of the guides' conclusions). Each test walks a guide by its answers' labels, as a judge
does, and reads the sentence it rests on from the section the conclusion cites (resolved through
the project's references, in the documents as imported): a wrong ruling, or a ruling that cites a
section that does not say it, fails.
"""

from __future__ import annotations

import pytest

from guides import loader
from guides import services as guide_services
from guides.schema import NodeKind

pytestmark = pytest.mark.django_db

FINDER = "infraction-finder"
RELS = ("regular", "competitive", "professional")


def walk_labels(slug: str, openings: list[str]) -> dict:
    """The node the answers lead to, as the API gives it; each answer is the one label of the
    question reached that starts with the given words, as a judge picks it."""
    guide = loader.load_all()[slug]
    labels: list[str] = []
    for opening in openings:
        node = guide.nodes[guide_services.walk(slug, labels)["node_id"]]
        found = [a.label for a in node.answers if a.label.startswith(opening)]
        assert len(found) == 1, f"{slug}:{node.id}: {len(found)} answers start {opening!r}"
        labels.append(found[0])
    return guide_services.walk(slug, labels)


def cited_text(node: dict, doc: str) -> str:
    """The text of every section of `doc` the conclusion cites, as imported (one string)."""
    texts = [
        " ".join(str(c.get("text") or "").split())
        for c in node["citations"]
        if c["doc"] == doc and c.get("status") != "unresolved"
    ]
    assert texts, f"{node['id']} cites no {doc.upper()} section"
    return "\n".join(texts)


def assert_cites(node: dict, doc: str, sentence: str) -> None:
    assert " ".join(sentence.split()) in cited_text(node, doc), (
        f"{node['id']}: no cited {doc.upper()} section says {sentence!r}"
    )


def assert_no_penalty(node: dict) -> None:
    for rel in RELS:
        assert node["penalty"][rel].startswith("No penalty"), (node["id"], rel, node["penalty"])
    assert not node.get("infraction"), node["id"]


TE = "A tournament rule"
LATE = "Late: not in the seat when the round began"


class DeckProblemTests:
    def test_only_sideboard_cards_missing_is_noted_without_a_penalty(self):
        """IPG 3.5: "If sideboard cards are missing, make a note of this, but issue no penalty."
        Before the audit the only answer for it was "Another mismatch", a Deck Problem Warning."""
        body = walk_labels(
            FINDER,
            [
                TE,
                "The deck or sideboard does not match a correct decklist",
                "Only sideboard cards are missing (the main deck matches the decklist)",
            ],
        )
        assert body["finished"], body["node_id"]
        node = body["node"]
        assert_no_penalty(node)
        assert_cites(
            node,
            "ipg",
            "If sideboard cards are missing, make a note of this, but issue no penalty.",
        )


class TardinessTests:
    def test_a_delay_a_judge_permitted_and_kept_within_ten_minutes_is_not_tardiness(self):
        """IPG 3.1: a player given permission for a delay for a legitimate task "has up to 10
        minutes to perform that task before they are considered tardy ... Otherwise, no penalty
        will be applied and a time extension given". Before the audit such a player could only
        be answered "Later than that, but within 10 minutes": a Game Loss."""
        body = walk_labels(
            FINDER,
            [
                TE,
                LATE,
                "A judge gave them permission for a delay for a legitimate task",
            ],
        )
        node = body["node"]
        assert body["finished"]
        assert_no_penalty(node)
        assert_cites(
            node,
            "ipg",
            "that player has up to 10 minutes to perform that task before they are considered "
            "tardy",
        )
        assert_cites(
            node, "ipg", "Otherwise, no penalty will be applied and a time extension given"
        )
        assert "time extension" in node["fix"]

    def test_a_game_loss_before_the_match_says_what_it_does_to_sideboards_and_play_or_draw(self):
        """IPG 1.1, Game Loss: "The player receiving a Game Loss chooses whether to play or draw in
        the next game of that match ... If a Game Loss is issued before the match begins, neither
        player in that match may use sideboards (if the tournament uses them) for the first game
        they play." The Game Losses given at the start of a match (Tardiness; a Decklist Problem
        found by counting, given at the start of the next match; a Deck Problem found at pre-game
        shuffling) did not tell the judge to announce it."""
        walks = {
            "tardiness": [TE, LATE, "Later than that, but within 10 minutes"],
            "decklist": [TE, "The decklist is wrong"],
            "deck at pre-game shuffling": [
                TE,
                "The deck or sideboard does not match a correct decklist",
                "Found while the deck was presented for pre-game shuffling",
            ],
        }
        for what, openings in walks.items():
            node = walk_labels(FINDER, openings)["node"]
            assert node["penalty"]["competitive"] == "Game Loss", (what, node["id"])
            assert "sideboard for the first game" in node["fix"], what
            assert "play or draw" in node["fix"], what
            assert_cites(
                node,
                "ipg",
                "If a Game Loss is issued before the match begins, neither player in that match "
                "may use sideboards",
            )
            assert_cites(node, "ipg", "chooses whether to play or draw in the next game")

    def test_an_early_round_is_not_tardiness_before_the_previous_rounds_scheduled_end(self):
        """IPG 3.1: "If a round begins before the previous round would have ended (due to all
        players finishing early), tardiness does not apply until the scheduled end of the previous
        round." """
        body = walk_labels(
            FINDER,
            [
                TE,
                LATE,
                "The round began early (every match of the previous round finished early)",
            ],
        )
        assert body["finished"]
        assert_no_penalty(body["node"])
        assert_cites(
            body["node"],
            "ipg",
            "tardiness does not apply until the scheduled end of the previous round",
        )


class OutsideAssistanceTests:
    def test_notes_made_during_a_draft_are_outside_assistance(self):
        """IPG 3.2: "These criteria also apply to any deck construction and draft portions of a
        limited tournament. Additionally, no notes of any kind may be made during a draft." Before
        the audit no answer under "Advice or notes" fitted a draft, and the only draft answer of
        the finder was Limited Procedure Violation (a Warning)."""
        body = walk_labels(FINDER, [TE, "Advice or notes", "During a draft or deck construction"])
        node = body["node"]
        assert body["finished"] and node["infraction"] == "OA", node["id"]
        assert node["penalty"]["competitive"] == node["penalty"]["professional"] == "Match Loss"
        assert_cites(node, "ipg", "Additionally, no notes of any kind may be made during a draft.")
        lpv = walk_labels(FINDER, [TE, "A technical error during a draft"])["node"]
        assert "Outside Assistance" in lpv["ruling"]
        assert_cites(lpv, "ipg", "Additionally, no notes of any kind may be made during a draft.")


class InvestigationTests:
    def test_a_disqualification_left_to_the_head_judges_investigation_is_given_conditionally(self):
        """A conclusion that sends the floor judge to the head judge to investigate intent must not
        show a bare "Disqualification" to announce: IPG 4.8 makes Cheating need both the attempt to
        gain advantage and the awareness of doing something illegal ("If all criteria are not met,
        the offense is not Cheating"), which only the investigation establishes. Before the audit
        shortcut-disputes' "deliberately misleading" conclusion gave a bare Disqualification."""
        checked = 0
        for slug, guide in loader.load_all().items():
            for node in guide.nodes.values():
                if node.kind is not NodeKind.CONCLUSION or node.penalty is None:
                    continue
                words = f"{node.ruling} {node.fix}".casefold()
                if "investigat" not in words:
                    continue
                for rel in ("competitive", "professional"):
                    text = getattr(node.penalty, rel)
                    if text.startswith("Disqualification"):
                        checked += 1
                        assert " if " in f" {text} ", (slug, node.id, rel, text)
        assert checked >= 4
        body = walk_labels(
            "shortcut-disputes",
            [
                "Used an unusual or changed shortcut and the opponent was misled",
                "It looks deliberate, to gain an advantage",
            ],
        )
        assert_cites(
            body["node"], "ipg", "If all criteria are not met, the offense is not Cheating"
        )


class LondonMulliganTests:
    """CR 103.5: "To take a mulligan, a player ... draws a new hand ..., then puts a number of
    those cards equal to the number of times that player has taken a mulligan on the bottom of
    their library": the cards go to the bottom as part of each mulligan, not once the player
    keeps (the third audit)."""

    def test_every_mulligan_fix_bottoms_the_cards_before_the_keep_as_cr_103_5_says(self):
        from rulesref.models import Rule

        rule = Rule.objects.get(
            version__document__slug="cr", version__is_current=True, number="103.5"
        )
        text = " ".join(rule.text.split())
        assert "draws a new hand of cards equal to their starting hand size, then puts" in text
        guide = loader.load_all()["drawing-and-mulligans"]
        fixes = [
            n.fix
            for n in guide.nodes.values()
            if n.kind is NodeKind.CONCLUSION
            and n.fix
            and "additional mulligan" in n.fix
            and "bottom" in n.fix
        ]
        assert len(fixes) >= 3
        for fix in fixes:
            assert "when they keep" not in fix, fix
            assert fix.index("draw") < fix.index("bottom"), fix
            assert "keep" not in fix or fix.index("bottom") < fix.index("keep"), fix
