"""A call recorded straight from the IPG (no guide) and its penalty preview, against the documents
(audit of the call log, items 4-7 and 11): the section's Downgrade stated and recordable (IPG 3.1
Tardiness, 3.2 Outside Assistance), nothing of the IPG presented as applying at Regular REL (the
JAR), Deck Problem's "Warning with potential upgrade" given as the Warning it is (IPG 3.5), the JAR
situation cited at Regular instead of the empty "Common Issues" heading, and IPG 1.1's single Game
Loss in the preview as in the saved call. On the real IPG and JAR the session imports."""

from __future__ import annotations

import datetime as dt
import json
import uuid

import pytest
from rest_framework.test import APIClient

from calllog import infractions, penalties
from calllog.models import Call, Player
from rulesref.models import Rule
from tests.calllog.conftest import call_body

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("calllog_urls", "test_guide")]


def api(user) -> APIClient:
    client = APIClient()
    client.force_login(user)
    return client


def body(infraction: str, player: str = "Ana Costa", **extra) -> dict:
    return {
        "client_id": str(uuid.uuid4()),
        "infraction": infraction,
        "players": [player, "Ben Ito"],
        **extra,
    }


def ipg_field(number: str, field: str) -> str:
    rule = Rule.objects.get(version__document__slug="ipg", version__is_current=True, number=number)
    return " ".join(str((rule.fields or {}).get(field) or "").split())


@pytest.fixture
def regular(cast):
    from calllog import services

    return services.open_event(
        cast["floor_judge"], name="FNM", date=dt.date(2026, 11, 20), rel="regular"
    )


def post(client, event, payload):
    return client.post(f"/api/v1/events/{event.pk}/calls", payload, format="json")


def preview(client, event, player: str, query: str) -> dict:
    response = client.get(f"/api/v1/events/{event.pk}/players/{player}?{query}")
    assert response.status_code == 200, response.content
    return response.json()["next"]


# --- 4. The section's Downgrade -----------------------------------------------------------------


