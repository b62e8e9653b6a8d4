"""The rules differ on small texts written for it (tests/fixtures/diff_v*.txt) and generated rules.

diff_v1 -> diff_v2: section 701 "Keyword Abilities" becomes 702 and 702 "Taking Shortcuts"
becomes 704 (new sections 701 and 703 in between); a keyword (702.3 Dazzle) is inserted, so
Defender, Double Strike and Flying shift by one; 701.4b moves and is edited; 100.2 is edited in
place; 100.4 is removed; 101.3 is added; citations follow the renumbering; quotes turn curly.
diff_v2 -> diff_v3: Cascade is inserted at 702.2, Dazzle removed, so Deathtouch takes 702.3, the
number Dazzle had; Flying's 702.6b is edited in place.
"""

from __future__ import annotations

import datetime as dt
import re
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rulesref import diffing
from rulesref.diffing import DiffRule, RulesDiff, WordOp
from rulesref.parsing.common import decode_document
from rulesref.parsing.cr import parse_cr

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
REPO = Path(__file__).resolve().parent.parent.parent


def load_fixture(name: str) -> tuple[dt.date, dict[str, DiffRule]]:
    path = FIXTURES / name
    doc = parse_cr(decode_document(path.read_bytes(), path.name), path.name)
    return doc.effective_date, diffing.diff_rules_from_document(doc)


@pytest.fixture(scope="module")
def versions() -> list[tuple[dt.date, dict[str, DiffRule]]]:
    return [load_fixture(f"diff_v{n}.txt") for n in (1, 2, 3)]


@pytest.fixture(scope="module")
def v1_v2(versions) -> RulesDiff:
    return diffing.diff_rules(versions[0][1], versions[1][1])


@pytest.fixture(scope="module")
def v2_v3(versions) -> RulesDiff:
    return diffing.diff_rules(versions[1][1], versions[2][1])


def moved_pairs(diff: RulesDiff) -> dict[str, str]:
    return {c.old_number: c.new_number for c in diff.moved}


class DiffRecordsTests:
    def test_records_carry_section_parent_and_title(self, versions):
        rules = versions[0][1]
        self.assert_record(
            rules["701.4b"], section="701", section_title="Keyword Abilities", parent="701.4"
        )
        assert rules["702"].title == "Taking Shortcuts"
        assert rules["702"].section is None

    def test_chapters_are_not_rules(self, versions):
        assert "7" not in versions[0][1] and "1" not in versions[0][1]

    @staticmethod
    def assert_record(rule: DiffRule, **expected):
        for name, value in expected.items():
            assert getattr(rule, name) == value, (rule, name)


class SectionMoveTests:
    def test_whole_section_moves_with_every_rule_in_it(self, v1_v2):
        moves = moved_pairs(v1_v2)
        assert moves["702"] == "704"
        for suffix in ("", ".1", ".2", ".2a", ".2b", ".3", ".4"):
            assert moves["702" + suffix] == "704" + suffix

    def test_renumbered_citation_alone_is_not_an_edit(self, v1_v2):
        # 702.3 cites "rule 702.2a", 704.3 cites "rule 704.2a": the same rule, renumbered.
        move = next(c for c in v1_v2.moved if c.old_number == "702.3")
        assert (move.new_number, move.edited, move.similarity) == ("704.3", False, 1.0)
        # 700.1 cites the keyword section, which moved from 701 to 702.
        assert "700.1" not in {c.old_number for c in v1_v2.changed}

    def test_curly_quotes_are_not_an_edit(self, v1_v2):
        # 101.2 reads "can't" in v1 and “can’t” in v2.
        assert v1_v2.mapping["101.2"] == "101.2"
        assert "101.2" not in {c.old_number for c in v1_v2.changed + v1_v2.moved}

    def test_new_sections_between_are_added(self, v1_v2):
        added = {c.new_number for c in v1_v2.added}
        assert {"701", "701.1", "701.2", "701.2a", "703", "703.1"} <= added


