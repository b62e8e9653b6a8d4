"""Loop-outcome requests: the model that reads the API's JSON (and describes it for the schema), the
typed LoopRequest built from it, and the declarations the loop rules refuse; errors are RequestError
naming the field."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any, ClassVar

from pydantic import (
    AfterValidator,
    BeforeValidator,
    Discriminator,
    Field,
    Tag,
    ValidationInfo,
    WrapValidator,
    field_validator,
)
from pydantic_core.core_schema import ValidatorFunctionWrapHandler

from engines.errors import RequestError
from engines.loops.kinds import breakers_of, classify_loop, maintainers_of, names_no_number
from engines.loops.records import (
    DECLARATION_WORDS,
    DEFAULT_LIFE,
    MAX_ACTIONS,
    MAX_COUNT,
    MAX_PLAYERS,
    NOT_NEGATIVE,
    POISON_THRESHOLD,
    Action,
    ActionKind,
    Breaker,
    Change,
    Declaration,
    LoopKind,
    LoopRequest,
    PartialCount,
    count_key,
)
from engines.validation import (
    NUMBER_TAG,
    OBJECT_TAG,
    WORD_TAG,
    Check,
    Invalid,
    Shape,
    absent_only,
    by_kind,
    drop_default,
    not_null,
    read,
    schema_is,
)

MAX_TIMES = 10**6  # a "times" factor, and a "per" factor either way


# --- one value ------------------------------------------------------------------------------------


def _whole(low: int = -MAX_COUNT, high: int = MAX_COUNT) -> Check:
    def check(value: Any) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise Invalid(f"must be a whole number, not {value!r}")
        if value < low:
            raise Invalid(f"must be at least {low}" if low else "must not be negative")
        if value > high:
            raise Invalid(f"must be at most {high:,}")
        return value

    return check


def _flag(default: bool) -> Check:
    def check(value: Any) -> bool:
        if value is None:
            return default
        if not isinstance(value, bool):
            raise Invalid("must be true or false")
        return value

    return check


def _text(value: Any) -> str:
    if value is None:
        return ""
    if not isinstance(value, str):
        raise Invalid("must be text")
    return value


def _counter_name(value: Any) -> str:
    if not isinstance(value, str) or not value:
        raise Invalid("must be a counter name such as life, poison or library")
    return value


def _known_players(info: ValidationInfo) -> tuple[str, ...] | None:
    """The request's players, once they were read (None when they were refused: that error
    comes first)."""
    players: tuple[str, ...] | None = (info.context or {}).get("players")
    return players


def _is_player(value: Any, players: tuple[str, ...] | None) -> None:
    if value is None:
        raise Invalid("is required")
    if players is not None and value not in players:
        raise Invalid(f"{value!r} is not one of the players {list(players)}")


def _player(value: Any, info: ValidationInfo) -> Any:
    _is_player(value, _known_players(info))
    return str(value)


def _players(raw: Any, info: ValidationInfo) -> Any:
    if not isinstance(raw, list) or not raw:
        raise Invalid("must be a non-empty list of player names in turn order")
    if len(raw) > MAX_PLAYERS:
        raise Invalid(f"at most {MAX_PLAYERS} players")
    for i, name in enumerate(raw):
        if not isinstance(name, str) or not name.strip():
            raise Invalid("must be a player name", i)
    if len(set(raw)) != len(raw):
        raise Invalid("names must be different")
    if len(raw) < 2:
        raise Invalid("a game has at least two players")
    if info.context is not None:
        info.context["players"] = tuple(raw)
    return raw


Count = Annotated[int, Field(ge=-MAX_COUNT, le=MAX_COUNT), BeforeValidator(_whole())]
NonNegative = Annotated[int, Field(ge=0, le=MAX_COUNT), BeforeValidator(_whole(low=0))]
Times = Annotated[int, Field(ge=0, le=MAX_TIMES), BeforeValidator(_whole(0, MAX_TIMES))]
Text = Annotated[str, BeforeValidator(_text)]
CounterName = Annotated[str, Field(min_length=1), BeforeValidator(_counter_name)]
PlayerName = Annotated[str, Field(description="one of the players"), BeforeValidator(_player)]


# --- effects --------------------------------------------------------------------------------------


def _factor(value: Any, handler: ValidatorFunctionWrapHandler, info: ValidationInfo) -> Any:
    """Only a "per" effect reads its factor (it multiplies the counter read); other forms
    ignore it."""
    if info.data.get("per") is None:
        return 1
    return handler(_whole(-MAX_TIMES, MAX_TIMES)(value))


class LoopEffectSource(Shape):
    not_object: ClassVar[str] = 'must be {"player": ..., "counter": ...}'
    player: PlayerName
    counter: CounterName


class LoopEffect(Shape):
    """A change that is not an addition: multiplied ("times"), set, or by another counter ("per",
    with "factor")."""

    model_config = Shape.model_config | {
        "json_schema_extra": {
            "oneOf": [{"required": ["times"]}, {"required": ["set"]}, {"required": ["per"]}],
            "additionalProperties": False,
        }
    }
    # Each of these is absent or given; null is refused like any other non-number.
    times: Annotated[
        Annotated[int, Field(ge=0, le=MAX_TIMES)] | None, BeforeValidator(_whole(0, MAX_TIMES))
    ] = Field(default=None, json_schema_extra=absent_only)
    set_: Annotated[
        Annotated[int, Field(ge=-MAX_COUNT, le=MAX_COUNT)] | None, BeforeValidator(_whole())
    ] = Field(default=None, alias="set", json_schema_extra=absent_only)
    per: Annotated[
        LoopEffectSource | None, BeforeValidator(not_null(LoopEffectSource.not_object))
    ] = Field(default=None, json_schema_extra=absent_only)
    factor: Annotated[int, Field(ge=-MAX_TIMES, le=MAX_TIMES), WrapValidator(_factor)] = 1

    @classmethod
    def check_keys(cls, data: Mapping[str, Any]) -> None:
        forms = [k for k in ("times", "set", "per") if k in data]
        if len(forms) != 1 or set(data) - {"times", "set", "per", "factor"}:
            raise Invalid(
                'an effect object takes exactly one of "times", "set" or "per" (with "factor")'
            )

    def change(self, player: str, counter: str) -> Change:
        if self.times is not None:
            return Change(player, counter, "times", self.times)
        if self.set_ is not None:
            return Change(player, counter, "set", self.set_)
        assert self.per is not None
        return Change(player, counter, "per", self.factor, (self.per.player, self.per.counter))


def _counters(value: Any) -> Any:
    if not isinstance(value, Mapping):
        raise Invalid("must map counter names to changes")
    return dict(value)


def _counter_key(value: Any) -> str:
    try:
        return _counter_name(value)
    except Invalid as exc:
        raise Invalid(exc.message, of_key=True) from None


def _effects(value: Any) -> Any:
    value = value or {}
    if not isinstance(value, Mapping):
        raise Invalid("must map player names to counter changes")
    return dict(value)


EffectValue = Annotated[
    Annotated[Count, Tag(NUMBER_TAG)] | Annotated[LoopEffect, Tag(OBJECT_TAG)],
    Discriminator(by_kind),
    Field(description="a number to add each iteration, or an effect object"),
]
Counters = Annotated[
    dict[Annotated[str, BeforeValidator(_counter_key)], EffectValue], BeforeValidator(_counters)
]


# --- actions, breakers ----------------------------------------------------------------------------


def _kind(value: Any) -> ActionKind:
    try:
        return ActionKind(value)
    except ValueError:
        raise Invalid("must be optional, mandatory or unless") from None


_UNLESS = schema_is(ActionKind.UNLESS.value)


class LoopAction(Shape):
    not_object: ClassVar[str] = "must be an object with player, kind and text"
    # For the schema: an unless_player with kind "unless", and only then.
    model_config = Shape.model_config | {
        "json_schema_extra": {
            "anyOf": [
                {
                    "properties": {"kind": _UNLESS, "unless_player": {"type": "string"}},
                    "required": ["unless_player"],
                },
                {"properties": {"kind": {"not": _UNLESS}}, "not": {"required": ["unless_player"]}},
            ]
        }
    }
    player: PlayerName
    kind: Annotated[ActionKind, BeforeValidator(_kind)]
    unless_player: str | None = Field(
        default=None,
        validate_default=True,
        description='who may pay to stop it: only for kind "unless", and then required',
    )
    effects: Annotated[dict[PlayerName, Counters], BeforeValidator(_effects)] = Field(
        default_factory=dict
    )
    text: Text = ""

    @field_validator("effects", mode="after")
    @classmethod
    def _never_negative(cls, value: dict[str, Any]) -> dict[str, Any]:
        """A library, poison counters, tokens or cards drawn are never set below 0 (CR 704.5b: an
        empty library is a loss only when a draw is attempted)."""
        for target, counters in value.items():
            for counter, change in counters.items():
                amount = getattr(change, "set_", None)
                if counter in NOT_NEGATIVE and amount is not None and amount < 0:
                    raise Invalid(
                        f"must be 0 or more: a player's {counter} is never negative",
                        target,
                        counter,
                        "set",
                    )
        return value

    @field_validator("unless_player", mode="before")
    @classmethod
    def _unless(cls, value: Any, info: ValidationInfo) -> Any:
        if "kind" not in info.data:
            return value
        if info.data["kind"] is ActionKind.UNLESS:
            return _player(value, info)
        if value is not None:
            raise Invalid('only an action of kind "unless" names an unless_player')
        return value

    def action(self) -> Action:
        changes: list[Change] = []
        for target, counters in self.effects.items():
            for counter, value in counters.items():
                changes.append(
                    value.change(target, counter)
                    if isinstance(value, LoopEffect)
                    else Change(target, counter, "add", value)
                )
            drawn = counters.get("cards_drawn")
            if "library" not in counters and isinstance(drawn, int) and drawn > 0:
                # drawing cards empties the library
                changes.append(Change(target, "library", "add", -drawn))
        return Action(self.player, self.kind, self.text, self.unless_player, tuple(changes))


def _breakers(value: Any) -> Any:
    value = value or []
    if not isinstance(value, list):
        raise Invalid("must be a list")
    return value


class LoopBreaker(Shape):
    not_object: ClassVar[str] = "must be an object with player and text"
    player: PlayerName
    text: Text = ""


def _iteration(value: Any) -> Any:
    if not isinstance(value, list) or not value:
        raise Invalid("must list the actions of one iteration, in order")
    if len(value) > MAX_ACTIONS:
        raise Invalid(f"at most {MAX_ACTIONS} actions")
    return value


def _fragmented(value: Any) -> Any:
    if value is not None and not isinstance(value, bool):
        raise Invalid("must be true, false or null")
    return value


# --- state, declarations --------------------------------------------------------------------------


def _state(value: Any, info: ValidationInfo) -> Any:
    """Each player's counters, in turn order: the life and poison they start from unless given."""
    if value is None:
        value = {}
    if not isinstance(value, Mapping):
        raise Invalid("must map player names to counters")
    players = _known_players(info)
    if players is None:
        return value
    for name in value:
        try:
            _is_player(name, players)
        except Invalid as exc:
            raise Invalid(exc.message, str(name)) from None
    state: dict[str, dict[str, int]] = {}
    for p in players:
        counters = value.get(p) or {}
        if not isinstance(counters, Mapping):
            raise Invalid("must map counter names to numbers", p)
        own = {"life": DEFAULT_LIFE, "poison": 0}
        for counter, number in counters.items():
            try:
                checked = _whole(low=0 if counter in NOT_NEGATIVE else -MAX_COUNT)(number)
            except Invalid as exc:
                raise Invalid(exc.message, p, str(counter)) from None
            try:
                own[_counter_name(counter)] = checked
            except Invalid as exc:
                raise Invalid(exc.message, p) from None
        state[p] = own
    return state


