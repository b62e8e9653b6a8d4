"""The sixth rulings audit's wrong answers (docs/audits/rulings6-2026-11-29.md), on the real IPG and
JAR: a direct call gives the fix with its penalty (IPG 1.2), an Unsporting Conduct call the head
judge took back no longer upgrades the player's next one (IPG 4.1, 4.2), and the infraction
finder's Deck Problem reads the IPG's own words and its exclusions (IPG 3.5)."""

from __future__ import annotations

import datetime as dt
import json
import re
import uuid
from pathlib import Path

import pytest
from rest_framework.test import APIClient

import guides
from calllog import recording, services
from guides.loader import HEAD_JUDGE_NOTE, load_guide
from rulesref.models import Rule

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("calllog_urls", "test_guide")]


def api(user) -> APIClient:
    client = APIClient()
    client.force_login(user)
    return client


def record(user, event, infraction: str, offender: str = "Una", **extra) -> dict:
    response = api(user).post(
        f"/api/v1/events/{event.pk}/calls",
        {
            "client_id": str(uuid.uuid4()),
            "infraction": infraction,
            "players": [offender, "Zed"],
            **extra,
        },
        format="json",
    )
    assert response.status_code == 201, response.content
    return response.json()


def finder_path(guide, node_id: str) -> list[int]:
    from guides import links

    return links.path_to(guide, node_id)


def current_ipg_section(number: str) -> Rule:
    return Rule.objects.get(version__document__slug="ipg", version__is_current=True, number=number)


