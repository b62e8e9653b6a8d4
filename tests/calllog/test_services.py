"""Call-log services: recording calls from guide walks, upgrades from earlier calls, who
sees what."""

from __future__ import annotations

import pytest
from django.core.exceptions import PermissionDenied
from django.http import Http404

from calllog import recording, services
from calllog.models import Call, Event, EventJudge
from tests.calllog.conftest import SLUG, call_body

pytestmark = pytest.mark.django_db


def record(cast, answer="Game Rule Violation", judge="floor_judge", event="event", **extra):
    call, created = recording.record_call(cast[judge], cast[event], call_body(answer, **extra))
    assert created
    return call


class RecordCallTests:
    def test_call_keeps_a_snapshot_of_what_was_shown(self, cast, test_guide):
        call = record(cast, players=["Ana", "Ben"])
        assert (call.guide, call.conclusion, call.answers) == (SLUG, "grv", ["Game Rule Violation"])
        assert (call.infraction, call.category) == ("Game Rule Violation", "game_play_error")
        assert (call.base_penalty, call.penalty, call.upgraded) == ("Warning", "Warning", False)
        assert call.offender == "Ana" and call.judge == cast["floor_judge"]
        assert call.ruling == "Game Rule Violation." and call.fix.startswith("Back up")
        # The citation was resolved in the IPG current in the test database, with its text.
        assert call.citations[0]["doc"] == "ipg" and call.citations[0]["number"] == "2.5"
        assert "Game Rule Violation" in call.citations[0]["title"]

    def test_a_walk_through_a_second_question_reaches_the_same_conclusion(self, cast, test_guide):
        call, _ = recording.record_call(
            cast["floor_judge"], cast["event"], call_body(answers=["Not sure", "Yes"])
        )
        assert call.conclusion == "grv"

    def test_third_grv_warning_for_a_player_is_a_game_loss_with_its_reason(self, cast, test_guide):
        penalties = [record(cast, players=["Ana", "Ben"]).penalty for _ in range(3)]
        assert penalties == ["Warning", "Warning", "Game Loss"]
        third = Call.objects.filter(event=cast["event"]).order_by("-id").first()
        assert third.upgraded and third.base_penalty == "Warning"
        assert "Game Rule Violation" in third.upgrade_reason
        # The reason's rule (the IPG chapter 2 intro) is among the citations, resolved.
        chapter = next(c for c in third.citations if (c["doc"], c["number"]) == ("ipg", "2"))
        assert "never upgraded" in chapter["text"]
        assert ("ipg", "1.1") in {(c["doc"], c["number"]) for c in third.citations}

    def test_upgrades_count_only_the_offender(self, cast, test_guide):
        record(cast, players=["Ana", "Ben"])
        record(cast, players=["Ben", "Ana"])
        record(cast, players=["Ana", "Ben"], offender="Ben")
        assert record(cast, players=["Ana", "Ben"], offender="  ben ").penalty == "Game Loss"
        assert record(cast, players=["Ana", "Ben"]).penalty == "Warning"

    def test_second_slow_play_is_a_game_loss(self, cast, test_guide):
        assert record(cast, "Slow play").penalty == "Warning"
        second = record(cast, "Slow play")
        assert (second.penalty, second.upgraded) == ("Game Loss", True)
        assert any(c["number"] == "3" for c in second.citations)

    def test_ftmgs_is_never_upgraded(self, cast, test_guide):
        assert [record(cast, "Did not point it out").penalty for _ in range(4)] == ["Warning"] * 4

    def test_different_infractions_do_not_count_together(self, cast, test_guide):
        got = [
            record(cast, a).penalty
            for a in (
                "Game Rule Violation",
                "Slow play",
                "Did not point it out",
                "Game Rule Violation",
                "Did not point it out",
            )
        ]
        assert got == ["Warning"] * 5

    def test_other_events_do_not_count(self, cast, test_guide):
        for _ in range(2):
            record(cast, judge="other", event="other_event")
        assert record(cast).penalty == "Warning"

    def test_regular_rel_never_upgrades(self, cast, test_guide):
        event = cast["event"]
        Event.objects.filter(pk=event.pk).update(rel="regular")
        event.refresh_from_db()
        calls = [record(cast, "Slow play") for _ in range(3)]
        assert [c.penalty for c in calls] == ["Warning"] * 3
        assert "Regular REL" in calls[1].upgrade_reason
        assert calls[1].citations[-1]["doc"] == "jar"

    def test_counts_reset_between_days(self, cast, test_guide):
        assert record(cast, "Slow play", day=1).penalty == "Warning"
        assert record(cast, "Slow play", day=2).penalty == "Warning"
        assert record(cast, "Slow play", day=2).penalty == "Game Loss"

    def test_a_call_without_an_infraction_has_no_upgrade(self, cast, test_guide):
        call = record(cast, "A rules question")
        assert (call.infraction, call.penalty, call.upgraded) == ("", "None", False)


class IdempotencyTests:
    def test_same_client_id_twice_stores_one_call(self, cast, test_guide):
        body = call_body()
        first, created = recording.record_call(cast["floor_judge"], cast["event"], body)
        again, created_again = recording.record_call(cast["floor_judge"], cast["event"], dict(body))
        assert (created, created_again) == (True, False)
        assert again.pk == first.pk
        assert Call.objects.count() == 1

    def test_a_retry_does_not_count_as_another_warning(self, cast, test_guide):
        body = call_body()
        for _ in range(3):
            recording.record_call(cast["floor_judge"], cast["event"], body)
        assert record(cast).penalty == "Warning"

    def test_same_client_id_with_other_answers_is_a_conflict(self, cast, test_guide):
        body = call_body()
        recording.record_call(cast["floor_judge"], cast["event"], body)
        with pytest.raises(services.ClientIdConflict):
            recording.record_call(
                cast["floor_judge"], cast["event"], {**body, "answers": ["Slow play"]}
            )
        assert Call.objects.count() == 1

    def test_same_client_id_at_another_event_is_another_call(self, cast, test_guide):
        body = call_body()
        recording.record_call(cast["floor_judge"], cast["event"], body)
        recording.record_call(cast["other"], cast["other_event"], body)
        assert Call.objects.count() == 2


