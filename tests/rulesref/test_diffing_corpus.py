"""The differ on the real Comprehensive Rules: every consecutive pair of the 27 stored versions.

Each pairing asserted here was checked by reading both files (line numbers are in the test
comments): a whole section that moved (Taking Shortcuts 725 -> 729), rules that moved and changed
a little, true additions and removals, a keyword inserted in 702 that shifted everything after
it, a state-based action removed so the next one took its number, two rules that swapped places,
rules moved into a new section, and renamed sections.
"""

from __future__ import annotations

import datetime as dt
import itertools

import pytest

from rulesref import diffing
from rulesref.diffing import DiffRule, RulesDiff
from rulesref.parsing.common import decode_document
from rulesref.parsing.cr import parse_cr
from tests.conftest import RULES_DIR, needs_history, rules_files

pytestmark = [pytest.mark.corpus, needs_history]  # every version of the CR and the MTR

Versions = list[tuple[dt.date, dict[str, DiffRule]]]


@pytest.fixture(scope="module")
def cr_versions() -> Versions:
    files = rules_files("cr")
    if not files:
        pytest.fail(f"no CR documents under {RULES_DIR} (set JUDGEAPP_RULES_DIR)")
    versions = []
    for path in files:
        doc = parse_cr(decode_document(path.read_bytes(), path.name), path.name)
        versions.append((doc.effective_date, diffing.diff_rules_from_document(doc)))
    return versions


@pytest.fixture(scope="module")
def by_date(cr_versions) -> dict[str, dict[str, DiffRule]]:
    return {date.isoformat(): rules for date, rules in cr_versions}


@pytest.fixture(scope="module")
def consecutive_diffs(cr_versions) -> list[tuple[dt.date, dt.date, RulesDiff]]:
    return [
        (a_date, b_date, diffing.diff_rules(a, b))
        for (a_date, a), (b_date, b) in itertools.pairwise(cr_versions)
    ]


_diff_cache: dict[tuple[str, str], RulesDiff] = {}


def diff(by_date, old: str, new: str) -> RulesDiff:
    if (old, new) not in _diff_cache:
        _diff_cache[(old, new)] = diffing.diff_rules(by_date[old], by_date[new])
    return _diff_cache[(old, new)]


def change_of(result: RulesDiff, old_number: str):
    return next(c for c in result.moved + result.changed if c.old_number == old_number)


class CorpusSanityTests:
    def test_all_twenty_seven_versions_are_read(self, cr_versions):
        assert len(cr_versions) == 27
        assert [d for d, _ in cr_versions] == sorted(d for d, _ in cr_versions)

    def test_every_old_rule_lands_in_exactly_one_bucket(self, cr_versions, consecutive_diffs):
        for (_, old), (_, new), (a, b, result) in zip(
            cr_versions, cr_versions[1:], consecutive_diffs
        ):
            removed = {c.old_number for c in result.removed}
            moved = {c.old_number for c in result.moved}
            changed = {c.old_number for c in result.changed}
            added = {c.new_number for c in result.added}
            assert not removed & moved and not removed & changed and not moved & changed, (a, b)
            assert result.unchanged + len(changed) + len(moved) + len(removed) == len(old), (a, b)
            assert result.unchanged + len(changed) + len(moved) + len(added) == len(new), (a, b)
            assert len(set(result.mapping.values())) == len(result.mapping), (a, b)
            assert not added & set(result.mapping.values()), (a, b)
            assert all(c.old_number != c.new_number for c in result.moved), (a, b)

    def test_unchanged_rules_really_read_the_same(self, cr_versions, consecutive_diffs):
        for (_, old), (_, new), (a, b, result) in zip(
            cr_versions, cr_versions[1:], consecutive_diffs
        ):
            touched = {c.old_number for c in result.moved + result.changed}
            for o, n in result.pairs:
                if o not in touched:
                    assert o == n
                    assert diffing.normalize_typography(
                        old[o].text
                    ) == diffing.normalize_typography(new[n].text) or _only_citations_differ(
                        old[o].text, new[n].text
                    ), (a, b, o)

    def test_most_rules_survive_each_release(self, consecutive_diffs):
        for a, b, result in consecutive_diffs:
            assert len(result.removed) < 0.02 * len(result.pairs), (a, b, len(result.removed))


