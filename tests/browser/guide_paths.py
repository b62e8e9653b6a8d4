"""Every conclusion of a guide and one list of answers that reaches it, found by walking the guide
with the runner and the service's computations (no browser): questions branch on each answer, inputs
try their default, bounds and choices, so compute steps see more than one request."""

from __future__ import annotations

import json
from collections import deque
from typing import Any

from guides import runner
from guides import services as guide_services
from guides.schema import Guide, Node, NodeKind
from jobs import services


def input_candidates(node: Node) -> list[Any]:
    values: list[Any] = [runner.default_input(node)]
    if node.input == "int":
        values += [v for v in (node.minimum, node.maximum) if v is not None]
        if node.minimum is not None:
            values += [node.minimum + 1, node.minimum + 2]
    elif node.input == "choice":
        values += list(node.choices)
    elif node.input == "players":
        values += [["Player A", "Player B", "Player C"]]
    out: list[Any] = []
    for value in values:
        if value not in out:
            out.append(value)
    return out


def conclusion_paths(guide: Guide, *, max_states: int = 20000) -> dict[str, list[Any]]:
    """{conclusion id: answers} for every conclusion reached, each by the shortest answers found
    (answers as the page sends them: an answer's index for a question, the value for an input).
    Inputs take their default first; other values are tried only when some conclusion is
    still missing."""
    found = _search(guide, lambda node: [runner.default_input(node)], max_states)
    if set(found) != conclusions(guide):
        for node_id, answers in _search(
            guide, input_candidates, max_states, want=conclusions(guide) - set(found)
        ).items():
            found.setdefault(node_id, answers)
    return found


def _search(
    guide: Guide, values, max_states: int, want: set[str] | None = None
) -> dict[str, list[Any]]:

    def compute(computation: str, request: Any) -> dict:
        return guide_services.run_step(computation, request)

    found: dict[str, list[Any]] = {}
    seen: set[str] = set()
    first = runner.run_pending(guide, runner.start(guide), compute)
    queue: deque[tuple[runner.GuideState, list[Any]]] = deque([(first, [])])
    while queue and len(seen) < max_states:
        state, answers = queue.popleft()
        key = state.node_id + json.dumps(state.facts, sort_keys=True, default=str)
        if key in seen:
            continue
        seen.add(key)
        node = guide.nodes[state.node_id]
        if node.kind is NodeKind.CONCLUSION:
            found.setdefault(node.id, answers)
            if want is not None and want <= set(found):
                break
            continue
        options = range(len(node.answers)) if node.kind is NodeKind.QUESTION else values(node)
        for option in options:
            try:
                after = runner.run_pending(guide, runner.advance(guide, state, option), compute)
            except (
                runner.AnswerError,
                guide_services.WalkError,
                services.InvalidRequest,
                ValueError,
            ):
                continue  # an input value the node refuses, or facts a computation refuses
            queue.append((after, [*answers, option]))
    return found


def conclusions(guide: Guide) -> set[str]:
    return {n.id for n in guide.nodes.values() if n.kind is NodeKind.CONCLUSION}
