"""Every penalty right: every conclusion of every guide, reached by walking the guide (every answer
of every question, inputs at their defaults and bounds, the computations run) and then through the
API, checked against the IPG 2021-01-06 as imported in the test database (no penalty is written in
this file).

- A conclusion naming an infraction gives at Competitive and Professional the Penalty line of the
  IPG section that infraction names, or an upgrade or downgrade that the section itself states (its
  Upgrade, Downgrade or Additional Remedy), or one the chapter introductions state (IPG 2: the third
  Warning for the same Game Play Error; IPG 3: the second Warning for the same Tournament Error);
  then the conclusion shows the reason.
- A conclusion naming no infraction says so the same way at every REL: "No penalty", no category.
- A Warning that a repeat can upgrade (IPG 2, IPG 3) says so under `upgrades`, with the
  chapter's count.
The walk is exhaustive: the guides are finite (tests/browser/guide_paths.py searches
every state)."""

from __future__ import annotations

import re
from dataclasses import replace

import pytest
from rest_framework.test import APIClient

from guides import loader
from guides import services as guide_services
from guides.schema import Node, NodeKind
from rulesref.models import Rule
from tests.browser.guide_paths import conclusion_paths

pytestmark = pytest.mark.django_db

PENALTY_WORDS = ("No penalty", "Warning", "Game Loss", "Match Loss", "Disqualification")
CATEGORY_OF_CHAPTER_TITLE = {
    "game play errors": "game_play_error",
    "tournament errors": "tournament_error",
    "unsporting conduct": "unsporting_conduct",
}
REASON = re.compile(r"upgrade|downgrade", re.IGNORECASE)


# --- the IPG as imported --------------------------------------------------------------------------


def ipg_rules() -> dict[str, Rule]:
    rules = {
        r.number: r
        for r in Rule.objects.filter(version__document__slug="ipg", version__is_current=True)
    }
    assert rules, "the current IPG should be imported"
    return rules


def sections(rules: dict[str, Rule]) -> dict[str, Rule]:
    """The infraction sections: those the parser stored a Penalty line for."""
    found = {n: r for n, r in rules.items() if r.fields.get("penalty")}
    assert len(found) >= 20
    return found


def leading_penalty(text: str) -> str | None:
    """The penalty a conclusion's text gives first ("Warning (Tournament Error - Slow Play), to
    the shuffler")."""
    text = text.strip()
    if text.casefold().startswith("none"):
        return "No penalty"
    return next((p for p in PENALTY_WORDS if text.startswith(p)), None)


def base_penalty(rule: Rule) -> str:
    found = leading_penalty(rule.fields["penalty"])
    assert found, f"IPG {rule.number}: unreadable Penalty line {rule.fields['penalty']!r}"
    return found


def section_for(infraction: str, infraction_sections: dict[str, Rule]) -> Rule:
    wanted = infraction.casefold()
    matches = [
        r
        for r in infraction_sections.values()
        if wanted in {a.casefold() for a in r.aliases} or r.title.casefold().endswith("- " + wanted)
    ]
    assert len(matches) == 1, f"infraction {infraction!r} names {len(matches)} IPG sections"
    return matches[0]


def infraction_name(rule: Rule) -> str:
    return re.split(r"\s+[-\u2013\u2014]\s+", rule.title, maxsplit=1)[-1]


def stated_by_section(rule: Rule, penalty: str) -> bool:
    """The section states `penalty` outside its Penalty line (Upgrade, Downgrade, Additional
    Remedy ...)."""
    text = " ".join(" ".join(v for k, v in rule.fields.items() if k != "penalty").split())
    return (
        re.search(
            rf"\b(?:is|receives?|result in|penalty is)\s+(?:an?\s+)?{re.escape(penalty)}\b",
            text,
            re.IGNORECASE,
        )
        is not None
    )


def stated_by_chapter(rule: Rule, penalty: str, rules: dict[str, Rule]) -> bool:
    """The chapter introduction upgrades this section's Warning to `penalty` for a repeat of the
    same offense (IPG 2: "the third or subsequent warning ... upgraded to a Game Loss", except what
    it never upgrades; IPG 3: "A Warning ... is upgraded to a Game Loss if ... already received a
    Warning ...")."""
    return base_penalty(rule) == "Warning" and penalty in chapter_count_upgrades(rule, rules)