class DowngradeTests:
    def test_the_catalogue_carries_each_sections_downgrade_and_the_penalty_it_names(self, cast):
        """IPG 3.1 Downgrade: "... before 1 minute has elapsed in the round receives a warning";
        IPG 3.2 Downgrade: "... between games, the penalty is a Game Loss"."""
        listed = {
            i["number"]: i
            for i in api(cast["floor_judge"])
            .get(f"/api/v1/events/{cast['event'].pk}/infractions")
            .json()["infractions"]
        }
        tardiness, assistance = listed["3.1"], listed["3.2"]
        assert tardiness["downgrade"] == ipg_field("3.1", "downgrade")
        assert "before 1 minute" in tardiness["downgrade"]
        assert tardiness["downgrade_penalty"] == "Warning"
        assert assistance["downgrade"] == ipg_field("3.2", "downgrade")
        assert assistance["downgrade_penalty"] == "Game Loss"
        for number, item in listed.items():
            if number not in ("3.1", "3.2"):
                assert (item["downgrade"], item["downgrade_penalty"]) == ("", ""), number

    def test_a_tardiness_within_a_minute_is_recorded_as_the_warning_without_a_flag(self, cast):
        event, client = cast["event"], api(cast["floor_judge"])
        reply = post(
            client, event, body("3.1", round=2, downgrade=True, announced_penalty="Warning")
        )
        assert reply.status_code == 201, reply.json()
        call = reply.json()
        assert (call["penalty"], call["base_penalty"], call["computed_penalty"]) == (
            "Warning",
            "Warning",
            "Warning",
        )
        assert not call["needs_review"] and not call["upgraded"]
        assert "Downgrade" in call["ruling"] and "before 1 minute" in call["ruling"]
        # Without the downgrade the Penalty line stands: Game Loss.
        plain = post(client, event, body("3.1", player="Cy Dee", round=2)).json()
        assert plain["penalty"] == "Game Loss"

    def test_a_second_downgraded_tardiness_that_day_is_a_game_loss(self, cast):
        """IPG 3 intro: "A Warning for a Tournament Error offense is upgraded to a Game Loss if the
        player has already received a Warning for an offense in the same category"."""
        event, client = cast["event"], api(cast["floor_judge"])
        query = "infraction=3.1&downgrade=true"
        assert preview(client, event, "Ana Costa", query)["penalty"] == "Warning"
        post(client, event, body("3.1", round=1, downgrade=True))
        shown = preview(client, event, "Ana Costa", query)
        assert (shown["penalty"], shown["upgraded"], shown["base_penalty"]) == (
            "Game Loss",
            True,
            "Warning",
        )
        second = post(
            client, event, body("3.1", round=2, downgrade=True, announced_penalty="Game Loss")
        ).json()
        assert (second["penalty"], second["upgraded"], second["needs_review"]) == (
            "Game Loss",
            True,
            False,
        )

    def test_outside_assistance_between_games_is_a_game_loss(self, cast):
        event, client = cast["event"], api(cast["floor_judge"])
        assert preview(client, event, "Ana Costa", "infraction=3.2")["penalty"] == "Match Loss"
        shown = preview(client, event, "Ana Costa", "infraction=3.2&downgrade=true")
        assert shown["penalty"] == shown["base_penalty"] == "Game Loss"
        call = post(
            client, event, body("Outside Assistance", downgrade=True, announced_penalty="Game Loss")
        ).json()
        assert (call["penalty"], call["needs_review"]) == ("Game Loss", False)

    @pytest.mark.parametrize(
        ("where", "infraction", "value"),
        [
            ("regular", "3.1", True),  # the JAR: the IPG does not apply at Regular REL
            ("event", "3.3", True),  # Slow Play has no Downgrade
            ("event", "3.1", "yes"),  # true or false only
        ],
    )
    def test_a_downgrade_that_cannot_apply_is_refused_and_nothing_is_stored(
        self, cast, regular, where, infraction, value
    ):
        event = regular if where == "regular" else cast["event"]
        client = api(cast["floor_judge"])
        refused = post(client, event, body(infraction, downgrade=value))
        assert refused.status_code == 400
        assert "downgrade" in refused.json()["error"]["details"]
        assert Call.objects.count() == 0 and Player.objects.count() == 0
        flag = "true" if value is True else value
        asked = client.get(
            f"/api/v1/events/{event.pk}/players/Ana Costa?infraction={infraction}&downgrade={flag}"
        )
        assert asked.status_code == 400 and "downgrade" in asked.json()["error"]["details"]

    def test_the_page_form_records_the_downgrade(self, cast, client):
        client.force_login(cast["floor_judge"])
        response = client.post(
            f"/events/{cast['event'].pk}/record",
            {"infraction": "3.1", "offender": "Ana Costa", "round": "1", "downgrade": "yes"},
        )
        assert response.status_code == 302
        call = Call.objects.get()
        assert (call.infraction, call.penalty, call.needs_review) == ("Tardiness", "Warning", False)

    def test_the_event_page_has_the_downgrade_for_the_tablet(self, cast, client):
        client.force_login(cast["floor_judge"])
        html = client.get(f"/events/{cast['event'].pk}/").content.decode()
        assert 'id="record-downgrade-apply"' in html
        data = json.loads(
            html.split('id="infraction-data" type="application/json">')[1].split("<")[0]
        )
        tardiness = next(i for i in data if i["number"] == "3.1")
        assert tardiness["downgrade_penalty"] == "Warning" and tardiness["downgrade"]


# --- 5. Regular REL: the IPG's upgrades do not apply --------------------------------------------


