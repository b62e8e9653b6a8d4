"""The call log's JSON API: session and basic auth, isolation (404), head-judge-only notes and
exports, idempotent POSTs, the error shape, and refused requests leaving the database as it was."""

from __future__ import annotations

import base64
import csv
import io
import json

import pytest
from rest_framework.test import APIClient

from calllog.models import Call, Event, EventJudge
from tests.calllog.conftest import SLUG, call_body

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("calllog_urls", "test_guide")]


def client_for(user, *, csrf: bool = False) -> APIClient:
    client = APIClient(enforce_csrf_checks=csrf)
    if user is not None:
        client.force_login(user)
    return client


def calls_url(event) -> str:
    return f"/api/v1/events/{event.pk}/calls"


def post_call(user, event, body):
    return client_for(user).post(calls_url(event), body, format="json")


def snapshot() -> tuple:
    return (
        Call.objects.count(),
        Event.objects.count(),
        EventJudge.objects.count(),
        list(Call.objects.values_list("investigation_notes", flat=True)),
    )


class EventApiTests:
    def test_create_event_makes_you_head_judge(self, people):
        response = client_for(people["floor_judge"]).post(
            "/api/v1/events", {"name": "FNM", "date": "2026-11-20", "rel": "regular"}, format="json"
        )
        assert response.status_code == 201
        data = response.json()
        assert (data["name"], data["rel"], data["role"], data["head_judge"]) == (
            "FNM",
            "regular",
            "head",
            "floor",
        )
        assert data["judges"] == [{"username": "floor", "role": "head"}]

    def test_bad_event_is_refused_in_the_error_shape(self, people):
        before = Event.objects.count()
        response = client_for(people["floor_judge"]).post(
            "/api/v1/events", {"name": "FNM", "date": "soon", "rel": "regular"}, format="json"
        )
        assert response.status_code == 400
        assert response.json()["error"]["code"] == "invalid"
        assert "date" in response.json()["error"]["details"]
        assert Event.objects.count() == before

    def test_my_events_lists_only_mine(self, cast):
        names = [
            e["name"]
            for e in client_for(cast["floor_judge"]).get("/api/v1/events").json()["events"]
        ]
        assert names == ["Regional Championship"]
        names = [
            e["name"] for e in client_for(cast["other"]).get("/api/v1/events").json()["events"]
        ]
        assert names == ["Store Championship"]

    def test_signed_out_requests_are_refused(self, cast):
        before = snapshot()
        anonymous = client_for(None)
        assert anonymous.get("/api/v1/events").status_code in (401, 403)
        response = anonymous.post(calls_url(cast["event"]), call_body(), format="json")
        assert response.status_code in (401, 403)
        assert response.json()["error"]["code"] == "not_authenticated"
        assert snapshot() == before

    def test_head_judge_adds_a_judge(self, cast):
        response = client_for(cast["head_judge"]).post(
            f"/api/v1/events/{cast['event'].pk}/judges", {"username": "other"}, format="json"
        )
        assert response.status_code == 201
        assert (
            client_for(cast["other"]).get(f"/api/v1/events/{cast['event'].pk}").json()["role"]
            == "floor"
        )

    def test_a_head_judge_does_not_learn_which_accounts_exist(self, cast):
        """Issue 29: the same answer for an account and a made-up username; staff are told."""
        head = client_for(cast["other"])  # not staff
        url = f"/api/v1/events/{cast['other_event'].pk}/judges"
        memberships = EventJudge.objects.count()
        unknown = head.post(url, {"username": "no-such-judge"}, format="json")
        assert EventJudge.objects.count() == memberships
        known = head.post(url, {"username": "floor"}, format="json")
        assert (unknown.status_code, known.status_code) == (201, 201)
        assert unknown.json() == {**known.json(), "username": "no-such-judge"}
        assert set(unknown.json()) == set(known.json()) == {"username", "role"}
        assert EventJudge.objects.count() == memberships + 1
        staff = client_for(cast["head_judge"]).post(
            f"/api/v1/events/{cast['event'].pk}/judges",
            {"username": "no-such-judge"},
            format="json",
        )
        assert staff.status_code == 400 and "no-such-judge" in staff.json()["error"]["message"]

    def test_floor_judge_cannot_add_a_judge(self, cast):
        before = snapshot()
        response = client_for(cast["floor_judge"]).post(
            f"/api/v1/events/{cast['event'].pk}/judges", {"username": "other"}, format="json"
        )
        assert response.status_code == 403
        assert snapshot() == before


