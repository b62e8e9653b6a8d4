"""Game outcomes: who wins, who loses, or whether the game is a draw, from one moment's life totals
and effects.

Encodes CR 104 (ending the game) with the state-based actions of CR 704, for four formats:

- ``two_player``: exactly two players, no teams.
- ``multiplayer``: a free-for-all of three or more players (CR 800.1), optionally in teams
  (CR 104.2c, 104.3g, 104.4d: a team loses when all its players have lost). Losers leave and the
  game goes on for the others (CR 104.5, 800.4). The limited range of influence option is
  not modelled.
- ``two_headed_giant``: two equal teams of two or more; each team has one shared life total (CR
  810.4) and one shared poison count (CR 810.10; a player's count is the team's, 810.10a), given
  once in the request's ``teams`` (``{"X": {"life": 25, "poison": 3}}``) or shown on its players,
  who must then agree (``teams.py``; values that contradict each other are refused, naming the
  field). A team starts at 30 life, 15 more per player beyond the second, and loses at 0 life or at
  15 poison counters, 5 more per player beyond the second (CR 810.8c-d, 810.11); players win and
  lose only as a team (CR 810.8a) and leave only with it (CR 810.8b). The result's ``teams`` shows
  each team's shared counts and poison limit.
- ``commander``: like multiplayer (two or more players, as Commander duels exist), plus 21 or more
  combat damage from one commander loses (CR 104.3j, 903.10a).

Order of events in one request: the listed ``effects`` happen together first, as one moment (their
order in the list is not read; an effect that makes a player win or lose or makes the game a draw
takes effect as it resolves, before state-based actions are next checked); then state-based actions
are checked once for the players still in; then, if the game is still going, a mandatory loop makes
it a draw (CR 104.4b). A player who would win and lose at once loses (CR 104.3f); if every remaining
player (or team) loses at once, the game is a draw (CR 104.4a, 104.4d). A draw effect listed with a
win, a loss or a concession is refused, naming ``effects``: the game ends as soon as it is a draw
(CR 104.1), so those are never one moment, and only what happened first may be listed.

Effects: ``win``, ``lose``, ``concede`` and ``draw`` (a draw may name whose effect it is, CR
104.4c), and ``cant_lose`` / ``cant_win`` (e.g. Platinum Angel): the card's text prevails over the
rules (CR 101.1), for the whole team in Two-Headed Giant (CR 810.8a); a concession still loses (CR
101.1, 104.3a; in Two-Headed Giant the team leaves, CR 810.8b), and the last player left wins
whatever says they can't (CR 104.2a).
"""

from __future__ import annotations

from engines.games.decision import decide_game
from engines.games.records import (
    COMMANDER_DAMAGE_LIMIT,
    MAX_PLAYERS,
    MAX_VALUE,
    POISON_LIMIT,
    STARTING_LIFE,
    THG_POISON_LIMIT,
    EffectType,
    GameEffect,
    GameFormat,
    GameOutcome,
    GameRequest,
    PlayerState,
    TeamState,
)
from engines.games.requests import validate_game_request

__all__ = [
    "COMMANDER_DAMAGE_LIMIT",
    "MAX_PLAYERS",
    "MAX_VALUE",
    "POISON_LIMIT",
    "STARTING_LIFE",
    "THG_POISON_LIMIT",
    "EffectType",
    "GameEffect",
    "GameFormat",
    "GameOutcome",
    "GameRequest",
    "PlayerState",
    "TeamState",
    "decide_game",
    "validate_game_request",
]
