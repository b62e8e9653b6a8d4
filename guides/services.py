"""Guide services: the guides loaded once, a walk through one (computations run inline), guides as
API data with citations resolved in the current rules, and the guides a new rules version affects.

Computations met on a walk run synchronously through the engines (jobs.services.COMPUTATIONS:
validate + run + resolve_citations; shuffle-check through services.check_shuffle), not as job rows:
a walk is replayed from its answers on every request (the database keeps only the slug and the
answers), so a job per replay would store the same deterministic result again and again and, with a
real broker, make every step wait on a worker. The engines are pure and carry their own budgets from
settings (JUDGEAPP_LOOP_MAX_STEPS, JUDGEAPP_SHUFFLE_MAX_SAMPLES), so running them in the request is
bounded; engine outcomes are memoised per (computation, request) for the process.
"""

from __future__ import annotations

import json
from collections import OrderedDict
from collections.abc import Callable, Mapping
from functools import lru_cache
from typing import Annotated, Any, ClassVar

from pydantic import BeforeValidator, Field

from engines.validation import Invalid, Shape
from guides import citation_parts, links, loader, result_words, runner
from guides.schema import Guide, Node, NodeKind
from jobs import services
from rulesref import references

_MEMO_SIZE = 256
_memo: OrderedDict[str, dict] = OrderedDict()


class UnknownGuide(LookupError):
    pass


class WalkError(ValueError):
    """A walk that cannot go on: ``field`` names the answer ("answers[3]") or "answers" for
    the list."""

    def __init__(self, field: str, message: str) -> None:
        self.field = field
        self.message = message
        super().__init__(f"{field}: {message}")


@lru_cache(maxsize=1)
def guides() -> dict[str, Guide]:
    """Every guide in judgeapp/guides/definitions, by slug (read once per process; the system check
    has already refused broken files at start-up)."""
    return loader.load_all(loader.DEFINITIONS)


def get_guide(slug: str) -> Guide:
    try:
        return guides()[slug]
    except KeyError:
        raise UnknownGuide(f"no guide {slug!r}") from None


def run_step(
    computation: str, request: Mapping[str, Any], before_engine: Callable[[], None] | None = None
) -> dict:
    """One compute node's computation, run now, with citations resolved (InvalidRequest names
    the field). `before_engine` is called before an engine runs (not for a memoised outcome nor
    the shuffle check): the caller's rate limit on computations, which may raise."""
    if computation == "shuffle-check":
        return services.check_shuffle(dict(request))  # cheap and pure: not memoised
    key = computation + json.dumps(request, sort_keys=True, default=str)
    if key not in _memo:
        parsed = services.validate_request(computation, dict(request))
        if before_engine is not None:
            before_engine()
        _memo[key] = services.outcome_dict(services.COMPUTATIONS[computation]().run(parsed))
        while len(_memo) > _MEMO_SIZE:
            _memo.popitem(last=False)
    _memo.move_to_end(key)
    # The engine's outcome (pinned references) is memoised; citations are resolved each time, in the
    # rules current now.
    return services.resolve_citations(json.loads(json.dumps(_memo[key])))


ANSWERS_LIST = "must be a list of answers (an answer's index or label, or an input's value)"


def _answers(value: Any) -> list[Any]:
    if not isinstance(value, list):
        raise Invalid(ANSWERS_LIST)
    return value


class WalkRequest(Shape):
    """POST /api/v1/guides/{slug}/walk: the answers given so far. Each answer is checked against the
    node it is given at, as the walk reaches it (WalkError names it: "answers[3]")."""

    not_object: ClassVar[str] = "must be a JSON object"
    answers: Annotated[
        list[
            Annotated[
                Any,
                Field(
                    description=(
                        "an answer's index or label, or an input's value: it must answer the "
                        "question the walk has reached by then (the guide's own, GET "
                        "/api/v1/guides/{slug})"
                    ),
                    json_schema_extra={
                        "anyOf": [{"type": "string"}, {"type": "number"}, {"type": "boolean"}]
                    },
                ),
            ]
        ],
        BeforeValidator(_answers),
    ] = Field(default_factory=list, description="the answers given so far, in order")


def replay(
    slug: str, answers: Any, before_engine: Callable[[], None] | None = None
) -> tuple[Guide, runner.GuideState]:
    guide = get_guide(slug)
    if not isinstance(answers, list):
        raise WalkError("answers", ANSWERS_LIST)
    consumed = 0

    def compute(computation: str, request: Mapping[str, Any]) -> dict:
        try:
            return run_step(computation, request, before_engine)
        except services.InvalidRequest as exc:
            # The request was built from the answers: the last answer given is the one to look at.
            field = f"answers[{consumed - 1}]" if consumed else "answers"
            raise WalkError(
                field, f"{computation} refused the facts gathered: {exc.field}: {exc.message}"
            ) from None

    state = runner.run_pending(guide, runner.start(guide), compute)
    for i, answer in enumerate(answers):
        consumed = i + 1
        try:
            state = runner.advance(guide, state, answer)
        except runner.AnswerError as exc:
            raise WalkError(f"answers[{i}]", exc.message) from None
        state = runner.run_pending(guide, state, compute)
    return guide, state


