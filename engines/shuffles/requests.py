"""Shuffle-analysis requests (docs/API.md): the model that reads the API's JSON (and describes it
for the schema) and the typed ShuffleRequest built from it; errors are RequestError naming
the field."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Annotated, Any, ClassVar

from pydantic import (
    BeforeValidator,
    Field,
    TypeAdapter,
    ValidationInfo,
    field_validator,
    model_validator,
)

from engines.errors import RequestError
from engines.shuffles.records import (
    MAX_DECK_SIZE,
    MAX_STEPS,
    MAX_TIMES,
    ObservedPattern,
    ShuffleMethod,
    ShuffleRequest,
    ShuffleStep,
)
from engines.validation import Check, Invalid, Shape, read, read_as, schema_is

MAX_SEED = 2**63 - 1


def _integer(low: int, high: int) -> Check:
    def check(value: Any) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise Invalid(f"must be a whole number from {low} to {high}")
        if not low <= value <= high:
            raise Invalid(f"must be from {low} to {high}, got {value}")
        return value

    return check


def _deck_size_of(info: ValidationInfo) -> int | None:
    """The deck size, once it was read (None when it was refused: that error comes first)."""
    size: int | None = (info.context or {}).get("deck_size")
    return size


def _method(value: Any) -> ShuffleMethod:
    try:
        return ShuffleMethod(value)
    except ValueError:
        known = ", ".join(m.value for m in ShuffleMethod)
        raise Invalid(f"unknown method {value!r}; expected one of {known}") from None


class ShuffleProcedureStep(Shape):
    not_object: ClassVar[str] = "must be an object with 'method' and 'times'"
    # For the schema: piles only with the pile method (a rule across two fields).
    model_config = Shape.model_config | {
        "json_schema_extra": {
            "anyOf": [
                {"properties": {"method": schema_is(ShuffleMethod.PILE.value)}},
                {"not": {"required": ["piles"]}},
            ]
        }
    }
    method: Annotated[ShuffleMethod, BeforeValidator(_method)]
    times: Annotated[int, Field(ge=0, le=MAX_TIMES), BeforeValidator(_integer(0, MAX_TIMES))] = 1
    piles: Annotated[
        Annotated[int, Field(ge=2, le=MAX_DECK_SIZE)] | None,
        Field(description="pile shuffles only: 2 to the deck size"),
    ] = None

    @field_validator("piles", mode="before")
    @classmethod
    def _piles(cls, value: Any, info: ValidationInfo) -> Any:
        if value is None or "method" not in info.data:
            return value
        if info.data["method"] is not ShuffleMethod.PILE:
            raise Invalid("only a pile shuffle has piles")
        deck_size = _deck_size_of(info)
        return value if deck_size is None else _integer(2, max(2, deck_size))(value)

    def step(self) -> ShuffleStep:
        return ShuffleStep(self.method, self.times, self.piles)


def _steps(value: Any) -> Any:
    if not isinstance(value, Sequence) or isinstance(value, str | bytes):
        raise Invalid("must be a list of steps")
    if len(value) > MAX_STEPS:
        raise Invalid(f"has {len(value)} steps; at most {MAX_STEPS}")
    return list(value)


Procedure = Annotated[
    list[ShuffleProcedureStep], Field(max_length=MAX_STEPS), BeforeValidator(_steps)
]
PROCEDURE: TypeAdapter[list[ShuffleProcedureStep]] = TypeAdapter(Procedure)


def _pattern(value: Any, info: ValidationInfo) -> str:
    if not isinstance(value, str):
        raise Invalid("must be a string of L (land) and S (spell)")
    pattern = "".join(value.split()).upper()
    if not pattern or set(pattern) - {"L", "S"}:
        raise Invalid("must be a non-empty string of only L (land) and S (spell)")
    deck_size = _deck_size_of(info)
    if deck_size is not None and len(pattern) > deck_size:
        raise Invalid(f"has {len(pattern)} cards but the deck has {deck_size}")
    return pattern


class ShuffleObserved(Shape):
    not_object: ClassVar[str] = "must be an object with 'pattern' and 'lands'"
    pattern: Annotated[
        str,
        Field(
            min_length=1,
            max_length=MAX_DECK_SIZE,
            json_schema_extra={"pattern": r"^[LSls\s]*[LSls][LSls\s]*$"},
            description="L for land, S for spell, from the top (spaces ignored)",
        ),
        BeforeValidator(_pattern),
    ]
    lands: Annotated[int, Field(ge=0, le=MAX_DECK_SIZE, description="lands in the whole deck")]

    @field_validator("lands", mode="before")
    @classmethod
    def _lands(cls, value: Any, info: ValidationInfo) -> Any:
        deck_size = _deck_size_of(info)
        return value if deck_size is None else _integer(0, deck_size)(value)

    @model_validator(mode="after")
    def _fits_the_deck(self, info: ValidationInfo) -> ShuffleObserved:
        deck_size = _deck_size_of(info)
        seen_lands = self.pattern.count("L")
        if seen_lands > self.lands:
            raise Invalid(f"shows {seen_lands} lands but the deck has only {self.lands}", "pattern")
        if deck_size is not None and len(self.pattern) - seen_lands > deck_size - self.lands:
            raise Invalid(
                f"shows {len(self.pattern) - seen_lands} spells but the deck has only "
                f"{deck_size - self.lands}",
                "pattern",
            )
        return self


def _deck_size(value: Any, info: ValidationInfo) -> int:
    size: int = _integer(1, MAX_DECK_SIZE)(value)
    if info.context is not None:
        info.context["deck_size"] = size
    return size


class ShuffleAnalysisRequest(Shape):
    """POST /api/v1/jobs/shuffle-analysis (docs/API.md). Checked in this order; unknown keys
    are ignored."""

    not_object: ClassVar[str] = "must be a JSON object"
    deck_size: Annotated[int, Field(ge=1, le=MAX_DECK_SIZE), BeforeValidator(_deck_size)]
    procedure: Procedure = Field(default_factory=list, description="the steps, in order")
    observed: ShuffleObserved | None = Field(
        default=None, description="a pattern seen at the top of the deck"
    )
    seed: Annotated[
        Annotated[int, Field(ge=0, le=MAX_SEED)] | None,
        BeforeValidator(lambda v: v if v is None else _integer(0, MAX_SEED)(v)),
        Field(description="Monte Carlo seed (default: derived from the request)"),
    ] = None

    def shuffle_request(self) -> ShuffleRequest:
        observed = (
            None
            if self.observed is None
            else ObservedPattern(self.observed.pattern, self.observed.lands)
        )
        return ShuffleRequest(
            self.deck_size, tuple(s.step() for s in self.procedure), observed, self.seed
        )


def validate_procedure(
    raw_steps: Any, deck_size: int, name: str = "procedure"
) -> tuple[ShuffleStep, ...]:
    """Check a list of procedure steps; errors name the step, e.g. "procedure[1].method"."""
    steps = read_as(PROCEDURE, raw_steps, prefix=name, context={"deck_size": deck_size})
    return tuple(s.step() for s in steps)


def validate_shuffle_request(data: Mapping[str, Any]) -> ShuffleRequest:
    """Check a shuffle-analysis payload (docs/API.md) and build the request; raises RequestError
    naming the field ("deck_size", "procedure[2].times", "observed.pattern", ...). Unknown keys
    are ignored."""
    return read(ShuffleAnalysisRequest, data).shuffle_request()


__all__ = [
    "RequestError",
    "ShuffleAnalysisRequest",
    "validate_procedure",
    "validate_shuffle_request",
]