class DirectCallFixTests:
    def test_every_direct_call_stores_the_sections_additional_remedy_as_its_fix(self, cast):
        """IPG 1.2: "the judge must explain the infraction, the procedure for fixing the situation,
        and the penalty". Before the audit every direct call was stored with an empty fix."""
        event = cast["event"]
        listed = api(cast["floor_judge"]).get(f"/api/v1/events/{event.pk}/infractions").json()
        assert len(listed["infractions"]) >= 20
        for item in listed["infractions"]:
            remedy = (current_ipg_section(item["number"]).fields or {}).get("additional_remedy")
            call = record(cast["head_judge"], event, item["number"], offender=f"P{item['number']}")
            assert call["fix"] == item["fix"]["competitive"] == item["fix"]["professional"]
            # IPG 1.2: a Game Loss or more is the Head Judge's to issue, save Tardiness and
            # Decklist Problem; said beside the penalty the call records
            severe = call["penalty"] in ("Game Loss", "Match Loss", "Disqualification")
            exempt = item["name"] in ("Tardiness", "Decklist Problem")
            assert (call["head_judge_note"] == HEAD_JUDGE_NOTE) == (severe and not exempt)
            assert (item["head_judge_note"] == "") == exempt
            if "backup" in (remedy or "").lower() or "back up" in (remedy or "").lower():
                assert "Only the Head Judge may authorize a backup (IPG 1.4)" in call["fix"]
            if remedy:
                # every paragraph of the section's remedy, as the IPG words it
                for paragraph in remedy.split("\n\n"):
                    assert " ".join(paragraph.split()) in call["fix"], (item["number"], paragraph)
                assert f"IPG {item['number']}, Additional Remedy" in call["fix"]
            else:
                assert item["fix"]["competitive"] == f"No additional remedy (IPG {item['number']})."

    def test_a_warning_the_count_makes_a_game_loss_goes_to_the_head_judge(self, cast):
        event = cast["event"]
        calls = [record(cast["head_judge"], event, "3.3", round=r) for r in (1, 2)]
        assert [c["penalty"] for c in calls] == ["Warning", "Game Loss"]
        assert calls[0]["head_judge_note"] == "" and calls[1]["head_judge_note"] == HEAD_JUDGE_NOTE
        assert HEAD_JUDGE_NOTE not in calls[1]["fix"]
        assert "chooses whether to play or draw" in calls[1]["upgrade_reason"]
        # the note follows the penalty the call records: edited back to a Warning, it is gone
        url = f"/api/v1/events/{event.pk}/calls/{calls[1]['id']}"
        edited = api(cast["head_judge"]).patch(url, {"penalty": "Warning"}, format="json").json()
        assert edited["head_judge_note"] == ""
        page = api(cast["head_judge"]).get(f"/events/{event.pk}/calls/{calls[1]['id']}/")
        assert HEAD_JUDGE_NOTE.encode() not in page.content.replace(b"&#x27;", b"'")

    def test_a_guide_call_stores_its_fix_without_the_note_and_says_it_by_rel(
        self, cast, monkeypatch
    ):
        """The finder's Outside Assistance conclusion says the note on its page; the call stores
        the fix without it and says it beside the penalty, never at Regular REL."""
        from guides import loader
        from guides import services as guide_services

        every = loader.load_all(loader.DEFINITIONS)  # the real guides, not this module's test guide
        monkeypatch.setattr(guide_services, "guides", lambda: every)
        finder = every["infraction-finder"]
        assert HEAD_JUDGE_NOTE in finder.nodes["oa-match-loss"].fix
        regular = services.open_event(
            cast["head_judge"], name="FNM", date=dt.date(2026, 11, 27), rel="regular"
        )
        for event in (cast["event"], regular):
            call = recording.record_call(
                cast["head_judge"],
                event,
                {
                    "client_id": str(uuid.uuid4()),
                    "guide": "infraction-finder",
                    "answers": finder_path(finder, "oa-match-loss"),
                    "players": ["Kim", "Lu"],
                    "round": 1,
                },
            )[0]
            assert HEAD_JUDGE_NOTE not in call.fix
            assert call.head_judge_note == ("" if event.rel == "regular" else HEAD_JUDGE_NOTE)

    def test_the_finders_severe_conclusions_go_to_the_head_judge(self):
        finder = load_guide(Path(guides.__file__).parent / "definitions" / "infraction-finder.toml")
        for node_id in ("oa-match-loss", "dp-pregame", "cheating", "usc-major"):
            assert HEAD_JUDGE_NOTE in finder.nodes[node_id].fix, node_id
        # Tardiness's Game Loss a floor judge issues (IPG 1.2's exception)
        assert HEAD_JUDGE_NOTE not in finder.nodes["tardy-game-loss"].fix
        # the IPG's part of the fix, before the JAR's
        fix = finder.nodes["dp-pregame"].fix
        if "At Regular" in fix:
            assert fix.index(HEAD_JUDGE_NOTE) < fix.index("At Regular")

    def test_the_remedies_a_judge_announces(self, cast):
        event = cast["event"]
        assert "additional mulligan" in record(cast["head_judge"], event, "2.4")["fix"]
        assert "time extension" in record(cast["head_judge"], event, "3.1", offender="Ty")["fix"]
        assert "two additional turns" in record(cast["head_judge"], event, "3.3")["fix"]
        assert "leave the venue" in record(cast["head_judge"], event, "4.5", offender="Al")["fix"]

    def test_at_regular_the_fix_is_the_jars(self, cast):
        regular = services.open_event(
            cast["head_judge"], name="FNM", date=dt.date(2026, 11, 27), rel="regular"
        )
        jar = {
            r.number: " ".join(r.text.split())
            for r in Rule.objects.filter(version__document__slug="jar", version__is_current=True)
        }
        hidden = record(cast["head_judge"], regular, "2.3")  # JAR 1.3: extra cards drawn
        assert jar["1.3"] in hidden["fix"] and "Additional Remedy" not in hidden["fix"]
        deck = record(cast["head_judge"], regular, "3.5", offender="Bo")  # JAR 1.5
        assert jar["1.5"] in deck["fix"]
        # an infraction the JAR does not name: its introduction, never the IPG's remedy
        cpv = record(cast["head_judge"], regular, "3.7", offender="Cy")
        assert "do not apply at Regular REL" in cpv["fix"] and "backup" not in cpv["fix"]

    def test_regular_tardiness_says_the_jars_whole_sentence(self, cast):
        """JAR, General Unwanted Behaviors: "a player who is more than 10 minutes late to a match
        has forfeited and should be dropped from the tournament at the end of the round if still
        absent"; the direct call left out the drop."""
        regular = services.open_event(
            cast["head_judge"], name="FNM", date=dt.date(2026, 11, 27), rel="regular"
        )
        call = record(cast["head_judge"], regular, "3.1")
        assert "dropped from the tournament at the end of the round" in call["penalty"]

    def test_the_record_form_has_each_infractions_fix_by_rel(self, cast):
        page = api(cast["floor_judge"]).get(f"/events/{cast['event'].pk}/").content.decode()
        assert 'id="record-fix"' in page
        found = re.search(
            r'<script id="infraction-data" type="application/json">(.*?)</script>', page, re.S
        )
        data = {i["number"]: i for i in json.loads(found.group(1))}
        assert "additional mulligan" in data["2.4"]["fix"]["competitive"]
        assert data["2.4"]["fix"]["regular"].endswith("(Judging at Regular REL)")

    def test_failure_to_maintain_game_state_at_regular_is_not_the_trigger_procedure(self, cast):
        """Its JAR citation is 1.1's "(which must be pointed out)"; its fix at Regular is the
        underlying error's (JAR 1.4), never the missed trigger's."""
        regular = services.open_event(
            cast["head_judge"], name="FNM", date=dt.date(2026, 11, 27), rel="regular"
        )
        fix = record(cast["head_judge"], regular, "2.6")["fix"]
        assert "put the ability on the stack" not in fix and "in-game error" in fix

    def test_a_general_unwanted_behaviour_is_fixed_by_its_own_line(self, cast):
        regular = services.open_event(
            cast["head_judge"], name="FNM", date=dt.date(2026, 11, 27), rel="regular"
        )
        fix = record(cast["head_judge"], regular, "3.9")["fix"]
        assert "shuffling" in fix and "Tardiness" not in fix and "educate" in fix


