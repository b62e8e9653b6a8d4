"""Tests for the asked-as questions (search/asked.py and search/questions/*.toml): the loader
refuses broken files naming the file and line, and every shipped question belongs to a real rule of
the real document version its file names, in judges' words rather than the rule's. The real
questions read (search/questions/real/, kind "real") are what tools/real_asked.py writes from the
bench's sets read, never a blind set's."""

from __future__ import annotations

import datetime as dt
import importlib.util
import json
import re
import sys
from functools import cache
from pathlib import Path

import pytest

from rulesref.parsing.documents import parse_document
from search import SearchEntry, asked
from tests.conftest import rules_files

GOOD = """doc = "cr"
version = "2025-02-07"

[questions]
"729.4" = ["nobody can stop the combo, what now"]
"104.4b" = ["both players stuck in a loop", "infinite mandatory loop draw"]
"""


class ParseTests:
    def test_a_good_file_gives_its_questions_in_order(self):
        found = asked.parse_asked(GOOD, "q.toml")
        assert (found.doc, found.version, found.count) == ("cr", dt.date(2025, 2, 7), 3)
        assert found.questions["104.4b"] == (
            "both players stuck in a loop",
            "infinite mandatory loop draw",
        )

    @pytest.mark.parametrize(
        ("text", "message"),
        [
            (GOOD.replace('doc = "cr"', 'doc = "xx"'), "q.toml:1: doc must be one of"),
            (GOOD.replace("2025-02-07", "last week"), "q.toml:2: version must be a date"),
            (GOOD.replace('"729.4" = ["nobody', '"729.4" = [], "x" = ["nobody'), "not valid TOML"),
            (
                GOOD.replace('"729.4" = ["nobody can stop the combo, what now"]', '"729.4" = []'),
                "q.toml:5: 729.4 needs a list",
            ),
            (
                GOOD.replace(
                    '"729.4" = ["nobody can stop the combo, what now"]', '"729.4" = ["  "]'
                ),
                "q.toml:5: 729.4 has an empty",
            ),
            (GOOD.replace('"729.4"', '"loops"'), "q.toml:5: 'loops' is not a rule number"),
            (GOOD.replace("[questions]", "extra = 1\n[questions]"), "unknown keys extra"),
            ('doc = "cr"\nversion = "2025-02-07"\n', "a [questions] table"),
        ],
    )
    def test_a_broken_file_is_refused_naming_file_and_line(self, text, message):
        with pytest.raises(asked.AskedError, match=re.escape(message)):
            asked.parse_asked(text, "q.toml")

    def test_files_of_one_version_are_merged_without_repeating_a_question(self):
        first = asked.parse_asked(GOOD, "a.toml")
        second = asked.parse_asked(
            GOOD.replace("nobody can stop the combo, what now", "loop nobody can break"), "b.toml"
        )
        merged = asked.merge([first, second])
        joined = merged[("cr", dt.date(2025, 2, 7))]
        assert joined.questions["729.4"] == (
            "nobody can stop the combo, what now",
            "loop nobody can break",
        )
        assert joined.questions["104.4b"] == first.questions["104.4b"]
        assert joined.sources == ("a.toml", "b.toml")

    def test_attach_gives_each_entry_its_questions_by_number(self):
        entries = [
            SearchEntry(doc="cr", number="729.4", text="loops"),
            SearchEntry(doc="cr", number="100.1", text="x"),
        ]
        attached = asked.attach(entries, {"729.4": ("q1", "q2")})
        assert [e.questions for e in attached] == [("q1", "q2"), ()]


@cache
def _real_document(doc: str, version: dt.date):
    """The parsed real document of that kind whose text states that effective date."""
    for path in rules_files(doc):
        if version.strftime("%Y%m%d") in path.name:
            parsed = parse_document(path.read_bytes(), str(path))
            if parsed.effective_date == version:
                return parsed
    return None


def _shipped(*, real: bool = False) -> list[asked.AskedSet]:
    return list(asked.load_asked(real=real).values())


ROOT = Path(__file__).resolve().parents[2]
REAL_HEAD = 'doc = "cr"\nversion = "2025-02-07"\nkind = "real"\n\n[questions]\n'


def _module(name: str, path: Path):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


