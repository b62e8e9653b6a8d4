"""The shared reader of the MTR/IPG/JAR renderings: blocks, lines, dates, kind
detection, citations."""

from __future__ import annotations

import datetime as dt
import unittest
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulesref.parsing.html import detect_html_kind, extract_policy_references, read_dates, to_blocks
from rulesref.parsing.records import DocKind
from tests.conftest import rules_files

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"


class BlockTests(unittest.TestCase):
    def test_line_is_where_the_text_starts(self):
        blocks, closed, _ = to_blocks("<html>\n<p>\n\nfirst</p>\n<li>second</li></html>")
        self.assertEqual(
            [(b.kind, b.text, b.line) for b in blocks], [("p", "first", 4), ("li", "second", 5)]
        )
        self.assertTrue(closed)

    def test_scrape_date_line_is_dropped_but_lines_keep_counting(self):
        blocks, _, scrape = to_blocks("2019-00-01\n<p>text</p>")
        self.assertEqual((scrape, blocks[0].line), ("2019-00-01", 2))

    def test_br_breaks_lines_inside_a_paragraph_and_source_newlines_are_spaces(self):
        blocks, _, _ = to_blocks("<p>one\ntwo<br>three</p>")
        self.assertEqual(blocks[0].text, "one two\nthree")

    def test_table_rows_join_cells_and_mark_headers(self):
        blocks, _, _ = to_blocks(
            "<table><tr><th>A</th><th>B</th></tr><tr><td>1</td><td></td><td>2</td></tr></table>"
        )
        self.assertEqual(
            [(b.text, b.header_row) for b in blocks], [("A | B", True), ("1 | 2", False)]
        )

    def test_open_paragraph_closes_at_the_next_block(self):
        blocks, _, _ = to_blocks("<p>\n<b>APPENDIX A - X</b>\n<table><tr><td>c</td></tr></table>")
        self.assertEqual(
            [(b.kind, b.text, b.bold) for b in blocks],
            [("p", "APPENDIX A - X", True), ("row", "c", False)],
        )

    def test_unclosed_html_is_reported(self):
        self.assertFalse(to_blocks("<html><p>cut")[1])

    @settings(max_examples=60, deadline=None)
    @given(
        st.lists(
            st.tuples(st.integers(0, 3), st.text(alphabet="abcdefgh", min_size=1, max_size=10)),
            min_size=1,
            max_size=10,
        )
    )
    def test_each_paragraph_comes_back_at_its_line(self, paragraphs):
        text = "".join("\n" * gap + f"<p>{words}</p>" for gap, words in paragraphs)
        blocks, _, _ = to_blocks(text)
        expected = []
        position = 0
        for _gap, words in paragraphs:
            position = text.index(f"<p>{words}</p>", position)
            expected.append((words, text.count("\n", 0, position) + 1))
            position += 1
        self.assertEqual([(b.text, b.line) for b in blocks], expected)


class DateTests(unittest.TestCase):
    def test_printed_forms(self):
        self.assertEqual(
            read_dates("Effective May 3, 2019 Last updated June 6, 2019"),
            (dt.date(2019, 5, 3), dt.date(2019, 6, 6)),
        )
        self.assertEqual(
            read_dates("Effective Oct 3rd, 2018\nLast updated Oct 10th , 2018"),
            (dt.date(2018, 10, 3), dt.date(2018, 10, 10)),
        )
        self.assertEqual(read_dates("Effective Sep 25, 2020"), (dt.date(2020, 9, 25), None))

    def test_not_dates(self):
        self.assertEqual(read_dates("2017 Effective Date"), (None, None))
        self.assertEqual(read_dates("This document is updated periodically."), (None, None))
        self.assertEqual(read_dates("Effective Foo 3, 2019"), (None, None))


class DetectKindTests(unittest.TestCase):
    def test_fixtures(self):
        for name, kind in (
            ("mtr_2019_small.html", DocKind.MTR),
            ("mtr_2017_small.html", DocKind.MTR),
            ("ipg_2021_small.html", DocKind.IPG),
            ("ipg_2017_small.html", DocKind.IPG),
            ("jar_small.html", DocKind.JAR),
        ):
            self.assertEqual(
                detect_html_kind((FIXTURES / name).read_text(encoding="utf-8")), kind, name
            )

    def test_the_title_decides_not_a_mention_in_the_text(self):
        text = (
            "<html><h1>Some Other Guide</h1><p>See the Magic Tournament Rules and the Infraction "
            "Procedure Guide.</p></html>"
        )
        self.assertIsNone(detect_html_kind(text))

    def test_plain_text_and_cr(self):
        self.assertIsNone(
            detect_html_kind((FIXTURES / "cr_official.txt").read_text(encoding="utf-8-sig"))
        )
        self.assertIsNone(detect_html_kind(""))


@pytest.mark.parametrize("kind", ["mtr", "ipg", "jar"])
def test_every_real_file_is_detected_as_its_folder(kind, rules_dir):
    for path in rules_files(kind):
        assert detect_html_kind(path.read_text(encoding="utf-8")) is DocKind(kind), path.name


class ReferenceTests(unittest.TestCase):
    KNOWN = frozenset({"1", "2", "3", "4", "1.4", "2.1", "2.5", "4.2", "4.3", "B"})

    def test_forms(self):
        cases = {
            "see section 1.4": ("1.4",),
            "sections 2-4": ("2", "3", "4"),
            "(2.5)": ("2.5",),
            "Appendix B": ("B",),
            "MTR section 4.3 and IPG 2.1": ("mtr:4.3", "2.1"),
            "rule 704.5a": ("cr:704.5a",),
            "see 4 players at 1.5 times": (),
            "see 9.9": (),
        }
        for text, expected in cases.items():
            self.assertEqual(
                extract_policy_references(text, DocKind.IPG, self.KNOWN), expected, text
            )

    @settings(max_examples=80, deadline=None)
    @given(st.text(max_size=80))
    def test_own_numbers_are_always_known(self, text):
        for ref in extract_policy_references(text, DocKind.MTR, self.KNOWN):
            self.assertTrue(":" in ref or ref in self.KNOWN, ref)
