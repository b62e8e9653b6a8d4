"""Loop requests and outcomes: the frozen records the loop engine takes and returns."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum
from typing import Any

MAX_COUNT = 10**18  # iteration counts and counter values above this are refused
MAX_PLAYERS = 16
MAX_ACTIONS = 64
DEFAULT_LIFE = 20
POISON_THRESHOLD = 10  # CR 104.3d
DECLARATION_WORDS = ("accept", "indefinitely", "no_action")
# Counters that are never below 0 (refused in a request's state and a set), and with life the
# counters the game's rules read (CR 107.1b: an amount read for them is never negative).
NOT_NEGATIVE = ("library", "poison", "cards_drawn", "tokens")
GAME_COUNTERS = ("life", *NOT_NEGATIVE)


class ActionKind(str, Enum):
    OPTIONAL = "optional"
    MANDATORY = "mandatory"
    UNLESS = "unless"


class LoopKind(str, Enum):
    MANDATORY = "mandatory"
    MAINTAINED_BY_ONE = "maintained_by_one"
    MAINTAINED_BY_SEVERAL = "maintained_by_several"
    FRAGMENTED = "fragmented"
    NON_DETERMINISTIC = "non_deterministic"


@dataclass(frozen=True)
class Change:
    """One effect of an action on one player's counter, applied once per iteration."""

    player: str
    counter: str
    op: str = "add"  # "add", "times", "set" or "per"
    amount: int = 0  # the change, the factor or the value set
    source: tuple[str, str] | None = None  # (player, counter) read by "per"

    @property
    def linear(self) -> bool:
        return self.op == "add"

    @property
    def arithmetic(self) -> bool:
        """Answered by arithmetic: an addition that never stops at 0. Removing poison counters
        does (a player can't have fewer than none), so such a loop is played out."""
        return self.linear and not (self.counter == "poison" and self.amount < 0)


@dataclass(frozen=True)
class Action:
    player: str
    kind: ActionKind
    text: str = ""
    unless_player: str | None = None
    changes: tuple[Change, ...] = ()


@dataclass(frozen=True)
class Breaker:
    player: str
    text: str = ""


@dataclass(frozen=True)
class PartialCount:
    """MTR 4.4: ``iterations`` whole iterations, then the next one performed only up to and
    including ``after_action``."""

    iterations: int
    # index into the iteration's actions; never the last one (that is a whole iteration)
    after_action: int

    def to_json(self) -> dict[str, int]:
        return {"iterations": self.iterations, "after_action": self.after_action}


# a number, "accept", "indefinitely", "no_action", or a partial count
Declaration = int | str | PartialCount


def count_key(value: Declaration) -> tuple[int, int] | None:
    """Where a declared count stops the loop, comparable across forms; None for the words."""
    if isinstance(value, PartialCount):
        return (value.iterations, value.after_action)
    if isinstance(value, int):
        return (value, -1)
    return None


@dataclass(frozen=True)
class LoopRequest:
    players: tuple[str, ...]  # turn order, active player first
    state: Mapping[str, Mapping[str, int]]
    iteration: tuple[Action, ...]
    breakers: tuple[Breaker, ...] = ()
    deterministic: bool = True
    spans_turns: bool = False
    declared: Mapping[str, Declaration] | None = None
    restarted_without_change: bool = False  # MTR 4.4: restarted without a relevant change
    fragmented: bool | None = None  # None: inferred (two or more players, state repeats)
    poison_threshold: int = POISON_THRESHOLD


@dataclass(frozen=True)
class GameOver:
    winners: tuple[str, ...]
    losers: tuple[str, ...]
    draw: bool
    # iteration during which state-based actions ended the game; 0 = before it; None = endless loop
    after_iteration: int | None
    # index into ``iteration`` of the action after which they did; None = before the loop
    after_action: int | None

    def to_dict(self) -> dict[str, Any]:
        return {
            "winners": list(self.winners),
            "losers": list(self.losers),
            "draw": self.draw,
            "after_iteration": self.after_iteration,
            "after_action": self.after_action,
        }


@dataclass(frozen=True)
class Loss:
    """The first state-based action check at which one or more players lose."""

    iteration: int  # 1-based; 0 = before the first iteration
    action: int | None  # index of the action just performed
    reasons: Mapping[str, tuple[str, ...]]  # player -> "life", "poison", "empty_library"


@dataclass(frozen=True)
class LoopOutcome:
    loop_kind: LoopKind
    shortcut_allowed: bool
    iterations: int | None
    stopped_by: str | None
    must_deviate: str | None
    draw: bool
    game_over: GameOver | None
    final_state: Mapping[str, Mapping[str, int]] | None
    explanation: str
    citations: tuple[str, ...]
    maintainers: tuple[str, ...] = ()
    # receives_priority, breaks_loop, makes_different_choice, must_name_number, must_stop,
    # cannot_continue (an action would spend a token its player doesn't have)
    stop_kind: str | None = None
    declarations: tuple[tuple[str, Declaration], ...] = ()  # in the order they are made
    # first loss if the loop ran on unchecked (None: never, or unknown)
    ends_game_after: Loss | None = None
    eliminated: tuple[str, ...] = ()  # players who lost while others play on
    method: str = "arithmetic"  # or "step_by_step"
    gave_up: bool = False
    cycle: tuple[int, int] | None = None  # (first iteration of the repeated state, cycle length)
    refused: bool = False
    then_actions: int = 0  # actions of one more, partial, iteration after ``iterations`` (MTR 4.4)
    # per player and condition; linear loops only
    thresholds: Mapping[str, Mapping[str, int | None]] | None = None
    steps: tuple[str, ...] = ()
    # "mtr" (MTR 4.4, which prevails in tournaments, CR 729.1c) or "cr"
    decided_by: str | None = None

    def to_dict(self) -> dict[str, Any]:
        """The API's result fields (plus extras), JSON-ready; citations stay pinned strings."""
        ends = self.ends_game_after
        return {
            "loop_kind": self.loop_kind.value,
            "shortcut_allowed": self.shortcut_allowed,
            "iterations": self.iterations,
            "stopped_by": self.stopped_by,
            "must_deviate": self.must_deviate,
            "draw": self.draw,
            "game_over": self.game_over.to_dict() if self.game_over else None,
            "final_state": {p: dict(c) for p, c in self.final_state.items()}
            if self.final_state is not None
            else None,
            "explanation": self.explanation,
            "citations": list(self.citations),
            "maintainers": list(self.maintainers),
            "stop_kind": self.stop_kind,
            "declarations": [
                {"player": p, "declared": d.to_json() if isinstance(d, PartialCount) else d}
                for p, d in self.declarations
            ],
            "ends_game_after": None
            if ends is None
            else {
                "iteration": ends.iteration,
                "action": ends.action,
                "losers": {p: list(r) for p, r in ends.reasons.items()},
            },
            "eliminated": list(self.eliminated),
            "method": self.method,
            "gave_up": self.gave_up,
            "cycle": None
            if self.cycle is None
            else {"start": self.cycle[0], "length": self.cycle[1]},
            "refused": self.refused,
            "then_actions": self.then_actions,
            "thresholds": None
            if self.thresholds is None
            else {p: dict(t) for p, t in self.thresholds.items()},
            "steps": list(self.steps),
            "decided_by": self.decided_by,
        }
