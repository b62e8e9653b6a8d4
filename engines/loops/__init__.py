"""Loop outcomes: how a repeating sequence of game actions is shortcut, who stops it, and how
it ends.

Rules encoded (CR 2025-02-07 numbering, MTR of 2019-06-06): a shortcut names a number of iterations
and the other players accept or shorten it, the lowest number wins (CR 729.2a-c, MTR 4.4); a
fragmented loop in which nobody named a number is settled by CR 729.3: the active player (or, if not
involved, the first involved player in turn order) makes a different choice (``must_deviate``); once
its players name numbers it follows MTR 4.4 like any loop kept going by two or more players, as the
MTR takes precedence in tournaments (CR 729.1c): the lowest stands and its player makes a different
choice; a loop of only mandatory actions is a draw (CR 729.4, 104.4b) unless state-based actions end
the game first (CR 704.5a-c) or end it for everyone at once (CR 104.4a); nobody is forced to use an
action outside the loop to end it (CR 729.5); "[A] unless [B]" repeats as if [A] were mandatory
unless someone chooses [B] (CR 729.6); across turns, "indefinitely" by everyone is a draw,
non-deterministic loops cannot be shortcut and a shortcut loop cannot be restarted without a
relevant change (MTR 4.4).

Model:
- ``state`` holds counters per player (life, poison, library, any other name). Missing life is 20,
  missing poison and other counters are 0; library has no default and is required once a loop draws.
- Each action's ``effects`` change counters once per iteration. A whole number is a linear change;
  an object is a non-linear one: ``{"times": k}`` (multiply), ``{"set": n}``, or
  ``{"per": {"player": P, "counter": C}, "factor": f}`` (add f times P's C as it was when the
  action began).
- A negative ``library`` change of k is drawing k cards (``cards_drawn`` given without ``library``
  is read as the same draw). When the library would go below 0 the player drew from an empty library
  (CR 104.3c): the library stays at 0 and the player loses at the next state-based action check.
- Poison counters stop at 0: a loop that removes them is played out, not answered by arithmetic.
- ``tokens`` can't go below 0: an action that would spend a token its player doesn't have can't be
  taken (CR 729.2a: only choices that "may be legally taken"), so the loop stops just before it
  (``stop_kind`` "cannot_continue"; a loop of mandatory actions that runs out is no draw).
- Granularity: each action is one event after which a player would receive priority, so state-based
  actions (CR 704.3) are checked after every action of every iteration, and at the start.
- Linear loops are answered by arithmetic: for every player, condition and action the first
  iteration that crosses a threshold is one division, so 10^18 iterations cost what 10 cost.
  Non-linear loops are played out action by action up to ``max_steps`` actions, watching for a
  repeated state (a cycle that never ends the game, from which the state after any count is read
  off); running out of budget is reported as ``gave_up``, not raised.
- ``declared`` takes, per player, a number of iterations, "accept", "indefinitely", "no_action", or
  ``{"iterations": N, "after_action": J}``: N whole iterations, then the next one only up to and
  including action J (MTR 4.4 lets an intervening player stop partway). The lowest count wins; on a
  tie the player who declared first keeps it. Players left out of ``declared`` accept; in a loop of
  only mandatory actions a player with no way to break it takes no action (CR 729.5), but the choice
  of a player who can break it (a ``breakers`` player, or the [B] player of "[A] unless [B]") is
  never presumed: while ``declared`` (absent or partial) does not give it, the result asks for it
  (``stop_kind`` must_name_number, ``stopped_by`` the first such player in turn order), as MTR 4.4
  makes the game a draw only "If all players choose to take no action" (CR 729.6).
- In a game of three or more, a player who loses leaves (CR 104.5, 800.4) and the result stops
  there, listing them in ``eliminated``; the remaining players describe the loop again. It stops
  for certain when a leaving player takes an action of it (their objects leave with them, CR
  800.4a); otherwise it may go on, and the explanation says so.
- Kinds: no optional action is ``mandatory``; one player's optional actions ``maintained_by_one``;
  several players' ``maintained_by_several``, or ``fragmented`` when an iteration changes no counter
  on balance (the game returns to the same state, CR 729.3); ``deterministic: false`` is
  ``non_deterministic``.

Request fields beyond docs/API.md: ``restarted_without_change`` (bool; the loop is refused, MTR
4.4), ``fragmented`` (bool or null, overrides the inference above), ``poison_threshold`` (default
10). Result fields beyond docs/API.md: ``maintainers``, ``stop_kind`` (receives_priority,
breaks_loop, makes_different_choice, must_name_number, must_stop, cannot_continue), ``declarations``
(in declaring order), ``ends_game_after``, ``thresholds`` (per player and condition),
``eliminated``, ``method``, ``gave_up``, ``cycle``, ``refused``, ``then_actions``, ``steps``,
``decided_by`` ("mtr" or "cr": which document decided); ``game_over`` also has ``after_action``.
"""

from __future__ import annotations

from engines.loops.kinds import breakers_of, classify_loop, maintainers_of
from engines.loops.records import (
    MAX_COUNT,
    Action,
    ActionKind,
    Breaker,
    Change,
    Declaration,
    GameOver,
    LoopKind,
    LoopOutcome,
    LoopRequest,
    Loss,
    PartialCount,
    count_key,
)
from engines.loops.requests import check_declarations, validate_loop_request
from engines.loops.resolution import resolve_loop
from engines.loops.thresholds import (
    Playout,
    Shortage,
    first_loss_arithmetic,
    first_shortage,
    play_out,
    state_after,
    thresholds_by_player,
)

__all__ = [
    "MAX_COUNT",
    "Action",
    "ActionKind",
    "Breaker",
    "Change",
    "Declaration",
    "GameOver",
    "LoopKind",
    "LoopOutcome",
    "LoopRequest",
    "Loss",
    "PartialCount",
    "Playout",
    "Shortage",
    "breakers_of",
    "count_key",
    "check_declarations",
    "classify_loop",
    "first_loss_arithmetic",
    "first_shortage",
    "maintainers_of",
    "play_out",
    "resolve_loop",
    "state_after",
    "thresholds_by_player",
    "validate_loop_request",
]
