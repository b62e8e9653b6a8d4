"""Game-outcome requests: the model that reads the API's JSON (and describes it for the schema) and
the typed GameRequest built from it; errors are RequestError naming the field."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Annotated, Any, ClassVar

from pydantic import AfterValidator, BeforeValidator, Field, ValidationInfo, field_validator

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
from engines.validation import Check, Invalid, Shape, absent_only, read, schema_is

FORMATS = [f.value for f in GameFormat]


def _whole(low: int = -MAX_VALUE) -> Check:
    def check(value: Any) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise Invalid(f"must be a whole number, not {value!r}")
        if value < low:
            raise Invalid("must not be negative" if low == 0 else f"must be at least {low}")
        if value > MAX_VALUE:
            raise Invalid(f"must be at most {MAX_VALUE:,}")
        return value

    return check


def _flag(value: Any) -> bool:
    if value is None:
        return False
    if not isinstance(value, bool):
        raise Invalid("must be true or false")
    return value


def _format_of(info: ValidationInfo) -> GameFormat | None:
    """The request's format, once it was read (None when it was refused: that error comes first)."""
    fmt: GameFormat | None = (info.context or {}).get("format")
    return fmt


def _name(value: Any) -> str:
    if not isinstance(value, str) or not value.strip():
        raise Invalid("is required")
    return value


def _commander_damage(value: Any, info: ValidationInfo) -> Any:
    value = value or {}
    if not isinstance(value, Mapping):
        raise Invalid("must map each commander to the combat damage it dealt")
    fmt = _format_of(info)
    if value and fmt is not None and fmt is not GameFormat.COMMANDER:
        raise Invalid("only counts in the commander format")
    damage = {}
    for commander, dealt in value.items():
        try:
            damage[str(commander)] = _whole(low=0)(dealt)
        except Invalid as exc:
            raise Invalid(exc.message, str(commander)) from None
    return damage


def _team(value: Any) -> Any:
    if value is not None and not isinstance(value, str):
        raise Invalid("must be a team name or null")
    return value


NonNegative = Annotated[int, Field(ge=0, le=MAX_VALUE), BeforeValidator(_whole(low=0))]
Flag = Annotated[bool, BeforeValidator(_flag)]


class GamePlayer(Shape):
    not_object: ClassVar[str] = "must be an object with at least a name"
    name: Annotated[
        str, Field(min_length=1, json_schema_extra={"pattern": r"\S"}), BeforeValidator(_name)
    ]
    commander_damage: Annotated[dict[str, NonNegative], BeforeValidator(_commander_damage)] = Field(
        default_factory=dict,
        description=(
            "commander -> the combat damage it dealt to this player (commander format only)"
        ),
    )
    team: Annotated[str | None, BeforeValidator(_team)] = None
    life: Annotated[
        Annotated[int, Field(ge=-MAX_VALUE, le=MAX_VALUE)] | None, BeforeValidator(_whole())
    ] = Field(
        default=None,
        json_schema_extra=absent_only,
        description=(
            "default: the format's starting life (20, 30 in Two-Headed Giant, 40 in commander)"
        ),
    )
    poison: NonNegative = 0
    drew_from_empty_library: Flag = False
    left_game: Flag = False

    def state(self, fmt: GameFormat) -> PlayerState:
        return PlayerState(
            name=self.name,
            life=STARTING_LIFE[fmt] if self.life is None else self.life,
            poison=self.poison,
            drew_from_empty_library=self.drew_from_empty_library,
            commander_damage=self.commander_damage,
            team=self.team,
            left_game=self.left_game,
        )


def _check_format(fmt: GameFormat, players: Sequence[PlayerState]) -> None:
    teams = [p.team for p in players]
    if fmt is GameFormat.TWO_PLAYER:
        if len(players) != 2:
            raise RequestError("players", "a two-player game has exactly two players")
        if any(teams):
            raise RequestError(
                "players[0].team" if teams[0] else "players[1].team",
                "a two-player game has no teams",
            )
    elif fmt is GameFormat.MULTIPLAYER and len(players) < 3:
        raise RequestError(
            "players", "a multiplayer game begins with more than two players; use two_player"
        )
    elif fmt is GameFormat.TWO_HEADED_GIANT:
        for i, p in enumerate(players):
            if p.team is None:
                raise RequestError(
                    f"players[{i}].team", "every Two-Headed Giant player is on a team"
                )
        sizes = {t: teams.count(t) for t in teams}
        if len(sizes) != 2 or len(set(sizes.values())) != 1 or min(sizes.values()) < 2:
            raise RequestError(
                "players",
                "Two-Headed Giant is two teams of the same size, two or more players each",
            )
        for i, p in enumerate(players):
            # Shared life and poison are checked in teams.share_team_counts. CR 810.8a-b: a player
            # leaves only with the team, and then the game is over.
            if p.left_game:
                raise RequestError(
                    f"players[{i}].left_game",
                    "in Two-Headed Giant a player leaves the game only with their team",
                )
    elif len(players) < 2:
        raise RequestError("players", "a game has at least two players")
    if len({unit_of(p) for p in players if not p.left_game}) < 2:
        raise RequestError("players", "at least two players or teams must still be in the game")


