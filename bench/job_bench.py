"""Job round trip on the real stack: POST ?wait to finished result, through a real Celery worker
on Redis.

    .venv/bin/python bench/job_bench.py        # PostgreSQL at 127.0.0.1:5432, Redis at 127.0.0.1:6379/14
Target (issue 4): p50 under 100 ms from POST to result.
"""  # noqa: E501

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

from bench_env import REPO, RULES, fresh_database, setup_django

BROKER = os.environ.get("BENCH_BROKER_URL", "redis://127.0.0.1:6379/14")
RUNS = int(os.environ.get("BENCH_RUNS", "60"))


def main() -> None:
    url = fresh_database("postgresql", "judgeapp_bench_jobs")
    setup_django(url, BROKER)
    from rest_framework.test import APIClient

    from judgeapp.celery import app
    from rulesref import services

    services.import_paths(
        [RULES / "cr" / "MagicCompRules-20250207.txt", RULES / "mtr"], publish=True
    )
    app.control.purge()
    log = Path("/tmp/judgeapp-bench-worker.log")
    worker = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "judgeapp",
            "worker",
            "-c",
            "2",
            "--loglevel",
            "WARNING",
            "--without-gossip",
            "--without-mingle",
            "--without-heartbeat",
        ],
        cwd=REPO,
        env={**os.environ},
        stdout=log.open("wb"),
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    try:
        client = APIClient()
        payloads = {
            "loop-outcome": {
                "players": ["AP", "NAP"],
                "state": {"AP": {"life": 20}, "NAP": {"life": 20}},
                "iteration": [
                    {
                        "player": "AP",
                        "kind": "optional",
                        "text": "ping",
                        "effects": {"NAP": {"life": -1}},
                    }
                ],
                "declared": {"AP": 10**18, "NAP": "accept"},
            },
            "game-outcome": {
                "format": "two_player",
                "players": [{"name": "A", "life": 0}, {"name": "B", "life": 3}],
            },
            "shuffle-analysis": {
                "deck_size": 60,
                "procedure": [{"method": "riffle", "times": 7}],
                "observed": {"pattern": "LSSLSSLSSLSS", "lands": 24},
            },
        }
        time.sleep(3)
        # warm-up: the worker imports the engines, caches citations
        for kind, payload in payloads.items():
            client.post(f"/api/v1/jobs/{kind}?wait=30", payload, format="json")
        print(f"{RUNS} jobs of each kind, POST ?wait=30 to finished result, worker concurrency 2")
        for kind, payload in payloads.items():
            times = []
            for _ in range(RUNS):
                start = time.perf_counter()
                body = client.post(f"/api/v1/jobs/{kind}?wait=30", payload, format="json").json()
                times.append((time.perf_counter() - start) * 1000)
                assert body["status"] == "succeeded", body
            times.sort()
            print(
                f"{kind:18} p50 {statistics.median(times):6.1f} ms   p95 "
                f"{times[int(len(times) * 0.95)]:6.1f} ms   (target p50 < 100 ms)"
            )
    finally:
        os.killpg(worker.pid, 15)
        worker.wait(15)


if __name__ == "__main__":
    main()
