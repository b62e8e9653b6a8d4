"""The shuffle analysis as a whole: distance after the procedure, in numbers and in words, the
pattern test, advice.

The analysis is mathematics for a judge to weigh, not a ruling: whether a shuffle is an infraction
is decided by the documents (IPG 3.9 asks whether a player could know the position or distribution
of cards; see ``shuffle_check``). The threshold is this service's configured yardstick for "random
enough", shown as such.
"""

from __future__ import annotations

from collections.abc import Sequence

from engines.shuffles.patterns import assess_pattern, default_seed
from engines.shuffles.records import (
    CITE_CHEATING,
    CITE_INSUFFICIENT,
    CITE_MTR_SHUFFLING,
    CITE_PREGAME,
    CITE_SHUFFLE,
    PATTERN_ALPHA,
    PatternDirection,
    ShuffleMethod,
    ShuffleOutcome,
    ShuffleRequest,
    ShuffleStep,
    Verdict,
)
from engines.shuffles.riffles import (
    _check_threshold,
    procedure_distance,
    procedure_distances,
    riffles_needed,
)

# Where the band said "far from random" begins.
FAR_FROM_RANDOM = 0.9
# Total variation distance from uniform, said in words (upper bounds of each band). The words
# describe the mathematics only; the number is given beside them.
DISTANCE_WORDS = (
    (0.05, "practically indistinguishable from random"),
    (0.25, "close to random"),
    (0.5, "somewhat short of random"),
    (FAR_FROM_RANDOM, "well short of random"),
    (1.01, "far from random"),
)


def describe_distance(distance: float) -> str:
    """A judge's words for a distance from random, e.g. "far from random (total variation
    distance 1.000; ...)". A distance near 1 does not mean the order can be predicted (two riffles
    of 60 cards are at 1.000), so it is not glossed as "fully predictable"."""
    words = next(text for bound, text in DISTANCE_WORDS if distance < bound)
    return (
        f"{words} (total variation distance {distance:.3f}; 0 is a uniformly random order, and a "
        "large distance does not mean a player can tell where any card is)"
    )


def model_notes(procedure: Sequence[ShuffleStep], exact: bool) -> tuple[str, ...]:
    methods = {step.method for step in procedure if step.times}
    notes = [
        "riffle: Gilbert-Shannon-Reeds model, exact distance (Bayer & Diaconis 1992, Ann. Appl. "
        "Probab. 2)"
    ]
    if ShuffleMethod.MASH in methods:
        notes.append(
            "mash: modelled as a GSR riffle credited at half (two mashes = one riffle, rounded "
            "down); a conservative convention of this engine, not a published result"
        )
    if ShuffleMethod.OVERHAND in methods:
        notes.append(
            "overhand: credited with nothing; randomizing takes order n^2 log n overhand shuffles "
            "(Pemantle 1989, J. Theoret. Probab. 2; Jonasson 2006, Ann. Appl. Probab. 16)"
        )
    if methods & {ShuffleMethod.PILE, ShuffleMethod.CUT}:
        notes.append(
            "pile/cut: a fixed rearrangement; it adds no randomness and leaves the distance "
            "unchanged"
        )
    if not exact:
        notes.append(
            "riffles separated by other steps (or more than MAX_EXACT_RIFFLES in a row): the "
            "distance is an upper bound, min(best block TV, product of block separation distances) "
            "(Aldous & Diaconis 1986, Amer. Math. Monthly 93)"
        )
    return tuple(notes)


def _advice(
    n: int, needed: int | None, sufficient: bool, exact: bool, procedure: Sequence[ShuffleStep]
) -> str:
    if n <= 1:
        return (
            "A deck of one card is always in random order; shuffling it is still a shuffle for "
            "game purposes."
        )
    needed_text = "many" if needed is None else str(needed)
    how = (
        f"To bring a deck of this size close to random, finish with {needed_text} or more riffle "
        "shuffles in a row (mashes count as half a riffle). Pile shuffling adds no randomness and "
        "is allowed only once at the start of a game, to count the deck; a few overhand shuffles "
        "add almost nothing. Do not look at card faces while shuffling: a card seen means the deck "
        "must be randomized again. Then present the deck to the opponent, who may shuffle or cut "
        "it further (at Competitive and Professional REL the opponent must shuffle it)."
    )
    piles_only = all(
        s.method in (ShuffleMethod.PILE, ShuffleMethod.CUT) or not s.times for s in procedure
    )
    if sufficient:
        return "By this measure the procedure randomizes the deck well. " + how
    if procedure and piles_only:
        return "Pile shuffling alone does not randomize a deck. " + how
    if not exact:
        return "The riffles are split by other steps, so they cannot be credited as one run. " + how
    return "This procedure leaves the deck measurably ordered. " + how


def analyse_shuffle(
    request: ShuffleRequest, *, max_samples: int, threshold: float
) -> ShuffleOutcome:
    """Distance from uniform after ``request.procedure``, the riffles needed for ``threshold`` (a TV
    distance in (0, 1)), and, with an observed pattern, its p-value under a uniform shuffle.

    ``pattern_p_value`` is the exact combinatorial value; the Monte Carlo estimate (at most
    ``max_samples`` samples, seeded, with its standard error) is reported beside it in ``pattern``
    as an independent check.
    """
    _check_threshold(threshold)
    n = request.deck_size
    steps = procedure_distances(n, request.procedure)
    distance, exact = procedure_distance(n, request.procedure)
    needed = riffles_needed(n, threshold)
    sufficient = distance <= threshold
    citations = [CITE_SHUFFLE, CITE_PREGAME, CITE_MTR_SHUFFLING]
    if not sufficient:
        citations.append(CITE_INSUFFICIENT)
    pattern = None
    verdict = Verdict.RANDOM_ENOUGH if sufficient else Verdict.NOT_RANDOM_ENOUGH
    if request.observed is not None:
        seed = request.seed if request.seed is not None else default_seed(n, request.observed)
        pattern = assess_pattern(n, request.observed, max_samples=max_samples, seed=seed)
        if pattern.direction is not None:
            verdict = Verdict.SUSPICIOUS_PATTERN
            citations.append(CITE_CHEATING)
    advice = _advice(n, needed, sufficient, exact, request.procedure)
    if verdict is Verdict.SUSPICIOUS_PATTERN and pattern is not None:
        kind = (
            "spread more evenly (as mana weaving leaves them)"
            if pattern.direction is PatternDirection.TOO_EVEN
            else "clumped together more"
        )
        advice = (
            f"The cards seen are {kind} than a shuffled deck would show in {PATTERN_ALPHA:.0%} of "
            f"cases (p = {pattern.p_value_exact:.2g}). That is not proof of anything; a judge "
            "should find out how the deck was shuffled, and investigate whether it was "
            "stacked on purpose. " + advice
        )
    return ShuffleOutcome(
        distance_from_random=distance,
        distance_is_exact=exact,
        riffles_needed=needed,
        sufficient=sufficient,
        pattern_p_value=None if pattern is None else pattern.p_value_exact,
        verdict=verdict,
        advice=advice,
        citations=tuple(dict.fromkeys(citations)),
        threshold=threshold,
        steps=steps,
        pattern=pattern,
        model_notes=model_notes(request.procedure, exact),
        distance_words=describe_distance(distance),
    )
