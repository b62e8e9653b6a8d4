"""Benchmark: time to decode and parse the 2025 Comprehensive Rules (target: under 1 s).

Run from the repo root: .venv/bin/python bench/parse_bench.py [--runs N] [PATH]
The CR is read from JUDGEAPP_RULES_DIR (default ../shared/rules relative to the repo).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO_ROOT))

from rulesref.parsing.common import decode_document
from rulesref.parsing.cr import parse_cr

RULES_DIR = Path(os.environ.get("JUDGEAPP_RULES_DIR", REPO_ROOT.parent / "shared" / "rules"))
DEFAULT_CR = RULES_DIR / "cr" / "MagicCompRules-20250207.txt"
TARGET_SECONDS = 1.0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("path", nargs="?", type=Path, default=DEFAULT_CR)
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    raw = args.path.read_bytes()
    timings = []
    for _ in range(args.runs):
        start = time.perf_counter()
        doc = parse_cr(decode_document(raw, args.path.name), args.path.name)
        timings.append(time.perf_counter() - start)
    median = statistics.median(timings)
    print(
        f"{args.path.name}: {len(raw) / 1e6:.2f} MB, {doc.line_count} lines, "
        f"{len(doc.counted_rules)} rules, {doc.example_count} examples, {len(doc.glossary)} "
        "glossary entries"
    )
    print(
        f"parse_cr median of {args.runs} runs: {median * 1000:.0f} ms "
        f"(min {min(timings) * 1000:.0f} ms, max {max(timings) * 1000:.0f} ms; target < "
        f"{TARGET_SECONDS:.0f} s)"
    )
    return 0 if median < TARGET_SECONDS else 1


if __name__ == "__main__":
    sys.exit(main())
