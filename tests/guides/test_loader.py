"""The guide loader refuses every file a judge could get stuck in, naming the file and the node."""

from __future__ import annotations

import textwrap

import pytest

from guides import loader
from guides.schema import NodeKind

GOOD = """
title = "Tiny"
summary = "A test guide."
start = "q"

[[nodes]]
id = "q"
kind = "question"
text = "Was it on purpose?"
refs = ["mtr@2019-06-06:4.4"]
answers = [{ label = "Yes", next = "end", set = { intent = true } }, { label = "No", next = "n" }]

[[nodes]]
id = "n"
kind = "input"
text = "How many?"
field = "count"
input = "int"
min = 1
max = 9
default = 2
next = "end"

[[nodes]]
id = "end"
kind = "conclusion"
ruling = "r"
fix = "f"
penalty = { regular = "None", competitive = "Warning", professional = "Warning" }
refs = ["cr@2025-02-07:729.4"]
"""


def write(tmp_path, text: str, name: str = "tiny.toml"):
    path = tmp_path / name
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


def broken(tmp_path, old: str, new: str):
    assert old in GOOD, old
    return write(tmp_path, GOOD.replace(old, new, 1))


class LoadGuideTests:
    def test_a_good_file_becomes_schema_records(self, tmp_path):
        guide = loader.load_guide(write(tmp_path, GOOD))
        assert guide.slug == "tiny" and guide.start == "q"
        assert [n.kind for n in guide.nodes.values()] == [
            NodeKind.QUESTION,
            NodeKind.INPUT,
            NodeKind.CONCLUSION,
        ]
        assert guide.nodes["q"].answers[0].set == (("intent", True),)
        assert (guide.nodes["n"].minimum, guide.nodes["n"].maximum, guide.nodes["n"].default) == (
            1,
            9,
            2,
        )
        assert guide.nodes["end"].penalty.competitive == "Warning"

    def test_the_short_answer_form_of_the_style_guide_is_read(self, tmp_path):
        guide = loader.load_guide(
            broken(
                tmp_path,
                'answers = [{ label = "Yes", next = "end", set = { intent = true } }, { '
                'label = "No", next = "n" }]',
                'answers = { Yes = "end", No = "n" }',
            )
        )
        assert [(a.label, a.next) for a in guide.nodes["q"].answers] == [
            ("Yes", "end"),
            ("No", "n"),
        ]

    def test_answers_may_be_grouped_under_headings(self, tmp_path):
        text = GOOD.replace(
            "set = { intent = true } }", 'set = { intent = true }, group = "On purpose" }'
        ).replace('{ label = "No", next = "n" }', '{ label = "No", next = "n", group = "Not" }')
        guide = loader.load_guide(write(tmp_path, text))
        assert [a.group for a in guide.nodes["q"].answers] == ["On purpose", "Not"]
        assert [a.group for a in loader.load_guide(write(tmp_path, GOOD)).nodes["q"].answers] == [
            "",
            "",
        ]

    @pytest.mark.parametrize(
        ("old", "new", "node", "words"),
        [
            (
                '{ label = "No", next = "n" }',
                '{ label = "No", next = "n", group = "Not on purpose" }',
                "q",
                "some answers have a group and some do not",
            ),
            (
                '{ label = "No", next = "n" }',
                '{ label = "No", next = "n", group = " " }',
                "q",
                "group must be a heading",
            ),
            (
                'summary = "A test guide."',
                'summary = "A test guide."\ncolour = "blue"',
                "",
                "unknown keys",
            ),
            ('field = "count"', 'field = "count"\nwidget = "slider"', "n", "unknown keys"),
            ('id = "n"', 'id = "q"', "q", "duplicate"),
            (
                '{ label = "No", next = "n" }',
                '{ label = "No", next = "nowhere" }',
                "q",
                "'nowhere', which is not a node",
            ),
            ('start = "q"', 'start = "n"', "q", "unreachable"),
            ('text = "Was it on purpose?"', "", "q", "needs text"),
            ('input = "int"', 'input = "slider"', "n", "input must be"),
            ("default = 2", "default = 12", "n", "default"),
            (
                'penalty = { regular = "None", competitive = "Warning", professional = "Warning" }',
                'penalty = { regular = "None", competitive = "Warning" }',
                "end",
                "penalty.professional",
            ),
            ('refs = ["cr@2025-02-07:729.4"]', "refs = []", "end", "needs refs"),
            ('refs = ["mtr@2019-06-06:4.4"]', 'refs = ["MTR 4.4"]', "q", "malformed reference"),
            (
                'refs = ["mtr@2019-06-06:4.4"]',
                'refs = ["mtr@2019-6-6:4.4"]',
                "q",
                "malformed reference",
            ),
        ],
    )
    def test_a_broken_file_is_refused_naming_the_node(self, tmp_path, old, new, node, words):
        with pytest.raises(loader.GuideError) as caught:
            loader.load_guide(broken(tmp_path, old, new))
        assert caught.value.node_id == node
        assert words in caught.value.message
        assert caught.value.source.endswith("tiny.toml")

    def test_an_unknown_computation_is_refused(self, tmp_path):
        text = GOOD.replace(
            'next = "end"\n\n[[nodes]]\nid = "end"',
            'next = "run"\n\n[[nodes]]\nid = "run"\nkind = "compute"\n'
            'computation = "tea-leaves"\nrequest = { x = 1 }\nbranch_on = "x"\ndefault = '
            '"end"\n\n[[nodes]]\nid = "end"',
        )
        with pytest.raises(loader.GuideError, match="unknown computation 'tea-leaves'"):
            loader.load_guide(write(tmp_path, text))

    def test_a_cycle_with_no_way_to_a_conclusion_is_refused(self, tmp_path):
        text = GOOD + textwrap.dedent("""
            [[nodes]]
            id = "loop-a"
            kind = "question"
            text = "Again?"
            answers = { Yes = "loop-b" }

            [[nodes]]
            id = "loop-b"
            kind = "question"
            text = "And again?"
            answers = { Yes = "loop-a" }
            """)
        text = text.replace(
            '{ label = "No", next = "n" }',
            '{ label = "No", next = "n" }, { label = "Maybe", next = "loop-a" }',
        )
        with pytest.raises(loader.GuideError, match="never reach a conclusion"):
            loader.load_guide(write(tmp_path, text))

    def test_a_cycle_with_a_way_out_is_allowed(self, tmp_path):
        text = GOOD.replace(
            '{ label = "No", next = "n" }',
            '{ label = "No", next = "n" }, { label = "Ask again", next = "q" }',
        )
        guide = loader.load_guide(write(tmp_path, text))
        assert [a.next for a in guide.nodes["q"].answers] == ["end", "n", "q"]

    def test_switches_that_lead_back_to_themselves_are_refused(self, tmp_path):
        text = GOOD.replace(
            'next = "end"\n\n[[nodes]]\nid = "end"',
            'next = "s1"\n\n[[nodes]]\nid = "s1"\nkind = "switch"\nbranch_on = "count"\n'
            'branches = { "2" = "end" }\ndefault = "s2"\n\n[[nodes]]\nid = "s2"\nkind = '
            '"switch"\nbranch_on = "count"\ndefault = "s1"\n\n[[nodes]]\nid = "end"',
        )
        with pytest.raises(loader.GuideError, match="lead back to themselves"):
            loader.load_guide(write(tmp_path, text))

    def test_the_slug_must_match_the_file_name(self, tmp_path):
        with pytest.raises(loader.GuideError, match="must match the file name"):
            loader.load_guide(write(tmp_path, 'slug = "other"\n' + GOOD))

    def test_load_all_reads_every_file_by_slug(self, tmp_path):
        write(tmp_path, GOOD, "one.toml")
        write(tmp_path, GOOD, "two.toml")
        assert list(loader.load_all(tmp_path)) == ["one", "two"]


class ValidateReferencesTests:
    def test_the_resolver_decides_and_every_failure_is_listed(self, tmp_path):
        guide = loader.load_guide(write(tmp_path, GOOD))

        class Gone:
            number = None

        class Here:
            number = "729.4"

        def resolve(ref):
            if ref.startswith("mtr"):
                raise LookupError("no MTR version is current")
            return Here() if ref.endswith("729.4") else Gone()

        problems = loader.validate_references(guide, resolve)
        assert (
            len(problems) == 1
            and "[q]" in problems[0]
            and "no MTR version is current" in problems[0]
        )
        assert loader.validate_references(guide, lambda ref: Here()) == []
        assert len(loader.validate_references(guide, lambda ref: Gone())) == 2


class PurityTests:
    def test_the_loader_and_runner_import_no_django(self):
        import subprocess
        import sys

        code = (
            "import sys, guides.loader, guides.runner; "
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('django', "
            "'rest_framework')))"
        )
        out = subprocess.run(
            [sys.executable, "-c", code],
            capture_output=True,
            text=True,
            check=True,
            env={"PATH": "/usr/bin:/bin", "PYTHONPATH": "."},
        ).stdout
        assert out.strip() == "[]"
