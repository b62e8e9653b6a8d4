"""Issue 13's call log on the real IPG: every infraction of the current IPG recorded directly, with
its penalty by REL and the IPG's upgrades; the time extension; the REL never silently overridden;
calls edited with every change kept; the event's player list, a rename following the player into
their calls."""

from __future__ import annotations

import uuid

import pytest
from rest_framework.test import APIClient

from calllog import infractions, penalties
from calllog.models import Call, CallRevision, Player
from rulesref.models import Rule
from tests.calllog.conftest import call_body

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("calllog_urls", "test_guide")]


def api(user) -> APIClient:
    client = APIClient()
    client.force_login(user)
    return client


def infraction_body(infraction: str, players=("Ana Costa", "Ben Ito"), **extra) -> dict:
    return {
        "client_id": str(uuid.uuid4()),
        "infraction": infraction,
        "players": list(players),
        **extra,
    }


def ipg_sections() -> list[Rule]:
    """The current IPG's sections in chapters 2-4 that state a Penalty, straight from
    the database."""
    rules = Rule.objects.filter(version__document__slug="ipg", version__is_current=True).order_by(
        "position"
    )
    return [
        r for r in rules if r.number[:2] in ("2.", "3.", "4.") and (r.fields or {}).get("penalty")
    ]


class CatalogueTests:
    def test_every_infraction_of_the_imported_ipg_is_listed_with_its_own_penalty_line(self, cast):
        sections = ipg_sections()
        assert len(sections) >= 20, "the real IPG should be imported for these tests"
        response = api(cast["floor_judge"]).get(f"/api/v1/events/{cast['event'].pk}/infractions")
        assert response.status_code == 200
        listed = {i["number"]: i for i in response.json()["infractions"]}
        assert sorted(listed) == sorted(r.number for r in sections)
        for rule in sections:
            item = listed[rule.number]
            assert item["title"] == rule.title
            line = " ".join(rule.fields["penalty"].split())
            assert item["penalty_line"] == line
            # the penalty to give: the line itself, or the penalty it names ("Warning with
            # potential upgrade" -> "Warning", IPG 3.5)
            assert item["penalty"]["competitive"] == item["penalty"]["professional"]
            assert line.startswith(item["penalty"]["competitive"]), (line, item)
            assert item["penalty"]["regular"] and item["regular_ref"].startswith("jar@")
            assert item["upgrade"] == (rule.fields.get("upgrade") or "")
            assert item["downgrade"] == " ".join((rule.fields.get("downgrade") or "").split())

    def test_at_regular_harassment_and_stalling_are_the_jars_serious_problems(self, cast):
        """JAR: "if a player is being threatening, aggressive or harassing other players, these
        situations are Serious Problems", and "Knowingly committing one of these behaviors [taking
        unreasonable amounts of time] is a Serious Problem". Unsporting Conduct - Major (harassment
        by its definition) and Stalling (intentional slow play) were listed at Regular as "None:
        educate the player" before the audit."""
        from rulesref.models import Rule as RuleRow

        serious = RuleRow.objects.get(
            version__document__slug="jar", version__is_current=True, title="Serious Problems"
        )
        assert "harassing" in serious.text
        for number in ("4.2", "4.7"):
            item = infractions.find(number)
            assert item is not None and item.name in (penalties.USC_MAJOR, "Stalling")
            assert item.regular.startswith("Disqualification"), item
            assert item.regular_ref.endswith(":Serious Problems"), item
        # Unsporting Conduct - Minor stays the JAR's education first.
        assert infractions.find("4.1").regular.startswith("None")

    def test_the_catalogue_states_the_unsporting_conduct_repeats(self, cast):
        minor, major = infractions.find("4.1"), infractions.find("4.2")
        assert "Game Loss" in minor.count_upgrade() and "IPG 4.1" in minor.count_upgrade()
        assert "Disqualification" in major.count_upgrade()
        assert infractions.find("4.3").count_upgrade() == ""

    def test_the_event_page_offers_every_infraction_in_its_form(self, cast, client):
        client.force_login(cast["floor_judge"])
        html = client.get(f"/events/{cast['event'].pk}/").content.decode()
        assert "Record an infraction" in html
        for rule in ipg_sections():
            assert f'<option value="{rule.number}">{rule.number} {rule.title}</option>' in html


