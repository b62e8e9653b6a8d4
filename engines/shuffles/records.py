"""Shuffle-analysis records: limits, citations, methods, the request, per-step distances, pattern
tests and the outcome."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from fractions import Fraction
from typing import Any

MAX_DECK_SIZE = 250
MAX_TIMES = 100  # more repetitions of one step than anyone performs at a table
MAX_STEPS = 50
MAX_RIFFLES_SEARCHED = 400  # riffles_needed gives up (returns None) beyond this
MAX_EXACT_RIFFLES = 200  # beyond this a block is reported by the (tiny) distance at 200, as a bound
MASH_CREDIT = Fraction(1, 2)
PATTERN_ALPHA = 0.01  # a pattern at least this unlikely is reported as suspicious
MC_BATCH = 20_000
MC_TARGET_HITS = 400  # relative standard error of the estimate <= 5% once this many hits are seen
DEFAULT_MAX_SAMPLES = 200_000
DEFAULT_THRESHOLD = 0.25

CITE_SHUFFLE = "cr@2025-02-07:701.20a"
CITE_PREGAME = "cr@2025-02-07:103.3"
CITE_MTR_SHUFFLING = "mtr@2019-06-06:3.9"
CITE_INSUFFICIENT = "ipg@2021-01-06:3.9"
CITE_CHEATING = "ipg@2021-01-06:4.8"


class ShuffleMethod(str, Enum):
    RIFFLE = "riffle"
    MASH = "mash"
    OVERHAND = "overhand"
    PILE = "pile"
    CUT = "cut"


class Verdict(str, Enum):
    RANDOM_ENOUGH = "random_enough"
    NOT_RANDOM_ENOUGH = "not_random_enough"
    # the pattern seen is unlikely under a uniform shuffle
    SUSPICIOUS_PATTERN = "suspicious_pattern"


@dataclass(frozen=True)
class ShuffleStep:
    method: ShuffleMethod
    times: int = 1
    piles: int | None = None  # pile shuffles only


@dataclass(frozen=True)
class ObservedPattern:
    pattern: str  # "L"/"S" per card from the top of the deck, e.g. "LSSLSS"
    lands: int  # lands in the whole deck


@dataclass(frozen=True)
class ShuffleRequest:
    deck_size: int
    procedure: tuple[ShuffleStep, ...]
    observed: ObservedPattern | None = None
    seed: int | None = None  # Monte Carlo seed; None: derived from the request, so reruns agree


@dataclass(frozen=True)
class StepDistance:
    method: ShuffleMethod
    times: int
    credited_riffles: int  # GSR riffles credited to the current block after this step
    distance: float  # TV distance from uniform after this step (an upper bound if not exact)
    exact: bool


class PatternDirection(str, Enum):
    TOO_EVEN = "too_even"  # e.g. mana weaving: lands spread more evenly than shuffling leaves them
    # e.g. ten lands on top: a longer clump of one kind than shuffling leaves
    TOO_CLUMPED = "too_clumped"


@dataclass(frozen=True)
class PatternTest:
    statistic: str  # what was tested, in words
    observed_value: int  # the longest run behind the p-value reported
    # both directions tested (Bonferroni over three one-sided tests), combinatorial
    p_value_exact: float
    # the Monte Carlo estimate of the one-sided p-value that decided, as a check
    p_value_monte_carlo: float
    standard_error: float
    interval_95: tuple[float, float]  # Wilson score interval of the Monte Carlo estimate
    samples: int
    seed: int
    # which kind was found (p <= PATTERN_ALPHA), None: neither
    direction: PatternDirection | None = None
    # probability of exactly this top sequence for a uniformly shuffled deck
    pattern_probability: float = 1.0
    p_value_too_even: float = 1.0  # P(no land run and no spell run longer than seen)
    p_value_lands_clumped: float = 1.0  # P(a run of lands at least as long as the longest seen)
    p_value_spells_clumped: float = 1.0
    p_value_runs: float = 1.0  # P(as few same-kind neighbours as seen), the classic runs test
    longest_land_run: int = 0
    longest_spell_run: int = 0


@dataclass(frozen=True)
class ShuffleOutcome:
    distance_from_random: float
    distance_is_exact: bool
    riffles_needed: int | None  # None: not reachable within MAX_RIFFLES_SEARCHED
    sufficient: bool
    pattern_p_value: float | None
    verdict: Verdict
    advice: str
    citations: tuple[str, ...]
    threshold: float
    steps: tuple[StepDistance, ...] = ()
    pattern: PatternTest | None = None
    model_notes: tuple[str, ...] = field(default=())
    # the distance said for a judge ("far from random"); the number supports it
    distance_words: str = ""

    def as_result(self) -> dict[str, Any]:
        """The JSON result of docs/API.md "shuffle-analysis"; citations stay pinned for the service
        to resolve."""
        return {
            "distance_from_random": self.distance_from_random,
            "distance_is_exact": self.distance_is_exact,
            "riffles_needed": self.riffles_needed,
            "sufficient": self.sufficient,
            "pattern_p_value": self.pattern_p_value,
            "verdict": self.verdict.value,
            "advice": self.advice,
            "citations": list(self.citations),
            "threshold": self.threshold,
            "distance_words": self.distance_words,
            "pattern_direction": None
            if self.pattern is None or self.pattern.direction is None
            else self.pattern.direction.value,
            "steps": [
                {
                    "method": s.method.value,
                    "times": s.times,
                    "credited_riffles": s.credited_riffles,
                    "distance": s.distance,
                    "exact": s.exact,
                }
                for s in self.steps
            ],
            "pattern": None
            if self.pattern is None
            else {
                "statistic": self.pattern.statistic,
                "observed_value": self.pattern.observed_value,
                "p_value_exact": self.pattern.p_value_exact,
                "p_value_monte_carlo": self.pattern.p_value_monte_carlo,
                "standard_error": self.pattern.standard_error,
                "interval_95": list(self.pattern.interval_95),
                "samples": self.pattern.samples,
                "seed": self.pattern.seed,
                "direction": None
                if self.pattern.direction is None
                else self.pattern.direction.value,
                "pattern_probability": self.pattern.pattern_probability,
                "p_value_too_even": self.pattern.p_value_too_even,
                "p_value_lands_clumped": self.pattern.p_value_lands_clumped,
                "p_value_spells_clumped": self.pattern.p_value_spells_clumped,
                "p_value_runs": self.pattern.p_value_runs,
                "longest_land_run": self.pattern.longest_land_run,
                "longest_spell_run": self.pattern.longest_spell_run,
            },
            "model_notes": list(self.model_notes),
        }
