"""Resolving a loop: who declares, the lowest number, who stops it, and the sentences a judge
reads out."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from engines import citations as cite
from engines.errors import RequestError
from engines.loops.kinds import breakers_of, classify_loop, maintainers_of, names_no_number
from engines.loops.records import (
    ActionKind,
    Declaration,
    GameOver,
    LoopKind,
    LoopOutcome,
    LoopRequest,
    Loss,
    PartialCount,
    count_key,
)
from engines.loops.requests import check_declarations
from engines.loops.thresholds import (
    Playout,
    Shortage,
    first_loss_arithmetic,
    first_shortage,
    never_ends,
    play_out,
    state_after,
    thresholds_by_player,
)


def _n(value: int) -> str:
    return f"{value:,}"


def _names(players: Sequence[str]) -> str:
    players = list(players)
    if len(players) <= 1:
        return "".join(players)
    return ", ".join(players[:-1]) + " and " + players[-1]


REASON_WORDS = {
    "life": "has 0 or less life",
    "poison": "has reached the poison counter limit",
    "empty_library": "had to draw from an empty library",
}
REASON_CITES = {
    "life": (cite.LOSE_LIFE, cite.SBA_LIFE),
    "poison": (cite.LOSE_POISON, cite.SBA_POISON),
    "empty_library": (cite.LOSE_EMPTY_LIBRARY, cite.SBA_EMPTY_LIBRARY),
}


def reason_cites(reason: str, poison_threshold: int) -> tuple[str, ...]:
    """The rules behind a loss. CR 104.3d and 704.5c say ten poison counters: another limit is a
    Two-Headed Giant team's fifteen (CR 704.6b, 810.8d) or an effect's (CR 101.1: a card that
    contradicts the rules wins), never those two."""
    if reason != "poison" or poison_threshold == 10:
        return REASON_CITES[reason]
    if poison_threshold == 15:
        return (cite.SBA_TEAM_POISON, cite.THG_TEAM_POISON)
    return (cite.CARD_OVERRIDES_RULES,)


def declaration_order(
    request: LoopRequest, kind: LoopKind, maintainers: Sequence[str]
) -> tuple[str, ...]:
    """Who declares, in order: the proposer then the others in turn order (CR 729.2b), else turn
    order from the active player."""
    players = request.players
    if kind is LoopKind.MAINTAINED_BY_ONE:
        start = players.index(maintainers[0])
        return players[start:] + players[:start]
    return players


def _lowest(
    request: LoopRequest, order: Sequence[str], kind: LoopKind
) -> tuple[Declaration | None, str | None, tuple[tuple[str, Declaration], ...]]:
    """The lowest count named and who named it first; the declarations in order (missing ones
    filled in)."""
    declared = request.declared or {}
    default = "no_action" if kind is LoopKind.MANDATORY else "accept"
    made = tuple((p, declared.get(p, default)) for p in order)
    lowest: Declaration | None = None
    lowest_key: tuple[int, int] | None = None
    chooser: str | None = None
    for p, value in made:
        key = count_key(value)
        # a tie does not shorten: the first keeps it
        if key is not None and (lowest_key is None or key < lowest_key):
            lowest, lowest_key, chooser = value, key, p
    return lowest, chooser, made


def _split(count: Declaration | None) -> tuple[int | None, int]:
    """(whole iterations, actions of the partial iteration after them)."""
    if isinstance(count, PartialCount):
        return count.iterations, count.after_action + 1
    return (count if isinstance(count, int) else None), 0


def _label(request: LoopRequest, index: int) -> str:
    return request.iteration[index].text or f"action {index + 1}"


def _count_words(request: LoopRequest, count: Declaration) -> str:
    if isinstance(count, PartialCount):
        return (
            f"{_n(count.iterations)} and then the next iteration up to "
            f'"{_label(request, count.after_action)}"'
        )
    return _n(count) if isinstance(count, int) else str(count)


def _per_iteration(request: LoopRequest) -> list[str]:
    """Readable steps: each action of one iteration with what it changes."""
    steps = []
    for i, a in enumerate(request.iteration):
        changes = []
        for ch in a.changes:
            if ch.op == "add":
                changes.append(f"{ch.player} {ch.counter} {ch.amount:+,}")
            elif ch.op == "times":
                changes.append(f"{ch.player} {ch.counter} x{ch.amount}")
            elif ch.op == "set":
                changes.append(f"{ch.player} {ch.counter} = {ch.amount:,}")
            elif ch.source is not None:
                changes.append(
                    f"{ch.player} {ch.counter} {ch.amount:+} x {ch.source[0]} {ch.source[1]}"
                )
        kind = (
            f"{a.kind.value}, unless {a.unless_player} chooses otherwise"
            if a.unless_player
            else a.kind.value
        )
        steps.append(
            f"action {i + 1} ({a.player}, {kind}): {a.text or 'no description'}"
            + (f" [{'; '.join(changes)}]" if changes else "")
        )
    return steps


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
        d.say(
            "Every action in this loop is mandatory: no player's choice keeps it going.",
            cite.LOOP_MANDATORY,
        )
    elif kind is LoopKind.MAINTAINED_BY_ONE:
        d.say(
            f"{m[0]} alone keeps this loop going by choosing to repeat it; everything else in it "
            "is mandatory.",
            cite.MTR_LOOPS,
        )
    elif kind is LoopKind.MAINTAINED_BY_SEVERAL:
        d.say(f"{_names(m)} each keep this loop going with their own choices.", cite.MTR_LOOPS)
    for a in request.iteration:
        if a.kind is ActionKind.UNLESS:
            d.say(
                f'"{a.text or "The unless action"}" repeats as if it were mandatory unless '
                f"{a.unless_player} chooses to do the "
                f"other thing; nobody can be forced to do it.",
                cite.LOOP_UNLESS,
            )
    if request.breakers:
        d.say(
            "Nobody has to use an action outside the loop to end it: "
            + "; ".join(
                f"{b.player} may {b.text}" if b.text else f"{b.player} may act"
                for b in request.breakers
            )
            + ".",
            cite.LOOP_NOT_FORCED,
        )


def _describe_loss(
    request: LoopRequest, loss: Loss, d: _Draft
) -> tuple[GameOver | None, tuple[str, ...]]:
    """Sentences for the state-based actions that end the loop; the game over record or the
    eliminated players."""
    if loss.iteration == 0:
        where = "Before the loop begins"
    else:
        action = loss.action if loss.action is not None else 0
        label = request.iteration[action].text or f"action {action + 1}"
        where = f'During iteration {_n(loss.iteration)}, after "{label}"'
    for p, reasons in loss.reasons.items():
        words = [
            f"has {request.poison_threshold} or more poison counters"
            if r == "poison"
            else REASON_WORDS[r]
            for r in reasons
        ]
        d.say(
            f"{where}, {p} " + " and ".join(words) + ".",
            cite.SBA_CHECK,
            *[c for r in reasons for c in reason_cites(r, request.poison_threshold)],
        )
    losers = tuple(p for p in request.players if p in loss.reasons)
    remaining = tuple(p for p in request.players if p not in loss.reasons)
    if not remaining:
        d.say(
            f"State-based actions make {_names(losers)} lose at the same time, so the game is a "
            "draw.",
            cite.DRAW_ALL_LOSE,
        )
        return GameOver((), losers, True, loss.iteration, loss.action), ()
    if len(remaining) == 1:
        d.say(
            f"State-based actions end the game before the loop can continue: {_names(losers)} "
            f"{'loses' if len(losers) == 1 else 'lose'} and {remaining[0]} wins.",
            cite.WIN_OPPONENTS_LEFT,
        )
        return GameOver(remaining, losers, False, loss.iteration, loss.action), ()
    left = (
        f"{_names(losers)} {'loses' if len(losers) == 1 else 'lose'} and "
        f"{'leaves' if len(losers) == 1 else 'leave'} the game; the game goes on for "
        f"{_names(remaining)}"
    )
    # CR 800.4a: the objects a leaving player owns leave, and those they control are exiled; the
    # loop stops for certain only if one of its actions is theirs.
    controllers = [p for p in losers if any(a.player == p for a in request.iteration)]
    if controllers:
        goes_on = (
            f", and the loop stops here: {_names(controllers)} "
            f"{'controls' if len(controllers) == 1 else 'control'} an action of it, and the "
            "objects of a player who leaves leave with them. The remaining players describe the "
            "loop again if it can still go on."
        )
    else:
        goes_on = (
            f". No action of the loop is taken by {_names(losers)}, so the loop may still go "
            f"on, unless it uses an object {_names(losers)} "
            f"{'owns' if len(losers) == 1 else 'own'} (such objects leave the game too): the "
            "remaining players describe it again from here."
        )
    d.say(left + goes_on, cite.LEAVES_GAME, cite.MULTIPLAYER_CONTINUES, cite.LEAVES_WITH_OBJECTS)
    return None, losers


def _find_loss(
    request: LoopRequest, limit: int | None, max_steps: int, extra: int = 0
) -> tuple[Loss | None, Playout | None]:
    """First loss within ``limit`` iterations plus ``extra`` actions of the next (None:
    no limit)."""
    if all(ch.arithmetic for a in request.iteration for ch in a.changes):
        if not extra or limit is None:
            return first_loss_arithmetic(request, limit), None
        loss = first_loss_arithmetic(request, limit + 1)
        if (
            loss is not None
            and loss.iteration == limit + 1
            and loss.action is not None
            and loss.action >= extra
        ):
            loss = None
        return loss, None
    run = play_out(request, limit, max_steps=max_steps, extra_actions=extra)
    return run.loss, run


def resolve_loop(request: LoopRequest, *, max_steps: int) -> LoopOutcome:
    """Resolve a described loop: its kind, whether it may be shortcut, how many iterations happen,
    who stops it.

    ``max_steps`` bounds the actions played out for a loop with non-linear effects (linear loops are
    answered by arithmetic in constant time whatever the count). When the budget runs out the
    outcome has ``gave_up=True`` and ``iterations=None``; a repeated state is reported in ``cycle``.
    """
    if max_steps < 1:
        raise RequestError("max_steps", "must be at least 1")
    check_declarations(request)
    kind = classify_loop(request)
    d = _Draft(kind, maintainers_of(request))
    linear = all(ch.arithmetic for a in request.iteration for ch in a.changes)
    horizon = first_loss_arithmetic(request, None) if linear else None
    short = first_shortage(request) if linear else None
    if horizon is not None and short is not None and not _before(horizon, short):
        horizon = None  # the loop stops for want of a token before it could end the game
    common: dict[str, Any] = dict(
        loop_kind=kind,
        maintainers=d.maintainers,
        ends_game_after=horizon,
        method="arithmetic" if linear else "step_by_step",
        thresholds=thresholds_by_player(request) if linear else None,
    )
    d.steps.extend(_per_iteration(request))
    if request.restarted_without_change and d.maintainers:
        return _refuse_restart(request, d, common)
    if kind is LoopKind.NON_DETERMINISTIC:
        return _non_deterministic(request, d, common)
    if kind is LoopKind.FRAGMENTED and names_no_number(request):
        return _fragmented(request, d, common, max_steps)
    if kind is LoopKind.FRAGMENTED:
        _describe_fragmented(request, d)
    _describe_kind(request, d)
    if request.restarted_without_change:
        d.say(
            "A loop of only mandatory actions is not restarted by anyone's choice, so the rule "
            "against restarting a loop without a relevant change does not apply.",
            cite.MTR_LOOPS,
        )
    if request.declared is None and kind is not LoopKind.MANDATORY:
        return _undeclared(request, d, common)
    undecided = _undecided_breakers(request, kind)
    if undecided:
        return _breakers_undeclared(request, d, common, undecided, linear and short is None)
    order = declaration_order(request, kind, d.maintainers)
    lowest, chooser, made = _lowest(request, order, kind)
    limit, extra = _split(lowest)
    if request.declared is not None:
        _describe_declarations(request, d, made, lowest, chooser)
    capped = short is not None and (
        limit is None or (short.iterations, short.action) < (limit, extra)
    )
    # the loop stops before an action it can't take, when that comes before the lowest count
    if short is not None and capped:
        limit, extra = short.iterations, short.action
    loss, run = _find_loss(request, limit, max_steps, extra)
    common.update(declarations=made)
    if run is not None:
        common.update(gave_up=run.gave_up, cycle=run.cycle, ends_game_after=loss)
    if loss is not None:
        return _end_at_loss(request, loss, run, d, common)
    if run is not None and run.shortage is not None:
        short, capped = run.shortage, True
    if short is not None and capped:
        final = (
            run.state
            if run is not None
            else state_after(request, short.iterations, short.action - 1 if short.action else None)
        )
        return _short_stop(request, d, common, short, final)
    if run is not None and run.gave_up and limit is None and never_ends(request, run.state):
        # nobody stops it, and no state-based action ever can: an endless loop (CR 104.4b)
        d.say(
            "Played out step by step the loop never comes back to the same state, but every "
            "change in it keeps each player's life above 0 and poison counters below the limit, "
            "and draws from no library and spends no tokens: no state-based action can ever end "
            "the game."
        )
        common.update(gave_up=False)
        return _endless(request, d, common, None)
    if run is not None and run.gave_up:
        d.say(
            "The loop's effects are not simple additions, so it was played out step by step; after "
            f"{_n(run.iterations)} iterations "
            + (
                "the step budget ran out without reaching an answer"
                if run.beyond is None
                else f"{run.beyond[0]}'s {run.beyond[1]} grew past 10^100, beyond what is followed"
            )
            + ". A judge must work out the rest by hand."
        )
        return _finish(
            d,
            common,
            iterations=None,
            stopped_by=None,
            stop_kind=None,
            draw=False,
            game_over=None,
            final_state=None,
        )
    if limit is None:
        return _endless(request, d, common, run)
    final = (
        run.state if run is not None else state_after(request, limit, extra - 1 if extra else None)
    )
    performed = f"The loop is performed {_n(limit)} times" + (
        f', then once more only up to "{_label(request, extra - 1)}"' if extra else ""
    )
    if kind is LoopKind.MANDATORY:
        d.say(f"{performed}; then {chooser} must take their action to break it.", cite.MTR_LOOPS)
        stop_kind = "breaks_loop"
    else:
        where = (
            " at the point where they stop taking an action to sustain the loop"
            if request.spans_turns and kind is not LoopKind.MAINTAINED_BY_ONE
            else ""
        )
        d.say(
            f"{performed}, and {chooser} then receives priority{where}.",
            cite.SHORTCUT_TAKEN,
            cite.MTR_LOOPS,
        )
        stop_kind = "receives_priority"
        if kind is LoopKind.FRAGMENTED:
            d.say(
                f"{chooser} must then make a different choice so the loop does not continue.",
                cite.MTR_LOOPS,
            )
            return _finish(
                d,
                common,
                iterations=limit,
                then_actions=extra,
                stopped_by=chooser,
                stop_kind="makes_different_choice",
                must_deviate=chooser,
                draw=False,
                game_over=None,
                final_state=final,
                decided_by="mtr",
            )
        if kind is LoopKind.MAINTAINED_BY_ONE and chooser != d.maintainers[0]:
            d.say(
                f"Because the shortcut was shortened, {chooser} must then do something other than "
                "what was proposed.",
                cite.SHORTCUT_TAKEN,
            )
    return _finish(
        d,
        common,
        iterations=limit,
        then_actions=extra,
        stopped_by=chooser,
        stop_kind=stop_kind,
        draw=False,
        game_over=None,
        final_state=final,
        decided_by="mtr",
    )


def _before(loss: Loss, short: Shortage) -> bool:
    """Whether state-based actions end the game before the loop reaches the action it can't
    take."""
    return loss.iteration == 0 or (loss.iteration - 1, loss.action or 0) < (
        short.iterations,
        short.action,
    )


def _short_stop(
    request: LoopRequest,
    d: _Draft,
    common: dict[str, Any],
    short: Shortage,
    final: dict[str, dict[str, int]],
) -> LoopOutcome:
    """The loop stops before an action that would spend a token its player doesn't have (CR 729.2a:
    only choices that may legally be taken); the game goes on."""
    action = request.iteration[short.action]
    performed = f"The loop can be performed {_n(short.iterations)} times" + (
        f', then once more only up to "{_label(request, short.action - 1)}"' if short.action else ""
    )
    d.say(
        f'{performed}: then {short.player} has no {short.counter} left for "'
        f'{_label(request, short.action)}", so the loop cannot go on as described and stops '
        "there; the game goes on.",
        cite.SHORTCUT_PROPOSAL,
    )
    # the player who chose to take the action, else whoever keeps the loop going; nobody in a loop
    # of mandatory actions
    chooser = (
        action.player
        if action.kind is ActionKind.OPTIONAL
        else (d.maintainers[0] if d.maintainers else None)
    )
    if chooser is not None:
        d.say(f"{chooser} then receives priority.", cite.SHORTCUT_TAKEN)
    return _finish(
        d,
        common,
        iterations=short.iterations,
        then_actions=short.action,
        stopped_by=chooser,
        stop_kind="cannot_continue",
        draw=False,
        game_over=None,
        final_state=final,
    )


def _end_at_loss(
    request: LoopRequest,
    loss: Loss,
    run: Playout | None,
    d: _Draft,
    common: dict[str, Any],
    **fields: Any,
) -> LoopOutcome:
    """The outcome of a loop that state-based actions end at ``loss``: the game over (or the
    eliminated players) and the state at that moment."""
    game_over, eliminated = _describe_loss(request, loss, d)
    final = (
        run.state
        if run is not None
        else state_after(request, max(loss.iteration - 1, 0), loss.action)
    )
    return _finish(
        d,
        common,
        iterations=loss.iteration,
        stopped_by=None,
        stop_kind=None,
        draw=bool(game_over and game_over.draw),
        game_over=game_over,
        final_state=final,
        eliminated=eliminated,
        **fields,
    )


def _finish(d: _Draft, common: dict[str, Any], **fields: Any) -> LoopOutcome:
    fields.setdefault("must_deviate", None)
    fields.setdefault("shortcut_allowed", True)
    fields.setdefault("decided_by", "mtr" if cite.MTR_LOOPS in d.cites else "cr")
    return LoopOutcome(
        explanation=" ".join(d.sentences),
        citations=tuple(d.cites),
        steps=tuple(d.steps),
        **common,
        **fields,
    )


def _describe_declarations(
    request: LoopRequest,
    d: _Draft,
    made: Sequence[tuple[str, Declaration]],
    lowest: Declaration | None,
    chooser: str | None,
) -> None:
    words = {
        "accept": "accepts",
        "no_action": "will take no action to stop it",
        "indefinitely": "will continue indefinitely",
    }
    parts = [
        f"{p} {words[v] if isinstance(v, str) else 'names ' + _count_words(request, v)}"
        for p, v in made
    ]
    if d.kind is LoopKind.MAINTAINED_BY_ONE:
        d.say(
            f"Under the loop rules, {d.maintainers[0]} names a number of iterations and each other "
            "player in turn order accepts it or names a lower number after which they will act; "
            "the lowest number wins.",
            cite.SHORTCUT_PROPOSAL,
            cite.SHORTCUT_SHORTEN,
            cite.MTR_LOOPS,
        )
    elif d.kind is LoopKind.MANDATORY:
        d.say(
            "Under the loop rules, each player in turn order names a number of iterations after "
            "which they will act to break the loop, or says they will take no action; the lowest "
            "number wins.",
            cite.MTR_LOOPS,
        )
    elif d.kind is not LoopKind.FRAGMENTED:  # already said by _describe_fragmented
        d.say(
            "Under the loop rules, each player in turn order names a number of iterations"
            + (" or says they will continue indefinitely" if request.spans_turns else "")
            + "; the lowest number wins.",
            cite.MTR_LOOPS,
        )
    d.say("Declared: " + "; ".join(parts) + ".")
    d.steps.extend(parts)
    if lowest is not None:
        d.steps.append(f"lowest number: {_count_words(request, lowest)}, named by {chooser}")


def _endless(
    request: LoopRequest, d: _Draft, common: dict[str, Any], run: Playout | None
) -> LoopOutcome:
    if run is not None and run.cycle is not None:
        every = (
            "after every iteration" if run.cycle[1] == 1 else f"every {_n(run.cycle[1])} iterations"
        )
        d.say(
            f"Played out step by step, the game returns to the same state {every}, so the loop "
            "never ends the game on its own."
        )
    if d.kind is LoopKind.MANDATORY:
        d.say(
            "Nobody will stop the loop and it never ends the game by itself, so under the rules "
            "for ending the game it is a draw.",
            cite.DRAW_MANDATORY_LOOP,
            cite.LOOP_MANDATORY,
        )
    else:
        d.say(
            "Every player chose to continue the loop indefinitely across turns, so the game is a "
            "draw.",
            cite.MTR_LOOPS,
        )
    return _finish(
        d,
        common,
        iterations=None,
        stopped_by=None,
        stop_kind=None,
        draw=True,
        game_over=GameOver((), (), True, None, None),
        final_state=None,
    )


def _say_horizon(d: _Draft, common: dict[str, Any]) -> bool:
    """Say after how many iterations state-based actions would end the game, when they would; True
    when they would."""
    horizon = common["ends_game_after"]
    if horizon is None:
        return False
    d.say(
        f"If the loop is performed {_n(horizon.iteration)} times or more, state-based actions "
        f"end the game during iteration {_n(horizon.iteration)}: "
        f"{_names(list(horizon.reasons))} would lose.",
        cite.SBA_CHECK,
    )
    return True


def _undeclared(request: LoopRequest, d: _Draft, common: dict[str, Any]) -> LoopOutcome:
    first = d.maintainers[0]
    d.say(
        f"No numbers were declared yet: {first} must name a number of iterations first.",
        cite.SHORTCUT_PROPOSAL,
        cite.MTR_LOOPS,
    )
    _say_horizon(d, common)
    return _must_name(d, common, first)


def _must_name(d: _Draft, common: dict[str, Any], first: str) -> LoopOutcome:
    """Nothing is performed yet: `first` must name a number of iterations (or no action) first."""
    return _finish(
        d,
        common,
        iterations=None,
        stopped_by=first,
        stop_kind="must_name_number",
        draw=False,
        game_over=None,
        final_state=None,
    )


def _undecided_breakers(request: LoopRequest, kind: LoopKind) -> tuple[str, ...]:
    """In a loop of mandatory actions, the players able to break it (a breaker outside it, or the
    [B] of "[A] unless [B]") whose choice ``declared`` does not give: it is theirs to make (MTR 4.4,
    CR 729.6), never presumed."""
    if kind is not LoopKind.MANDATORY:
        return ()
    declared = request.declared or {}
    return tuple(p for p in breakers_of(request) if p not in declared)


def _breakers_undeclared(
    request: LoopRequest,
    d: _Draft,
    common: dict[str, Any],
    undecided: Sequence[str],
    known_endless: bool,
) -> LoopOutcome:
    """A loop of mandatory actions that a player could break, with that player's choice not given:
    each such player must say, in turn order, after how many iterations they act or that they take
    no action; only if all choose no action is it a draw (MTR 4.4)."""
    first = undecided[0]
    who = (
        f"{first}, who can break the loop, has"
        if len(undecided) == 1
        else f"{_names(undecided)}, who can each break the loop, have"
    )
    d.say(
        f"{who} not said yet what they choose, and it is not presumed: under the tournament loop "
        "rules each player in turn order says after how many iterations they will act to break "
        "the loop, or that they will take no action, and the game is a draw only if all players "
        f"choose to take no action. {first} must say it first.",
        cite.MTR_LOOPS,
        cite.LOOP_NOT_FORCED,
    )
    if not _say_horizon(d, common) and known_endless:
        d.say(
            "If every player chooses to take no action, the loop never ends the game by itself and "
            "the game is a draw.",
            cite.DRAW_MANDATORY_LOOP,
        )
    return _must_name(d, common, first)


def _refuse_restart(request: LoopRequest, d: _Draft, common: dict[str, Any]) -> LoopOutcome:
    who = d.maintainers[0]
    d.say(
        "This loop was already shortcut and the game has not changed in a relevant way since, so "
        "under the tournament loop rules it may not be restarted: "
        f"{who} must do something else.",
        cite.MTR_LOOPS,
    )
    return _finish(
        d,
        common,
        shortcut_allowed=False,
        iterations=0,
        stopped_by=who,
        stop_kind="makes_different_choice",
        must_deviate=who,
        draw=False,
        game_over=None,
        final_state={p: dict(c) for p, c in request.state.items()},
        refused=True,
    )


def _non_deterministic(request: LoopRequest, d: _Draft, common: dict[str, Any]) -> LoopOutcome:
    who = d.maintainers[0] if d.maintainers else None
    d.say(
        (
            "This loop relies on chance or on decisions along the way, so under the tournament "
            "loop rules it cannot be shortcut: it is played out for real, and "
        )
        + (f"{who} " if who else "the players ")
        + "must stop as soon as the game reaches a state it was in before.",
        cite.MTR_LOOPS,
        cite.SHORTCUT_PROPOSAL,
    )
    if request.declared:
        d.say("The numbers declared do not apply to such a loop.")
    return _finish(
        d,
        common,
        shortcut_allowed=False,
        iterations=None,
        stopped_by=who,
        stop_kind="must_stop" if who else None,
        draw=False,
        game_over=None,
        final_state=None,
    )


def _fragmented(
    request: LoopRequest, d: _Draft, common: dict[str, Any], max_steps: int
) -> LoopOutcome:
    """A fragmented loop in which nobody named a number of iterations: CR 729.3 settles it."""
    # CR 729.3: the active player, or the first involved player in turn order, makes a
    # different choice.
    ap = request.players[0]
    who = ap if ap in d.maintainers else d.maintainers[0]
    d.say(
        f"This is a fragmented loop: {_names(d.maintainers)} each take an independent action and "
        "the game comes back to a state it was in before.",
        cite.LOOP_FRAGMENTED,
    )
    whom = (
        f"the active player, {who},"
        if who == ap
        else (
            "the active player is not involved in the loop, so the first involved player in "
            f"turn order, {who},"
        )
    )
    d.say(
        "No player named a number of iterations, so the rule for fragmented loops settles it: "
        f"{whom} must make a different game choice so the loop does not continue.",
        cite.LOOP_FRAGMENTED,
    )
    d.say(
        "(In a tournament the players may instead each name a number of iterations; the lowest "
        "then stands and the player who named it makes the different choice.)",
        cite.TOURNAMENT_RULES_PREVAIL,
        cite.MTR_LOOPS,
    )
    loss, run = _find_loss(request, 1, max_steps)
    if run is not None:
        common.update(gave_up=run.gave_up, cycle=run.cycle)
    if loss is not None:
        return _end_at_loss(request, loss, run, d, common, decided_by="cr")
    final = run.state if run is not None else state_after(request, 1)
    return _finish(
        d,
        common,
        iterations=1,
        stopped_by=who,
        must_deviate=who,
        stop_kind="makes_different_choice",
        draw=False,
        game_over=None,
        final_state=final,
        decided_by="cr",
    )


def _describe_fragmented(request: LoopRequest, d: _Draft) -> None:
    d.say(
        f"This is a fragmented loop: {_names(d.maintainers)} each take an independent action and "
        "the game comes back to a state it was in before.",
        cite.LOOP_FRAGMENTED,
    )
    across = " across turns" if request.spans_turns else " within a turn"
    d.say(
        "In a tournament the Tournament Rules take precedence over the Comprehensive Rules on "
        f"loops, and they speak to loops kept going by two or more players{across}: each of those "
        "players names a number of iterations"
        + (" or says they will continue indefinitely" if request.spans_turns else "")
        + ", and the lowest number stands. This is decided by the Magic Tournament Rules.",
        cite.TOURNAMENT_RULES_PREVAIL,
        cite.MTR_LOOPS,
    )
