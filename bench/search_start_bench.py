"""Search from a cold start: the first search of a new process, and p95 over HTTP for one client.

    DATABASE_URL=sqlite:////tmp/judgeapp-bench.sqlite3 .venv/bin/python bench/search_start_bench.py

Imports the current documents into that database first when it has none (the newest CR, MTR, IPG
and JAR of JUDGEAPP_RULES_DIR). Then:
1. first search in a new process, twice: a fresh Python process sets Django up and times its first
   search with no document chosen (the first run may build and keep the index; the second reads it,
   as every later web process does), and says whether it was hybrid;
2. a gunicorn server (one worker, one thread) started fresh: the time of its first search over
   HTTP, then p50/p95 for one client asking every distinct question of the bench sets once.
Only loopback traffic; the server is stopped at the end.
"""

from __future__ import annotations

import http.client
import json
import os
import socket
import statistics
import subprocess
import sys
import time
import tomllib
from pathlib import Path
from urllib.parse import urlencode

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "bench"))
from bench_env import DEPLOYED_ENV, RULES  # noqa: E402 - after the bench folder is on the path

PY = sys.executable
ENV = {
    **os.environ,
    **DEPLOYED_ENV,
    "JUDGEAPP_SEARCH_VECTORS": "0",
    "PYTHONPATH": str(REPO),
    "OPENBLAS_NUM_THREADS": "1",
}

FIRST = """
import os, time, json
t0 = time.perf_counter()
import django
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "judgeapp.settings")
django.setup()
from search import service
t1 = time.perf_counter()
answer = service.search_answer("opponent forgot his upkeep trigger, what's the fix")
t2 = time.perf_counter()
print(json.dumps({"setup": t1 - t0, "first": t2 - t1, "ranking": answer["ranking"],
                  "top": [r["doc"] + ":" + r["number"] for r in answer["results"][:3]]}))
"""


def ensure_documents() -> None:
    code = (
        "import django, os; os.environ.setdefault('DJANGO_SETTINGS_MODULE', 'judgeapp.settings'); "
        "django.setup();from rulesref.models import Version; "
        "print(Version.objects.filter(is_current=True).count())"
    )
    subprocess.run([PY, "manage.py", "migrate", "--noinput", "-v0"], cwd=REPO, env=ENV, check=True)
    current = int(
        subprocess.run(
            [PY, "-c", code], cwd=REPO, env=ENV, capture_output=True, text=True, check=True
        ).stdout
    )
    if current < 4:
        newest = [sorted((RULES / kind).glob("*.*"))[-1] for kind in ("cr", "mtr", "ipg", "jar")]
        subprocess.run(
            [PY, "manage.py", "import_rules", *map(str, newest), "--publish"],
            cwd=REPO,
            env=ENV,
            check=True,
            stdout=subprocess.DEVNULL,
        )


def questions() -> list[str]:
    found: list[str] = []
    for path in sorted((REPO / "bench").glob("search_questions*.toml")):
        found += [q["q"] for q in tomllib.loads(path.read_text(encoding="utf-8"))["question"]]
    return list(dict.fromkeys(found))


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def get(port: int, path: str) -> tuple[float, dict]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    start = time.perf_counter()
    conn.request("GET", path)
    body = conn.getresponse().read()
    took = time.perf_counter() - start
    conn.close()
    return took, json.loads(body)


def main() -> None:
    ensure_documents()
    for run in ("first process", "next process"):
        out = subprocess.run(
            [PY, "-c", FIRST], cwd=REPO, env=ENV, capture_output=True, text=True, check=True
        ).stdout
        found = json.loads(out.strip().splitlines()[-1])
        print(
            f"{run}: first search {found['first'] * 1000:.0f} ms ({found['ranking']}; Django set "
            "up "
            f"in {found['setup'] * 1000:.0f} ms); top 3 {', '.join(found['top'])}"
        )

    port = free_port()
    server = subprocess.Popen(
        [
            PY,
            "-m",
            "gunicorn",
            "judgeapp.wsgi",
            "-b",
            f"127.0.0.1:{port}",
            "-w",
            "1",
            "--threads",
            "1",
            "--log-level",
            "warning",
        ],
        cwd=REPO,
        env=ENV,
    )
    try:
        for _ in range(200):
            try:
                get(port, "/api/v1/health")
                break
            except OSError:
                time.sleep(0.1)
        first, answer = get(
            port,
            "/api/v1/search?" + urlencode({"q": "can I use my phone for notes during the match"}),
        )
        print(f"HTTP, new server: first search {first * 1000:.0f} ms ({answer.get('ranking')})")
        times = [get(port, "/api/v1/search?" + urlencode({"q": q}))[0] * 1000 for q in questions()]
        times.sort()
        p95 = times[int(0.95 * (len(times) - 1))]
        print(
            f"HTTP, one client, {len(times)} distinct questions: p50 "
            f"{statistics.median(times):.1f} "
            f"ms, p95 {p95:.1f} ms, max {times[-1]:.1f} ms"
        )
    finally:
        server.terminate()
        server.wait(timeout=30)


if __name__ == "__main__":
    main()
