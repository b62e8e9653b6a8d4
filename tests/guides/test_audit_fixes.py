"""The guide fixes of the audit of guided calls (items 1, 2, 3, 8, 9 and 10): each walk is made
through the API by the answers' labels, as a judge picks them, and checks the penalty at every REL,
the key sentence of the fix, and that a cited section of the document as imported says it. Every
test here failed before the fixes (the answers, conclusions or sentences did not exist)."""

from __future__ import annotations

import re
from html import unescape
from typing import Any

import pytest
from rest_framework.test import APIClient

from guides import loader

pytestmark = pytest.mark.django_db

FINDER = "infraction-finder"
RELS = ("regular", "competitive", "professional")
TE = "A tournament rule"
DECK = "The deck or sideboard does not match a correct decklist"
COMPANION = "A card in the deck violates the restriction of the player's companion"
KEEPS_DECKLIST = "No: they keep the decklist they registered"
COMPANION_REMEDY = (
    "locate all cards violating the restriction. Then, choose that number of cards at random "
    "from unrevealed cards in the sideboard that meet the companion restriction. The opponent "
    "decides which chosen card replaces each illegal card."
)
COMPANION_UPGRADE = (
    "If making the deck match the companion condition is impossible, upgrade the penalty to a "
    "Game Loss."
)
COMPANION_DECKLIST = (
    "If the decklist is being adjusted to allow for an intended companion, the player exchanges "
    "cards between the deck and sideboard until the restriction is met."
)


def squeeze(text: str) -> str:
    return " ".join(text.split())


def walk(slug: str, steps: list[Any]) -> dict:
    """The API's body where the steps lead. A text step is the opening of the one label of the
    question reached that starts with it; any other step is an input's value."""
    guide = loader.load_all()[slug]
    api = APIClient()
    answers: list[Any] = []

    def post() -> dict:
        body = api.post(f"/api/v1/guides/{slug}/walk", {"answers": answers}, format="json").json()
        assert "error" not in body, body
        return body

    for step in steps:
        if isinstance(step, str):
            node = guide.nodes[post()["node_id"]]
            found = [a.label for a in node.answers if a.label.startswith(step)]
            assert len(found) == 1, f"{slug}:{node.id}: {len(found)} answers start {step!r}"
            step = found[0]
        answers.append(step)
    return post()


def cited_text(node: dict, doc: str, number: str | None = None) -> str:
    texts = [
        squeeze(str(c.get("text") or ""))
        for c in node["citations"]
        if c["doc"] == doc
        and (number is None or c["number"] == number)
        and c.get("status") != "unresolved"
    ]
    assert texts, f"{node['id']} cites no {doc.upper()} {number or ''}"
    return "\n".join(texts)


def assert_cites(node: dict, doc: str, sentence: str, number: str | None = None) -> None:
    assert squeeze(sentence) in cited_text(node, doc, number), (
        f"{node['id']}: no cited {doc.upper()} {number or ''} says {sentence!r}"
    )


def assert_penalties(node: dict, regular_start: str, ipg: str) -> None:
    assert node["penalty"]["regular"].startswith(regular_start), node["penalty"]
    assert node["penalty"]["competitive"] == node["penalty"]["professional"] == ipg, node["penalty"]


