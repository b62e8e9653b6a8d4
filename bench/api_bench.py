"""API benchmark: rule lookups vs /api/v1/health on the same gunicorn server, and search latency.

Prints requests per second for both (target: lookups at >= 80% of health), and search p50/p95
through the HTTP API over every distinct question of the evaluation sets, each asked once (so the
hybrid ranking encodes every question: no cache helps). Uses the database the environment names
(DATABASE_URL; default SQLite):
    .venv/bin/python bench/api_bench.py [--hybrid]
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/judgeapp_bench .venv/bin/python bench/api_bench.py --hybrid
The database is created (PostgreSQL), migrated and the 2025 CR imported first if needed; --hybrid
also embeds its rules and asked-as questions first (build_search_vectors: about a minute the first
time; stored vectors are reused). Only loopback traffic.
"""  # noqa: E501

from __future__ import annotations

import http.client
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import time
import tomllib
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "bench"))
from bench_env import collected_static, ensure_database  # noqa: E402 - after the bench folder is on the path

PY = sys.executable
RULES = Path(os.environ.get("JUDGEAPP_RULES_DIR", REPO.parent / "shared" / "rules"))
REQUESTS_PER_CLIENT = int(os.environ.get("BENCH_REQUESTS", "1500"))
CLIENTS = int(os.environ.get("BENCH_CLIENTS", "4"))


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def hammer(args: tuple[int, list[str]]) -> tuple[int, float]:
    port, paths = args
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    start = time.perf_counter()
    for path in paths:
        conn.request("GET", path)
        response = conn.getresponse()
        response.read()
        if response.status != 200:
            raise RuntimeError(f"{path}: {response.status}")
    return len(paths), time.perf_counter() - start


def throughput(port: int, paths: list[str]) -> float:
    with ProcessPoolExecutor(CLIENTS) as pool:
        jobs = [
            (port, [random.choice(paths) for _ in range(REQUESTS_PER_CLIENT)])
            for _ in range(CLIENTS)
        ]
        start = time.perf_counter()
        done = sum(n for n, _ in pool.map(hammer, jobs))
        return done / (time.perf_counter() - start)


def latencies(port: int, paths: list[str]) -> list[float]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    out = []
    for path in paths:
        start = time.perf_counter()
        conn.request("GET", path)
        response = conn.getresponse()
        response.read()
        out.append((time.perf_counter() - start) * 1000)
    return out


def cr_questions() -> list[str]:
    """Every distinct CR question of the evaluation sets (bench/search_questions*.toml)."""
    found: dict[str, None] = {}
    for path in sorted((REPO / "bench").glob("search_questions*.toml")):
        for q in tomllib.loads(path.read_text(encoding="utf-8"))["question"]:
            if q.get("doc", "cr") == "cr":
                found[q["q"]] = None
    return list(found)


def search_ranking(port: int) -> str:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    conn.request("GET", "/api/v1/search?q=warm+up&doc=cr")
    return json.loads(conn.getresponse().read())["ranking"]


def main() -> None:
    hybrid = "--hybrid" in sys.argv[1:]
    env = {
        **os.environ,
        "DJANGO_DEBUG": "0",
        "DJANGO_SECRET_KEY": "bench-only-secret",
        "DJANGO_ALLOWED_HOSTS": "127.0.0.1,localhost",
        "JUDGEAPP_LOG_LEVEL": "ERROR",
        "OPENBLAS_NUM_THREADS": "1",
    }
    ensure_database(os.environ.get("DATABASE_URL", ""))
    env["JUDGEAPP_STATIC_ROOT"] = collected_static(env)
    subprocess.run([PY, "manage.py", "migrate", "-v0"], cwd=REPO, env=env, check=True)
    subprocess.run(
        [
            PY,
            "manage.py",
            "import_rules",
            str(RULES / "cr" / "MagicCompRules-20250207.txt"),
            "--publish",
        ],
        cwd=REPO,
        env=env,
        check=True,
        capture_output=True,
    )
    if hybrid:
        started = time.perf_counter()
        subprocess.run([PY, "manage.py", "build_search_vectors"], cwd=REPO, env=env, check=True)
        print(f"vectors ready in {time.perf_counter() - started:.1f} s")
    port = free_port()
    workers = os.environ.get("BENCH_GUNICORN_WORKERS", "2")
    server = subprocess.Popen(
        [
            PY,
            "-m",
            "gunicorn",
            "judgeapp.wsgi",
            "-b",
            f"127.0.0.1:{port}",
            "-w",
            workers,
            "--log-level",
            "warning",
        ],
        cwd=REPO,
        env=env,
    )
    try:
        for _ in range(100):
            try:
                latencies(port, ["/api/v1/health"])
                break
            except OSError:
                time.sleep(0.1)
        numbers = [
            r["number"]
            for r in json.loads(
                subprocess.run(
                    [
                        PY,
                        "manage.py",
                        "shell",
                        "-c",
                        "import json; from rulesref.models import Rule; "
                        "print(json.dumps(list(Rule.objects.filter(version__is_current=True, "
                        "version__document__slug='cr').exclude(kind='chapter').values('number')[:400])))",
                    ],
                    cwd=REPO,
                    env=env,
                    check=True,
                    capture_output=True,
                    text=True,
                )
                .stdout.strip()
                .splitlines()[-1]
            )
        ]
        rule_paths = [f"/api/v1/rules/cr/{n}" for n in numbers]
        latencies(port, rule_paths * 2)  # warm every worker's caches
        health = throughput(port, ["/api/v1/health"])
        rules = throughput(port, rule_paths)
        print(
            "database: "
            f"{'postgresql' if os.environ.get('DATABASE_URL', '').startswith('postgres') else 'sqlite'}; "  # noqa: E501
            f"gunicorn workers: {workers}; clients: {CLIENTS} x {REQUESTS_PER_CLIENT} requests"  # noqa: E501
        )
        print(f"health       {health:8.0f} req/s")
        print(f"rule lookup  {rules:8.0f} req/s  ({rules / health:.0%} of health; target >= 80%)")
        from urllib.parse import quote

        # Warm each worker's index (built once per process and version set), then ask every question
        # once. With --hybrid, wait until the workers have switched to hybrid (they look for vectors
        # every few seconds).
        rankings: set[str] = set()
        for _ in range(60):
            rankings = {search_ranking(port) for _ in range(8)}
            if not hybrid or rankings == {"hybrid"}:
                break
            time.sleep(0.5)
        questions = cr_questions()
        times = sorted(latencies(port, [f"/api/v1/search?q={quote(q)}&doc=cr" for q in questions]))
        ranking = "/".join(sorted(rankings))
        print(
            f"search over HTTP ({ranking}, {len(times)} distinct questions, each once): p50 "
            f"{statistics.median(times):.1f} ms, p95 {times[int(len(times) * 0.95)]:.1f} ms, max "
            f"{times[-1]:.1f} ms (target p95 < 30 ms)"
        )
    finally:
        server.terminate()
        server.wait(10)


if __name__ == "__main__":
    main()
