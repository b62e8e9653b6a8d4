"""The content of the shortcut-disputes and drawing-and-mulligans guides, checked against the
real rules.

Every check here reads the real documents in JUDGEAPP_RULES_DIR (no database): each pinned reference
must name a rule of that exact version, the shortcut guide must give every default shortcut of the
real MTR 4.2 its own conclusion (the bullets are counted in the HTML independently of the rules
parser), the MTR sentences a conclusion quotes must be in the MTR, and a conclusion naming an IPG
infraction must quote that infraction's real penalty.
"""

from __future__ import annotations

import functools
import re
from html.parser import HTMLParser

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from guides import loader, runner
from guides.schema import RELS, Guide, Node, NodeKind
from rulesref.parsing.documents import parse_document
from rulesref.parsing.records import ParsedDocument
from rulesref.references import parse_ref
from tests.conftest import RULES_DIR

pytestmark = pytest.mark.corpus

SLUGS = ("shortcut-disputes", "drawing-and-mulligans")
MTR_QUOTE = re.compile(r"MTR (\d+\.\d+): “([^”]+)”")
CATEGORY_OF_TITLE = {
    "Game Play Error": "game_play_error",
    "Tournament Error": "tournament_error",
    "Unsporting Conduct": "unsporting_conduct",
}


# --- the real documents ---------------------------------------------------------------------------


@functools.cache
def pinned_document(doc: str, date: str) -> ParsedDocument:
    """The real document a pinned reference names: the file of that date, whose own text
    must agree."""
    candidates = sorted((RULES_DIR / doc).glob(f"*{date.replace('-', '')}.*"))
    assert candidates, f"no {doc.upper()} file of {date} in {RULES_DIR / doc}"
    parsed = parse_document(candidates[0].read_bytes(), str(candidates[0]))
    assert parsed.effective_date.isoformat() == date, (
        f"{candidates[0].name} says it is of {parsed.effective_date}, not {date}"
    )
    return parsed


def rule_named(ref: str):
    """The parsed rule a pinned reference names (by number, or for the JAR by section title),
    or None."""
    pinned = parse_ref(ref)
    parsed = pinned_document(pinned.doc, pinned.pinned_date.isoformat())
    for rule in parsed.rules:
        if rule.number == pinned.number:
            return rule
    for rule in parsed.rules:
        if rule.title.casefold() == pinned.number.casefold():
            return rule
    return None


def normal(text: str) -> str:
    return " ".join(text.replace("’", "'").replace("“", '"').replace("”", '"').split())


class _SectionBullets(HTMLParser):
    """The list items of one MTR section (the entry-content after <header id=...>), as
    plain text."""

    def __init__(self, anchor: str) -> None:
        super().__init__(convert_charrefs=True)
        self.anchor, self.state, self.depth = anchor, "before", 0
        self.items: list[str] = []
        self.paragraphs: list[str] = []
        self._li_depth = 0
        self._buffer: list[str] = []
        self._in_p = False

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if self.state == "before" and tag == "header" and attrs.get("id") == self.anchor:
            self.state = "header"
        elif self.state == "header" and tag == "div":
            self.state, self.depth = "inside", 1
        elif self.state == "inside":
            if tag == "div":
                self.depth += 1
            elif tag == "li":
                self._li_depth += 1
                if self._li_depth == 1:
                    self._buffer = []
            elif tag == "p" and not self._li_depth:
                self._in_p, self._buffer = True, []

    def handle_endtag(self, tag):
        if self.state != "inside":
            return
        if tag == "div":
            self.depth -= 1
            if self.depth == 0:
                self.state = "after"
        elif tag == "li":
            self._li_depth -= 1
            if self._li_depth == 0:
                self.items.append(normal("".join(self._buffer)))
        elif tag == "p" and self._in_p:
            self._in_p = False
            self.paragraphs.append(normal("".join(self._buffer)))

    def handle_data(self, data):
        if self.state == "inside" and (self._li_depth or self._in_p):
            self._buffer.append(data)


@functools.cache
def mtr_section(number: str) -> tuple[tuple[str, ...], str]:
    """(bullets, whole text) of an MTR section in the real 2019-06-06 HTML, read
    without rulesref."""
    path = next((RULES_DIR / "mtr").glob("*20190606.html"))
    reader = _SectionBullets("mtr" + number.replace(".", "-"))
    reader.feed(path.read_text(encoding="utf-8"))
    assert reader.state == "after", f"MTR {number} not found in {path.name}"
    return tuple(reader.items), " ".join(reader.paragraphs + reader.items)


