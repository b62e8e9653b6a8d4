"""The infraction finder, checked against the IPG as imported: every infraction section of the
current IPG is reached, and each conclusion's penalty at Competitive and Professional is the
section's own "Penalty" line (read from the database, as the IPG parser stored it), or an upgrade or
downgrade that the section itself states and the ruling names. Also: the JAR's handling at Regular,
the IPG's count upgrades as static content, the other guides' hand-over to the finder, and JAR
citations by heading."""

from __future__ import annotations

import re

import pytest
from rest_framework.test import APIClient

from guides import loader
from guides import services as guide_services
from guides.schema import Node, NodeKind
from rulesref import references
from rulesref.models import Rule
from tests.browser.guide_paths import conclusion_paths

pytestmark = pytest.mark.django_db

SLUG = "infraction-finder"
PENALTIES = ("Warning", "Game Loss", "Match Loss", "Disqualification")
CATEGORY_OF_TITLE = {
    "game play error": "game_play_error",
    "tournament error": "tournament_error",
    "unsporting conduct": "unsporting_conduct",
}


# --- the IPG as imported --------------------------------------------------------------------------


def current_ipg() -> list[Rule]:
    return list(
        Rule.objects.filter(version__document__slug="ipg", version__is_current=True).order_by(
            "position"
        )
    )


def infraction_sections() -> dict[str, Rule]:
    """{number: rule} for every section the IPG parser recognised as an infraction (it has
    a Penalty)."""
    found = {r.number: r for r in current_ipg() if r.fields.get("penalty")}
    assert len(found) >= 20, "the current IPG should be imported with its infractions"
    return found


def base_penalty(rule: Rule) -> str:
    """The Penalty line in the words conclusions use: "None" is "No penalty"; "Warning with
    potential upgrade" (Deck Problem) is a Warning, the upgrade being stated in the
    section's Upgrade."""
    line = rule.fields["penalty"].strip()
    if line.casefold() == "none":
        return "No penalty"
    named = [p for p in PENALTIES if line.startswith(p)]
    assert named, f"IPG {rule.number}: unreadable penalty line {line!r}"
    return named[0]


def section_for(node: Node, sections: dict[str, Rule]) -> Rule:
    """The section a conclusion's `infraction` names, by the aliases the parser stored."""
    wanted = node.infraction.casefold()
    matches = [r for r in sections.values() if wanted in {a.casefold() for a in r.aliases}]
    assert len(matches) == 1, (
        f"{node.id}: infraction {node.infraction!r} names {len(matches)} IPG sections"
    )
    return matches[0]


def stated_elsewhere(rule: Rule, penalty: str) -> bool:
    """Does the section state `penalty` other than in its Penalty line (an Upgrade, a Downgrade,
    a remedy)?"""
    text = "\n".join(v for k, v in rule.fields.items() if k != "penalty")
    return (
        re.search(
            rf"\b(?:is|receives?|result in)\s+(?:an?\s+)?{re.escape(penalty)}\b",
            text,
            re.IGNORECASE,
        )
        is not None
    )


def penalty_problems(node: Node, sections: dict[str, Rule]) -> list[str]:
    """Why a conclusion's penalty disagrees with the IPG (empty: it agrees)."""
    rule = section_for(node, sections)
    base = base_penalty(rule)
    problems = []
    for rel in ("competitive", "professional"):
        given = getattr(node.penalty, rel)
        if given == base:
            continue
        if not re.search(r"upgrade|downgrade", node.ruling, re.IGNORECASE):
            problems.append(
                f"{node.id}: {rel} {given!r} is not IPG {rule.number}'s {base!r} and the ruling "
                "names no upgrade"
            )
        elif not stated_elsewhere(rule, given):
            problems.append(
                f"{node.id}: {rel} {given!r}: IPG {rule.number} states no such upgrade or downgrade"
            )
    return problems


# --- the guide ------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def finder():
    return loader.load_all()[SLUG]


@pytest.fixture(scope="module")
def paths(finder, django_db_blocker):
    with django_db_blocker.unblock():
        return conclusion_paths(finder)


def ends(finder) -> list[Node]:
    return [n for n in finder.nodes.values() if n.kind is NodeKind.CONCLUSION]


def cited_numbers(node: Node, doc: str) -> set[str]:
    return {c["number"] for c in references.citations(list(node.refs)) if c["doc"] == doc}


