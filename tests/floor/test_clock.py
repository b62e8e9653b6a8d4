"""The round clock (floor/): time left from its record, the head judge's actions, every judge
reading it."""

from __future__ import annotations

import datetime as dt
import uuid

import pytest
from hypothesis import given
from hypothesis import strategies as st
from rest_framework.test import APIClient

from floor.clock import WARNINGS, clock_state

T0 = dt.datetime(2026, 11, 24, 10, 0, tzinfo=dt.UTC)


class ClockStateTests:
    def test_running_paused_over_and_ended(self):
        running = clock_state(minutes=50, started_at=T0, now=T0 + dt.timedelta(minutes=42))
        assert (running.state, running.seconds_left, running.warning) == ("running", 480.0, 10)
        assert running.ends_at == T0 + dt.timedelta(minutes=50)
        paused = clock_state(
            minutes=50,
            started_at=T0,
            now=T0 + dt.timedelta(minutes=30),
            paused_at=T0 + dt.timedelta(minutes=20),
        )
        assert (paused.state, paused.seconds_left, paused.ends_at) == ("paused", 1800.0, None)
        assert (
            clock_state(minutes=50, started_at=T0, now=T0 + dt.timedelta(minutes=51)).state
            == "over"
        )
        ended = clock_state(
            minutes=50,
            started_at=T0,
            now=T0 + dt.timedelta(minutes=40),
            ended_at=T0 + dt.timedelta(minutes=30),
        )
        assert (ended.state, ended.seconds_left) == ("ended", 1200.0)

    @given(st.integers(1, 240), st.integers(0, 20000), st.integers(0, 5000))
    def test_time_left_is_the_length_less_the_time_run(self, minutes, ran, paused):
        now = T0 + dt.timedelta(seconds=ran + paused)
        s = clock_state(minutes=minutes, started_at=T0, now=now, paused_seconds=paused)
        assert s.seconds_left == max(0, minutes * 60 - ran)
        expected = next((w for w in sorted(WARNINGS) if 0 < s.seconds_left <= w * 60), None)
        assert s.warning == expected
        assert (s.state == "over") == (s.seconds_left == 0)