# --- the guides -----------------------------------------------------------------------------------


@functools.cache
def guide(slug: str) -> Guide:
    return loader.load_guide(loader.DEFINITIONS / f"{slug}.toml")


def conclusions(slug: str) -> list[Node]:
    return [n for n in guide(slug).nodes.values() if n.kind is NodeKind.CONCLUSION]


def all_paths(g: Guide) -> list[tuple[tuple[int, ...], str]]:
    """Every way through a guide made of questions: (answer indices, conclusion id), found
    by search."""
    out, todo = [], [((), g.start, frozenset())]
    while todo:
        answers, node_id, seen = todo.pop()
        assert node_id not in seen, f"{g.slug}: a path comes back to {node_id!r}"
        node = g.nodes[node_id]
        if node.kind is NodeKind.CONCLUSION:
            out.append((answers, node_id))
            continue
        assert node.kind is NodeKind.QUESTION, (
            f"{g.slug}: {node_id!r} is a {node.kind.value}; these guides only ask questions"
        )
        for i, answer in enumerate(node.answers):
            todo.append(((*answers, i), answer.next, seen | {node_id}))
    return out


def no_computation(name, request):
    raise AssertionError(f"these guides run no computation, yet {name} was asked for")


class GuideFilesTests:
    @pytest.mark.parametrize("slug", SLUGS)
    def test_the_guide_loads_with_the_loader_under_its_slug(self, slug):
        assert guide(slug).slug == slug
        assert slug in loader.load_all()

    @pytest.mark.parametrize("slug", SLUGS)
    def test_every_conclusion_has_a_ruling_a_fix_a_penalty_at_each_rel_and_refs(self, slug):
        for node in conclusions(slug):
            assert len(node.ruling) > 40 and len(node.fix) > 20, node.id
            for rel in RELS:
                assert getattr(node.penalty, rel).strip(), f"{node.id}: no {rel} penalty"
            assert node.refs, node.id

    @pytest.mark.parametrize("slug", SLUGS)
    def test_every_path_ends_at_a_conclusion_and_every_conclusion_is_reached(self, slug):
        g = guide(slug)
        paths = all_paths(g)
        assert {end for _, end in paths} == {n.id for n in conclusions(slug)}
        for answers, end in paths:
            state = runner.replay(g, list(answers), no_computation)
            assert state.node_id == end and runner.is_conclusion(g, state)

    @given(data=st.data())
    @settings(max_examples=60, deadline=None)
    def test_any_answers_by_label_reach_the_same_node_as_by_index(self, data):
        g = guide(data.draw(st.sampled_from(SLUGS)))
        state, by_label = runner.start(g), []
        while not runner.is_conclusion(g, state):
            node = runner.node_of(g, state)
            i = data.draw(st.integers(0, len(node.answers) - 1))
            by_label.append(node.answers[i].label.upper())  # labels are matched case-insensitively
            state = runner.advance(g, state, i)
        assert runner.replay(g, by_label, no_computation).node_id == state.node_id


class ReferencesTests:
    @pytest.mark.parametrize("slug", SLUGS)
    def test_every_reference_names_a_rule_of_its_pinned_version(self, slug):
        missing = [ref for ref in loader.all_refs(guide(slug)) if rule_named(ref) is None]
        assert missing == []

    def test_a_reference_to_a_rule_that_does_not_exist_is_caught(self):
        # The check above can fail: 729.9 is not a CR 2025 rule, and MTR 4.2 has no
        # subsection 4.2.1.
        assert rule_named("cr@2025-02-07:729.9") is None
        assert rule_named("mtr@2019-06-06:4.2.1") is None
        assert rule_named("jar@2019-01-21:Introduction").number == "0"

    @pytest.mark.parametrize("slug", SLUGS)
    def test_conclusions_cite_the_section_of_the_infraction_they_name(self, slug):
        for node in conclusions(slug):
            if node.infraction:
                section = ipg_section(node.infraction)
                assert f"ipg@2021-01-06:{section.number}" in node.refs, node.id


# --- shortcuts ------------------------------------------------------------------------------------


