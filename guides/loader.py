"""Reading guide files: one TOML file per guide (definitions/*.toml) into schema records, refusing
any file a judge could get stuck in.

File layout (the whole format; any other key is refused):

    slug = "loop-resolution"          # optional; must equal the file name without .toml
    title = "Loop resolution"
    summary = "One line for the guide list."
    start = "deterministic"           # id of the first node

    [[nodes]]
    id = "deterministic"
    kind = "question"                 # question | input | compute | conclusion (schema.py)
    text = "Does the loop repeat exactly the same way every time?"
    refs = ["mtr@2019-06-06:4.4"]
    answers = [{ label = "Yes", next = "spans-turns", set = { deterministic = true } },
               { label = "No", next = "non-deterministic" }]
    # or the short form of docs/STYLE.md: answers = { Yes = "spans-turns", No = "non-deterministic" }

A question with many answers gives each a `group = "..."` heading (every answer or none): the page
shows the headings first and a heading's answers under it, so none is a long scroll away.

A conclusion may also give `upgrades = ["..."]` (the upgrades and downgrades the IPG gives for it,
shown as they are) and `see_also = "infraction-finder:te"` (a hand-over: a question of another guide
where the judge goes on; load_all checks that the guide and the question exist and that answers
alone reach it).

Input nodes take `min`/`max` (stored as Node.minimum/maximum); a compute or switch node's `default`
is the node id used when no branch matches (stored as Node.next). A top-level `facts = {...}` table
gives starting facts. Answer `set` values and compute `request` strings
may read facts: "$name" or "$name.key" (a dotted path; list indices are numbers).

Pure: standard library only (the reference pattern is imported from rulesref.references, which does
not import Django at module level). `validate_references(guide, resolve)` takes the resolver as
an argument.
"""  # noqa: E501

from __future__ import annotations

import re
import tomllib
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from guides import links
from guides.runner import AnswerError, parse_input
from guides.schema import (
    COMPUTATIONS,
    RELS,
    Answer,
    Guide,
    Node,
    NodeKind,
    Penalty,
)
from rulesref.citing import REF_PATTERN
from rulesref.parsing.ipg import INFRACTION_ALIASES

INPUT_KINDS = ("int", "text", "players", "choice")
TOP_KEYS = {"slug", "title", "summary", "start", "facts", "nodes"}
COMMON_KEYS = {"id", "kind", "text", "help", "refs"}
KIND_KEYS = {
    NodeKind.QUESTION: {"answers"},
    NodeKind.INPUT: {"field", "input", "choices", "min", "max", "default", "next"},
    NodeKind.COMPUTE: {"computation", "request", "branch_on", "branches", "default", "next"},
    NodeKind.SWITCH: {"branch_on", "branches", "default", "next"},
    NodeKind.CONCLUSION: {
        "ruling",
        "fix",
        "penalty",
        "show_result",
        "infraction",
        "category",
        "upgrades",
        "see_also",
    },
}
ANSWER_KEYS = {"label", "next", "set", "group"}
# "guide-slug:node-id", checked across guides by load_all
SEE_ALSO = re.compile(r"^[a-z0-9-]+:[A-Za-z0-9_.-]+$")
DEFINITIONS = Path(__file__).resolve().parent / "definitions"


class GuideError(ValueError):
    """A guide file that cannot be served: which file, which node (or "" for the file), and why."""

    def __init__(self, source: str, node_id: str, message: str) -> None:
        self.source = source
        self.node_id = node_id
        self.message = message
        where = f"{source} [{node_id}]" if node_id else source
        super().__init__(f"{where}: {message}")


def load_all(folder: str | Path = DEFINITIONS) -> dict[str, Guide]:
    """Every guide in a folder, by slug, in file-name order; the first bad file
    raises GuideError."""
    guides: dict[str, Guide] = {}
    for path in sorted(Path(folder).glob("*.toml")):
        guide = load_guide(path)
        if guide.slug in guides:
            raise GuideError(
                str(path), "", f"slug {guide.slug!r} is already used by {guides[guide.slug].source}"
            )
        guides[guide.slug] = guide
    check_hand_overs(guides)
    return guides