def _game_format(value: Any, info: ValidationInfo) -> GameFormat:
    try:
        fmt = GameFormat(value)
    except ValueError:
        raise Invalid(f"must be one of {FORMATS}") from None
    if info.context is not None:
        info.context["format"] = fmt
    return fmt


def _player_list(value: Any) -> Any:
    if not isinstance(value, list) or not value:
        raise Invalid("must be a non-empty list")
    if len(value) > MAX_PLAYERS:
        raise Invalid(f"at most {MAX_PLAYERS} players")
    return value


def _players_fit(players: list[GamePlayer], info: ValidationInfo) -> list[GamePlayer]:
    names = [p.name for p in players]
    for i, n in enumerate(names):
        if n in names[:i]:
            raise Invalid(f"{n!r} appears twice", i, "name")
    fmt = _format_of(info)
    if fmt is None:
        return players
    states = tuple(p.state(fmt) for p in players)
    _check_format(fmt, states)
    if info.context is not None:
        info.context["players"] = {p.name: p for p in states}
    return players


def _effect_list(value: Any) -> Any:
    value = value or []
    if not isinstance(value, list):
        raise Invalid("must be a list")
    return value


def _effect_type(value: Any) -> EffectType:
    try:
        return EffectType(value)
    except ValueError:
        raise Invalid(f"must be one of {', '.join(t.value for t in EffectType)}") from None


class GameEffectEntry(Shape):
    not_object: ClassVar[str] = "must be an object with type and player"
    # For the schema: only a draw may name nobody (the player, one still in the game, is a rule
    # across the request the schema states in words).
    model_config = Shape.model_config | {
        "json_schema_extra": {
            "anyOf": [
                {"properties": {"type": schema_is(EffectType.DRAW.value)}},
                {"required": ["player"], "properties": {"player": {"type": "string"}}},
            ]
        }
    }
    type: Annotated[EffectType, BeforeValidator(_effect_type)]
    player: str | None = Field(
        default=None,
        validate_default=True,
        description=(
            "whose effect it is: one of the players, not one who has left the game; a draw may "
            "name nobody (CR 104.4c)"
        ),
    )

    @field_validator("player", mode="before")
    @classmethod
    def _known(cls, player: Any, info: ValidationInfo) -> Any:
        by_name: dict[str, PlayerState] | None = (info.context or {}).get("players")
        kind = info.data.get("type")
        if by_name is None or kind is None:
            return player
        if kind is EffectType.DRAW and player is None:
            return None  # a draw may name whose effect it is (CR 104.4c), or nobody
        # a list or an object was a TypeError (a 500)
        if not isinstance(player, str) or player not in by_name:
            raise Invalid(f"{player!r} is not one of the players")
        if by_name[player].left_game:
            raise Invalid(f"{player} has already left the game")
        return player


def _not_format(fmt: GameFormat) -> dict[str, Any]:
    return {"not": {"enum": [fmt.value]}}


# A player in a two-player game names no team; in Two-Headed Giant each is on one, and leaves the
# game only with it (CR 810.8a-b).
_NO_TEAM: dict[str, Any] = {"properties": {"team": {"enum": [None, ""], "nullable": True}}}
_ON_A_TEAM: dict[str, Any] = {
    "required": ["team"],
    "properties": {"team": {"type": "string"}, "left_game": {"enum": [False]}},
}


