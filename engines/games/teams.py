"""Two-Headed Giant teams: each team's one shared life total and one shared poison count (CR
810.4, 810.10).

A team's counts come from the request's ``teams`` field (``{"X": {"life": 25, "poison": 3}}``) or
from its players, each of whom shows the team's count (CR 810.10a: a player's poison count is the
team's), so every value given for a team must be the same; values that contradict each other are
refused, naming the field. A team whose life is given nowhere starts at 30 life, 15 more per player
beyond the second (CR 810.4, 810.11); poison given nowhere is 0.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from engines.errors import RequestError
from engines.games.records import MAX_VALUE, GameFormat, PlayerState, TeamState, thg_starting_life

COUNTS = ("life", "poison")
WHY = {
    "life": "teammates share one life total (CR 810.4)",
    "poison": (
        "teammates share one poison count, and each player's count is the team's (CR 810.10, "
        "810.10a)"
    ),
}


def _count(value: Any, name: str, counter: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise RequestError(name, f"must be a whole number, not {value!r}")
    if counter == "poison" and value < 0:
        raise RequestError(name, "must not be negative")
    if abs(value) > MAX_VALUE:
        raise RequestError(name, f"must be between {-MAX_VALUE:,} and {MAX_VALUE:,}")
    return value


def _team_fields(raw: Any, team_names: Sequence[str]) -> dict[str, dict[str, int]]:
    if raw is None:
        return {}
    if not isinstance(raw, Mapping):
        raise RequestError(
            "teams",
            'must map team names to their shared counts, like {"X": {"life": 25, "poison": 3}}',
        )
    out: dict[str, dict[str, int]] = {}
    for team, counts in raw.items():
        if team not in team_names:
            raise RequestError(
                f"teams.{team}", f"is not the team of any player (teams: {list(team_names)})"
            )
        if not isinstance(counts, Mapping):
            raise RequestError(
                f"teams.{team}", 'must be an object such as {"life": 25, "poison": 3}'
            )
        for key in counts:
            if key not in COUNTS:
                raise RequestError(
                    f"teams.{team}.{key}",
                    "a team shares only its life total and its poison counters",
                )
        out[team] = {
            c: _count(counts[c], f"teams.{team}.{c}", c)
            for c in COUNTS
            if counts.get(c) is not None
        }
    return out


def share_team_counts(
    fmt: GameFormat, raw_teams: Any, raw_players: Sequence[Any], players: tuple[PlayerState, ...]
) -> tuple[tuple[PlayerState, ...], dict[str, TeamState]]:
    """Each Two-Headed Giant team's shared life and poison; its players then all show the
    team's counts.

    ``raw_players`` is the request's player list (to tell a value given from a default), ``players``
    the players already checked. Returns the players with their team's counts and the teams by name,
    in the order they first appear. Raises ``RequestError`` naming the field: ``teams`` outside
    Two-Headed Giant, an unknown team, a bad count, or a value that contradicts another given for
    the same team.
    """
    if fmt is not GameFormat.TWO_HEADED_GIANT:
        if raw_teams is not None:
            raise RequestError(
                "teams", "shared team counts are only for two_headed_giant (CR 810.4, 810.10)"
            )
        return players, {}
    team_names = list(dict.fromkeys(p.team for p in players if p.team is not None))
    given = _team_fields(raw_teams, team_names)
    teams: dict[str, TeamState] = {}
    for team in team_names:
        members = [i for i, p in enumerate(players) if p.team == team]
        counts: dict[str, int] = {}
        for counter in COUNTS:
            sources = (
                [(f"teams.{team}.{counter}", given[team][counter])]
                if counter in given.get(team, {})
                else []
            )
            sources += [
                (f"players[{i}].{counter}", getattr(players[i], counter))
                for i in members
                if isinstance(raw_players[i], Mapping) and raw_players[i].get(counter) is not None
            ]
            for name, value in sources[1:]:
                if value != sources[0][1]:
                    raise RequestError(
                        name,
                        f"{WHY[counter]}: {sources[0][0]} is {sources[0][1]:,} but {name} is "
                        f"{value:,}; give the team's count once (teams.{team}.{counter}) or the "
                        "same on each player",
                    )
            counts[counter] = (
                sources[0][1]
                if sources
                else (thg_starting_life(len(members)) if counter == "life" else 0)
            )
        teams[team] = TeamState(
            team, tuple(players[i].name for i in members), counts["life"], counts["poison"]
        )
    shown = tuple(
        replace(p, life=teams[p.team].life, poison=teams[p.team].poison) if p.team in teams else p
        for p in players
    )
    return shown, teams
