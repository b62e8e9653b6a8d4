"""Every guide file in judgeapp/guides/definitions: it loads, every reference resolves in the
current rules, and every path from the start (each answer of each question, each input at its
default, the real engines for compute nodes) ends in a conclusion, every conclusion
being reached."""

from __future__ import annotations

import io
from collections import Counter
from pathlib import Path

import pytest

from guides import loader, runner
from guides import services as guide_services
from guides.schema import NodeKind
from tests.conftest import needs_history

pytestmark = pytest.mark.django_db
FILES = sorted(loader.DEFINITIONS.glob("*.toml"))
MAX_PATHS = 5000


def walk_every_path(guide):
    """{conclusion id: [(answers, state)]} over every path; a path that fails raises with
    its answers."""
    ends: dict[str, list] = {}

    def visit(state, answers):
        assert len(ends) < MAX_PATHS
        try:
            state = runner.run_pending(guide, state, guide_services.run_step)
        except Exception as exc:
            raise AssertionError(f"{guide.slug}: answers {answers} failed: {exc}") from exc
        node = guide.nodes[state.node_id]
        if node.kind is NodeKind.CONCLUSION:
            ends.setdefault(node.id, []).append((answers, state))
            return
        if node.kind is NodeKind.INPUT:
            value = runner.default_input(node)
            visit(runner.advance(guide, state, value), [*answers, value])
            return
        assert node.kind is NodeKind.QUESTION, f"{guide.slug}: stuck at {node.id} ({node.kind})"
        for i, answer in enumerate(node.answers):
            visit(runner.advance(guide, state, i), [*answers, answer.label])

    visit(runner.start(guide), [])
    return ends


@pytest.fixture(scope="module")
def paths():
    cache: dict[str, dict] = {}

    def get(guide):
        if guide.slug not in cache:
            cache[guide.slug] = walk_every_path(guide)
        return cache[guide.slug]

    return get


def test_the_definitions_folder_holds_this_engineers_guides():
    assert {"loop-resolution", "shuffle-infractions"} <= {p.stem for p in FILES}


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
class DefinitionTests:
    def test_it_loads_and_every_answer_leads_to_a_node(self, path):
        guide = loader.load_guide(path)
        for node in guide.nodes.values():
            for target in loader.successors(node):
                assert target in guide.nodes

    def test_every_reference_resolves_in_the_current_rules(self, path):
        from rulesref import references

        guide = loader.load_guide(path)
        assert loader.validate_references(guide, references.resolve) == []
        for ref in loader.all_refs(guide):
            resolved = references.resolve(ref)
            # a JAR heading has a title, no text
            assert resolved.number and (resolved.text or resolved.title), ref

    def test_every_path_ends_in_a_conclusion_and_every_conclusion_is_reached(self, path, paths):
        guide = loader.load_guide(path)
        ends = paths(guide)
        conclusions = {n.id for n in guide.nodes.values() if n.kind is NodeKind.CONCLUSION}
        assert set(ends) == conclusions, f"never reached: {sorted(conclusions - set(ends))}"

    def test_replaying_a_paths_answers_reaches_the_same_conclusion(self, path, paths):
        guide = loader.load_guide(path)
        for conclusion, walked in paths(guide).items():
            answers, _ = walked[-1]
            assert guide_services.walk(guide.slug, answers)["node_id"] == conclusion


# --- the conclusions agree with the computation they follow ---------------------------------------


def loop_expectation(conclusion: str, result: dict | None) -> bool:
    # IPG 3.3: any loop continued without an exact number is Slow Play, asked before computing
    if result is None:
        return conclusion == "slow-play"
    over = result["game_over"]
    return {
        "draw": lambda: result["draw"] and over["draw"],
        "player-loses": lambda: not result["draw"] and bool(over["losers"]),
        "shortcut": lambda: (
            over is None and result["shortcut_allowed"] and result["iterations"] is not None
        ),
        # MTR 4.4 decides (CR 729.1c): the lowest number named stands and its player makes a
        # different choice.
        "fragmented": lambda: (
            result["loop_kind"] == "fragmented"
            and result["decided_by"] == "mtr"
            and result["must_deviate"] == result["stopped_by"]
            and result["iterations"] is not None
        ),
        "non-deterministic": lambda: (
            result["loop_kind"] == "non_deterministic" and not result["shortcut_allowed"]
        ),
        "slow-play": lambda: result["loop_kind"] == "non_deterministic",
        "restart-refused": lambda: result["refused"],
        "stalling": lambda: result["refused"],
    }[conclusion]()


