"""The call log's pages: sign in, my events, opening an event, adding judges, calls, players, notes,
the printable report and downloads; another event's judges get 404 and refused posts
change nothing."""

from __future__ import annotations

import json
import re

import pytest
from django.test import Client

from calllog import recording
from calllog.models import Call, Event, EventJudge
from tests.calllog.conftest import SLUG, call_body

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("calllog_urls", "test_guide")]


def browser(user=None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def record(cast, answer="Game Rule Violation", **extra):
    return recording.record_call(cast["floor_judge"], cast["event"], call_body(answer, **extra))[0]


class SignInTests:
    def test_pages_send_signed_out_judges_to_the_login_page(self, cast):
        response = browser().get(f"/events/{cast['event'].pk}/")
        assert response.status_code == 302
        assert response["Location"].startswith("/accounts/login/?next=")

    def test_login_page_signs_a_judge_in(self, cast):
        client = Client()
        page = client.get("/accounts/login/?next=/events/")
        assert page.status_code == 200 and b'name="password"' in page.content
        response = client.post(
            "/accounts/login/",
            {"username": "floor", "password": "pw-floor-judge", "next": "/events/"},
        )
        assert response.status_code == 302 and response["Location"] == "/events/"
        assert b"Regional Championship" in client.get("/events/").content

    def test_wrong_password_says_so(self, cast):
        response = Client().post("/accounts/login/", {"username": "floor", "password": "nope"})
        assert response.status_code == 200 and b"do not match" in response.content


class EventPageTests:
    def test_my_events_lists_only_mine(self, cast):
        page = browser(cast["other"]).get("/events/").content.decode()
        assert "Store Championship" in page and "Regional Championship" not in page

    def test_a_guide_offers_the_judges_own_events_to_save_a_call_to(self, cast):
        # The call log lists them for the guide page through guides.pages' registry (guides never
        # import it).
        response = browser(cast["floor_judge"]).get(f"/guides/{SLUG}/")
        assert response.status_code == 200, response.status_code
        page = response.content.decode()
        events = json.loads(
            page.split('id="guide-events" type="application/json">', 1)[1].split("</script>", 1)[0]
        )
        assert [e["name"] for e in events] == ["Regional Championship"]
        assert (
            browser(cast["other"])
            .get(f"/guides/{SLUG}/")
            .content.decode()
            .count("Regional Championship")
            == 0
        )

    def test_open_an_event(self, people):
        response = browser(people["floor_judge"]).post(
            "/events/new", {"name": "Friday Night Magic", "date": "2026-11-20", "rel": "regular"}
        )
        event = Event.objects.get(name="Friday Night Magic")
        assert response.status_code == 302 and response["Location"] == f"/events/{event.pk}/"
        assert (event.rel, event.head_judge) == ("regular", people["floor_judge"])

    def test_bad_event_form_is_shown_again_and_stores_nothing(self, people):
        response = browser(people["floor_judge"]).post(
            "/events/new", {"name": "", "date": "2026-11-20", "rel": "regular"}
        )
        assert response.status_code == 400 and b"needs a name" in response.content
        assert Event.objects.count() == 0

    def test_event_page_shows_calls_players_and_penalties(self, cast):
        for _ in range(3):
            record(cast, players=["Ana", "Ben"])
        page = browser(cast["floor_judge"]).get(f"/events/{cast['event'].pk}/").content.decode()
        assert page.count("Game Rule Violation") >= 3
        assert "Game Loss (upgraded)" in page
        assert f"/events/{cast['event'].pk}/players/Ana/" in page
        # Floor judges see no exports and no add-judge form.
        assert "export.csv" not in page and 'name="username"' not in page

    def test_head_judge_sees_exports_and_adds_a_judge(self, cast):
        client = browser(cast["head_judge"])
        page = client.get(f"/events/{cast['event'].pk}/").content.decode()
        assert "export.csv" in page and "export.json" in page and 'name="username"' in page
        response = client.post(
            f"/events/{cast['event'].pk}/judges", {"username": "other", "role": "floor"}
        )
        assert response.status_code == 302
        assert browser(cast["other"]).get(f"/events/{cast['event'].pk}/").status_code == 200

    def test_unknown_username_is_shown_and_nothing_changes(self, cast):
        before = EventJudge.objects.count()
        response = browser(cast["head_judge"]).post(
            f"/events/{cast['event'].pk}/judges", {"username": "nobody"}
        )
        assert response.status_code == 400 and b"nobody" in response.content
        assert EventJudge.objects.count() == before

    def test_floor_judge_cannot_add_judges(self, cast):
        before = EventJudge.objects.count()
        response = browser(cast["floor_judge"]).post(
            f"/events/{cast['event'].pk}/judges", {"username": "other"}
        )
        assert response.status_code == 403
        assert EventJudge.objects.count() == before


class IsolationPageTests:
    def test_another_events_judge_gets_404_on_every_page(self, cast):
        call = record(cast)
        e = cast["event"].pk
        client = browser(cast["other"])
        for url in (
            f"/events/{e}/",
            f"/events/{e}/players/Ana/",
            f"/events/{e}/calls/{call.pk}/",
            f"/events/{e}/report/",
            f"/events/{e}/export.csv",
            f"/events/{e}/export.json",
        ):
            assert client.get(url).status_code == 404, url
        before = (EventJudge.objects.count(), Call.objects.get(pk=call.pk).investigation_notes)
        assert (
            client.post(f"/events/{e}/calls/{call.pk}/", {"investigation_notes": "x"}).status_code
            == 404
        )
        assert (
            client.post(f"/events/{e}/judges", {"username": "other", "role": "head"}).status_code
            == 404
        )
        assert (
            EventJudge.objects.count(),
            Call.objects.get(pk=call.pk).investigation_notes,
        ) == before


class CallPageTests:
    def test_head_judge_keeps_notes_floor_judge_never_sees_them(self, cast):
        call = record(cast)
        url = f"/events/{cast['event'].pk}/calls/{call.pk}/"
        head = browser(cast["head_judge"])
        assert head.post(url, {"investigation_notes": "Ben says Ana knew"}).status_code == 302
        assert "Ben says Ana knew" in head.get(url).content.decode()
        floor_page = browser(cast["floor_judge"]).get(url).content.decode()
        assert "Ben says Ana knew" not in floor_page and "Investigation notes" not in floor_page
        assert "IPG 2.5" in floor_page

    def test_floor_judge_posting_notes_is_refused(self, cast):
        call = record(cast)
        response = browser(cast["floor_judge"]).post(
            f"/events/{cast['event'].pk}/calls/{call.pk}/", {"investigation_notes": "x"}
        )
        assert response.status_code == 403
        assert Call.objects.get(pk=call.pk).investigation_notes == ""

    def test_player_page_lists_the_players_penalties(self, cast):
        record(cast, "Slow play", players=["Ana Lima", "Ben"])
        record(cast, "Slow play", players=["Ana Lima", "Ben"])
        page = (
            browser(cast["floor_judge"])
            .get(f"/events/{cast['event'].pk}/players/ana lima/")
            .content.decode()
        )
        assert "<h1>Ana Lima</h1>" in page and "2 penalties" in page
        assert "Upgraded to Game Loss" in page


class ReportTests:
    def test_report_lists_every_call_and_prints(self, cast):
        calls = [
            record(cast, a, players=["Ana", "Ben"])
            for a in ("Slow play", "Slow play", "A rules question")
        ]
        page = (
            browser(cast["floor_judge"]).get(f"/events/{cast['event'].pk}/report/").content.decode()
        )
        for call in calls:
            assert re.search(rf"<td>{call.pk}</td>", page)
        assert "@media print" in page
        assert "1 upgraded penalty" in page
        assert "(upgraded from Warning)" in page

    def test_page_downloads_are_for_head_judges(self, cast):
        record(cast)
        e = cast["event"].pk
        assert browser(cast["floor_judge"]).get(f"/events/{e}/export.csv").status_code == 403
        response = browser(cast["head_judge"]).get(f"/events/{e}/export.csv")
        assert response.status_code == 200 and "attachment" in response["Content-Disposition"]
        assert response.content.decode().count("\n") == 2