class IsolationTests:
    """Another event's judge gets 404 on every route of an event that is not theirs."""

    def routes(self, cast, call):
        e = cast["event"].pk
        return [
            ("get", f"/api/v1/events/{e}"),
            ("get", f"/api/v1/events/{e}/calls"),
            ("get", f"/api/v1/events/{e}/calls/{call.pk}"),
            ("get", f"/api/v1/events/{e}/players"),
            ("get", f"/api/v1/events/{e}/players/Ana"),
            ("get", f"/api/v1/events/{e}/export.csv"),
            ("get", f"/api/v1/events/{e}/export.json"),
            ("put", f"/api/v1/events/{e}/calls/{call.pk}/notes"),
            ("post", f"/api/v1/events/{e}/judges"),
            ("post", f"/api/v1/events/{e}/calls"),
        ]

    def test_another_events_judge_gets_404_everywhere(self, cast):
        call = Call.objects.get(
            pk=post_call(cast["floor_judge"], cast["event"], call_body()).json()["id"]
        )
        before = snapshot()
        client = client_for(cast["other"])
        bodies = {"put": {"investigation_notes": "mine now"}, "post": call_body(), "get": None}
        for method, url in self.routes(cast, call):
            response = getattr(client, method)(url, bodies[method], format="json")
            assert response.status_code == 404, (method, url, response.status_code)
            assert response.json()["error"]["code"] == "not_found"
        assert snapshot() == before

    def test_a_missing_event_looks_the_same_as_someone_elses(self, cast):
        missing = client_for(cast["other"]).get("/api/v1/events/999999/calls")
        foreign = client_for(cast["other"]).get(calls_url(cast["event"]))
        assert (missing.status_code, missing.json()) == (foreign.status_code, foreign.json())