class CompanionDeckProblemTests:
    """IPG 3.5: "The discovery of a card that violates a companion restriction is a Deck Problem if
    the player does not wish to modify their decklist to accommodate the companion restriction."
    Before the audit the only answer was "Another mismatch": a Warning with no companion remedy,
    also where the IPG upgrades it to a Game Loss."""

    def test_a_companion_violation_the_deck_can_meet_is_a_warning_with_the_companion_remedy(self):
        body = walk(FINDER, [TE, DECK, COMPANION, KEEPS_DECKLIST, "Yes"])
        node = body["node"]
        assert body["finished"] and body["node_id"] == "dp-companion"
        assert node["infraction"] == "DP" and node["category"] == "tournament_error"
        assert_penalties(node, "No penalty", "Warning")
        assert COMPANION_REMEDY in squeeze(node["fix"])
        assert "post-sideboard game" in node["fix"]
        assert_cites(node, "ipg", COMPANION_REMEDY, "3.5")
        assert_cites(
            node,
            "ipg",
            "The discovery of a card that violates a companion restriction is a Deck Problem if "
            "the player does not wish to modify their decklist to accommodate the companion "
            "restriction.",
            "3.5",
        )
        assert any(
            "companion condition is impossible" in u and "Game Loss" in u for u in node["upgrades"]
        ), node["upgrades"]
        assert any("second Warning for Deck Problem" in u for u in node["upgrades"])
        assert "JAR" in node["fix"] and cited_text(node, "jar")

    def test_when_the_companion_condition_cannot_be_met_the_penalty_is_a_game_loss(self):
        body = walk(
            FINDER,
            [TE, DECK, COMPANION, KEEPS_DECKLIST, "No, making the deck match the companion"],
        )
        node = body["node"]
        assert body["finished"] and body["node_id"] == "dp-companion-game-loss"
        assert node["infraction"] == "DP"
        assert_penalties(node, "No penalty", "Game Loss")
        assert "upgraded" in node["ruling"]
        assert COMPANION_UPGRADE in squeeze(node["fix"])
        assert_cites(node, "ipg", COMPANION_UPGRADE, "3.5")
        assert cited_text(node, "jar")

    def test_a_player_who_modifies_the_decklist_for_the_companion_has_a_decklist_problem(self):
        body = walk(FINDER, [TE, DECK, COMPANION, "Yes: they modify the decklist"])
        node = body["node"]
        assert body["finished"] and body["node_id"] == "dlp"
        assert node["infraction"] == "DLP"
        assert_penalties(node, "No penalty", "Game Loss")
        assert COMPANION_DECKLIST[3:-1] in squeeze(node["fix"])
        assert_cites(node, "ipg", COMPANION_DECKLIST, "3.4")
        assert_cites(
            node,
            "ipg",
            "it is acceptable to alter the deck and sideboard configuration to meet the "
            "restriction",
            "3.4",
        )

    def test_the_deck_problem_conclusion_lists_the_companion_upgrade(self):
        node = walk(FINDER, [TE, DECK, "Another mismatch"])["node"]
        assert any("companion condition is impossible" in u for u in node["upgrades"])


class DecklistProblemTests:
    def test_the_decklist_problem_fix_has_the_companion_sentence(self):
        """IPG 3.4, Additional Remedy: "If the decklist is being adjusted to allow for an intended
        companion, the player exchanges cards between the deck and sideboard until the
        restriction is met." """
        node = walk(FINDER, [TE, "The decklist is wrong"])["node"]
        assert node["id"] == "dlp"
        assert_penalties(node, "No penalty", "Game Loss")
        assert COMPANION_DECKLIST[3:-1] in squeeze(node["fix"])
        assert_cites(node, "ipg", COMPANION_DECKLIST, "3.4")


class MarkedSideboardTests:
    def test_marked_cards_only_in_the_sideboard_are_not_an_infraction(self):
        """IPG 3.8: "This infraction applies only to cards in a player's deck. Differently-marked
        sleeves in the sideboard are not illegal unless they are put into the deck without being
        changed. Unless investigating, judges are encouraged to alert players about concerns with
        marked sideboard cards." Before the audit every answer ended in a penalty."""
        body = walk(
            FINDER, [TE, "Marked cards or sleeves", "Only cards or sleeves in the sideboard"]
        )
        node = body["node"]
        assert body["finished"] and body["node_id"] == "mc-sideboard"
        for rel in RELS:
            assert node["penalty"][rel].startswith("No penalty"), (rel, node["penalty"])
        assert node["infraction"] == "" and node["category"] == "" and not node.get("category")
        alert = (
            "Unless investigating, judges are encouraged to alert players about concerns with "
            "marked sideboard cards."
        )
        assert alert in node["fix"]
        assert_cites(node, "ipg", alert, "3.8")
        not_illegal = (
            "Differently-marked sleeves in the sideboard are not illegal unless they are put into "
            "the deck without being changed."
        )
        assert not_illegal in node["ruling"]
        assert_cites(node, "ipg", not_illegal, "3.8")
        assert_cites(node, "ipg", "This infraction applies only to cards in a player's deck.")

    def test_marks_on_deck_cards_are_still_a_warning(self):
        node = walk(FINDER, [TE, "Marked cards or sleeves", "Ordinary wear or marks"])["node"]
        assert node["id"] == "mc-warning"
        assert_penalties(node, "No penalty", "Warning")


class MissedTriggerRegularTests:
    def test_the_detrimental_missed_trigger_fix_at_regular_has_the_jars_may_rule(self):
        """JAR (a player forgets a triggered ability): "If the ability includes the word "may,"
        assume the player chose not to perform it." """
        body = walk(
            FINDER,
            [
                "A game action went wrong",
                "A triggered ability",
                "It changes the visible",
                "No:",
                "Yes, both",
            ],
        )
        node = body["node"]
        assert body["node_id"] == "mt-warning"
        assert_penalties(node, "No penalty", "Warning")
        may = 'If the ability includes the word "may," assume the player chose not to perform it.'
        assert may in node["fix"]
        assert_cites(node, "jar", may)
        assert "too disruptive" in node["fix"]
        assert cited_text(node, "ipg", "2.1")