class DirectCallTests:
    def test_each_infraction_recorded_three_times_upgrades_as_the_ipg_says(self, cast):
        event = cast["event"]
        client = api(cast["floor_judge"])
        for infraction in infractions.catalogue():
            got = []
            for _ in range(3):
                response = client.post(
                    f"/api/v1/events/{event.pk}/calls",
                    infraction_body(infraction.number, players=[f"P {infraction.number}"]),
                    format="json",
                )
                assert response.status_code == 201, response.json()
                got.append(response.json()["penalty"])
            base = infraction.penalty
            warned = penalties.is_warning(base)
            if infraction.name == penalties.USC_MINOR:
                # IPG 4.1: "Subsequent Unsporting Conduct - Minor infractions ... Game Loss"
                assert got == [base, "Game Loss", "Game Loss"], infraction
            elif infraction.name == penalties.USC_MAJOR:
                # IPG 4.2, Upgrade: "the offense is repeated at a later time" -> Disqualification
                assert got == [base, "Disqualification", "Disqualification"], infraction
            elif (
                not warned
                or infraction.category == penalties.UNSPORTING_CONDUCT
                or infraction.name == penalties.FTMGS
            ):
                assert got == [base] * 3, infraction
            elif infraction.category == penalties.GAME_PLAY_ERROR:
                assert got == [base, base, "Game Loss"], infraction
            else:
                assert got == [base, "Game Loss", "Game Loss"], infraction
        assert Call.objects.filter(event=event, guide="").count() == 3 * len(
            infractions.catalogue()
        )

    def test_two_game_losses_in_one_round_say_the_player_receives_one(self, cast):
        """IPG 1.1: "If a player would receive multiple Game Losses at the same time, they only
        receive one" (Tardiness and a Decklist Problem at the start of round 2, say)."""
        event, client = cast["event"], api(cast["floor_judge"])
        url = f"/api/v1/events/{event.pk}/calls"
        tardy = client.post(url, infraction_body("Tardiness", round=2), format="json").json()
        assert tardy["penalty"] == "Game Loss" and "only one" not in tardy["upgrade_reason"]
        decklist = client.post(
            url, infraction_body("Decklist Problem", round=2), format="json"
        ).json()
        assert decklist["penalty"] == "Game Loss" and not decklist["upgraded"]
        assert "only one" in decklist["upgrade_reason"]
        assert "1.1" in [c["number"] for c in decklist["citations"]]
        later = client.post(url, infraction_body("Decklist Problem", round=3), format="json")
        assert "only one" not in later.json()["upgrade_reason"]

    def test_preview_shows_the_upgrade_before_the_second_slow_play_is_saved(self, cast):
        event, client = cast["event"], api(cast["floor_judge"])
        url = f"/api/v1/events/{event.pk}/players/Ana Costa?infraction=Slow Play"
        first = client.get(url).json()["next"]
        assert (first["penalty"], first["upgraded"], first["base_penalty"]) == (
            "Warning",
            False,
            "Warning",
        )
        saved = client.post(
            f"/api/v1/events/{event.pk}/calls",
            infraction_body("3.3", time_extension=4),
            format="json",
        )
        assert saved.status_code == 201 and saved.json()["time_extension"] == 4
        second = client.get(url).json()["next"]
        assert (second["penalty"], second["upgraded"]) == ("Game Loss", True)
        # IPG 3, the Tournament Errors intro, and what a Game Loss is (IPG 1.1)
        assert [c["number"] for c in second["citations"]] == ["3", "1.1"]

    def test_regular_event_records_the_jars_handling_and_no_upgrade(self, cast):
        from calllog import services

        event = services.open_event(
            cast["floor_judge"], name="FNM", date="2026-11-20", rel="regular"
        )
        client = api(cast["floor_judge"])
        replies = [
            client.post(
                f"/api/v1/events/{event.pk}/calls", infraction_body("Slow Play"), format="json"
            ).json()
            for _ in range(2)
        ]
        assert [r["penalty"] for r in replies] == [infractions.find("3.3").regular] * 2
        assert not any(r["upgraded"] for r in replies)
        assert any(c["doc"] == "jar" for c in replies[0]["citations"])

    def test_unknown_infraction_and_bad_time_extension_are_refused_naming_the_field(self, cast):
        client = api(cast["floor_judge"])
        url = f"/api/v1/events/{cast['event'].pk}/calls"
        bad = client.post(url, infraction_body("Looking at the Moon"), format="json")
        assert bad.status_code == 400 and "infraction" in bad.json()["error"]["details"]
        bad = client.post(url, infraction_body("3.3", time_extension=500), format="json")
        assert bad.status_code == 400 and "time_extension" in bad.json()["error"]["details"]
        assert Call.objects.count() == 0 and Player.objects.count() == 0

    def test_the_same_client_id_is_stored_once(self, cast):
        client = api(cast["floor_judge"])
        url = f"/api/v1/events/{cast['event'].pk}/calls"
        body = infraction_body("2.2")
        assert client.post(url, body, format="json").status_code == 201
        assert client.post(url, body, format="json").status_code == 200
        assert client.post(url, {**body, "infraction": "3.3"}, format="json").status_code == 409
        assert Call.objects.count() == 1


