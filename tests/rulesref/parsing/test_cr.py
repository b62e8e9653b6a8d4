"""Tests for rulesref.parsing.cr: small CR-shaped fixtures, then every real CR in the
rules folder."""

from __future__ import annotations

import datetime as dt
import re
import unittest
from functools import cache
from pathlib import Path

import pytest

from rulesref.parsing.common import (
    SUBRULE_LETTERS,
    decode_document,
    normalize_rule_number,
    rule_sort_key,
    term_key,
)
from rulesref.parsing.cr import parse_cr
from rulesref.parsing.records import DocKind, GlossaryEntry, ParsedDocument, ParseError, RuleKind
from tests.conftest import RULES_DIR, needs_history, rules_files

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"


def fixture_text(name: str) -> str:
    path = FIXTURES / name
    return decode_document(path.read_bytes(), str(path))


def by_number(doc: ParsedDocument) -> dict[str, object]:
    return {rule.number: rule for rule in doc.rules}


def glossary_lookup(doc: ParsedDocument) -> dict[str, GlossaryEntry]:
    table: dict[str, GlossaryEntry] = {}
    for entry in doc.glossary:
        for alias in entry.aliases:
            table[term_key(alias)] = entry
    return table


def line_of(text: str, startswith: str, *, last: bool = False) -> int:
    """1-based number of the first (or last) line whose stripped text starts with `startswith`."""
    found = [
        n for n, line in enumerate(text.split("\n"), start=1) if line.strip().startswith(startswith)
    ]
    if not found:
        raise AssertionError(f"{startswith!r} not in text")
    return found[-1] if last else found[0]


def straighten(text: str) -> str:
    return (
        text.replace("\u201c", '"')
        .replace("\u201d", '"')
        .replace("\u2019", "'")
        .replace("\u2013", "-")
    )