def quotes(node: Node) -> list[tuple[str, str]]:
    return [(section, normal(text)) for section, text in MTR_QUOTE.findall(node.help)]


class ShortcutCoverageTests:
    def test_the_bullets_counted_in_the_html_agree_with_the_parsed_section(self):
        bullets, _ = mtr_section("4.2")
        parsed = rule_named("mtr@2019-06-06:4.2")
        assert (
            len(bullets)
            == sum(1 for line in parsed.text.splitlines() if line.startswith("- "))
            == 10
        )

    def test_every_default_shortcut_has_a_conclusion_of_its_own(self):
        bullets, _ = mtr_section("4.2")
        owner: dict[int, list[str]] = {i: [] for i in range(len(bullets))}
        for node in conclusions("shortcut-disputes"):
            hit = {
                i
                for section, q in quotes(node)
                if section == "4.2"
                for i, b in enumerate(bullets)
                if q in b
            }
            assert len(hit) <= 1, f"{node.id} quotes more than one default shortcut"
            for i in hit:
                owner[i].append(node.id)
        uncovered = [bullets[i][:70] for i, ids in owner.items() if not ids]
        assert uncovered == []

    def test_every_quoted_mtr_sentence_is_in_the_real_section(self):
        quoted = 0
        for node in guide("shortcut-disputes").nodes.values():
            for section, q in quotes(node):
                _, text = mtr_section(section)
                assert q in text, f"{node.id}: MTR {section} does not say {q!r}"
                assert f"mtr@2019-06-06:{section}" in node.refs, (
                    f"{node.id} quotes MTR {section} without citing it"
                )
                quoted += 1
        assert quoted >= 20

    def test_a_misquote_would_be_caught(self):
        _, text = mtr_section("4.2")
        assert (
            normal("A player is assumed to have paid any cost of 0 unless they announce otherwise.")
            in text
        )
        assert (
            normal("A player is assumed to have paid any cost of 1 unless they announce otherwise.")
            not in text
        )

    def test_shortcut_questions_and_out_of_order_sequencing_are_covered(self):
        sections = {s for node in conclusions("shortcut-disputes") for s, _ in quotes(node)}
        assert sections == {"4.2", "4.3"}
        cited = {ref for node in conclusions("shortcut-disputes") for ref in node.refs}
        assert {"mtr@2019-06-06:4.3", "ipg@2021-01-06:3.7", "cr@2025-02-07:729.2b"} <= cited


# --- penalties ------------------------------------------------------------------------------------


@functools.cache
def ipg_section(short_name: str):
    parsed = pinned_document("ipg", "2021-01-06")
    found = [r for r in parsed.rules if short_name in r.aliases]
    assert len(found) == 1, f"IPG 2021-01-06 has {len(found)} sections called {short_name!r}"
    return found[0]


def penalty_words(text: str) -> str:
    """The IPG's penalty as the guides write it: "None" is "No penalty"."""
    return "No penalty" if text.strip() == "None" else text.strip()


def ipg_penalty(section) -> str:
    return penalty_words(dict(section.fields)["penalty"])


class PenaltyTests:
    @pytest.mark.parametrize("slug", SLUGS)
    def test_an_infraction_gives_the_real_ipg_penalty_at_competitive_and_professional(self, slug):
        checked = 0
        for node in conclusions(slug):
            if not node.infraction:
                continue
            section = ipg_section(node.infraction)
            expected = {ipg_penalty(section)}
            upgrade = dict(section.fields).get("upgrade", "")
            if upgrade and "upgrade" in node.ruling.casefold():
                # A conclusion that says the section's upgrade applies gives the upgraded
                # penalty instead.
                expected = {
                    penalty_words(m)
                    for m in re.findall(
                        r"the penalty is an? ([A-Z][a-z]+(?: [A-Z][a-z]+)?)", upgrade
                    )
                }
            for rel in ("competitive", "professional"):
                given = getattr(node.penalty, rel)
                # A penalty left to the head judge's investigation names the section it is for
                # and its condition: "Disqualification (Unsporting Conduct - Cheating) if ...".
                assert given in expected or any(
                    given.startswith(f"{p} ({section.title}) if ") for p in expected
                ), f"{node.id}: {rel} should be one of {expected} ({section.title})"
            kind = section.title.split(" - ")[0]
            assert node.category == CATEGORY_OF_TITLE[kind], node.id
            checked += 1
        assert checked >= 3

    def test_the_penalty_check_reads_the_real_fields(self):
        assert ipg_penalty(ipg_section("HCE")) == "Warning"
        assert ipg_penalty(ipg_section("MT")) == "No penalty"  # the IPG prints "None"
        assert ipg_penalty(ipg_section("Cheating")) == "Disqualification"

    @pytest.mark.parametrize("slug", SLUGS)
    def test_without_an_infraction_there_is_no_penalty(self, slug):
        for node in conclusions(slug):
            if not node.infraction:
                assert all(getattr(node.penalty, rel).startswith("No penalty") for rel in RELS), (
                    node.id
                )
                assert not node.category, node.id

    @pytest.mark.parametrize("slug", SLUGS)
    def test_regular_rel_gives_no_penalty_short_of_a_serious_problem(self, slug):
        for node in conclusions(slug):
            if node.category != "unsporting_conduct":
                assert node.penalty.regular.startswith("No penalty"), node.id