def _library_needed(
    state: dict[str, dict[str, int]], info: ValidationInfo
) -> dict[str, dict[str, int]]:
    """A loop that changes or reads a library needs its size; every other counter it touches starts
    at 0."""
    iteration: list[LoopAction] | None = info.data.get("iteration")
    if iteration is None or _known_players(info) is None:
        return state
    for i, action in enumerate(iteration):
        for ch in action.action().changes:
            touched = [(ch.player, ch.counter)] + ([ch.source] if ch.source else [])
            for p, counter in touched:
                if counter == "library" and "library" not in state[p]:
                    raise RequestError(
                        f"state.{p}.library",
                        f"is needed: iteration[{i}] changes or reads {p}'s library",
                    )
                state[p].setdefault(counter, 0)
    return state


def _declared(value: Any, info: ValidationInfo) -> Any:
    if value is None:
        return None
    if not isinstance(value, Mapping):
        raise Invalid("must map player names to a number of iterations or a word")
    players, iteration = _known_players(info), info.data.get("iteration")
    if players is None or iteration is None:
        return value
    n_actions = len(iteration)
    for p, word in value.items():
        try:
            _is_player(p, players)
        except Invalid as exc:
            raise Invalid(exc.message, str(p)) from None
        try:
            _declaration(word, n_actions)
        except Invalid as exc:
            raise Invalid(exc.message, str(p), *exc.at) from None
    return dict(value)


