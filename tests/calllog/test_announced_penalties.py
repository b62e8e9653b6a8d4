"""Issue 27: the call log records what was announced. A call saved offline keeps the penalty the
tablet showed and the judge gave; when the player's history gives another, both are kept and the
call is flagged for the head judge (API, pages, exports). The upgrade's reason counts only the
Warnings that count; a penalty is written one way whichever guide it came from."""

from __future__ import annotations

import csv
import io
import tomllib
import uuid

import pytest
from django.test import Client
from rest_framework.test import APIClient

from calllog import editing, exports, penalties, recording
from calllog.models import Call, CallRevision
from tests.calllog.conftest import GUIDE, SLUG, call_body

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("calllog_urls", "test_guide")]

W, GL = "Warning", penalties.GAME_LOSS


def api(user) -> APIClient:
    client = APIClient()
    client.force_login(user)
    return client


def page(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def slow_play(
    cast, *, announced: str | None = None, player: str = "Ana", user: str = "floor_judge"
) -> Call:
    extra = {} if announced is None else {"announced_penalty": announced}
    return recording.record_call(
        cast[user], cast["event"], call_body("Slow play", players=[player], **extra)
    )[0]


class AnnouncedPenaltyTests:
    def test_a_warning_announced_offline_is_stored_as_given_and_flagged_with_the_computed_game_loss(
        self, cast
    ):
        slow_play(cast)  # her first Slow Play: Warning
        # The tablet had no connection: it showed "Warning — not checked", the judge gave a Warning.
        call = slow_play(cast, announced="Warning")
        assert (call.penalty, call.announced_penalty, call.computed_penalty) == (W, W, GL)
        assert call.needs_review and not call.upgraded
        assert "Announced at the table: Warning" in call.review_reason
        assert "the penalty is Game Loss" in call.review_reason
        assert "already received a Warning for Slow Play" in call.review_reason
        assert call.upgrade_reason.startswith("Upgraded to Game Loss:")  # the server's count, kept

    def test_five_queued_calls_arrive_as_announced_and_four_are_flagged(self, cast):
        calls = [slow_play(cast, announced="Warning") for _ in range(5)]
        assert [c.penalty for c in calls] == [W] * 5
        assert [c.computed_penalty for c in calls] == [W, GL, GL, GL, GL]
        assert [c.needs_review for c in calls] == [False, True, True, True, True]
        # Four Warnings announced before the fifth: the player did receive them.
        assert "already received 4 Warnings for Slow Play" in calls[-1].review_reason

    def test_an_upgrade_announced_online_is_what_is_stored_and_not_flagged(self, cast):
        slow_play(cast)
        call = slow_play(cast, announced="Game Loss")
        assert (call.penalty, call.computed_penalty, call.upgraded, call.needs_review) == (
            GL,
            GL,
            True,
            False,
        )
        assert call.review_reason == ""

    def test_a_game_loss_announced_where_the_history_gives_a_warning_is_flagged_too(self, cast):
        call = slow_play(cast, announced="Game Loss")
        assert (call.penalty, call.computed_penalty, call.needs_review) == (GL, W, True)

    def test_the_announced_penalty_is_compared_in_the_one_format(self, cast):
        call = slow_play(cast, announced="warning (Tournament Error - Slow Play)")
        assert (call.penalty, call.announced_penalty, call.needs_review) == (W, W, False)

    def test_a_client_that_does_not_say_gets_the_computed_penalty_as_before(self, cast):
        slow_play(cast)
        call = slow_play(cast)
        assert (call.penalty, call.announced_penalty, call.computed_penalty, call.needs_review) == (
            GL,
            "",
            GL,
            False,
        )

    def test_a_direct_infraction_keeps_the_announced_penalty_as_well(self, cast):
        body = {"client_id": str(uuid.uuid4()), "infraction": "Slow Play", "players": ["Ana"]}
        recording.record_call(cast["floor_judge"], cast["event"], body)
        call, _ = recording.record_call(
            cast["floor_judge"],
            cast["event"],
            {**body, "client_id": str(uuid.uuid4()), "announced_penalty": "Warning"},
        )
        assert (call.penalty, call.computed_penalty, call.needs_review) == (W, GL, True)


class ApiTests:
    def test_the_call_record_adds_the_fields_and_keeps_every_earlier_one(self, cast):
        slow_play(cast)
        response = api(cast["floor_judge"]).post(
            f"/api/v1/events/{cast['event'].pk}/calls",
            call_body("Slow play", players=["Ana"], announced_penalty="Warning"),
            format="json",
        )
        assert response.status_code == 201
        data = response.json()
        for field in (
            "id",
            "penalty",
            "base_penalty",
            "upgraded",
            "upgrade_reason",
            "citations",
            "received_at",
        ):
            assert field in data
        assert (
            data["penalty"],
            data["announced_penalty"],
            data["computed_penalty"],
            data["needs_review"],
        ) == (W, W, GL, True)
        assert "Flagged for the head judge" in data["review_reason"]

    def test_flagged_calls_are_listed_on_their_own(self, cast):
        slow_play(cast)
        flagged = slow_play(cast, announced="Warning")
        url = f"/api/v1/events/{cast['event'].pk}/calls"
        client = api(cast["head_judge"])
        assert [c["id"] for c in client.get(url, {"needs_review": "true"}).json()["calls"]] == [
            flagged.pk
        ]
        assert len(client.get(url, {"needs_review": "false"}).json()["calls"]) == 1
        refused = client.get(url, {"needs_review": "maybe"})
        assert refused.status_code == 400 and "needs_review" in refused.json()["error"]["details"]

    def test_a_bad_announced_penalty_is_refused_naming_the_field_and_nothing_is_stored(self, cast):
        url = f"/api/v1/events/{cast['event'].pk}/calls"
        for bad in (3, ["Warning"], "W" * 501):
            response = api(cast["floor_judge"]).post(
                url, call_body("Slow play", announced_penalty=bad), format="json"
            )
            assert response.status_code == 400, bad
            assert "announced_penalty" in response.json()["error"]["details"]
        assert Call.objects.count() == 0

    def test_the_players_penalties_carry_both(self, cast):
        slow_play(cast)
        slow_play(cast, announced="Warning")
        data = api(cast["floor_judge"]).get(f"/api/v1/events/{cast['event'].pk}/players/Ana").json()
        assert [
            (p["penalty"], p["computed_penalty"], p["needs_review"]) for p in data["penalties"]
        ] == [(W, W, False), (W, GL, True)]

    def test_the_preview_says_which_the_next_one_would_be_counting_the_announced_warning(
        self, cast
    ):
        slow_play(cast)
        slow_play(cast, announced="Warning")  # flagged: she was given a second Warning
        data = (
            api(cast["floor_judge"])
            .get(
                f"/api/v1/events/{cast['event'].pk}/players/Ana",
                {"guide": SLUG, "conclusion": "slow"},
            )
            .json()
        )
        assert (data["next"]["penalty"], data["next"]["prior_warnings"]) == (GL, 2)
        assert "already received 2 Warnings for Slow Play" in data["next"]["reason"]


class ExportTests:
    def test_csv_and_json_carry_both_penalties_and_the_flag(self, cast):
        slow_play(cast)
        flagged = slow_play(cast, announced="Warning")
        client = api(cast["head_judge"])
        rows = list(
            csv.DictReader(
                io.StringIO(
                    client.get(f"/api/v1/events/{cast['event'].pk}/export.csv").content.decode()
                )
            )
        )
        row = next(r for r in rows if r["id"] == str(flagged.pk))
        assert (
            row["penalty"],
            row["announced_penalty"],
            row["computed_penalty"],
            row["needs_review"],
        ) == (W, W, GL, "True")
        assert "Announced at the table" in row["review_reason"]
        # earlier columns in place
        assert list(rows[0])[: len(exports.CSV_COLUMNS) - 4] == list(exports.CSV_COLUMNS[:-4])
        data = client.get(f"/api/v1/events/{cast['event'].pk}/export.json").json()
        record = next(c for c in data["calls"] if c["id"] == flagged.pk)
        assert (
            record["announced_penalty"],
            record["computed_penalty"],
            record["needs_review"],
        ) == (W, GL, True)


class HeadJudgeTests:
    def test_the_event_page_lists_flagged_calls_and_filters_to_them(self, cast):
        slow_play(cast)
        flagged = slow_play(cast, announced="Warning")
        html = page(cast["head_judge"]).get(f"/events/{cast['event'].pk}/").content.decode()
        assert 'id="flagged"' in html and "For the head judge (1)" in html
        assert (
            f"/events/{cast['event'].pk}/calls/{flagged.pk}/"
            in html.split('id="flagged"')[1].split("</section>")[0]
        )
        only = (
            page(cast["head_judge"]).get(f"/events/{cast['event'].pk}/?flagged=1").content.decode()
        )
        listed = only.split('id="calls"')[1].split('id="players"')[0]
        assert f"#{flagged.pk}<" in listed and listed.count('class="row call-row"') == 1

    def test_the_report_and_the_players_page_show_the_flag(self, cast):
        slow_play(cast)
        slow_play(cast, announced="Warning")
        report = (
            page(cast["head_judge"]).get(f"/events/{cast['event'].pk}/report/").content.decode()
        )
        assert "1 flagged for the head judge" in report
        assert "for the head judge: announced Warning, computed Game Loss" in report
        player = (
            page(cast["floor_judge"])
            .get(f"/events/{cast['event'].pk}/players/Ana/")
            .content.decode()
        )
        assert (
            "for the head judge: computed Game Loss" in player
            and "Announced at the table: Warning" in player
        )

    def test_the_call_page_shows_both_penalties(self, cast):
        slow_play(cast)
        flagged = slow_play(cast, announced="Warning")
        html = (
            page(cast["floor_judge"])
            .get(f"/events/{cast['event'].pk}/calls/{flagged.pk}/")
            .content.decode()
        )
        assert 'id="review"' in html
        assert (
            '<strong class="announced">Warning</strong>' in html
            and '<strong class="computed">Game Loss</strong>' in html
        )

    def test_the_head_judge_settles_a_flag_and_a_floor_judge_cannot(self, cast):
        from django.core.exceptions import PermissionDenied

        slow_play(cast)
        flagged = slow_play(cast, announced="Warning")
        with pytest.raises(PermissionDenied):
            editing.edit_call(cast["floor_judge"], cast["event"], flagged, {"needs_review": False})
        flagged.refresh_from_db()
        assert flagged.needs_review and CallRevision.objects.count() == 0
        refused = api(cast["floor_judge"]).patch(
            f"/api/v1/events/{cast['event'].pk}/calls/{flagged.pk}",
            {"needs_review": False},
            format="json",
        )
        assert refused.status_code == 403
        call, revision = editing.edit_call(
            cast["head_judge"],
            cast["event"],
            flagged,
            {"needs_review": False, "reason": "the Warning stands"},
        )
        assert (call.needs_review, call.penalty) == (False, W)
        assert (
            revision.changes == {"needs_review": [True, False]}
            and revision.reason == "the Warning stands"
        )

    def test_a_head_judge_setting_the_penalty_settles_the_flag(self, cast):
        slow_play(cast)
        flagged = slow_play(cast, announced="Warning")
        call, revision = editing.edit_call(
            cast["head_judge"], cast["event"], flagged, {"penalty": "Game Loss"}
        )
        assert (call.penalty, call.needs_review) == (GL, False)
        assert revision.changes["needs_review"] == [True, False]

    def test_the_edit_page_clears_the_flag_when_the_box_is_unticked(self, cast):
        slow_play(cast)
        flagged = slow_play(cast, announced="Warning")
        client = page(cast["head_judge"])
        form = client.get(f"/events/{cast['event'].pk}/calls/{flagged.pk}/edit").content.decode()
        assert 'name="needs_review"' in form
        client.post(
            f"/events/{cast['event'].pk}/calls/{flagged.pk}/edit",
            {
                "table": "12",
                "round": "3",
                "day": "1",
                "players": ["Ana"],
                "offender": "Ana",
                "penalty": "Warning",
                "review_shown": "yes",
            },
        )
        flagged.refresh_from_db()
        assert not flagged.needs_review


class UpgradeReasonTests:
    def test_after_a_warning_and_three_game_losses_the_reason_counts_one_warning(self, cast):
        calls = [slow_play(cast) for _ in range(4)]
        assert [c.penalty for c in calls] == [W, GL, GL, GL]
        fifth = slow_play(cast)
        assert fifth.penalty == GL
        assert "already received a Warning for Slow Play" in fifth.upgrade_reason
        assert "4 Warnings" not in fifth.upgrade_reason

    def test_game_play_errors_count_the_warnings_received(self, cast):
        calls = [
            recording.record_call(cast["floor_judge"], cast["event"], call_body(players=["Ana"]))[0]
            for _ in range(5)
        ]
        assert [c.penalty for c in calls] == [W, W, GL, GL, GL]
        assert "already received 2 Warnings for Game Rule Violation" in calls[-1].upgrade_reason

    def test_warnings_for_other_infractions_do_not_count_in_the_reason(self, cast):
        for _ in range(3):
            recording.record_call(cast["floor_judge"], cast["event"], call_body(players=["Ana"]))
        slow_play(cast)
        second = slow_play(cast)
        assert "already received a Warning for Slow Play" in second.upgrade_reason

    def test_the_reason_is_pure_and_counts_what_was_received(self):
        history = [penalties.Offense("SP", "", W)] + [penalties.Offense("SP", "", W, given=GL)] * 3
        result = penalties.apply_upgrades(history, penalties.Offense("Slow Play", "", W))
        assert (result.penalty, result.prior_warnings) == (GL, 1)
        assert "a Warning for Slow Play" in result.reason

    def test_upgrade_why_drops_the_opening_so_upgraded_is_said_once(self):
        reason = (
            "Upgraded to Game Loss: this player already received a Warning for Slow Play at this "
            "event."
        )
        assert (
            penalties.upgrade_why(reason)
            == "this player already received a Warning for Slow Play at this event."
        )


BRACKETED = GUIDE.replace(
    'penalty = { regular = "Warning", competitive = "Warning", professional = "Warning" '
    '}\nrefs = ["ipg@2021-01-06:3.3"]',
    'penalty = { regular = "Warning", competitive = "Warning (Tournament Error - Slow Play)", '
    'professional = "Warning (Tournament Error - Slow Play)" }\nrefs = ["ipg@2021-01-06:3.3"]',
)


class OneFormatTests:
    @pytest.fixture
    def bracketed_guide(self, monkeypatch):
        from guides import loader
        from guides import services as guide_services

        assert BRACKETED != GUIDE
        guide = loader.parse_guide(tomllib.loads(BRACKETED), source="test", default_slug=SLUG)
        monkeypatch.setattr(guide_services, "guides", lambda: {SLUG: guide})
        return guide

    def test_a_guide_that_names_the_infraction_in_brackets_stores_the_same_penalty(
        self, cast, bracketed_guide
    ):
        assert (
            bracketed_guide.nodes["slow"].penalty.competitive
            == "Warning (Tournament Error - Slow Play)"
        )
        first = slow_play(cast)
        ipg = recording.record_call(
            cast["floor_judge"],
            cast["event"],
            {"client_id": str(uuid.uuid4()), "infraction": "3.3", "players": ["Ben"]},
        )[0]
        assert (first.base_penalty, first.penalty, first.computed_penalty) == (W, W, W)
        assert ipg.base_penalty == first.base_penalty
        second = slow_play(cast)
        assert (second.base_penalty, second.penalty) == (W, GL)

    def test_the_preview_writes_it_the_same_way(self, cast, bracketed_guide):
        data = (
            api(cast["floor_judge"])
            .get(
                f"/api/v1/events/{cast['event'].pk}/players/Ana",
                {"guide": SLUG, "conclusion": "slow"},
            )
            .json()
        )
        assert (data["next"]["penalty"], data["next"]["base_penalty"]) == (W, W)

    def test_a_hand_edited_penalty_is_written_the_same_way(self, cast):
        call = slow_play(cast)
        call, _ = editing.edit_call(
            cast["floor_judge"], cast["event"], call, {"penalty": "game loss"}
        )
        assert call.penalty == GL

    def test_penalty_label(self):
        cases = {
            "Warning (Tournament Error - Insufficient Shuffling)": W,
            "Warning (Game Play Error - Looking at Extra Cards), to the shuffler": W,
            (
                "Game Loss (Tournament Error - Insufficient Shuffling, upgraded from a Warning: "
                "a second Tournament Error Warning)"
            ): GL,
            "Disqualification (Unsporting Conduct - Stalling)": "Disqualification",
            " warning ": W,
            "match loss": "Match Loss",
            # Not a penalty with its infraction: kept as written (a condition, the JAR's handling).
            "Disqualification (Unsporting Conduct - Cheating) if the investigation finds it": (
                "Disqualification (Unsporting Conduct - Cheating) if the investigation finds it"
            ),
            "No penalty (JAR)": "No penalty (JAR)",
            "Warning (a note)": "Warning (a note)",
        }
        for text, expected in cases.items():
            assert penalties.penalty_label(text) == expected, text
