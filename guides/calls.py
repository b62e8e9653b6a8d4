"""The infraction finder as the call beside a search hit (search/calls.py): for each infraction of
an IPG version (a section whose Penalty line the IPG parser stored), its penalty at Competitive and
Professional as that line gives it, at Regular as the finder's conclusion for the infraction gives
it (the JAR's handling), the section's Upgrade and Downgrade when it has them, and the address that
opens the finder where the infraction is certain: at the conclusion when no question is left, or at
the first question after which every answer ends in this infraction or in no infraction at all
(Missed Trigger opens at how the trigger would affect the game: whether it was missed at all is
still the judge's to answer)."""

from __future__ import annotations

import re
from functools import lru_cache
from urllib.parse import urlencode

from django.urls import reverse

from guides import links
from guides import services as guide_services
from guides.schema import Guide, Node, NodeKind
from rulesref.models import Rule

FINDER = "infraction-finder"


# Deck Problem's line, "Warning with potential upgrade": the Warning it gives (its Upgrade says when
# it is more), as the call log records it (calllog.infractions.penalty_to_give reads the same
# qualifier, after a penalty's name).
POTENTIAL_UPGRADE = re.compile(r"\s+with\s+(?:a\s+)?potential\s+upgrades?\.?$", re.IGNORECASE)


def base_penalty(line: str) -> str:
    """The penalty the IPG's Penalty line gives, in the words the finder uses ("None" is "No
    penalty"; "Warning with potential upgrade" is "Warning")."""
    line = POTENTIAL_UPGRADE.sub("", " ".join(line.split()))
    return "No penalty" if line.casefold() == "none" else line


@lru_cache(maxsize=4)
def infraction_calls(version_id: int, content_hash: str) -> dict[str, dict]:
    """{section number: call} for every infraction of the IPG version `version_id` that the finder
    concludes on; kept per version and content (a changed guide file takes a restart)."""
    guide = guide_services.get_guide(FINDER)
    out: dict[str, dict] = {}
    for rule in Rule.objects.filter(version_id=version_id).order_by("position"):
        line = (rule.fields or {}).get("penalty")
        if not line:
            continue
        base = base_penalty(line)
        node, answers = _conclusion(guide, rule, base)
        if node is None or node.penalty is None:
            continue
        query = urlencode([("rel", "competitive"), *(("a", str(a)) for a in answers or [])])
        out[rule.number] = {
            "infraction": rule.title,
            "penalty": {
                "regular": node.penalty.regular,
                "competitive": base,
                "professional": base,
            },
            "finder": reverse("page-guide", args=[FINDER]) + "?" + query,
        }
        # the section's own Upgrade ("If the triggered ability is usually considered detrimental
        # ... the penalty is a Warning"): the Penalty line alone is not always the penalty to give
        upgrade = " ".join(((rule.fields or {}).get("upgrade") or "").split())
        if upgrade:
            out[rule.number]["upgrade"] = upgrade
        # and its Downgrade (Tardiness: "... before 1 minute has elapsed ... receives a warning";
        # Outside Assistance: "... the penalty is a Game Loss"): the penalty can also be lower
        downgrade = " ".join(((rule.fields or {}).get("downgrade") or "").split())
        if downgrade:
            out[rule.number]["downgrade"] = downgrade
    return out


def _opening(guide: Guide, answers: list[int], infraction: str | None) -> list[int]:
    """The first answers of `answers` (a path from the start to a conclusion on `infraction`) that
    reach a node from which every conclusion is on that infraction or on none."""
    node_id = guide.start
    for taken, index in enumerate(answers):
        if _only(guide, node_id, infraction):
            return answers[:taken]
        node_id = guide.nodes[node_id].answers[index].next
    return answers


def _only(guide: Guide, node_id: str, infraction: str | None) -> bool:
    """Whether every node reachable from `node_id` through questions is a question or a conclusion
    on `infraction` or on no infraction."""
    seen, todo = set(), [node_id]
    while todo:
        node = guide.nodes[todo.pop()]
        if node.id in seen:
            continue
        seen.add(node.id)
        if node.kind is NodeKind.QUESTION:
            todo.extend(answer.next for answer in node.answers)
        elif node.kind is not NodeKind.CONCLUSION or node.infraction not in ("", None, infraction):
            return False
    return True


def _conclusion(guide: Guide, rule: Rule, base: str) -> tuple[Node | None, list[int]]:
    """The finder's conclusion on `rule`'s infraction (named by one of the aliases the parser
    stored, or its title) that a judge reaches by answering questions: the one whose Competitive
    penalty is the section's own first, else the first; of several, the one whose link opens
    earliest (Cheating's own question, not the die roll's path that also ends in Cheating); with
    the answers that open it (_opening). (None, []) when the finder has none."""
    names = {a.casefold() for a in (rule.aliases or [])} | {rule.title.casefold()}
    found = [
        n
        for n in guide.nodes.values()
        if n.kind is NodeKind.CONCLUSION
        and n.infraction
        and n.infraction.casefold() in names
        and links.path_to(guide, n.id) is not None
    ]
    same = [n for n in found if n.penalty is not None and n.penalty.competitive == base]
    chosen = same or found
    if not chosen:
        return None, []
    openings = [_opening(guide, links.path_to(guide, n.id) or [], n.infraction) for n in chosen]
    best = min(range(len(chosen)), key=lambda i: len(openings[i]))  # the first of the shortest
    return chosen[best], openings[best]