class CascadeTests:
    def test_inserted_keyword_shifts_the_rest_as_moves(self, v1_v2):
        moves = moved_pairs(v1_v2)
        assert [moves[n] for n in ("701.3", "701.3b", "701.4", "701.5", "701.5b")] == [
            "702.4",
            "702.4b",
            "702.5",
            "702.6",
            "702.6b",
        ]
        assert {c.new_number for c in v1_v2.added} >= {"702.3", "702.3a", "702.3b"}

    def test_number_taken_by_another_rule_is_not_a_change(self, v2_v3):
        # v3's 702.3 is Deathtouch (v2's 702.2); v2's 702.3 was Dazzle, now removed.
        assert v2_v3.mapping["702.2"] == "702.3"
        assert {c.old_number for c in v2_v3.removed} == {"702.3", "702.3a", "702.3b"}
        assert all(c.old_number != "702.3" for c in v2_v3.changed)

    def test_rule_that_moved_and_changed_a_little(self, v1_v2):
        move = next(c for c in v1_v2.moved if c.old_number == "701.4b")
        assert move.new_number == "702.5b" and move.edited
        assert 0.8 < move.similarity < 1.0
        assert [op for op in move.ops if op.op != "equal"] == [
            WordOp("delete", "creature"),
            WordOp("insert", "permanent"),
        ]


class EditAddRemoveTests:
    def test_edit_in_place_has_a_word_diff(self, v1_v2):
        assert [c.old_number for c in v1_v2.changed] == ["100.2"]
        change = v1_v2.changed[0]
        assert change.ops[0] == WordOp("equal", "Each player starts the game with 20 life.")
        assert change.ops[1] == WordOp(
            "insert", "In a Two-Headed Giant game, each team starts with 30 life."
        )

    def test_true_addition_and_removal(self, v1_v2):
        assert [c.old_number for c in v1_v2.removed] == ["100.4"]
        assert "101.3" in {c.new_number for c in v1_v2.added}

    def test_renderers(self, v2_v3):
        change = next(c for c in v2_v3.changed if c.old_number == "702.6b")
        assert diffing.render_word_diff_text(change.ops).endswith(
            "[-flying and/or reach.-] {+flying, reach, or both.+}"
        )
        html = diffing.render_word_diff_html([WordOp("delete", "<b>"), WordOp("insert", "a & b")])
        assert html == "<del>&lt;b&gt;</del> <ins>a &amp; b</ins>"


class BoilerplateTests:
    def test_identical_short_text_in_another_section_is_not_proof(self):
        # CR 505 and 509 both end with "<ordinal>, the active player gets priority." (2022-04-29:
        # 505.5 "Third", 509.4 "Fourth"; 2025-02-07: 505.6 "Fourth", 509.2 "Second").
        def section(number, title, texts):
            rules = {number: DiffRule(number, "", title=title)}
            for i, text in enumerate(texts, start=1):
                rules[f"{number}.{i}"] = DiffRule(
                    f"{number}.{i}", text, section=number, parent=number
                )
            return rules

        priority = '{}, the active player gets priority. (See rule 117, "Timing and Priority.")'
        old = section(
            "505",
            "Main Phase",
            [
                "There are two main phases in a turn.",
                "First, sagas get lore counters.",
                priority.format("Second"),
            ],
        )
        old |= section(
            "509",
            "Declare Blockers Step",
            [
                "First, the defending player declares blockers.",
                "Second, the defending player orders damage.",
                priority.format("Third"),
            ],
        )
        new = section(
            "505",
            "Main Phase",
            [
                "There are two main phases in a turn.",
                "First, sagas get lore counters.",
                "Second, Attractions are visited.",
                priority.format("Third"),
            ],
        )
        new |= section(
            "509",
            "Declare Blockers Step",
            ["First, the defending player declares blockers.", priority.format("Second")],
        )
        mapping = diffing.diff_rules(old, new).mapping
        assert mapping["505.3"] == "505.4"  # "Second, ... priority" became "Third, ... priority"
        assert mapping["509.3"] == "509.2"  # not 505.4, whose text it matches word for word


