"""Shuffle analysis: how far a described shuffling procedure leaves a deck from uniformly random, and how
unlikely an observed land/spell pattern at the top of a deck is under a uniform shuffle.

Models (each one is named in ``ShuffleOutcome.model_notes``):

- riffle: the Gilbert-Shannon-Reeds (GSR) model. k GSR riffles of an n-card deck are one "2^k-shuffle",
  and a permutation with r rising sequences has probability C(2^k + n - r, n) / 2^(kn); the number of
  permutations with r rising sequences is the Eulerian number A(n, r-1). Bayer, D. & Diaconis, P. (1992),
  "Trailing the dovetail shuffle to its lair", Ann. Appl. Probab. 2(2), 294-313. The distance computed
  here is exact (integer arithmetic, one final division).
- mash: the same cut-and-interleave mechanism as a riffle, so modelled as a GSR riffle, but credited at
  half (two mashes count as one riffle, rounded down). The half credit is this engine's conservative
  convention, not a published result: mashes drop larger clumps than riffles, so full credit could
  overstate how random the deck is.
- overhand: credited with nothing. The overhand shuffle needs order n^2 log n repetitions to randomize
  (Pemantle, R. (1989), "Randomization time for the overhand shuffle", J. Theoret. Probab. 2, 37-50;
  Jonasson, J. (2006), "The overhand shuffle mixes in Theta(n^2 log n) steps", Ann. Appl. Probab. 16(1)),
  i.e. thousands for a 60-card deck; a handful adds nothing measurable.
- pile and cut: a fixed rearrangement adds no randomness, and total variation distance from uniform is
  unchanged by a fixed permutation, so the distance after such a step equals the distance before it.
  A procedure of only piles and cuts leaves the deck at distance 1 - 1/n!.

Riffles separated by other steps are not one 2^k-shuffle any more. For such procedures the reported
distance is a rigorous upper bound, min(min_i TV_i, prod_i s_i), over the runs ("blocks") of consecutive
riffles: convolving with any further shuffle never increases TV distance from uniform, TV <= separation
distance, and separation distance is submultiplicative (Aldous, D. & Diaconis, P. (1986), "Shuffling cards
and stopping times", Amer. Math. Monthly 93(5), 333-348). ``distance_is_exact`` says which case applies.

numpy is the one exception to the engines' stdlib-only rule: the Monte Carlo check of the pattern p-value
draws up to ``max_samples`` random deck prefixes (10^5 or more per request, inside a Celery job), which
numpy does in vectorised batches in milliseconds where a pure-Python loop takes seconds. It is imported
inside that one function, so importing this module for distances needs only the standard library.
"""

from __future__ import annotations

import math
import zlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from fractions import Fraction
from functools import lru_cache
from typing import Any

from judgeapp.engines.errors import RequestError

MAX_DECK_SIZE = 250
MAX_TIMES = 100            # more repetitions of one step than anyone performs at a table
MAX_STEPS = 50
MAX_RIFFLES_SEARCHED = 400  # riffles_needed gives up (returns None) beyond this
MAX_EXACT_RIFFLES = 200    # beyond this a block is reported by the (tiny) distance at 200, as a bound
MASH_CREDIT = Fraction(1, 2)
PATTERN_ALPHA = 0.01       # a pattern at least this unlikely is reported as suspicious
MC_BATCH = 20_000
MC_TARGET_HITS = 400       # relative standard error of the estimate <= 5% once this many hits are seen
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
    SUSPICIOUS_PATTERN = "suspicious_pattern"   # the pattern seen is unlikely under a uniform shuffle


@dataclass(frozen=True)
class ShuffleStep:
    method: ShuffleMethod
    times: int = 1
    piles: int | None = None      # pile shuffles only


@dataclass(frozen=True)
class ObservedPattern:
    pattern: str                  # "L"/"S" per card from the top of the deck, e.g. "LSSLSS"
    lands: int                    # lands in the whole deck


@dataclass(frozen=True)
class ShuffleRequest:
    deck_size: int
    procedure: tuple[ShuffleStep, ...]
    observed: ObservedPattern | None = None
    seed: int | None = None       # Monte Carlo seed; None: derived from the request, so reruns agree


