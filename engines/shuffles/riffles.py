"""Exact distances from uniform for GSR riffles (Bayer & Diaconis 1992) and for whole procedures
(bounds when split)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction
from functools import lru_cache

from engines.shuffles.records import (
    DEFAULT_THRESHOLD,
    MASH_CREDIT,
    MAX_DECK_SIZE,
    MAX_EXACT_RIFFLES,
    MAX_RIFFLES_SEARCHED,
    ShuffleMethod,
    ShuffleStep,
    StepDistance,
)


@lru_cache(maxsize=64)
def eulerian_row(n: int) -> tuple[int, ...]:
    """A(n, 0..n-1): permutations of n cards with 1..n rising sequences (A(0, 0) = 1
    by convention)."""
    row = [1]
    for m in range(2, n + 1):
        row = [
            (j + 1) * (row[j] if j < len(row) else 0) + (m - j) * (row[j - 1] if j >= 1 else 0)
            for j in range(m)
        ]
    return tuple(row)


def _falling_terms(n: int, a: int) -> list[int]:
    """F(r) = n! * C(a + n - r, n) = (a-r+1)(a-r+2)...(a-r+n) for r = 1..n (0 once r > a)."""
    terms = []
    f = math.prod(range(a, a + n))  # r = 1: a(a+1)...(a+n-1)
    for r in range(1, n + 1):
        terms.append(f)
        if r >= a:
            f = 0
        elif f:
            f = f * (a - r) // (a - r + n)  # exact: drop the top factor, add a new bottom one
    return terms


@lru_cache(maxsize=4096)
def _gsr_distances(n: int, a: int) -> tuple[Fraction, Fraction]:
    """(TV, separation) distances from uniform of one GSR a-shuffle of n cards, exactly."""
    if n <= 1:
        return Fraction(0), Fraction(0)
    power = a**n
    row = eulerian_row(n)
    # Scaled by a^n * n!: P_r - 1/n! becomes F(r) - a^n; only terms above uniform need summing, as
    # the positive and negative parts cancel (both distributions sum to 1).
    excess = sum(count * (f - power) for count, f in zip(row, _falling_terms(n, a)) if f > power)
    scale = power * math.factorial(n)
    tv = Fraction(excess, scale)
    # Separation: 1 - n! * min_pi P(pi); the least likely permutation has n rising sequences.
    separation = 1 - Fraction(math.prod(range(a - n + 1, a + 1)) if a >= n else 0, power)
    return tv, separation


def riffle_distance(n: int, riffles: int) -> float:
    """Exact total variation distance from uniform after ``riffles`` GSR riffles of an
    n-card deck."""
    _check_deck(n)
    if riffles < 0:
        raise ValueError("riffles must be >= 0")
    return float(_gsr_distances(n, 2**riffles)[0])


def riffle_distance_exact(n: int, riffles: int) -> Fraction:
    _check_deck(n)
    return _gsr_distances(n, 2**riffles)[0]


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


# --- procedures -----------------------------------------------------------------------------------


def riffle_credit(step: ShuffleStep) -> Fraction:
    """What the model credits a step with, in riffle shuffles: a riffle one each, a mash half
    (MASH_CREDIT), an overhand, pile or cut nothing."""
    if step.method is ShuffleMethod.RIFFLE:
        return Fraction(step.times)
    if step.method is ShuffleMethod.MASH:
        return step.times * MASH_CREDIT
    return Fraction(0)


def _combine(n: int, blocks: Sequence[int]) -> tuple[float, bool]:
    """Distance after riffle blocks separated by other shuffles: exact for one block, else a bound.

    A block longer than MAX_EXACT_RIFFLES is credited with MAX_EXACT_RIFFLES (distance only falls
    with more riffles, so this is still an upper bound, below 1e-40 for n <= 250) to keep the big
    integers small. The bound for several blocks is formed in floats: exact block values rounded
    once each."""
    live = [min(b, MAX_EXACT_RIFFLES) for b in blocks if b > 0]
    capped = any(b > MAX_EXACT_RIFFLES for b in blocks)
    if not live:
        return float(_gsr_distances(n, 1)[0]), True  # no randomness: 1 - 1/n!
    if len(live) == 1:
        return float(_gsr_distances(n, 2 ** live[0])[0]), not capped
    pairs = [_gsr_distances(n, 2**b) for b in live]
    best_tv = min(float(tv) for tv, _ in pairs)
    product = math.prod(float(sep) for _, sep in pairs)
    return min(best_tv, product), False


def procedure_distances(n: int, procedure: Sequence[ShuffleStep]) -> tuple[StepDistance, ...]:
    """The distance from uniform after each step of a procedure that starts from a known
    deck order."""
    _check_deck(n)
    closed: list[int] = []
    current = Fraction(0)
    broken = False  # a non-riffle step followed randomness: the next riffle starts a new block
    out = []
    for step in procedure:
        credit = riffle_credit(step)
        if credit:
            if broken and current:
                closed.append(math.floor(current))
                current = Fraction(0)
            broken = False
            current += credit
        elif step.times and current:
            broken = True  # pile/cut: fixed permutation; overhand: credited as nothing
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
    """The fixed rearrangement of a pile shuffle: deal one card at a time into ``piles`` piles from
    the top, then stack pile 1 on pile 2 on ... . Result[i] is the old position of the card now
    at i."""
    if piles < 1:
        raise ValueError("piles must be >= 1")
    stacks: list[list[int]] = [[] for _ in range(piles)]
    for position in range(n):
        stacks[position % piles].insert(0, position)  # each dealt card lands on top of its pile
    return tuple(card for stack in stacks for card in stack)