def check_hand_overs(guides: dict[str, Guide]) -> None:
    """Every conclusion's `see_also` names a guide of the set and a question answers
    reach (links.py)."""
    for source, node_id, message in links.hand_over_problems(guides):
        raise GuideError(source, node_id, message)


def load_guide(path: str | Path) -> Guide:
    path = Path(path)
    source = str(path)
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise GuideError(source, "", f"not valid TOML: {exc}") from None
    return parse_guide(data, source=source, default_slug=path.stem)


def parse_guide(data: dict[str, Any], *, source: str = "<guide>", default_slug: str = "") -> Guide:
    """Build and check a Guide from parsed TOML (what load_guide does after reading the file)."""
    unknown = set(data) - TOP_KEYS
    if unknown:
        raise GuideError(
            source, "", f"unknown keys {sorted(unknown)}; a guide has {sorted(TOP_KEYS)}"
        )
    slug = data.get("slug", default_slug)
    if not isinstance(slug, str) or not slug:
        raise GuideError(source, "", "slug must be text")
    if default_slug and slug != default_slug:
        raise GuideError(source, "", f"slug {slug!r} must match the file name {default_slug!r}")
    for key in ("title", "start"):
        if not isinstance(data.get(key), str) or not data[key].strip():
            raise GuideError(source, "", f"{key} is required")
    summary = data.get("summary", "")
    if not isinstance(summary, str):
        raise GuideError(source, "", "summary must be text")
    facts = data.get("facts", {})
    if not isinstance(facts, dict):
        raise GuideError(source, "", "facts must be a table of starting facts")
    raw_nodes = data.get("nodes")
    if not isinstance(raw_nodes, list) or not raw_nodes:
        raise GuideError(source, "", "a guide needs [[nodes]]")
    nodes: dict[str, Node] = {}
    for i, raw in enumerate(raw_nodes):
        node = _node(raw, i, source)
        if node.id in nodes:
            raise GuideError(source, node.id, "duplicate node id")
        nodes[node.id] = node
    guide = Guide(
        slug=slug,
        title=data["title"].strip(),
        summary=summary.strip(),
        start=data["start"],
        nodes=nodes,
        source=source,
        facts=tuple(facts.items()),
    )
    check_graph(guide)
    return guide


# --- nodes ----------------------------------------------------------------------------------------


def _text(
    raw: dict[str, Any], key: str, source: str, node_id: str, *, required: bool = False
) -> str:
    value = raw.get(key, "")
    if not isinstance(value, str):
        raise GuideError(source, node_id, f"{key} must be text")
    if required and not value.strip():
        raise GuideError(source, node_id, f"a {raw.get('kind')} node needs {key}")
    return value.strip()


def _refs(raw: dict[str, Any], source: str, node_id: str) -> tuple[str, ...]:
    refs = raw.get("refs", [])
    if not isinstance(refs, list) or not all(isinstance(r, str) for r in refs):
        raise GuideError(source, node_id, "refs must be a list of pinned references")
    for ref in refs:
        if not REF_PATTERN.match(ref.strip()):
            raise GuideError(
                source, node_id, f"malformed reference {ref!r}; expected e.g. 'cr@2025-02-07:729.4'"
            )
    return tuple(r.strip() for r in refs)