class RelTests:
    def test_a_call_judged_at_another_rel_is_refused_not_overridden(self, cast):
        client = api(cast["floor_judge"])
        url = f"/api/v1/events/{cast['event'].pk}/calls"
        refused = client.post(url, call_body(rel="regular"), format="json")
        assert refused.status_code == 409
        error = refused.json()["error"]
        assert (
            error["code"] == "rel_mismatch"
            and "Regular" in error["message"]
            and "Competitive" in error["message"]
        )
        assert Call.objects.count() == 0
        assert client.post(url, call_body(rel="competitive"), format="json").status_code == 201


class EditTests:
    def test_any_judge_of_the_event_edits_and_every_change_is_kept(self, cast):
        event = cast["event"]
        created = (
            api(cast["head_judge"])
            .post(
                f"/api/v1/events/{event.pk}/calls", infraction_body("3.3", table="4"), format="json"
            )
            .json()
        )
        url = f"/api/v1/events/{event.pk}/calls/{created['id']}"
        edited = api(cast["floor_judge"]).patch(
            url, {"table": "14", "time_extension": 3, "reason": "wrong table"}, format="json"
        )
        assert edited.status_code == 200
        data = edited.json()
        assert (data["table"], data["time_extension"]) == ("14", 3)
        [revision] = data["revisions"]
        assert revision["editor"] == "floor" and revision["reason"] == "wrong table"
        assert revision["changes"] == {"table": ["4", "14"], "time_extension": [None, 3]}
        again = api(cast["head_judge"]).patch(url, {"penalty": "Game Loss"}, format="json").json()
        assert [r["editor"] for r in again["revisions"]] == ["floor", "head"]
        assert again["revisions"][1]["changes"]["penalty"] == ["Warning", "Game Loss"]
        # Nothing changed: no revision.
        api(cast["floor_judge"]).patch(url, {"table": "14"}, format="json")
        assert CallRevision.objects.filter(call_id=created["id"]).count() == 2

    def test_bad_edits_and_strangers_change_nothing(self, cast):
        event = cast["event"]
        created = (
            api(cast["head_judge"])
            .post(f"/api/v1/events/{event.pk}/calls", infraction_body("3.3"), format="json")
            .json()
        )
        url = f"/api/v1/events/{event.pk}/calls/{created['id']}"
        assert (
            api(cast["floor_judge"]).patch(url, {"offender": "Zed"}, format="json").status_code
            == 400
        )
        assert (
            api(cast["floor_judge"]).patch(url, {"ruling": "other"}, format="json").status_code
            == 400
        )
        assert api(cast["other"]).patch(url, {"table": "1"}, format="json").status_code == 404
        assert CallRevision.objects.count() == 0
        assert Call.objects.get().offender == "Ana Costa"

    def test_edit_page_saves_a_revision_shown_on_the_call(self, cast, client):
        event = cast["event"]
        created = (
            api(cast["head_judge"])
            .post(
                f"/api/v1/events/{event.pk}/calls",
                infraction_body("3.3", table="4", round=2),
                format="json",
            )
            .json()
        )
        client.force_login(cast["floor_judge"])
        response = client.post(
            f"/events/{event.pk}/calls/{created['id']}/edit",
            {
                "table": "9",
                "round": "2",
                "day": "1",
                "players": ["Ana Costa", "Ben Ito"],
                "offender": "Ana Costa",
                "penalty": "Warning",
                "time_extension": "5",
                "reason": "moved tables",
            },
        )
        assert response.status_code == 302
        page = client.get(f"/events/{event.pk}/calls/{created['id']}/").content.decode()
        assert "moved tables" in page and "floor" in page and "+5 minutes" in page
        detail = client.get(f"/events/{event.pk}/").content.decode()
        assert "Time extensions" in detail and "+5" in detail


