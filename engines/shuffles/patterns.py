"""How unlikely the land/spell pattern seen at the top of a deck is under a uniform shuffle, in
both directions.

Three one-sided tests, each exact (counting sequences by their number of lands; a prefix with l
lands of m cards has probability C(N-m, L-l) / C(N, L) for a deck of N cards with L lands):

- too even (mana weaving): P(no run of lands longer than the longest seen and no run of spells
  longer than the longest seen). "LSS" seven times on a 60-card, 24-land deck: about 5.2e-4.
- lands clumped: P(a run of lands at least as long as the longest seen). Ten lands on top:
  about 2.6e-5.
- spells clumped: the same for spells.

The p-value reported is Bonferroni's over the three, min(1, 3 x smallest), so that testing both
directions does not make a shuffled deck look suspicious more often than PATTERN_ALPHA. The
probability of exactly the sequence seen (about 1.4e-6 for the woven 21 cards) is reported beside
it: it is small for every long sequence, so it is information, not a test. The classic runs test
(fewer same-kind neighbours than seen) is kept as ``p_value_runs``. A seeded Monte Carlo estimate of
the deciding p-value, with its standard error, is an independent check.
"""

from __future__ import annotations

import math
import zlib
from fractions import Fraction

from engines.shuffles.records import (
    MC_BATCH,
    MC_TARGET_HITS,
    PATTERN_ALPHA,
    ObservedPattern,
    PatternDirection,
    PatternTest,
)

PATTERN_STATISTIC = (
    "adjacent same-type pairs in the observed prefix (LL or SS); fewer means more evenly "
    "spread; p = P(count <= observed) for a uniformly shuffled deck"
)


def same_type_pairs(pattern: str) -> int:
    return sum(1 for x, y in zip(pattern, pattern[1:]) if x == y)


def _sequences_with_runs(ones: int, zeros: int, runs: int) -> int:
    """Binary sequences with the given numbers of ones and zeros and exactly ``runs``
    maximal runs."""
    if ones == 0 or zeros == 0:
        return 1 if runs == (1 if ones + zeros else 0) else 0
    half, odd = divmod(runs, 2)
    if not odd:
        return 2 * math.comb(ones - 1, half - 1) * math.comb(zeros - 1, half - 1) if half else 0
    return (math.comb(ones - 1, half) * math.comb(zeros - 1, half - 1) if half else 0) + (
        math.comb(ones - 1, half - 1) * math.comb(zeros - 1, half) if half else 0
    )


def pattern_p_value_exact(deck_size: int, lands: int, pattern: str) -> Fraction:
    """P(same-type pairs in the top len(pattern) cards <= observed) for a uniform deck, exactly.

    A prefix with l lands has probability C(N-m, L-l) / C(N, L); prefixes are counted by their
    number of runs (m - runs = same-type pairs)."""
    m = len(pattern)
    limit = same_type_pairs(pattern)
    favourable = 0
    for seen in range(max(0, m - (deck_size - lands)), min(m, lands) + 1):  # lands among the top m
        ways = math.comb(deck_size - m, lands - seen)
        favourable += ways * sum(
            _sequences_with_runs(seen, m - seen, runs) for runs in range(m - limit, m + 1)
        )
    return Fraction(favourable, math.comb(deck_size, lands))


def estimate_pattern_p_value(
    deck_size: int,
    lands: int,
    pattern: str,
    *,
    max_samples: int,
    seed: int,
) -> tuple[float, float, tuple[float, float], int]:
    """Monte Carlo estimate of the same p-value: (estimate, standard error, Wilson 95%
    interval, samples).

    Draws deck prefixes in batches of MC_BATCH until MC_TARGET_HITS hits (relative standard error
    about 5%) or ``max_samples`` samples; the cap is the budget and is reported through the
    sample count."""
    import numpy as np  # numpy: for sampling only; see the package docstring

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
            # Drawing without replacement: the next card is a land with probability lands_left
            # / cards_left.
            land = rng.random(size) * (deck_size - i) < lands_left
            lands_left -= land
            if previous is not None:
                same += land == previous
            previous = land
        hits += int(np.count_nonzero(same <= limit))
        samples += size
    return _with_error(hits, samples)


def default_seed(deck_size: int, observed: ObservedPattern) -> int:
    return zlib.crc32(f"{deck_size}:{observed.lands}:{observed.pattern}".encode())


# --- runs of one kind -----------------------------------------------------------------------------


def longest_run(pattern: str, kind: str) -> int:
    best = current = 0
    for card in pattern:
        current = current + 1 if card == kind else 0
        best = max(best, current)
    return best


