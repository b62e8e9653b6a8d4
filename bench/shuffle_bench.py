"""Timings of the shuffle analysis engine: exact GSR distances (52 and 60 cards, 1..20 riffles; 250
cards), and the pattern p-value (exact and Monte Carlo) for a 60-card deck with a 20-card
observed pattern.

Run from the repository root: .venv/bin/python bench/shuffle_bench.py
Each timing starts from cold caches; budgets: 60 cards 1..20 riffles < 50 ms, 250 cards < 1 s.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engines import shuffles  # noqa: E402  (after the path set-up above)


def cold() -> None:
    shuffles._gsr_distances.cache_clear()
    shuffles.eulerian_row.cache_clear()


def timed(label: str, run) -> object:
    start = time.perf_counter()
    result = run()
    print(f"{label:<58} {1000 * (time.perf_counter() - start):9.2f} ms")
    return result


def main() -> None:
    for n in (52, 60):
        cold()
        distances = timed(
            f"{n} cards, riffles 1..20 (exact TV)",
            lambda n=n: [shuffles.riffle_distance(n, k) for k in range(1, 21)],
        )
        print("    " + " ".join(f"{d:.3f}" for d in distances))
    cold()
    timed(
        "250 cards, riffles 1..20 (exact TV)",
        lambda: [shuffles.riffle_distance(250, k) for k in range(1, 21)],
    )
    cold()
    needed = timed(
        "250 cards, riffles_needed(threshold=0.25)", lambda: shuffles.riffles_needed(250, 0.25)
    )
    print(f"    riffles needed: {needed}")

    pattern = "LSSLSSLSSLSSLSSLSSLS"
    exact = timed(
        "60 cards / 24 lands, 20-card pattern, exact p-value",
        lambda: shuffles.pattern_p_value_exact(60, 24, pattern),
    )
    p, se, interval, samples = timed(
        f"same, Monte Carlo (max_samples={shuffles.DEFAULT_MAX_SAMPLES}, incl. numpy import)",
        lambda: shuffles.estimate_pattern_p_value(
            60, 24, pattern, max_samples=shuffles.DEFAULT_MAX_SAMPLES, seed=1
        ),
    )
    print(
        f"    exact {float(exact):.5f}; Monte Carlo {p:.5f} +/- {se:.5f} (95% "
        f"{interval[0]:.5f}..{interval[1]:.5f}), {samples} samples"
    )
    rare = "LS" * 10
    p, se, interval, samples = timed(
        f"60 cards, rare pattern {rare}, Monte Carlo to the cap",
        lambda: shuffles.estimate_pattern_p_value(
            60, 24, rare, max_samples=shuffles.DEFAULT_MAX_SAMPLES, seed=1
        ),
    )
    print(
        f"    exact {float(shuffles.pattern_p_value_exact(60, 24, rare)):.2e}; Monte Carlo {p:.2e} "
        f"+/- {se:.1e} (95% {interval[0]:.1e}..{interval[1]:.1e}), {samples} samples"
    )
    for label, seen in (("mana-woven top 21 (LSS x7)", "LSS" * 7), ("ten lands on top", "L" * 10)):
        finding = timed(
            f"60 cards / 24 lands, {label}: exact test in both directions",
            lambda seen=seen: shuffles.pattern_finding(60, 24, seen),
        )
        one_sided = shuffles.one_sided_p_values(60, 24, seen)
        print(
            (
                f"    p {float(finding[0]):.2e} "
                f"({finding[1].value if finding[1] else 'neither'}); one-sided: "
            )
            + ", ".join(f"{k} {float(v):.2e}" for k, v in one_sided.items())
            + f"; this exact sequence {float(shuffles.pattern_probability(60, 24, seen)):.2e}"
        )
        estimates = timed(
            "  the three one-sided p-values by Monte Carlo to the cap",
            lambda seen=seen: shuffles.estimate_run_p_values(
                60, 24, seen, max_samples=shuffles.DEFAULT_MAX_SAMPLES, seed=1
            ),
        )
        print(
            "    "
            + ", ".join(
                f"{k} {e[0]:.2e} +/- {e[1]:.1e} ({e[3]} samples)" for k, e in estimates.items()
            )
        )
    request = shuffles.validate_shuffle_request(
        {
            "deck_size": 60,
            "procedure": [{"method": "riffle", "times": 7}, {"method": "pile", "piles": 7}],
            "observed": {"pattern": pattern, "lands": 24},
        }
    )
    cold()
    timed(
        "analyse_shuffle, API example, cold caches",
        lambda: shuffles.analyse_shuffle(
            request, max_samples=shuffles.DEFAULT_MAX_SAMPLES, threshold=shuffles.DEFAULT_THRESHOLD
        ),
    )


if __name__ == "__main__":
    main()
