"""Game-outcome records: formats, effects, one moment's player states, the request and the outcome (CR 104)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

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
    CANT_LOSE = "cant_lose"    # e.g. Platinum Angel: "You can't lose the game" (CR 101.1; the team in 2HG, CR 810.8a)
    CANT_WIN = "cant_win"      # e.g. Platinum Angel: "your opponents can't win the game"


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


def unit_of(p: PlayerState) -> str:
    """Who wins and loses together: the team in a team game, otherwise the player."""
    return p.team if p.team is not None else p.name
