"""MTR parser: small fixtures in both layouts, errors, and every real MTR in the shared corpus."""

from __future__ import annotations

import datetime as dt
import unittest
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulesref.parsing.common import normalize_rule_number
from rulesref.parsing.html.blocks import IMAGE_NOTE
from rulesref.parsing.mtr import INTRO_NUMBER, parse_mtr
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


def _line_of(text: str, needle: str) -> int:
    return text[: text.index(needle)].count("\n") + 1


class MtrNewLayoutTests(unittest.TestCase):
    def setUp(self) -> None:
        self.text = _fixture("mtr_2019_small.html")
        self.doc = parse_mtr(self.text, "mtr_2019_small.html")
        self.rules = {r.number: r for r in self.doc.rules}

    def test_version_date_is_last_updated_and_effective_date_is_noted(self):
        self.assertEqual(self.doc.effective_date, dt.date(2019, 6, 6))
        self.assertTrue(any("2019-05-03" in note for note in self.doc.notes))

    def test_scrape_date_line_is_noted_not_parsed_as_a_date(self):
        self.assertTrue(any("scrape date 2020-03-14" in note for note in self.doc.notes))

    def test_title_comes_from_the_document(self):
        self.assertEqual(self.doc.title, "Magic: The Gathering Tournament Rules")

    def test_introduction_is_section_zero_with_all_its_paragraphs(self):
        intro = self.rules[INTRO_NUMBER]
        self.assertEqual(intro.kind, RuleKind.SECTION)
        self.assertIn("sanctioned tournaments", intro.text)
        self.assertIn("this document takes precedence", intro.text)

    def test_chapters_come_from_the_contents_and_precede_their_sections(self):
        numbers = [r.number for r in self.doc.rules]
        self.assertEqual(numbers, ["0", "1", "1.1", "1.2", "4", "4.2", "B"])
        self.assertEqual(self.rules["4"].kind, RuleKind.CHAPTER)
        self.assertEqual(self.rules["4"].title, "Communication")

    def test_section_has_number_title_parent_and_line(self):
        shortcut = self.rules["4.2"]
        self.assertEqual((shortcut.title, shortcut.parent), ("Tournament Shortcuts", "4"))
        self.assertEqual(shortcut.line, _line_of(self.text, "MTR 4.2 Tournament Shortcuts"))

    def test_list_items_are_bulleted_lines_of_the_text(self):
        self.assertIn("purposes:\n\n- Head Judge\n- Player", self.rules["1.2"].text)

    def test_example_paragraph_moves_to_examples(self):
        shortcut = self.rules["4.2"]
        self.assertEqual(shortcut.examples, ('A player says "go" during their main phase.',))
        self.assertNotIn("during their main phase", shortcut.text)

    def test_references_keep_own_numbers_and_prefix_other_documents(self):
        self.assertEqual(self.rules["4.2"].references, ("ipg:2.1", "cr:704.5a", "1.1"))
        self.assertEqual(self.rules["1.1"].references, ("1.2", "B"))

    def test_appendix_number_is_its_capital_letter_as_lookups_read_it(self):
        appendix = self.rules["B"]
        self.assertEqual((appendix.kind, appendix.title), (RuleKind.APPENDIX, "Time Limits"))
        self.assertEqual(normalize_rule_number("Appendix b", "mtr"), appendix.number)
        self.assertIn("15 cards | 40 seconds", appendix.text)

    def test_trademark_line_goes_to_notes(self):
        self.assertTrue(any(note.startswith("line 26: All trademarks") for note in self.doc.notes))


class MtrOldLayoutTests(unittest.TestCase):
    def setUp(self) -> None:
        self.text = _fixture("mtr_2017_small.html")
        self.doc = parse_mtr(self.text, "mtr_2017_small.html")
        self.rules = {r.number: r for r in self.doc.rules}

    def test_effective_date_without_last_updated(self):
        self.assertEqual(self.doc.effective_date, dt.date(2017, 9, 29))

    def test_h4_chapters_and_sections(self):
        self.assertEqual([r.number for r in self.doc.rules], ["1", "1.1", "2", "2.13", "B", "D"])
        self.assertEqual(self.rules["1"].line, _line_of(self.text, "<h4>1.  Tournament"))

    def test_paragraph_printed_as_a_heading_stays_in_its_section(self):
        video = self.rules["2.13"]
        self.assertIn("13 The Head Judge may use video replay", video.text)
        self.assertIn("Players may not request", video.text)
        self.assertTrue(
            any("is not in the contents; kept as text" in note for note in self.doc.notes)
        )

    def test_appendix_heading_run_into_its_first_sentence_is_split_at_the_listed_title(self):
        mix = self.rules["D"]
        self.assertEqual(mix.title, "Recommended Booster Mix for Limited Tournaments")
        self.assertTrue(mix.text.startswith("Note: The following booster mixes are required"))

    def test_subheading_inside_an_appendix_is_text(self):
        self.assertIn("Booster Draft Timing\n\nIndividual booster drafts", self.rules["B"].text)

    def test_converter_and_trademark_lines_are_notes(self):
        self.assertTrue(any("Converted by" in note for note in self.doc.notes))
        self.assertNotIn("Converted by", self.rules["D"].text)