def _declaration(value: Any, n_actions: int) -> None:
    if isinstance(value, str):
        if value not in DECLARATION_WORDS:
            raise Invalid(f"must be a number of iterations or one of {list(DECLARATION_WORDS)}")
    elif isinstance(value, Mapping):
        # MTR 4.4: the last iteration may be performed only up to a chosen point.
        if set(value) != {"iterations", "after_action"}:
            raise Invalid(
                'a partial count is {"iterations": N, "after_action": index of the last action '
                "performed}"
            )
        try:
            _whole(low=0, high=max(n_actions - 2, 0))(value["after_action"])
        except Invalid as exc:
            raise Invalid(exc.message, "after_action") from None
        if n_actions < 2:
            raise Invalid("an iteration of one action cannot be performed in part", "after_action")
        try:
            _whole(low=0)(value["iterations"])
        except Invalid as exc:
            raise Invalid(exc.message, "iterations") from None
    else:
        _whole(low=0)(value)


class LoopPartialCount(Shape):
    """MTR 4.4: whole iterations, then the next one up to and including one action (never
    the last)."""

    model_config = Shape.model_config | {"json_schema_extra": {"additionalProperties": False}}
    iterations: NonNegative
    after_action: Annotated[
        int, Field(ge=0, description="index of the last action performed; never the last action")
    ]