class PlayerListTests:
    def test_calls_add_their_players_to_the_list_spelled_as_listed(self, cast):
        event, client = cast["event"], api(cast["floor_judge"])
        assert (
            client.post(
                f"/api/v1/events/{event.pk}/players", {"name": "Ana  Costa"}, format="json"
            ).status_code
            == 201
        )
        assert (
            client.post(
                f"/api/v1/events/{event.pk}/players", {"name": "ana costa"}, format="json"
            ).status_code
            == 200
        )
        reply = client.post(
            f"/api/v1/events/{event.pk}/calls",
            infraction_body("3.3", players=["ANA COSTA", "New Person"]),
            format="json",
        ).json()
        assert reply["players"] == ["Ana Costa", "New Person"] and reply["offender"] == "Ana Costa"
        assert sorted(Player.objects.filter(event=event).values_list("name", flat=True)) == [
            "Ana Costa",
            "New Person",
        ]

    def test_renaming_a_typo_merges_the_penalty_history(self, cast):
        event, client = cast["event"], api(cast["floor_judge"])
        url = f"/api/v1/events/{event.pk}/calls"
        client.post(url, infraction_body("3.3", players=["Ana Costa"]), format="json")
        # the typo: a second Warning
        client.post(url, infraction_body("3.3", players=["Ana Cotsa"]), format="json")
        assert list(Call.objects.order_by("id").values_list("penalty", flat=True)) == [
            "Warning",
            "Warning",
        ]
        conflict = client.patch(
            f"/api/v1/events/{event.pk}/players/Ana Cotsa", {"name": "Ana Costa"}, format="json"
        )
        assert conflict.status_code == 409 and Player.objects.filter(event=event).count() == 2
        merged = client.patch(
            f"/api/v1/events/{event.pk}/players/Ana Cotsa",
            {"name": "Ana Costa", "merge": True},
            format="json",
        )
        assert merged.status_code == 200 and merged.json() == {"name": "Ana Costa", "calls": 2}
        assert set(Call.objects.values_list("offender", flat=True)) == {"Ana Costa"}
        assert CallRevision.objects.get().changes["offender"] == ["Ana Cotsa", "Ana Costa"]
        # One history now: the next Slow Play for her is the upgrade.
        preview = client.get(f"/api/v1/events/{event.pk}/players/Ana Costa?infraction=3.3").json()
        assert preview["next"]["penalty"] == "Game Loss" and len(preview["penalties"]) == 2

    def test_a_named_player_cannot_be_removed_a_listed_one_can(self, cast):
        event, client = cast["event"], api(cast["floor_judge"])
        client.post(
            f"/api/v1/events/{event.pk}/calls",
            infraction_body("3.3", players=["Ana Costa"]),
            format="json",
        )
        client.post(f"/api/v1/events/{event.pk}/players", {"name": "Walk In"}, format="json")
        assert client.delete(f"/api/v1/events/{event.pk}/players/Ana Costa").status_code == 409
        assert client.delete(f"/api/v1/events/{event.pk}/players/Walk In").status_code == 204
        assert list(Player.objects.values_list("name", flat=True)) == ["Ana Costa"]
        assert (
            api(cast["other"])
            .post(f"/api/v1/events/{event.pk}/players", {"name": "X"}, format="json")
            .status_code
            == 404
        )