class FixtureLayoutTests(unittest.TestCase):
    """The same small CR in the official layout (BOM, CRLF, curly quotes) and the
    indented re-layout."""

    layouts = ("cr_official.txt", "cr_indented.txt")

    def parsed(self, name: str) -> tuple[str, ParsedDocument]:
        text = fixture_text(name)
        return text, parse_cr(text, name)

    def test_official_fixture_really_has_bom_and_crlf(self) -> None:
        raw = (FIXTURES / "cr_official.txt").read_bytes()
        self.assertTrue(raw.startswith(b"\xef\xbb\xbf"))
        self.assertIn(b"\r\n", raw)
        self.assertIn("\u2019".encode(), raw)

    def test_title_and_effective_date(self) -> None:
        for name in self.layouts:
            with self.subTest(name=name):
                _, doc = self.parsed(name)
                self.assertIs(doc.doc, DocKind.CR)
                self.assertEqual(doc.title, "Magic: The Gathering Comprehensive Rules")
                self.assertEqual(doc.effective_date, dt.date(2024, 3, 14))
                self.assertEqual(doc.notes, ())

    def test_kinds_titles_and_parents(self) -> None:
        for name in self.layouts:
            with self.subTest(name=name):
                rules = by_number(self.parsed(name)[1])
                self.assertEqual(
                    (rules["7"].kind, rules["7"].title, rules["7"].parent),
                    (RuleKind.CHAPTER, "Additional Rules", None),
                )
                self.assertEqual(
                    (rules["701"].kind, rules["701"].title, rules["701"].parent),
                    (RuleKind.SECTION, "Taking Shortcuts", "7"),
                )
                self.assertEqual(
                    (rules["701.3"].kind, rules["701.3"].title, rules["701.3"].parent),
                    (RuleKind.RULE, "", "701"),
                )
                self.assertEqual(
                    (rules["701.2a"].kind, rules["701.2a"].parent), (RuleKind.SUBRULE, "701.2")
                )

    def test_counts_exclude_chapters(self) -> None:
        for name in self.layouts:
            with self.subTest(name=name):
                _, doc = self.parsed(name)
                self.assertEqual(len(doc.rules), 34)
                self.assertEqual(len(doc.counted_rules), 32)  # 4 sections, 8 rules, 20 subrules
                self.assertEqual(doc.example_count, 4)
                self.assertEqual(len(doc.glossary), 6)

    def test_subrule_letters_skip_l_and_o(self) -> None:
        for name in self.layouts:
            with self.subTest(name=name):
                numbers = [r.number for r in self.parsed(name)[1].rules if r.parent == "101.3"]
                self.assertEqual([n[-1] for n in numbers], list("abcdefghijkmnp"))

    def test_examples_belong_to_the_rule_above_without_their_prefix(self) -> None:
        for name in self.layouts:
            with self.subTest(name=name):
                rules = by_number(self.parsed(name)[1])
                self.assertEqual(len(rules["101.2"].examples), 2)
                self.assertTrue(
                    rules["101.2"].examples[0].startswith("One effect says a player may play")
                )
                self.assertEqual(
                    rules["101.2"].examples[1],
                    "A second example paragraph that belongs to the same rule.",
                )
                self.assertNotIn("Example", rules["101.2"].text)
                self.assertEqual(rules["101.3"].examples, ())

    def test_continuation_paragraph_is_part_of_the_rule(self) -> None:
        for name in self.layouts:
            with self.subTest(name=name):
                text, doc = self.parsed(name)
                rule = by_number(doc)["701.2a"]
                self.assertEqual(
                    rule.text.split("\n"),
                    [
                        "The player with priority may suggest a shortcut.",
                        "A second paragraph of rule 701.2a, indented the way the official file "
                        "indents it.",
                    ],
                )
                self.assertEqual(by_number(doc)["701.2b"].line, line_of(text, "701.2b"))

    def test_line_numbers_point_at_the_numbered_line(self) -> None:
        for name in self.layouts:
            with self.subTest(name=name):
                text, doc = self.parsed(name)
                lines = text.split("\n")
                for rule in doc.rules:
                    self.assertTrue(
                        lines[rule.line - 1]
                        .strip()
                        .startswith(
                            rule.number + ("." if rule.kind is not RuleKind.SUBRULE else " ")
                        ),
                        rule,
                    )
                for entry in doc.glossary:
                    self.assertEqual(lines[entry.line - 1].strip(), entry.term)

    def test_references_from_text_and_examples(self) -> None:
        for name in self.layouts:
            with self.subTest(name=name):
                rules = by_number(self.parsed(name)[1])
                self.assertEqual(rules["101.1"].references, ("101.2", "701.2a", "701.2b", "701.2c"))
                self.assertEqual(rules["100.1b"].references, ("7",))
                # text first, then the example's "See rule 101.2."
                self.assertEqual(
                    rules["701.3"].references, ("701.2a", "701.2b", "701.2c", "101", "101.2")
                )
                self.assertEqual(rules["700.1"].references, ())  # +1/+1, 20 life, 100 cards, a date
                self.assertEqual(rules["701.2a"].references, ())  # a rule never cites itself

    def test_glossary_terms_definitions_and_references(self) -> None:
        for name in self.layouts:
            with self.subTest(name=name):
                table = glossary_lookup(self.parsed(name)[1])
                shortcut = table["shortcut"]
                self.assertEqual(
                    shortcut.definition.split("\n")[0],
                    "1. A way to skip a sequence of game choices.",
                )
                self.assertEqual(shortcut.references, ("701",))
                self.assertEqual(table["control"].references, ("100.1", "100.2"))

    def test_glossary_aliases(self) -> None:
        for name in self.layouts:
            with self.subTest(name=name):
                doc = self.parsed(name)[1]
                table = glossary_lookup(doc)
                apnap = "Active Player, Nonactive Player Order"
                self.assertEqual(table["apnap order"].term, apnap)
                self.assertEqual(table[apnap.casefold()].term, apnap)
                self.assertEqual(table["active player"].term, "Active Player")  # not the comma term
                self.assertNotIn("nonactive player order", table)
                self.assertEqual(table["controller"].term, "Control, Controller")
                self.assertEqual(table["control"].term, "Control, Controller")
                self.assertEqual(table["bury"].term, "Bury (Obsolete)")
                redirect = next(e for e in doc.glossary if e.term == "APNAP Order")
                self.assertEqual(redirect.aliases, ())
                names = [term_key(a) for e in doc.glossary for a in e.aliases]
                self.assertEqual(len(names), len(set(names)))
                for entry in doc.glossary:
                    if entry.aliases:
                        self.assertEqual(entry.aliases[0], entry.term)

    def test_both_layouts_give_the_same_document_apart_from_quotes(self) -> None:
        _, official = self.parsed("cr_official.txt")
        _, indented = self.parsed("cr_indented.txt")

        def shape(doc: ParsedDocument) -> list[tuple[object, ...]]:
            return [
                (
                    r.number,
                    r.kind,
                    r.title,
                    straighten(r.text),
                    tuple(map(straighten, r.examples)),
                    r.parent,
                    r.references,
                    r.line,
                )
                for r in doc.rules
            ]

        self.assertEqual(shape(official), shape(indented))
        self.assertEqual(
            [(e.term, straighten(e.definition), e.aliases) for e in official.glossary],
            [(e.term, straighten(e.definition), e.aliases) for e in indented.glossary],
        )

    def test_windows_1252_crlf_copy_parses_like_the_utf8_original(self) -> None:
        original = fixture_text("cr_official.txt")
        raw = original.replace("\n", "\r\n").encode("cp1252")
        decoded = decode_document(raw, "cp1252.txt")
        self.assertEqual(decoded, original)
        self.assertEqual(parse_cr(decoded, "cp1252.txt"), parse_cr(original, "cr_official.txt"))

    def test_parse_cr_accepts_text_with_bom_and_crlf_left_in(self) -> None:
        raw_text = (FIXTURES / "cr_official.txt").read_bytes().decode("utf-8")
        self.assertTrue(raw_text.startswith("\ufeff"))
        self.assertEqual(parse_cr(raw_text), parse_cr(fixture_text("cr_official.txt")))

    def test_glossary_term_run_into_its_definition_is_split_and_noted(self) -> None:
        text = fixture_text("cr_official.txt").replace("Shortcut\n1. A way", "Shortcut1. A way")
        doc = parse_cr(text, "glued.txt")
        entry = glossary_lookup(doc)["shortcut"]
        self.assertEqual(
            entry.definition.split("\n")[0], "1. A way to skip a sequence of game choices."
        )
        self.assertEqual(len(doc.notes), 1)
        self.assertIn(f"line {entry.line}", doc.notes[0])