@dataclass(frozen=True)
class StepDistance:
    method: ShuffleMethod
    times: int
    credited_riffles: int         # GSR riffles credited to the current block after this step
    distance: float               # TV distance from uniform after this step (an upper bound if not exact)
    exact: bool


@dataclass(frozen=True)
class PatternTest:
    statistic: str                # what is counted
    observed_value: int
    p_value_exact: float          # P(statistic <= observed) under a uniform shuffle, combinatorial
    p_value_monte_carlo: float
    standard_error: float
    interval_95: tuple[float, float]   # Wilson score interval of the Monte Carlo estimate
    samples: int
    seed: int


@dataclass(frozen=True)
class ShuffleOutcome:
    distance_from_random: float
    distance_is_exact: bool
    riffles_needed: int | None    # None: not reachable within MAX_RIFFLES_SEARCHED
    sufficient: bool
    pattern_p_value: float | None
    verdict: Verdict
    advice: str
    citations: tuple[str, ...]
    threshold: float
    steps: tuple[StepDistance, ...] = ()
    pattern: PatternTest | None = None
    model_notes: tuple[str, ...] = field(default=())

    def as_result(self) -> dict[str, Any]:
        """The JSON result of API.md "shuffle-analysis"; citations stay pinned for the service to resolve."""
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
            "steps": [
                {"method": s.method.value, "times": s.times, "credited_riffles": s.credited_riffles,
                 "distance": s.distance, "exact": s.exact}
                for s in self.steps
            ],
            "pattern": None if self.pattern is None else {
                "statistic": self.pattern.statistic,
                "observed_value": self.pattern.observed_value,
                "p_value_exact": self.pattern.p_value_exact,
                "p_value_monte_carlo": self.pattern.p_value_monte_carlo,
                "standard_error": self.pattern.standard_error,
                "interval_95": list(self.pattern.interval_95),
                "samples": self.pattern.samples,
                "seed": self.pattern.seed,
            },
            "model_notes": list(self.model_notes),
        }


# --- exact GSR distances ------------------------------------------------------------------------------

@lru_cache(maxsize=64)
def eulerian_row(n: int) -> tuple[int, ...]:
    """A(n, 0..n-1): permutations of n cards with 1..n rising sequences (A(0, 0) = 1 by convention)."""
    row = [1]
    for m in range(2, n + 1):
        row = [(j + 1) * (row[j] if j < len(row) else 0) + (m - j) * (row[j - 1] if j >= 1 else 0)
               for j in range(m)]
    return tuple(row)


def _falling_terms(n: int, a: int) -> list[int]:
    """F(r) = n! * C(a + n - r, n) = (a-r+1)(a-r+2)...(a-r+n) for r = 1..n (0 once r > a)."""
    terms = []
    f = math.prod(range(a, a + n))           # r = 1: a(a+1)...(a+n-1)
    for r in range(1, n + 1):
        terms.append(f)
        if r >= a:
            f = 0
        elif f:
            f = f * (a - r) // (a - r + n)    # exact: drop the top factor, add a new bottom one
    return terms


@lru_cache(maxsize=4096)
def _gsr_distances(n: int, a: int) -> tuple[Fraction, Fraction]:
    """(TV, separation) distances from uniform of one GSR a-shuffle of n cards, exactly."""
    if n <= 1:
        return Fraction(0), Fraction(0)
    power = a ** n
    row = eulerian_row(n)
    # Scaled by a^n * n!: P_r - 1/n! becomes F(r) - a^n; only terms above uniform need summing, as the
    # positive and negative parts cancel (both distributions sum to 1).
    excess = sum(count * (f - power) for count, f in zip(row, _falling_terms(n, a)) if f > power)
    scale = power * math.factorial(n)
    tv = Fraction(excess, scale)
    # Separation: 1 - n! * min_pi P(pi); the least likely permutation has n rising sequences.
    separation = 1 - Fraction(math.prod(range(a - n + 1, a + 1)) if a >= n else 0, power)
    return tv, separation