def chapter_count_upgrades(rule: Rule, rules: dict[str, Rule]) -> list[str]:
    """What the chapter introduction upgrades a repeated Warning for this section's infraction to
    ([] if nothing)."""
    text = " ".join(rules[rule.number.split(".")[0]].text.split())
    never = re.search(r"exception of ([^,]+), which is never upgraded", text)
    if never and infraction_name(rule).casefold() == never.group(1).strip().casefold():
        return []
    return re.findall(r"upgraded to an? (Game Loss|Match Loss)", text)


def chapter_category(rule: Rule, rules: dict[str, Rule]) -> str:
    return CATEGORY_OF_CHAPTER_TITLE[rules[rule.number.split(".")[0]].title.strip().casefold()]


def penalty_problems(slug: str, node: dict, rules: dict[str, Rule]) -> list[str]:
    """Why a conclusion (its API data) disagrees with the IPG; empty when it agrees."""
    where = f"{slug}:{node['id']}"
    penalty = node["penalty"]
    given = {rel: leading_penalty(penalty[rel]) for rel in ("competitive", "professional")}
    problems = [
        f"{where}: {rel} penalty {penalty[rel]!r} names no penalty"
        for rel, p in given.items()
        if p is None
    ]
    if problems:
        return problems
    if given["competitive"] != given["professional"]:
        problems.append(
            f"{where}: Competitive {given['competitive']!r} and Professional "
            f"{given['professional']!r} differ"
        )
    if not node.get("infraction"):
        for rel in ("regular", "competitive", "professional"):
            if not penalty[rel].startswith("No penalty"):
                problems.append(
                    f"{where}: no infraction, but {rel} says {penalty[rel]!r} (a conclusion "
                    'without an infraction says "No penalty")'
                )
        if node.get("category"):
            problems.append(f"{where}: no infraction, but category {node['category']!r}")
        return problems
    rule = section_for(node["infraction"], sections(rules))
    base = base_penalty(rule)
    if ("ipg", rule.number) not in {(c["doc"], c["number"]) for c in node.get("citations", [])}:
        problems.append(f"{where}: names {rule.title} but does not cite IPG {rule.number}")
    if node.get("category") != chapter_category(rule, rules):
        problems.append(
            f"{where}: category {node.get('category')!r} is not IPG {rule.number}'s chapter"
        )
    for rel in ("competitive", "professional"):
        text = penalty[rel]
        if " - " in text.split(";")[0] and rule.title.casefold() not in " ".join(
            text.split()
        ).casefold().replace("—", "-"):
            problems.append(
                f"{where}: {rel} {text!r} names another infraction than IPG {rule.number} "
                f"({rule.title})"
            )
    shown = f"{node['ruling']} {penalty['competitive']}"
    p = given["competitive"]
    if p == base:
        return problems
    if stated_by_section(rule, p):
        if not REASON.search(shown):
            problems.append(
                f"{where}: {p!r} is IPG {rule.number}'s upgrade or downgrade, but the conclusion "
                "does not say so"
            )
    elif stated_by_chapter(rule, p, rules):
        name = re.escape(infraction_name(rule))
        if not (
            REASON.search(shown)
            and re.search(rf"(?:second|third|already|earlier)\b[^.]*\b{name}", shown, re.IGNORECASE)
        ):
            problems.append(
                f"{where}: {p!r} is a count upgrade (IPG {rule.number.split('.')[0]}), but the "
                "conclusion does not give the reason: an earlier Warning for "
                f"{infraction_name(rule)} itself"
            )
    else:
        problems.append(
            f"{where}: {p!r} is not IPG {rule.number}'s {base!r}, nor an upgrade or downgrade the "
            "IPG states"
        )
    return problems


