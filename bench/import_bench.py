"""Import and publish benchmark: the 2025 CR parsed, stored and indexed, on SQLite and
on PostgreSQL.

Each database is new and empty, so every figure includes the whole import:
    .venv/bin/python bench/import_bench.py            # both databases (PostgreSQL at 127.0.0.1:5432)
    .venv/bin/python bench/import_bench.py sqlite
Targets (issues 2 and 3): import under 5 s; publish under 5 s; search p95 under 30 ms on PostgreSQL.
The search figures here are lexical and taken right after the publish, while the embedded default
embeds the rules in a background thread of the same process (a worker does it elsewhere in
production): they show what a judge gets during those minutes. bench/api_bench.py --hybrid measures
the steady hybrid search over HTTP.
"""  # noqa: E501

from __future__ import annotations

import json
import subprocess
import sys

from bench_env import REPO, fresh_database

CHILD = r"""
import json, statistics, sys, time
sys.path.insert(0, "bench")
from bench_env import RULES, setup_django
setup_django(sys.argv[1])
from rulesref import services, changes
from search import service as search_service
from rulesref.models import Version
cr_2022 = RULES / "cr" / "MagicCompRules-20220429.txt"
cr_2025 = RULES / "cr" / "MagicCompRules-20250207.txt"
out = {}
start = time.perf_counter(); services.import_paths([cr_2022], publish=True); out["import_2022_publish"] = time.perf_counter() - start
start = time.perf_counter(); services.import_paths([cr_2025]); out["import_2025"] = time.perf_counter() - start
new = Version.objects.get(document__slug="cr", effective_date="2025-02-07")
start = time.perf_counter(); search_service.search_rules("deck out", doc="cr", version="2025-02-07"); out["search_index"] = time.perf_counter() - start
start = time.perf_counter(); changes.pairing(Version.objects.get(effective_date="2022-04-29"), new); out["diff_2022_2025"] = time.perf_counter() - start
start = time.perf_counter(); services.publish_version(new); out["publish"] = time.perf_counter() - start
queries = ["deck out", "loop of mandatory actions", "we both hit zero", "infinite combo", "summoning sick",
           "forgot to shuffle after fetching", "can I peek at my own library", "legend rule", "trample over a chump blocker",
           "mull to five", "704.5a", "shorcut", "\"mandatory actions\"", "who goes first", "concede"]
search_service.search_rules("warm up", doc="cr")
times = []
for _ in range(20):
    for q in queries:
        t = time.perf_counter(); search_service.search_rules(q, doc="cr"); times.append((time.perf_counter() - t) * 1000)
times.sort()
out["search_p50_ms"] = statistics.median(times); out["search_p95_ms"] = times[int(len(times) * 0.95)]
print(json.dumps(out))
"""  # noqa: E501


def run(vendor: str) -> dict:
    url = fresh_database(vendor, "judgeapp_bench_import")
    done = subprocess.run(
        [sys.executable, "-c", CHILD, url], cwd=REPO, capture_output=True, text=True
    )
    if done.returncode:
        raise SystemExit(done.stderr[-3000:])
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> None:
    vendors = sys.argv[1:] or ["sqlite", "postgresql"]
    print(f"{'':34}" + "".join(f"{v:>12}" for v in vendors))
    results = {v: run(v) for v in vendors}
    rows = [
        ("import 2022 CR + publish (s)", "import_2022_publish"),
        ("import 2025 CR (s)   [< 5 s]", "import_2025"),
        ("build search index (s)", "search_index"),
        ("diff 2022 -> 2025, stored (s) [< 2 s]", "diff_2022_2025"),
        ("publish 2025 (s)   [< 5 s]", "publish"),
        ("search p50 (ms), vectors building", "search_p50_ms"),
        ("search p95 (ms), vectors building", "search_p95_ms"),
    ]
    for label, key in rows:
        print(f"{label:34}" + "".join(f"{results[v][key]:12.3f}" for v in vendors))


if __name__ == "__main__":
    main()
