"""IPG parser: infraction fields, penalties, examples and aliases on fixtures and on every
real IPG."""

from __future__ import annotations

import datetime as dt
import re
import unittest
from pathlib import Path

import pytest

from rulesref.parsing.ipg import (
    INFRACTION_ALIASES,
    PART_ORDER,
    infraction_aliases,
    infraction_name,
    parse_ipg,
)
from rulesref.parsing.records import ParseError, RuleKind
from tests.conftest import rules_files
from tests.rulesref.parsing.policy_corpus import (
    heading_appendices,
    heading_sections,
    name_date,
    unplaced_paragraphs,
)

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"


def _fixture(name: str) -> str:
    return (FIXTURES / name).read_text(encoding="utf-8")


def _by_alias(doc, alias):
    return [r for r in doc.rules if alias.casefold() in (a.casefold() for a in r.aliases)]


class IpgNewLayoutTests(unittest.TestCase):
    def setUp(self) -> None:
        self.text = _fixture("ipg_2021_small.html")
        self.doc = parse_ipg(self.text, "ipg_2021_small.html")
        self.rules = {r.number: r for r in self.doc.rules}

    def test_dates_with_ordinals_and_abbreviated_months(self):
        self.assertEqual(self.doc.effective_date, dt.date(2021, 1, 6))
        self.assertTrue(any("2020-09-25" in note for note in self.doc.notes))

    def test_chapter_keeps_its_own_text_without_the_contents_table(self):
        chapter = self.rules["2"]
        self.assertEqual(chapter.kind, RuleKind.CHAPTER)
        self.assertEqual(
            chapter.text, "Game Play Errors are caused by incorrect or inaccurate play of the game."
        )

    def test_infraction_fields_in_order(self):
        trigger = self.rules["2.1"]
        # 2.1 prints every part but a Downgrade.
        self.assertEqual(
            [k for k, _ in trigger.fields], [k for k in PART_ORDER if k != "downgrade"]
        )
        fields = dict(trigger.fields)
        self.assertEqual(fields["penalty"], "None")
        self.assertTrue(fields["definition"].startswith("A triggered ability triggers"))
        self.assertIn("further problems are a Game Rule Violation", fields["definition"])
        self.assertEqual(
            fields["upgrade"],
            "If the triggered ability is usually considered detrimental, the penalty is a Warning.",
        )
        self.assertIn("Out-of-Order Sequencing", fields["philosophy"])

    def test_examples_are_separate_lettered_strings_kept_out_of_the_text(self):
        trigger = self.rules["2.1"]
        self.assertEqual(len(trigger.examples), 2)
        self.assertTrue(trigger.examples[0].startswith("A. A creature with exalted"))
        self.assertNotIn("exalted", trigger.text)

    def test_unlettered_list_items_are_examples_too(self):
        self.assertEqual(self.rules["2.5"].examples, ("A player casts Wrath of God for 3W.",))

    def test_text_reads_in_order_with_labels_and_the_penalty(self):
        text = self.rules["2.5"].text
        self.assertLess(text.index("Definition"), text.index("Penalty: Warning"))
        self.assertLess(text.index("Penalty: Warning"), text.index("Philosophy"))

    def test_aliases_find_infractions(self):
        self.assertEqual([r.number for r in _by_alias(self.doc, "GRV")], ["2.5"])
        self.assertEqual([r.number for r in _by_alias(self.doc, "missed trigger")], ["2.1"])

    def test_references_across_documents(self):
        self.assertEqual(self.rules["2.1"].references, ("2.5", "mtr:4.3"))
        self.assertEqual(self.rules["2.5"].references, ("1.1",))


class IpgOldLayoutTests(unittest.TestCase):
    def setUp(self) -> None:
        self.doc = parse_ipg(_fixture("ipg_2017_small.html"), "ipg_2017_small.html")
        self.rules = {r.number: r for r in self.doc.rules}

    def test_penalty_from_the_table_row(self):
        self.assertEqual(dict(self.rules["3.1"].fields)["penalty"], "Game Loss")

    def test_uppercase_headings_take_the_contents_spelling(self):
        self.assertEqual(self.rules["3"].title, "Tournament Errors")

    def test_unlettered_paragraph_continues_the_example_before_it(self):
        self.assertEqual(
            self.rules["3.1"].examples[1],
            "B. A player sits at the wrong table and realizes it only after the round starts.",
        )

    def test_upgrade_paragraph_is_the_upgrade_field(self):
        fields = dict(self.rules["3.1"].fields)
        self.assertEqual(
            fields["upgrade"],
            "A player not in their seat 10 minutes into the round receives a Match Loss.",
        )
        self.assertNotIn("Upgrade", fields["additional_remedy"])

    def test_bold_appendix_line_is_an_appendix(self):
        appendix = self.rules["A"]
        self.assertEqual(
            (appendix.kind, appendix.title), (RuleKind.APPENDIX, "Penalty Quick Reference")
        )
        self.assertIn("Tardiness | Game Loss", appendix.text)


