"""The shuffle check's request (POST /api/v1/shuffle-check): what the judge saw, checked field by
field, each error naming its field, and read into ``ShuffleFacts``."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any, ClassVar, Literal

from pydantic import BeforeValidator, Field, ValidationInfo, WithJsonSchema, model_validator

from engines import shuffles
from engines.shuffle_check.facts import Rel, ShuffleFacts
from engines.shuffles.requests import Procedure
from engines.validation import Invalid, Shape, read


def _rel(value: Any) -> Rel:
    try:
        return Rel(value)
    except ValueError:
        raise Invalid("must be one of regular, competitive, professional") from None


def _deck_size(value: Any, info: ValidationInfo) -> int:
    if (
        isinstance(value, bool)
        or not isinstance(value, int)
        or not 0 <= value <= shuffles.MAX_DECK_SIZE
    ):
        raise Invalid(f"must be a whole number from 0 to {shuffles.MAX_DECK_SIZE}")
    if info.context is not None:
        info.context["deck_size"] = value  # the procedure's piles are checked against it
    return value


def _flag(value: Any) -> bool:
    if not isinstance(value, bool):
        raise Invalid("must be true or false")
    return value


def _probability(value: Any, *at: str) -> float | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0 <= value <= 1:
        raise Invalid("must be a probability from 0 to 1", *at)
    return float(value)


def _direction(value: Any) -> str | None:
    if value is not None and value not in ("too_even", "too_clumped"):
        raise Invalid("must be too_even, too_clumped or null")
    return value  # type: ignore[no-any-return]  # one of the two words, or None


Flag = Annotated[bool, BeforeValidator(_flag)]
Probability = Annotated[float | None, Field(ge=0, le=1), BeforeValidator(_probability)]
PROBABILITY_SCHEMA = {"anyOf": [{"type": "number", "minimum": 0, "maximum": 1}, {"type": "null"}]}


class ShuffleCheckAnalysis(Shape):
    """A shuffle-analysis result (POST /api/v1/jobs/shuffle-analysis): only these two keys
    are read."""

    not_object: ClassVar[str] = "must be a shuffle-analysis result object"
    pattern_direction: Annotated[
        Literal["too_even", "too_clumped"] | None, BeforeValidator(_direction)
    ] = None
    # Read only when the request gives no pattern_p_value of its own (checked then, by
    # ShuffleCheckRequest).
    pattern_p_value: Annotated[Any, WithJsonSchema(PROBABILITY_SCHEMA)] = None


class ShuffleCheckRequest(Shape):
    """POST /api/v1/shuffle-check: what the judge saw. Checked in this order; unknown keys are
    ignored. An ``analysis`` (a shuffle-analysis result) may stand in for ``pattern_p_value``."""

    not_object: ClassVar[str] = "must be a JSON object"
    rel: Annotated[Rel, BeforeValidator(_rel)]
    deck_size: Annotated[
        int,
        Field(
            ge=0,
            le=shuffles.MAX_DECK_SIZE,
            description="cards in the library (or deck) that was shuffled",
        ),
        BeforeValidator(_deck_size),
    ]
    procedure: Procedure | None = Field(
        default=None,
        description="the steps, in order (absent: not described; []: not shuffled at all)",
    )
    presented_to_opponent: Flag = Field(
        default=True, description="offered to the opponent for a final shuffle or cut"
    )
    searched_without_shuffle: Flag = Field(
        default=False, description="searched, and did not shuffle when told to"
    )
    card_seen_while_shuffling: Flag = Field(
        default=False, description="a card face was seen and the deck not re-randomized"
    )
    pattern_seen: Flag = Field(
        default=False, description="a suspicious land/spell pattern was seen"
    )
    arranged_before_shuffle: Flag = Field(
        default=False, description="the player weaved or stacked before shuffling"
    )
    repeated_after_education: Flag = Field(
        default=False, description="Regular REL: the player was already educated"
    )
    found_cards_shuffled_in: Flag = Field(
        default=False, description="cards found by a search went into the shuffle"
    )
    put_at_position: Flag = Field(
        default=False, description="an object goes to a set position as the library is shuffled"
    )
    objects_to_shuffle_missing: Flag = Field(
        default=False, description='"shuffle X into the library" but X is gone or there is none'
    )
    has_shuffle_trigger: Flag = Field(
        default=False, description='a "whenever a library is shuffled" ability is in play'
    )
    cards_could_be_known: Flag = Field(
        default=False,
        description="the judge believes a player could know the position or distribution of cards",
    )
    prior_insufficient_shuffling_warning: Flag = Field(
        default=False, description="already a Warning for Insufficient Shuffling this day"
    )
    shuffling_opponents_deck: Flag = Field(
        default=False, description="the card was seen while the opponent's deck was being shuffled"
    )
    analysis: ShuffleCheckAnalysis | None = Field(
        default=None, description="a shuffle-analysis result"
    )
    pattern_p_value: Probability = Field(
        default=None, description="from the shuffle analysis (default: the analysis's)"
    )

    @model_validator(mode="after")
    def _analysis_p_value(self) -> ShuffleCheckRequest:
        if self.pattern_p_value is None and self.analysis is not None:
            _probability(self.analysis.pattern_p_value, "analysis", "pattern_p_value")
        return self

    def facts(self) -> ShuffleFacts:
        p_value, direction = self.pattern_p_value, None
        if self.analysis is not None:
            direction = self.analysis.pattern_direction
            if p_value is None:
                p_value = _probability(self.analysis.pattern_p_value)
        flags = {name: getattr(self, name) for name in FLAGS}
        procedure = None if self.procedure is None else tuple(s.step() for s in self.procedure)
        return ShuffleFacts(
            rel=self.rel,
            deck_size=self.deck_size,
            procedure=procedure,
            pattern_p_value=p_value,
            pattern_direction=direction,
            **flags,
        )


FLAGS = tuple(name for name, f in ShuffleCheckRequest.model_fields.items() if f.annotation is bool)


def validate_shuffle_facts(data: Mapping[str, Any]) -> ShuffleFacts:
    """Build ShuffleFacts from a judge's answers (ShuffleCheckRequest); raises RequestError naming
    the field."""
    return read(ShuffleCheckRequest, data).facts()