Declared = Annotated[
    Annotated[NonNegative, Tag(NUMBER_TAG)]
    | Annotated[str, Tag(WORD_TAG), Field(json_schema_extra={"enum": list(DECLARATION_WORDS)})]
    | Annotated[LoopPartialCount, Tag(OBJECT_TAG)],
    Discriminator(lambda v: WORD_TAG if isinstance(v, str) else by_kind(v)),
]


# --- the request ----------------------------------------------------------------------------------


class LoopOutcomeRequest(Shape):
    """POST /api/v1/jobs/loop-outcome (docs/API.md). Checked in this order; the first error
    is reported."""

    players: Annotated[
        list[Annotated[str, Field(min_length=1, json_schema_extra={"pattern": r"\S"})]],
        Field(
            min_length=2,
            max_length=MAX_PLAYERS,
            json_schema_extra={"uniqueItems": True},
            description="turn order, the active player first",
        ),
        BeforeValidator(_players),
    ]
    iteration: Annotated[
        list[LoopAction], Field(min_length=1, max_length=MAX_ACTIONS), BeforeValidator(_iteration)
    ]
    breakers: Annotated[list[LoopBreaker], BeforeValidator(_breakers)] = Field(default_factory=list)
    fragmented: Annotated[bool | None, BeforeValidator(_fragmented)] = None
    state: Annotated[
        dict[str, dict[str, int]], BeforeValidator(_state), AfterValidator(_library_needed)
    ] = Field(
        default=None,
        validate_default=True,
        json_schema_extra=drop_default,
        description=(
            "each player's counters (life 20 and poison 0 unless given; library when the "
            "loop draws)"
        ),
    )
    deterministic: Annotated[bool, BeforeValidator(_flag(True))] = True
    spans_turns: Annotated[bool, BeforeValidator(_flag(False))] = False
    declared: Annotated[dict[str, Declared] | None, BeforeValidator(_declared)] = Field(
        default=None,
        description=(
            'each player\'s MTR 4.4 declaration: iterations, "accept", "indefinitely" or '
            '"no_action"'
        ),
    )
    restarted_without_change: Annotated[bool, BeforeValidator(_flag(False))] = False
    poison_threshold: Annotated[int, Field(ge=1, le=1000), BeforeValidator(_whole(1, 1000))] = (
        POISON_THRESHOLD
    )

    def loop_request(self) -> LoopRequest:
        declared: dict[str, Declaration] | None = None
        if self.declared is not None:
            declared = {
                p: PartialCount(v.iterations, v.after_action)
                if isinstance(v, LoopPartialCount)
                else v
                for p, v in self.declared.items()
            }
        return LoopRequest(
            players=tuple(self.players),
            state=self.state,
            iteration=tuple(a.action() for a in self.iteration),
            breakers=tuple(Breaker(b.player, b.text) for b in self.breakers),
            deterministic=self.deterministic,
            spans_turns=self.spans_turns,
            declared=declared,
            restarted_without_change=self.restarted_without_change,
            fragmented=self.fragmented,
            poison_threshold=self.poison_threshold,
        )