SHUFFLE_INFRACTIONS = {
    "insufficient-shuffling": "insufficient_shuffling",
    "regular-shuffling": "unwanted_behaviour",
    "game-rule-violation": "game_rule_violation",
    "regular-search-error": "regular_game_error",
    "no-infraction": "none",
    "looking-at-extra-cards": "looking_at_extra_cards",
    "regular-card-seen": "regular_game_error",
}


class LoopResolutionTests:
    def test_each_conclusion_matches_the_loop_outcome(self, paths):
        guide = guide_services.get_guide("loop-resolution")
        counts = Counter()
        for conclusion, walked in paths(guide).items():
            for answers, state in walked:
                assert loop_expectation(conclusion, state.result), (
                    conclusion,
                    answers,
                    state.result["explanation"],
                )
                counts[conclusion] += 1
        assert counts["shortcut"] and counts["draw"] and counts["player-loses"]

    def test_a_shortcut_runs_the_lowest_number_named(self, paths):
        guide = guide_services.get_guide("loop-resolution")
        for answers, state in paths(guide)["shortcut"]:
            facts = state.facts
            named = [d for d in (facts["ap_decl"], facts["nap_decl"]) if isinstance(d, int)]
            assert state.result["iterations"] == min(named), answers


class ShuffleInfractionTests:
    def test_each_conclusion_matches_the_infraction_found(self, paths):
        guide = guide_services.get_guide("shuffle-infractions")
        for conclusion, walked in paths(guide).items():
            for answers, state in walked:
                if conclusion == "investigate":
                    assert state.result["investigate"], answers
                else:
                    assert not state.result["investigate"]
                    assert state.result["infraction"] == SHUFFLE_INFRACTIONS[conclusion], (
                        conclusion,
                        answers,
                    )

    def test_regular_rel_conclusions_are_reached_only_at_regular(self, paths):
        guide = guide_services.get_guide("shuffle-infractions")
        for conclusion in ("regular-shuffling", "regular-search-error"):
            assert {state.facts["rel"] for _, state in paths(guide)[conclusion]} == {"regular"}
        assert "regular" not in {
            state.facts["rel"] for _, state in paths(guide)["insufficient-shuffling"]
        }

    def test_no_walk_upgrades_by_count_the_call_log_does(self, paths):
        # IPG 2 and 3 count earlier Warnings for the same infraction: calllog/penalties.py does,
        # from the player's recorded penalties; the guide gives the penalty before any count and
        # says what a repeat brings.
        guide = guide_services.get_guide("shuffle-infractions")
        for conclusion, walked in paths(guide).items():
            for answers, state in walked:
                assert not state.result["upgraded"], (conclusion, answers)
        assert not any("prior" in name for name, _ in guide.facts)

    def test_a_card_seen_in_the_opponents_deck_is_charged_to_the_shuffler(self, paths):
        guide = guide_services.get_guide("shuffle-infractions")
        for conclusion in ("looking-at-extra-cards", "regular-card-seen"):
            for answers, state in paths(guide)[conclusion]:
                assert (
                    state.facts["shuffling_opponents_deck"]
                    and state.result["charged_to"] == "shuffler"
                ), answers


