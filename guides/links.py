"""Hand-overs between guides: a conclusion's `see_also = "infraction-finder:te"` names a question of
another guide where the judge goes on. Checked across all guides at load time
(loader.check_hand_overs) and turned into the answers that open the other guide at that question
(path_to). Pure: standard library only.
"""

from __future__ import annotations

from collections.abc import Iterator

from guides.schema import Guide, NodeKind


def hand_over_problems(guides: dict[str, Guide]) -> Iterator[tuple[str, str, str]]:
    """(source, node id, message) for each `see_also` that names no guide, no question, or one only
    inputs or computations lead to."""
    for guide in guides.values():
        for node in guide.nodes.values():
            if not node.see_also:
                continue
            slug, _, target = node.see_also.partition(":")
            other = guides.get(slug)
            if other is None:
                yield guide.source, node.id, f"see_also names no guide {slug!r}"
            elif target not in other.nodes or other.nodes[target].kind is not NodeKind.QUESTION:
                yield guide.source, node.id, f"see_also: {slug} has no question {target!r}"
            elif path_to(other, target) is None:
                yield (
                    guide.source,
                    node.id,
                    f"see_also: {slug}'s {target!r} is not reached by answering questions",
                )


def path_to(guide: Guide, target: str) -> list[int] | None:
    """The fewest answer indices that lead from the start to a node through questions only ([] for
    the start itself); None when only inputs or computations lead there. A hand-over opens the other
    guide there."""
    paths: dict[str, list[int]] = {guide.start: []}
    todo = [guide.start]
    while todo:
        node_id = todo.pop(0)
        if node_id == target:
            return paths[node_id]
        node = guide.nodes[node_id]
        if node.kind is not NodeKind.QUESTION:
            continue
        for i, answer in enumerate(node.answers):
            if answer.next not in paths:
                paths[answer.next] = [*paths[node_id], i]
                todo.append(answer.next)
    return None