def validate_loop_request(data: Mapping[str, Any]) -> LoopRequest:
    """Check a loop-outcome request (the API's JSON) and build the typed request.

    Raises ``RequestError(field, message)`` naming the field: unknown players, bad kinds, negative
    or too-large counts (over 10^18), missing library for a loop that draws, and declarations that
    the loop rules do not allow for this kind of loop.
    """
    request = read(LoopOutcomeRequest, data).loop_request()
    check_declarations(request)
    return request


def check_declarations(request: LoopRequest) -> None:
    """Refuse declarations the loop rules do not allow for this loop (MTR 4.4, CR 729.2b)."""
    if request.declared is None:
        return
    kind = classify_loop(request)
    if kind is LoopKind.NON_DETERMINISTIC:
        # nobody names numbers for these; the declarations are ignored and the result says so
        return
    if kind is LoopKind.FRAGMENTED and names_no_number(request):
        # issue 27: no numbers named, CR 729.3 settles the fragmented loop (resolution._fragmented)
        return
    maintainers = maintainers_of(request)
    for p, value in request.declared.items():
        if value == "indefinitely" and not request.spans_turns:
            raise RequestError(
                f"declared.{p}",
                '"indefinitely" is only for a loop across turns (spans_turns); within a turn '
                "name a number",
            )
        if value == "indefinitely" and kind is LoopKind.MAINTAINED_BY_ONE:
            raise RequestError(
                f"declared.{p}",
                '"indefinitely" is for loops kept going by several players; here name a number '
                "or accept",
            )
    if kind is LoopKind.MANDATORY:
        able = breakers_of(request)
        for p, value in request.declared.items():
            if count_key(value) is not None and p not in able:
                raise RequestError(
                    f"declared.{p}",
                    f"{p} names a number but has no listed way to break a loop of mandatory "
                    "actions (add a breaker)",
                )
            if value == "accept":
                # MTR 4.4: "chooses a number of iterations to perform before they will take an
                # action to break the loop or that they wish to take no action"
                raise RequestError(
                    f"declared.{p}",
                    "a loop of mandatory actions has no proposal to accept: name a number of "
                    'iterations or "no_action"',
                )
        return
    for p in maintainers:
        mine: Declaration | None = request.declared.get(p)
        if mine is None or (count_key(mine) is None and mine != "indefinitely"):
            raise RequestError(
                f"declared.{p}", f"{p} keeps the loop going and must name a number of iterations"
            )
    if kind is LoopKind.MAINTAINED_BY_ONE:
        proposed = request.declared[maintainers[0]]
        for p, value in request.declared.items():
            own_key, proposed_key = count_key(value), count_key(proposed)
            if (
                p != maintainers[0]
                and own_key is not None
                and proposed_key is not None
                and own_key > proposed_key
            ):
                raise RequestError(
                    f"declared.{p}",
                    f"may accept {maintainers[0]}'s proposal or name a lower number, not a higher "
                    "one",
                )