def _only_citations_differ(old: str, new: str) -> bool:
    mask = diffing.CR_PROFILE.reference
    return mask.sub("#", diffing.normalize_typography(old)) == mask.sub(
        "#", diffing.normalize_typography(new)
    )


class SectionMoveTests:
    def test_taking_shortcuts_725_is_729(self, by_date):
        # 2022-04-29 line 5355 "725.4. If a loop contains only mandatory actions, the game is a
        # draw."; 2025-02-07 line 6112 "729.4. ..." the same words.
        result = diff(by_date, "2022-04-29", "2025-02-07")
        assert (
            by_date["2022-04-29"]["725"].title
            == by_date["2025-02-07"]["729"].title
            == "Taking Shortcuts"
        )
        moves = {c.old_number: c.new_number for c in result.moved}
        old_rules = [n for n in by_date["2022-04-29"] if n == "725" or n.startswith("725.")]
        assert len(old_rules) == 13
        assert {n: moves[n] for n in old_rules} == {n: "729" + n[3:] for n in old_rules}
        assert not change_of(result, "725.4").edited

    def test_section_move_and_shifted_keyword_sections_in_2025(self, by_date):
        # 2025 inserted sections before 729 and removed 713 "Meld Cards" (merged into 712), so
        # 714 "Substitute Cards" became 713.
        mapping = diff(by_date, "2022-04-29", "2025-02-07").mapping
        assert (mapping["714"], mapping["722"], mapping["310"]) == ("713", "726", "311")
        assert by_date["2025-02-07"]["713"].title == by_date["2022-04-29"]["714"].title


class MovedAndChangedTests:
    def test_declare_blockers_trigger_rule_moved_and_one_word_changed(self, by_date):
        # 2022-04-29 line 2154: 509.5d "... triggers once for each creature that blocks the named
        # creature"; 2025-02-07 line 2357: 509.3d "... blocks the specified creature" (509.2-509.3
        # on damage assignment order were removed, so 509.5 became 509.3).
        change = change_of(diff(by_date, "2022-04-29", "2025-02-07"), "509.5d")
        assert change.new_number == "509.3d" and change.edited and change.similarity > 0.95
        assert [(op.op, op.words) for op in change.ops if op.op != "equal"] == [
            ("delete", "named"),
            ("insert", "specified"),
        ]

    def test_example_edit_inside_a_moved_section(self, by_date):
        # 725.2a's example says Duplicate... "enters the battlefield," in 2022; 729.2a "enters,"
        # in 2025.
        change = change_of(diff(by_date, "2022-04-29", "2025-02-07"), "725.2a")
        assert change.new_number == "729.2a" and change.edited
        assert ("delete", "enters the battlefield,") in [(op.op, op.words) for op in change.ops]

    def test_priority_boilerplate_follows_its_own_step(self, by_date):
        # 2022: 505.5 "Third, the active player gets priority." and 509.4 "Fourth, the active
        # player gets priority."; 2025: 505.6 "Fourth, ..." (Attractions came third) and 509.2
        # "Second, ...". The identical 2022 509.4 / 2025 505.6 texts are not the same rule.
        mapping = diff(by_date, "2022-04-29", "2025-02-07").mapping
        assert mapping["509.4"] == "509.2"
        assert mapping["505.5"] == "505.6"