class RefusedCallTests:
    @pytest.mark.parametrize(
        "change, field",
        [
            ({"client_id": "not-a-uuid"}, "client_id"),
            ({"guide": "no-such-guide"}, "guide"),
            ({"answers": ["Nonsense"]}, "answers[0]"),
            ({"answers": ["Not sure"]}, "answers"),
            ({"conclusion": "slow"}, "conclusion"),
            ({"players": ["Ana", 3]}, "players"),
            ({"players": ["A/B"]}, "players"),
            ({"offender": "Carl"}, "offender"),
            ({"round": -1}, "round"),
            ({"day": 0}, "day"),
            ({"created_at": "yesterday"}, "created_at"),
        ],
    )
    def test_bad_input_names_the_field_and_stores_nothing(self, cast, test_guide, change, field):
        with pytest.raises(services.InvalidCall) as caught:
            recording.record_call(cast["floor_judge"], cast["event"], call_body(**change))
        assert caught.value.field == field
        assert Call.objects.count() == 0

    def test_another_events_judge_cannot_record(self, cast, test_guide):
        with pytest.raises(Http404):
            recording.record_call(cast["other"], cast["event"], call_body())
        assert Call.objects.count() == 0

    def test_client_time_is_kept(self, cast, test_guide):
        call = record(cast, created_at="2026-11-22T09:30:00Z")
        assert call.created_at.isoformat() == "2026-11-22T09:30:00+00:00"


class PermissionTests:
    def test_only_the_events_judges_find_it(self, cast):
        event = cast["event"]
        assert services.event_for(cast["floor_judge"], event.pk) == event
        with pytest.raises(Http404):
            services.event_for(cast["other"], event.pk)
        from django.contrib.auth.models import AnonymousUser

        with pytest.raises(Http404):
            services.event_for(AnonymousUser(), event.pk)

    def test_floor_judge_cannot_add_judges_write_notes_or_export(self, cast, test_guide):
        event = cast["event"]
        call = record(cast)
        memberships = EventJudge.objects.count()
        with pytest.raises(PermissionDenied):
            services.add_judge(cast["floor_judge"], event, username="other")
        with pytest.raises(PermissionDenied):
            services.set_notes(cast["floor_judge"], event, call, "suspicious")
        with pytest.raises(PermissionDenied):
            services.calls_for_export(cast["floor_judge"], event)
        assert EventJudge.objects.count() == memberships
        call.refresh_from_db()
        assert call.investigation_notes == ""

    def test_head_judge_adds_a_judge_who_then_sees_the_event(self, cast):
        services.add_judge(cast["head_judge"], cast["event"], username="other", role="head")
        assert services.is_head(cast["other"], cast["event"])

    def test_unknown_username_is_refused(self, cast):
        with pytest.raises(services.InvalidCall):
            services.add_judge(cast["head_judge"], cast["event"], username="nobody")

    def test_opening_an_event_makes_you_its_head_judge(self, people):
        event = services.open_event(
            people["floor_judge"], name="FNM", date="2026-11-20", rel="regular"
        )
        assert event.head_judge == people["floor_judge"]
        assert services.role_of(people["floor_judge"], event) == "head"
        assert services.role_of(people["head_judge"], event) is None


class PlayerHistoryTests:
    def test_history_lists_penalties_and_calls_naming_the_player(self, cast, test_guide):
        record(cast, players=["Ana", "Ben"])
        record(cast, "Slow play", players=["Ben", "Ana"])
        record(cast, "A rules question", players=["Ana", "Carl"])
        ana = services.player_history(cast["floor_judge"], cast["event"], "ana")
        assert [c.infraction for c in ana.penalties] == ["Game Rule Violation"]
        assert len(ana.calls) == 3
        ben = services.player_history(cast["floor_judge"], cast["event"], "Ben")
        assert [c.infraction for c in ben.penalties] == ["Slow Play"]
        with pytest.raises(Http404):
            services.player_history(cast["other"], cast["event"], "Ana")

    def test_preview_says_what_the_next_penalty_would_be(self, cast, test_guide):
        record(cast, "Slow play")
        preview = services.preview_penalty(
            cast["floor_judge"], cast["event"], player="Ana", infraction="SP", penalty="Warning"
        )
        assert (preview.penalty, preview.upgraded) == ("Game Loss", True)
        assert Call.objects.count() == 1


class RaceTests:
    def test_a_copy_stored_while_this_one_was_replayed_is_returned_not_doubled(
        self, cast, test_guide, monkeypatch
    ):
        """Two deliveries of one queued call: the other stores it between this one's check
        and insert."""
        from guides import services as guide_services

        body = call_body()
        replay = guide_services.replay

        def replay_while_the_other_delivery_lands(slug, answers):
            monkeypatch.setattr(guide_services, "replay", replay)
            recording.record_call(cast["head_judge"], cast["event"], body)  # the other delivery
            return replay(slug, answers)

        monkeypatch.setattr(guide_services, "replay", replay_while_the_other_delivery_lands)
        call, created = recording.record_call(cast["floor_judge"], cast["event"], body)
        assert not created
        assert call.judge == cast["head_judge"]
        assert Call.objects.count() == 1