class UpgradeTests:
    """A direct call can record the section's own Upgrade (audit rulings5, item K): IPG 3.1 "A
    player not in their seat 10 minutes into the round will receive a Match Loss"; before, the
    call stored the Game Loss and "upgrade" was ignored."""

    def test_the_catalogue_offers_an_upgrade_only_where_it_names_another_penalty(self, cast):
        listed = {
            i["number"]: i
            for i in api(cast["floor_judge"])
            .get(f"/api/v1/events/{cast['event'].pk}/infractions")
            .json()["infractions"]
        }
        assert "10 minutes" in ipg_field("3.1", "upgrade")
        assert listed["3.1"]["upgrade_penalty"] == "Match Loss"
        assert listed["2.1"]["upgrade_penalty"] == "Warning"  # a detrimental Missed Trigger
        for number, item in listed.items():
            named = item["upgrade_penalty"]
            if named:
                assert named != item["penalty"]["competitive"], number
                assert named.casefold() in ipg_field(number, "upgrade").casefold(), number
            else:
                assert number not in ("3.1", "2.1"), number

    def test_a_player_ten_minutes_late_is_recorded_as_the_match_loss(self, cast):
        event, client = cast["event"], api(cast["floor_judge"])
        shown = preview(client, event, "Ana Costa", "infraction=3.1&upgrade=true")
        assert shown["penalty"] == shown["base_penalty"] == "Match Loss"
        reply = post(
            client, event, body("3.1", round=2, upgrade=True, announced_penalty="Match Loss")
        )
        assert reply.status_code == 201, reply.json()
        call = reply.json()
        assert (call["penalty"], call["computed_penalty"], call["needs_review"]) == (
            "Match Loss",
            "Match Loss",
            False,
        )
        assert "Upgrade (IPG 3.1)" in call["ruling"] and "10 minutes" in call["ruling"]

    def test_a_match_loss_announced_without_the_upgrade_is_flagged_in_true_words(self, cast):
        """The flag said "With Brad2's earlier penalties at this event the penalty is Game Loss"
        for a player with none: the count changed nothing, and the flag now says so."""
        event, client = cast["event"], api(cast["floor_judge"])
        call = post(client, event, body("3.1", announced_penalty="Match Loss")).json()
        assert call["needs_review"] and call["penalty"] == "Match Loss"
        assert "The penalty for this call is Game Loss" in call["review_reason"]
        assert "earlier penalties at this event do not change it" in call["review_reason"]

    @pytest.mark.parametrize(
        ("where", "infraction", "extra"),
        [
            ("regular", "3.1", {}),  # the JAR: the IPG does not apply at Regular REL
            ("event", "3.3", {}),  # Slow Play has no Upgrade of its own
            ("event", "3.1", {"downgrade": True}),  # never both
        ],
    )
    def test_an_upgrade_that_cannot_apply_is_refused_and_nothing_is_stored(
        self, cast, regular, where, infraction, extra
    ):
        event = regular if where == "regular" else cast["event"]
        client = api(cast["floor_judge"])
        refused = post(client, event, body(infraction, upgrade=True, **extra))
        assert refused.status_code == 400
        assert "upgrade" in refused.json()["error"]["details"]
        assert Call.objects.count() == 0 and Player.objects.count() == 0

    def test_the_page_form_records_the_upgrade(self, cast, client):
        client.force_login(cast["floor_judge"])
        html = client.get(f"/events/{cast['event'].pk}/").content.decode()
        assert 'id="record-raise-apply"' in html
        response = client.post(
            f"/events/{cast['event'].pk}/record",
            {"infraction": "3.1", "offender": "Ana Costa", "round": "1", "upgrade": "yes"},
        )
        assert response.status_code == 302
        assert Call.objects.get().penalty == "Match Loss"