def riffle_distance(n: int, riffles: int) -> float:
    """Exact total variation distance from uniform after ``riffles`` GSR riffles of an n-card deck."""
    _check_deck(n)
    if riffles < 0:
        raise ValueError("riffles must be >= 0")
    return float(_gsr_distances(n, 2 ** riffles)[0])


def riffle_distance_exact(n: int, riffles: int) -> Fraction:
    _check_deck(n)
    return _gsr_distances(n, 2 ** riffles)[0]


def riffles_needed(n: int, threshold: float = DEFAULT_THRESHOLD) -> int | None:
    """Fewest GSR riffles bringing an n-card deck within ``threshold`` TV distance of uniform.

    None when more than MAX_RIFFLES_SEARCHED would be needed (only for absurdly small thresholds).
    """
    _check_deck(n)
    _check_threshold(threshold)
    for k in range(MAX_RIFFLES_SEARCHED + 1):
        if riffle_distance(n, k) <= threshold:
            return k
    return None


def _check_deck(n: int) -> None:
    if not 0 <= n <= MAX_DECK_SIZE * 4:
        raise ValueError(f"deck size {n} out of range")


def _check_threshold(threshold: float) -> None:
    if not 1e-12 <= threshold < 1:
        raise ValueError("threshold must be in [1e-12, 1)")


# --- procedures ---------------------------------------------------------------------------------------

def _credit(step: ShuffleStep) -> Fraction:
    if step.method is ShuffleMethod.RIFFLE:
        return Fraction(step.times)
    if step.method is ShuffleMethod.MASH:
        return step.times * MASH_CREDIT
    return Fraction(0)


def _combine(n: int, blocks: Sequence[int]) -> tuple[float, bool]:
    """Distance after riffle blocks separated by other shuffles: exact for one block, else a bound.

    A block longer than MAX_EXACT_RIFFLES is credited with MAX_EXACT_RIFFLES (distance only falls with more
    riffles, so this is still an upper bound, below 1e-40 for n <= 250) to keep the big integers small.
    The bound for several blocks is formed in floats: exact block values rounded once each."""
    live = [min(b, MAX_EXACT_RIFFLES) for b in blocks if b > 0]
    capped = any(b > MAX_EXACT_RIFFLES for b in blocks)
    if not live:
        return float(_gsr_distances(n, 1)[0]), True          # no randomness: 1 - 1/n!
    if len(live) == 1:
        return float(_gsr_distances(n, 2 ** live[0])[0]), not capped
    pairs = [_gsr_distances(n, 2 ** b) for b in live]
    best_tv = min(float(tv) for tv, _ in pairs)
    product = math.prod(float(sep) for _, sep in pairs)
    return min(best_tv, product), False


def procedure_distances(n: int, procedure: Sequence[ShuffleStep]) -> tuple[StepDistance, ...]:
    """The distance from uniform after each step of a procedure that starts from a known deck order."""
    _check_deck(n)
    closed: list[int] = []
    current = Fraction(0)
    broken = False          # a non-riffle step followed randomness: the next riffle starts a new block
    out = []
    for step in procedure:
        credit = _credit(step)
        if credit:
            if broken and current:
                closed.append(math.floor(current))
                current = Fraction(0)
            broken = False
            current += credit
        elif step.times and current:
            broken = True   # pile/cut: fixed permutation; overhand: credited as nothing
        distance, exact = _combine(n, [*closed, math.floor(current)])
        out.append(StepDistance(step.method, step.times, math.floor(current), distance, exact))
    return tuple(out)


def procedure_distance(n: int, procedure: Sequence[ShuffleStep]) -> tuple[float, bool]:
    """(distance, exact) after the whole procedure; an empty procedure leaves 1 - 1/n!."""
    steps = procedure_distances(n, procedure)
    if steps:
        return steps[-1].distance, steps[-1].exact
    return float(_gsr_distances(n, 1)[0]), True


def pile_permutation(n: int, piles: int) -> tuple[int, ...]:
    """The fixed rearrangement of a pile shuffle: deal one card at a time into ``piles`` piles from the
    top, then stack pile 1 on pile 2 on ... . Result[i] is the old position of the card now at i."""
    if piles < 1:
        raise ValueError("piles must be >= 1")
    stacks: list[list[int]] = [[] for _ in range(piles)]
    for position in range(n):
        stacks[position % piles].insert(0, position)   # each dealt card lands on top of its pile
    return tuple(card for stack in stacks for card in stack)