class DiffShapeTests:
    def test_every_old_rule_is_in_exactly_one_bucket(self, versions, v1_v2, v2_v3):
        for diff, (_, old), (_, new) in (
            (v1_v2, versions[0], versions[1]),
            (v2_v3, versions[1], versions[2]),
        ):
            assert_consistent(diff, old, new)

    def test_to_dict_has_the_api_shape(self, v1_v2):
        out = v1_v2.to_dict()
        assert {"added", "removed", "changed", "moved"} <= out.keys()
        assert {"from": "702.4", "to": "704.4"}.items() <= next(
            m for m in out["moved"] if m["from"] == "702.4"
        ).items()
        assert out["removed"] == ["100.4"]
        assert (
            out["changed"][0]["number"] == "100.2"
            and out["changed"][0]["diff"][1]["op"] == "insert"
        )

    def test_changes_come_in_document_order(self, versions, v1_v2):
        new_order = list(versions[1][1])
        positions = [new_order.index(c.new_number) for c in v1_v2.moved + v1_v2.added]
        assert positions[: len(v1_v2.moved)] == sorted(positions[: len(v1_v2.moved)])
        assert positions[len(v1_v2.moved) :] == sorted(positions[len(v1_v2.moved) :])

    def test_cached_mapping_gives_the_same_diff(self, versions, v1_v2):
        again = diffing.diff_rules(versions[0][1], versions[1][1], mapping=v1_v2.mapping)
        assert again == v1_v2

    def test_parts_are_swappable(self, versions):
        # A pairer that knows only numbers: every renumbered rule becomes removed + added.
        def by_number(old, new, profile):
            return {n: n for n in old if n in new}

        diff = diffing.diff_rules(versions[0][1], versions[1][1], pair=by_number)
        assert not diff.moved and "701.4b" in {c.old_number for c in diff.removed}


def assert_consistent(diff: RulesDiff, old, new) -> None:
    removed = {c.old_number for c in diff.removed}
    moved = {c.old_number for c in diff.moved}
    changed = {c.old_number for c in diff.changed}
    assert not removed & moved and not removed & changed and not moved & changed
    assert diff.unchanged + len(changed) + len(moved) + len(removed) == len(old)
    assert diff.unchanged + len(changed) + len(moved) + len(diff.added) == len(new)
    assert len(set(diff.mapping.values())) == len(diff.mapping)
    assert all(c.old_number != c.new_number for c in diff.moved)
    assert not {c.new_number for c in diff.added} & set(diff.mapping.values())


class TraceTests:
    def test_trace_follows_each_renumbering(self, versions):
        steps = diffing.trace_rule(versions, "702.5b", dt.date(2024, 4, 12))
        assert [s.number for s in steps] == ["701.4b", "702.5b", "702.5b"]
        assert (
            steps[0].text
            == "Multiple instances of double strike on the same creature are redundant."
        )
        assert steps[0].effective_date == dt.date(2024, 1, 10)

    def test_trace_from_a_date_between_versions_uses_the_version_in_effect(self, versions):
        steps = diffing.trace_rule(versions, "702.3", dt.date(2024, 6, 30))
        assert [s.number for s in steps] == ["701.2", "702.2", "702.3"]

    def test_rule_that_exists_in_one_version_only(self, versions):
        steps = diffing.trace_rule(versions, "702.3a", dt.date(2024, 4, 12))
        assert [s.number for s in steps] == [None, "702.3a", None]
        assert steps[0].text is None and steps[0].to_dict()["number"] is None

    def test_precomputed_pairings_are_used(self, versions):
        # A cached pairing is trusted as given: here one that sends 701.4b nowhere.
        fake = [{"701.4": "702.5"}, None]
        steps = diffing.trace_rule(versions, "701.4b", dt.date(2024, 1, 10), pairings=fake)
        assert [s.number for s in steps] == ["701.4b", None, None]

    def test_unknown_number_and_date_before_all_versions(self, versions):
        with pytest.raises(KeyError):
            diffing.trace_rule(versions, "999.9", dt.date(2024, 4, 12))
        with pytest.raises(ValueError):
            diffing.trace_rule(versions, "100.1", dt.date(2023, 1, 1))


class FollowTests:
    def test_follow_a_pinned_rule(self, versions):
        assert diffing.follow_rule(versions[0][1], versions[2][1], "702.4") == "704.4"
        assert diffing.follow_rule(versions[0][1], versions[1][1], "100.4") is None
        with pytest.raises(KeyError):
            diffing.follow_rule(versions[0][1], versions[1][1], "100.9")

    def test_follow_through_chained_pairings(self, versions):
        cache = diffing.PairingCache(versions)
        assert diffing.follow_through([cache.forward(0), cache.forward(1)], "701.2b") == "702.3b"
        assert diffing.follow_through([cache.forward(0), cache.forward(1)], "100.4") is None