class CallApiTests:
    def test_post_then_repost_returns_the_same_call(self, cast):
        body = call_body()
        first = post_call(cast["floor_judge"], cast["event"], body)
        again = post_call(cast["floor_judge"], cast["event"], body)
        assert (first.status_code, again.status_code) == (201, 200)
        assert first.json() == again.json()
        assert Call.objects.count() == 1

    def test_reused_client_id_with_other_answers_is_409(self, cast):
        body = call_body()
        post_call(cast["floor_judge"], cast["event"], body)
        response = post_call(cast["floor_judge"], cast["event"], {**body, "answers": ["Slow play"]})
        assert response.status_code == 409
        assert response.json()["error"]["code"] == "conflict"
        assert Call.objects.count() == 1

    def test_upgrade_is_reported_in_the_response(self, cast):
        results = [
            post_call(cast["floor_judge"], cast["event"], call_body("Slow play")).json()
            for _ in range(2)
        ]
        assert [(r["base_penalty"], r["penalty"], r["upgraded"]) for r in results] == [
            ("Warning", "Warning", False),
            ("Warning", "Game Loss", True),
        ]
        assert "Slow Play" in results[1]["upgrade_reason"]

    def test_bad_call_is_400_naming_the_field(self, cast):
        response = post_call(
            cast["floor_judge"], cast["event"], call_body(answers=["Not sure", "Maybe"])
        )
        assert response.status_code == 400
        error = response.json()["error"]
        assert error["code"] == "invalid" and "answers[1]" in error["details"]
        assert Call.objects.count() == 0

    @pytest.mark.parametrize("field", ["round", "day", "time_extension"])
    @pytest.mark.parametrize("raw", ["1e400", "-1e400", '"1_0"', '"\\u00b2"', '"\\u0663"', "2.5"])
    def test_a_number_that_is_not_a_plain_whole_number_is_400_naming_it(self, cast, field, raw):
        # 1e400 is JSON's infinity once read; "1_0", "²" and "٣" are no whole numbers a judge types
        body = call_body()
        body.pop(field, None)
        text = json.dumps(body)[:-1] + f', "{field}": {raw}}}'
        response = client_for(cast["floor_judge"]).post(
            calls_url(cast["event"]), text, content_type="application/json"
        )
        assert response.status_code == 400, response.content
        assert field in response.json()["error"]["details"]
        assert Call.objects.count() == 0

    @pytest.mark.parametrize(
        "path", ["/api/v1/events", "/api/v1/events/{e}/judges", "/api/v1/events/{e}/players"]
    )
    def test_a_body_that_is_no_object_is_named_body(self, cast, path):
        url = path.format(e=cast["event"].pk)
        response = client_for(cast["head_judge"]).post(url, [1, 2], format="json")
        assert response.status_code == 400
        assert list(response.json()["error"]["details"]) == ["body"]

    def test_non_object_body_is_400(self, cast):
        response = client_for(cast["floor_judge"]).post(
            calls_url(cast["event"]), [1, 2], format="json"
        )
        assert response.status_code == 400
        assert Call.objects.count() == 0

    def test_list_and_detail_hide_notes_from_floor_judges(self, cast):
        call_id = post_call(cast["floor_judge"], cast["event"], call_body()).json()["id"]
        Call.objects.filter(pk=call_id).update(investigation_notes="player seemed to know")
        e = cast["event"].pk
        floor, head = client_for(cast["floor_judge"]), client_for(cast["head_judge"])
        assert "investigation_notes" not in floor.get(f"/api/v1/events/{e}/calls/{call_id}").json()
        assert (
            "investigation_notes" not in floor.get(f"/api/v1/events/{e}/calls").json()["calls"][0]
        )
        assert "player seemed" not in floor.get(f"/api/v1/events/{e}/players/Ana").content.decode()
        assert (
            head.get(f"/api/v1/events/{e}/calls/{call_id}").json()["investigation_notes"]
            == "player seemed to know"
        )

    def test_only_head_judges_write_notes(self, cast):
        call_id = post_call(cast["floor_judge"], cast["event"], call_body()).json()["id"]
        url = f"/api/v1/events/{cast['event'].pk}/calls/{call_id}/notes"
        before = snapshot()
        assert (
            client_for(cast["floor_judge"])
            .put(url, {"investigation_notes": "x"}, format="json")
            .status_code
            == 403
        )
        assert snapshot() == before
        response = client_for(cast["head_judge"]).put(
            url, {"investigation_notes": "asked both players"}, format="json"
        )
        assert response.status_code == 200
        assert Call.objects.get(pk=call_id).investigation_notes == "asked both players"

    def test_player_history_and_next_penalty(self, cast):
        post_call(cast["floor_judge"], cast["event"], call_body(players=["Ana", "Ben"]))
        post_call(cast["floor_judge"], cast["event"], call_body(players=["Ana", "Ben"]))
        url = f"/api/v1/events/{cast['event'].pk}/players/ana"
        data = client_for(cast["floor_judge"]).get(url, {"guide": SLUG, "conclusion": "grv"}).json()
        assert data["name"] == "Ana" and [p["penalty"] for p in data["penalties"]] == [
            "Warning",
            "Warning",
        ]
        assert (
            data["next"]["penalty"],
            data["next"]["upgraded"],
            data["next"]["prior_warnings"],
        ) == (
            "Game Loss",
            True,
            2,
        )
        assert data["next"]["citations"][0]["number"] == "2"
        ftmgs = (
            client_for(cast["floor_judge"])
            .get(url, {"guide": SLUG, "conclusion": "ftmgs"})
            .json()["next"]
        )
        assert (ftmgs["penalty"], ftmgs["upgraded"]) == ("Warning", False)
        # A player with no calls yet: the preview still answers.
        fresh = client_for(cast["floor_judge"]).get(
            f"/api/v1/events/{cast['event'].pk}/players/Zoe", {"guide": SLUG, "conclusion": "grv"}
        )
        assert fresh.status_code == 200 and fresh.json()["next"]["penalty"] == "Warning"
        assert (
            client_for(cast["floor_judge"])
            .get(f"/api/v1/events/{cast['event'].pk}/players/Zoe")
            .status_code
            == 404
        )