def upgrade_line_problems(slug: str, node: dict, rules: dict[str, Rule]) -> list[str]:
    """A Warning a repeat can upgrade says under `upgrades` what the chapter's count is."""
    if not node.get("infraction") or leading_penalty(node["penalty"]["competitive"]) != "Warning":
        return []
    rule = section_for(node["infraction"], sections(rules))
    lines = " ".join(node.get("upgrades", []))
    chapter = rule.number.split(".")[0]
    where = f"{slug}:{node['id']}"
    if "Game Loss" not in chapter_count_upgrades(rule, rules):
        if chapter == "2":  # never upgraded (IPG 2)
            return (
                []
                if "never upgraded" in lines
                else [
                    f"{where}: IPG 2 never upgrades {infraction_name(rule)}; the upgrades should "
                    "say so"
                ]
            )
        return []
    count = {"2": "third", "3": "second"}[chapter]
    ok = (
        count in lines.casefold()
        and infraction_name(rule) in lines
        and "Game Loss" in lines
        and f"IPG {chapter})" in lines
    )
    return (
        []
        if ok
        else [
            f"{where}: no line saying the {count} Warning for {infraction_name(rule)} is a Game "
            f"Loss (IPG {chapter})"
        ]
    )


# --- every conclusion, walked ---------------------------------------------------------------------


@pytest.fixture(scope="module")
def paths(django_db_setup, django_db_blocker) -> dict[str, dict[str, list]]:
    """{slug: {conclusion id: answers}}: every conclusion of every guide and answers that
    reach it."""
    out: dict[str, dict[str, list]] = {}
    with django_db_blocker.unblock():
        for slug, guide in loader.load_all().items():
            out[slug] = conclusion_paths(guide)
            ends = {n.id for n in guide.nodes.values() if n.kind is NodeKind.CONCLUSION}
            assert set(out[slug]) == ends, (
                f"{slug}: conclusions no walk reaches: {sorted(ends - set(out[slug]))}"
            )
    return out


@pytest.fixture(scope="module")
def walked(paths, django_db_blocker) -> dict[str, dict[str, dict]]:
    """{slug: {conclusion id: the node as the guide service's walk gives it (the API's body)}}."""
    out: dict[str, dict[str, dict]] = {}
    with django_db_blocker.unblock():
        for slug, found in paths.items():
            out[slug] = {}
            for node_id, answers in found.items():
                body = guide_services.walk(slug, answers)
                assert body["finished"] and body["node_id"] == node_id, (slug, node_id)
                out[slug][node_id] = body["node"]
    return out


class EveryPenaltyTests:
    def test_every_conclusion_of_every_guide_is_walked_through_the_api(self, paths, walked):
        assert set(walked) == set(loader.load_all())
        assert sum(len(nodes) for nodes in walked.values()) >= 100
        api = APIClient()
        for slug, found in paths.items():
            for node_id, answers in found.items():
                body = api.post(
                    f"/api/v1/guides/{slug}/walk", {"answers": answers}, format="json"
                ).json()
                assert body.get("finished") and body["node_id"] == node_id, (slug, node_id, body)
                assert body["node"]["penalty"] == walked[slug][node_id]["penalty"]

    def test_every_competitive_penalty_is_the_ipgs_or_an_upgrade_it_states_with_its_reason(
        self, walked
    ):
        rules = ipg_rules()
        problems = [
            p
            for slug, nodes in walked.items()
            for node in nodes.values()
            for p in penalty_problems(slug, node, rules)
        ]
        assert not problems, "\n".join(problems)

    def test_every_warning_a_repeat_upgrades_says_so(self, walked):
        rules = ipg_rules()
        problems = [
            p
            for slug, nodes in walked.items()
            for node in nodes.values()
            for p in upgrade_line_problems(slug, node, rules)
        ]
        assert not problems, "\n".join(problems)

    def test_every_infraction_section_is_reached_somewhere(self, walked):
        rules = ipg_rules()
        reached = {
            section_for(n["infraction"], sections(rules)).number
            for nodes in walked.values()
            for n in nodes.values()
            if n.get("infraction")
        }
        assert set(sections(rules)) <= reached