class PageFormTests:
    """The same without JavaScript: plain form posts."""

    def test_record_form_posts_a_call_and_refuses_an_unknown_infraction(self, cast, client):
        client.force_login(cast["floor_judge"])
        url = f"/events/{cast['event'].pk}/record"
        response = client.post(
            url,
            {
                "infraction": "3.3",
                "offender": "Ana Costa",
                "opponent": "Ben Ito",
                "table": "3",
                "round": "1",
                "time_extension": "2",
            },
        )
        call = Call.objects.get()
        assert (
            response.status_code == 302
            and response.url == f"/events/{cast['event'].pk}/calls/{call.pk}/"
        )
        assert (call.infraction, call.penalty, call.time_extension, call.players) == (
            "Slow Play",
            "Warning",
            2,
            ["Ana Costa", "Ben Ito"],
        )
        refused = client.post(url, {"infraction": "9.9", "offender": "Ana Costa"})
        assert refused.status_code == 400 and "infraction" in refused.content.decode()
        assert Call.objects.count() == 1

    def test_player_page_renames_merges_and_removes(self, cast, client):
        event = cast["event"]
        client.force_login(cast["floor_judge"])
        client.post(f"/events/{event.pk}/record", {"infraction": "3.3", "offender": "Ana Cotsa"})
        client.post(f"/events/{event.pk}/players/", {"name": "Ana Costa"})
        conflict = client.post(
            f"/events/{event.pk}/players/Ana Cotsa/rename", {"new_name": "Ana Costa"}
        )
        assert conflict.status_code == 409 and "Merge into Ana Costa" in conflict.content.decode()
        merged = client.post(
            f"/events/{event.pk}/players/Ana Cotsa/rename",
            {"new_name": "Ana Costa", "merge": "yes"},
        )
        assert merged.status_code == 302
        assert Call.objects.get().offender == "Ana Costa"
        assert list(Player.objects.values_list("name", flat=True)) == ["Ana Costa"]
        refused = client.post(f"/events/{event.pk}/players/Ana Costa/remove")
        assert refused.status_code == 409 and Player.objects.count() == 1
        client.post(f"/events/{event.pk}/players/", {"name": "Walk In"})
        assert client.post(f"/events/{event.pk}/players/Walk In/remove").status_code == 302
        assert list(Player.objects.values_list("name", flat=True)) == ["Ana Costa"]


class BadInputTests:
    @pytest.mark.parametrize(
        ("method", "path", "body", "field"),
        [
            ("post", "players", {"name": ""}, "name"),
            ("post", "players", {"name": "A/B"}, "name"),
            (
                "post",
                "calls",
                {"client_id": "x", "infraction": "3.3", "players": ["A"]},
                "client_id",
            ),
            (
                "post",
                "calls",
                {"client_id": str(uuid.uuid4()), "infraction": 33, "players": ["A"]},
                "infraction",
            ),
            (
                "post",
                "calls",
                {"client_id": str(uuid.uuid4()), "infraction": "3.3", "players": []},
                "players",
            ),
            (
                "post",
                "calls",
                {
                    "client_id": str(uuid.uuid4()),
                    "infraction": "3.3",
                    "players": ["A"],
                    "rel": "casual",
                },
                "rel",
            ),
            (
                "post",
                "calls",
                {
                    "client_id": str(uuid.uuid4()),
                    "infraction": "3.3",
                    "players": ["A"],
                    "time_extension": -1,
                },
                "time_extension",
            ),
            ("patch", "players/Ana Costa", {"name": "  "}, "name"),
            ("patch", "players/Ana Costa", {"name": "Ann", "merge": "yes"}, "merge"),
            ("patch", "calls/{call}", {"round": "soon"}, "round"),
            ("patch", "calls/{call}", {"penalty": ""}, "penalty"),
            ("patch", "calls/{call}", ["table"], "body"),
        ],
    )
    def test_refused_naming_the_field_and_nothing_changes(self, cast, method, path, body, field):
        client = api(cast["floor_judge"])
        event = cast["event"]
        call = client.post(
            f"/api/v1/events/{event.pk}/calls", infraction_body("3.3"), format="json"
        ).json()
        before = (
            list(Call.objects.values()),
            list(Player.objects.values()),
            CallRevision.objects.count(),
        )
        url = f"/api/v1/events/{event.pk}/" + path.format(call=call["id"])
        response = getattr(client, method)(url, body, format="json")
        assert response.status_code == 400, response.content
        error = response.json()["error"]
        assert error["code"] == "invalid" and field in error["details"], error
        assert (
            list(Call.objects.values()),
            list(Player.objects.values()),
            CallRevision.objects.count(),
        ) == before