class BoundaryTests:
    def test_engine_loads_without_django(self):
        code = "import sys, rulesref.diffing; print('django' in sys.modules)"
        run = subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=REPO
        )
        assert run.stdout.strip() == "False"


# ---------------------------------------------------------------------------------------------
# Generated rules: renumber by an order-preserving shift, then check the pairing.

WORDS = [f"w{i}" for i in range(400)]


@st.composite
def renumbered_rules(draw, edit: bool):
    """Old rules 100.1..100.n with distinct texts; new rules with some inserted in between, so
    every old rule i moves to 100.(i + insertions before it). With `edit`, some long texts get
    one word replaced."""
    n = draw(st.integers(min_value=3, max_value=25))
    texts = draw(
        st.lists(
            st.lists(st.sampled_from(WORDS), min_size=12, max_size=30).map(" ".join),
            min_size=n,
            max_size=n,
            unique=True,
        )
    )
    inserts = draw(st.lists(st.integers(min_value=0, max_value=3), min_size=n + 1, max_size=n + 1))
    edited = draw(st.sets(st.integers(min_value=0, max_value=n - 1))) if edit else set()
    old = {"100": DiffRule("100", "", title="General")}
    new = {"100": DiffRule("100", "", title="General")}
    expected: dict[str, str] = {"100": "100"}
    position = 0
    for i in range(n + 1):
        for k in range(inserts[i]):
            position += 1
            number = f"100.{position}"
            new[number] = DiffRule(
                number,
                f"inserted rule {i} {k} " + " ".join(WORDS[(i * 7 + k) % 50 :][:3]),
                section="100",
                section_title="General",
                parent="100",
            )
        if i == n:
            break
        position += 1
        old_number, new_number = f"100.{i + 1}", f"100.{position}"
        text = texts[i]
        old[old_number] = DiffRule(
            old_number, text, section="100", section_title="General", parent="100"
        )
        if i in edited:
            words = text.split()
            words[len(words) // 2] = "replacement"
            text = " ".join(words)
        new[new_number] = DiffRule(
            new_number, text, section="100", section_title="General", parent="100"
        )
        expected[old_number] = new_number
    return old, new, expected, {f"100.{i + 1}" for i in edited}


class RenumberingPropertyTests:
    @settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(renumbered_rules(edit=False))
    def test_order_preserving_renumbering_is_all_moves(self, case):
        old, new, expected, _ = case
        diff = diffing.diff_rules(old, new)
        assert diff.mapping == expected
        assert not diff.removed and not diff.changed
        assert {c.old_number for c in diff.moved} == {o for o, n in expected.items() if o != n}
        assert {c.new_number for c in diff.added} == set(new) - set(expected.values())
        assert_consistent(diff, old, new)

    @settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(renumbered_rules(edit=True))
    def test_renumbering_with_small_edits_still_pairs_by_content(self, case):
        old, new, expected, edited = case
        diff = diffing.diff_rules(old, new)
        assert diff.mapping == expected
        edited_now = {c.old_number for c in diff.changed + diff.moved if c.edited}
        assert edited_now == {o for o in edited if old[o].text != new[expected[o]].text}
        assert_consistent(diff, old, new)


class FullSizeTests:
    def test_three_thousand_rules_with_a_cascade_and_a_moved_section(self):
        # Synthetic full-size versions: 3000 rules, a block inserted near the start (a cascade),
        # one section moved, 200 rules edited.
        rng_words = [f"t{i}" for i in range(5000)]
        old = {}
        for i in range(3000):
            number = f"{100 + i // 100}.{i % 100 + 1}"
            text = " ".join(rng_words[(i * 13 + j * 7) % 5000] for j in range(25))
            old[number] = DiffRule(number, text, parent=number.split(".")[0])
        new, expected = {}, {}
        for index, (number, rule) in enumerate(old.items()):
            section, rule_no = number.split(".")
            shifted = f"{section}.{int(rule_no) + (3 if section == '100' else 0)}"
            text = rule.text if index % 15 else re.sub(r"^\S+", "edited", rule.text)
            new[shifted] = DiffRule(shifted, text, parent=section)
            expected[number] = shifted
        diff = diffing.diff_rules(old, new)
        assert len(diff.moved) == 100
        assert diff.mapping == expected