# --- observed pattern ---------------------------------------------------------------------------------

PATTERN_STATISTIC = ("adjacent same-type pairs in the observed prefix (LL or SS); fewer means more evenly "
                     "spread; p = P(count <= observed) for a uniformly shuffled deck")


def same_type_pairs(pattern: str) -> int:
    return sum(1 for x, y in zip(pattern, pattern[1:]) if x == y)


def _sequences_with_runs(ones: int, zeros: int, runs: int) -> int:
    """Binary sequences with the given numbers of ones and zeros and exactly ``runs`` maximal runs."""
    if ones == 0 or zeros == 0:
        return 1 if runs == (1 if ones + zeros else 0) else 0
    half, odd = divmod(runs, 2)
    if not odd:
        return 2 * math.comb(ones - 1, half - 1) * math.comb(zeros - 1, half - 1) if half else 0
    return (math.comb(ones - 1, half) * math.comb(zeros - 1, half - 1) if half else 0) + \
        (math.comb(ones - 1, half - 1) * math.comb(zeros - 1, half) if half else 0)


def pattern_p_value_exact(deck_size: int, lands: int, pattern: str) -> Fraction:
    """P(same-type pairs in the top len(pattern) cards <= observed) for a uniform deck, exactly.

    A prefix with l lands has probability C(N-m, L-l) / C(N, L); prefixes are counted by their number of
    runs (m - runs = same-type pairs)."""
    m = len(pattern)
    limit = same_type_pairs(pattern)
    favourable = 0
    for seen in range(max(0, m - (deck_size - lands)), min(m, lands) + 1):   # lands among the top m
        ways = math.comb(deck_size - m, lands - seen)
        favourable += ways * sum(_sequences_with_runs(seen, m - seen, runs) for runs in range(m - limit, m + 1))
    return Fraction(favourable, math.comb(deck_size, lands))


def estimate_pattern_p_value(deck_size: int, lands: int, pattern: str, *, max_samples: int, seed: int,
                             ) -> tuple[float, float, tuple[float, float], int]:
    """Monte Carlo estimate of the same p-value: (estimate, standard error, Wilson 95% interval, samples).

    Draws deck prefixes in batches of MC_BATCH until MC_TARGET_HITS hits (relative standard error about 5%)
    or ``max_samples`` samples; the cap is the budget and is reported through the sample count."""
    import numpy as np  # the one non-stdlib import of the engines; see the module docstring

    if max_samples < 1:
        raise ValueError("max_samples must be >= 1")
    rng = np.random.default_rng(seed)
    is_land_seen = np.frombuffer(pattern.encode(), dtype=np.uint8) == ord("L")
    limit = same_type_pairs(pattern)
    hits = samples = 0
    while samples < max_samples and hits < MC_TARGET_HITS:
        size = min(MC_BATCH, max_samples - samples)
        lands_left = np.full(size, lands, dtype=np.int64)
        same = np.zeros(size, dtype=np.int64)
        previous = None
        for i in range(len(is_land_seen)):
            # Drawing without replacement: the next card is a land with probability lands_left / cards_left.
            land = rng.random(size) * (deck_size - i) < lands_left
            lands_left -= land
            if previous is not None:
                same += land == previous
            previous = land
        hits += int(np.count_nonzero(same <= limit))
        samples += size
    p = hits / samples
    se = math.sqrt(p * (1 - p) / samples)
    z = 1.959963984540054
    centre = (p + z * z / (2 * samples)) / (1 + z * z / samples)
    half = z * math.sqrt(p * (1 - p) / samples + z * z / (4 * samples * samples)) / (1 + z * z / samples)
    return p, se, (max(0.0, centre - half), min(1.0, centre + half)), samples


def default_seed(deck_size: int, observed: ObservedPattern) -> int:
    return zlib.crc32(f"{deck_size}:{observed.lands}:{observed.pattern}".encode())