class MergePropertyTests:
    """However a player's name was typed across calls, merging the spellings gives one history whose
    next penalty is the one an independent count of that history gives (IPG 2 and 3 intros)."""

    def test_merged_spellings_count_as_one_player(self, cast):
        from hypothesis import HealthCheck, given, settings
        from hypothesis import strategies as st

        event, client = cast["event"], api(cast["floor_judge"])
        spellings = ["Ana Costa", "ana costa", "ANA  COSTA", "Ana Cotsa", "Anna Costa"]

        @settings(
            max_examples=12,
            deadline=None,
            suppress_health_check=[HealthCheck.function_scoped_fixture],
        )
        @given(
            st.lists(
                st.tuples(st.sampled_from(spellings), st.sampled_from(["3.3", "2.5"])),
                min_size=1,
                max_size=5,
            )
        )
        def check(calls):
            Call.objects.filter(event=event).delete()
            Player.objects.filter(event=event).delete()
            for name, section in calls:
                reply = client.post(
                    f"/api/v1/events/{event.pk}/calls",
                    infraction_body(section, players=[name]),
                    format="json",
                )
                assert reply.status_code == 201
            for typo in ("Ana Cotsa", "Anna Costa"):
                if Player.objects.filter(event=event, key=typo.casefold()).exists():
                    target = (
                        "Ana Costa"
                        if Player.objects.filter(event=event, key="ana costa").exists()
                        else None
                    )
                    body = {"name": "Ana Costa", "merge": True} if target else {"name": "Ana Costa"}
                    assert (
                        client.patch(
                            f"/api/v1/events/{event.pk}/players/{typo}", body, format="json"
                        ).status_code
                        == 200
                    )
            # One player, spelled as the list first spelled them; every call names them so.
            [listed] = Player.objects.filter(event=event)
            assert listed.key == "ana costa"
            assert set(Call.objects.filter(event=event).values_list("offender", flat=True)) == {
                listed.name
            }
            for section, limit in (("3.3", 1), ("2.5", 2)):
                earlier = sum(1 for _, s in calls if s == section)
                preview = client.get(
                    f"/api/v1/events/{event.pk}/players/Ana Costa?infraction={section}"
                ).json()["next"]
                assert preview["penalty"] == ("Game Loss" if earlier >= limit else "Warning"), (
                    calls,
                    section,
                )

        check()


class HistoryOrderTests:
    """A player's calls are counted in the order they were given (day, round), not the order they
    reached the server; a late call or an edit counts the others again and flags what changed."""

    def _grv(self, cast, round_, **extra):
        event = cast["event"]
        body = infraction_body("2.5", round=round_, **{"announced_penalty": "Warning", **extra})
        return (
            api(cast["floor_judge"])
            .post(f"/api/v1/events/{event.pk}/calls", body, format="json")
            .json()
        )

    def test_a_call_synced_late_counts_only_earlier_rounds_and_flags_the_later_call(self, cast):
        third, fourth = self._grv(cast, 3), self._grv(cast, 4)
        assert (third["penalty"], fourth["penalty"], fourth["needs_review"]) == (
            "Warning",
            "Warning",
            False,
        )
        late = self._grv(cast, 2)  # a tablet offline in round 2, synced after round 4
        assert (late["computed_penalty"], late["needs_review"]) == ("Warning", False)
        fourth_now = Call.objects.get(pk=fourth["id"])
        # round 4's was the third Game Rule Violation Warning of the day (IPG 2): flagged
        assert fourth_now.computed_penalty == "Game Loss" and fourth_now.needs_review
        assert "call #" in fourth_now.review_reason and "Game Loss" in fourth_now.review_reason
        assert fourth_now.penalty == "Warning", (
            "what was announced stays until the head judge decides"
        )
        assert not Call.objects.get(pk=third["id"]).needs_review

    def test_a_day_two_warning_after_two_on_day_one_is_a_warning(self, cast):
        self._grv(cast, 1, day=1)
        self._grv(cast, 2, day=1)
        assert self._grv(cast, 1, day=2)["penalty"] == "Warning"  # IPG 2: counts reset between days
        url = f"/api/v1/events/{cast['event'].pk}/players/Ana Costa?infraction=2.5"
        ask = api(cast["floor_judge"]).get
        assert ask(f"{url}&day=2&round=2").json()["next"]["penalty"] == "Warning"
        assert ask(f"{url}&day=1&round=3").json()["next"]["penalty"] == "Game Loss"

    def test_an_upgraded_call_moved_to_another_player_flags_it_and_the_calls_it_upgraded(
        self, cast
    ):
        event = cast["event"]
        self._grv(cast, 1)
        self._grv(cast, 2)
        upgraded = self._grv(cast, 3, announced_penalty="Game Loss")
        assert upgraded["penalty"] == "Game Loss" and not upgraded["needs_review"]
        first = Call.objects.filter(event=event).order_by("pk").first()
        api(cast["head_judge"]).patch(
            f"/api/v1/events/{event.pk}/calls/{first.pk}",
            {"players": ["Ben Ito", "Ana Costa"], "offender": "Ben Ito", "reason": "wrong player"},
            format="json",
        )
        moved_from = Call.objects.get(pk=upgraded["id"])
        # Ana now has one Warning before round 3: her Game Loss is no longer the count's
        assert moved_from.computed_penalty == "Warning" and moved_from.needs_review