def _node(raw: Any, index: int, source: str) -> Node:
    if not isinstance(raw, dict):
        raise GuideError(source, f"nodes[{index}]", "a node is a table")
    node_id = raw.get("id")
    if not isinstance(node_id, str) or not node_id.strip():
        raise GuideError(source, f"nodes[{index}]", "a node needs an id")
    try:
        kind = NodeKind(raw.get("kind"))
    except ValueError:
        raise GuideError(
            source, node_id, f"kind must be one of {[k.value for k in NodeKind]}"
        ) from None
    unknown = set(raw) - COMMON_KEYS - KIND_KEYS[kind]
    if unknown:
        raise GuideError(source, node_id, f"unknown keys {sorted(unknown)} for a {kind.value} node")
    common: dict[str, Any] = {
        "id": node_id,
        "kind": kind,
        "help": _text(raw, "help", source, node_id),
        "refs": _refs(raw, source, node_id),
    }
    if kind is NodeKind.QUESTION:
        return Node(
            text=_text(raw, "text", source, node_id, required=True),
            answers=_answers(raw, source, node_id),
            **common,
        )
    if kind is NodeKind.INPUT:
        return _input(raw, source, node_id, common)
    if kind in (NodeKind.COMPUTE, NodeKind.SWITCH):
        return _compute(raw, source, node_id, common)
    return _conclusion(raw, source, node_id, common)


def _answers(raw: dict[str, Any], source: str, node_id: str) -> tuple[Answer, ...]:
    answers = raw.get("answers")
    if isinstance(answers, dict):  # docs/STYLE.md's short form: { label = next }
        answers = [{"label": label, "next": nxt} for label, nxt in answers.items()]
    if not isinstance(answers, list) or not answers:
        raise GuideError(source, node_id, "a question node needs answers")
    out = []
    for i, a in enumerate(answers):
        if not isinstance(a, dict):
            raise GuideError(source, node_id, f"answers[{i}] must be a table with label and next")
        unknown = set(a) - ANSWER_KEYS
        if unknown:
            raise GuideError(source, node_id, f"answers[{i}] has unknown keys {sorted(unknown)}")
        label, nxt, facts = a.get("label"), a.get("next"), a.get("set", {})
        if not isinstance(label, str) or not label.strip():
            raise GuideError(source, node_id, f"answers[{i}] needs a label")
        if not isinstance(nxt, str) or not nxt:
            raise GuideError(source, node_id, f"answers[{i}] needs next")
        if not isinstance(facts, dict):
            raise GuideError(source, node_id, f"answers[{i}].set must be a table of facts")
        group = a.get("group", "")
        if not isinstance(group, str) or ("group" in a and not group.strip()):
            raise GuideError(source, node_id, f"answers[{i}].group must be a heading")
        out.append(
            Answer(label=label.strip(), next=nxt, set=tuple(facts.items()), group=group.strip())
        )
    labels = [a.label.casefold() for a in out]
    if len(set(labels)) != len(labels):
        raise GuideError(source, node_id, "two answers have the same label")
    # A long list is grouped under headings: every answer under one, or none.
    if any(a.group for a in out) and not all(a.group for a in out):
        raise GuideError(source, node_id, "some answers have a group and some do not")
    return tuple(out)


def _bound(raw: dict[str, Any], key: str, source: str, node_id: str) -> int | None:
    value = raw.get(key)
    if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
        raise GuideError(source, node_id, f"{key} must be a whole number")
    return value


def _input(raw: dict[str, Any], source: str, node_id: str, common: dict[str, Any]) -> Node:
    text = _text(raw, "text", source, node_id, required=True)
    field_name = _text(raw, "field", source, node_id, required=True)
    kind = raw.get("input")
    if kind not in INPUT_KINDS:
        raise GuideError(source, node_id, f"input must be one of {list(INPUT_KINDS)}")
    choices = raw.get("choices", [])
    if not isinstance(choices, list) or not all(isinstance(c, str) for c in choices):
        raise GuideError(source, node_id, "choices must be a list of text")
    if kind == "choice" and not choices:
        raise GuideError(source, node_id, "a choice input needs choices")
    if kind != "choice" and choices:
        raise GuideError(source, node_id, "only a choice input has choices")
    minimum, maximum = _bound(raw, "min", source, node_id), _bound(raw, "max", source, node_id)
    if (minimum is not None or maximum is not None) and kind != "int":
        raise GuideError(source, node_id, "only an int input has min and max")
    if minimum is not None and maximum is not None and minimum > maximum:
        raise GuideError(source, node_id, "min is above max")
    node = Node(
        text=text,
        field=field_name,
        input=kind,
        choices=tuple(choices),
        minimum=minimum,
        maximum=maximum,
        default=raw.get("default"),
        next=_text(raw, "next", source, node_id, required=True),
        **common,
    )
    if node.default is not None:
        try:
            parse_input(node, node.default)
        except AnswerError as exc:
            raise GuideError(source, node_id, f"default: {exc.message}") from None
    return node


