"""Checking a game-outcome request (the API's JSON) and building the typed request; errors name the field."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engines.errors import RequestError
from engines.games.records import (
    MAX_PLAYERS,
    MAX_VALUE,
    STARTING_LIFE,
    EffectType,
    GameEffect,
    GameFormat,
    GameRequest,
    PlayerState,
    unit_of,
)
from engines.games.teams import share_team_counts


def _int(value: Any, name: str, *, low: int = -MAX_VALUE) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise RequestError(name, f"must be a whole number, not {value!r}")
    if value < low:
        raise RequestError(name, "must not be negative" if low == 0 else f"must be at least {low}")
    if value > MAX_VALUE:
        raise RequestError(name, f"must be at most {MAX_VALUE:,}")
    return value


def _flag(data: Mapping[str, Any], key: str, name: str) -> bool:
    value = data.get(key, False)
    if value is None:
        return False
    if not isinstance(value, bool):
        raise RequestError(name, "must be true or false")
    return value


def _player(data: Any, i: int, fmt: GameFormat) -> PlayerState:
    name = f"players[{i}]"
    if not isinstance(data, Mapping):
        raise RequestError(name, "must be an object with at least a name")
    player = data.get("name")
    if not isinstance(player, str) or not player.strip():
        raise RequestError(f"{name}.name", "is required")
    damage = data.get("commander_damage") or {}
    if not isinstance(damage, Mapping):
        raise RequestError(f"{name}.commander_damage", "must map each commander to the combat damage it dealt")
    if damage and fmt is not GameFormat.COMMANDER:
        raise RequestError(f"{name}.commander_damage", "only counts in the commander format")
    team = data.get("team")
    if team is not None and not isinstance(team, str):
        raise RequestError(f"{name}.team", "must be a team name or null")
    return PlayerState(
        name=player,
        life=_int(data.get("life", STARTING_LIFE[fmt]), f"{name}.life"),
        poison=_int(data.get("poison", 0), f"{name}.poison", low=0),
        drew_from_empty_library=_flag(data, "drew_from_empty_library", f"{name}.drew_from_empty_library"),
        commander_damage={str(k): _int(v, f"{name}.commander_damage.{k}", low=0) for k, v in damage.items()},
        team=team,
        left_game=_flag(data, "left_game", f"{name}.left_game"),
    )


def _check_format(fmt: GameFormat, players: Sequence[PlayerState]) -> None:
    teams = [p.team for p in players]
    if fmt is GameFormat.TWO_PLAYER:
        if len(players) != 2:
            raise RequestError("players", "a two-player game has exactly two players")
        if any(teams):
            raise RequestError("players[0].team" if teams[0] else "players[1].team", "a two-player game has no teams")
    elif fmt is GameFormat.MULTIPLAYER and len(players) < 3:
        raise RequestError("players", "a multiplayer game begins with more than two players; use two_player")
    elif fmt is GameFormat.TWO_HEADED_GIANT:
        for i, p in enumerate(players):
            if p.team is None:
                raise RequestError(f"players[{i}].team", "every Two-Headed Giant player is on a team")
        sizes = {t: teams.count(t) for t in teams}
        if len(sizes) != 2 or len(set(sizes.values())) != 1 or min(sizes.values()) < 2:
            raise RequestError("players", "Two-Headed Giant is two teams of the same size, two or more players each")
        for i, p in enumerate(players):
            # Issue 27: shared life and poison are checked in teams.share_team_counts. CR 810.8a-b: a player leaves
            # only with the team, and then the game is over.
            if p.left_game:
                raise RequestError(f"players[{i}].left_game", "in Two-Headed Giant a player leaves the game only with their team")
    elif len(players) < 2:
        raise RequestError("players", "a game has at least two players")
    if len({unit_of(p) for p in players if not p.left_game}) < 2:
        raise RequestError("players", "at least two players or teams must still be in the game")


def validate_game_request(data: Mapping[str, Any]) -> GameRequest:
    """Check a game-outcome request (the API's JSON) and build the typed request.

    Raises ``RequestError(field, message)``: unknown format, missing or repeated names, negative
    poison or damage, values above 10^18, teams that do not fit the format, effects naming unknown
    players or players who already left, and contradictory effects (two different winners, a win
    together with a draw).
    """
    if not isinstance(data, Mapping):
        raise RequestError("body", "must be an object")
    if "format" not in data:
        raise RequestError("format", f"is required: one of {[f.value for f in GameFormat]}")
    try:
        fmt = GameFormat(data["format"])
    except ValueError:
        raise RequestError("format", f"must be one of {[f.value for f in GameFormat]}") from None
    raw = data.get("players")
    if not isinstance(raw, list) or not raw:
        raise RequestError("players", "must be a non-empty list")
    if len(raw) > MAX_PLAYERS:
        raise RequestError("players", f"at most {MAX_PLAYERS} players")
    players = tuple(_player(p, i, fmt) for i, p in enumerate(raw))
    names = [p.name for p in players]
    for i, n in enumerate(names):
        if n in names[:i]:
            raise RequestError(f"players[{i}].name", f"{n!r} appears twice")
    _check_format(fmt, players)
    # Issue 27: a Two-Headed Giant team's one life total and poison count (CR 810.4, 810.10), in engines/games/teams.py.
    players, teams = share_team_counts(fmt, data.get("teams"), raw, players)
    effects = _effects(data.get("effects") or [], players)
    request = GameRequest(fmt, players, effects, _flag(data, "mandatory_loop", "mandatory_loop"), teams)
    _check_winners(request)
    return request


def _effects(raw: Any, players: Sequence[PlayerState]) -> tuple[GameEffect, ...]:
    if not isinstance(raw, list):
        raise RequestError("effects", "must be a list")
    by_name = {p.name: p for p in players}
    out = []
    for i, e in enumerate(raw):
        name = f"effects[{i}]"
        if not isinstance(e, Mapping):
            raise RequestError(name, "must be an object with type and player")
        try:
            kind = EffectType(e.get("type"))
        except ValueError:
            raise RequestError(f"{name}.type", f"must be one of {', '.join(t.value for t in EffectType)}") from None
        player = e.get("player")
        if kind is EffectType.DRAW and player is None:
            pass   # a draw may name whose effect it is (CR 104.4c), or nobody
        elif player not in by_name:
            raise RequestError(f"{name}.player", f"{player!r} is not one of the players")
        elif by_name[player].left_game:
            raise RequestError(f"{name}.player", f"{player} has already left the game")
        out.append(GameEffect(kind, player))
    return tuple(out)


def _check_winners(request: GameRequest) -> None:
    by_name = {p.name: p for p in request.players}
    winners = {unit_of(by_name[e.player]) for e in request.effects if e.type is EffectType.WIN and e.player}
    if len(winners) > 1:
        raise RequestError("effects", "players on different sides cannot both win at the same moment; list only what happens first")
    if winners and any(e.type is EffectType.DRAW for e in request.effects):
        raise RequestError("effects", "a player cannot win at the same moment as the game becomes a draw; list only what happens first")
