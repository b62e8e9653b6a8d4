"""Diffs, traces and stable references through the database, on the real 2022 and 2025 CRs."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from rulesref import references, services
from rulesref.models import Version
from tests.conftest import needs_history

pytestmark = pytest.mark.django_db


@pytest.fixture
def api():
    return APIClient()


@pytest.fixture
def cr_2022():
    return Version.objects.get(document__slug="cr", effective_date="2022-04-29")


@pytest.fixture(autouse=True)
def fresh_resolutions():
    references.forget_resolutions()
    yield
    references.forget_resolutions()


class DiffApiTests:
    @needs_history
    def test_the_shortcut_section_moved_whole(self, api):
        body = api.get("/api/v1/diff/cr?from=2022-04-29&to=2025-02-07").json()
        moved = {m["from"]: m["to"] for m in body["moved"]}
        for suffix in ("", ".1", ".2a", ".3", ".4", ".5", ".6"):
            assert moved.get(f"725{suffix}") == f"729{suffix}", suffix
        assert not {"725.3", "725.4"} & set(body["removed"])
        assert not {"729.3", "729.4"} & set(body["added"])
        assert body["from"] == "2022-04-29" and body["to"] == "2025-02-07"

    @needs_history
    def test_counts_add_up_to_both_versions(self, api, cr_2022):
        body = api.get("/api/v1/diff/cr?from=2022-04-29&to=2025-02-07").json()
        counts = body["counts"]
        old_total = counts["unchanged"] + counts["changed"] + counts["moved"] + counts["removed"]
        new_total = counts["unchanged"] + counts["changed"] + counts["moved"] + counts["added"]
        assert old_total == cr_2022.rule_count
        assert new_total == Version.objects.get(document__slug="cr", is_current=True).rule_count

    @needs_history
    def test_missing_dates_are_400_naming_the_field(self, api):
        response = api.get("/api/v1/diff/cr?from=2022-04-29")
        assert response.status_code == 400
        assert "to" in response.json()["error"]["details"]
        assert api.get("/api/v1/diff/cr?from=2022-04-29&to=2001-01-01").status_code == 404


class TraceTests:
    @needs_history
    def test_trace_follows_the_renumbering(self, api):
        steps = api.get("/api/v1/rules/cr/729.4/trace").json()
        by_date = {s["effective_date"]: s for s in steps}
        assert by_date["2022-04-29"]["number"] == "725.4"
        assert by_date["2025-02-07"]["number"] == "729.4"
        assert "mandatory" in by_date["2022-04-29"]["text"]

    @needs_history
    def test_trace_from_an_older_version(self, api):
        steps = api.get("/api/v1/rules/cr/725.3/trace?version=2022-04-29").json()
        assert [
            s["number"] for s in steps if s["effective_date"] in ("2022-04-29", "2025-02-07")
        ] == ["725.3", "729.3"]


class IpgChapterTests:
    """The IPG's chapters have text of their own (1: General Philosophy; 2 to 4: each category's
    introduction): compared, traced and followed like any section."""

    @needs_history
    def test_the_general_philosophys_change_is_in_the_diff_and_its_trace(self, api):
        from tests.conftest import RULES_DIR

        (older,) = services.import_paths(
            [RULES_DIR / "ipg" / "InfractionProcedureGuide-20200126.html"]
        )
        # in effect in its day: published, not current (as import_rules --publish leaves it)
        Version.objects.filter(pk=older.version_id).update(status=Version.Status.PUBLISHED)
        body = api.get("/api/v1/diff/ipg?from=2020-01-26&to=2021-01-06").json()

        # 2021: "a table collapses, a draft booster contains cards from a different set"
        def numbers(found: list) -> set[str]:
            return {c["number"] if isinstance(c, dict) else c for c in found}

        assert "1" in numbers(body["changed"])
        assert not {"1", "2", "3", "4"} & numbers(body["removed"] + body["added"])
        steps = api.get("/api/v1/rules/ipg/1/trace").json()
        by_date = {s["effective_date"]: s for s in steps}
        assert by_date["2020-01-26"]["number"] == "1"
        assert "booster contains cards" in by_date["2020-01-26"]["text"]
        assert by_date["2021-01-06"]["number"] == "1"
        assert {
            s["effective_date"]: s["number"] for s in api.get("/api/v1/rules/ipg/3/trace").json()
        }["2020-01-26"] == "3"
        # the counts add up to each version's rule count, its chapters with text counted in both
        counts = body["counts"]
        old_total = counts["unchanged"] + counts["changed"] + counts["moved"] + counts["removed"]
        new_total = counts["unchanged"] + counts["changed"] + counts["moved"] + counts["added"]
        ipg = {
            v.effective_date.isoformat(): v for v in Version.objects.filter(document__slug="ipg")
        }
        assert (old_total, new_total) == (
            ipg["2020-01-26"].rule_count,
            ipg["2021-01-06"].rule_count,
        )
        # and "what changed" places chapter 1's change under chapter 1, titled
        page = APIClient().get("/changes/ipg/2021-01-06/").content.decode()
        assert "General Philosophy" in page and "Front matter" not in page


class StableReferenceTests:
    @needs_history
    def test_a_reference_pinned_to_an_old_version_resolves_to_the_current_number(self):
        resolved = references.resolve("cr@2022-04-29:725.4")
        assert resolved.number == "729.4" and resolved.status in ("moved", "moved_changed")
        assert resolved.version == "2025-02-07"

    def test_a_reference_pinned_to_the_current_version_is_itself(self):
        resolved = references.resolve("cr@2025-02-07:729.4")
        assert (resolved.number, resolved.status) == ("729.4", "same")

    @needs_history
    def test_publishing_another_version_moves_every_citation(self, cr_2022):
        assert references.resolve("cr@2025-02-07:729.3").number == "729.3"
        services.publish_version(cr_2022, note="test: back to 2022")
        # on_commit does this in production; tests run in one transaction
        references.forget_resolutions()
        assert references.resolve("cr@2025-02-07:729.3").number == "725.3"
        assert references.resolve("cr@2025-02-07:729").title == "Taking Shortcuts"

    @needs_history
    def test_references_that_changed_are_listed_for_review(self, cr_2022):
        current = Version.objects.get(document__slug="cr", is_current=True)
        rows = references.review_changes(
            ["cr@2025-02-07:729.4", "cr@2025-02-07:100.1"], cr_2022, current
        )
        by_ref = {r["ref"]: r for r in rows}
        assert by_ref["cr@2025-02-07:729.4"]["old_number"] == "725.4"
        assert by_ref["cr@2025-02-07:729.4"]["new_number"] == "729.4"

    def test_a_cited_infraction_whose_example_alone_changed_is_listed_for_review(self, tmp_path):
        # IPG 2.2's example B is what the shuffle check cites for a card flipped while shuffling
        from pathlib import Path

        shipped = next((Path(__file__).resolve().parents[2] / "rules" / "ipg").glob("*.html"))
        text = shipped.read_text(encoding="utf-8")
        assert "pulls up&nbsp;an extra card" in text and "Last updated Jan 6th , 2021" in text
        edited = text.replace("pulls up&nbsp;an extra card", "pulls up two extra cards").replace(
            "Last updated Jan 6th , 2021", "Last updated Jan 7th , 2021"
        )
        path = tmp_path / "InfractionProcedureGuide-20210107.html"
        path.write_text(edited, encoding="utf-8")
        (outcome,) = services.import_paths([path])
        current = Version.objects.get(document__slug="ipg", is_current=True)
        new = Version.objects.get(pk=outcome.version_id)
        rows = references.review_changes(
            ["ipg@2021-01-06:2.2", "ipg@2021-01-06:2.1", "ipg@2021-01-06:3"], current, new
        )
        assert [r["ref"] for r in rows] == ["ipg@2021-01-06:2.2"]
        assert "two extra cards" in rows[0]["new_text"] and "an extra card" in rows[0]["old_text"]
        services.publish_version(new, note="test")
        references.forget_resolutions()
        assert references.resolve("ipg@2021-01-06:2.2").status == "changed"
        assert references.resolve("ipg@2021-01-06:3").status == "same"

    @pytest.mark.parametrize(
        "bad", ["729.4", "cr@2025-13-01:729.4", "xx@2025-02-07:1", "cr@2025-02-07:"]
    )
    def test_malformed_references_are_refused(self, bad):
        with pytest.raises(references.ReferenceError):
            references.resolve(bad)

    def test_a_reference_to_a_rule_the_pinned_version_lacks_is_refused(self):
        with pytest.raises(references.ReferenceError):
            references.resolve("cr@2025-02-07:729.99")


class ReleaseNotesTests:
    @needs_history
    def test_removed_rules_stand_where_they_were(self, cr_2022):
        from rulesref import changes

        current = Version.objects.get(document__slug="cr", is_current=True)
        notes = changes.release_notes(cr_2022, current)
        kinds = {note["kind"] for note in notes}
        assert {"added", "changed", "moved", "removed"} <= kinds
        assert notes[0]["kind"] != "removed"
        sections = [int((note["number"] or note["old_number"])[:3]) for note in notes]
        # Within a whole-document ordering, removed rules do not jump back to the start.
        assert sum(1 for a, b in zip(sections, sections[1:]) if b < a - 5) < len(notes) // 20