class FixtureErrorTests(unittest.TestCase):
    """Documents that must be refused, with the source and the 1-based line."""

    def setUp(self) -> None:
        self.text = fixture_text("cr_official.txt")
        self.lines = self.text.split("\n")

    def assert_refused_at(self, text: str, line: int, words: str = "") -> ParseError:
        with self.assertRaises(ParseError) as caught:
            parse_cr(text, "bad.txt")
        self.assertEqual(caught.exception.source, "bad.txt")
        self.assertEqual(caught.exception.line, line, str(caught.exception))
        self.assertIn(words, caught.exception.message)
        return caught.exception

    def with_line_after(self, startswith: str, new: str) -> tuple[str, int]:
        at = line_of(self.text, startswith, last=True)  # headings also appear in the contents
        lines = self.lines[:at] + [new] + self.lines[at:]
        return "\n".join(lines), at + 1

    def test_garbage_paragraph_in_the_rules(self) -> None:
        blank = line_of(self.text, "100.1a") + 1
        self.assertEqual(self.lines[blank - 1], "")
        lines = self.lines[:blank] + ["This line belongs to nothing."] + self.lines[blank:]
        self.assert_refused_at("\n".join(lines), blank + 1, "cannot place")

    def test_unindented_line_right_after_a_rule_is_read_as_its_next_paragraph(self) -> None:
        text, _ = self.with_line_after("100.1a", "Second paragraph.")
        self.assertEqual(
            by_number(parse_cr(text))["100.1a"].text.split("\n")[1], "Second paragraph."
        )

    def test_garbage_right_after_a_section_heading(self) -> None:
        text, at = self.with_line_after("101. Golden Rules", "zzz")
        self.assert_refused_at(text, at, "cannot place")

    def test_example_before_any_rule(self) -> None:
        text, at = self.with_line_after("700. General", "Example: nothing to belong to.")
        self.assert_refused_at(text, at, "example")

    def test_subrule_lettered_l_is_refused(self) -> None:
        text = self.text.replace("101.3m Mike", "101.3l Lima")
        self.assert_refused_at(text, line_of(self.text, "101.3m"), "skip l and o")

    def test_rules_out_of_order(self) -> None:
        text = self.text.replace("101.2. When", "101.9. When")
        self.assert_refused_at(text, line_of(self.text, "101.3."), "out of order")

    def test_subrule_under_the_wrong_rule(self) -> None:
        text = self.text.replace("100.1b A multiplayer", "100.2b A multiplayer")
        self.assert_refused_at(text, line_of(self.text, "100.1b"), "not under rule")

    def test_section_missing_from_the_body(self) -> None:
        start, end = (
            line_of(self.text, "700. General", last=True),
            line_of(self.text, "701. Taking", last=True),
        )
        lines = self.lines[: start - 1] + self.lines[end - 1 :]
        text = "\n".join(lines)
        self.assert_refused_at(
            text, line_of(text, "701. Taking", last=True), "contents list 700 before it"
        )

    def test_section_missing_from_the_contents_is_kept_with_a_note(self) -> None:
        text = self.text.replace("700. General\n701. Taking", "701. Taking", 1)
        doc = parse_cr(text, "slip.txt")
        self.assertEqual(by_number(doc)["700"].title, "General")
        self.assertEqual(
            doc.notes,
            (f"line {line_of(text, '700. General')}: 700 'General' is not in the contents list",),
        )

    def test_chapters_out_of_order(self) -> None:
        text, at = self.with_line_after("101.3p", "\n1. Game Concepts Again")
        self.assert_refused_at(text, at + 1, "out of order")

    def test_every_cut_before_the_credits_is_refused(self) -> None:
        last_needed = line_of(self.text, "Test Document Design")
        for keep in range(last_needed):
            with self.subTest(keep=keep):
                text = "\n".join(self.lines[:keep]) + "\n"
                with self.assertRaises(ParseError) as caught:
                    parse_cr(text, "cut.txt")
                self.assertEqual(caught.exception.source, "cut.txt")
                self.assertGreaterEqual(caught.exception.line, 1)
                self.assertLessEqual(caught.exception.line, max(keep, 1))
        self.assertEqual(len(parse_cr("\n".join(self.lines[:last_needed])).glossary), 6)

    def test_document_without_glossary(self) -> None:
        cut = line_of(self.text, "701.3.") + 1  # the example line is the last rules line
        text = "\n".join(self.lines[:cut])
        self.assert_refused_at(text, cut, "no glossary")

    def test_glossary_term_without_definition(self) -> None:
        text, at = self.with_line_after("The player whose turn it is.", "\nLonely Term")
        self.assert_refused_at(text, at + 1, "without a definition")

    def test_text_that_is_not_a_cr(self) -> None:
        self.assert_refused_at(
            "Magic Tournament Rules\n\nEffective September 29, 2017\n",
            1,
            "not a Comprehensive Rules",
        )
        self.assert_refused_at("", 1, "not a Comprehensive Rules")

    def test_cr_title_without_an_effective_date(self) -> None:
        text = self.text.replace(
            "These rules are effective as of March 14, 2024.", "No date here.", 1
        )
        self.assert_refused_at(text, line_of(self.text, "Contents"), "effective")

    def test_unreadable_date(self) -> None:
        text = self.text.replace("March 14, 2024", "Marchember 14, 2024", 1)
        self.assert_refused_at(text, 3, "date")

    def test_binary_file_is_refused_before_parsing(self) -> None:
        raw = self.text.encode("utf-8")
        at = raw.index(b"101.2.")
        raw = raw[:at] + b"\x00\x01\x02" + raw[at:]
        with self.assertRaises(ParseError) as caught:
            decode_document(raw, "bin.txt")
        self.assertEqual(caught.exception.line, line_of(self.text, "101.2."))