class RealQuestionsTests:
    def test_a_real_file_takes_questions_as_long_as_a_search_and_as_many_as_were_asked(self):
        story = ("I attack with my 3/3 and my opponent blocks with two creatures. " * 16)[:990]
        listed = [f"{story} {k}" for k in range(20)]
        found = asked.parse_asked(f'{REAL_HEAD}"510.1c" = {json.dumps(listed)}\n', "r.toml")
        assert found.count == 20 and max(map(len, found.questions["510.1c"])) > asked.MAX_CHARS
        written = REAL_HEAD.replace('kind = "real"\n', "")
        with pytest.raises(asked.AskedError, match=re.escape("510.1c needs a list of 1 to 8")):
            asked.parse_asked(f'{written}"510.1c" = {json.dumps(listed)}\n', "w.toml")
        with pytest.raises(asked.AskedError, match="510.1c has an empty or over-long question"):
            asked.parse_asked(f'{REAL_HEAD}"510.1c" = {json.dumps(["x" * 1001])}\n', "r.toml")

    def test_an_unknown_kind_is_refused_naming_the_line(self):
        text = REAL_HEAD.replace('"real"', '"forum"') + '"510.1c" = ["who blocks"]\n'
        with pytest.raises(asked.AskedError, match=re.escape("r.toml:3: kind must be one of")):
            asked.parse_asked(text, "r.toml")

    def test_real_questions_are_read_only_when_asked_for_and_filtered_as_asked(self, tmp_path):
        (tmp_path / "cr.toml").write_text(GOOD, encoding="utf-8")
        (tmp_path / "real").mkdir()
        (tmp_path / "real" / "cr.toml").write_text(
            REAL_HEAD + '"729.4" = ["We  looped forever, who wins?", "a judge said draw"]\n',
            encoding="utf-8",
        )
        key = ("cr", dt.date(2025, 2, 7))
        assert asked.load_asked(tmp_path)[key].questions["729.4"] == (
            "nobody can stop the combo, what now",
        )
        assert asked.load_asked(tmp_path, real=True)[key].questions["729.4"] == (
            "nobody can stop the combo, what now",
            "We looped forever, who wins?",
            "a judge said draw",
        )
        kept = asked.load_asked(tmp_path, real=lambda text: "draw" not in text)
        assert kept[key].questions["729.4"][1:] == ("We looped forever, who wins?",)

    def test_the_shipped_real_questions_are_what_the_tool_writes_from_the_sets_read(self):
        sets = _module("search_sets", ROOT / "bench" / "search_sets.py")
        tool = _module("real_asked", ROOT / "tools" / "real_asked.py")
        wanted = tool.files(sets.READ, tool.versions())
        shipped = {p.name: p.read_text(encoding="utf-8") for p in asked.REAL_DIR.glob("*.toml")}
        assert set(shipped) == {"cr.toml", "mtr.toml", "ipg.toml", "jar.toml"}
        assert shipped == wanted, "run make search-real-asked"
        texts = {q for s in _shipped(real=True) for qs in s.questions.values() for q in qs}
        for path in sets.BLIND.values():
            blind = {asked.normalized(q.text) for q in sets._read(path)}
            assert blind and not blind & texts, f"a blind question of {path.name} is shipped"


@pytest.mark.corpus
class ShippedQuestionsTests:
    def test_there_are_questions_for_every_document(self):
        sets = _shipped()
        assert {s.doc for s in sets} == set(asked.DOCS)
        assert sum(s.count for s in sets if s.doc == "cr") >= 3000

    @pytest.mark.parametrize("found", _shipped(real=True), ids=lambda s: f"{s.doc}@{s.version}")
    def test_every_number_is_a_rule_of_the_real_version_named(self, found):
        document = _real_document(found.doc, found.version)
        assert document is not None, (
            f"no {found.doc} document in the rules folder states {found.version}"
        )
        # The tournament documents' chapters hold policy of their own (IPG 1 "General Philosophy",
        # IPG 3 on Tournament Error upgrades): they are searched, so questions may be filed there.
        numbers = {r.number for r in document.counted_rules} | {
            r.number for r in document.rules if r.text and found.doc != "cr"
        }
        assert sorted(set(found.questions) - numbers) == []

    @pytest.mark.parametrize("found", _shipped(), ids=lambda s: f"{s.doc}@{s.version}")
    def test_questions_are_in_judges_words_not_copied_from_the_rule(self, found):
        # Six words in a row from the rule's text would make the question a quotation, and the
        # search would learn nothing from it that the text does not already say.
        texts = {r.number: r.text for r in _real_document(found.doc, found.version).rules}
        copied = []
        for number, questions in found.questions.items():
            rule_words = re.findall(r"[a-z0-9']+", texts[number].lower())
            runs = {tuple(rule_words[k : k + 6]) for k in range(len(rule_words) - 5)}
            for question in questions:
                q_words = re.findall(r"[a-z0-9']+", question.lower())
                if any(tuple(q_words[k : k + 6]) in runs for k in range(len(q_words) - 5)):
                    copied.append((number, question))
        assert copied == []


def test_every_questions_file_the_service_reads_names_the_index_it_builds():
    # The disk cache of built indexes (search.index_cache) is named by the search's files: a changed
    # questions file, the real ones of questions/real/ too, must build the index again.
    from search import index_cache

    digested = set(index_cache.digested_files())
    read = {*asked.QUESTIONS_DIR.glob("*.toml"), *asked.REAL_DIR.glob("*.toml")}
    assert asked.REAL_DIR / "cr.toml" in read
    assert read <= digested, sorted(str(p) for p in read - digested)
