"""Shuffle analysis: how far a described shuffling procedure leaves a deck from uniformly random,
and how unlikely an observed land/spell pattern at the top of a deck is under a uniform shuffle.

Models (each one is named in ``ShuffleOutcome.model_notes``):

- riffle: the Gilbert-Shannon-Reeds (GSR) model. k GSR riffles of an n-card deck are one
  "2^k-shuffle", and a permutation with r rising sequences has probability C(2^k + n - r, n) /
  2^(kn); the number of permutations with r rising sequences is the Eulerian number A(n, r-1).
  Bayer, D. & Diaconis, P. (1992), "Trailing the dovetail shuffle to its lair", Ann. Appl. Probab.
  2(2), 294-313. The distance computed here is exact (integer arithmetic, one final division).
- mash: the same cut-and-interleave mechanism as a riffle, so modelled as a GSR riffle, but credited
  at half (two mashes count as one riffle, rounded down). The half credit is this engine's
  conservative convention, not a published result: mashes drop larger clumps than riffles, so full
  credit could overstate how random the deck is.
- overhand: credited with nothing. The overhand shuffle needs order n^2 log n repetitions to
  randomize (Pemantle, R. (1989), "Randomization time for the overhand shuffle", J. Theoret. Probab.
  2, 37-50; Jonasson, J. (2006), "The overhand shuffle mixes in Theta(n^2 log n) steps", Ann. Appl.
  Probab. 16(1)), i.e. thousands for a 60-card deck; a handful adds nothing measurable.
- pile and cut: a fixed rearrangement adds no randomness, and total variation distance from uniform
  is unchanged by a fixed permutation, so the distance after such a step equals the distance before
  it. A procedure of only piles and cuts leaves the deck at distance 1 - 1/n!.

Riffles separated by other steps are not one 2^k-shuffle any more. For such procedures the reported
distance is a rigorous upper bound, min(min_i TV_i, prod_i s_i), over the runs ("blocks") of
consecutive riffles: convolving with any further shuffle never increases TV distance from uniform,
TV <= separation distance, and separation distance is submultiplicative (Aldous, D. & Diaconis, P.
(1986), "Shuffling cards and stopping times", Amer. Math. Monthly 93(5), 333-348).
``distance_is_exact`` says which case applies.

The pattern test (``patterns``) checks the cards seen in both directions, too even and too
clumped, exactly.

numpy is, beside pydantic (which reads the requests), the exception to the engines' stdlib-only
rule: the Monte Carlo check of the pattern p-values draws up to ``max_samples`` random deck prefixes
(10^5 or more per request, inside a Celery job), which numpy does in vectorised batches in
milliseconds where a pure-Python loop takes seconds. It is imported inside the functions that
sample, so importing this module for distances needs only the standard library.
"""

from __future__ import annotations

from engines.shuffles.analysis import (
    DISTANCE_WORDS,
    FAR_FROM_RANDOM,
    analyse_shuffle,
    describe_distance,
    model_notes,
)
from engines.shuffles.patterns import (
    PATTERN_STATISTIC,
    assess_pattern,
    clumped_p_value,
    default_seed,
    estimate_pattern_p_value,
    estimate_run_p_values,
    longest_run,
    one_sided_p_values,
    pattern_finding,
    pattern_p_value_exact,
    pattern_probability,
    same_type_pairs,
    sequences_with_runs_at_most,
    too_even_p_value,
)
from engines.shuffles.records import (
    CITE_CHEATING,
    CITE_INSUFFICIENT,
    CITE_MTR_SHUFFLING,
    CITE_PREGAME,
    CITE_SHUFFLE,
    DEFAULT_MAX_SAMPLES,
    DEFAULT_THRESHOLD,
    MASH_CREDIT,
    MAX_DECK_SIZE,
    MAX_EXACT_RIFFLES,
    MAX_RIFFLES_SEARCHED,
    MAX_STEPS,
    MAX_TIMES,
    MC_BATCH,
    MC_TARGET_HITS,
    PATTERN_ALPHA,
    ObservedPattern,
    PatternDirection,
    PatternTest,
    ShuffleMethod,
    ShuffleOutcome,
    ShuffleRequest,
    ShuffleStep,
    StepDistance,
    Verdict,
)
from engines.shuffles.requests import validate_procedure, validate_shuffle_request
from engines.shuffles.riffles import (
    _gsr_distances,
    eulerian_row,
    pile_permutation,
    procedure_distance,
    procedure_distances,
    riffle_credit,
    riffle_distance,
    riffle_distance_exact,
    riffles_needed,
)

__all__ = [
    "CITE_CHEATING",
    "CITE_INSUFFICIENT",
    "CITE_MTR_SHUFFLING",
    "CITE_PREGAME",
    "CITE_SHUFFLE",
    "DEFAULT_MAX_SAMPLES",
    "DEFAULT_THRESHOLD",
    "DISTANCE_WORDS",
    "FAR_FROM_RANDOM",
    "MASH_CREDIT",
    "MAX_DECK_SIZE",
    "MAX_EXACT_RIFFLES",
    "MAX_RIFFLES_SEARCHED",
    "MAX_STEPS",
    "MAX_TIMES",
    "MC_BATCH",
    "MC_TARGET_HITS",
    "PATTERN_ALPHA",
    "PATTERN_STATISTIC",
    "ObservedPattern",
    "PatternDirection",
    "PatternTest",
    "ShuffleMethod",
    "ShuffleOutcome",
    "ShuffleRequest",
    "ShuffleStep",
    "StepDistance",
    "Verdict",
    "_gsr_distances",
    "analyse_shuffle",
    "assess_pattern",
    "clumped_p_value",
    "default_seed",
    "describe_distance",
    "estimate_pattern_p_value",
    "estimate_run_p_values",
    "eulerian_row",
    "longest_run",
    "one_sided_p_values",
    "pattern_finding",
    "model_notes",
    "pattern_p_value_exact",
    "pattern_probability",
    "pile_permutation",
    "procedure_distance",
    "procedure_distances",
    "riffle_credit",
    "riffle_distance",
    "riffle_distance_exact",
    "riffles_needed",
    "same_type_pairs",
    "sequences_with_runs_at_most",
    "too_even_p_value",
    "validate_procedure",
    "validate_shuffle_request",
]