class DrawingGuideTests:
    def test_the_infractions_of_the_issue_all_have_conclusions(self):
        named = {n.infraction for n in conclusions("drawing-and-mulligans")}
        assert {"HCE", "MPE", "LEC", "GRV", "FtMGS"} <= named

    def test_the_rel_is_asked_first_and_recorded_as_a_fact(self):
        g = guide("drawing-and-mulligans")
        for rel in RELS:
            state = runner.advance(g, runner.start(g), rel.capitalize())
            assert state.facts["rel"] == rel

    def test_every_conclusion_reached_at_regular_gives_the_jar_fix_or_one_the_jar_shares(self):
        g = guide("drawing-and-mulligans")
        regular = {
            end
            for answers, end in all_paths(g)
            if g.nodes[g.start].answers[answers[0]].label == "Regular"
        }
        for node_id in regular:
            node = g.nodes[node_id]
            if node.infraction and node.category == "game_play_error":
                assert any(ref.startswith("jar@") for ref in node.refs), (
                    f"{node_id} is reached at Regular without the JAR"
                )

    def test_the_ipg_hidden_card_fix_is_not_offered_at_regular(self):
        # The JAR's fix (random cards from the hand to the top of the library) replaces the IPG's
        # at Regular.
        g = guide("drawing-and-mulligans")
        by_rel: dict[str, set[str]] = {
            "Regular": set(),
            "Competitive": set(),
            "Professional": set(),
        }
        for answers, end in all_paths(g):
            by_rel[g.nodes[g.start].answers[answers[0]].label].add(end)
        assert (
            "hce-excess-unknown" in by_rel["Competitive"]
            and "hce-excess-unknown" not in by_rel["Regular"]
        )
        assert (
            "jar-extra-draw" in by_rel["Regular"] and "jar-extra-draw" not in by_rel["Competitive"]
        )
        assert by_rel["Competitive"] == by_rel["Professional"]


class CallLogUpgradeTests:
    """The call log reads `infraction`, `category` and the penalty at the event's REL from these
    conclusions; the IPG's count upgrades (2 and 3 intros) must come out of what the guides say."""

    @pytest.mark.parametrize("slug", SLUGS)
    def test_the_call_log_upgrades_repeated_warnings_from_these_conclusions(self, slug):
        from calllog import penalties

        warned = [
            n for n in conclusions(slug) if n.infraction and n.penalty.competitive == "Warning"
        ]
        assert warned
        for node in warned:
            offense = penalties.Offense(
                node.infraction, node.category, node.penalty.competitive, "competitive"
            )
            after_one = penalties.apply_upgrades([offense], offense).penalty
            after_two = penalties.apply_upgrades([offense, offense], offense).penalty
            section = ipg_section(node.infraction)
            if section.title.endswith("Failure to Maintain Game State"):
                assert (after_one, after_two) == ("Warning", "Warning"), node.id  # never upgraded
            elif node.category == "game_play_error":
                # the third is a Game Loss
                assert (after_one, after_two) == ("Warning", "Game Loss"), node.id
            else:
                assert after_one == "Game Loss", node.id  # the second TE Warning
            regular = penalties.Offense(
                node.infraction, node.category, node.penalty.regular, "regular"
            )
            assert not penalties.apply_upgrades([regular, regular], regular).upgraded, node.id