class IpgErrorTests(unittest.TestCase):
    def test_infraction_without_a_penalty_is_refused_at_its_heading(self):
        text = _fixture("ipg_2021_small.html")
        start = text.index("<strong>Penalty</strong></p>\n    <p>Warning</p>")
        bad = text[:start] + text[start:].replace(
            "<strong>Penalty</strong></p>\n    <p>Warning</p>", "</p>", 1
        )
        with self.assertRaises(ParseError) as caught:
            parse_ipg(bad, "bad.html")
        self.assertEqual(
            caught.exception.line, bad[: bad.index("IPG 2.5 Game Play")].count("\n") + 1
        )

    def test_mtr_given_to_the_ipg_parser_is_refused(self):
        with self.assertRaises(ParseError):
            parse_ipg(_fixture("mtr_2019_small.html"), "mtr.html")

    def test_chapter_contents_table_naming_a_missing_section_is_refused(self):
        text = _fixture("ipg_2021_small.html").replace(
            '2.5. <a href="#ipg2-5">Game Play Error - Game Rule Violation</a></td>',
            '2.7. <a href="#ipg2-7">Game Play Error - Other</a></td>',
        )
        with self.assertRaises(ParseError):
            parse_ipg(text, "bad.html")


class AliasTableTests(unittest.TestCase):
    def test_name_is_the_part_after_the_category(self):
        self.assertEqual(
            infraction_name("Tournament Error - Outside Assistance"), "Outside Assistance"
        )

    def test_unknown_infraction_gets_its_initials(self):
        aliases, known = infraction_aliases("Tournament Error - Improper Pod Seating")
        self.assertFalse(known)
        self.assertEqual(aliases, ("Improper Pod Seating", "IPS"))

    def test_every_abbreviation_names_one_infraction_of_a_version(self):
        owners: dict[str, set[str]] = {}
        for name, aliases in INFRACTION_ALIASES.items():
            for alias in aliases:
                owners.setdefault(alias.casefold(), set()).add(name)
        shared = {a: n for a, n in owners.items() if len(n) > 1}
        # "D/DLP" names the old combined infraction and, in its absence, the Decklist Problem.
        self.assertEqual(shared, {"d/dlp": {"Decklist Problem", "Deck/Decklist Problem"}})


IPG_FILES = rules_files("ipg")
_PENALTIES = re.compile(r"^(No Penalty|None|Warning|Game Loss|Match Loss|Disqualification)\b")


@pytest.mark.parametrize("path", IPG_FILES, ids=lambda p: p.name)
class IpgCorpusTests:
    def test_parses_with_dates_matching_the_file_name(self, path, rules_dir):
        doc = parse_ipg(path.read_text(encoding="utf-8"), str(path))
        assert doc.effective_date == name_date(path)

    def test_sections_and_appendices_equal_the_headings_in_the_raw_html(self, path, rules_dir):
        raw = path.read_text(encoding="utf-8")
        doc = parse_ipg(raw, str(path))
        assert {
            r.number for r in doc.rules if r.kind is RuleKind.SECTION and r.number != "0"
        } == heading_sections(raw)
        assert {r.number for r in doc.rules if r.kind is RuleKind.APPENDIX} == heading_appendices(
            raw
        )

    def test_every_paragraph_of_the_html_lands_in_the_parsed_document(self, path, rules_dir):
        raw = path.read_text(encoding="utf-8")
        assert unplaced_paragraphs(raw, parse_ipg(raw, str(path))) == []

    def test_every_infraction_has_a_penalty_definition_examples_and_a_tabled_alias(
        self, path, rules_dir
    ):
        doc = parse_ipg(path.read_text(encoding="utf-8"), str(path))
        infractions = [r for r in doc.rules if r.parent in ("2", "3", "4")]
        assert len(infractions) == len(
            heading_sections(path.read_text(encoding="utf-8")) - {"1.1", "1.2", "1.3", "1.4", "1.5"}
        )
        for rule in infractions:
            fields = dict(rule.fields)
            assert _PENALTIES.match(fields.get("penalty", "")), (rule.number, fields.get("penalty"))
            assert fields.get("definition") and rule.examples, rule.number
            assert fields["examples"] == "\n\n".join(rule.examples)
            assert rule.aliases[0] == infraction_name(rule.title)
            assert rule.aliases[0] in INFRACTION_ALIASES, rule.title
        assert not any("alias table" in note for note in doc.notes)

    def test_aliases_are_unique_within_a_version(self, path, rules_dir):
        doc = parse_ipg(path.read_text(encoding="utf-8"), str(path))
        seen = [a.casefold() for r in doc.rules for a in r.aliases]
        assert len(seen) == len(set(seen))


