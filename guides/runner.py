"""Walking a guide: where a judge is after the answers given so far. Pure: no Django, no engines.

A state is the node the judge is at, the answers given (only the answers: the database keeps the
slug and the answers, docs/STYLE.md), the facts gathered from them, and the path of node ids walked.
A compute node is not run here: arriving at one gives a state with ``needs_computation`` and the
``request`` built from the facts; the caller runs the computation and hands the result to
``apply_result``. ``replay`` does all of it from a list of answers with a ``compute(computation,
request) -> dict``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from guides.schema import Answer, Guide, Node, NodeKind
from judgeapp import numbers


class AnswerError(ValueError):
    """An answer that does not fit the node it was given at; ``field`` names it, e.g.
    "answers[3]"."""

    def __init__(self, message: str, field: str = "answer") -> None:
        self.field = field
        self.message = message
        super().__init__(f"{field}: {message}")


class GuideFlowError(RuntimeError):
    """The guide itself is wrong at run time (a fact used before it is set, a result with
    no branch)."""


@dataclass(frozen=True)
class GuideState:
    slug: str
    node_id: str
    answers: tuple[Any, ...] = ()
    facts: Mapping[str, Any] = field(default_factory=dict)
    path: tuple[str, ...] = ()  # node ids walked, the current one last
    needs_computation: bool = False
    request: Mapping[str, Any] | None = None  # the computation's request, when needs_computation
    result: Mapping[str, Any] | None = None  # the last computation's result


def start(guide: Guide) -> GuideState:
    return _arrive(
        guide,
        GuideState(slug=guide.slug, node_id=guide.start, facts=dict(guide.facts)),
        guide.start,
    )


def node_of(guide: Guide, state: GuideState) -> Node:
    return guide.nodes[state.node_id]


def advance(guide: Guide, state: GuideState, answer: Any) -> GuideState:
    """Answer the current question or input; the state after it (possibly at a compute node)."""
    node = node_of(guide, state)
    if state.needs_computation or node.kind in (NodeKind.COMPUTE, NodeKind.SWITCH):
        raise AnswerError(f"{node.id!r} is waiting for its computation, not an answer")
    if node.kind is NodeKind.CONCLUSION:
        raise AnswerError(f"the guide already reached its conclusion {node.id!r}")
    facts = dict(state.facts)
    if node.kind is NodeKind.QUESTION:
        chosen = _choose(node, answer)
        for name, value in chosen.set:
            facts[name] = fill(value, facts, guide, node)
        target = chosen.next
        recorded: Any = chosen.label
    else:
        recorded = facts[node.field] = parse_input(node, answer)
        target = node.next
    moved = replace(state, answers=(*state.answers, recorded), facts=facts)
    return _arrive(guide, moved, target)


def apply_result(guide: Guide, state: GuideState, result: Mapping[str, Any]) -> GuideState:
    """Continue from a compute node with its result, kept as fact "result" (and
    "results.<node id>")."""
    node = node_of(guide, state)
    if node.kind is not NodeKind.COMPUTE or not state.needs_computation:
        raise GuideFlowError(f"{guide.slug}: {node.id!r} is not waiting for a computation")
    target = _branch(guide, node, result)
    facts = dict(state.facts)
    facts["result"] = result
    facts["results"] = {**facts.get("results", {}), node.id: result}
    return _arrive(
        guide,
        replace(state, facts=facts, needs_computation=False, request=None, result=result),
        target,
    )


def replay(
    guide: Guide,
    answers: Sequence[Any],
    compute: Callable[[str, Mapping[str, Any]], Mapping[str, Any]],
) -> GuideState:
    """The state after the given answers, running every computation met on the way with ``compute``.

    A bad answer raises AnswerError naming it ("answers[3]"); answers left over after a conclusion
    are bad answers too. ``compute`` errors are raised as they are, for the caller to name.
    """
    state = run_pending(guide, start(guide), compute)
    for i, answer in enumerate(answers):
        try:
            state = advance(guide, state, answer)
        except AnswerError as exc:
            raise AnswerError(exc.message, f"answers[{i}]") from None
        state = run_pending(guide, state, compute)
    return state


def run_pending(
    guide: Guide, state: GuideState, compute: Callable[[str, Mapping[str, Any]], Mapping[str, Any]]
) -> GuideState:
    while state.needs_computation:
        node = node_of(guide, state)
        state = apply_result(guide, state, compute(node.computation, state.request or {}))
    return state


def is_conclusion(guide: Guide, state: GuideState) -> bool:
    return node_of(guide, state).kind is NodeKind.CONCLUSION


# --- helpers --------------------------------------------------------------------------------------


def _arrive(guide: Guide, state: GuideState, node_id: str) -> GuideState:
    node = guide.nodes[node_id]
    arrived = replace(state, node_id=node_id, path=(*state.path, node_id))
    if node.kind is NodeKind.COMPUTE:
        request = fill(dict(node.request), arrived.facts, guide, node)
        return replace(arrived, needs_computation=True, request=request)
    if node.kind is NodeKind.SWITCH:  # no answer needed: go on at once
        return _arrive(guide, arrived, _branch(guide, node, arrived.facts))
    return arrived


def _branch(guide: Guide, node: Node, data: Mapping[str, Any]) -> str:
    key = branch_key(dig(data, node.branch_on))
    target = dict(node.branches).get(key) or node.next
    if not target:
        raise GuideFlowError(
            f"{guide.source} [{node.id}]: no branch for {node.branch_on} = {key!r} and no default"
        )
    return target


def _choose(node: Node, answer: Any) -> Answer:
    if isinstance(answer, int) and not isinstance(answer, bool):
        if 0 <= answer < len(node.answers):
            return node.answers[answer]
        raise AnswerError(
            f"answer {answer} is not one of 0..{len(node.answers) - 1} at {node.id!r}"
        )
    if isinstance(answer, str):
        for a in node.answers:
            if a.label.casefold() == answer.strip().casefold():
                return a
    labels = [a.label for a in node.answers]
    raise AnswerError(
        f"{answer!r} is not an answer to {node.id!r}; choose one of {labels} (or its index)"
    )


def parse_input(node: Node, value: Any) -> Any:
    """An input node's value, checked: int within min/max, a choice among choices, players as
    2+ names."""
    if node.input == "int":
        number = numbers.whole(value, floats=False)
        if number is None:
            raise AnswerError(f"{node.field} must be a whole number, not {value!r}")
        value = number
        if node.minimum is not None and value < node.minimum:
            raise AnswerError(f"{node.field} must be at least {node.minimum}")
        if node.maximum is not None and value > node.maximum:
            raise AnswerError(f"{node.field} must be at most {node.maximum}")
        return value
    if node.input == "choice":
        if isinstance(value, str):
            for choice in node.choices:
                if choice.casefold() == value.strip().casefold():
                    return choice
        raise AnswerError(f"{node.field} must be one of {list(node.choices)}, not {value!r}")
    if node.input == "players":
        names = value.split(",") if isinstance(value, str) else value
        if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
            raise AnswerError(f"{node.field} must be a list of player names")
        names = [n.strip() for n in names]
        if len(names) < 2 or not all(names) or len(set(names)) != len(names):
            raise AnswerError(
                f"{node.field} must name two or more different players, in turn order"
            )
        return names
    if not isinstance(value, str) or not value.strip():
        raise AnswerError(f"{node.field} must be text")
    return value.strip()


def default_input(node: Node) -> Any:
    """The value a judge gets by accepting the input's default (used by the tests to
    enumerate paths)."""
    if node.default is not None:
        return node.default
    if node.input == "int":
        return node.minimum if node.minimum is not None else 0
    if node.input == "choice":
        return node.choices[0]
    if node.input == "players":
        return ["Player A", "Player B"]
    return "-"


def dig(data: Any, dotted: str) -> Any:
    """data["a"]["b"][0] for "a.b.0"; None when any step is missing."""
    for part in dotted.split(".") if dotted else []:
        if isinstance(data, Mapping):
            data = data.get(part)
        elif (
            isinstance(data, list)
            and part.lstrip("-").isdigit()
            and -len(data) <= int(part) < len(data)
        ):
            data = data[int(part)]
        else:
            return None
    return data


def branch_key(value: Any) -> str:
    """How a result value names a branch: true/false, null, or the value as text."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "null"
    return str(value)


def fill(
    template: Any, facts: Mapping[str, Any], guide: Guide | None = None, node: Node | None = None
) -> Any:
    """The template with every "$fact" (or "$fact.path") string — values and table keys
    — replaced."""
    if isinstance(template, str) and template.startswith("$"):
        name = template[1:]
        head = name.split(".", 1)[0]
        if head not in facts:
            where = f"{guide.source} [{node.id}]" if guide and node else "guide"
            raise GuideFlowError(f"{where}: fact {head!r} is used before any answer sets it")
        return dig(facts, name)
    if isinstance(template, Mapping):
        out = {}
        for key, value in template.items():
            filled_key = fill(key, facts, guide, node)
            out[str(filled_key)] = fill(value, facts, guide, node)
        return out
    if isinstance(template, list | tuple):
        return [fill(v, facts, guide, node) for v in template]
    return template
