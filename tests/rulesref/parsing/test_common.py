"""Tests for rulesref.parsing.common: decoding, rule numbers, citations, document order."""

from __future__ import annotations

import random
import subprocess
import sys
import unittest
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from rulesref.parsing.common import (
    SUBRULE_LETTERS,
    decode_document,
    extract_references,
    normalize_rule_number,
    rule_sort_key,
    term_key,
)
from rulesref.parsing.records import ParseError

REPO_ROOT = Path(__file__).resolve().parents[3]

sections = st.integers(min_value=100, max_value=999)
rule_numbers = st.integers(min_value=1, max_value=300)
letters = st.sampled_from(SUBRULE_LETTERS)


@st.composite
def cr_numbers(draw: st.DrawFn) -> str:
    """A canonical CR number: section, rule or subrule."""
    section = draw(sections)
    depth = draw(st.sampled_from(["section", "rule", "subrule"]))
    if depth == "section":
        return str(section)
    rule = draw(rule_numbers)
    if depth == "rule":
        return f"{section}.{rule}"
    return f"{section}.{rule}{draw(letters)}"


class DecodeDocumentTests(unittest.TestCase):
    def test_utf8_with_bom_and_crlf_becomes_plain_lf_text(self) -> None:
        raw = "\ufeffTitle\r\n\r\nRule “one”.\r\n".encode("utf-8")
        self.assertEqual(decode_document(raw, "x.txt"), "Title\n\nRule “one”.\n")

    def test_utf8_without_bom_is_kept_as_is(self) -> None:
        self.assertEqual(decode_document("a’b\nc".encode(), "x.txt"), "a’b\nc")

    def test_lone_carriage_returns_become_line_feeds(self) -> None:
        self.assertEqual(decode_document(b"one\rtwo\r\nthree", "x.txt"), "one\ntwo\nthree")

    def test_windows_1252_is_the_fallback_for_invalid_utf8(self) -> None:
        raw = "Magic\u2122 \u201ccan\u2019t\u201d \u2014 caf\u00e9".encode("cp1252")
        with self.assertRaises(UnicodeDecodeError):
            raw.decode("utf-8")
        self.assertEqual(
            decode_document(raw, "x.txt"), "Magic\u2122 \u201ccan\u2019t\u201d \u2014 caf\u00e9"
        )

    def test_utf16_with_bom_is_decoded(self) -> None:
        raw = "Title\r\nline two".encode("utf-16")
        self.assertEqual(decode_document(raw, "x.txt"), "Title\nline two")

    def test_nul_byte_is_binary_and_names_its_line(self) -> None:
        raw = b"line one\nline two\nbad \x00 here\nline four"
        with self.assertRaises(ParseError) as caught:
            decode_document(raw, "rules.bin")
        self.assertEqual(caught.exception.source, "rules.bin")
        self.assertEqual(caught.exception.line, 3)

    def test_many_control_characters_are_binary_and_name_the_first_bad_line(self) -> None:
        junk = bytes(random.Random(7).choice([1, 2, 3, 4, 5, 6, 0x1B, 0x7F]) for _ in range(400))
        raw = b"fine\nalso fine\n" + junk + b"\nend"
        with self.assertRaises(ParseError) as caught:
            decode_document(raw, "junk.dat")
        self.assertEqual(caught.exception.line, 3)
        self.assertIn("junk.dat:3", str(caught.exception))

    def test_one_stray_control_character_in_a_long_text_is_tolerated(self) -> None:
        raw = ("word " * 2000 + "\x0c\x1a" + "word " * 2000).encode("ascii")
        self.assertIn("\x1a", decode_document(raw, "x.txt"))

    @given(
        st.lists(
            st.text(st.characters(blacklist_categories=("Cc", "Cs", "Zl", "Zp")), max_size=40),
            max_size=20,
        ),
        st.booleans(),
        st.sampled_from(["\n", "\r\n", "\r"]),
    )
    def test_any_text_survives_utf8_with_any_line_ending(
        self, lines: list[str], bom: bool, newline: str
    ) -> None:
        raw = ("\ufeff" if bom else "") + newline.join(lines)
        self.assertEqual(
            decode_document(raw.encode("utf-8"), "x.txt"), "\n".join(lines).lstrip("\ufeff")
        )

    @given(
        st.text(
            st.sampled_from("abc XYZ 123.\n\u201c\u201d\u2019\u2013\u2014\u2122\u00e9\u00fc\u00a9"),
            max_size=200,
        )
    )
    def test_windows_1252_text_decodes_back(self, text: str) -> None:
        raw = text.encode("cp1252")
        try:
            raw.decode("utf-8")
        except UnicodeDecodeError:
            self.assertEqual(decode_document(raw, "x.txt"), text)
        else:  # plain ASCII (or bytes that happen to be valid UTF-8) read as UTF-8
            self.assertEqual(decode_document(raw, "x.txt"), raw.decode("utf-8"))

    def test_random_bytes_never_pass_as_text(self) -> None:
        rng = random.Random(11)
        for _ in range(20):
            raw = bytes(rng.randrange(256) for _ in range(4096))
            with self.assertRaises(ParseError):
                decode_document(raw, "noise.bin")


