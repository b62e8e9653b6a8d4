"""?wait never holds the site (issue 14): health latency while 30 requests wait for jobs.

Starts gunicorn with the configuration docker/ ships (docker/gunicorn.conf.py: 3 threaded workers,
at most JUDGEAPP_MAX_WAITS waiting requests each) on PostgreSQL, with a Redis broker and no Celery
worker, so every job stays queued and every `?wait=30` waits as long as it may. It fires 30 such
POSTs at once, then probes GET /api/v1/health for BENCH_PROBE_SECONDS and prints p50/p95/max of the
health latency and what the 30 POSTs answered. Target: health within 1 s.

    .venv/bin/python bench/wait_bench.py                 # the shipped configuration
    .venv/bin/python bench/wait_bench.py --sync          # before: 3 sync workers, no cap (for comparison)
    BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/judgeapp_bench_wait BENCH_BROKER=redis://127.0.0.1:6379/10
"""  # noqa: E501

from __future__ import annotations

import http.client
import json
import os
import signal
import socket
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "bench"))
from bench_env import collected_static, ensure_database  # noqa: E402 - after the bench folder is on the path

PY = sys.executable
DATABASE_URL = os.environ.get(
    "BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/judgeapp_bench_wait"
)
BROKER = os.environ.get("BENCH_BROKER", "redis://127.0.0.1:6379/10")
WAITS = int(os.environ.get("BENCH_WAITS", "30"))
PROBE_SECONDS = float(os.environ.get("BENCH_PROBE_SECONDS", "10"))
GAME = {"format": "two_player", "players": [{"name": "A", "life": 0}, {"name": "B", "life": 3}]}


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def request(
    port: int, method: str, path: str, body: dict | None = None, timeout: float = 60
) -> tuple[int, float]:
    started = time.perf_counter()
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        conn.request(
            method,
            path,
            body=json.dumps(body) if body is not None else None,
            headers={"Content-Type": "application/json"} if body is not None else {},
        )
        status = conn.getresponse().status
    except (OSError, http.client.HTTPException):
        status = 0
    finally:
        conn.close()
    return status, time.perf_counter() - started


def main() -> int:
    sync = "--sync" in sys.argv
    port = free_port()
    env = {
        **os.environ,
        "DATABASE_URL": DATABASE_URL,
        "CELERY_BROKER_URL": BROKER,
        "DJANGO_DEBUG": "0",
        "DJANGO_SECRET_KEY": "wait-bench-secret-key-not-for-production-0123456789abcdef",
        "DJANGO_ALLOWED_HOSTS": "127.0.0.1",
        "GUNICORN_BIND": f"127.0.0.1:{port}",
        "JUDGEAPP_LOG_LEVEL": "ERROR",
        # Nothing re-sends during the run, and nothing drains the queue: every wait lasts.
        "JUDGEAPP_RESEND_SECONDS": "3600",
    }
    ensure_database(DATABASE_URL)
    env["JUDGEAPP_STATIC_ROOT"] = collected_static(env)
    subprocess.run([PY, "manage.py", "migrate", "--noinput", "-v0"], cwd=REPO, env=env, check=True)
    subprocess.run(
        [PY, "-c", f"import redis; redis.Redis.from_url({BROKER!r}).delete('celery')"], check=True
    )
    if sync:  # what docker/ shipped before: sync workers, every wait holds a whole process
        env["JUDGEAPP_MAX_WAITS"] = "1000"
        args = [
            "gunicorn",
            "judgeapp.wsgi",
            "--bind",
            f"127.0.0.1:{port}",
            "--workers",
            "3",
            "--timeout",
            "60",
        ]
    else:
        args = [
            "gunicorn",
            "judgeapp.wsgi",
            "--config",
            "docker/gunicorn.conf.py",
            "--access-logfile",
            "/dev/null",
        ]
    server = subprocess.Popen(
        [PY, "-m", *args],
        cwd=REPO,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    try:
        deadline = time.monotonic() + 60
        while request(port, "GET", "/api/v1/health", timeout=2)[0] != 200:
            if time.monotonic() > deadline:
                raise RuntimeError("gunicorn did not start")
            time.sleep(0.3)
        for _ in range(5):
            request(port, "GET", "/api/v1/health")  # warm every worker's database connection
        posts: list[tuple[int, float]] = []
        threads = [
            threading.Thread(
                target=lambda: posts.append(
                    request(port, "POST", "/api/v1/jobs/game-outcome?wait=30", GAME)
                )
            )
            for _ in range(WAITS)
        ]
        for thread in threads:
            thread.start()
        time.sleep(0.5)  # the waits are in
        probes: list[float] = []
        failed = 0
        end = time.monotonic() + PROBE_SECONDS
        while time.monotonic() < end:
            status, seconds = request(port, "GET", "/api/v1/health", timeout=35)
            probes.append(seconds)
            failed += status != 200
            time.sleep(0.05)
        for thread in threads:
            thread.join(40)
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(20)
        subprocess.run(
            [PY, "-c", f"import redis; redis.Redis.from_url({BROKER!r}).delete('celery')"],
            check=False,
        )
    probes.sort()
    p95 = probes[min(len(probes) - 1, int(0.95 * len(probes)))]
    answered = {
        code: sum(1 for s, _ in posts if s == code) for code in sorted({s for s, _ in posts})
    }
    waited = sum(1 for _, seconds in posts if seconds > 5)
    config = (
        "3 sync workers, no wait cap (before)"
        if sync
        else "docker/gunicorn.conf.py (3 gthread workers x 8 threads, 4 waits each)"
    )
    print(
        f"{config}: {WAITS} POST ?wait=30 pending, {len(probes)} health probes over "
        f"{PROBE_SECONDS:.0f} s: p50 {statistics.median(probes) * 1000:.0f} ms, p95 "
        f"{p95 * 1000:.0f} ms, max {probes[-1] * 1000:.0f} ms, {failed} not 200; the POSTs "
        "answered "
        f"{answered} ({waited} waited their 30 s, {len(posts) - waited} answered at once)"
    )
    return 0 if p95 < 1.0 and not failed else 1


if __name__ == "__main__":
    sys.exit(main())