def assess_pattern(deck_size: int, observed: ObservedPattern, *, max_samples: int, seed: int) -> PatternTest:
    exact = pattern_p_value_exact(deck_size, observed.lands, observed.pattern)
    p, se, interval, samples = estimate_pattern_p_value(
        deck_size, observed.lands, observed.pattern, max_samples=max_samples, seed=seed)
    return PatternTest(PATTERN_STATISTIC, same_type_pairs(observed.pattern), float(exact), p, se, interval,
                       samples, seed)




# --- the request --------------------------------------------------------------------------------------

def _integer(value: Any, name: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise RequestError(name, f"must be a whole number from {low} to {high}")
    if not low <= value <= high:
        raise RequestError(name, f"must be from {low} to {high}, got {value}")
    return value


def _step(data: Any, name: str, deck_size: int) -> ShuffleStep:
    if not isinstance(data, Mapping):
        raise RequestError(name, "must be an object with 'method' and 'times'")
    raw = data.get("method")
    try:
        method = ShuffleMethod(raw)
    except ValueError:
        known = ", ".join(m.value for m in ShuffleMethod)
        raise RequestError(f"{name}.method", f"unknown method {raw!r}; expected one of {known}") from None
    times = _integer(data.get("times", 1), f"{name}.times", 0, MAX_TIMES)
    piles = data.get("piles")
    if piles is not None:
        if method is not ShuffleMethod.PILE:
            raise RequestError(f"{name}.piles", "only a pile shuffle has piles")
        piles = _integer(piles, f"{name}.piles", 2, max(2, deck_size))
    return ShuffleStep(method, times, piles)


def _observed(data: Any, deck_size: int) -> ObservedPattern:
    if not isinstance(data, Mapping):
        raise RequestError("observed", "must be an object with 'pattern' and 'lands'")
    raw = data.get("pattern")
    if not isinstance(raw, str):
        raise RequestError("observed.pattern", "must be a string of L (land) and S (spell)")
    pattern = "".join(raw.split()).upper()
    if not pattern or set(pattern) - {"L", "S"}:
        raise RequestError("observed.pattern", "must be a non-empty string of only L (land) and S (spell)")
    if len(pattern) > deck_size:
        raise RequestError("observed.pattern", f"has {len(pattern)} cards but the deck has {deck_size}")
    lands = _integer(data.get("lands"), "observed.lands", 0, deck_size)
    seen_lands = pattern.count("L")
    if seen_lands > lands:
        raise RequestError("observed.pattern", f"shows {seen_lands} lands but the deck has only {lands}")
    if len(pattern) - seen_lands > deck_size - lands:
        raise RequestError(
            "observed.pattern", f"shows {len(pattern) - seen_lands} spells but the deck has only {deck_size - lands}")
    return ObservedPattern(pattern, lands)


def validate_procedure(raw_steps: Any, deck_size: int, name: str = "procedure") -> tuple[ShuffleStep, ...]:
    """Check a list of procedure steps; errors name the step, e.g. "procedure[1].method"."""
    if not isinstance(raw_steps, Sequence) or isinstance(raw_steps, str | bytes):
        raise RequestError(name, "must be a list of steps")
    if len(raw_steps) > MAX_STEPS:
        raise RequestError(name, f"has {len(raw_steps)} steps; at most {MAX_STEPS}")
    return tuple(_step(item, f"{name}[{i}]", deck_size) for i, item in enumerate(raw_steps))


def validate_shuffle_request(data: Mapping[str, Any]) -> ShuffleRequest:
    """Check a shuffle-analysis payload (API.md) and build the request; raises RequestError naming the
    field ("deck_size", "procedure[2].times", "observed.pattern", ...). Unknown keys are ignored."""
    if not isinstance(data, Mapping):
        raise RequestError("body", "must be a JSON object")
    deck_size = _integer(data.get("deck_size"), "deck_size", 1, MAX_DECK_SIZE)
    steps = validate_procedure(data.get("procedure", []), deck_size)
    observed = None if data.get("observed") is None else _observed(data["observed"], deck_size)
    seed = data.get("seed")
    if seed is not None:
        seed = _integer(seed, "seed", 0, 2**63 - 1)
    return ShuffleRequest(deck_size, steps, observed, seed)


# --- the analysis -------------------------------------------------------------------------------------

def model_notes(procedure: Sequence[ShuffleStep], exact: bool) -> tuple[str, ...]:
    methods = {step.method for step in procedure if step.times}
    notes = ["riffle: Gilbert-Shannon-Reeds model, exact distance (Bayer & Diaconis 1992, Ann. Appl. Probab. 2)"]
    if ShuffleMethod.MASH in methods:
        notes.append("mash: modelled as a GSR riffle credited at half (two mashes = one riffle, rounded down); "
                     "a conservative convention of this engine, not a published result")
    if ShuffleMethod.OVERHAND in methods:
        notes.append("overhand: credited with nothing; randomizing takes order n^2 log n overhand shuffles "
                     "(Pemantle 1989, J. Theoret. Probab. 2; Jonasson 2006, Ann. Appl. Probab. 16)")
    if methods & {ShuffleMethod.PILE, ShuffleMethod.CUT}:
        notes.append("pile/cut: a fixed rearrangement; it adds no randomness and leaves the distance unchanged")
    if not exact:
        notes.append("riffles separated by other steps (or more than MAX_EXACT_RIFFLES in a row): the distance "
                     "is an upper bound, min(best block TV, product of block separation distances) "
                     "(Aldous & Diaconis 1986, Amer. Math. Monthly 93)")
    return tuple(notes)


def _advice(n: int, needed: int | None, sufficient: bool, exact: bool, procedure: Sequence[ShuffleStep]) -> str:
    if n <= 1:
        return "A deck of one card is always in random order; shuffling it is still a shuffle for game purposes."
    needed_text = "many" if needed is None else str(needed)
    how = (f"Finish with at least {needed_text} riffle shuffles in a row (mashes count as half a riffle). "
           "Pile shuffling adds no randomness and is allowed only once at the start of a game, to count the deck; "
           "a few overhand shuffles add almost nothing. Do not look at card faces while shuffling: a card seen "
           "means the deck must be randomized again. Then present the deck to the opponent, who may shuffle or "
           "cut it further (at Competitive and Professional REL the opponent must shuffle it).")
    piles_only = all(s.method in (ShuffleMethod.PILE, ShuffleMethod.CUT) or not s.times for s in procedure)
    if sufficient:
        return "This procedure randomizes the deck well enough. " + how
    if procedure and piles_only:
        return "Pile shuffling alone does not randomize a deck. " + how
    if not exact:
        return "The riffles are split by other steps, so they cannot be credited as one run. " + how
    return "This procedure leaves the deck measurably ordered. " + how


def analyse_shuffle(request: ShuffleRequest, *, max_samples: int, threshold: float) -> ShuffleOutcome:
    """Distance from uniform after ``request.procedure``, the riffles needed for ``threshold`` (a TV
    distance in (0, 1)), and, with an observed pattern, its p-value under a uniform shuffle.

    ``pattern_p_value`` is the exact combinatorial value; the Monte Carlo estimate (at most ``max_samples``
    samples, seeded, with its standard error) is reported beside it in ``pattern`` as an independent check.
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
        if pattern.p_value_exact <= PATTERN_ALPHA:
            verdict = Verdict.SUSPICIOUS_PATTERN
            citations.append(CITE_CHEATING)
    advice = _advice(n, needed, sufficient, exact, request.procedure)
    if verdict is Verdict.SUSPICIOUS_PATTERN:
        advice = ("The cards seen are spread more evenly than a shuffled deck would show in "
                  f"{PATTERN_ALPHA:.0%} of cases. That is not proof of anything; a judge should find out how the "
                  "deck was shuffled, and investigate whether it was stacked on purpose. " + advice)
    return ShuffleOutcome(
        distance_from_random=distance, distance_is_exact=exact, riffles_needed=needed, sufficient=sufficient,
        pattern_p_value=None if pattern is None else pattern.p_value_exact, verdict=verdict, advice=advice,
        citations=tuple(dict.fromkeys(citations)), threshold=threshold, steps=steps, pattern=pattern,
        model_notes=model_notes(request.procedure, exact))