def _compute(raw: dict[str, Any], source: str, node_id: str, common: dict[str, Any]) -> Node:
    """A compute node, or a switch (the same branching, on the facts, without a computation)."""
    computation, request = raw.get("computation", ""), raw.get("request", {})
    if common["kind"] is NodeKind.COMPUTE:
        if computation not in COMPUTATIONS:
            raise GuideError(
                source, node_id, f"unknown computation {computation!r}; one of {list(COMPUTATIONS)}"
            )
        if not isinstance(request, dict) or not request:
            raise GuideError(source, node_id, "a compute node needs a request table")
    branch_on = _text(raw, "branch_on", source, node_id, required=True)
    branches = raw.get("branches", {})
    if not isinstance(branches, dict) or not all(
        isinstance(v, str) and v for v in branches.values()
    ):
        raise GuideError(source, node_id, "branches must map result values to node ids")
    default, nxt = raw.get("default", ""), raw.get("next", "")
    if default and nxt and default != nxt:
        raise GuideError(source, node_id, "give default or next, not both")
    fallback = default or nxt
    if not isinstance(fallback, str):
        raise GuideError(source, node_id, "default must be a node id")
    if not branches and not fallback:
        raise GuideError(
            source, node_id, f"a {common['kind'].value} node needs branches or a default"
        )
    return Node(
        computation=computation,
        request=tuple(request.items()),
        branch_on=branch_on,
        branches=tuple(branches.items()),
        next=fallback,
        text=_text(raw, "text", source, node_id),
        **common,
    )


def _conclusion(raw: dict[str, Any], source: str, node_id: str, common: dict[str, Any]) -> Node:
    penalty = raw.get("penalty")
    if not isinstance(penalty, dict):
        raise GuideError(source, node_id, f"a conclusion needs penalty = {{{', '.join(RELS)}}}")
    unknown = set(penalty) - set(RELS)
    if unknown:
        raise GuideError(source, node_id, f"penalty has unknown RELs {sorted(unknown)}")
    for rel in RELS:
        if not isinstance(penalty.get(rel), str) or not penalty[rel].strip():
            raise GuideError(
                source,
                node_id,
                f"penalty.{rel} is required (every conclusion gives the penalty at every REL)",
            )
    if not common["refs"]:
        raise GuideError(source, node_id, "a conclusion needs refs: the rules to show the players")
    show = raw.get("show_result", [])
    if not isinstance(show, list) or not all(isinstance(s, str) for s in show):
        raise GuideError(source, node_id, "show_result must be a list of result field names")
    upgrades = raw.get("upgrades", [])
    if not isinstance(upgrades, list) or not all(
        isinstance(u, str) and u.strip() for u in upgrades
    ):
        raise GuideError(
            source,
            node_id,
            "upgrades must be a list of sentences (what a repeat or a circumstance brings)",
        )
    see_also = _text(raw, "see_also", source, node_id)
    if see_also and not SEE_ALSO.match(see_also):
        raise GuideError(
            source,
            node_id,
            f"see_also {see_also!r} must name a guide and a node: 'infraction-finder:te'",
        )
    given = Penalty(*(penalty[rel].strip() for rel in RELS))
    ruling = _text(raw, "ruling", source, node_id, required=True)
    infraction = _text(raw, "infraction", source, node_id)
    return Node(
        upgrades=tuple(u.strip() for u in upgrades),
        see_also=see_also,
        text=_text(raw, "text", source, node_id),
        ruling=ruling,
        fix=with_head_judge(
            _text(raw, "fix", source, node_id, required=True), ruling, given, infraction
        ),
        penalty=given,
        show_result=tuple(show),
        infraction=infraction,
        category=_text(raw, "category", source, node_id),
        **common,
    )