def walk(slug: str, answers: Any, before_engine: Callable[[], None] | None = None) -> dict:
    """Where the answers lead: the current node (citations resolved), the path, the facts gathered
    and the last computed result. Raises UnknownGuide or WalkError (and what `before_engine`
    raises: see run_step)."""
    guide, state = replay(slug, answers, before_engine)
    node = guide.nodes[state.node_id]
    facts = {k: v for k, v in state.facts.items() if k not in ("result", "results")}
    return {
        "slug": guide.slug,
        "node_id": node.id,
        "node": node_data(node, result=state.result),
        "finished": node.kind is NodeKind.CONCLUSION,
        "answers": list(state.answers),
        "path": list(state.path),
        "facts": facts,
        "result": state.result,
    }


# --- guides as data (docs/API.md "Guides") --------------------------------------------------------


def guide_list() -> list[dict]:
    return [{"slug": g.slug, "title": g.title, "summary": g.summary} for g in guides().values()]


_guide_data: dict[tuple[str, tuple[int, ...]], dict] = {}


def guide_data(slug: str) -> dict:
    """The whole guide as data, citations resolved; kept per process until a rules version is
    published or rolled back (the key holds the current versions)."""
    from rulesref.models import Version

    guide = get_guide(slug)
    key = (
        slug,
        tuple(Version.objects.filter(is_current=True).order_by("pk").values_list("pk", flat=True)),
    )
    if key not in _guide_data:
        if len(_guide_data) > 64:
            _guide_data.clear()
        _guide_data[key] = {
            "slug": guide.slug,
            "title": guide.title,
            "summary": guide.summary,
            "start": guide.start,
            # starting facts, so a client can run switch steps without the server (offline)
            "facts": json.loads(json.dumps(dict(guide.facts), default=str)),
            "nodes": {node_id: node_data(node) for node_id, node in guide.nodes.items()},
        }
    return json.loads(json.dumps(_guide_data[key]))


def node_data(node: Node, *, result: Mapping[str, Any] | None = None) -> dict:
    data: dict[str, Any] = {"id": node.id, "kind": node.kind.value}
    if node.text:
        data["text"] = node.text
    if node.help:
        data["help"] = node.help
    data["refs"] = list(node.refs)
    data["citations"] = citation_parts.with_parts(references.citations(list(node.refs)))
    if node.kind is NodeKind.QUESTION:
        data["answers"] = [
            {
                "label": a.label,
                "next": a.next,
                **({"set": dict(a.set)} if a.set else {}),
                **({"group": a.group} if a.group else {}),
            }
            for a in node.answers
        ]
    elif node.kind is NodeKind.INPUT:
        data.update(
            field=node.field,
            input=node.input,
            choices=list(node.choices),
            min=node.minimum,
            max=node.maximum,
            default=node.default,
            next=node.next,
        )
    elif node.kind in (NodeKind.COMPUTE, NodeKind.SWITCH):
        if node.kind is NodeKind.COMPUTE:
            data.update(computation=node.computation, request=dict(node.request))
        data.update(
            branch_on=node.branch_on,
            branches=[{"value": value, "next": target} for value, target in node.branches],
            next=node.next or None,
        )
    else:
        assert node.penalty is not None
        data.update(
            ruling=node.ruling,
            fix=node.fix,
            penalty={
                "regular": node.penalty.regular,
                "competitive": node.penalty.competitive,
                "professional": node.penalty.professional,
            },
            infraction=node.infraction,
            category=node.category,
            show_result=list(node.show_result),
            upgrades=list(node.upgrades),
        )
        if node.see_also:
            data["see_also"] = hand_over(node.see_also)
        if result is not None and node.show_result:
            data["shown"] = {name: runner.dig(result, name) for name in node.show_result}
            # The same in words, for the page (never a raw dict): [{"name", "label", "lines"}].
            data["shown_text"] = [
                {"name": name, "label": result_words.label(name), "lines": lines}
                for name, value in data["shown"].items()
                if (lines := result_words.describe(name, value))
            ]
    return data


def hand_over(target: str) -> dict:
    """A conclusion's `see_also` ("infraction-finder:te") as a link: the guide, the question, and
    the answers (indices) that reach it from the guide's start, so a page opens it at
    that question."""
    slug, _, node_id = target.partition(":")
    other = get_guide(slug)
    return {
        "guide": slug,
        "title": other.title,
        "node": node_id,
        "text": other.nodes[node_id].text,
        "answers": links.path_to(other, node_id) or [],
    }


# --- rules versions -------------------------------------------------------------------------------


def reference_problems() -> list[str]:
    """Every guide reference that does not resolve in the current rules (the system
    check's list)."""
    problems: list[str] = []
    for guide in guides().values():
        problems += loader.validate_references(guide, references.resolve)
    return problems


def cited_references() -> list[str]:
    """Every pinned reference the guides cite (registered with rulesref.citing by guides.apps)."""
    return sorted({ref for guide in guides().values() for ref in loader.all_refs(guide)})


def guides_affected(old_version, new_version) -> list[dict]:
    """For the admin's review of a new version: the guides citing rules that moved or changed
    between the two versions, each reference with its nodes and the old and new number and text side
    by side."""
    affected = []
    for guide in guides().values():
        refs = loader.all_refs(guide)
        rows = references.review_changes(refs, old_version, new_version)
        if not rows:
            continue
        for row in rows:
            row["nodes"] = [n.id for n in guide.nodes.values() if row["ref"] in n.refs]
        affected.append({"slug": guide.slug, "title": guide.title, "changes": rows})
    return affected
