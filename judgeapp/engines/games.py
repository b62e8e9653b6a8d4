"""Game outcomes: who wins, who loses, or whether the game is a draw, from one moment's life totals and effects.

Encodes CR 104 (ending the game) with the state-based actions of CR 704, for four formats:

- ``two_player``: exactly two players, no teams.
- ``multiplayer``: a free-for-all of three or more players (CR 800.1), optionally in teams
  (CR 104.2c, 104.3g, 104.4d: a team loses when all its players have lost). Losers leave and the game
  goes on for the others (CR 104.5, 800.4). The limited range of influence option is not modelled.
- ``two_headed_giant``: two equal teams of two or more; each team shares one life total and one poison
  count (CR 810.4, 810.10), so teammates must report the same life and poison; a team loses at 0 life
  or at 15 poison counters, 5 more per player beyond the second (CR 810.8c-d, 810.11), and players win
  and lose only as a team (CR 810.8a).
- ``commander``: like multiplayer (two or more players, as Commander duels exist), plus 21 or more
  combat damage from one commander loses (CR 104.3j, 903.10a).

Order of events in one request: the listed ``effects`` happen together first (an effect that makes a
player win or lose or makes the game a draw takes effect as it resolves, before state-based actions are
next checked); then state-based actions are checked once for the players still in; then, if the game is
still going, a mandatory loop makes it a draw (CR 104.4b). A player who would win and lose at once loses
(CR 104.3f); if every remaining player (or team) loses at once, the game is a draw (CR 104.4a, 104.4d).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from judgeapp.engines import citations as cite
from judgeapp.engines.errors import RequestError

MAX_PLAYERS = 16
MAX_VALUE = 10**18
POISON_LIMIT = 10            # CR 104.3d
COMMANDER_DAMAGE_LIMIT = 21  # CR 903.10a
THG_POISON_LIMIT = 15        # CR 810.8d, plus 5 per player beyond the second (CR 810.11)


class GameFormat(str, Enum):
    TWO_PLAYER = "two_player"
    MULTIPLAYER = "multiplayer"
    TWO_HEADED_GIANT = "two_headed_giant"
    COMMANDER = "commander"


STARTING_LIFE = {GameFormat.TWO_PLAYER: 20, GameFormat.MULTIPLAYER: 20, GameFormat.TWO_HEADED_GIANT: 30, GameFormat.COMMANDER: 40}


class EffectType(str, Enum):
    WIN = "win"
    LOSE = "lose"
    DRAW = "draw"
    CONCEDE = "concede"


@dataclass(frozen=True)
class PlayerState:
    name: str
    life: int
    poison: int = 0
    drew_from_empty_library: bool = False
    commander_damage: Mapping[str, int] = field(default_factory=dict)   # commander -> combat damage dealt to this player
    team: str | None = None
    left_game: bool = False     # already out of the game before this moment


@dataclass(frozen=True)
class GameEffect:
    type: EffectType
    player: str | None = None


@dataclass(frozen=True)
class GameRequest:
    format: GameFormat
    players: tuple[PlayerState, ...]
    effects: tuple[GameEffect, ...] = ()
    mandatory_loop: bool = False


@dataclass(frozen=True)
class GameOutcome:
    result: str                          # "ongoing", "win" or "draw"
    winners: tuple[str, ...]
    losers: tuple[str, ...]              # players who lose at this moment (not those who lose into a draw)
    explanation: str
    citations: tuple[str, ...]
    reasons: Mapping[str, tuple[str, ...]] = field(default_factory=dict)   # player -> why they lost
    remaining: tuple[str, ...] = ()      # players still in the game afterwards (none once it is over)

    def to_dict(self) -> dict[str, Any]:
        return {"result": self.result, "winners": list(self.winners), "losers": list(self.losers),
                "explanation": self.explanation, "citations": list(self.citations),
                "reasons": {p: list(r) for p, r in self.reasons.items()}, "remaining": list(self.remaining)}


# ---------------------------------------------------------------------------------------------- validation

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
            mate = next(q for q in players if q.team == p.team)
            if (p.life, p.poison) != (mate.life, mate.poison):
                raise RequestError(f"players[{i}].life" if p.life != mate.life else f"players[{i}].poison",
                                   f"teammates share one life total and one poison count: {p.name} and {mate.name} differ")
    elif len(players) < 2:
        raise RequestError("players", "a game has at least two players")
    if len({_unit(fmt, p) for p in players if not p.left_game}) < 2:
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
    effects = _effects(data.get("effects") or [], players)
    request = GameRequest(fmt, players, effects, _flag(data, "mandatory_loop", "mandatory_loop"))
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
            raise RequestError(f"{name}.type", "must be win, lose, draw or concede") from None
        player = e.get("player")
        if kind is EffectType.DRAW:
            if player is not None:
                raise RequestError(f"{name}.player", "an effect that makes the game a draw names no player")
        elif player not in by_name:
            raise RequestError(f"{name}.player", f"{player!r} is not one of the players")
        elif by_name[player].left_game:
            raise RequestError(f"{name}.player", f"{player} has already left the game")
        out.append(GameEffect(kind, player))
    return tuple(out)


def _check_winners(request: GameRequest) -> None:
    by_name = {p.name: p for p in request.players}
    winners = {_unit(request.format, by_name[e.player]) for e in request.effects if e.type is EffectType.WIN and e.player}
    if len(winners) > 1:
        raise RequestError("effects", "players on different sides cannot both win at the same moment; list only what happens first")
    if winners and any(e.type is EffectType.DRAW for e in request.effects):
        raise RequestError("effects", "a player cannot win at the same moment as the game becomes a draw; list only what happens first")


# ---------------------------------------------------------------------------------------------- decision

def _unit(fmt: GameFormat, p: PlayerState) -> str:
    """Who wins and loses together: the team in a team game, otherwise the player."""
    return p.team if p.team is not None else p.name


@dataclass
class _Moment:
    request: GameRequest
    in_game: list[PlayerState]
    sentences: list[str] = field(default_factory=list)
    cites: list[str] = field(default_factory=list)
    reasons: dict[str, list[str]] = field(default_factory=dict)
    losers: list[str] = field(default_factory=list)

    def say(self, sentence: str, *refs: str) -> None:
        self.sentences.append(sentence)
        self.cites.extend(r for r in refs if r not in self.cites)

    @property
    def teams(self) -> bool:
        return any(p.team for p in self.request.players)

    def unit(self, p: PlayerState) -> str:
        return _unit(self.request.format, p)

    def outcome(self, result: str, winners: Sequence[str] = (), remaining: Sequence[str] = ()) -> GameOutcome:
        losers = tuple(p for p in self.losers if p not in winners)   # CR 104.2c: a winning team's players all win
        return GameOutcome(result, tuple(winners), losers, " ".join(self.sentences), tuple(self.cites),
                           {p: tuple(r) for p, r in self.reasons.items()}, tuple(remaining))


def _names(names: Sequence[str]) -> str:
    names = list(names)
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _lose_verb(names: Sequence[str]) -> str:
    return "loses" if len(names) == 1 else "lose"


def decide_game(request: GameRequest) -> GameOutcome:
    """Decide the game at one moment: ``result`` "win" (with ``winners``), "draw", or "ongoing" (with any ``losers``)."""
    m = _Moment(request, [p for p in request.players if not p.left_game])
    ended = _apply_effects(m)
    if ended is not None:
        return ended
    ended = _apply_state_based_actions(m)
    if ended is not None:
        return ended
    if request.mandatory_loop:
        m.say("The game is caught in a loop of mandatory actions that nobody can stop, so the game is a draw.",
              cite.DRAW_MANDATORY_LOOP, cite.LOOP_MANDATORY)
        return m.outcome("draw")
    if not m.losers:
        m.say("Nothing here ends the game: nobody wins or loses, and the game goes on.", cite.GAME_ENDS)
    return m.outcome("ongoing", remaining=[p.name for p in m.in_game])


def _apply_effects(m: _Moment) -> GameOutcome | None:
    by_name = {p.name: p for p in m.request.players}
    lose = {e.player: e.type for e in m.request.effects if e.type in (EffectType.LOSE, EffectType.CONCEDE) and e.player}
    win = [e.player for e in m.request.effects if e.type is EffectType.WIN and e.player]
    for player, kind in lose.items():
        m.reasons.setdefault(player, []).append(kind.value if kind is EffectType.CONCEDE else "effect")
        if kind is EffectType.CONCEDE:
            m.say(f"{player} concedes and loses the game.", cite.LOSE_CONCEDE)
        else:
            m.say(f"An effect says {player} loses the game.", cite.LOSE_EFFECT)
    if win:
        m.say(f"An effect says {_names(sorted(set(win)))} {'wins' if len(set(win)) == 1 else 'win'} the game.", cite.WIN_EFFECT)
        # CR 104.3f: a player who would win and lose at once loses; in Two-Headed Giant the team does (CR 810.8a).
        if m.request.format is GameFormat.TWO_HEADED_GIANT:
            unit = m.unit(by_name[win[0]])
            if unit not in _losing_units(m, set(lose)):
                return _win(m, unit)
            m.say(f"{_side(m, unit)} would win and lose at the same time, so the team loses.", cite.WIN_AND_LOSE)
        else:
            standing = [w for w in win if w not in lose]
            if standing:
                return _win(m, m.unit(by_name[standing[0]]))
            both = sorted(set(win))
            m.say(f"{_names(both)} would win and lose at the same time, so {_names(both)} {_lose_verb(both)} the game.", cite.WIN_AND_LOSE)
    ended = _remove_losers(m, set(lose))
    if ended is not None:
        return ended
    if any(e.type is EffectType.DRAW for e in m.request.effects):
        m.say("An effect says the game is a draw.", cite.DRAW_EFFECT)
        return m.outcome("draw")
    return None


def _is_team(m: _Moment, unit: str) -> bool:
    return any(p.team == unit for p in m.request.players)


def _side(m: _Moment, unit: str) -> str:
    if _is_team(m, unit):
        return f"Team {unit} ({_names([p.name for p in m.request.players if p.team == unit])})"
    return unit


def _losing_units(m: _Moment, losing_players: set[str]) -> set[str]:
    """Sides that lose when these players lose: any player in Two-Headed Giant (CR 810.8a), all of a team otherwise (CR 104.3g)."""
    units = set()
    for unit in {m.unit(p) for p in m.in_game}:
        members = [p.name for p in m.in_game if m.unit(p) == unit]
        if m.request.format is GameFormat.TWO_HEADED_GIANT:
            if any(n in losing_players for n in members):
                units.add(unit)
        elif all(n in losing_players for n in members):
            units.add(unit)
    return units


def _win(m: _Moment, unit: str) -> GameOutcome:
    # CR 104.2c: every player on the winning team wins, even one who had already lost.
    winners = [p.name for p in m.request.players if m.unit(p) == unit]
    others = [p.name for p in m.in_game if m.unit(p) != unit and p.name not in m.losers]
    m.losers.extend(others)
    if _is_team(m, unit):
        m.say(f"{_side(m, unit)} wins the game; every player on the team wins.",
              cite.THG_TEAM_WINS_LOSES if m.request.format is GameFormat.TWO_HEADED_GIANT else cite.WIN_TEAM)
    else:
        m.say(f"{unit} wins the game.", cite.GAME_ENDS)
    if others:
        m.say(f"The game is over, so {_names(others)} {_lose_verb(others)}.", cite.GAME_ENDS)
    return m.outcome("win", winners)


def _remove_losers(m: _Moment, losing_players: set[str]) -> GameOutcome | None:
    """Players and sides who lose leave; one side left wins (CR 104.2a, 104.2c), none left is a draw (CR 104.4a, 104.4d)."""
    if not losing_players:
        return None
    units = _losing_units(m, losing_players)
    thg = m.request.format is GameFormat.TWO_HEADED_GIANT
    leaving = [p for p in m.in_game if m.unit(p) in units or (not thg and p.name in losing_players)]
    remaining = [p for p in m.in_game if p not in leaving]
    remaining_units = {m.unit(p) for p in remaining}
    for u in sorted(units) if thg else ():
        members = [p.name for p in m.in_game if m.unit(p) == u]
        if any(not r.startswith("team_") for n in members for r in m.reasons.get(n, [])):
            m.say(f"{_side(m, u)} loses the game, as players win and lose only as a team.", cite.THG_TEAM_WINS_LOSES)
    if not remaining_units:
        names = [p.name for p in leaving]
        m.say(f"{_names(names)} {'both' if len(names) == 2 else 'all'} lose at the same time and nobody is left, so the game is a draw.",
              cite.DRAW_ALL_TEAMS_LOSE if m.teams else cite.DRAW_ALL_LOSE)
        return m.outcome("draw")
    m.losers.extend(p.name for p in leaving)
    m.in_game = remaining
    if len(remaining_units) == 1:
        unit = next(iter(remaining_units))
        if _is_team(m, unit):
            m.say(f"All the other players have left the game, so {_side(m, unit)} wins.", cite.WIN_TEAM)
            return m.outcome("win", [p.name for p in m.request.players if m.unit(p) == unit])
        m.say(f"{unit} is the only player left in the game and wins.", cite.WIN_OPPONENTS_LEFT)
        return m.outcome("win", [unit])
    names = [p.name for p in leaving]
    m.say(f"{_names(names)} {'leaves' if len(names) == 1 else 'leave'} the game, which goes on for "
          f"{_names([p.name for p in remaining])}.", cite.LEAVES_GAME, cite.MULTIPLAYER_CONTINUES)
    return None


def _apply_state_based_actions(m: _Moment) -> GameOutcome | None:
    fmt = m.request.format
    losing: set[str] = set()

    def lose(p: PlayerState, reason: str, sentence: str, *refs: str) -> None:
        losing.add(p.name)
        m.reasons.setdefault(p.name, []).append(reason)
        m.say(sentence, cite.SBA_CHECK, *refs)

    if fmt is GameFormat.TWO_HEADED_GIANT:
        _team_sbas(m, lose)
    for p in m.in_game:
        if fmt is not GameFormat.TWO_HEADED_GIANT and p.life <= 0:
            lose(p, "life", f"{p.name} has {p.life} life, so {p.name} loses the game when state-based actions are checked.",
                 cite.LOSE_LIFE, cite.SBA_LIFE)
        if fmt is not GameFormat.TWO_HEADED_GIANT and p.poison >= POISON_LIMIT:
            lose(p, "poison", f"{p.name} has {p.poison} poison counters, ten or more, so {p.name} loses the game.",
                 cite.LOSE_POISON, cite.SBA_POISON)
        if p.drew_from_empty_library:
            lose(p, "empty_library", f"{p.name} had to draw a card from an empty library, so {p.name} loses the game.",
                 cite.LOSE_EMPTY_LIBRARY, cite.SBA_EMPTY_LIBRARY)
        for commander, damage in sorted(p.commander_damage.items()):
            if damage >= COMMANDER_DAMAGE_LIMIT:
                lose(p, "commander_damage", f"{p.name} has been dealt {damage} combat damage by the commander {commander}, "
                     f"21 or more, so {p.name} loses the game.", cite.LOSE_COMMANDER, cite.COMMANDER_DAMAGE, cite.SBA_COMMANDER)
    return _remove_losers(m, losing)


def _team_sbas(m: _Moment, lose: Any) -> None:
    # CR 810.8c-d, 810.11: a team shares life and poison; the poison limit grows by 5 per player beyond two.
    for unit in sorted({m.unit(p) for p in m.in_game}):
        members = [p for p in m.request.players if m.unit(p) == unit]
        limit = THG_POISON_LIMIT + 5 * (len(members) - 2)
        head = next(p for p in m.in_game if m.unit(p) == unit)
        if head.life <= 0:
            lose(head, "team_life", f"{_side(m, unit)} has {head.life} life as a team, so the team loses the game.",
                 cite.THG_TEAM_LIFE, cite.SBA_TEAM_LIFE)
        if head.poison >= limit:
            refs = (cite.THG_TEAM_POISON, cite.SBA_TEAM_POISON) + ((cite.THG_BIGGER_TEAMS,) if len(members) > 2 else ())
            lose(head, "team_poison", f"{_side(m, unit)} has {head.poison} poison counters, {limit} or more for a team of "
                 f"{len(members)}, so the team loses the game.", *refs)