class StallingTests:
    def test_the_stalling_fix_says_what_ipg_1_2_says_and_nothing_it_does_not(self):
        """IPG 1.2: "any penalty of Game Loss or higher should be reported to the Head Judge, and
        it is recommended that only the Head Judge issue penalties of this nature". It says
        nothing of the player staying in the event meanwhile."""
        body = walk(
            "loop-resolution",
            [
                "Yes, every iteration is the same",
                "Yes, they can name a number",
                "No, it happens within one turn",
                "Both players",
                "No, each needs the other",
                "No, nothing in it ends the game",
                5,
                3,
                "Yes, it is being started again",
                "Yes, it looks deliberate",
            ],
        )
        node = body["node"]
        assert body["node_id"] == "stalling"
        said = (
            "any penalty of Game Loss or higher should be reported to the Head Judge, and it is "
            "recommended that only the Head Judge issue penalties of this nature"
        )
        assert said in node["fix"] and "IPG 1.2" in node["fix"]
        assert_cites(node, "ipg", said, "1.2")
        assert "stays in the event" not in node["fix"]
        assert "Only the head judge issues" not in node["fix"]
        for rel in ("competitive", "professional"):
            assert node["penalty"][rel].startswith("Disqualification")
            assert "if the head judge confirms it" in node["penalty"][rel]


class UnsportingMinorRegularTests:
    def test_at_regular_a_game_loss_may_reinforce_it_as_the_jar_says(self):
        """JAR Introduction: "If they make no attempt to correct their behaviour, applying a Game
        Loss may reinforce the seriousness of the issue." """
        body = walk(FINDER, ["Behaviour", "Disruptive", "No, this is the first"])
        node = body["node"]
        assert body["node_id"] == "usc-minor"
        assert_penalties(node, "No penalty", "Warning")
        regular = node["penalty"]["regular"]
        assert "a Game Loss may reinforce the seriousness of the issue" in regular
        assert "a Game Loss if" not in regular
        assert_cites(
            node,
            "jar",
            "If they make no attempt to correct their behaviour, applying a Game Loss may "
            "reinforce the seriousness of the issue.",
        )


class MissedTriggerAwarenessTests:
    """IPG 2.1: "Note that passing priority, casting an instant spell or activating an ability
    doesn't mean a triggered ability has been forgotten"; a trigger remembered in time is not
    missed, whatever its controller did meanwhile (a life-gain trigger remembered after tapping
    mana, audit rulings4 A04)."""

    def test_a_trigger_remembered_after_tapping_mana_is_not_missed(self):
        body = walk(
            FINDER,
            [
                "A game action went wrong",
                "A triggered ability",
                "It changes the visible",
                "Yes, or they have only passed priority",
            ],
        )
        assert body["node_id"] == "mt-remembered"
        node = body["node"]
        assert_penalties(node, "No penalty", "No penalty")
        assert node["infraction"] == "" and node["category"] == ""
        assert "Resolve the ability" in node["fix"]
        assert cited_text(node, "ipg", "2.1")

    def test_targets_not_announced_before_passing_priority_are_a_missed_trigger(self):
        body = walk(
            FINDER,
            ["A game action went wrong", "A triggered ability", "It needs targets", "No", "No"],
        )
        assert body["node_id"] == "mt" and body["node"]["infraction"] == "MT"
        assert_penalties(body["node"], "No penalty (JAR)", "No penalty")


class UnsportingMinorRepeatTests:
    def test_a_repeat_game_loss_says_how_a_game_loss_between_games_is_given(self):
        """IPG 1.1, for a Game Loss given between games or rounds (audit rulings4 A35): "The player
        receiving a Game Loss chooses whether to play or draw in the next game of that match"."""
        body = walk(FINDER, ["Behaviour", "Disruptive", "Yes"])
        node = body["node"]
        assert body["node_id"] == "usc-minor-repeat"
        assert_penalties(node, "Game Loss may be applied", "Game Loss")
        for sentence in (
            "The player receiving a Game Loss chooses whether to play or draw in the next game of "
            "that match, if applicable.",
            "If a Game Loss is issued before the match begins, neither player in that match may "
            "use sideboards (if the tournament uses them) for the first game they play.",
        ):
            assert_cites(node, "ipg", sentence, "1.1")
        assert "chooses whether to play or draw in the next game" in node["fix"]
        assert "neither player may use sideboards for the first game" in node["fix"]