# ---------------------------------------------------------------------------------------------
# The real documents

CR_FILES = rules_files("cr")


@cache
def real(path: Path) -> tuple[str, ParsedDocument]:
    text = decode_document(path.read_bytes(), str(path))
    return text, parse_cr(text, path.name)


def independent_counts(text: str) -> tuple[int, int, int]:
    """(numbered rules, examples, glossary entries), counted without the parser's patterns."""
    lines = text.split("\n")
    stripped = [line.strip() for line in lines]
    body_start = stripped.index("Credits")  # the last entry of the contents list
    glossary_start = len(stripped) - 1 - stripped[::-1].index("Glossary")
    credits_start = len(stripped) - 1 - stripped[::-1].index("Credits")
    body = lines[body_start + 1 : glossary_start]
    numbered = sum(1 for line in body if re.match(r"[ \t]*[0-9]{3}\.", line))
    examples = sum(1 for line in body if line.lstrip().startswith("Example:"))
    glossary_text = "\n".join(lines[glossary_start + 1 : credits_start]).strip()
    glossary = len([p for p in re.split(r"\n[ \t]*\n", glossary_text) if p.strip()])
    return numbered, examples, glossary


@pytest.mark.corpus
@pytest.mark.parametrize("path", CR_FILES, ids=[p.name for p in CR_FILES])
class CorpusTests:
    """Every real CR: parsed completely, and the parse agrees with the raw file read another way."""

    def test_counts_match_an_independent_count(self, path: Path) -> None:
        text, doc = real(path)
        numbered, examples, glossary = independent_counts(text)
        assert len(doc.counted_rules) == numbered
        assert doc.example_count == examples
        assert len(doc.glossary) == glossary

    def test_every_line_of_the_rules_and_glossary_is_kept(self, path: Path) -> None:
        text, doc = real(path)
        stripped = [line.strip() for line in text.split("\n")]
        body_start = stripped.index("Credits")
        glossary_start = len(stripped) - 1 - stripped[::-1].index("Glossary")
        credits_start = len(stripped) - 1 - stripped[::-1].index("Credits")
        body_lines = sum(1 for line in stripped[body_start + 1 : glossary_start] if line)
        glossary_lines = sum(1 for line in stripped[glossary_start + 1 : credits_start] if line)
        kept = (
            len(doc.rules)
            + sum(rule.text.count("\n") for rule in doc.rules)
            + sum(example.count("\n") + 1 for rule in doc.rules for example in rule.examples)
        )
        assert kept == body_lines
        # term and definition on one line
        glued = sum(1 for note in doc.notes if "run together" in note)
        assert (
            sum(entry.definition.count("\n") + 2 for entry in doc.glossary) - glued
            == glossary_lines
        )

    def test_effective_date_agrees_with_the_file_name(self, path: Path) -> None:
        stamp = re.search(r"(\d{8})", path.name)
        assert stamp is not None
        assert real(path)[1].effective_date == dt.datetime.strptime(stamp.group(1), "%Y%m%d").date()

    def test_nine_chapters_and_every_contents_section(self, path: Path) -> None:
        text, doc = real(path)
        contents = re.findall(r"(?m)^[ \t]*(\d{3})\. ", text.split("\nGlossary")[0])
        sections = [r.number for r in doc.rules if r.kind is RuleKind.SECTION]
        assert sections == contents
        assert [r.number for r in doc.rules if r.kind is RuleKind.CHAPTER] == [
            str(n) for n in range(1, 10)
        ]

    def test_every_rule_sits_on_its_line_under_an_earlier_parent(self, path: Path) -> None:
        text, doc = real(path)
        lines = text.split("\n")
        seen: set[str] = set()
        for rule in doc.rules:
            assert lines[rule.line - 1].lstrip().startswith(rule.number), rule.number
            assert rule.parent is None or rule.parent in seen, rule.number
            assert normalize_rule_number(rule.number) == rule.number
            if rule.kind in (RuleKind.RULE, RuleKind.SUBRULE):
                assert rule.text and not rule.text.startswith("Example")
            seen.add(rule.number)

    def test_sort_key_reproduces_document_order(self, path: Path) -> None:
        numbers = [r.number for r in real(path)[1].rules]
        assert sorted(numbers, key=rule_sort_key) == numbers

    def test_subrule_letters_run_a_b_c_and_skip_l_and_o(self, path: Path) -> None:
        children: dict[str, list[str]] = {}
        for rule in real(path)[1].rules:
            if rule.kind is RuleKind.SUBRULE:
                children.setdefault(rule.parent or "", []).append(rule.number[-1])
        assert children
        for letters in children.values():
            assert "".join(letters) == SUBRULE_LETTERS[: len(letters)]

    def test_references_point_at_rules_of_the_same_document(self, path: Path) -> None:
        doc = real(path)[1]
        numbers = {r.number for r in doc.rules}
        cited = [n for r in doc.rules for n in r.references] + [
            n for e in doc.glossary for n in e.references
        ]
        dangling = [n for n in cited if n not in numbers]
        assert len(cited) > 1000
        # the printed CR itself cites a few rules that do not exist
        assert len(dangling) <= 2, dangling

    def test_glossary_finds_apnap_order_and_names_are_unique(self, path: Path) -> None:
        doc = real(path)[1]
        table = glossary_lookup(doc)
        assert table["apnap order"].term == "Active Player, Nonactive Player Order"
        assert table["active player"].term == "Active Player"
        names = [term_key(a) for e in doc.glossary for a in e.aliases]
        assert len(names) == len(set(names))
        assert all(e.aliases[0] == e.term for e in doc.glossary if e.aliases)
        for entry in doc.glossary:  # every "See X." redirect lands on a real definition
            target = re.fullmatch(r"See (.+?)\.", entry.definition)
            if target and not entry.aliases:
                assert term_key(entry.term) in table
                assert not table[term_key(entry.term)].definition.startswith("See ")

    def test_taking_shortcuts_section_matches_the_raw_heading(self, path: Path) -> None:
        text, doc = real(path)
        heading = re.findall(r"(?m)^[ \t]*(\d{3})\. Taking Shortcuts[ \t]*$", text)
        assert len(heading) == 2  # contents and body
        section = by_number(doc)[heading[1]]
        assert section.title == "Taking Shortcuts"
        assert section.parent == "7"
        assert by_number(doc)[heading[1] + ".3"].text.startswith(
            "Sometimes a loop can be fragmented"
        )