def test_ipg_2021_game_rule_violation_found_by_alias_with_every_field(rules_dir):
    path = rules_dir / "ipg" / "InfractionProcedureGuide-20210106.html"
    doc = parse_ipg(path.read_text(encoding="utf-8"), str(path))
    (grv,) = _by_alias(doc, "GRV")
    assert grv.number == "2.5" and grv.title == "Game Play Error - Game Rule Violation"
    fields = dict(grv.fields)
    assert set(fields) >= {"definition", "penalty", "examples", "philosophy", "additional_remedy"}
    assert all(value.strip() for value in fields.values())
    assert fields["penalty"] == "Warning"
    assert len(grv.examples) >= 4 and all(re.match(r"^[A-Z]\. ", e) for e in grv.examples)
    (cheating,) = _by_alias(doc, "USC-Cheating")
    assert dict(cheating.fields)["penalty"] == "Disqualification"


# --- Downgrade: a part of its own (issue 27) ------------------------------------------------------

_DOWNGRADE_IN_RAW = re.compile(r">\s*Downgrade\s*(?::|<)|^\s*Downgrade:", re.M)


@pytest.mark.parametrize("path", IPG_FILES, ids=lambda p: p.name)
def test_every_downgrade_is_its_own_part_and_no_other_part_holds_one(path, rules_dir):
    """A "Downgrade" box (2018+) or "Downgrade:" paragraph (2017, and Tardiness since 2019) is the
    downgrade part of its infraction: never filed under the Upgrade or the Philosophy before it."""
    raw = path.read_text(encoding="utf-8")
    doc = parse_ipg(raw, str(path))
    infractions = [r for r in doc.rules if r.parent in ("2", "3", "4")]
    with_downgrade = [r for r in infractions if "downgrade" in dict(r.fields)]
    assert len(with_downgrade) == len(_DOWNGRADE_IN_RAW.findall(raw))
    for rule in infractions:
        keys = [k for k, _ in rule.fields]
        assert keys == [k for k in PART_ORDER if k in keys], rule.number
        for key, value in rule.fields:
            assert "Downgrade" not in value, (path.name, rule.number, key)


def test_ipg_2021_tardiness_and_outside_assistance_downgrades(rules_dir):
    path = rules_dir / "ipg" / "InfractionProcedureGuide-20210106.html"
    rules = {r.number: r for r in parse_ipg(path.read_text(encoding="utf-8"), str(path)).rules}
    tardiness, assistance = dict(rules["3.1"].fields), dict(rules["3.2"].fields)
    assert [k for k, _ in rules["3.1"].fields] == list(PART_ORDER)
    assert tardiness["downgrade"] == (
        "A player who arrives at their seat before 1 minute has elapsed in the round "
        "receives a warning."
    )
    assert tardiness["upgrade"].startswith("A player not in their seat 10 minutes into the round")
    assert "warning" not in tardiness["upgrade"]
    assert assistance["downgrade"] == (
        "If the information acquired is information that the player would have access to "
        "between games, the penalty is a Game Loss."
    )
    assert assistance["philosophy"].endswith("if they are not enrolled in the tournament.")
    text = rules["3.2"].text
    assert (
        text.index("Philosophy")
        < text.index("\nDowngrade\n")
        < text.index("If the information acquired")
    )