class AddedRemovedTests:
    def test_attractions_step_is_a_true_addition(self, by_date):
        # 2025-02-07 line 2171: 505.5 "Third, if the active player controls one or more
        # Attractions ..."; the 2022 file has no rule about visiting Attractions.
        result = diff(by_date, "2022-04-29", "2025-02-07")
        assert "505.5" in {c.new_number for c in result.added}
        assert not any("visit" in rule.text for rule in by_date["2022-04-29"].values())

    def test_damage_assignment_order_is_a_true_removal(self, by_date):
        # 2022-04-29 lines 2133/2138: 509.2 and 509.3 announce damage assignment orders; the
        # phrase appears nowhere in the 2025 file.
        removed = {c.old_number for c in diff(by_date, "2022-04-29", "2025-02-07").removed}
        assert {"509.2", "509.3"} <= removed
        assert not any("damage assignment order" in r.text for r in by_date["2025-02-07"].values())

    def test_planeswalker_uniqueness_sba_removed_and_legend_rule_takes_its_number(self, by_date):
        # 2017-08-25 line 4076: 704.5j planeswalker uniqueness; line 4078: 704.5k legend rule.
        # 2017-09-29 line 4093: 704.5j is the legend rule. Same number, another rule: not "changed".
        result = diff(by_date, "2017-08-25", "2017-09-29")
        assert "704.5j" in {c.old_number for c in result.removed}
        assert result.mapping["704.5k"] == "704.5j"
        assert "704.5j" not in {c.old_number for c in result.changed}


class CascadeTests:
    def test_ward_inserted_at_702_21_shifts_every_later_keyword(self, by_date):
        # 2021-02-15: 702.20 Vigilance, 702.21 Banding ... 702.142 Foretell.
        # 2021-04-22: 702.21 Ward, 702.22 Banding ... 702.143 Foretell.
        result = diff(by_date, "2021-02-15", "2021-04-22")
        mapping = result.mapping
        old = by_date["2021-02-15"]
        shifted = [
            n
            for n in old
            if n.startswith("702.") and 21 <= int(n[4:].rstrip("abcdefghijkmnpqrstuvwxyz")) <= 142
        ]
        assert len(shifted) > 300
        for number in shifted:
            rule_no = int(number[4:].rstrip("abcdefghijkmnpqrstuvwxyz"))
            assert mapping[number] == f"702.{rule_no + 1}" + number[4 + len(str(rule_no)) :], number
        assert "702.21" in {c.new_number for c in result.added}
        # No rule of the shifted run is reported as "changed" under its old number.
        assert not {c.old_number for c in result.changed} & set(shifted)


class ReorderTests:
    def test_start_of_game_rules_swapped_places(self, by_date):
        # 2020-06-01: 103.1 shuffle, 103.2 who goes first. 2020-07-03: 103.1 who goes first,
        # 103.2 shuffle ("After the starting player has been determined, each player shuffles").
        mapping = diff(by_date, "2020-06-01", "2020-07-03").mapping
        assert (mapping["103.1"], mapping["103.2"]) == ("103.2", "103.1")

    def test_token_rules_moved_into_the_new_tokens_section(self, by_date):
        # 2019-06-14 line 580: 110.5 "Some effects put tokens onto the battlefield. ..."
        # 2019-07-12 line 594: 111.1, the same words, under the new section 111 "Tokens";
        # 111 "Spells" became 112.
        result = diff(by_date, "2019-06-14", "2019-07-12")
        assert result.mapping["110.5"] == "111.1"
        assert result.mapping["111"] == "112"
        assert "111" in {c.new_number for c in result.added}

    def test_expansion_symbol_rule_keeps_its_number_when_700_8_moves_under_it(self, by_date):
        # 2020-08-07: 206.3 "Previously, ... See rule 700.8 for details." and 700.8a-c list the
        # set names. 2020-09-25: 206.3 without the last sentence, 206.3a-c the set names.
        result = diff(by_date, "2020-08-07", "2020-09-25")
        assert result.mapping["206.3"] == "206.3"
        assert result.mapping["700.8a"] == "206.3a"
        assert "700.8" in {c.old_number for c in result.removed}


