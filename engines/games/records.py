"""Game-outcome records: formats, effects, one moment's player states, the request and the outcome
(CR 104)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

MAX_PLAYERS = 16
MAX_VALUE = 10**18
POISON_LIMIT = 10  # CR 104.3d
COMMANDER_DAMAGE_LIMIT = 21  # CR 903.10a
THG_POISON_LIMIT = 15  # CR 810.8d, plus 5 per player beyond the second (CR 810.11)
THG_EXTRA_LIFE = 15  # CR 810.11: starting life added per player beyond the second
# CR 810.11: poison counters added to the team's limit per player beyond the second
THG_EXTRA_POISON = 5


class GameFormat(str, Enum):
    TWO_PLAYER = "two_player"
    MULTIPLAYER = "multiplayer"
    TWO_HEADED_GIANT = "two_headed_giant"
    COMMANDER = "commander"

    @classmethod
    def _missing_(cls, value: object) -> GameFormat | None:
        # The names the CR gives the variants (806 "Free-for-All", 810 "Two-Headed Giant") and the
        # usual short ones, read as the format they are; answers name the format by its value.
        if isinstance(value, str):
            return _FORMAT_NAMES.get(value.strip().lower().replace("-", "_").replace(" ", "_"))
        return None


_FORMAT_NAMES = {
    "free_for_all": GameFormat.MULTIPLAYER,
    "ffa": GameFormat.MULTIPLAYER,
    "2hg": GameFormat.TWO_HEADED_GIANT,
    "two_player": GameFormat.TWO_PLAYER,
    "multiplayer": GameFormat.MULTIPLAYER,
    "two_headed_giant": GameFormat.TWO_HEADED_GIANT,
    "commander": GameFormat.COMMANDER,
}


STARTING_LIFE = {
    GameFormat.TWO_PLAYER: 20,
    GameFormat.MULTIPLAYER: 20,
    GameFormat.TWO_HEADED_GIANT: 30,
    GameFormat.COMMANDER: 40,
}


class EffectType(str, Enum):
    WIN = "win"
    LOSE = "lose"
    DRAW = "draw"
    CONCEDE = "concede"
    # e.g. Platinum Angel: "You can't lose the game" (CR 101.1; the team in 2HG, CR 810.8a)
    CANT_LOSE = "cant_lose"
    CANT_WIN = "cant_win"  # e.g. Platinum Angel: "your opponents can't win the game"


@dataclass(frozen=True)
class PlayerState:
    name: str
    life: int
    poison: int = 0
    drew_from_empty_library: bool = False
    # commander -> combat damage dealt to this player
    commander_damage: Mapping[str, int] = field(default_factory=dict)
    team: str | None = None
    left_game: bool = False  # already out of the game before this moment


@dataclass(frozen=True)
class TeamState:
    """A Two-Headed Giant team: one shared life total (CR 810.4) and one shared poison count
    (CR 810.10)."""

    name: str
    players: tuple[str, ...]
    life: int
    poison: int

    @property
    def poison_limit(self) -> int:
        # CR 810.8d, 810.11: fifteen, and five more for each player the team has beyond the second.
        return THG_POISON_LIMIT + THG_EXTRA_POISON * (len(self.players) - 2)

    def to_dict(self) -> dict[str, Any]:
        return {
            "players": list(self.players),
            "life": self.life,
            "poison": self.poison,
            "poison_limit": self.poison_limit,
        }


def thg_starting_life(team_size: int) -> int:
    """CR 810.4, 810.11: 30 for a team of two, 15 more for each player beyond the second."""
    return STARTING_LIFE[GameFormat.TWO_HEADED_GIANT] + THG_EXTRA_LIFE * (team_size - 2)


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
    # Two-Headed Giant only: the shared counts
    teams: Mapping[str, TeamState] = field(default_factory=dict)


@dataclass(frozen=True)
class GameOutcome:
    result: str  # "ongoing", "win" or "draw"
    winners: tuple[str, ...]
    losers: tuple[str, ...]  # players who lose at this moment (not those who lose into a draw)
    explanation: str
    citations: tuple[str, ...]
    reasons: Mapping[str, tuple[str, ...]] = field(default_factory=dict)  # player -> why they lost
    remaining: tuple[str, ...] = ()  # players still in the game afterwards (none once it is over)
    # Two-Headed Giant: each team's shared counts
    teams: Mapping[str, TeamState] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {
            "result": self.result,
            "winners": list(self.winners),
            "losers": list(self.losers),
            "explanation": self.explanation,
            "citations": list(self.citations),
            "reasons": {p: list(r) for p, r in self.reasons.items()},
            "remaining": list(self.remaining),
            "teams": {name: team.to_dict() for name, team in self.teams.items()},
        }


def unit_of(p: PlayerState) -> str:
    """Who wins and loses together: the team in a team game, otherwise the player."""
    return p.team if p.team is not None else p.name
