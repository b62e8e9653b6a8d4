"""JAR parser: numbering by heading order, infraction aliases, errors, and both real JAR files."""

from __future__ import annotations

import datetime as dt
import re
import unittest
from pathlib import Path

import pytest

from rulesref.parsing.jar import parse_jar
from rulesref.parsing.records import ParseError, RuleKind
from tests.conftest import rules_files
from tests.rulesref.parsing.policy_corpus import name_date, unplaced_paragraphs

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"


def _find(doc, alias):
    return [r.number for r in doc.rules if alias.casefold() in (a.casefold() for a in r.aliases)]


class JarFixtureTests(unittest.TestCase):
    def setUp(self) -> None:
        self.text = (FIXTURES / "jar_small.html").read_text(encoding="utf-8")
        self.doc = parse_jar(self.text, "jar_small.html")
        self.rules = {r.number: r for r in self.doc.rules}

    def test_effective_date_when_no_last_updated(self):
        self.assertEqual(self.doc.effective_date, dt.date(2019, 1, 21))

    def test_numbers_follow_heading_order_and_bold_situations(self):
        self.assertEqual([r.number for r in self.doc.rules], ["0", "1", "1.1", "1.2", "2", "3"])
        self.assertEqual(self.rules["2"].title, "Serious Problems")
        self.assertEqual((self.rules["1.2"].kind, self.rules["1.2"].parent), (RuleKind.RULE, "1"))

    def test_situation_text_is_the_fix_below_it(self):
        self.assertTrue(self.rules["1.2"].text.startswith("Take that many cards at random"))

    def test_partly_bold_paragraph_is_text_not_a_situation(self):
        self.assertIn("Got questions? Try a judge chat.", self.rules["3"].text)

    def test_infractions_are_findable_by_abbreviation_and_judge_phrasing(self):
        self.assertEqual(_find(self.doc, "HCE"), ["1.2"])
        self.assertEqual(_find(self.doc, "drawing extra cards"), ["1.2"])
        self.assertEqual(_find(self.doc, "MPE"), ["1.2"])  # the fix mentions mulligans
        self.assertEqual(_find(self.doc, "Missed Trigger"), ["1.1"])
        self.assertEqual(_find(self.doc, "Theft"), ["2"])

    def test_line_of_each_heading(self):
        self.assertEqual(
            self.rules["2"].line, self.text[: self.text.index("<h2>Serious")].count("\n") + 1
        )

    def test_cut_file_is_refused(self):
        with self.assertRaises(ParseError):
            parse_jar(self.text[: self.text.index("<h2>Resources")], "cut.html")

    def test_mtr_is_not_a_jar(self):
        with self.assertRaises(ParseError):
            parse_jar((FIXTURES / "mtr_2019_small.html").read_text(encoding="utf-8"), "mtr.html")


JAR_FILES = rules_files("jar")


@pytest.mark.parametrize("path", JAR_FILES, ids=lambda p: p.name)
class JarCorpusTests:
    def test_parses_with_dates_matching_the_file_name(self, path, rules_dir):
        doc = parse_jar(path.read_text(encoding="utf-8"), str(path))
        assert doc.effective_date == name_date(path)

    def test_one_section_per_h2_and_one_rule_per_bold_situation(self, path, rules_dir):
        raw = path.read_text(encoding="utf-8")
        doc = parse_jar(raw, str(path))
        headings = re.findall(r"<h2>([^<]+)</h2>", raw)
        situations = re.findall(r"<p><strong>([^<]+)</strong></p>", raw)
        assert [
            r.title for r in doc.rules if r.kind is RuleKind.SECTION and r.number != "0"
        ] == headings
        assert [r.title for r in doc.rules if r.kind is RuleKind.RULE] == situations

    def test_every_paragraph_lands_in_the_parsed_document(self, path, rules_dir):
        raw = path.read_text(encoding="utf-8")
        assert unplaced_paragraphs(raw, parse_jar(raw, str(path))) == []

    def test_regular_rel_infractions_are_findable(self, path, rules_dir):
        doc = parse_jar(path.read_text(encoding="utf-8"), str(path))
        for alias in (
            "HCE",
            "drawing extra cards",
            "MPE",
            "MT",
            "LEC",
            "GRV",
            "Deck Problem",
            "Slow Play",
            "Cheating",
        ):
            assert len(_find(doc, alias)) == 1, alias
        extra = doc.rules[[r.number for r in doc.rules].index(_find(doc, "HCE")[0])]
        assert "more cards than" in extra.title