class MtrErrorTests(unittest.TestCase):
    def assertParseError(self, text: str, line: int | None = None) -> ParseError:
        with self.assertRaises(ParseError) as caught:
            parse_mtr(text, "bad.html")
        self.assertEqual(caught.exception.source, "bad.html")
        if line is not None:
            self.assertEqual(caught.exception.line, line)
        return caught.exception

    def test_empty_text(self):
        self.assertParseError("", line=1)

    def test_comprehensive_rules_text_is_refused(self):
        cr = (FIXTURES / "cr_official.txt").read_text(encoding="utf-8-sig")
        self.assertParseError(cr)

    def test_ipg_given_to_the_mtr_parser_is_refused_at_its_title(self):
        text = _fixture("ipg_2021_small.html")
        self.assertParseError(text, line=_line_of(text, "Magic Infraction Procedure Guide"))

    def test_text_before_the_title_cannot_be_placed(self):
        text = _fixture("mtr_2019_small.html")
        bad = text.replace(
            ' <header class="entry-header" id="mtr">',
            ' <p>Stray words</p>\n <header class="entry-header" id="mtr">',
            1,
        )
        self.assertParseError(bad, line=_line_of(bad, "Stray words"))

    def test_html_without_sections(self):
        text = (
            "<html><body><h1>Magic: The Gathering Tournament Rules</h1><p>Effective May 3, "
            "2019</p></body></html>"
        )
        self.assertIn("no numbered section", self.assertParseError(text).message)

    def test_missing_dates(self):
        text = _fixture("mtr_2019_small.html").replace("Effective May 3, 2019", "")
        self.assertParseError(text)

    def test_truncated_file_is_refused(self):
        text = _fixture("mtr_2019_small.html")
        cut = text[: text.index(' <header class="entry-header" id="mtr4-2">')]
        self.assertParseError(cut)

    def test_listed_section_missing_from_a_closed_file_names_the_contents_line(self):
        text = _fixture("mtr_2019_small.html")
        start = text.index(' <header class="entry-header" id="mtr4-2">')
        end = text.index(' <header class="entry-header" id="mtr-appendix-b">')
        error = self.assertParseError(text[:start] + text[end:])
        self.assertEqual(error.line, _line_of(text, '<p>4.2 <a href="#mtr4-2">'))

    def test_prose_inside_the_contents_cannot_be_placed(self):
        text = _fixture("mtr_2019_small.html")
        stray = (
            "  <p>"
            + "This long paragraph sits among the contents entries and belongs to no section. " * 2
            + "</p>\n"
        )
        anchor = "  <h2>4. Communication</h2>\n"
        bad = text.replace(anchor, stray + anchor)
        self.assertParseError(bad, line=_line_of(bad, "This long paragraph"))


_TITLE = st.text(
    alphabet=st.sampled_from("abcdefghijklmnopqrstuvwxyz "), min_size=3, max_size=30
).map(lambda s: "T" + " ".join(s.split()) or "Title")
_WORDS = st.lists(
    st.sampled_from(["judge", "player", "deck", "round", "match", "card", "time"]),
    min_size=3,
    max_size=12,
)