@pytest.mark.django_db
class ClockApiTests:
    @pytest.fixture
    def event(self):
        from django.contrib.auth.models import User

        from calllog import services as calllog

        head = User.objects.create_user("hj", password="x")
        User.objects.create_user("fj", password="x")
        User.objects.create_user("stranger", password="x")
        event = calllog.open_event(head, name="RCQ", date=dt.date(2026, 11, 24))
        calllog.add_judge(head, event, username="fj")
        return event

    def client_for(self, name):
        from django.contrib.auth.models import User

        client = APIClient()
        client.force_authenticate(User.objects.get(username=name))
        return client

    def test_head_judge_runs_it_and_every_judge_reads_it(self, event):
        hj, fj = self.client_for("hj"), self.client_for("fj")
        url = f"/api/v1/events/{event.pk}/clock"
        assert fj.get(url).json()["state"] == "none"
        started = hj.post(url, {"action": "start", "round": 3, "minutes": 50}, format="json").json()
        assert (started["state"], started["round"], started["minutes"]) == ("running", 3, 50)
        assert 2990 < fj.get(url).json()["seconds_left"] <= 3000
        assert hj.post(url, {"action": "pause"}, format="json").json()["state"] == "paused"
        assert hj.post(url, {"action": "add", "minutes": 3}, format="json").json()["minutes"] == 53
        assert hj.post(url, {"action": "resume"}, format="json").json()["state"] == "running"
        assert hj.post(url, {"action": "end"}, format="json").json()["state"] == "ended"
        # the next round by default
        assert hj.post(url, {"action": "start"}, format="json").json()["round"] == 4

    def test_an_extension_queued_offline_and_sent_twice_is_added_once(self, event):
        """A tablet that lost the reply sends its queued extension again: the round gains its
        minute once; another extension (another id) still adds."""
        hj = self.client_for("hj")
        url = f"/api/v1/events/{event.pk}/clock"
        hj.post(url, {"action": "start", "round": 1, "minutes": 30}, format="json")
        queued = {"action": "add", "minutes": 1, "client_id": str(uuid.uuid4())}
        assert hj.post(url, queued, format="json").json()["minutes"] == 31
        again = hj.post(url, queued, format="json")
        assert again.status_code == 200 and again.json()["minutes"] == 31
        other = {"action": "add", "client_id": str(uuid.uuid4())}
        assert hj.post(url, other, format="json").json()["minutes"] == 32
        bad = hj.post(url, {"action": "add", "client_id": "x y"}, format="json")
        assert bad.status_code == 400 and list(bad.json()["error"]["details"]) == ["client_id"]
        assert hj.get(url).json()["minutes"] == 32

    def test_refusals_are_json_and_change_nothing(self, event):
        from floor.models import RoundClock

        hj, fj, stranger = self.client_for("hj"), self.client_for("fj"), self.client_for("stranger")
        url = f"/api/v1/events/{event.pk}/clock"
        assert fj.post(url, {"action": "start"}, format="json").status_code == 403
        assert stranger.get(url).status_code == 404
        assert APIClient().get(url).status_code in (401, 403)
        for typed in ("fifty", "1_0", "\u0663", 50.0):
            bad = hj.post(url, {"action": "start", "minutes": typed}, format="json")
            assert bad.status_code == 400 and bad.json()["error"]["details"] == {
                "minutes": ["a whole number from 1 to 240"]
            }
        # well formed, but there is no clock to pause: a conflict with the event's state
        paused = hj.post(url, {"action": "pause"}, format="json")
        assert paused.status_code == 409 and paused.json()["error"]["code"] == "conflict"
        assert paused.json()["error"]["details"] == {
            "action": ["no round clock is started at this event"]
        }
        assert hj.post(url, {"action": "explode"}, format="json").status_code == 400
        listed = hj.post(url, [1, 2], format="json")
        assert listed.status_code == 400 and list(listed.json()["error"]["details"]) == ["body"]
        assert not RoundClock.objects.exists()

    def test_a_second_start_never_restarts_a_running_round(self, event):
        from floor.models import RoundClock

        hj, fj = self.client_for("hj"), self.client_for("fj")
        url = f"/api/v1/events/{event.pk}/clock"
        hj.post(url, {"action": "start", "round": 3, "minutes": 50}, format="json")
        first = RoundClock.objects.get()
        RoundClock.objects.filter(pk=first.pk).update(
            started_at=first.started_at - dt.timedelta(minutes=20)
        )
        for asked in ({"action": "start"}, {"action": "start", "round": 3}):
            again = hj.post(url, asked, format="json")
            assert again.status_code == 409
            assert list(again.json()["error"]["details"]) == ["restart"]
            assert "round 3 is running" in again.json()["error"]["details"]["restart"][0]
        assert RoundClock.objects.count() == 1
        assert 1700 < fj.get(url).json()["seconds_left"] <= 1800  # still 30 minutes, not 50
        hj.post(url, {"action": "pause"}, format="json")
        assert hj.post(url, {"action": "start"}, format="json").status_code == 409
        bad = hj.post(url, {"action": "start", "restart": "yes"}, format="json")
        assert bad.json()["error"]["details"] == {"restart": ["true or false"]}
        assert RoundClock.objects.count() == 1
        # an explicit restart starts it again at full time, and the old clock stops
        restarted = hj.post(url, {"action": "start", "round": 3, "restart": True}, format="json")
        assert (restarted.json()["state"], restarted.json()["seconds_left"]) == ("running", 3000)
        assert RoundClock.objects.get(pk=first.pk).ended_at is not None
        # once a round has ended, the next starts without asking
        hj.post(url, {"action": "end"}, format="json")
        assert hj.post(url, {"action": "start"}, format="json").json()["round"] == 4

    def test_a_queued_start_older_than_the_clock_standing_is_refused_and_the_later_start_stands(
        self, event
    ):
        from django.utils import timezone

        hj = self.client_for("hj")
        url = f"/api/v1/events/{event.pk}/clock"
        tapped = timezone.now() - dt.timedelta(minutes=2)  # on a tablet offline two minutes ago
        hj.post(url, {"action": "start", "round": 5, "minutes": 50}, format="json")  # another judge
        late = hj.post(
            url,
            {"action": "start", "round": 5, "restart": True, "started_at": tapped.isoformat()},
            format="json",
        )
        assert late.status_code == 409 and list(late.json()["error"]["details"]) == ["started_at"]
        shown = hj.get(url).json()
        assert (shown["state"], shown["round"]) == ("running", 5)
        assert shown["seconds_left"] > 2990  # the later start, not an ended clock at full time

    def test_time_extensions_from_the_call_log_show_per_table(self, event):
        from calllog import recording

        hj = self.client_for("hj")
        url = f"/api/v1/events/{event.pk}/clock"
        hj.post(url, {"action": "start", "round": 2}, format="json")
        from django.contrib.auth.models import User

        head = User.objects.get(username="hj")
        for table, minutes, round_number in (("12", 3, 2), ("12", 2, 2), ("4", 5, 2), ("7", 9, 1)):
            recording.record_call(
                head,
                event,
                {
                    "infraction": "3.3",
                    "table": table,
                    "round": round_number,
                    "players": ["Ana"],
                    "time_extension": minutes,
                    "client_id": str(uuid.uuid4()),
                },
            )
        assert self.client_for("fj").get(url).json()["extensions"] == [
            {"table": "12", "minutes": 5},
            {"table": "4", "minutes": 5},
        ]

    def test_the_clock_page_for_judges(self, event, client):
        from django.contrib.auth.models import User

        client.force_login(User.objects.get(username="fj"))
        page = client.get(f"/events/{event.pk}/clock/").content.decode()
        # floor judges read, head judges act
        assert 'id="round-clock"' in page and 'id="clock-controls"' not in page
        client.force_login(User.objects.get(username="hj"))
        assert 'id="clock-controls"' in client.get(f"/events/{event.pk}/clock/").content.decode()

    def test_deck_check_page_needs_no_sign_in(self, client):
        page = client.get("/tools/deck-check/").content.decode()
        assert page.count('class="tap plus"') == 9