def test_a_regular_conclusion_says_which_rel_each_upgrade_is_for():
    """The JAR: the IPG's fixes and penalties "don't apply at Regular REL". A conclusion reached at
    Regular that lists the IPG's Warning count says it is for Competitive and Professional (audit
    rulings4, finding 4)."""
    regular = [
        node
        for guide in loader.load_all().values()
        for node in guide.nodes.values()
        if node.id.startswith("jar-") and node.upgrades
    ]
    assert len(regular) >= 6
    for node in regular:
        for line in node.upgrades:
            if "(IPG" in line:
                assert line.startswith("At Competitive and Professional:"), (node.id, line)
            else:
                assert line.startswith("At Regular:"), (node.id, line)


class OpponentsTriggerTests:
    def test_keeping_quiet_about_the_opponents_own_trigger_is_no_infraction(self):
        """IPG 2.6: "Not reminding an opponent about their triggered abilities is never Failure to
        Maintain Game State nor Cheating." The finder's kept-quiet path led only to a
        Disqualification (audit rulings5, W1)."""
        body = walk(FINDER, ["The player knew", "Yes, both", "Only let the opponent miss"])
        node = body["node"]
        assert body["node_id"] == "opponents-trigger" and not node.get("infraction")
        for rel in RELS:
            assert node["penalty"][rel].startswith("No penalty"), node["penalty"]
        assert_cites(
            node,
            "ipg",
            "Not reminding an opponent about their triggered abilities is never Failure to "
            "Maintain Game State nor Cheating.",
            "2.6",
        )
        cheating = walk(FINDER, ["The player knew", "Yes, both", "Broke a rule"])["node"]
        assert "never Cheating (IPG 2.6)" in cheating["ruling"]


class OutsideAssistanceMatchTests:
    def test_the_match_loss_says_whose_match_it_lands_on(self):
        """IPG 1.1: "Match Losses are applied to the match during which the offense occurred unless
        the offender's match has already ended, in which case the penalty will be applied to that
        player's next match" (audit rulings5, W4)."""
        body = walk(FINDER, [TE, "Advice or notes", "Play advice or private"])
        node = body["node"]
        assert body["node_id"] == "oa-match-loss"
        assert "then to their next match (IPG 1.1)" in node["fix"]
        assert_cites(
            node,
            "ipg",
            "Match Losses are applied to the match during which the offense occurred unless the "
            "offender's match has already ended, in which case the penalty will be applied to "
            "that player's next match.",
            "1.1",
        )
        assert_cites(node, "ipg", "Penalties are still issued even if a player drops", "1.2")


class RegularPageTests:
    """The JAR: "The fixes found in the Infraction Procedure Guide ... don't apply at Regular REL".
    A finder page opened at Regular showed Tardiness's IPG fix ("The Game Loss is given before the
    match begins ...") and its upgrades as if they applied (audit rulings5, W3)."""

    def _page(self, client, node_id: str, rel: str) -> str:
        from guides import links

        guide = loader.load_all()[FINDER]
        answers = links.path_to(guide, node_id)
        assert answers is not None
        query = "&".join([f"rel={rel}", *(f"a={a}" for a in answers)])
        response = client.get(f"/guides/{FINDER}/?{query}")
        assert response.status_code == 200
        return " ".join(unescape(response.content.decode()).split())

    def test_at_regular_the_jars_fix_comes_first_and_the_ipgs_is_labelled(self, client):
        node = loader.load_all()[FINDER].nodes["tardy-game-loss"]
        ipg, jar = node.fix.split("At Regular", 1)
        regular = self._page(client, "tardy-game-loss", "regular")
        fixes = re.findall(r'<p class="fix">(.*?)</p>', regular)
        assert fixes == [
            squeeze("At Regular" + jar),
            "At Competitive and Professional: " + squeeze(ipg),
        ]
        for line in node.upgrades:
            assert f"<li>At Competitive and Professional: {squeeze(line)}</li>" in regular
        competitive = self._page(client, "tardy-game-loss", "competitive")
        assert re.findall(r'<p class="fix">(.*?)</p>', competitive) == [squeeze(node.fix)]
        assert "<li>At Competitive and Professional" not in competitive


def test_the_cheating_hit_opens_the_finder_at_cheatings_own_question():
    """IPG 4.8's search hit opened the finder through the die-roll questions ("Deciding a game or
    match by a method outside the game ... Yes"), facts the judge never gave (audit rulings5,
    W5)."""
    from guides import calls as guide_calls
    from rulesref.models import Version

    version = Version.objects.get(document__slug="ipg", is_current=True)
    call = guide_calls.infraction_calls(version.pk, version.content_hash)["4.8"]
    answers = [int(a) for a in re.findall(r"a=(\d+)", call["finder"])]
    guide = loader.load_all()[FINDER]
    node_id, labels = guide.start, []
    for index in answers:
        answer = guide.nodes[node_id].answers[index]
        labels.append(answer.label)
        node_id = answer.next
    assert node_id == "cheating-what", (node_id, labels)
    assert not any("outside the game" in label for label in labels), labels
