"""Timings of the loop-outcome engine: one answer (resolve_loop + to_dict) for loops of 10, 10^6 and
10^18 iterations, which must cost the same because linear loops are answered by arithmetic, not
played out.

Run from the repository root: .venv/bin/python bench/loop_bench.py [runs]
Prints median, 99th percentile and max per answer over many runs for each count, for a loop that
ends the game and for one that is stopped by a declared number; target: under 1 ms per answer.
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engines import loops  # noqa: E402  (after the path set-up above)

TARGET_MS = 1.0


def stopped_by_number(count: int) -> dict:
    """Presence of Gond + Intruder Alarm (CR 729.2a example) with a drain added; nobody dies
    before ``count``."""
    big = 10**18
    return {
        "players": ["AP", "NAP", "P3", "P4"],
        "state": {p: {"life": big, "library": 40, "poison": 0} for p in ("AP", "NAP", "P3", "P4")},
        "iteration": [
            {
                "player": "AP",
                "kind": "optional",
                "text": "make a token",
                "effects": {"AP": {"tokens": 1}},
            },
            {
                "player": "NAP",
                "kind": "mandatory",
                "text": "untap all creatures",
                "effects": {"NAP": {"life": -1}},
            },
            {
                "player": "P3",
                "kind": "unless",
                "unless_player": "AP",
                "text": "drain unless AP pays 1",
                "effects": {"P3": {"life": -1}, "AP": {"life": 1}},
            },
        ],
        "breakers": [{"player": "P4", "text": "destroy the enchantment"}],
        "declared": {"AP": count, "NAP": "accept", "P3": "accept", "P4": "accept"},
    }


def ends_the_game(count: int) -> dict:
    """A mandatory loop in which a life total of ``count`` runs out: the game ends during
    iteration ``count``."""
    return {
        "players": ["AP", "NAP"],
        "state": {
            "AP": {"life": 10**18, "library": count},
            "NAP": {"life": count, "library": 10**18},
        },
        "iteration": [
            {
                "player": "AP",
                "kind": "mandatory",
                "text": "AP draws",
                "effects": {"AP": {"library": -1, "cards_drawn": 1}},
            },
            {
                "player": "NAP",
                "kind": "mandatory",
                "text": "NAP loses 1 life",
                "effects": {"NAP": {"life": -1}},
            },
        ],
    }


def measure(data: dict, runs: int) -> tuple[float, float, float, float, dict]:
    """Wall-clock median, p99 and max, and the max of CPU time (which leaves out time the process
    was not scheduled)."""
    times, cpu = [], []
    result: dict = {}
    for _ in range(runs):
        start, start_cpu = time.perf_counter(), time.thread_time()
        result = loops.resolve_loop(loops.validate_loop_request(data), max_steps=10_000).to_dict()
        cpu.append((time.thread_time() - start_cpu) * 1000)
        times.append((time.perf_counter() - start) * 1000)
    times.sort()
    return (
        statistics.median(times),
        times[int(0.99 * (len(times) - 1))],
        times[-1],
        max(cpu),
        result,
    )


def main() -> None:
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 2000
    print(
        f"loop-outcome engine, validate + resolve + to_dict, {runs} runs each (target < "
        f"{TARGET_MS} ms)"
    )
    worst = 0.0
    for label, build in (
        ("stopped by a declared number", stopped_by_number),
        ("ends the game (mandatory)", ends_the_game),
    ):
        for count in (10, 10**6, 10**18):
            median, p99, peak, cpu_peak, result = measure(build(count), runs)
            worst = max(worst, median)
            shown = (
                result["iterations"]
                if result["game_over"] is None
                else f"game over in iteration {result['game_over']['after_iteration']}"
            )
            print(
                f"  {label:<30} count 10^{len(str(count)) - 1:<3} median {median:6.3f} ms  p99 "
                f"{p99:6.3f}  max {peak:6.3f}  cpu max {cpu_peak:6.3f} ms  ({shown})"
            )
    print(f"worst median {worst:.3f} ms: {'within' if worst < TARGET_MS else 'OVER'} target")


if __name__ == "__main__":
    main()