class NormalizeRuleNumberTests(unittest.TestCase):
    def test_spellings_from_the_api_contract_are_one_rule(self) -> None:
        for raw in [
            "729.2a",
            "729.2 a",
            "7292a",
            "CR 729.2a",
            "729.2A",
            "729.2a.",
            " cr729.2a ",
            "rule 729.2a",
        ]:
            with self.subTest(raw=raw):
                self.assertEqual(normalize_rule_number(raw), "729.2a")

    def test_sections_rules_and_chapters(self) -> None:
        self.assertEqual(normalize_rule_number("104"), "104")
        self.assertEqual(normalize_rule_number("729.3."), "729.3")
        self.assertEqual(normalize_rule_number("7293"), "729.3")
        self.assertEqual(normalize_rule_number("7"), "7")

    def test_tournament_style_numbers_come_back_as_written(self) -> None:
        for raw in ["4.2", "3.9", "2.1"]:
            self.assertEqual(normalize_rule_number(raw), raw)
            self.assertEqual(normalize_rule_number(raw, doc="mtr"), raw)
        self.assertEqual(normalize_rule_number("MTR 4.2.", doc="mtr"), "4.2")
        self.assertEqual(normalize_rule_number("Appendix A", doc="mtr"), "A")
        self.assertEqual(normalize_rule_number("appendix b", doc="ipg"), "B")
        self.assertEqual(normalize_rule_number("C", doc="mtr"), "C")
        self.assertIsNone(normalize_rule_number("a", doc="mtr"))  # a word, not Appendix A
        self.assertIsNone(normalize_rule_number("A"))  # the CR has no appendices

    def test_digit_runs_are_split_cr_style_only_for_the_cr(self) -> None:
        self.assertEqual(normalize_rule_number("7292a", doc="cr"), "729.2a")
        self.assertIsNone(normalize_rule_number("7292a", doc="mtr"))

    def test_non_numbers_and_skipped_letters_are_refused(self) -> None:
        for raw in ["", "abc", "729.2l", "729.2o", "72", "099.1", "729.0", "729..2", "+1/+1"]:
            with self.subTest(raw=raw):
                self.assertIsNone(normalize_rule_number(raw))

    @given(
        cr_numbers(),
        st.sampled_from(["", "CR ", "cr", "CR: ", "rule "]),
        st.booleans(),
        st.booleans(),
        st.sampled_from(["", ".", " ", ". "]),
    )
    def test_formatting_variants_normalise_to_the_canonical_number(
        self, number: str, prefix: str, upper: bool, spaced: bool, suffix: str
    ) -> None:
        variant = number.upper() if upper else number
        if spaced and variant[-1].isalpha():
            variant = variant[:-1] + " " + variant[-1]
        self.assertEqual(normalize_rule_number(prefix + variant + suffix), number)

    @given(cr_numbers())
    def test_dropping_the_dot_gives_the_same_cr_number(self, number: str) -> None:
        self.assertEqual(normalize_rule_number(number.replace(".", "")), number)

    @given(cr_numbers())
    def test_normalising_is_idempotent(self, number: str) -> None:
        once = normalize_rule_number(number)
        self.assertEqual(normalize_rule_number(once or ""), once)


class RuleSortKeyTests(unittest.TestCase):
    def test_document_order_of_a_chapter_its_sections_and_lettered_subrules(self) -> None:
        ordered = [
            "7",
            "700",
            "700.1",
            "700.1a",
            "700.2",
            "704",
            "704.5",
            "704.5k",
            "704.5m",
            "704.10",
            "704.10a",
            "729",
            "8",
            "800",
        ]
        shuffled = ordered[::-1]
        self.assertEqual(sorted(shuffled, key=rule_sort_key), ordered)

    def test_tournament_numbers_sort_numerically(self) -> None:
        self.assertEqual(
            sorted(["10.1", "4.10", "4.2", "4", "A"], key=rule_sort_key),
            ["4", "4.2", "4.10", "10.1", "A"],
        )

    def test_non_numbers_raise(self) -> None:
        with self.assertRaises(ValueError):
            rule_sort_key("banana")

    @given(st.lists(cr_numbers(), min_size=2, max_size=30))
    def test_key_order_matches_numeric_part_order(self, numbers: list[str]) -> None:
        def parts(n: str) -> tuple[int, int, int]:
            head, _, tail = n.partition(".")
            rule = int(tail.rstrip(SUBRULE_LETTERS)) if tail else -1
            letter = SUBRULE_LETTERS.index(tail[-1]) if tail and tail[-1].isalpha() else -1
            return (int(head), rule, letter)

        self.assertEqual(sorted(numbers, key=rule_sort_key), sorted(numbers, key=parts))