def sequences_with_runs_at_most(m: int, max_lands: int, max_spells: int) -> dict[int, int]:
    """{lands l: L/S sequences of length m with l lands, no land run over ``max_lands``, no spell
    run over ``max_spells``}."""
    if m == 0:
        return {0: 1}
    # state: (lands so far, last kind is land, length of the current run) -> number of sequences
    states: dict[tuple[int, bool, int], int] = {}
    if max_lands >= 1:
        states[(1, True, 1)] = 1
    if max_spells >= 1:
        states[(0, False, 1)] = 1
    for _ in range(m - 1):
        following: dict[tuple[int, bool, int], int] = {}
        for (lands, land, run), ways in states.items():
            same_cap = max_lands if land else max_spells
            if run < same_cap:
                key = (lands + land, land, run + 1)
                following[key] = following.get(key, 0) + ways
            if (max_spells if land else max_lands) >= 1:
                key = (lands + (not land), not land, 1)
                following[key] = following.get(key, 0) + ways
        states = following
    out: dict[int, int] = {}
    for (lands, _, _), ways in states.items():
        out[lands] = out.get(lands, 0) + ways
    return out


def _probability_of(counts: dict[int, int], deck_size: int, lands: int, m: int) -> Fraction:
    favourable = sum(
        ways * math.comb(deck_size - m, lands - seen)
        for seen, ways in counts.items()
        if 0 <= lands - seen <= deck_size - m
    )
    return Fraction(favourable, math.comb(deck_size, lands))


def pattern_probability(deck_size: int, lands: int, pattern: str) -> Fraction:
    """Probability that a uniformly shuffled deck shows exactly ``pattern`` on top: C(N-m, L-l) /
    C(N, L)."""
    seen = pattern.count("L")
    if not 0 <= lands - seen <= deck_size - len(pattern):
        return Fraction(0)
    return Fraction(math.comb(deck_size - len(pattern), lands - seen), math.comb(deck_size, lands))


def too_even_p_value(deck_size: int, lands: int, pattern: str) -> Fraction:
    """P(no land run longer than the longest seen and no spell run longer than the longest
    seen), exactly.

    1 when the pattern shows only one kind: cards all of one kind are a clump, never
    evenly spread."""
    m = len(pattern)
    if "L" not in pattern or "S" not in pattern:
        return Fraction(1)
    counts = sequences_with_runs_at_most(m, longest_run(pattern, "L"), longest_run(pattern, "S"))
    return _probability_of(counts, deck_size, lands, m)


def clumped_p_value(deck_size: int, lands: int, pattern: str, kind: str) -> Fraction:
    """P(a run of ``kind`` ("L" or "S") at least as long as the longest seen), exactly; 1 when none
    is seen."""
    m, run = len(pattern), longest_run(pattern, kind)
    if run == 0:
        return Fraction(1)
    shorter = sequences_with_runs_at_most(
        m, run - 1 if kind == "L" else m, run - 1 if kind == "S" else m
    )
    return 1 - _probability_of(shorter, deck_size, lands, m)


def estimate_run_p_values(
    deck_size: int,
    lands: int,
    pattern: str,
    *,
    max_samples: int,
    seed: int,
) -> dict[str, tuple[float, float, tuple[float, float], int]]:
    """Monte Carlo estimates of the three one-sided p-values: {name: (estimate, standard error,
    Wilson 95%, samples)}.

    Names: "too_even", "lands_clumped", "spells_clumped". Samples are drawn in batches of MC_BATCH
    until the rarest of them has MC_TARGET_HITS hits or ``max_samples`` is reached (the budget,
    reported as the count)."""
    import numpy as np  # numpy: for sampling only; see the package docstring

    if max_samples < 1:
        raise ValueError("max_samples must be >= 1")
    rng = np.random.default_rng(seed)
    m, max_l, max_s = len(pattern), longest_run(pattern, "L"), longest_run(pattern, "S")
    hits = {"too_even": 0, "lands_clumped": 0, "spells_clumped": 0}
    samples = 0
    while samples < max_samples and min(hits.values()) < MC_TARGET_HITS:
        size = min(MC_BATCH, max_samples - samples)
        lands_left = np.full(size, lands, dtype=np.int64)
        run_l = np.zeros(size, dtype=np.int64)
        run_s = np.zeros(size, dtype=np.int64)
        best_l = np.zeros(size, dtype=np.int64)
        best_s = np.zeros(size, dtype=np.int64)
        for i in range(m):
            land = rng.random(size) * (deck_size - i) < lands_left  # drawing without replacement
            lands_left -= land
            run_l = np.where(land, run_l + 1, 0)
            run_s = np.where(land, 0, run_s + 1)
            np.maximum(best_l, run_l, out=best_l)
            np.maximum(best_s, run_s, out=best_s)
        hits["too_even"] += (
            size
            if not (max_l and max_s)
            else int(np.count_nonzero((best_l <= max_l) & (best_s <= max_s)))
        )
        hits["lands_clumped"] += size if max_l == 0 else int(np.count_nonzero(best_l >= max_l))
        hits["spells_clumped"] += size if max_s == 0 else int(np.count_nonzero(best_s >= max_s))
        samples += size
    return {name: _with_error(count, samples) for name, count in hits.items()}