class OverturnedUnsportingConductTests:
    @pytest.mark.parametrize(
        ("number", "upgraded"), [("4.1", "Game Loss"), ("4.2", "Disqualification")]
    )
    def test_a_call_taken_back_is_no_earlier_offense(self, cast, number, upgraded):
        """IPG 4.1: "Subsequent Unsporting Conduct - Minor infractions ... will result in a Game
        Loss"; 4.2's Upgrade: "the offense is repeated". A call the head judge edited to "No
        penalty" is neither; it still counted before the audit."""
        event = cast["event"]
        first = record(cast["head_judge"], event, number, round=1)
        url = f"/api/v1/events/{event.pk}/calls/{first['id']}"
        overturned = api(cast["head_judge"]).patch(
            url, {"penalty": "No penalty", "reason": "not unsporting, on appeal"}, format="json"
        )
        assert overturned.status_code == 200
        again = record(cast["head_judge"], event, number, round=3)
        assert again["penalty"] == first["penalty"] and not again["upgraded"]
        # one that stands still upgrades the next
        record(cast["head_judge"], event, number, round=4)
        assert record(cast["head_judge"], event, number, round=5)["penalty"] == upgraded

    def test_a_penalty_written_with_a_note_still_counts(self, cast):
        event = cast["event"]
        first = record(cast["head_judge"], event, "4.1", round=1)
        api(cast["head_judge"]).patch(
            f"/api/v1/events/{event.pk}/calls/{first['id']}",
            {"penalty": "Warning (given late, round 2)"},
            format="json",
        )
        assert record(cast["head_judge"], event, "4.1", round=3)["penalty"] == "Game Loss"

    def test_taking_back_the_first_flags_the_upgraded_second(self, cast):
        event = cast["event"]
        first = record(cast["head_judge"], event, "4.1", round=1)
        second = record(cast["head_judge"], event, "4.1", round=2)
        assert second["penalty"] == "Game Loss" and second["upgraded"]
        api(cast["head_judge"]).patch(
            f"/api/v1/events/{event.pk}/calls/{first['id']}",
            {"penalty": "No penalty", "reason": "overturned"},
            format="json",
        )
        now = api(cast["head_judge"]).get(f"/api/v1/events/{event.pk}/calls/{second['id']}").json()
        assert now["needs_review"] and now["computed_penalty"] == "Warning"