class GameOutcomeRequest(Shape):
    """POST /api/v1/jobs/game-outcome (docs/API.md). Checked in this order; the first error
    is reported."""

    # For the schema, the rules across fields that it can state: commander damage only in the
    # commander format; two players and no teams in a two-player game, three or more players in a
    # multiplayer one; in Two-Headed Giant four or more, each on a team, and shared team counts only
    # there. In words only (a schema cannot count): two teams of the same size, and two players or
    # teams still in the game.
    model_config = Shape.model_config | {
        "json_schema_extra": {
            "allOf": [
                {
                    "anyOf": [
                        {"properties": {"format": schema_is(GameFormat.COMMANDER.value)}},
                        {
                            "properties": {
                                "players": {
                                    "items": {
                                        "properties": {"commander_damage": {"maxProperties": 0}}
                                    }
                                }
                            }
                        },
                    ]
                },
                {
                    "anyOf": [
                        {"properties": {"format": _not_format(GameFormat.TWO_PLAYER)}},
                        {"properties": {"players": {"maxItems": 2, "items": _NO_TEAM}}},
                    ]
                },
                {
                    "anyOf": [
                        {"properties": {"format": _not_format(GameFormat.TWO_HEADED_GIANT)}},
                        {"properties": {"players": {"minItems": 4, "items": _ON_A_TEAM}}},
                    ]
                },
                {
                    "anyOf": [
                        {"properties": {"format": _not_format(GameFormat.MULTIPLAYER)}},
                        {"properties": {"players": {"minItems": 3}}},
                    ]
                },
                {
                    "anyOf": [
                        {"properties": {"format": schema_is(GameFormat.TWO_HEADED_GIANT.value)}},
                        {"not": {"required": ["teams"]}},
                    ]
                },
            ]
        }
    }

    format: Annotated[GameFormat, BeforeValidator(_game_format)]
    players: Annotated[
        list[GamePlayer],
        Field(min_length=2, max_length=MAX_PLAYERS),
        BeforeValidator(_player_list),
        AfterValidator(_players_fit),
    ]
    effects: Annotated[list[GameEffectEntry], BeforeValidator(_effect_list)] = Field(
        default_factory=list,
        description=(
            "what happens at this moment, all together (the order is not read); a draw together "
            "with a win, a loss or a concession is refused: list only what happens first"
        ),
    )
    mandatory_loop: Flag = False
    # Read by teams.share_team_counts once the players are checked; described here for the schema.
    teams: Any = Field(
        default=None,
        description=(
            "two_headed_giant only: each team's shared counts by team name; a player's life or "
            "poison, if given, must equal the team's (it is the team's count, CR 810.10a)"
        ),
        json_schema_extra={
            "type": "object",
            "additionalProperties": {
                "type": "object",
                "additionalProperties": False,
                "properties": {
                    "life": {
                        "type": "integer",
                        "description": "the team's shared life total (CR 810.4)",
                    },
                    "poison": {
                        "type": "integer",
                        "minimum": 0,
                        "description": "the team's shared poison counters (CR 810.10)",
                    },
                },
            },
        },
    )

    @classmethod
    def check_keys(cls, data: Mapping[str, Any]) -> None:
        if "format" not in data:
            raise Invalid(f"is required: one of {FORMATS}", "format")

    def game_request(self) -> GameRequest:
        players = tuple(p.state(self.format) for p in self.players)
        effects = tuple(GameEffect(e.type, e.player) for e in self.effects)
        return GameRequest(self.format, players, effects, self.mandatory_loop)


def validate_game_request(data: Mapping[str, Any]) -> GameRequest:
    """Check a game-outcome request (the API's JSON) and build the typed request.

    Raises ``RequestError(field, message)``: unknown format, missing or repeated names, negative
    poison or damage, values above 10^18, teams that do not fit the format, effects naming unknown
    players or players who already left, and contradictory effects (two different winners, a draw
    together with a win, a loss or a concession: the effects are one moment, and whichever of those
    came first would end the game, CR 104.1).
    """
    request = read(GameOutcomeRequest, data).game_request()
    # A Two-Headed Giant team's one life total and poison count (CR 810.4, 810.10), in
    # engines/games/teams.py.
    players, teams = share_team_counts(
        request.format, data.get("teams"), data["players"], request.players
    )
    request = replace(request, players=players, teams=teams)
    _check_winners(request)
    return request


def _check_winners(request: GameRequest) -> None:
    by_name = {p.name: p for p in request.players}
    winners = {
        unit_of(by_name[e.player]) for e in request.effects if e.type is EffectType.WIN and e.player
    }
    if len(winners) > 1:
        raise RequestError(
            "effects",
            "players on different sides cannot both win at the same moment; list only what "
            "happens first",
        )
    draw = any(e.type is EffectType.DRAW for e in request.effects)
    if winners and draw:
        raise RequestError(
            "effects",
            "a player cannot win at the same moment as the game becomes a draw; list only what "
            "happens first",
        )
    # CR 104.1: the game ends at once when it is a draw, so a draw and a loss are not one moment:
    # whichever came first decides, and the list is read as one moment, not in order.
    if draw and any(e.type in (EffectType.LOSE, EffectType.CONCEDE) for e in request.effects):
        raise RequestError(
            "effects",
            "a player cannot lose or concede at the same moment as the game becomes a draw; list "
            "only what happens first",
        )
