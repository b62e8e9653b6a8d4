"""Runs every benchmark in turn and prints their figures (`make bench`)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parent
SCRIPTS = [
    ("parse the 2025 CR (target < 1 s)", ["parse_bench.py"]),
    ("import, diff, publish, search on SQLite and PostgreSQL", ["import_bench.py"]),
    ("search quality and latency", ["search_bench.py"]),
    (
        "judge-tuned search model vs the stock one on held-out asked-as questions",
        ["search_model_bench.py"],
    ),
    ("rule lookups vs health over HTTP (SQLite)", ["api_bench.py"]),
    ("diff two full CR versions (target < 2 s)", ["diff_bench.py"]),
    ("loop engine (target < 1 ms)", ["loop_bench.py"]),
    ("shuffle analysis", ["shuffle_bench.py"]),
    ("offline kit: bytes kept, first copy on Fast 3G, on-device search", ["offline_bench.py"]),
    ("job round trip with a real worker on Redis (target p50 < 100 ms)", ["job_bench.py"]),
    (
        "health with 30 ?wait requests pending, gunicorn as docker/ ships it (target < 1 s)",
        ["wait_bench.py"],
    ),
]


def main() -> int:
    failed = []
    for title, args in SCRIPTS:
        print(f"\n=== {title}: bench/{args[0]}", flush=True)
        if not (BENCH / args[0]).exists():
            print("(not present)")
            continue
        if subprocess.run([sys.executable, *args], cwd=BENCH).returncode:
            failed.append(args[0])
    if failed:
        print(f"\nfailed: {', '.join(failed)}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