class ReachTests:
    def test_every_conclusion_is_reached_and_the_api_walk_lands_there(self, finder, paths):
        assert set(paths) == {n.id for n in ends(finder)}
        api = APIClient()
        for node_id, answers in paths.items():
            body = api.post(
                f"/api/v1/guides/{SLUG}/walk", {"answers": answers}, format="json"
            ).json()
            assert body["node_id"] == node_id and body["finished"], (node_id, answers)

    def test_every_infraction_of_the_current_ipg_is_reached_with_its_own_penalty(
        self, finder, paths
    ):
        sections = infraction_sections()
        reached: dict[str, list[Node]] = {}
        for node_id in paths:
            node = finder.nodes[node_id]
            if node.infraction:
                reached.setdefault(section_for(node, sections).number, []).append(node)
        missing = sorted(set(sections) - set(reached))
        assert not missing, f"IPG sections no path of the finder reaches: {missing}"
        for number, nodes in reached.items():
            base = base_penalty(sections[number])
            assert any(n.penalty.competitive == base == n.penalty.professional for n in nodes), (
                f"IPG {number}: no conclusion gives its own penalty {base!r}"
            )
            for node in nodes:
                assert number in cited_numbers(node, "ipg"), f"{node.id} does not cite IPG {number}"


class PenaltyTests:
    def test_each_conclusion_gives_the_ipg_penalty_or_an_upgrade_the_section_states(self, finder):
        sections = infraction_sections()
        problems = [
            p for node in ends(finder) if node.infraction for p in penalty_problems(node, sections)
        ]
        assert not problems, "\n".join(problems)
        upgraded = [
            n.id
            for n in ends(finder)
            if n.infraction and n.penalty.competitive != base_penalty(section_for(n, sections))
        ]
        assert len(upgraded) >= 10  # the finder does walk to the IPG's upgrades and downgrades

    def test_a_wrong_penalty_or_an_invented_upgrade_is_caught(self, finder):
        sections = infraction_sections()
        grv = finder.nodes["grv"]
        from dataclasses import replace

        wrong = replace(grv, penalty=replace(grv.penalty, competitive="Game Loss"))
        assert penalty_problems(wrong, sections)  # no upgrade named
        invented = replace(wrong, ruling=grv.ruling + " Upgraded.")
        assert penalty_problems(invented, sections)  # IPG 2.5 states no Game Loss
        morph = finder.nodes["hce-morph-game-loss"]
        assert not penalty_problems(morph, sections)  # IPG 2.3's Upgrade does
        assert penalty_problems(
            replace(morph, penalty=replace(morph.penalty, professional="Match Loss")), sections
        )

    def test_the_category_is_the_ipg_chapter_of_the_section(self, finder):
        sections = infraction_sections()
        for node in ends(finder):
            if node.infraction:
                kind = section_for(node, sections).title.split(" - ")[0].strip().casefold()
                assert node.category == CATEGORY_OF_TITLE[kind], node.id
            else:
                assert not node.category and all(
                    getattr(node.penalty, r).startswith("No penalty")
                    for r in ("competitive", "professional")
                )

    def test_the_calls_the_issue_lists_have_their_conclusions(self, finder):
        extra_card = finder.nodes["cheating-extra-card"]
        assert (
            extra_card.penalty.competitive == "Disqualification"
            and "example G" in extra_card.ruling
        )
        assert (
            "pre-game shuffling" in finder.nodes["dp-pregame"].ruling
            and finder.nodes["dp-pregame"].penalty.competitive == "Game Loss"
        )
        assert "example C" in finder.nodes["sp-shuffle"].ruling
        assert "shuffling" in finder.nodes["mc-warning"].ruling
        assert finder.nodes["oa-match-loss"].penalty.competitive == "Match Loss"
        ex_g = [e for e in infraction_sections()["4.8"].examples if e.startswith("G.")]
        assert ex_g and "extra card" in ex_g[0]


class RegularTests:
    def test_every_infraction_conclusion_gives_the_jar_handling_and_cites_the_jar(self, finder):
        for node in ends(finder):
            if node.infraction:
                assert "JAR" in node.penalty.regular and "JAR" in node.fix, node.id
                assert cited_numbers(node, "jar"), node.id

    def test_the_jar_serious_problems_are_disqualifications_at_regular(self, finder):
        serious = references.resolve("jar@2019-01-21:3")
        assert "Disqualification" in serious.text
        for node_id in ("ab", "ttm", "cheating", "cheating-extra-card", "usc-major"):
            assert finder.nodes[node_id].penalty.regular.startswith("Disqualification"), node_id