class RenamedSectionTests:
    def test_tribal_renamed_kindred(self, by_date):
        # 2022 "308. Tribals", 2025 "308. Kindreds": renamed, its rules stay.
        change = change_of(diff(by_date, "2022-04-29", "2025-02-07"), "308")
        assert change.new_number == "308" and change.edited

    def test_ending_the_turn_renamed(self, by_date):
        # 2019-07-12 "716. Ending the Turn", 2019-08-23 "716. Ending Turns and Phases".
        assert diff(by_date, "2019-07-12", "2019-08-23").mapping["716"] == "716"


class TraceCorpusTests:
    def test_loop_draw_rule_through_every_version(self, cr_versions):
        # README: Taking Shortcuts is 719 in 2017, 722 in 2020, 725 in 2022 and 729 in 2025.
        steps = diffing.trace_rule(cr_versions, "729.4", dt.date(2025, 2, 7))
        assert len(steps) == 27
        numbers = {s.effective_date.isoformat(): s.number for s in steps}
        assert (numbers["2017-08-25"], numbers["2020-04-17"], numbers["2022-04-29"]) == (
            "719.4",
            "722.4",
            "725.4",
        )
        assert all(
            s.text
            == (
                "If a loop contains only mandatory actions, the game is a draw. (See rules "
                "104.4b and 104.4f.)"
            )
            for s in steps[-2:]
        )

    def test_ward_traced_back_to_its_first_version(self, cr_versions):
        steps = diffing.trace_rule(cr_versions, "702.21", dt.date(2025, 2, 7))
        first = next(s for s in steps if s.number is not None)
        assert first.effective_date == dt.date(2021, 4, 22)
        assert all(s.number is None for s in steps if s.effective_date < first.effective_date)

    def test_follow_a_pinned_reference_to_the_newest_version(self, by_date):
        assert diffing.follow_rule(by_date["2017-08-25"], by_date["2025-02-07"], "719.4") == "729.4"


@pytest.fixture(scope="module")
def mtr_versions() -> dict[str, dict[str, DiffRule]]:
    from rulesref.parsing.documents import parse_document

    versions = {}
    for path in rules_files("mtr"):
        doc = parse_document(path.read_bytes(), path.name)
        versions[doc.effective_date.isoformat()] = diffing.diff_rules_from_document(doc)
    return versions


class TournamentRulesTests:
    """The same differ with the MTR profile (citations look like "4.2"; sections carry headings)."""

    def test_loops_inserted_at_4_4_shifts_the_sections_after_it(self, mtr_versions):
        # MTR 2018-05-22: 4.4 Triggered Abilities, 4.5 Team/Two-Headed Giant Communication,
        # 4.6 Game Layout. 2018-10-05: 4.4 Loops, then 4.5, 4.6, 4.7 the same sections.
        old, new = mtr_versions["2018-05-22"], mtr_versions["2018-10-05"]
        result = diffing.diff_rules(old, new, profile=diffing.MTR_PROFILE)
        assert {c.old_number: c.new_number for c in result.moved} == {
            "4.4": "4.5",
            "4.5": "4.6",
            "4.6": "4.7",
        }
        assert new["4.4"].title == "Loops" and "4.4" in {c.new_number for c in result.added}

    def test_a_kept_heading_outweighs_borrowed_text(self, mtr_versions):
        # In the 2017-09-29 rendering, 2.13 "Video Coverage" runs on into the game layout text
        # that 2018-05-22 prints as 4.6 "Game Layout"; the section is still 2.13 Video Coverage.
        old, new = mtr_versions["2017-09-29"], mtr_versions["2018-05-22"]
        result = diffing.diff_rules(old, new, profile=diffing.MTR_PROFILE)
        assert result.mapping["2.13"] == "2.13"
        assert new["2.13"].title == old["2.13"].title == "Video Coverage"
