"""The kinds of computation a job runs: how each is validated and run by its pure engine, and how an
engine's outcome becomes the stored, JSON-ready result with citations resolved."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from django.conf import settings

from jobs.models import Job
from rulesref import references


@dataclass(frozen=True)
class Computation:
    """How one kind of job is validated and run: both pure engine calls."""

    validate: Callable[[Mapping[str, Any]], Any]
    run: Callable[[Any], Any]


def _loop() -> Computation:
    from engines import loops

    return Computation(
        loops.validate_loop_request,
        lambda req: loops.resolve_loop(req, max_steps=settings.JUDGEAPP_LOOP_MAX_STEPS),
    )


def _game() -> Computation:
    from engines import games

    return Computation(games.validate_game_request, games.decide_game)


def _shuffle() -> Computation:
    from engines import shuffles

    return Computation(
        shuffles.validate_shuffle_request,
        lambda req: shuffles.analyse_shuffle(
            req,
            max_samples=settings.JUDGEAPP_SHUFFLE_MAX_SAMPLES,
            threshold=settings.JUDGEAPP_SHUFFLE_THRESHOLD,
        ),
    )


COMPUTATIONS: dict[str, Callable[[], Computation]] = {
    Job.Kind.LOOP_OUTCOME: _loop,
    Job.Kind.GAME_OUTCOME: _game,
    Job.Kind.SHUFFLE_ANALYSIS: _shuffle,
}


class InvalidRequest(Exception):
    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message


def validate_request(kind: str, payload: Any) -> Any:
    """The engine's typed request, or InvalidRequest naming the field. Nothing is stored."""
    if kind not in COMPUTATIONS:
        raise InvalidRequest("kind", f"unknown computation {kind!r}")
    if not isinstance(payload, Mapping):
        raise InvalidRequest("body", "the request body must be a JSON object")
    try:
        return COMPUTATIONS[kind]().validate(payload)
    except ValueError as exc:
        # The engines' request errors (RequestError, ShuffleRequestError) carry the field they name.
        field = getattr(exc, "field", None)
        if field is None:
            raise
        raise InvalidRequest(field, getattr(exc, "message", str(exc))) from None


class SignInRequired(InvalidRequest):
    """The request costs more than an anonymous client may ask for (a cap of the settings)."""


def anonymous_cost_refusal(kind: str, request: Any) -> SignInRequired | None:
    """Why an anonymous client may not run this checked request, or None. A shuffle analysis's cost
    grows with the deck and the shuffles applied (13 to 39 s of a worker for the largest); the
    other kinds are cheap under their own budgets."""
    if kind != Job.Kind.SHUFFLE_ANALYSIS:
        return None
    cards = settings.JUDGEAPP_ANONYMOUS_SHUFFLE_MAX_CARDS
    if cards > 0 and request.deck_size > cards:
        return SignInRequired(
            "deck_size",
            f"an anonymous shuffle analysis covers at most {cards} cards; sign in or send an API "
            "token for more",
        )
    shuffles = settings.JUDGEAPP_ANONYMOUS_SHUFFLE_MAX_SHUFFLES
    applied = sum(step.times for step in request.procedure)
    if shuffles > 0 and applied > shuffles:
        return SignInRequired(
            "procedure",
            f"an anonymous shuffle analysis applies at most {shuffles} shuffles in all (this one "
            f"applies {applied}); sign in or send an API token for more",
        )
    return None


def outcome_dict(outcome: Any) -> dict:
    """An engine outcome as JSON-ready data (engines name the method to_dict or as_result)."""
    convert = getattr(outcome, "to_dict", None) or outcome.as_result
    return convert()


def resolve_citations(result: dict) -> dict:
    """Replace the engine's pinned references with citations in the current versions' numbering."""
    refs = [c for c in result.get("citations", []) if isinstance(c, str)]
    result["citations"] = references.citations(refs)
    # A shuffle check's further infractions (another player's, engines.shuffle_check) cite too.
    for further in result.get("further_infractions") or ():
        if isinstance(further, dict) and "citations" in further:
            pinned = [c for c in further["citations"] if isinstance(c, str)]
            further["citations"] = references.citations(pinned)
    return result