class BothPlayersGameLossTests:
    """IPG 1.1: "If simultaneous Game Loss penalties are issued to each player, they are recorded,
    but do not affect the match score" (audit rulings5, W2): the second call says so."""

    def test_a_game_loss_for_each_player_in_one_round_carries_the_note(self, cast):
        event, client = cast["event"], api(cast["floor_judge"])
        first = post(client, event, body("3.4", "Ana Costa", round=3)).json()
        assert "match score" not in first["upgrade_reason"]
        both = ["Ben Ito", "Ana Costa"]
        second = post(client, event, {**body("3.4", "Ben Ito", round=3), "players": both}).json()
        assert second["penalty"] == "Game Loss"
        assert "do not affect the match score (IPG 1.1)" in second["upgrade_reason"]
        cited = [c for c in second["citations"] if c["doc"] == "ipg" and c["number"] == "1.1"]
        assert cited and "do not affect the match score" in " ".join(cited[0]["text"].split())
        # another round: nothing to say
        later = post(client, event, {**body("3.4", "Ben Ito", round=4), "players": both}).json()
        assert "match score" not in later["upgrade_reason"]


class RegularPageTests:
    def test_the_regular_page_never_says_earlier_penalties_upgrade_the_penalty(
        self, cast, regular, client
    ):
        """JAR introduction: "The fixes found in the Infraction Procedure Guide, are designed for a
        stricter environment and don't apply at Regular REL"."""
        client.force_login(cast["floor_judge"])
        html = client.get(f"/events/{regular.pk}/").content.decode()
        assert "upgraded by the player's earlier penalties" not in html
        assert "The penalty is the IPG's" not in html
        assert "do not apply" in html
        competitive = client.get(f"/events/{cast['event'].pk}/").content.decode()
        assert "upgraded by the player&#x27;s earlier penalties" in competitive or (
            "upgraded by the player's earlier penalties" in competitive
        )

    def test_each_infraction_says_what_regular_rel_does_instead_of_the_ipgs_upgrades(self, cast):
        for infraction in infractions.catalogue():
            note = infraction.as_dict()["regular_note"]
            assert "do not apply" in note and "JAR" in note, infraction.number
            if infraction.category in (penalties.GAME_PLAY_ERROR, penalties.TOURNAMENT_ERROR):
                # JAR introduction: "you may warn them that the next occurrence will result in a
                # Game Loss"
                assert "may be warned" in note and "Game Loss" in note, infraction.number


# --- 6. Deck Problem: the Warning it is ---------------------------------------------------------


class DeckProblemTests:
    def test_a_deck_problem_is_recorded_and_shown_as_a_warning_and_still_counts(self, cast):
        """IPG 3.5's Penalty line reads "Warning with potential upgrade": the penalty is a
        Warning; the upgrades are the section's Upgrade paragraphs, and the IPG 3 count."""
        assert ipg_field("3.5", "penalty") == "Warning with potential upgrade"
        event, client = cast["event"], api(cast["floor_judge"])
        listed = {
            i["number"]: i
            for i in client.get(f"/api/v1/events/{event.pk}/infractions").json()["infractions"]
        }
        deck = listed["3.5"]
        assert deck["penalty"]["competitive"] == deck["penalty"]["professional"] == "Warning"
        assert deck["penalty_line"] == "Warning with potential upgrade"
        assert " ".join(deck["upgrade"].split()) == ipg_field("3.5", "upgrade") != ""
        assert preview(client, event, "Ana Costa", "infraction=3.5")["penalty"] == "Warning"
        first = post(client, event, body("Deck Problem", announced_penalty="Warning")).json()
        assert (first["penalty"], first["base_penalty"], first["needs_review"]) == (
            "Warning",
            "Warning",
            False,
        )
        second = post(client, event, body("3.5")).json()
        assert (second["penalty"], second["upgraded"]) == ("Game Loss", True)


# --- 7. Regular REL cites the JAR situation -----------------------------------------------------


def jar_title(number: str) -> str:
    return Rule.objects.get(
        version__document__slug="jar", version__is_current=True, number=number
    ).title