class MtrRoundTripTests(unittest.TestCase):
    @settings(max_examples=40, deadline=None)
    @given(st.lists(st.tuples(_TITLE, _WORDS), min_size=1, max_size=8))
    def test_generated_sections_come_back_with_their_titles_text_and_lines(self, sections):
        contents = "<br> ".join(
            f'3.{i} <a href="#mtr3-{i}">{title}</a>' for i, (title, _) in enumerate(sections, 1)
        )
        body = "".join(
            (
                f' <header class="entry-header">\n  <h1 class="entry-title">MTR 3.{i} '
                f"{title}</h1>\n </header>\n"
                f" <div>\n  <p>{' '.join(words)}.</p>\n </div>\n"
            )
            for i, (title, words) in enumerate(sections, 1)
        )
        text = (
            "<html>\n <header><h1>Magic: The Gathering Tournament Rules</h1></header>\n <div>\n"
            "  <div><em>Effective May 3, 2019</em></div>\n  <p>Contents</p>\n  <h2>3. Tournament "
            f"Rules</h2>\n  <p>{contents}</p>\n </div>\n{body}</html>\n"
        )
        doc = parse_mtr(text)
        parsed = [r for r in doc.rules if r.kind is RuleKind.SECTION]
        self.assertEqual(
            [r.number for r in parsed], [f"3.{i}" for i in range(1, len(sections) + 1)]
        )
        for rule, (title, words) in zip(parsed, sections):
            self.assertEqual(rule.title, " ".join(title.split()))
            self.assertEqual(rule.text, " ".join(words) + ".")
            self.assertEqual(rule.line, _line_of(text, f"MTR {rule.number} "))


MTR_FILES = rules_files("mtr")


@pytest.mark.parametrize("path", MTR_FILES, ids=lambda p: p.name)
class MtrCorpusTests:
    def test_parses_with_dates_read_from_the_text_matching_the_file_name(self, path, rules_dir):
        doc = parse_mtr(path.read_text(encoding="utf-8"), str(path))
        assert doc.effective_date == name_date(path)

    def test_sections_and_appendices_equal_the_headings_counted_in_the_raw_html(
        self, path, rules_dir
    ):
        raw = path.read_text(encoding="utf-8")
        doc = parse_mtr(raw, str(path))
        sections = {
            r.number for r in doc.rules if r.kind is RuleKind.SECTION and r.number != INTRO_NUMBER
        }
        appendices = {r.number for r in doc.rules if r.kind is RuleKind.APPENDIX}
        assert sections == heading_sections(raw)
        assert appendices == heading_appendices(raw)
        assert len([r for r in doc.rules if r.number in sections]) == len(sections)  # no duplicates

    def test_every_paragraph_of_the_html_lands_in_the_parsed_document(self, path, rules_dir):
        raw = path.read_text(encoding="utf-8")
        assert unplaced_paragraphs(raw, parse_mtr(raw, str(path))) == []

    def test_every_section_has_a_known_chapter_and_text(self, path, rules_dir):
        doc = parse_mtr(path.read_text(encoding="utf-8"), str(path))
        chapters = {r.number for r in doc.rules if r.kind is RuleKind.CHAPTER}
        assert chapters == {str(n) for n in range(1, 11)}
        for rule in doc.rules:
            if rule.kind is RuleKind.SECTION and rule.number != INTRO_NUMBER:
                assert rule.parent in chapters and rule.text.strip(), rule.number

    def test_own_references_resolve_in_the_same_document(self, path, rules_dir):
        doc = parse_mtr(path.read_text(encoding="utf-8"), str(path))
        numbers = {r.number for r in doc.rules}
        for rule in doc.rules:
            for ref in rule.references:
                assert ":" in ref or ref in numbers, (rule.number, ref)


def test_mtr_2019_section_4_2_is_tournament_shortcuts(rules_dir):
    path = rules_dir / "mtr" / "MagicTournamentRules-20190606.html"
    doc = parse_mtr(path.read_text(encoding="utf-8"), str(path))
    shortcuts = next(r for r in doc.rules if r.number == "4.2")
    assert "shortcut" in shortcuts.title.lower()
    assert shortcuts.parent == "4" and "tournament shortcut is an action" in shortcuts.text
    assert next(r for r in doc.rules if r.number == "4").title == "Communication"


def test_appendix_c_examples_stay_with_their_tables_and_images_are_said(rules_dir):
    path = rules_dir / "mtr" / "MagicTournamentRules-20190606.html"
    html = path.read_text(encoding="utf-8")
    doc = parse_mtr(html, str(path))
    tiebreakers = next(r for r in doc.rules if r.number == "C")
    intro = "These three players competed in an 8-round tournament"
    # the example introduces the table of their records, and reads before it
    assert intro in tiebreakers.text and not any(intro in e for e in tiebreakers.examples)
    assert tiebreakers.text.index(intro) < tiebreakers.text.index("5-2-1 | 16 | 8")
    # its two results are images only: the example says so instead of ending on a colon
    results = [e for e in tiebreakers.examples if "opponents' match-win percentage is:" in e]
    assert len(results) == 2 and all(e.endswith(IMAGE_NOTE) for e in results)
    # every <img> of the document is said once
    said = sum(
        r.text.count(IMAGE_NOTE) + sum(e.count(IMAGE_NOTE) for e in r.examples) for r in doc.rules
    )
    assert said == html.count("<img")
