"""Computed results in words (guides.result_words) and IPG citations by their parts
(guides.citation_parts): what a conclusion shows a judge is never raw data, on the real engines'
results and the real IPG."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from guides import result_words

# JSON-like values whose words hold no brackets, braces or quotes of their own: any of those in the
# output would be raw data leaking through.
# A text that happens to spell a Python literal ("False") is a judge's own words, shown as given: it
# is left out here so that a None, True or False in the output can only be raw data leaking through.
LITERALS = {"None", "True", "False"}
plain_text = st.text(
    alphabet=st.characters(whitelist_categories=("L", "N"), whitelist_characters=" -.,'"),
    max_size=12,
).filter(lambda text: not LITERALS & set(text.split()))
keys = st.text(alphabet="abcdefghijklmnopqrstuvwxyz_ ", min_size=1, max_size=12).filter(str.strip)
scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(10**6), 10**6),
    st.floats(-1e6, 1e6, allow_nan=False),
    plain_text,
)
values = st.recursive(
    scalars,
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(keys, inner, max_size=4)),
    max_leaves=20,
)


class ResultWordsTests:
    def test_final_state_reads_as_sentences(self):
        lines = result_words.describe(
            "final_state",
            {
                "Active player": {"life": 20, "poison": 0},
                "Non-active player": {"life": 7, "poison": 3},
            },
        )
        assert lines == ["Active player: 20 life, 0 poison", "Non-active player: 7 life, 3 poison"]
        assert result_words.label("final_state") == "Final state"

    @given(values)
    def test_no_value_is_ever_shown_as_raw_data(self, value):
        for line in result_words.describe("field", value):
            assert not set(line) & set('{}[]"'), (value, line)
            assert not LITERALS & set(line.split()), (value, line)

    @given(st.dictionaries(keys, st.integers(0, 999), min_size=1, max_size=5))
    def test_every_count_is_said_with_its_name(self, counts):
        [line] = result_words.describe("state", {"Player": counts})
        for key, number in counts.items():
            assert f"{number} {key.replace('_', ' ').strip()}" in line

    def test_every_shown_result_of_the_shipped_guides_is_in_words(self, db):
        """Every conclusion of every guide that shows a computed result, reached with the
        real engines."""
        from guides import services as guide_services
        from tests.browser.guide_paths import conclusion_paths

        checked = 0
        for slug, guide in guide_services.guides().items():
            for node_id, answers in conclusion_paths(guide).items():
                if not guide.nodes[node_id].show_result:
                    continue
                node = guide_services.walk(slug, answers)["node"]
                for item in node.get("shown_text", []):
                    assert item["lines"], (slug, node_id, item)
                    for line in item["lines"]:
                        assert "{" not in line and '":' not in line, (slug, node_id, line)
                    checked += 1
        assert checked >= 5

    def test_one_iteration_is_said_once_on_the_server_and_in_the_page_script(self):
        import shutil
        import subprocess

        sentences = [
            "The loop is performed 1 times; then Active player must take their action to break it.",
            "The loop is performed 11 times.",
            "The loop is performed 1,001 times.",
            "performed 21 times",
            "1 times or more",
            "x1 times",
        ]
        server = [result_words.describe("explanation", s)[0] for s in sentences]
        assert (
            server[0]
            == "The loop is performed once; then Active player must take their action to break it."
        )
        assert server[1:4] == sentences[1:4] and server[4] == "once or more"
        node = shutil.which("node")
        assert node, "node is needed to run the page's words script"
        script = (
            Path(__file__).resolve().parents[2] / "static" / "judgeapp" / "words.js"
        ).as_posix()
        code = (
            f"global.window = {{}}; require({json.dumps(script)}); "
            f"process.stdout.write(JSON.stringify({json.dumps(sentences)}.map(s => "
            "window.JudgeWords.describe(s)[0])))"
        )
        done = subprocess.run([node, "-e", code], capture_output=True, text=True, timeout=60)
        assert done.returncode == 0, done.stderr
        assert json.loads(done.stdout) == server


@pytest.mark.django_db
class CitationPartsTests:
    def test_ipg_citations_carry_the_sections_parts_in_the_ipgs_order(self):
        from guides import citation_parts
        from rulesref import references
        from rulesref.models import Rule

        cited = citation_parts.with_parts(
            references.citations(["ipg@2021-01-06:3.3", "cr@2025-02-07:729.4"])
        )
        slow, loop = cited
        rule = Rule.objects.get(
            version__document__slug="ipg", version__is_current=True, number=slow["number"]
        )
        assert [p["label"] for p in slow["parts"]] == [
            "Definition",
            "Penalty",
            "Examples",
            "Philosophy",
            "Additional Remedy",
        ]
        assert {p["label"]: p["text"] for p in slow["parts"]}["Penalty"] == rule.fields["penalty"]
        assert "parts" not in loop

    def test_an_ipg_downgrade_is_a_labelled_part_of_its_own(self):
        from guides import citation_parts
        from rulesref import references
        from rulesref.models import Rule

        (oa,) = citation_parts.with_parts(references.citations(["ipg@2021-01-06:3.2"]))
        rule = Rule.objects.get(
            version__document__slug="ipg", version__is_current=True, number=oa["number"]
        )
        parts = {p["label"]: p["text"] for p in oa["parts"]}
        assert parts["Downgrade"] == rule.fields["downgrade"].strip()
        assert "Downgrade" not in parts["Philosophy"]

    def test_the_guide_api_gives_parts_and_the_page_shows_them_labelled(self, client):
        response = client.get("/api/v1/guides/loop-resolution")
        nodes = response.json()["nodes"]
        parts = [c["parts"] for c in nodes["slow-play"]["citations"] if c["doc"] == "ipg"]
        assert parts and parts[0][0]["label"] == "Definition"
        json.dumps(parts)  # plain data
        # Without JavaScript the page walks on the server and shows the same parts, each labelled.
        from guides import services as guide_services
        from tests.browser.guide_paths import conclusion_paths

        answers = conclusion_paths(guide_services.guides()["loop-resolution"])["slow-play"]
        html = client.get("/guides/loop-resolution/", {"a": answers}).content.decode()
        assert '<div class="ipg-part" data-part="Definition"><dt>Definition</dt>' in html
        assert (
            '<div class="ipg-part" data-part="Penalty"><dt>Penalty</dt><dd>Warning</dd></div>'
            in html
        )

    def test_the_page_without_javascript_says_results_in_words(self, client):
        from guides import services as guide_services
        from tests.browser.guide_paths import conclusion_paths

        answers = conclusion_paths(guide_services.guides()["loop-resolution"])["shortcut"]
        html = client.get("/guides/loop-resolution/", {"a": answers}).content.decode()
        assert "<strong>Final state:</strong>" in html and " life, " in html
        assert "{&quot;" not in html.split('id="guide-data"')[0]