class SystemCheckTests:
    def test_no_errors_with_the_rules_imported(self):
        from guides import checks

        assert checks.check_guides() == []

    def test_only_a_warning_when_no_rules_are_current(self):
        from guides import checks
        from rulesref import references
        from rulesref.models import Version

        Version.objects.update(is_current=False)  # rolled back with the test
        references.forget_resolutions()
        try:
            messages = checks.check_guides()
        finally:
            references.forget_resolutions()
        assert messages and all(m.level < 40 for m in messages)  # warnings, no errors
        assert any("CR" in m.msg for m in messages)

    def test_a_malformed_guide_is_an_error(self, tmp_path, monkeypatch):
        from guides import checks

        (tmp_path / "bad.toml").write_text(
            'title = "Bad"\nstart = "x"\n[[nodes]]\nid = "x"\nkind = "question"\ntext = "?"\n'
            'answers = { Yes = "nowhere" }\n',
            encoding="utf-8",
        )
        monkeypatch.setattr(loader, "DEFINITIONS", Path(tmp_path))
        try:
            messages = checks.check_guides()
        finally:
            guide_services.guides.cache_clear()
        assert [m.id for m in messages] == ["judgeapp.E001"]
        assert "bad.toml [x]" in messages[0].msg and "nowhere" in messages[0].msg


class GuidesAffectedTests:
    @needs_history
    def test_references_that_moved_between_cr_versions_are_listed_side_by_side(self):
        from rulesref.models import Version

        old, new = Version.objects.filter(document__slug="cr").order_by("effective_date")[:2]
        affected = {a["slug"]: a for a in guide_services.guides_affected(old, new)}
        assert "loop-resolution" in affected  # CR 725 "Taking Shortcuts" in 2022 is 729 in 2025
        rows = {r["ref"]: r for r in affected["loop-resolution"]["changes"]}
        row = rows["cr@2025-02-07:729.4"]
        assert (row["old_number"], row["new_number"]) == ("725.4", "729.4")
        assert (
            row["old_text"] == old.rules.get(number="725.4").text
            and row["new_text"] == new.rules.get(number="729.4").text
        )
        assert "draw" in row["nodes"]
        assert all(r["ref"].startswith("cr@") for a in affected.values() for r in a["changes"])

    @needs_history
    def test_the_admin_review_of_a_cr_version_lists_the_affected_guides(
        self, client, django_user_model
    ):
        from rulesref.models import Version

        admin = django_user_model.objects.create_superuser("curator", password="pw-curator")
        client.force_login(admin)
        older = (
            Version.objects.filter(document__slug="cr", is_current=False)
            .order_by("effective_date")
            .first()
        )
        # compared with the current one
        page = client.get(f"/admin/rulesref/version/{older.pk}/review/")
        assert page.status_code == 200
        review = page.context["review"]
        assert review.references_unavailable == ""
        assert "loop-resolution" in {g["slug"] for g in review.affected_guides}
        html = page.content.decode()
        assert "Judge guides affected" in html and 'id="guide-loop-resolution"' in html


class RemovedRuleCheckTests:
    def test_a_published_version_without_a_cited_rule_is_a_warning_that_blocks_no_command(
        self, tmp_path
    ):
        """Ops audit 3: a newer CR published without 729.2b, which guides cite, made `migrate`,
        `import_rules` and `publish_version --rollback` fail the system checks (judgeapp.E002)."""
        import re as regex

        from django.core.management import call_command

        from guides import checks
        from rulesref import references
        from rulesref.models import Version

        shipped = next((Path(__file__).resolve().parents[2] / "rules" / "cr").glob("*.txt"))
        text = shipped.read_text(encoding="utf-8-sig")
        assert "cr@2025-02-07:729.2b" in loader.all_refs(guide_services.guides()["loop-resolution"])
        text = regex.sub(r"\r?\n729\.2b .*?(?=\r?\n729\.2c )", "", text, count=1, flags=regex.S)
        text = text.replace("February 7, 2025.", "February 6, 2026.", 1)
        newer = tmp_path / "MagicCompRules-20260206.txt"
        newer.write_text(text, encoding="utf-8")
        call_command("import_rules", str(newer), "--publish", stdout=io.StringIO())
        current = Version.objects.get(document__slug="cr", is_current=True)
        assert current.effective_date.isoformat() == "2026-02-06"
        assert not current.rules.filter(number="729.2b").exists()
        references.forget_resolutions()
        try:
            messages = checks.check_guides()
            call_command("check", stdout=io.StringIO())  # SystemCheckError on an error
        finally:
            references.forget_resolutions()
        gone = [m for m in messages if m.id == "judgeapp.W003"]
        assert gone and all(m.level < 40 for m in messages), messages
        assert any("729.2b" in m.msg for m in gone)
