"""The shape of a guided flow: frozen records read from one TOML file per guide (definitions/).

A guide is a decision tree a floor judge walks at the table. Node kinds:

- question:   `text`, `answers = [{label, next, set?}]` — `set` records facts for later nodes
              (e.g. `set = {rel = "competitive"}`), so a compute node can build its request.
- input:      `text`, `field` (a fact name), `input` ("int", "text", "players", "choice"), optional
              `choices`, `min`, `max`, `default`; continues at `next`.
- compute:    `computation` ("loop-outcome", "game-outcome", "shuffle-analysis", "shuffle-check"),
              `request` (a TOML table whose string values "$fact" are replaced by gathered facts),
              `branch_on` (a dotted path into the result, e.g. "loop_kind" or "infraction"),
              `branches` ({result value = node id}), `default` (node id when no branch matches);
              the result is kept as fact "result" so conclusions can show its explanation.
- switch:     `branch_on` (a dotted path into the facts, e.g. "result.game_over" or "rel"), `branches`,
              `default`: passed through at once, without an answer (several tests on one computed result).
- conclusion: `ruling`, `fix`, `penalty = {regular, competitive, professional}`, `refs` (pinned
              references, "cr@2025-02-07:729.4"), optional `show_result` (fields of the computed
              result to show, e.g. ["explanation"]), optional `infraction` (IPG short name, e.g. "GRV",
              for the call log's upgrade rules) and `category` (e.g. "game_play_error"), optional
              `upgrades` (sentences: the upgrades and downgrades the IPG gives for this infraction, e.g. a
              repeat) and `see_also` ("infraction-finder:te": the question of another guide where the
              judge goes on when this guide's call is not the whole story).

A guide may give `facts` (a table of starting facts: defaults that answers overwrite), so a compute
node's request can name facts that only some paths ask for.

Every node may carry `refs` (shown beside the question) and `help` (a short hint for the judge).
Pure: standard library only.
"""  # noqa: E501

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import Any

RELS = ("regular", "competitive", "professional")
COMPUTATIONS = ("loop-outcome", "game-outcome", "shuffle-analysis", "shuffle-check")


class NodeKind(str, Enum):
    QUESTION = "question"
    INPUT = "input"
    COMPUTE = "compute"
    SWITCH = "switch"
    CONCLUSION = "conclusion"


@dataclass(frozen=True)
class Answer:
    label: str
    next: str
    set: tuple[tuple[str, Any], ...] = ()  # facts this answer records
    group: str = ""  # the heading a long list of answers shows it under ("" when not grouped)


@dataclass(frozen=True)
class Penalty:
    regular: str
    competitive: str
    professional: str


@dataclass(frozen=True)
class Node:
    id: str
    kind: NodeKind
    text: str = ""  # question / input prompt
    help: str = ""
    refs: tuple[str, ...] = ()
    answers: tuple[Answer, ...] = ()  # question
    field: str = ""  # input
    input: str = ""  # input: int | text | players | choice
    choices: tuple[str, ...] = ()
    minimum: int | None = None
    maximum: int | None = None
    default: Any = None
    next: str = ""  # input, and compute's fallback when `default` is empty
    computation: str = ""  # compute
    request: tuple[tuple[str, Any], ...] = ()
    branch_on: str = ""
    branches: tuple[tuple[str, str], ...] = ()
    ruling: str = ""  # conclusion
    fix: str = ""
    penalty: Penalty | None = None
    show_result: tuple[str, ...] = ()
    infraction: str = ""
    category: str = ""
    # conclusion: what a repeat or a circumstance brings (the IPG's words)
    upgrades: tuple[str, ...] = ()
    see_also: str = ""  # conclusion: "guide-slug:question-id", where to go on for other calls


@dataclass(frozen=True)
class Guide:
    slug: str
    title: str
    summary: str
    start: str
    nodes: dict[str, Node] = field(default_factory=dict)
    source: str = ""  # file it was read from, for error messages
    # starting facts (defaults), overwritten by answers' `set`
    facts: tuple[tuple[str, Any], ...] = ()