@pytest.mark.corpus
class KnownRulesTests(unittest.TestCase):
    """Facts a judge would check by hand in the printed documents."""

    def doc(self, stamp: str) -> tuple[str, ParsedDocument]:
        return real(RULES_DIR / "cr" / f"MagicCompRules-{stamp}.txt")

    def test_2025_taking_shortcuts_is_729_and_729_3_is_the_fragmented_loop_rule(self) -> None:
        rules = by_number(self.doc("20250207")[1])
        self.assertEqual(rules["729"].title, "Taking Shortcuts")
        self.assertEqual(rules["729.3"].kind, RuleKind.RULE)
        self.assertEqual(rules["729.3"].title, "")
        self.assertTrue(
            rules["729.3"].text.startswith(
                "Sometimes a loop can be fragmented, meaning that each player"
            )
        )
        self.assertEqual(len(rules["729.3"].examples), 1)
        self.assertEqual(rules["729.2a"].parent, "729.2")

    @needs_history
    def test_taking_shortcuts_renumbered_across_versions(self) -> None:
        for stamp, number in [
            ("20170825", "719"),
            ("20200417", "722"),
            ("20220429", "725"),
            ("20250207", "729"),
        ]:
            with self.subTest(stamp=stamp):
                self.assertEqual(by_number(self.doc(stamp)[1])[number].title, "Taking Shortcuts")

    def test_keyword_rules_carry_their_heading_as_title(self) -> None:
        text, doc = self.doc("20250207")
        rules = by_number(doc)
        heading = re.search(r"(?m)^(701\.\d+)\. Shuffle\s*$", text)
        assert heading is not None
        self.assertEqual(
            (rules[heading.group(1)].title, rules[heading.group(1)].text), ("Shuffle", "Shuffle")
        )
        self.assertEqual(rules["205.3"].title, "Subtypes")
        self.assertEqual(rules["729.3"].title, "")
        titled = [r for r in doc.rules if r.kind is RuleKind.RULE and r.title]
        raw_headings = re.findall(r"(?m)^\d{3}\.\d+\. ([A-Z][^.:;?!)\u201d\n]{0,59})$", text)
        self.assertEqual([r.title for r in titled], raw_headings)

    def test_704_5k_is_followed_by_704_5m(self) -> None:
        numbers = [r.number for r in self.doc("20250207")[1].rules]
        at = numbers.index("704.5k")
        self.assertEqual(numbers[at + 1], "704.5m")
        self.assertNotIn("704.5l", numbers)

    @needs_history
    def test_multi_paragraph_rule_in_both_layouts(self) -> None:
        for stamp, number in [("20250207", "205.4c"), ("20170825", "205.3i")]:
            with self.subTest(stamp=stamp):
                rule = by_number(self.doc(stamp)[1])[number]
                self.assertEqual(len(rule.text.split("\n")), 2)
                self.assertTrue(
                    rule.text.split("\n")[1].startswith(("Cards printed", "Of that list"))
                )

    def test_official_typos_are_read_and_noted(self) -> None:
        _text, doc = self.doc("20250207")
        rules = by_number(doc)
        self.assertTrue(rules["606.5"].text.startswith("If the total cost"))
        self.assertTrue(rules["901.4"].text.startswith("All plane and phenomenon cards"))
        self.assertEqual(rules["119.1d"].kind, RuleKind.SUBRULE)
        self.assertEqual(len(doc.notes), 3)

    @needs_history
    def test_glued_glossary_terms_of_june_2021_are_split(self) -> None:
        doc = self.doc("20210618")[1]
        table = glossary_lookup(doc)
        for term in ["Archenemy", "Draw", "Face Down", "Face Up", "Loyalty"]:
            with self.subTest(term=term):
                self.assertEqual(table[term_key(term)].term, term)
                self.assertTrue(table[term_key(term)].definition.startswith("1. "))

    def test_glossary_alternate_names(self) -> None:
        table = glossary_lookup(self.doc("20250207")[1])
        self.assertEqual(table["controller"].term, "Control, Controller")
        self.assertEqual(table["bands with other"].term, "Banding, \u201cBands with Other\u201d")
        self.assertEqual(
            table[term_key('Intervening "If" Clause')].term, "Intervening \u201cIf\u201d Clause"
        )
        self.assertEqual(table["if"].term, "Intervening \u201cIf\u201d Clause")
        self.assertEqual(table["swampwalk"].term, "Landwalk")
        self.assertEqual(table["deal"].term, "Damage")
        self.assertEqual(
            table["removed"].term,
            "Remove from the Game, Removed, Removed-from-the-Game Zone (Obsolete)",
        )

    def test_cut_in_half_is_refused(self) -> None:
        text, _ = self.doc("20250207")
        lines = text.split("\n")
        for fraction in (0.25, 0.5, 0.75, 0.9, 0.99):
            keep = int(len(lines) * fraction)
            with self.subTest(fraction=fraction), self.assertRaises(ParseError) as caught:
                parse_cr("\n".join(lines[:keep]), "half.txt")
            self.assertLessEqual(caught.exception.line, keep)

    @needs_history
    def test_garbage_line_in_the_real_rules_is_refused_at_its_line(self) -> None:
        text, _ = self.doc("20170825")
        lines = text.split("\n")
        # insert a stray paragraph after the blank line following 704.5k
        at = line_of(text, "704.5k")
        lines[at:at] = ["", "Lorem ipsum dolor sit amet."]
        with self.assertRaises(ParseError) as caught:
            parse_cr("\n".join(lines), "garbage.txt")
        self.assertEqual(caught.exception.line, at + 2)

    def test_a_tournament_rules_file_is_not_a_cr(self) -> None:
        path = rules_files("mtr")[0]
        with self.assertRaises(ParseError) as caught:
            parse_cr(decode_document(path.read_bytes(), path.name), path.name)
        self.assertEqual((caught.exception.source, caught.exception.line), (path.name, 1))


@pytest.mark.corpus
@needs_history
def test_the_corpus_is_there(rules_dir: Path) -> None:
    """Without this, a missing rules folder would silently parametrize the corpus tests away."""
    assert len(rules_files("cr")) == 27
