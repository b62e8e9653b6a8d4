"""Loop outcomes: how a repeating sequence of game actions is shortcut, who stops it, and how it ends.

Rules encoded (CR 2025-02-07 numbering, MTR of 2019-06-06): a shortcut names a number of iterations and
the other players accept or shorten it, the lowest number wins (CR 729.2a-c, MTR 4.4); a fragmented loop
makes the active player, or the first involved player in turn order, choose differently (CR 729.3); a
loop of only mandatory actions is a draw (CR 729.4, 104.4b) unless state-based actions end the game
first (CR 704.5a-c) or end it for everyone at once (CR 104.4a); nobody is forced to use an action
outside the loop to end it (CR 729.5); "[A] unless [B]" repeats as if [A] were mandatory unless someone
chooses [B] (CR 729.6); across turns, "indefinitely" by everyone is a draw, non-deterministic loops
cannot be shortcut and a shortcut loop cannot be restarted without a relevant change (MTR 4.4).

Model:
- ``state`` holds counters per player (life, poison, library, any other name). Missing life is 20,
  missing poison and other counters are 0; library has no default and is required once a loop draws.
- Each action's ``effects`` change counters once per iteration. A whole number is a linear change; an
  object is a non-linear one: ``{"times": k}`` (multiply), ``{"set": n}``, or
  ``{"per": {"player": P, "counter": C}, "factor": f}`` (add f times P's C as it was when the action began).
- A negative ``library`` change of k is drawing k cards (``cards_drawn`` given without ``library`` is
  read as the same draw). When the library would go below 0 the player drew from an empty library
  (CR 104.3c): the library stays at 0 and the player loses at the next state-based action check.
- Granularity: each action is one event after which a player would receive priority, so state-based
  actions (CR 704.3) are checked after every action of every iteration, and at the start.
- Linear loops are answered by arithmetic: for every player, condition and action the first iteration
  that crosses a threshold is one division, so 10^18 iterations cost what 10 cost. Non-linear loops are
  played out action by action up to ``max_steps`` actions, watching for a repeated state (a cycle that
  never ends the game); running out of budget is reported as ``gave_up``, not raised.
- In a game of three or more, a player who loses leaves (CR 104.5, 800.4) and the loop stops there, as
  the objects that player owned leave too: the result lists them in ``eliminated`` and the remaining
  players must describe the loop again.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from judgeapp.engines import citations as cite
from judgeapp.engines.errors import RequestError

MAX_COUNT = 10**18        # iteration counts and counter values above this are refused
MAX_PLAYERS = 16
MAX_ACTIONS = 64
DEFAULT_LIFE = 20
POISON_THRESHOLD = 10     # CR 104.3d
DECLARATION_WORDS = ("accept", "indefinitely", "no_action")


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
    op: str = "add"                         # "add", "times", "set" or "per"
    amount: int = 0                         # the change, the factor or the value set
    source: tuple[str, str] | None = None   # (player, counter) read by "per"

    @property
    def linear(self) -> bool:
        return self.op == "add"


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
class LoopRequest:
    players: tuple[str, ...]                       # turn order, active player first
    state: Mapping[str, Mapping[str, int]]
    iteration: tuple[Action, ...]
    breakers: tuple[Breaker, ...] = ()
    deterministic: bool = True
    spans_turns: bool = False
    declared: Mapping[str, int | str] | None = None
    restarted_without_change: bool = False         # MTR 4.4: restarted without a relevant change
    fragmented: bool | None = None                  # None: inferred (two or more players, state repeats)
    poison_threshold: int = POISON_THRESHOLD


@dataclass(frozen=True)
class GameOver:
    winners: tuple[str, ...]
    losers: tuple[str, ...]
    draw: bool
    after_iteration: int | None   # iteration during which state-based actions ended the game; 0 = before it; None = endless loop
    after_action: int | None      # index into ``iteration`` of the action after which they did; None = before the loop

    def to_dict(self) -> dict[str, Any]:
        return {"winners": list(self.winners), "losers": list(self.losers), "draw": self.draw,
                "after_iteration": self.after_iteration, "after_action": self.after_action}


@dataclass(frozen=True)
class Loss:
    """The first state-based action check at which one or more players lose."""

    iteration: int                               # 1-based; 0 = before the first iteration
    action: int | None                           # index of the action just performed
    reasons: Mapping[str, tuple[str, ...]]       # player -> "life", "poison", "empty_library"


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
    stop_kind: str | None = None     # receives_priority, breaks_loop, makes_different_choice, must_name_number, must_stop
    declarations: tuple[tuple[str, int | str], ...] = ()   # in the order they are made
    ends_game_after: Loss | None = None   # first loss if the loop ran on unchecked (None: never, or unknown)
    eliminated: tuple[str, ...] = ()      # players who lost while others play on
    method: str = "arithmetic"            # or "step_by_step"
    gave_up: bool = False
    cycle: tuple[int, int] | None = None  # (first iteration of the repeated state, cycle length)
    refused: bool = False
    steps: tuple[str, ...] = ()

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
            "final_state": {p: dict(c) for p, c in self.final_state.items()} if self.final_state is not None else None,
            "explanation": self.explanation,
            "citations": list(self.citations),
            "maintainers": list(self.maintainers),
            "stop_kind": self.stop_kind,
            "declarations": [{"player": p, "declared": d} for p, d in self.declarations],
            "ends_game_after": None if ends is None else {
                "iteration": ends.iteration, "action": ends.action,
                "losers": {p: list(r) for p, r in ends.reasons.items()}},
            "eliminated": list(self.eliminated),
            "method": self.method,
            "gave_up": self.gave_up,
            "cycle": None if self.cycle is None else {"start": self.cycle[0], "length": self.cycle[1]},
            "refused": self.refused,
            "steps": list(self.steps),
        }


# ---------------------------------------------------------------------------------------------- validation

def _int(value: Any, name: str, *, low: int = -MAX_COUNT, high: int = MAX_COUNT) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise RequestError(name, f"must be a whole number, not {value!r}")
    if value < low:
        raise RequestError(name, f"must be at least {low}" if low else "must not be negative")
    if value > high:
        raise RequestError(name, f"must be at most {high:,}")
    return value


def _bool(data: Mapping[str, Any], key: str, default: bool) -> bool:
    value = data.get(key, default)
    if value is None:
        return default
    if not isinstance(value, bool):
        raise RequestError(key, "must be true or false")
    return value


def _text(value: Any, name: str) -> str:
    if value is None:
        return ""
    if not isinstance(value, str):
        raise RequestError(name, "must be text")
    return value


def _player(value: Any, name: str, players: Sequence[str]) -> str:
    if value is None:
        raise RequestError(name, "is required")
    if value not in players:
        raise RequestError(name, f"{value!r} is not one of the players {list(players)}")
    return value


def _players(data: Mapping[str, Any]) -> tuple[str, ...]:
    raw = data.get("players")
    if not isinstance(raw, list) or not raw:
        raise RequestError("players", "must be a non-empty list of player names in turn order")
    if len(raw) > MAX_PLAYERS:
        raise RequestError("players", f"at most {MAX_PLAYERS} players")
    for i, name in enumerate(raw):
        if not isinstance(name, str) or not name.strip():
            raise RequestError(f"players[{i}]", "must be a player name")
    if len(set(raw)) != len(raw):
        raise RequestError("players", "names must be different")
    if len(raw) < 2:
        raise RequestError("players", "a game has at least two players")
    return tuple(raw)


def _change(value: Any, name: str, player: str, counter: str, players: Sequence[str]) -> Change:
    if not isinstance(value, Mapping):
        return Change(player, counter, "add", _int(value, name))
    forms = [k for k in ("times", "set", "per") if k in value]
    unknown = set(value) - {"times", "set", "per", "factor"}
    if len(forms) != 1 or unknown:
        raise RequestError(name, 'an effect object takes exactly one of "times", "set" or "per" (with "factor")')
    if forms[0] == "times":
        return Change(player, counter, "times", _int(value["times"], f"{name}.times", low=0, high=10**6))
    if forms[0] == "set":
        return Change(player, counter, "set", _int(value["set"], f"{name}.set"))
    per = value["per"]
    if not isinstance(per, Mapping):
        raise RequestError(f"{name}.per", 'must be {"player": ..., "counter": ...}')
    source = (_player(per.get("player"), f"{name}.per.player", players), _counter_name(per.get("counter"), f"{name}.per.counter"))
    return Change(player, counter, "per", _int(value.get("factor", 1), f"{name}.factor", low=-10**6, high=10**6), source)


def _counter_name(value: Any, name: str) -> str:
    if not isinstance(value, str) or not value:
        raise RequestError(name, "must be a counter name such as life, poison or library")
    return value


def _action(data: Any, i: int, players: Sequence[str]) -> Action:
    name = f"iteration[{i}]"
    if not isinstance(data, Mapping):
        raise RequestError(name, "must be an object with player, kind and text")
    player = _player(data.get("player"), f"{name}.player", players)
    try:
        kind = ActionKind(data.get("kind"))
    except ValueError:
        raise RequestError(f"{name}.kind", "must be optional, mandatory or unless") from None
    unless_player = data.get("unless_player")
    if kind is ActionKind.UNLESS:
        unless_player = _player(unless_player, f"{name}.unless_player", players)
    elif unless_player is not None:
        raise RequestError(f"{name}.unless_player", 'only an action of kind "unless" names an unless_player')
    effects = data.get("effects") or {}
    if not isinstance(effects, Mapping):
        raise RequestError(f"{name}.effects", "must map player names to counter changes")
    changes: list[Change] = []
    for target, counters in effects.items():
        _player(target, f"{name}.effects.{target}", players)
        if not isinstance(counters, Mapping):
            raise RequestError(f"{name}.effects.{target}", "must map counter names to changes")
        for counter, value in counters.items():
            changes.append(_change(value, f"{name}.effects.{target}.{counter}", target, _counter_name(counter, f"{name}.effects.{target}"), players))
        drawn = counters.get("cards_drawn")
        if "library" not in counters and isinstance(drawn, int) and not isinstance(drawn, bool) and drawn > 0:
            changes.append(Change(target, "library", "add", -drawn))   # drawing cards empties the library
    return Action(player, kind, _text(data.get("text"), f"{name}.text"), unless_player, tuple(changes))


def _state(data: Any, players: Sequence[str], actions: Sequence[Action]) -> dict[str, dict[str, int]]:
    if data is None:
        data = {}
    if not isinstance(data, Mapping):
        raise RequestError("state", "must map player names to counters")
    for name in data:
        _player(name, f"state.{name}", players)
    state: dict[str, dict[str, int]] = {}
    for p in players:
        counters = data.get(p) or {}
        if not isinstance(counters, Mapping):
            raise RequestError(f"state.{p}", "must map counter names to numbers")
        own = {"life": DEFAULT_LIFE, "poison": 0}
        for counter, value in counters.items():
            low = 0 if counter in ("library", "poison", "cards_drawn", "tokens") else -MAX_COUNT
            own[_counter_name(counter, f"state.{p}")] = _int(value, f"state.{p}.{counter}", low=low)
        state[p] = own
    for i, action in enumerate(actions):
        for ch in action.changes:
            touched = [(ch.player, ch.counter)] + ([ch.source] if ch.source else [])
            for p, counter in touched:
                if counter == "library" and "library" not in state[p]:
                    raise RequestError(f"state.{p}.library", f"is needed: iteration[{i}] changes or reads {p}'s library")
                state[p].setdefault(counter, 0)
    return state


def _declared(data: Any, players: Sequence[str]) -> dict[str, int | str] | None:
    if data is None:
        return None
    if not isinstance(data, Mapping):
        raise RequestError("declared", "must map player names to a number of iterations or a word")
    out: dict[str, int | str] = {}
    for p, value in data.items():
        _player(p, f"declared.{p}", players)
        if isinstance(value, str):
            if value not in DECLARATION_WORDS:
                raise RequestError(f"declared.{p}", f"must be a number of iterations or one of {list(DECLARATION_WORDS)}")
            out[p] = value
        else:
            out[p] = _int(value, f"declared.{p}", low=0)
    return out


def validate_loop_request(data: Mapping[str, Any]) -> LoopRequest:
    """Check a loop-outcome request (the API's JSON) and build the typed request.

    Raises ``RequestError(field, message)`` naming the field: unknown players, bad kinds, negative or
    too-large counts (over 10^18), missing library for a loop that draws, and declarations that the
    loop rules do not allow for this kind of loop.
    """
    if not isinstance(data, Mapping):
        raise RequestError("body", "must be an object")
    players = _players(data)
    raw_iteration = data.get("iteration")
    if not isinstance(raw_iteration, list) or not raw_iteration:
        raise RequestError("iteration", "must list the actions of one iteration, in order")
    if len(raw_iteration) > MAX_ACTIONS:
        raise RequestError("iteration", f"at most {MAX_ACTIONS} actions")
    actions = tuple(_action(a, i, players) for i, a in enumerate(raw_iteration))
    raw_breakers = data.get("breakers") or []
    if not isinstance(raw_breakers, list):
        raise RequestError("breakers", "must be a list")
    breakers = []
    for i, b in enumerate(raw_breakers):
        if not isinstance(b, Mapping):
            raise RequestError(f"breakers[{i}]", "must be an object with player and text")
        breakers.append(Breaker(_player(b.get("player"), f"breakers[{i}].player", players), _text(b.get("text"), f"breakers[{i}].text")))
    fragmented = data.get("fragmented")
    if fragmented is not None and not isinstance(fragmented, bool):
        raise RequestError("fragmented", "must be true, false or null")
    request = LoopRequest(
        players=players,
        state=_state(data.get("state"), players, actions),
        iteration=actions,
        breakers=tuple(breakers),
        deterministic=_bool(data, "deterministic", True),
        spans_turns=_bool(data, "spans_turns", False),
        declared=_declared(data.get("declared"), players),
        restarted_without_change=_bool(data, "restarted_without_change", False),
        fragmented=fragmented,
        poison_threshold=_int(data.get("poison_threshold", POISON_THRESHOLD), "poison_threshold", low=1, high=1000),
    )
    check_declarations(request)
    return request


def check_declarations(request: LoopRequest) -> None:
    """Refuse declarations the loop rules do not allow for this loop (MTR 4.4, CR 729.2b)."""
    if request.declared is None:
        return
    kind = classify_loop(request)
    if kind in (LoopKind.FRAGMENTED, LoopKind.NON_DETERMINISTIC):
        return   # nobody names numbers for these; the declarations are ignored and the result says so
    maintainers = maintainers_of(request)
    for p, value in request.declared.items():
        if value == "indefinitely" and not request.spans_turns:
            raise RequestError(f"declared.{p}", '"indefinitely" is only for a loop across turns (spans_turns); within a turn name a number')
        if value == "indefinitely" and kind is LoopKind.MAINTAINED_BY_ONE:
            raise RequestError(f"declared.{p}", '"indefinitely" is for loops kept going by several players; here name a number or accept')
    if kind is LoopKind.MANDATORY:
        able = breakers_of(request)
        for p, value in request.declared.items():
            if isinstance(value, int) and p not in able:
                raise RequestError(f"declared.{p}", f"{p} names a number but has no listed way to break a loop of mandatory actions (add a breaker)")
        return
    for p in maintainers:
        value = request.declared.get(p)
        if not isinstance(value, int) and value != "indefinitely":
            raise RequestError(f"declared.{p}", f"{p} keeps the loop going and must name a number of iterations")
    if kind is LoopKind.MAINTAINED_BY_ONE:
        proposed = request.declared[maintainers[0]]
        for p, value in request.declared.items():
            if p != maintainers[0] and isinstance(value, int) and isinstance(proposed, int) and value > proposed:
                raise RequestError(f"declared.{p}", f"may accept {maintainers[0]}'s {proposed:,} iterations or name a lower number, not {value:,}")


# ------------------------------------------------------------------------------------------ classification

def maintainers_of(request: LoopRequest) -> tuple[str, ...]:
    """Players whose optional actions keep the loop going, in turn order."""
    involved = {a.player for a in request.iteration if a.kind is ActionKind.OPTIONAL}
    return tuple(p for p in request.players if p in involved)


def breakers_of(request: LoopRequest) -> tuple[str, ...]:
    """Players with a listed way to stop the loop: a breaker outside it or the [B] of "[A] unless [B]"."""
    able = {b.player for b in request.breakers} | {a.unless_player for a in request.iteration if a.unless_player}
    return tuple(p for p in request.players if p in able)


def _returns_to_same_state(request: LoopRequest) -> bool:
    net: dict[tuple[str, str], int] = {}
    for action in request.iteration:
        for ch in action.changes:
            if not ch.linear:
                return False
            net[(ch.player, ch.counter)] = net.get((ch.player, ch.counter), 0) + ch.amount
    return not any(net.values())


def classify_loop(request: LoopRequest) -> LoopKind:
    """MTR 4.4 names loops by who keeps them going; CR 729.3 adds fragmented loops.

    Two or more players each choosing to act, with the game back in the same state after an iteration
    (no counter changes on balance), is a fragmented loop unless the request says otherwise.
    """
    if not request.deterministic:
        return LoopKind.NON_DETERMINISTIC
    maintainers = maintainers_of(request)
    if not maintainers:
        return LoopKind.MANDATORY
    if len(maintainers) == 1:
        return LoopKind.MAINTAINED_BY_ONE
    fragmented = request.fragmented if request.fragmented is not None else _returns_to_same_state(request)
    return LoopKind.FRAGMENTED if fragmented else LoopKind.MAINTAINED_BY_SEVERAL


# ------------------------------------------------------------------------------------- thresholds and state

def _prefix_sums(request: LoopRequest) -> tuple[list[dict[tuple[str, str], int]], dict[tuple[str, str], int]]:
    """Change of every (player, counter) after each action of one iteration, and over the whole iteration."""
    running: dict[tuple[str, str], int] = {}
    prefixes = []
    for action in request.iteration:
        for ch in action.changes:
            running[(ch.player, ch.counter)] = running.get((ch.player, ch.counter), 0) + ch.amount
        prefixes.append(dict(running))
    return prefixes, running


def _first_at_most_zero(start: int, per_iteration: int) -> int | None:
    """Smallest n >= 0 with start + n * per_iteration <= 0, or None."""
    if start <= 0:
        return 0
    if per_iteration >= 0:
        return None
    step = -per_iteration
    return (start + step - 1) // step


def _initial_losses(request: LoopRequest) -> dict[str, list[str]]:
    reasons: dict[str, list[str]] = {}
    for p in request.players:
        if request.state[p]["life"] <= 0:
            reasons.setdefault(p, []).append("life")
        if request.state[p]["poison"] >= request.poison_threshold:
            reasons.setdefault(p, []).append("poison")
    return reasons


def first_loss_arithmetic(request: LoopRequest, limit: int | None) -> Loss | None:
    """First state-based action check, within ``limit`` iterations (None: unlimited), where a player loses.

    Linear effects only. For each player, condition and action, one division finds the first iteration
    at which that check fails (CR 704.5a life <= 0, 704.5c poison at the threshold, 704.5b a draw from an
    empty library); the earliest (iteration, action) wins and every player failing that same check loses
    at once. Cost does not depend on ``limit``.
    """
    initial = _initial_losses(request)
    if initial:
        return Loss(0, None, {p: tuple(r) for p, r in initial.items()})
    prefixes, total = _prefix_sums(request)
    best: tuple[int, int] | None = None
    found: dict[tuple[int, int], dict[str, list[str]]] = {}
    for j, prefix in enumerate(prefixes):
        for p in request.players:
            s = request.state[p]
            tests = [
                ("life", s["life"] + prefix.get((p, "life"), 0), total.get((p, "life"), 0)),
                ("poison", request.poison_threshold - s["poison"] - prefix.get((p, "poison"), 0), -total.get((p, "poison"), 0)),
            ]
            if "library" in s:   # library below 0 means a draw found no card: start + n*d <= -1
                tests.append(("empty_library", s["library"] + prefix.get((p, "library"), 0) + 1, total.get((p, "library"), 0)))
            for reason, start, per in tests:
                n = _first_at_most_zero(start, per)
                if n is None or (limit is not None and n >= limit):
                    continue
                key = (n, j)
                if best is None or key <= best:
                    best = key
                    found.setdefault(key, {}).setdefault(p, []).append(reason)
    if best is None:
        return None
    return Loss(best[0] + 1, best[1], {p: tuple(r) for p, r in found[best].items()})


def state_after(request: LoopRequest, iterations: int, action: int | None = None) -> dict[str, dict[str, int]]:
    """Counters after ``iterations`` whole iterations and then actions 0..``action`` of the next (linear effects).

    A library that went below 0 is shown as 0: the missing cards were never drawn (CR 104.3c).
    """
    prefixes, total = _prefix_sums(request)
    extra = prefixes[action] if action is not None else {}
    out = {}
    for p in request.players:
        counters = {}
        for counter, start in request.state[p].items():
            value = start + iterations * total.get((p, counter), 0) + extra.get((p, counter), 0)
            counters[counter] = max(value, 0) if counter == "library" else value
        out[p] = counters
    return out


def _apply(state: dict[str, dict[str, int]], action: Action) -> None:
    before = {p: dict(c) for p, c in state.items()} if any(ch.op == "per" for ch in action.changes) else state
    for ch in action.changes:
        value = state[ch.player][ch.counter]
        if ch.op == "add":
            value += ch.amount
        elif ch.op == "times":
            value *= ch.amount
        elif ch.op == "set":
            value = ch.amount
        else:
            assert ch.source is not None
            value += ch.amount * before[ch.source[0]][ch.source[1]]
        state[ch.player][ch.counter] = value


def _sba_losses(state: Mapping[str, Mapping[str, int]], players: Sequence[str], threshold: int) -> dict[str, tuple[str, ...]]:
    losses = {}
    for p in players:
        s = state[p]
        reasons = tuple(r for r, bad in (("life", s["life"] <= 0), ("poison", s["poison"] >= threshold),
                                         ("empty_library", s.get("library", 0) < 0)) if bad)
        if reasons:
            losses[p] = reasons
    return losses


@dataclass(frozen=True)
class Playout:
    loss: Loss | None
    iterations: int                     # whole iterations performed (or the one in which the loss happened)
    state: dict[str, dict[str, int]]
    gave_up: bool = False
    cycle: tuple[int, int] | None = None


def play_out(request: LoopRequest, limit: int | None, *, max_steps: int) -> Playout:
    """Perform the loop action by action, checking state-based actions after each action.

    Stops at the first loss, after ``limit`` iterations, when the state at the start of an iteration
    repeats (a cycle: the loop can never end the game), or after ``max_steps`` actions (``gave_up``).
    """
    state = {p: dict(c) for p, c in request.state.items()}
    initial = _initial_losses(request)
    if initial:
        return Playout(Loss(0, None, {p: tuple(r) for p, r in initial.items()}), 0, state)
    seen: dict[tuple, int] = {}
    steps = 0
    done = 0
    while limit is None or done < limit:
        key = tuple(tuple(sorted(state[p].items())) for p in request.players)
        if key in seen:
            return Playout(None, done, state, cycle=(seen[key] + 1, done - seen[key]))
        seen[key] = done
        for j, action in enumerate(request.iteration):
            if steps >= max_steps:
                return Playout(None, done, state, gave_up=True)
            steps += 1
            _apply(state, action)
            losses = _sba_losses(state, request.players, request.poison_threshold)
            if losses:
                _clamp_library(state)
                return Playout(Loss(done + 1, j, losses), done + 1, state)
        done += 1
    return Playout(None, done, state)


def _clamp_library(state: dict[str, dict[str, int]]) -> None:
    for counters in state.values():
        if counters.get("library", 0) < 0:
            counters["library"] = 0


# ---------------------------------------------------------------------------------------------- resolution

def _n(value: int) -> str:
    return f"{value:,}"


def _names(players: Sequence[str]) -> str:
    players = list(players)
    if len(players) <= 1:
        return "".join(players)
    return ", ".join(players[:-1]) + " and " + players[-1]


REASON_WORDS = {"life": "has 0 or less life", "poison": "has reached the poison counter limit",
                "empty_library": "had to draw from an empty library"}
REASON_CITES = {"life": (cite.LOSE_LIFE, cite.SBA_LIFE), "poison": (cite.LOSE_POISON, cite.SBA_POISON),
                "empty_library": (cite.LOSE_EMPTY_LIBRARY, cite.SBA_EMPTY_LIBRARY)}


def declaration_order(request: LoopRequest, kind: LoopKind, maintainers: Sequence[str]) -> tuple[str, ...]:
    """Who declares, in order: the proposer then the others in turn order (CR 729.2b), else turn order from the active player."""
    players = request.players
    if kind is LoopKind.MAINTAINED_BY_ONE:
        start = players.index(maintainers[0])
        return players[start:] + players[:start]
    return players


def _lowest(request: LoopRequest, order: Sequence[str], kind: LoopKind) -> tuple[int | None, str | None, tuple[tuple[str, int | str], ...]]:
    """The lowest number named and who named it first; the declarations in order (missing ones filled in)."""
    declared = request.declared or {}
    default = "no_action" if kind is LoopKind.MANDATORY else "accept"
    made = tuple((p, declared.get(p, default)) for p in order)
    lowest: int | None = None
    chooser: str | None = None
    for p, value in made:
        if isinstance(value, int) and (lowest is None or value < lowest):   # a tie does not shorten: first one keeps it
            lowest, chooser = value, p
    return lowest, chooser, made


@dataclass
class _Draft:
    """Mutable working copy of an outcome while sentences and citations are added."""

    kind: LoopKind
    maintainers: tuple[str, ...]
    sentences: list[str] = field(default_factory=list)
    cites: list[str] = field(default_factory=list)
    steps: list[str] = field(default_factory=list)

    def say(self, sentence: str, *refs: str) -> None:
        self.sentences.append(sentence)
        for ref in refs:
            if ref not in self.cites:
                self.cites.append(ref)


def _describe_kind(request: LoopRequest, d: _Draft) -> None:
    kind, m = d.kind, d.maintainers
    if kind is LoopKind.MANDATORY:
        d.say("Every action in this loop is mandatory: no player's choice keeps it going.", cite.LOOP_MANDATORY)
    elif kind is LoopKind.MAINTAINED_BY_ONE:
        d.say(f"{m[0]} alone keeps this loop going by choosing to repeat it; everything else in it is mandatory.", cite.MTR_LOOPS)
    elif kind is LoopKind.MAINTAINED_BY_SEVERAL:
        d.say(f"{_names(m)} each keep this loop going with their own choices.", cite.MTR_LOOPS)
    for a in request.iteration:
        if a.kind is ActionKind.UNLESS:
            d.say(f"\"{a.text or 'The unless action'}\" repeats as if it were mandatory unless {a.unless_player} chooses to do the "
                  f"other thing; nobody can be forced to do it.", cite.LOOP_UNLESS)
    if request.breakers:
        d.say("Nobody has to use an action outside the loop to end it: "
              + "; ".join(f"{b.player} may {b.text}" if b.text else f"{b.player} may act" for b in request.breakers) + ".",
              cite.LOOP_NOT_FORCED)


def _describe_loss(request: LoopRequest, loss: Loss, d: _Draft) -> tuple[GameOver | None, tuple[str, ...]]:
    """Sentences for the state-based actions that end the loop; the game over record or the eliminated players."""
    if loss.iteration == 0:
        where = "Before the loop begins"
    else:
        action = loss.action if loss.action is not None else 0
        label = request.iteration[action].text or f"action {action + 1}"
        where = f"During iteration {_n(loss.iteration)}, after \"{label}\""
    for p, reasons in loss.reasons.items():
        d.say(f"{where}, {p} " + " and ".join(REASON_WORDS[r] for r in reasons) + ".",
              cite.SBA_CHECK, *[c for r in reasons for c in REASON_CITES[r]])
    losers = tuple(p for p in request.players if p in loss.reasons)
    remaining = tuple(p for p in request.players if p not in loss.reasons)
    if not remaining:
        d.say(f"State-based actions make {_names(losers)} lose at the same time, so the game is a draw.", cite.DRAW_ALL_LOSE)
        return GameOver((), losers, True, loss.iteration, loss.action), ()
    if len(remaining) == 1:
        d.say(f"State-based actions end the game before the loop can continue: {_names(losers)} "
              f"{'loses' if len(losers) == 1 else 'lose'} and {remaining[0]} wins.", cite.WIN_OPPONENTS_LEFT)
        return GameOver(remaining, losers, False, loss.iteration, loss.action), ()
    d.say(f"{_names(losers)} {'loses' if len(losers) == 1 else 'lose'} and {'leaves' if len(losers) == 1 else 'leave'} the game; "
          f"the game goes on for {_names(remaining)}, and the loop stops here because the objects of a player who leaves "
          "leave with them. The remaining players describe the loop again if it can still go on.",
          cite.LEAVES_GAME, cite.MULTIPLAYER_CONTINUES)
    return None, losers


def _find_loss(request: LoopRequest, limit: int | None, max_steps: int) -> tuple[Loss | None, Playout | None]:
    if all(ch.linear for a in request.iteration for ch in a.changes):
        return first_loss_arithmetic(request, limit), None
    run = play_out(request, limit, max_steps=max_steps)
    return run.loss, run


def resolve_loop(request: LoopRequest, *, max_steps: int) -> LoopOutcome:
    """Resolve a described loop: its kind, whether it may be shortcut, how many iterations happen, who stops it.

    ``max_steps`` bounds the actions played out for a loop with non-linear effects (linear loops are
    answered by arithmetic in constant time whatever the count). When the budget runs out the outcome
    has ``gave_up=True`` and ``iterations=None``; a repeated state is reported in ``cycle``.
    """
    if max_steps < 1:
        raise RequestError("max_steps", "must be at least 1")
    check_declarations(request)
    kind = classify_loop(request)
    d = _Draft(kind, maintainers_of(request))
    linear = all(ch.linear for a in request.iteration for ch in a.changes)
    horizon = first_loss_arithmetic(request, None) if linear else None
    common = dict(loop_kind=kind, maintainers=d.maintainers, ends_game_after=horizon,
                  method="arithmetic" if linear else "step_by_step")
    if request.restarted_without_change and d.maintainers:
        return _refuse_restart(request, d, common)
    if kind is LoopKind.NON_DETERMINISTIC:
        return _non_deterministic(request, d, common)
    if kind is LoopKind.FRAGMENTED:
        return _fragmented(request, d, common, max_steps)
    _describe_kind(request, d)
    if request.restarted_without_change:
        d.say("A loop of only mandatory actions is not restarted by anyone's choice, so the rule against restarting "
              "a loop without a relevant change does not apply.", cite.MTR_LOOPS)
    if request.declared is None and kind is not LoopKind.MANDATORY:
        return _undeclared(request, d, common)
    order = declaration_order(request, kind, d.maintainers)
    limit, chooser, made = _lowest(request, order, kind)
    if request.declared is not None:
        _describe_declarations(request, d, made, limit, chooser)
    elif breakers_of(request):
        d.say("No declarations were given; as nobody is forced to break the loop, every player is taken to take no action.",
              cite.LOOP_NOT_FORCED, cite.MTR_LOOPS)
    loss, run = _find_loss(request, limit, max_steps)
    common.update(declarations=made)
    if run is not None:
        common.update(gave_up=run.gave_up, cycle=run.cycle)
    if loss is not None:
        game_over, eliminated = _describe_loss(request, loss, d)
        final = run.state if run is not None else state_after(request, max(loss.iteration - 1, 0), loss.action)
        return _finish(d, common, iterations=loss.iteration, stopped_by=None, stop_kind=None, draw=bool(game_over and game_over.draw),
                       game_over=game_over, final_state=final, eliminated=eliminated)
    if run is not None and run.gave_up:
        d.say(f"The loop's effects are not simple additions, so it was played out step by step; after {_n(run.iterations)} "
              "iterations the step budget ran out without reaching an answer. A judge must work out the rest by hand.")
        return _finish(d, common, iterations=None, stopped_by=None, stop_kind=None, draw=False, game_over=None, final_state=None)
    if limit is None:
        return _endless(request, d, common, run)
    final = run.state if run is not None else state_after(request, limit)
    if kind is LoopKind.MANDATORY:
        d.say(f"The loop is performed {_n(limit)} times; then {chooser} must take their action to break it.", cite.MTR_LOOPS)
        stop_kind = "breaks_loop"
    else:
        d.say(f"The loop is performed {_n(limit)} times and {chooser} then receives priority.", cite.SHORTCUT_TAKEN, cite.MTR_LOOPS)
        stop_kind = "receives_priority"
        if kind is LoopKind.MAINTAINED_BY_ONE and chooser != d.maintainers[0]:
            d.say(f"Because the shortcut was shortened, {chooser} must then do something other than what was proposed.", cite.SHORTCUT_TAKEN)
    return _finish(d, common, iterations=limit, stopped_by=chooser, stop_kind=stop_kind, draw=False, game_over=None, final_state=final)


def _finish(d: _Draft, common: dict[str, Any], **fields: Any) -> LoopOutcome:
    fields.setdefault("must_deviate", None)
    fields.setdefault("shortcut_allowed", True)
    return LoopOutcome(explanation=" ".join(d.sentences), citations=tuple(d.cites), steps=tuple(d.steps), **common, **fields)


def _describe_declarations(request: LoopRequest, d: _Draft, made: Sequence[tuple[str, int | str]], limit: int | None, chooser: str | None) -> None:
    words = {"accept": "accepts", "no_action": "will take no action to stop it", "indefinitely": "will continue indefinitely"}
    parts = [f"{p} {'names ' + _n(v) if isinstance(v, int) else words[v]}" for p, v in made]
    if d.kind is LoopKind.MAINTAINED_BY_ONE:
        d.say(f"{d.maintainers[0]} names a number of iterations and each other player in turn order accepts it or names a lower "
              "number after which they will act; the lowest number wins.", cite.SHORTCUT_PROPOSAL, cite.SHORTCUT_SHORTEN, cite.MTR_LOOPS)
    elif d.kind is LoopKind.MANDATORY:
        d.say("Each player in turn order names a number of iterations after which they will act to break the loop, or says "
              "they will take no action; the lowest number wins.", cite.MTR_LOOPS)
    else:
        d.say("Each player in turn order names a number of iterations" + (" or says they will continue indefinitely" if request.spans_turns else "")
              + "; the lowest number wins.", cite.MTR_LOOPS)
    d.say("Declared: " + "; ".join(parts) + ".")
    d.steps.extend(parts)
    if limit is not None:
        d.steps.append(f"lowest number: {_n(limit)}, named by {chooser}")


def _endless(request: LoopRequest, d: _Draft, common: dict[str, Any], run: Playout | None) -> LoopOutcome:
    if run is not None and run.cycle is not None:
        every = "after every iteration" if run.cycle[1] == 1 else f"every {_n(run.cycle[1])} iterations"
        d.say(f"Played out step by step, the game returns to the same state {every}, so the loop never ends the game on its own.")
    if d.kind is LoopKind.MANDATORY:
        d.say("Nobody will stop the loop and it never ends the game by itself, so the game is a draw.", cite.DRAW_MANDATORY_LOOP, cite.LOOP_MANDATORY)
    else:
        d.say("Every player chose to continue the loop indefinitely across turns, so the game is a draw.", cite.MTR_LOOPS)
    return _finish(d, common, iterations=None, stopped_by=None, stop_kind=None, draw=True,
                   game_over=GameOver((), (), True, None, None), final_state=None)


def _undeclared(request: LoopRequest, d: _Draft, common: dict[str, Any]) -> LoopOutcome:
    first = d.maintainers[0]
    d.say(f"No numbers were declared yet: {first} must name a number of iterations first.", cite.SHORTCUT_PROPOSAL, cite.MTR_LOOPS)
    horizon = common["ends_game_after"]
    if horizon is not None:
        d.say(f"If the loop is performed {_n(horizon.iteration)} times or more, state-based actions end the game during "
              f"iteration {_n(horizon.iteration)}: {_names(list(horizon.reasons))} would lose.", cite.SBA_CHECK)
    return _finish(d, common, iterations=None, stopped_by=first, stop_kind="must_name_number", draw=False, game_over=None, final_state=None)


def _refuse_restart(request: LoopRequest, d: _Draft, common: dict[str, Any]) -> LoopOutcome:
    who = d.maintainers[0]
    d.say(f"This loop was already shortcut and the game has not changed in a relevant way since, so it may not be restarted: "
          f"{who} must do something else.", cite.MTR_LOOPS)
    return _finish(d, common, shortcut_allowed=False, iterations=0, stopped_by=who, stop_kind="makes_different_choice",
                   must_deviate=who, draw=False, game_over=None, final_state={p: dict(c) for p, c in request.state.items()}, refused=True)


def _non_deterministic(request: LoopRequest, d: _Draft, common: dict[str, Any]) -> LoopOutcome:
    who = d.maintainers[0] if d.maintainers else None
    d.say("This loop relies on chance or on decisions along the way, so it cannot be shortcut: it is played out for real, and "
          + (f"{who} " if who else "the players ")
          + "must stop as soon as the game reaches a state it was in before.", cite.MTR_LOOPS, cite.SHORTCUT_PROPOSAL)
    if request.declared:
        d.say("The numbers declared do not apply to such a loop.")
    return _finish(d, common, shortcut_allowed=False, iterations=None, stopped_by=who, stop_kind="must_stop" if who else None,
                   draw=False, game_over=None, final_state=None)


def _fragmented(request: LoopRequest, d: _Draft, common: dict[str, Any], max_steps: int) -> LoopOutcome:
    # CR 729.3: the active player, or the first involved player in turn order, makes a different choice.
    ap = request.players[0]
    who = ap if ap in d.maintainers else d.maintainers[0]
    d.say(f"This is a fragmented loop: {_names(d.maintainers)} each take an independent action and the game comes back to a "
          "state it was in before.", cite.LOOP_FRAGMENTED)
    d.say(("The active player, " if who == ap else "The active player is not involved, so the first involved player in turn order, ")
          + f"{who}, must make a different choice so the loop does not continue.", cite.LOOP_FRAGMENTED)
    if request.declared:
        d.say("Numbers declared do not change this.")
    loss, run = _find_loss(request, 1, max_steps)
    if run is not None:
        common.update(gave_up=run.gave_up, cycle=run.cycle)
    if loss is not None:
        game_over, eliminated = _describe_loss(request, loss, d)
        final = run.state if run is not None else state_after(request, max(loss.iteration - 1, 0), loss.action)
        return _finish(d, common, iterations=loss.iteration, stopped_by=None, stop_kind=None, draw=bool(game_over and game_over.draw),
                       game_over=game_over, final_state=final, eliminated=eliminated)
    final = run.state if run is not None else state_after(request, 1)
    return _finish(d, common, iterations=1, stopped_by=who, must_deviate=who, stop_kind="makes_different_choice",
                   draw=False, game_over=None, final_state=final)