def _with_error(hits: int, samples: int) -> tuple[float, float, tuple[float, float], int]:
    p = hits / samples
    se = math.sqrt(p * (1 - p) / samples)
    z = 1.959963984540054
    centre = (p + z * z / (2 * samples)) / (1 + z * z / samples)
    half = (
        z
        * math.sqrt(p * (1 - p) / samples + z * z / (4 * samples * samples))
        / (1 + z * z / samples)
    )
    return p, se, (max(0.0, centre - half), min(1.0, centre + half)), samples


STATISTIC_WORDS = {
    "too_even": (
        "no run of lands or of spells longer than seen (lands spread evenly, as mana weaving "
        "leaves them)"
    ),
    "lands_clumped": "a run of lands at least as long as the longest seen",
    "spells_clumped": "a run of spells at least as long as the longest seen",
}


def one_sided_p_values(deck_size: int, lands: int, pattern: str) -> dict[str, Fraction]:
    return {
        "too_even": too_even_p_value(deck_size, lands, pattern),
        "lands_clumped": clumped_p_value(deck_size, lands, pattern, "L"),
        "spells_clumped": clumped_p_value(deck_size, lands, pattern, "S"),
    }


def pattern_finding(
    deck_size: int, lands: int, pattern: str
) -> tuple[Fraction, PatternDirection | None, str]:
    """(p-value over both directions, the direction found or None, the deciding one-sided
    test), exactly."""
    one_sided = one_sided_p_values(deck_size, lands, pattern)
    deciding = min(reversed(one_sided), key=lambda name: one_sided[name])  # a tie goes to a clump
    combined = min(Fraction(1), 3 * one_sided[deciding])
    direction = None
    if combined <= PATTERN_ALPHA:
        direction = (
            PatternDirection.TOO_EVEN if deciding == "too_even" else PatternDirection.TOO_CLUMPED
        )
    return combined, direction, deciding


def assess_pattern(
    deck_size: int, observed: ObservedPattern, *, max_samples: int, seed: int
) -> PatternTest:
    """Test the pattern in both directions; ``direction`` says which was found when p <=
    PATTERN_ALPHA."""
    pattern, lands = observed.pattern, observed.lands
    one_sided = one_sided_p_values(deck_size, lands, pattern)
    combined, direction, deciding = pattern_finding(deck_size, lands, pattern)
    estimates = estimate_run_p_values(deck_size, lands, pattern, max_samples=max_samples, seed=seed)
    p, se, interval, samples = estimates[deciding]
    # Put the estimate on the scale of the reported p-value (three one-sided tests), so the two can
    # be compared.
    p, se, interval = (
        min(1.0, 3 * p),
        3 * se,
        (min(1.0, 3 * interval[0]), min(1.0, 3 * interval[1])),
    )
    max_l, max_s = longest_run(pattern, "L"), longest_run(pattern, "S")
    return PatternTest(
        statistic=STATISTIC_WORDS[deciding]
        + "; p is three times the smallest of the three one-sided p-values "
        "(too even, lands clumped, spells clumped), at most 1",
        observed_value=max_s
        if deciding == "spells_clumped"
        else max_l
        if deciding == "lands_clumped"
        else max(max_l, max_s),
        p_value_exact=float(combined),
        p_value_monte_carlo=p,
        standard_error=se,
        interval_95=interval,
        samples=samples,
        seed=seed,
        direction=direction,
        pattern_probability=float(pattern_probability(deck_size, lands, pattern)),
        p_value_too_even=float(one_sided["too_even"]),
        p_value_lands_clumped=float(one_sided["lands_clumped"]),
        p_value_spells_clumped=float(one_sided["spells_clumped"]),
        p_value_runs=float(pattern_p_value_exact(deck_size, lands, pattern)),
        longest_land_run=max_l,
        longest_spell_run=max_s,
    )