class EditRecountTests:
    def _grv(self, cast, round_, **extra):
        body = infraction_body("2.5", round=round_, **{"announced_penalty": "Warning", **extra})
        event = cast["event"]
        return (
            api(cast["floor_judge"])
            .post(f"/api/v1/events/{event.pk}/calls", body, format="json")
            .json()
        )

    def test_a_call_moved_to_day_two_is_counted_again_itself(self, cast):
        event = cast["event"]
        self._grv(cast, 1)
        self._grv(cast, 2)
        third = self._grv(cast, 3, announced_penalty="Game Loss")
        assert third["penalty"] == "Game Loss" and third["upgraded"]
        api(cast["head_judge"]).patch(
            f"/api/v1/events/{event.pk}/calls/{third['id']}", {"day": 2}, format="json"
        )
        moved = Call.objects.get(pk=third["id"])
        # IPG 2: the count resets between days: the count gives a Warning, the call records a
        # Game Loss: flagged, no longer an upgrade by count
        assert (moved.computed_penalty, moved.upgraded, moved.needs_review) == (
            "Warning",
            False,
            True,
        )

    def test_a_flag_the_count_no_longer_supports_says_so(self, cast):
        event = cast["event"]
        first = self._grv(cast, 1)
        self._grv(cast, 2)
        third = self._grv(cast, 3)  # announced Warning, the count gives Game Loss: flagged
        assert third["needs_review"]
        api(cast["head_judge"]).patch(
            f"/api/v1/events/{event.pk}/calls/{first['id']}",
            {"players": ["Ben Ito", "Ana Costa"], "offender": "Ben Ito"},
            format="json",
        )
        now = Call.objects.get(pk=third["id"])
        assert now.computed_penalty == "Warning"
        assert "the count now gives Warning" in now.review_reason

    def test_moved_there_and_back_it_is_an_upgrade_again_and_reasons_do_not_nest(self, cast):
        event = cast["event"]
        url = f"/api/v1/events/{event.pk}/calls"
        self._grv(cast, 1)
        self._grv(cast, 2)
        third = self._grv(cast, 3, announced_penalty="Game Loss")
        head = api(cast["head_judge"])
        head.patch(f"{url}/{third['id']}", {"day": 2}, format="json")
        head.patch(f"{url}/{third['id']}", {"day": 1}, format="json")
        back = Call.objects.get(pk=third["id"])
        assert (back.penalty, back.computed_penalty, back.upgraded) == ("Game Loss",) * 2 + (True,)
        assert back.review_reason.count("Counted again") <= 1

    def test_a_penalty_and_a_day_set_together_leave_the_count_of_the_new_day(self, cast):
        event = cast["event"]
        self._grv(cast, 1)
        self._grv(cast, 2)
        third = self._grv(cast, 3, announced_penalty="Game Loss")
        api(cast["head_judge"]).patch(
            f"/api/v1/events/{event.pk}/calls/{third['id']}",
            {"day": 2, "penalty": "Warning"},
            format="json",
        )
        now = Call.objects.get(pk=third["id"])
        assert (now.penalty, now.computed_penalty, now.needs_review) == (
            "Warning",
            "Warning",
            False,
        )
