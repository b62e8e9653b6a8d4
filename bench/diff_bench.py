"""Benchmark: time to diff two full Comprehensive Rules versions (target: under 2 s).

Times the differ alone (documents are parsed once, before timing): the widest gap in the corpus,
2022-04-29 -> 2025-02-07 (nearly three years of changes, Taking Shortcuts 725 -> 729), and a pair
of consecutive versions; the median of several runs each, plus a trace of one rule through all 27
versions with every consecutive pairing computed from scratch.

Run from the repo root: .venv/bin/python bench/diff_bench.py [--runs N]
The CR files are read from JUDGEAPP_RULES_DIR (default ../shared/rules relative to the repo).
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import statistics
import sys
import time
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO_ROOT))

from rulesref import diffing
from rulesref.parsing.common import decode_document
from rulesref.parsing.cr import parse_cr

RULES_DIR = Path(os.environ.get("JUDGEAPP_RULES_DIR", REPO_ROOT.parent / "shared" / "rules"))
TARGET_SECONDS = 2.0


def load(path: Path) -> tuple[dt.date, dict[str, diffing.DiffRule]]:
    doc = parse_cr(decode_document(path.read_bytes(), path.name), path.name)
    return doc.effective_date, diffing.diff_rules_from_document(doc)


def timed(runs: int, old: dict, new: dict) -> tuple[float, diffing.RulesDiff]:
    timings, result = [], None
    for _ in range(runs):
        diffing._match_words.cache_clear()  # each run prepares both versions from scratch
        start = time.perf_counter()
        result = diffing.diff_rules(old, new)
        timings.append(time.perf_counter() - start)
    assert result is not None
    return statistics.median(timings), result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    files = sorted((RULES_DIR / "cr").glob("*.txt"))
    versions = [load(path) for path in files]
    by_date = {date.isoformat(): rules for date, rules in versions}
    slowest = 0.0
    for old_date, new_date in (
        ("2022-04-29", "2025-02-07"),
        ("2022-02-18", "2022-04-29"),
        ("2021-02-15", "2021-04-22"),
    ):
        old, new = by_date[old_date], by_date[new_date]
        median, result = timed(args.runs, old, new)
        slowest = max(slowest, median)
        counts = result.counts
        print(
            f"diff {old_date} -> {new_date}: {len(old)} -> {len(new)} rules, median {median:.3f} s "
            f"over {args.runs} runs (moved {counts['moved']}, changed {counts['changed']}, "
            f"added {counts['added']}, removed {counts['removed']})"
        )
    diffing._match_words.cache_clear()
    start = time.perf_counter()
    steps = diffing.trace_rule(versions, "729.4", dt.date(2025, 2, 7))
    elapsed = time.perf_counter() - start
    print(
        f"trace 729.4 through {len(steps)} versions (26 pairings computed): {elapsed:.2f} s; "
        f"numbers {', '.join(sorted({s.number for s in steps if s.number}))}"
    )
    ok = slowest < TARGET_SECONDS
    print(f"target: every diff under {TARGET_SECONDS:.0f} s -> {'OK' if ok else 'TOO SLOW'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