class UpgradeContentTests:
    @pytest.mark.parametrize("slug", [SLUG, "drawing-and-mulligans", "shortcut-disputes"])
    def test_the_count_upgrades_of_chapters_2_and_3_are_stated_where_the_ipg_gives_them(self, slug):
        chapters = {r.number: r.text for r in current_ipg() if r.number in ("2", "3")}
        assert "third or subsequent warning" in chapters["2"] and "never upgraded" in chapters["2"]
        assert "already received a Warning" in chapters["3"]
        for node in ends(loader.load_all()[slug]):
            if not node.infraction:
                continue
            if node.penalty.competitive != "Warning":
                continue
            lines = " ".join(node.upgrades)
            if node.infraction == "FtMGS":
                assert "never upgraded" in lines
            elif node.category == "game_play_error":
                assert "third" in lines and "Game Loss" in lines and "IPG 2" in lines, node.id
            elif node.category == "tournament_error":
                assert "second" in lines.casefold() and "Game Loss" in lines and "IPG 3" in lines, (
                    node.id
                )

    @pytest.mark.parametrize("slug", [SLUG, "drawing-and-mulligans", "shortcut-disputes"])
    def test_at_regular_a_repeated_mistake_brings_the_jars_warning_of_a_game_loss(self, slug):
        sentence = "you may warn them that the next occurrence will result in a Game Loss"
        assert sentence in " ".join(references.resolve("jar@2019-01-21:Introduction").text.split())
        for node in ends(loader.load_all()[slug]):
            if node.infraction and node.category == "game_play_error":
                assert any(sentence in u and u.endswith("(JAR).") for u in node.upgrades), node.id

    def test_the_api_gives_the_upgrades_and_the_page_shows_them(self, client, paths):
        body = (
            APIClient()
            .post(f"/api/v1/guides/{SLUG}/walk", {"answers": paths["sp-shuffle"]}, format="json")
            .json()
        )
        assert any("second" in u and "Game Loss" in u for u in body["node"]["upgrades"])


class HandOverTests:
    def test_every_other_guide_hands_over_to_a_question_of_the_finder(self):
        guides = loader.load_all()
        for slug, guide in guides.items():
            if slug == SLUG:
                continue
            targets = {n.see_also for n in guide.nodes.values() if n.see_also}
            assert targets and all(t.startswith(SLUG + ":") for t in targets), slug

    def test_the_hand_over_opens_the_finder_at_its_question(self):
        api = APIClient()
        for guide in loader.load_all().values():
            for node in guide.nodes.values():
                if not node.see_also:
                    continue
                link = guide_services.node_data(node)["see_also"]
                body = api.post(
                    f"/api/v1/guides/{link['guide']}/walk",
                    {"answers": link["answers"]},
                    format="json",
                ).json()
                assert body["node_id"] == link["node"] == node.see_also.split(":")[1]

    def test_the_answers_of_a_hand_over_lead_to_any_question_they_name(self):
        from guides import links, runner

        checked = 0
        for guide in loader.load_all().values():
            for node in guide.nodes.values():
                answers = links.path_to(guide, node.id) if node.kind is NodeKind.QUESTION else None
                if answers is None:
                    continue
                state = runner.start(guide)
                for answer in answers:
                    state = runner.advance(guide, state, answer)
                assert state.node_id == node.id, (guide.slug, node.id, answers)
                checked += 1
        assert checked > 40

    def test_a_hand_over_to_a_missing_node_is_refused(self, finder):
        from dataclasses import replace

        bad = replace(finder.nodes["grv"], see_also=f"{SLUG}:nowhere")
        other = replace(finder, slug="other", nodes={**finder.nodes, "grv": bad})
        with pytest.raises(loader.GuideError, match="nowhere"):
            loader.check_hand_overs({SLUG: finder, "other": other})


class JarCitationTests:
    def test_a_jar_citation_is_labelled_by_its_heading_never_by_a_number(self):
        for ref in ("jar@2019-01-21:1.3", "jar@2019-01-21:2", "jar@2019-01-21:Introduction"):
            label = references.citations([ref])[0]["label"]
            assert label.startswith("JAR: ") and not re.search(r"\d", label), label
        rule = Rule.objects.get(
            version__document__slug="jar", version__is_current=True, number="1.3"
        )
        assert references.citations(["jar@2019-01-21:1.3"])[0]["label"] == f"JAR: {rule.title}"
        assert references.citations(["cr@2025-02-07:103.5"])[0]["label"] == "CR 103.5"

    def test_a_guide_page_shows_jar_headings_not_numbers(self, client, paths):
        answers = "&".join(f"a={a}" for a in paths["hce"])
        html = client.get(f"/guides/{SLUG}/?{answers}").content.decode()
        assert (
            "JAR: A player accidentally draws or has more cards than they were supposed to" in html
        )
        assert not re.search(r"JAR (?:\d|Introduction)", html)

    def test_a_call_stored_before_labels_is_shown_by_heading_too(self):
        from calllog import exports

        rule = Rule.objects.get(
            version__document__slug="jar", version__is_current=True, number="1.3"
        )
        stored = {
            "doc": "jar",
            "number": "1.3",
            "title": rule.title,
            "text": rule.text,
            "ref": "jar@2019-01-21:1.3",
        }
        assert references.labelled([stored])[0]["label"] == f"JAR: {rule.title}"
        assert exports._citation_label(stored) == f"JAR: {rule.title}"
        assert exports._citation_label({"doc": "ipg", "number": "2.5", "title": "x"}) == "IPG 2.5"