# IPG 1.2: "any penalty of Game Loss or higher should be reported to the Head Judge, and it is
# recommended that only the Head Judge issue penalties of this nature (with the exception of
# Tardiness (3.1) and Decklist Problems (3.4))".
HEAD_JUDGE_NOTE = (
    "Report it to the Head Judge: a penalty of Game Loss or higher should be reported to the Head "
    "Judge, and it is recommended that only the Head Judge issue it (IPG 1.2)."
)
_SEVERE = re.compile(r"\s*(?:Game Loss|Match Loss|Disqualification)\b", re.IGNORECASE)
_HEAD_JUDGE_EXEMPT = frozenset(
    name.casefold()
    for full in ("Tardiness", "Decklist Problem")
    for name in (full, *INFRACTION_ALIASES.get(full, ()))
)
AT_REGULAR = "At Regular"  # where a fix's JAR part begins (guides.pages shows it first at Regular)


# A ruling or fix that already sends the call to the Head Judge ("call the head judge, who
# investigates", "report to the head judge"), where the note would say it twice.
_SENDS = re.compile(
    r"\b(?:call|report(?:ed)?|refer(?:red)?)\s+(?:it\s+)?(?:to\s+)?the head judge", re.I
)


def sends_to_head_judge(text: str) -> bool:
    return bool(_SENDS.search(text))


def head_judge_exempt(infraction: str) -> bool:
    """Tardiness and Decklist Problem, whose Game Losses floor judges issue (IPG 1.2)."""
    return infraction.strip().casefold() in _HEAD_JUDGE_EXEMPT


def without_head_judge(fix: str) -> str:
    """`fix` without the note with_head_judge adds (a stored call says it from the penalty it
    records, which an edit may change)."""
    return " ".join(fix.replace(HEAD_JUDGE_NOTE, "").split()) if HEAD_JUDGE_NOTE in fix else fix


def needs_head_judge(penalty: str, infraction: str, said: str) -> bool:
    """Whether IPG 1.2's word to report to the Head Judge goes with `penalty`: a Game Loss or
    more, not for Tardiness or Decklist Problem, and not where `said` (the ruling and fix) already
    sends the call there. The guides' conclusions (with_head_judge) and a stored call
    (calllog.models.Call.head_judge_note) ask it alike."""
    return (
        bool(_SEVERE.match(penalty or ""))
        and not head_judge_exempt(infraction)
        and not sends_to_head_judge(said)
    )


def with_head_judge(fix: str, ruling: str, penalty: Penalty, infraction: str) -> str:
    """A conclusion's fix with IPG 1.2's word to report a Game Loss or higher to the Head Judge,
    said in the IPG's part of the fix (before "At Regular ..."), where the penalty at Competitive
    is one and the conclusion does not already send the call to the Head Judge; Tardiness and
    Decklist Problem, which floor judges issue, are the exceptions."""
    if not needs_head_judge(penalty.competitive, infraction, f"{fix} {ruling}"):
        return fix
    start = fix.find(AT_REGULAR)
    if start <= 0:
        return f"{fix.rstrip()} {HEAD_JUDGE_NOTE}"
    return f"{fix[:start].rstrip()} {HEAD_JUDGE_NOTE} {fix[start:]}"


# --- the graph ------------------------------------------------------------------------------------


