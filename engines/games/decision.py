"""Deciding the game at one moment: effects first, then state-based actions, then a mandatory loop
(CR 104, 704)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from engines import citations as cite
from engines.games.records import (
    COMMANDER_DAMAGE_LIMIT,
    POISON_LIMIT,
    EffectType,
    GameFormat,
    GameOutcome,
    GameRequest,
    PlayerState,
    unit_of,
)


@dataclass
class _Moment:
    request: GameRequest
    in_game: list[PlayerState]
    sentences: list[str] = field(default_factory=list)
    cites: list[str] = field(default_factory=list)
    reasons: dict[str, list[str]] = field(default_factory=dict)
    losers: list[str] = field(default_factory=list)
    # players an effect keeps from losing (CR 101.1; whole team in 2HG, 810.8a)
    cant_lose: set[str] = field(default_factory=set)
    cant_win: set[str] = field(default_factory=set)
    # covered player -> the player the can't-lose effect names (a teammate's covers the team in 2HG)
    cant_lose_from: dict[str, str] = field(default_factory=dict)

    def say(self, sentence: str, *refs: str) -> None:
        self.sentences.append(sentence)
        self.cites.extend(r for r in refs if r not in self.cites)

    @property
    def teams(self) -> bool:
        return any(p.team for p in self.request.players)

    def unit(self, p: PlayerState) -> str:
        return unit_of(p)

    def protected(self, player: str) -> bool:
        return player in self.cant_lose

    def outcome(
        self, result: str, winners: Sequence[str] = (), remaining: Sequence[str] = ()
    ) -> GameOutcome:
        # CR 104.2c: a winning team's players all win
        losers = tuple(p for p in self.losers if p not in winners)
        return GameOutcome(
            result,
            tuple(winners),
            losers,
            " ".join(self.sentences),
            tuple(self.cites),
            {p: tuple(r) for p, r in self.reasons.items()},
            tuple(remaining),
            self.request.teams,
        )


def _names(names: Sequence[str]) -> str:
    names = list(names)
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _lose_verb(names: Sequence[str]) -> str:
    return "loses" if len(names) == 1 else "lose"


def decide_game(request: GameRequest) -> GameOutcome:
    """Decide the game at one moment: ``result`` "win" (with ``winners``), "draw", or "ongoing"
    (with any ``losers``)."""
    m = _Moment(request, [p for p in request.players if not p.left_game])
    _apply_restrictions(m)
    ended = _apply_effects(m)
    if ended is not None:
        return ended
    ended = _apply_state_based_actions(m)
    if ended is not None:
        return ended
    if request.mandatory_loop:
        m.say(
            "The game is caught in a loop of mandatory actions that nobody can stop, so the game "
            "is a draw.",
            cite.DRAW_MANDATORY_LOOP,
            cite.LOOP_MANDATORY,
        )
        return m.outcome("draw")
    if not m.losers:
        m.say(
            "Nothing here ends the game: nobody wins or loses, and the game goes on.",
            cite.GAME_ENDS,
        )
    return m.outcome("ongoing", remaining=[p.name for p in m.in_game])


def _apply_effects(m: _Moment) -> GameOutcome | None:
    by_name = {p.name: p for p in m.request.players}
    # A concession stands whatever else is listed, and in any order (CR 101.1, 104.3a: a player can
    # concede at any time): a player who concedes and whom an effect also makes lose has conceded.
    lose: dict[str, EffectType] = {}
    for e in m.request.effects:
        if e.type in (EffectType.LOSE, EffectType.CONCEDE) and e.player:
            if lose.get(e.player) is not EffectType.CONCEDE:
                lose[e.player] = e.type
    win = [e.player for e in m.request.effects if e.type is EffectType.WIN and e.player]
    for player, kind in list(lose.items()):
        if kind is EffectType.CONCEDE:
            m.reasons.setdefault(player, []).append(kind.value)
            if m.request.format is GameFormat.TWO_HEADED_GIANT:
                m.say(
                    (
                        f"{player} concedes: in Two-Headed Giant their team leaves the game "
                        "immediately and loses the game"
                    )
                    + (
                        " (an effect saying they can't lose does not stop a concession)."
                        if m.protected(player)
                        else "."
                    ),
                    cite.LOSE_CONCEDE,
                    cite.THG_CONCEDE,
                    *((cite.CARD_OVERRIDES_RULES,) if m.protected(player) else ()),
                )
            else:
                m.say(
                    f"{player} concedes and loses the game"
                    + (
                        " (an effect saying they can't lose does not stop a concession)."
                        if m.protected(player)
                        else "."
                    ),
                    cite.LOSE_CONCEDE,
                    *((cite.CARD_OVERRIDES_RULES,) if m.protected(player) else ()),
                )
        elif m.protected(player):
            del lose[player]
            source = m.cant_lose_from.get(player, player)
            # CR 810.8a: in Two-Headed Giant a teammate's can't-lose effect covers the team.
            team = (
                "" if source == player else ", and in Two-Headed Giant that covers the whole team"
            )
            m.say(
                f"An effect says {player} loses the game, but another effect says {source} can't "
                f"lose the game{team}, so {player} doesn't.",
                cite.LOSE_EFFECT,
                cite.CARD_OVERRIDES_RULES,
                *((cite.THG_TEAM_WINS_LOSES,) if team else ()),
            )
        else:
            m.reasons.setdefault(player, []).append("effect")
            m.say(f"An effect says {player} loses the game.", cite.LOSE_EFFECT)
    barred = [w for w in dict.fromkeys(win) if w in m.cant_win]
    if barred:
        win = [w for w in win if w not in m.cant_win]
        m.say(
            f"An effect says {_names(barred)} {'wins' if len(barred) == 1 else 'win'} the game, "
            "but "
            f"another effect says {_names(barred)} can't win the game, so that does not happen.",
            cite.WIN_EFFECT,
            cite.CARD_OVERRIDES_RULES,
        )
    if win:
        m.say(
            f"An effect says {_names(sorted(set(win)))} {'wins' if len(set(win)) == 1 else 'win'} "
            "the game.",
            cite.WIN_EFFECT,
        )
        # CR 104.3f: a player who would win and lose at once loses; in Two-Headed Giant the team
        # does (CR 810.8a).
        if m.request.format is GameFormat.TWO_HEADED_GIANT:
            unit = m.unit(by_name[win[0]])
            if unit not in _losing_units(m, set(lose)):
                return _win(m, unit)
            m.say(
                f"{_side(m, unit)} would win and lose at the same time, so the team loses.",
                cite.WIN_AND_LOSE,
            )
        else:
            standing = [w for w in win if w not in lose]
            if standing:
                return _win(m, m.unit(by_name[standing[0]]))
            both = sorted(set(win))
            m.say(
                f"{_names(both)} would win and lose at the same time, so {_names(both)} "
                f"{_lose_verb(both)} the game.",
                cite.WIN_AND_LOSE,
            )
    ended = _remove_losers(m, set(lose))
    if ended is not None:
        return ended
    draws = [e for e in m.request.effects if e.type is EffectType.DRAW]
    if draws:
        whose = [e.player for e in draws if e.player]
        m.say(
            f"An effect {_names(sorted(set(whose)))} controls says the game is a draw."
            if whose
            else "An effect says the game is a draw.",
            cite.DRAW_EFFECT,
        )
        return m.outcome("draw")
    return None


def _is_team(m: _Moment, unit: str) -> bool:
    return any(p.team == unit for p in m.request.players)


def _side(m: _Moment, unit: str) -> str:
    if _is_team(m, unit):
        return f"Team {unit} ({_names([p.name for p in m.request.players if p.team == unit])})"
    return unit


def _losing_units(m: _Moment, losing_players: set[str]) -> set[str]:
    """Sides that lose when these players lose: any player in Two-Headed Giant (CR 810.8a), all of a
    team otherwise (CR 104.3g)."""
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
        m.say(
            f"{_side(m, unit)} wins the game; every player on the team wins.",
            cite.THG_TEAM_WINS_LOSES
            if m.request.format is GameFormat.TWO_HEADED_GIANT
            else cite.WIN_TEAM,
        )
    else:
        m.say(f"{unit} wins the game.", cite.GAME_ENDS)
    if others:
        m.say(f"The game is over, so {_names(others)} {_lose_verb(others)}.", cite.GAME_ENDS)
    return m.outcome("win", winners)


def _remove_losers(m: _Moment, losing_players: set[str]) -> GameOutcome | None:
    """Players and sides who lose leave; one side left wins (CR 104.2a, 104.2c), none left is a draw
    (CR 104.4a, 104.4d)."""
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
            m.say(
                f"{_side(m, u)} loses the game, as players win and lose only as a team.",
                cite.THG_TEAM_WINS_LOSES,
            )
    if not remaining_units:
        names = [p.name for p in leaving]
        m.say(
            f"{_names(names)} {'both' if len(names) == 2 else 'all'} lose at the same time and "
            "nobody is left, so the game is a draw.",
            cite.DRAW_ALL_TEAMS_LOSE if m.teams else cite.DRAW_ALL_LOSE,
        )
        return m.outcome("draw")
    m.losers.extend(p.name for p in leaving)
    m.in_game = remaining
    if len(remaining_units) == 1:
        unit = next(iter(remaining_units))
        if _is_team(m, unit):
            members = [p.name for p in m.request.players if m.unit(p) == unit]
            # CR 104.2a: winning because every opponent has left "overrides all effects that would
            # preclude" winning, for a team's players too.
            barred = [n for n in members if n in m.cant_win]
            override = " This overrides the effect saying the team can't win." if barred else ""
            m.say(
                f"All the other players have left the game, so {_side(m, unit)} wins.{override}",
                cite.WIN_TEAM,
                *((cite.WIN_OPPONENTS_LEFT,) if barred else ()),
            )
            return m.outcome("win", members)
        # CR 104.2a: winning because every opponent has left "overrides all effects that would
        # preclude" winning.
        override = " This overrides the effect saying they can't win." if unit in m.cant_win else ""
        m.say(
            f"{unit} is the only player left in the game and wins.{override}",
            cite.WIN_OPPONENTS_LEFT,
        )
        return m.outcome("win", [unit])
    names = [p.name for p in leaving]
    m.say(
        f"{_names(names)} {'leaves' if len(names) == 1 else 'leave'} the game, which goes on for "
        f"{_names([p.name for p in remaining])}.",
        cite.LEAVES_GAME,
        cite.MULTIPLAYER_CONTINUES,
    )
    for unit in sorted({m.unit(p) for p in leaving if p.team is not None} & remaining_units):
        left = [p.name for p in leaving if m.unit(p) == unit]
        on = [p.name for p in remaining if m.unit(p) == unit]
        m.say(
            f"Team {unit} has not lost: a team loses only when all its players have lost, so it "
            f"plays on with {_names(on)} after {_names(left)} "
            f"{'leaves' if len(left) == 1 else 'leave'}.",
            cite.LOSE_TEAM,
        )
    return None


def _apply_state_based_actions(m: _Moment) -> GameOutcome | None:
    fmt = m.request.format
    losing: set[str] = set()

    def lose(p: PlayerState, reason: str, sentence: str, *refs: str) -> None:
        if m.protected(p.name):
            if fmt is GameFormat.TWO_HEADED_GIANT:
                # CR 810.8a: the effect names one player (not necessarily this one) and covers the
                # whole team, which is what would lose.
                side = _side(m, m.unit(p))
                source = m.cant_lose_from.get(p.name, p.name)
                tail = (
                    f", but an effect says {source} can't lose the game, and in Two-Headed Giant "
                    f"that covers the whole team, so {side} doesn't lose."
                )
                extra: tuple[str, ...] = (cite.THG_TEAM_WINS_LOSES,)
            else:
                tail = f", but an effect says {p.name} can't lose the game, so {p.name} doesn't."
                extra = ()
            m.say(
                sentence.split(", so ")[0] + tail,
                cite.SBA_CHECK,
                *refs,
                cite.CARD_OVERRIDES_RULES,
                *extra,
            )
            return
        losing.add(p.name)
        m.reasons.setdefault(p.name, []).append(reason)
        m.say(sentence, cite.SBA_CHECK, *refs)

    if fmt is GameFormat.TWO_HEADED_GIANT:
        _team_sbas(m, lose)
    for p in m.in_game:
        if fmt is not GameFormat.TWO_HEADED_GIANT and p.life <= 0:
            lose(
                p,
                "life",
                f"{p.name} has {p.life} life, so {p.name} loses the game when state-based actions "
                "are checked.",
                cite.LOSE_LIFE,
                cite.SBA_LIFE,
            )
        if fmt is not GameFormat.TWO_HEADED_GIANT and p.poison >= POISON_LIMIT:
            lose(
                p,
                "poison",
                f"{p.name} has {p.poison} poison counters, ten or more, so {p.name} loses the "
                "game.",
                cite.LOSE_POISON,
                cite.SBA_POISON,
            )
        if p.drew_from_empty_library:
            lose(
                p,
                "empty_library",
                f"{p.name} had to draw a card from an empty library, so {p.name} loses the game.",
                cite.LOSE_EMPTY_LIBRARY,
                cite.SBA_EMPTY_LIBRARY,
            )
        for commander, damage in sorted(p.commander_damage.items()):
            if damage >= COMMANDER_DAMAGE_LIMIT:
                lose(
                    p,
                    "commander_damage",
                    f"{p.name} has been dealt {damage} combat damage by the commander {commander}, "
                    f"21 or more, so {p.name} loses the game.",
                    cite.LOSE_COMMANDER,
                    cite.COMMANDER_DAMAGE,
                    cite.SBA_COMMANDER,
                )
    return _remove_losers(m, losing)


def _team_sbas(m: _Moment, lose: Any) -> None:
    # CR 810.8c-d, 704.6a-b: a team loses at 0 life or at its poison limit (15, 5 more per player
    # beyond two, CR 810.11).
    for unit in sorted({m.unit(p) for p in m.in_game}):
        team = m.request.teams[unit]
        head = next(p for p in m.in_game if m.unit(p) == unit)
        if team.life <= 0:
            lose(
                head,
                "team_life",
                f"{_side(m, unit)} has {team.life} life as a team, so the team loses the game.",
                cite.THG_TEAM_LIFE,
                cite.SBA_TEAM_LIFE,
            )
        if team.poison >= team.poison_limit:
            refs = (cite.THG_TEAM_POISON, cite.SBA_TEAM_POISON, cite.THG_POISON_SHARED) + (
                (cite.THG_BIGGER_TEAMS,) if len(team.players) > 2 else ()
            )
            lose(
                head,
                "team_poison",
                f"{_side(m, unit)} has {team.poison} poison counters, shared by the team, "
                f"{team.poison_limit} or more for a team of {len(team.players)}, so the team loses "
                "the game.",
                *refs,
            )
        elif team.poison:
            m.say(
                f"{_side(m, unit)} has {team.poison} poison counters, shared by the team (each "
                f"player's count is the team's); the team loses at {team.poison_limit}.",
                cite.THG_POISON_SHARED,
            )


def _apply_restrictions(m: _Moment) -> None:
    """ "Can't lose" and "can't win" effects (CR 101.1: the card's text prevails); in 2HG they cover
    the team (CR 810.8a)."""
    by_name = {p.name: p for p in m.request.players}
    thg = m.request.format is GameFormat.TWO_HEADED_GIANT
    for e in m.request.effects:
        if e.type not in (EffectType.CANT_LOSE, EffectType.CANT_WIN) or e.player is None:
            continue
        unit = m.unit(by_name[e.player])
        covered = [p.name for p in m.request.players if m.unit(p) == unit] if thg else [e.player]
        (m.cant_lose if e.type is EffectType.CANT_LOSE else m.cant_win).update(covered)
        if e.type is EffectType.CANT_LOSE:
            for name in covered:
                m.cant_lose_from.setdefault(name, e.player)
        what = "can't lose" if e.type is EffectType.CANT_LOSE else "can't win"
        if thg:
            m.say(
                f"An effect says {e.player} {what} the game; in Two-Headed Giant that means the "
                f"whole team, {_names(covered)}, {what} the game.",
                cite.CARD_OVERRIDES_RULES,
                cite.THG_TEAM_WINS_LOSES,
            )
        else:
            m.say(f"An effect says {e.player} {what} the game.", cite.CARD_OVERRIDES_RULES)