class TheCheckCatchesTests:
    """The property is not empty: wrong penalties, invented upgrades and missing reasons are
    each caught."""

    def node(self, walked, slug: str, node_id: str, **changes) -> dict:
        node = {**walked[slug][node_id], **changes}
        return node

    def test_a_wrong_base_penalty_is_caught(self, walked):
        rules = ipg_rules()
        grv = walked["shuffle-infractions"]["game-rule-violation"]
        wrong = self.node(
            walked,
            "shuffle-infractions",
            "game-rule-violation",
            penalty={**grv["penalty"], "competitive": "Game Loss", "professional": "Game Loss"},
        )
        assert penalty_problems("x", wrong, rules)
        assert not penalty_problems("x", grv, rules)

    def test_a_count_upgrade_for_a_different_tournament_error_is_caught(self, walked):
        # The bug of issue 27: Insufficient Shuffling upgraded after "a Warning for a Tournament
        # Error" of any kind.
        rules = ipg_rules()
        old = self.node(
            walked,
            "shuffle-infractions",
            "insufficient-shuffling",
            ruling="Tournament Error - Insufficient Shuffling, and the player already received a "
            "Warning for a Tournament Error: the Warning is upgraded to a Game Loss.",
            penalty={
                "regular": "None",
                "competitive": "Game Loss (upgraded)",
                "professional": "Game Loss (upgraded)",
            },
        )
        assert any(
            "an earlier Warning for Insufficient Shuffling" in p
            for p in penalty_problems("x", old, rules)
        )
        right = {
            **old,
            "ruling": "Insufficient Shuffling: the player already received a Warning for "
            "Insufficient Shuffling today, so this Warning is upgraded to a Game Loss (IPG 3).",
        }
        assert not penalty_problems("x", right, rules)

    def test_an_upgrade_without_its_reason_or_one_the_ipg_does_not_state_is_caught(self, walked):
        rules = ipg_rules()
        oa = walked["infraction-finder"]["oa-game-loss"]
        assert not penalty_problems("x", oa, rules)  # IPG 3.2's Downgrade
        # the reason not shown
        assert penalty_problems("x", {**oa, "ruling": "Outside Assistance."}, rules)
        ftmgs = walked["infraction-finder"]["ftmgs"]
        repeat = {
            **ftmgs,
            "ruling": "A third Failure to Maintain Game State Warning: upgraded.",
            "penalty": {
                **ftmgs["penalty"],
                "competitive": "Game Loss",
                "professional": "Game Loss",
            },
        }
        assert penalty_problems("x", repeat, rules)  # IPG 2: never upgraded

    def test_a_conclusion_without_an_infraction_that_gives_a_penalty_is_caught(self, walked):
        rules = ipg_rules()
        restart = walked["loop-resolution"]["restart-refused"]
        assert not penalty_problems("x", restart, rules)
        old = {
            **restart,
            "penalty": {
                "regular": "None: explain the rule",
                "competitive": "None for the proposal; Warning",
                "professional": "None for the proposal; Warning",
            },
        }
        assert penalty_problems("x", old, rules)

    def test_a_conclusion_that_does_not_cite_its_section_is_caught(self, walked):
        rules = ipg_rules()
        sp = walked["loop-resolution"]["slow-play"]
        assert not penalty_problems("x", sp, rules)
        uncited = {**sp, "citations": [c for c in sp["citations"] if c["doc"] != "ipg"]}
        assert any("does not cite IPG 3.3" in p for p in penalty_problems("x", uncited, rules))

    def test_a_missing_repeat_line_is_caught(self, walked):
        rules = ipg_rules()
        grv = walked["shuffle-infractions"]["game-rule-violation"]
        assert not upgrade_line_problems("x", grv, rules)
        assert upgrade_line_problems("x", {**grv, "upgrades": []}, rules)


def test_the_loaded_nodes_are_what_the_api_walks(walked):
    """The API serves the guides the loader reads (so the property holds for the
    files themselves)."""
    guides = loader.load_all()
    for slug, nodes in walked.items():
        for node_id, data in nodes.items():
            node: Node = guides[slug].nodes[node_id]
            assert (
                data["penalty"]["competitive"] == node.penalty.competitive
                and data["infraction"] == node.infraction
            )
    assert replace(guides["loop-resolution"].nodes["draw"]).penalty.competitive.startswith(
        "No penalty"
    )