class DeckProblemFinderTests:
    def test_the_finder_reads_the_ipgs_invalid_number_and_its_exclusions(self):
        section = current_ipg_section("3.5")
        assert "invalid number" in section.fields["upgrade"]
        assert "tokens" in section.text and "ignored when determining deck" in section.text
        finder = load_guide(Path(guides.__file__).parent / "definitions" / "infraction-finder.toml")
        labels = [a.label for a in finder.nodes["dp-when"].answers]
        assert not any("wrong number" in label for label in labels)
        to_game_loss = next(a for a in finder.nodes["dp-when"].answers if a.next == "dp-pregame")
        assert "invalid number" in to_game_loss.label
        assert "ignored when determining deck" in finder.nodes["dp-when"].help
        ignored = finder.nodes["dp-ignored"]
        assert ignored.penalty.competitive == "No penalty"
        assert "ignored when determining deck" in ignored.ruling


class MinorFindingsTests:
    def test_outside_assistance_and_decklist_problem_show_no_warning_count(self, cast):
        """IPG 3 upgrades a second Tournament Error Warning; 3.2 and 3.4 never give one."""
        listed = {
            i["number"]: i
            for i in api(cast["floor_judge"])
            .get(f"/api/v1/events/{cast['event'].pk}/infractions")
            .json()["infractions"]
        }
        assert listed["3.2"]["count_upgrade"] == listed["3.4"]["count_upgrade"] == ""
        assert "second Warning" in listed["3.3"]["count_upgrade"]

    def test_a_second_call_in_the_same_round_says_one_error_is_one_infraction(self, cast):
        """IPG 1.2: "If an error leads to multiple related infractions, only issue one with the
        most severe penalty." Said by the call and by the preview alike, never at Regular."""
        event = cast["event"]
        other = record(cast["head_judge"], event, "2.5", round=2)
        url = f"/api/v1/events/{event.pk}/players/Una?infraction=2.3&round=2"
        shown = api(cast["head_judge"]).get(url).json()["next"]
        second = record(cast["head_judge"], event, "2.3", round=2)
        assert "IPG 1.2" in second["upgrade_reason"] and "most severe" in second["upgrade_reason"]
        assert shown["reason"] == second["upgrade_reason"]
        assert ("ipg", "1.2") in {(c["doc"], c["number"]) for c in second["citations"]}
        later = record(cast["head_judge"], event, "2.3", round=3)
        assert "IPG 1.2" not in later["upgrade_reason"]
        # the other call moved to round 1: the second's note goes, and comes back with it
        edit = f"/api/v1/events/{event.pk}/calls/{other['id']}"
        again = f"/api/v1/events/{event.pk}/calls/{second['id']}"
        api(cast["head_judge"]).patch(edit, {"round": 1}, format="json")
        assert "IPG 1.2" not in api(cast["head_judge"]).get(again).json()["upgrade_reason"]
        api(cast["head_judge"]).patch(edit, {"round": 2}, format="json")
        assert "IPG 1.2" in api(cast["head_judge"]).get(again).json()["upgrade_reason"]

    def test_the_finder_offers_sleeves_a_proxy_and_notes_between_games(self):
        finder = load_guide(Path(guides.__file__).parent / "definitions" / "infraction-finder.toml")
        to_basics = next(a for a in finder.nodes["mc"].answers if a.next == "mc-basics")
        assert "sleeves that conceal" in to_basics.label and "proxy" in to_basics.label
        notes = next(a for a in finder.nodes["oa"].answers if a.next == "oa-notes-between-games")
        assert notes.label.startswith("Between games")
        allowed = finder.nodes["oa-notes-between-games"]
        assert allowed.penalty.competitive == "No penalty" and "MTR 2.11" in allowed.ruling
        # the IPG 1.2 sentence on the finder's first page
        assert "most severe penalty (IPG 1.2)" in finder.nodes[finder.start].help
