"""Validation of loop-outcome requests: JSON in, a LoopRequest out, or RequestError naming the field."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engines.errors import RequestError
from engines.loops.kinds import breakers_of, classify_loop, maintainers_of, names_no_number
from engines.loops.records import (
    DECLARATION_WORDS,
    DEFAULT_LIFE,
    MAX_ACTIONS,
    MAX_COUNT,
    MAX_PLAYERS,
    POISON_THRESHOLD,
    Action,
    ActionKind,
    Breaker,
    Change,
    Declaration,
    LoopKind,
    LoopRequest,
    PartialCount,
    count_key,
)


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
    return str(value)


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


def _declared(data: Any, players: Sequence[str], n_actions: int) -> dict[str, Declaration] | None:
    if data is None:
        return None
    if not isinstance(data, Mapping):
        raise RequestError("declared", "must map player names to a number of iterations or a word")
    out: dict[str, Declaration] = {}
    for p, value in data.items():
        name = f"declared.{p}"
        _player(p, name, players)
        if isinstance(value, str):
            if value not in DECLARATION_WORDS:
                raise RequestError(name, f"must be a number of iterations or one of {list(DECLARATION_WORDS)}")
            out[p] = value
        elif isinstance(value, Mapping):
            # MTR 4.4: the last iteration may be performed only up to a chosen point.
            if set(value) != {"iterations", "after_action"}:
                raise RequestError(name, 'a partial count is {"iterations": N, "after_action": index of the last action performed}')
            after = _int(value["after_action"], f"{name}.after_action", low=0, high=max(n_actions - 2, 0))
            if n_actions < 2:
                raise RequestError(f"{name}.after_action", "an iteration of one action cannot be performed in part")
            out[p] = PartialCount(_int(value["iterations"], f"{name}.iterations", low=0), after)
        else:
            out[p] = _int(value, name, low=0)
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
        declared=_declared(data.get("declared"), players, len(actions)),
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
    if kind is LoopKind.NON_DETERMINISTIC:
        return   # nobody names numbers for these; the declarations are ignored and the result says so
    if kind is LoopKind.FRAGMENTED and names_no_number(request):
        return   # issue 27: no numbers named, CR 729.3 settles the fragmented loop (resolution._fragmented)
    maintainers = maintainers_of(request)
    for p, value in request.declared.items():
        if value == "indefinitely" and not request.spans_turns:
            raise RequestError(f"declared.{p}", '"indefinitely" is only for a loop across turns (spans_turns); within a turn name a number')
        if value == "indefinitely" and kind is LoopKind.MAINTAINED_BY_ONE:
            raise RequestError(f"declared.{p}", '"indefinitely" is for loops kept going by several players; here name a number or accept')
    if kind is LoopKind.MANDATORY:
        able = breakers_of(request)
        for p, value in request.declared.items():
            if count_key(value) is not None and p not in able:
                raise RequestError(f"declared.{p}", f"{p} names a number but has no listed way to break a loop of mandatory actions (add a breaker)")
        return
    for p in maintainers:
        mine: Declaration | None = request.declared.get(p)
        if mine is None or (count_key(mine) is None and mine != "indefinitely"):
            raise RequestError(f"declared.{p}", f"{p} keeps the loop going and must name a number of iterations")
    if kind is LoopKind.MAINTAINED_BY_ONE:
        proposed = request.declared[maintainers[0]]
        for p, value in request.declared.items():
            own_key, proposed_key = count_key(value), count_key(proposed)
            if p != maintainers[0] and own_key is not None and proposed_key is not None and own_key > proposed_key:
                raise RequestError(f"declared.{p}", f"may accept {maintainers[0]}'s proposal or name a lower number, not a higher one")