class ExtractReferencesTests(unittest.TestCase):
    def test_single_rule_citation(self) -> None:
        self.assertEqual(extract_references("See rule 704.5a."), ("704.5a",))

    def test_three_digit_rule_and_section_citations(self) -> None:
        text = 'See rule 601.2, rule 903, "Commander," and section 7, "Additional Rules."'
        self.assertEqual(extract_references(text), ("601.2", "903", "7"))

    def test_lists_after_rules(self) -> None:
        self.assertEqual(extract_references("rules 103.4 and 103.5"), ("103.4", "103.5"))
        self.assertEqual(extract_references("rules 601 and 602"), ("601", "602"))
        self.assertEqual(
            extract_references("See rules 702.19b, 702.19c, and 702.19d."),
            ("702.19b", "702.19c", "702.19d"),
        )

    def test_letter_ranges_expand_and_skip_l_and_o(self) -> None:
        self.assertEqual(extract_references("rules 729.2a–c"), ("729.2a", "729.2b", "729.2c"))
        self.assertEqual(extract_references("see 601.2f-h."), ("601.2f", "601.2g", "601.2h"))
        self.assertEqual(extract_references("rules 704.5k–n"), ("704.5k", "704.5m", "704.5n"))

    def test_rule_number_ranges_expand(self) -> None:
        self.assertEqual(extract_references("rules 119.7-8"), ("119.7", "119.8"))
        self.assertEqual(
            extract_references("rules 903.6–903.9"), ("903.6", "903.7", "903.8", "903.9")
        )

    def test_bare_numbers_count_and_repeats_are_dropped(self) -> None:
        text = "except as specified in 101.4a. (See 101.4a and rule 101.4b.)"
        self.assertEqual(extract_references(text), ("101.4a", "101.4b"))

    def test_numbers_that_are_not_citations_are_ignored(self) -> None:
        for text in [
            "Each player starts at 20 life.",
            "It gets +1/+1 until end of turn.",
            "These rules are effective as of February 7, 2025.",
            "a deck of 100 cards",
            "deals 3 damage",
            "Magic 2015 core set",
            "Rules 3 and 4 of the house",
            "a prize of $100.50 or 1,000.5 points",
        ]:
            with self.subTest(text=text):
                self.assertEqual(extract_references(text), ())

    @given(
        cr_numbers(),
        st.sampled_from(
            [
                "See rule {}.",
                "(see rule {})",
                "as described in rule {}, “Name.”",
                "rules {} and 100.1",
            ]
        ),
    )
    def test_a_cited_number_is_found(self, number: str, template: str) -> None:
        self.assertEqual(extract_references(template.format(number))[0], number)

    @given(st.integers(min_value=0, max_value=99), st.integers(min_value=0, max_value=99))
    def test_power_toughness_and_life_totals_are_not_citations(self, a: int, b: int) -> None:
        self.assertEqual(extract_references(f"gets +{a}/+{b} and {a} life, -{b}/-{a}"), ())


class TermKeyTests(unittest.TestCase):
    def test_case_quotes_and_spacing_do_not_matter(self) -> None:
        self.assertEqual(
            term_key("Intervening \u201cIf\u201d  Clause"), term_key('intervening "if" clause')
        )
        self.assertEqual(term_key(" Owner\u2019s Hand"), term_key("owner's hand"))

    def test_different_words_stay_different(self) -> None:
        self.assertNotEqual(
            term_key("Active Player"), term_key("Active Player, Nonactive Player Order")
        )


class EngineBoundaryTests(unittest.TestCase):
    def test_parsers_load_without_django(self) -> None:
        code = (
            "import sys, rulesref.parsing.common, rulesref.parsing.cr; print('django' in "
            "sys.modules)"
        )
        run = subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=REPO_ROOT
        )
        self.assertEqual(run.stdout.strip(), "False")