def successors(node: Node) -> list[str]:
    """Every node id this node can continue at."""
    if node.kind is NodeKind.QUESTION:
        return [a.next for a in node.answers]
    if node.kind is NodeKind.INPUT:
        return [node.next]
    if node.kind in (NodeKind.COMPUTE, NodeKind.SWITCH):
        return [target for _, target in node.branches] + ([node.next] if node.next else [])
    return []


def check_graph(guide: Guide) -> None:
    """Every target is a node, every node is reachable from start, and every node can reach
    a conclusion."""
    src = guide.source
    if guide.start not in guide.nodes:
        raise GuideError(src, "", f"start {guide.start!r} is not a node")
    for node in guide.nodes.values():
        for target in successors(node):
            if target not in guide.nodes:
                raise GuideError(src, node.id, f"leads to {target!r}, which is not a node")
    reached = _reach([guide.start], lambda n: successors(guide.nodes[n]))
    for node_id in guide.nodes:
        if node_id not in reached:
            raise GuideError(src, node_id, "unreachable from start")
    predecessors: dict[str, list[str]] = {n: [] for n in guide.nodes}
    for node in guide.nodes.values():
        for target in successors(node):
            predecessors[target].append(node.id)
    ends = [n.id for n in guide.nodes.values() if n.kind is NodeKind.CONCLUSION]
    if not ends:
        raise GuideError(src, "", "a guide needs at least one conclusion")
    finishing = _reach(ends, lambda n: predecessors[n])
    for node_id in guide.nodes:
        if node_id not in finishing:
            raise GuideError(src, node_id, "can never reach a conclusion (a cycle with no way out)")
    switches = {n.id for n in guide.nodes.values() if n.kind is NodeKind.SWITCH}
    for node_id in switches:  # switches pass through without an answer: a ring of them never stops
        if node_id in _reach(
            [t for t in successors(guide.nodes[node_id]) if t in switches],
            lambda n: [t for t in successors(guide.nodes[n]) if t in switches],
        ):
            raise GuideError(
                src, node_id, "switch nodes lead back to themselves without an answer in between"
            )


def _reach(roots: Iterable[str], step: Callable[[str], Iterable[str]]) -> set[str]:
    seen, todo = set(roots), list(roots)
    while todo:
        for nxt in step(todo.pop()):
            if nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    return seen


def all_refs(guide: Guide) -> list[str]:
    """Every pinned reference the guide cites, in node order, without duplicates."""
    return list(dict.fromkeys(ref for node in guide.nodes.values() for ref in node.refs))


def validate_references(guide: Guide, resolve: Callable[[str], Any]) -> list[str]:
    """Problems with the guide's references in the current rules, one message each (empty:
    all resolve).

    ``resolve`` is rulesref.references.resolve in the service (kept a parameter so this stays pure);
    a reference fails when resolve raises LookupError or ValueError (rulesref's ReferenceError) or
    returns something whose ``number`` is None (the rule is gone).
    """
    return [message for message, _ in reference_problems(guide, resolve)]


def reference_problems(guide: Guide, resolve: Callable[[str], Any]) -> list[tuple[str, bool]]:
    """validate_references with each message's kind: (message, gone), gone when the reference
    resolves but the current version no longer has the rule (a publish removed it; the guide still
    runs and its citation says so), not when it cannot be resolved at all."""
    problems: list[tuple[str, bool]] = []
    for node in guide.nodes.values():
        for ref in node.refs:
            try:
                resolved = resolve(ref)
            except (LookupError, ValueError) as exc:
                # the resolver's own error says what is missing
                problems.append((f"{guide.source} [{node.id}]: {ref}: {exc}", False))
                continue
            if getattr(resolved, "number", "") is None:
                problems.append(
                    (
                        f"{guide.source} [{node.id}]: {ref} names a rule that is gone from the "
                        "current version",
                        True,
                    )
                )
    return problems