class JarSituationTests:
    # (IPG section, the JAR situation's number as the JAR parser gives it)
    SITUATIONS = [
        ("2.1", "1.1"),  # "A player forgets a triggered ability ..."
        ("2.2", "1.2"),  # "A player sees a card in a library that they shouldn't have seen"
        ("2.3", "1.3"),  # "A player accidentally draws or has more cards than ..."
        ("2.4", "1.3"),  # its last sentence: extra cards drawn with an opening hand
        ("2.5", "1.4"),  # "A player makes an in-game error not mentioned above"
        ("2.6", "1.1"),  # "Unlike other illegal actions (which must be pointed out) ..."
        ("3.5", "1.5"),  # "A player has illegal, insufficient, or another player's cards ..."
    ]

    @pytest.mark.parametrize(("section", "situation"), SITUATIONS)
    def test_a_regular_call_cites_the_jar_situation_not_the_empty_heading(
        self, cast, regular, section, situation
    ):
        reply = post(api(cast["floor_judge"]), regular, body(section))
        assert reply.status_code == 201, reply.json()
        jar = [c for c in reply.json()["citations"] if c["doc"] == "jar"]
        assert [c["number"] for c in jar] == [situation], jar
        assert jar[0]["title"] == jar_title(situation)
        assert jar[0]["text"].strip(), "the JAR situation's own fix is shown"
        assert infractions.find(section).as_dict()["regular_ref"].endswith(f":{situation}")

    def test_no_infraction_cites_the_common_issues_heading(self, cast):
        assert not Rule.objects.get(
            version__document__slug="jar", version__is_current=True, number="1"
        ).text.strip()
        for infraction in infractions.catalogue():
            assert not infraction.regular_ref.endswith(":Common Issues"), infraction.number


# --- 11. The preview says IPG 1.1's single Game Loss, as the saved call does ---------------------


class SimultaneousGameLossPreviewTests:
    """IPG 1.1: "If a player would receive multiple Game Losses at the same time, they only receive
    one.\""""

    def test_the_preview_in_the_same_round_carries_the_note_and_its_citation(self, cast):
        event, client = cast["event"], api(cast["floor_judge"])
        post(client, event, body("Tardiness", round=2))
        shown = preview(client, event, "Ana Costa", "infraction=3.4&round=2")
        assert shown["penalty"] == "Game Loss" and "only one" in shown["reason"]
        assert "1.1" in [c["number"] for c in shown["citations"]]
        saved = post(client, event, body("Decklist Problem", round=2)).json()
        assert saved["upgrade_reason"] == shown["reason"]
        # another round, or no round given: nothing to say
        for query in ("infraction=3.4&round=3", "infraction=3.4"):
            assert "only one" not in preview(client, event, "Ana Costa", query)["reason"]

    def test_a_guides_preview_takes_the_round_too(self, cast):
        """The third Game Rule Violation Warning of the day is a Game Loss (IPG 2 intro); in a
        round where the player already has a Game Loss it carries IPG 1.1's note."""
        event, client = cast["event"], api(cast["floor_judge"])
        url = f"/api/v1/events/{event.pk}/calls"
        for _ in range(2):
            client.post(url, call_body(players=["Ana Costa"], round=1), format="json")
        post(client, event, body("Tardiness", round=2))
        query = "guide=call-log-test&conclusion=grv&round=2"
        shown = preview(client, event, "Ana Costa", query)
        assert shown["penalty"] == "Game Loss" and shown["upgraded"]
        assert "only one" in shown["reason"]
        assert "only one" not in preview(client, event, "Ana Costa", query[:-1] + "4")["reason"]

    def test_a_bad_round_is_refused_naming_it(self, cast):
        response = api(cast["floor_judge"]).get(
            f"/api/v1/events/{cast['event'].pk}/players/Ana Costa?infraction=3.4&round=soon"
        )
        assert response.status_code == 400 and "round" in response.json()["error"]["details"]
