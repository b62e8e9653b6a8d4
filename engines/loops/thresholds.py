"""When a loop ends the game: state-based action thresholds by arithmetic (linear loops) or by
playing out (others)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, replace

from engines.loops.records import GAME_COUNTERS, Action, Change, LoopRequest, Loss

# Counters a loop spends and that can't go below 0: a player with no token left can't sacrifice one,
# so an action that would take tokens below 0 can't be taken, and the loop stops before it (CR
# 729.2a: a shortcut's choices must be ones that "may be legally taken based on the current game
# state"). A library below 0 is instead a draw from an empty library (CR 104.3c).
SPENT = ("tokens",)


@dataclass(frozen=True)
class Shortage:
    """The first action a loop cannot take because a spent counter would go below 0."""

    iterations: int  # whole iterations performed before it
    action: int  # index of the action that can't be taken; the ones before it in that iteration are
    player: str
    counter: str


def _prefix_sums(
    request: LoopRequest,
) -> tuple[list[dict[tuple[str, str], int]], dict[tuple[str, str], int]]:
    """Change of every (player, counter) after each action of one iteration, and over the
    whole iteration."""
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


def _crossings(request: LoopRequest) -> Iterator[tuple[str, str, int, int]]:
    """(player, reason, n, j): that player's check after action j fails first after n
    whole iterations.

    One division per player, condition and action (CR 704.5a life <= 0, 704.5c poison at the
    threshold, 704.5b a draw from an empty library); conditions that never fail yield nothing.
    """
    prefixes, total = _prefix_sums(request)
    for j, prefix in enumerate(prefixes):
        for p in request.players:
            s = request.state[p]
            tests = [
                ("life", s["life"] + prefix.get((p, "life"), 0), total.get((p, "life"), 0)),
                (
                    "poison",
                    request.poison_threshold - s["poison"] - prefix.get((p, "poison"), 0),
                    -total.get((p, "poison"), 0),
                ),
            ]
            if "library" in s:  # library below 0 means a draw found no card: start + n*d <= -1
                tests.append(
                    (
                        "empty_library",
                        s["library"] + prefix.get((p, "library"), 0) + 1,
                        total.get((p, "library"), 0),
                    )
                )
            for reason, start, per in tests:
                n = _first_at_most_zero(start, per)
                if n is not None:
                    yield p, reason, n, j


def first_loss_arithmetic(request: LoopRequest, limit: int | None) -> Loss | None:
    """First state-based action check, within ``limit`` iterations (None: unlimited), where a
    player loses.

    Linear effects only. The earliest (iteration, action) at which any check fails wins, and every
    player failing that same check loses at once. Cost does not depend on ``limit``.
    """
    initial = _initial_losses(request)
    if initial:
        return Loss(0, None, {p: tuple(r) for p, r in initial.items()})
    best: tuple[int, int] | None = None
    found: dict[tuple[int, int], dict[str, list[str]]] = {}
    for p, reason, n, j in _crossings(request):
        if limit is not None and n >= limit:
            continue
        key = (n, j)
        if best is None or key <= best:
            best = key
            found.setdefault(key, {}).setdefault(p, []).append(reason)
    if best is None:
        return None
    return Loss(best[0] + 1, best[1], {p: tuple(r) for p, r in found[best].items()})


def first_shortage(request: LoopRequest) -> Shortage | None:
    """The first (whole iterations, action) at which an action would take a spent counter (SPENT)
    below 0, or None when none ever does. Linear effects only; one division per player, counter
    and action, so its cost does not depend on the count."""
    prefixes, total = _prefix_sums(request)
    best: Shortage | None = None
    for j, prefix in enumerate(prefixes):
        for p in request.players:
            for counter in SPENT:
                if (p, counter) not in prefix:
                    continue
                # start + n * per <= -1, written as (start + 1) + n * per <= 0
                start = request.state[p].get(counter, 0) + prefix[(p, counter)] + 1
                n = _first_at_most_zero(start, total.get((p, counter), 0))
                if n is not None and (best is None or (n, j) < (best.iterations, best.action)):
                    best = Shortage(n, j, p, counter)
    return best


def _short_of(state: Mapping[str, Mapping[str, int]], players: Sequence[str]) -> tuple[str, str]:
    for p in players:
        for counter in SPENT:
            if state[p].get(counter, 0) < 0:
                return p, counter
    return "", ""


def thresholds_by_player(request: LoopRequest) -> dict[str, dict[str, int | None]]:
    """For each player and condition, the iteration during which it would first make them lose if
    nothing else ended the game first (None: never). Linear effects only; 0 means it
    already holds."""
    out: dict[str, dict[str, int | None]] = {
        p: {
            "life": None,
            "poison": None,
            **({"empty_library": None} if "library" in request.state[p] else {}),
        }
        for p in request.players
    }
    for p, reasons in _initial_losses(request).items():
        for reason in reasons:
            out[p][reason] = 0
    for p, reason, n, _ in _crossings(request):
        current = out[p][reason]
        if current is None or n + 1 < current:
            out[p][reason] = n + 1
    return out


def state_after(
    request: LoopRequest, iterations: int, action: int | None = None
) -> dict[str, dict[str, int]]:
    """Counters after ``iterations`` whole iterations and then actions 0..``action`` of the next
    (linear effects).

    A library that went below 0 is shown as 0: the missing cards were never drawn (CR 104.3c).
    """
    prefixes, total = _prefix_sums(request)
    extra = prefixes[action] if action is not None else {}
    out = {}
    for p in request.players:
        counters = {}
        for counter, start in request.state[p].items():
            value = start + iterations * total.get((p, counter), 0) + extra.get((p, counter), 0)
            counters[counter] = value
        _clamp_library(counters)
        out[p] = counters
    return out


def _apply(state: dict[str, dict[str, int]], action: Action) -> None:
    before = (
        {p: dict(c) for p, c in state.items()}
        if any(ch.op == "per" for ch in action.changes)
        else state
    )
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
            read = before[ch.source[0]][ch.source[1]]
            if ch.counter in GAME_COUNTERS and ch.source != (ch.player, ch.counter):
                # CR 107.1b: no negative life gain or damage, no negative counters put: a
                # negative amount is 0 ("life equal to X" with X -1; a creature of -2 power)
                read = max(read, 0)
            value += ch.amount * read
        if ch.counter == "poison":
            value = max(value, 0)  # removing counters a player doesn't have removes none
        state[ch.player][ch.counter] = value


def _sba_losses(
    state: Mapping[str, Mapping[str, int]], players: Sequence[str], threshold: int
) -> dict[str, tuple[str, ...]]:
    losses = {}
    for p in players:
        s = state[p]
        reasons = tuple(
            r
            for r, bad in (
                ("life", s["life"] <= 0),
                ("poison", s["poison"] >= threshold),
                ("empty_library", s.get("library", 0) < 0),
            )
            if bad
        )
        if reasons:
            losses[p] = reasons
    return losses


@dataclass(frozen=True)
class Playout:
    loss: Loss | None
    iterations: int  # whole iterations performed (or the one in which the loss happened)
    state: dict[str, dict[str, int]]
    gave_up: bool = False
    cycle: tuple[int, int] | None = None
    shortage: Shortage | None = None  # the loop stopped before an action it could not take
    # (player, counter) whose value left what is followed (BEYOND): given up there
    beyond: tuple[str, str] | None = None


# A counter past this size (a multiplying effect, step after step) is not followed further: the play
# gives up there (``Playout.beyond``), before a number grows past what a result can hold (Python
# writes no integer of more than 4,300 digits) or past all sense for a game.
BEYOND = 10**100


def play_out(
    request: LoopRequest, limit: int | None, *, max_steps: int, extra_actions: int = 0
) -> Playout:
    """Perform the loop action by action, checking state-based actions after each action.

    Runs ``limit`` whole iterations (None: until something stops it), then the first
    ``extra_actions`` actions of the next one (MTR 4.4: an iteration performed only up to a chosen
    point). Stops at the first loss, or after ``max_steps`` actions (``gave_up``). When the state at
    the start of an iteration repeats, the loop is a cycle that can never end the game: the answer
    is read off the cycle (``cycle`` set) instead of playing on.
    """
    state = {p: dict(c) for p, c in request.state.items()}
    initial = _initial_losses(request)
    if initial:
        return Playout(Loss(0, None, {p: tuple(r) for p, r in initial.items()}), 0, state)
    seen: dict[tuple[tuple[tuple[str, int], ...], ...], int] = {}
    history: list[dict[str, dict[str, int]]] = []
    steps = 0
    done = 0
    cycle: tuple[int, int] | None = None
    while limit is None or done < limit:
        key = tuple(tuple(sorted(state[p].items())) for p in request.players)
        if key in seen:
            first = seen[key]
            cycle = (first + 1, done - first)
            if limit is None:
                return Playout(None, done, state, cycle=cycle)
            state = {
                p: dict(c) for p, c in history[first + (limit - first) % (done - first)].items()
            }
            done = limit
            break
        seen[key] = done
        history.append({p: dict(c) for p, c in state.items()})
        for j, action in enumerate(request.iteration):
            if steps >= max_steps:
                return Playout(None, done, state, gave_up=True, cycle=cycle)
            steps += 1
            before = {p: dict(c) for p, c in state.items()} if _multiplies(action) else None
            stopped = _step(request, state, action, done, j)
            if stopped is not None:
                return stopped
            if before is not None and (beyond := _beyond(state, action)) is not None:
                return Playout(None, done, before, gave_up=True, cycle=cycle, beyond=beyond)
        done += 1
    for j, action in enumerate(request.iteration[:extra_actions]):
        stopped = _step(request, state, action, done, j)
        if stopped is not None:
            return replace(stopped, cycle=cycle)
    return Playout(None, done, state, cycle=cycle)


def never_ends(request: LoopRequest, state: Mapping[str, Mapping[str, int]]) -> bool:
    """Whether no state-based action can ever end the game from `state`, however long the loop
    runs: every player's life above 0, poison below the limit, and every change of the loop keeps
    them so (life only grows or is set above 0, poison only falls or is set below the limit, a
    library and tokens never fall). A sound test for loops the play-out cannot finish (a life total
    doubled each iteration): True only when it is so; False when it cannot tell."""
    for p in request.players:
        counters = state[p]
        if counters.get("life", 0) <= 0 or counters.get("poison", 0) >= request.poison_threshold:
            return False
    return all(
        _keeps_clear(ch, request.poison_threshold) for a in request.iteration for ch in a.changes
    )


def _keeps_clear(ch: Change, limit: int) -> bool:
    """A change that never brings a player nearer to losing (life above 0, poison below `limit`, a
    library and tokens not spent); per: a life total's own amount, or another counter read as 0
    or more (CR 107.1b)."""
    if ch.counter not in GAME_COUNTERS:
        return True
    if ch.counter == "cards_drawn":
        # cards drawn that grow are draws, from a library this test cannot follow (only a number
        # of cards drawn comes with its library change): never clear
        return ch.op == "add" and ch.amount <= 0
    poison = ch.counter == "poison"  # must stay low; life, a library, tokens must not fall
    if ch.op == "add":
        return ch.amount <= 0 if poison else ch.amount >= 0
    if ch.op == "times":
        return 0 <= ch.amount <= 1 if poison else ch.amount >= 1
    if ch.op == "set":
        if ch.counter == "life":
            return ch.amount > 0
        return ch.amount < limit if poison else ch.amount >= 0
    # "per": factor times a counter read as it is (its own: a life total doubled, never below 0
    # here) or as 0 or more (another, CR 107.1b); poison is never below 0
    return ch.amount <= 0 if poison else ch.amount >= 0


def _multiplies(action: Action) -> bool:
    """Whether the action can grow a counter faster than by adding fixed amounts."""
    return any(ch.op in ("times", "per") for ch in action.changes)


def _beyond(state: Mapping[str, Mapping[str, int]], action: Action) -> tuple[str, str] | None:
    """The first counter the action changed that is now past BEYOND either way, else None."""
    for ch in action.changes:
        if abs(state[ch.player][ch.counter]) > BEYOND:
            return ch.player, ch.counter
    return None


def _step(
    request: LoopRequest, state: dict[str, dict[str, int]], action: Action, done: int, j: int
) -> Playout | None:
    """Action `j` of the iteration after `done` whole ones, applied to `state`, then state-based
    actions: where the loop stops (an action it can't take, `state` left as it was before it; a
    loss), else None. Only an action that changes a spent counter (SPENT) can be one it can't
    take (a request's counters start at 0 or more): only then is the state kept and checked."""
    spends = any(ch.counter in SPENT for ch in action.changes)
    before = {p: dict(c) for p, c in state.items()} if spends else None
    _apply(state, action)
    if before is not None:
        player, counter = _short_of(state, request.players)
        if player:
            return Playout(None, done, before, shortage=Shortage(done, j, player, counter))
    losses = _sba_losses(state, request.players, request.poison_threshold)
    if not losses:
        return None
    for counters in state.values():
        _clamp_library(counters)
    return Playout(Loss(done + 1, j, losses), done + 1, state)


def _clamp_library(counters: dict[str, int]) -> None:
    """A library below 0 is shown as 0: the missing cards were never drawn (CR 104.3c)."""
    if counters.get("library", 0) < 0:
        counters["library"] = 0