class AuthTests:
    def test_session_post_needs_the_csrf_token(self, cast):
        client = client_for(cast["floor_judge"], csrf=True)
        refused = client.post(calls_url(cast["event"]), call_body(), format="json")
        assert refused.status_code == 403
        assert Call.objects.count() == 0
        client.get("/events/")  # a page sets the csrftoken cookie, as the tablet's guide page does
        token = client.cookies["csrftoken"].value
        accepted = client.post(
            calls_url(cast["event"]), call_body(), format="json", HTTP_X_CSRFTOKEN=token
        )
        assert accepted.status_code == 201

    def test_basic_auth_for_scripts(self, cast):
        client = APIClient()
        credentials = base64.b64encode(b"floor:pw-floor-judge").decode()
        client.credentials(HTTP_AUTHORIZATION=f"Basic {credentials}")
        assert client.post(calls_url(cast["event"]), call_body(), format="json").status_code == 201
        client.credentials(HTTP_AUTHORIZATION="Basic " + base64.b64encode(b"floor:wrong").decode())
        assert client.get(calls_url(cast["event"])).status_code in (401, 403)


class ExportTests:
    def record_three(self, cast):
        post_call(
            cast["floor_judge"],
            cast["event"],
            call_body("Slow play", players=["=cmd()", "Ben"], table="7", round=2),
        )
        post_call(
            cast["floor_judge"],
            cast["event"],
            call_body("Slow play", players=["=cmd()", "Ben"], table="7", round=4),
        )
        post_call(
            cast["head_judge"], cast["event"], call_body("A rules question", players=["Carl"])
        )
        Call.objects.filter(table="7", round=4).update(investigation_notes="talked to both")

    def test_csv_has_every_call_with_notes_and_safe_cells(self, cast):
        self.record_three(cast)
        response = client_for(cast["head_judge"]).get(
            f"/api/v1/events/{cast['event'].pk}/export.csv"
        )
        assert response.status_code == 200 and response["Content-Type"].startswith("text/csv")
        rows = list(csv.DictReader(io.StringIO(response.content.decode())))
        assert len(rows) == 3
        by_round = {row["round"]: row for row in rows}
        assert (by_round["2"]["penalty"], by_round["4"]["penalty"], by_round["4"]["upgraded"]) == (
            "Warning",
            "Game Loss",
            "True",
        )
        assert by_round["4"]["investigation_notes"] == "talked to both"
        assert by_round["4"]["offender"] == "'=cmd()"  # not a spreadsheet formula
        assert by_round["4"]["players"] == "'=cmd() | Ben"
        assert "IPG 3.3" in by_round["4"]["citations"] and "IPG 3" in by_round["4"][
            "citations"
        ].split(" | ")
        assert {row["judge"] for row in rows} == {"floor", "head"}
        ids = {str(c.pk) for c in Call.objects.all()}
        assert {row["id"] for row in rows} == ids

    def test_json_export_matches_the_database(self, cast):
        self.record_three(cast)
        data = json.loads(
            client_for(cast["head_judge"])
            .get(f"/api/v1/events/{cast['event'].pk}/export.json")
            .content
        )
        assert (
            data["event"]["name"] == "Regional Championship"
            and data["event"]["rel"] == "competitive"
        )
        assert len(data["calls"]) == 3
        for record in data["calls"]:
            call = Call.objects.get(pk=record["id"])
            assert (
                record["penalty"],
                record["players"],
                record["answers"],
                record["investigation_notes"],
            ) == (
                call.penalty,
                call.players,
                call.answers,
                call.investigation_notes,
            )

    def test_floor_judge_cannot_export(self, cast):
        self.record_three(cast)
        for kind in ("csv", "json"):
            response = client_for(cast["floor_judge"]).get(
                f"/api/v1/events/{cast['event'].pk}/export.{kind}"
            )
            assert response.status_code == 403
            assert "talked to both" not in response.content.decode()
