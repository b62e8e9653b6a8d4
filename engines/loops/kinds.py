"""What kind of loop a request describes (MTR 4.4 by who keeps it going; CR 729.3
fragmented loops)."""

from __future__ import annotations

from engines.loops.records import ActionKind, LoopKind, LoopRequest, count_key


def maintainers_of(request: LoopRequest) -> tuple[str, ...]:
    """Players whose optional actions keep the loop going, in turn order."""
    involved = {a.player for a in request.iteration if a.kind is ActionKind.OPTIONAL}
    return tuple(p for p in request.players if p in involved)


def breakers_of(request: LoopRequest) -> tuple[str, ...]:
    """Players with a listed way to stop the loop: a breaker outside it or the [B] of "[A]
    unless [B]"."""
    able = {b.player for b in request.breakers} | {
        a.unless_player for a in request.iteration if a.unless_player
    }
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

    Two or more players each choosing to act, with the game back in the same state after an
    iteration (no counter changes on balance), is a fragmented loop unless the request
    says otherwise.
    """
    if not request.deterministic:
        return LoopKind.NON_DETERMINISTIC
    maintainers = maintainers_of(request)
    if not maintainers:
        return LoopKind.MANDATORY
    if len(maintainers) == 1:
        return LoopKind.MAINTAINED_BY_ONE
    fragmented = (
        request.fragmented if request.fragmented is not None else _returns_to_same_state(request)
    )
    return LoopKind.FRAGMENTED if fragmented else LoopKind.MAINTAINED_BY_SEVERAL


def names_no_number(request: LoopRequest) -> bool:
    """No player named a number of iterations (or "indefinitely"): ``declared`` left out, empty, or
    only words.

    A fragmented loop with no numbers named is settled by CR 729.3 (the active player, or the first
    involved player in turn order, makes a different choice); once numbers are named, MTR 4.4
    compares them.
    """
    declared = request.declared or {}
    return not any(count_key(v) is not None or v == "indefinitely" for v in declared.values())
