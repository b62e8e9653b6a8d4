"""No lost job (issue 14): jobs posted while the broker is down, and what happens when it returns.

The broker outage is real as the service sees it: web, worker and beat reach Redis through a TCP
proxy that this script stops (listening socket and every connection closed) and starts again.
Runs gunicorn (docker/gunicorn.conf.py), one Celery worker and Celery beat (re-send every
BENCH_RESEND_SECONDS) on PostgreSQL, posts BENCH_JOBS game-outcome jobs during the outage, brings
the broker back and counts how many were re-sent and finished, and how long it took.

    .venv/bin/python bench/outage_bench.py
    BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/judgeapp_bench_outage BENCH_REDIS_PORT=6379 BENCH_REDIS_DB=10
"""  # noqa: E501

from __future__ import annotations

import http.client
import json
import os
import selectors
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
    "BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/judgeapp_bench_outage"
)
REDIS_PORT = int(os.environ.get("BENCH_REDIS_PORT", "6379"))
REDIS_DB = os.environ.get("BENCH_REDIS_DB", "10")
JOBS = int(os.environ.get("BENCH_JOBS", "30"))
RESEND_SECONDS = os.environ.get("BENCH_RESEND_SECONDS", "5")
GAME = {"format": "two_player", "players": [{"name": "A", "life": 0}, {"name": "B", "life": 3}]}


class BrokerProxy:
    """A TCP proxy to Redis that can be stopped (the broker is down) and started again."""

    def __init__(self, target_port: int) -> None:
        self.target_port = target_port
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
        self.running = False

    def start(self) -> None:
        self.listener = socket.create_server(("127.0.0.1", self.port), reuse_port=False)
        self.listener.settimeout(0.2)
        self.pairs: list[tuple[socket.socket, socket.socket]] = []
        self.running = True
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def stop(self) -> None:
        self.running = False
        self.thread.join(5)
        self.listener.close()
        for a, b in self.pairs:
            a.close()
            b.close()

    def _serve(self) -> None:
        selector = selectors.DefaultSelector()
        while self.running:
            try:
                client, _ = self.listener.accept()
                upstream = socket.create_connection(("127.0.0.1", self.target_port))
                self.pairs.append((client, upstream))
                selector.register(client, selectors.EVENT_READ, upstream)
                selector.register(upstream, selectors.EVENT_READ, client)
            except (TimeoutError, OSError):
                pass
            for key, _ in selector.select(timeout=0):
                try:
                    data = key.fileobj.recv(65536)
                    if data:
                        key.data.sendall(data)
                        continue
                except OSError:
                    pass
                for sock in (key.fileobj, key.data):
                    try:
                        selector.unregister(sock)
                    except (KeyError, ValueError):
                        pass
                    sock.close()
            time.sleep(0.001)
        selector.close()


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def post(port: int) -> tuple[int, float, str | None]:
    started = time.perf_counter()
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    conn.request(
        "POST",
        "/api/v1/jobs/game-outcome",
        body=json.dumps(GAME),
        headers={"Content-Type": "application/json"},
    )
    answer = conn.getresponse()
    body = json.loads(answer.read())
    conn.close()
    return answer.status, time.perf_counter() - started, body.get("id")


def main() -> int:
    proxy = BrokerProxy(REDIS_PORT)
    proxy.start()
    port = free_port()
    broker = f"redis://127.0.0.1:{proxy.port}/{REDIS_DB}"
    env = {
        **os.environ,
        "DATABASE_URL": DATABASE_URL,
        "CELERY_BROKER_URL": broker,
        "DJANGO_DEBUG": "0",
        "DJANGO_SECRET_KEY": "outage-bench-secret-key-not-for-production-0123456789abcdef",
        "DJANGO_ALLOWED_HOSTS": "127.0.0.1",
        "GUNICORN_BIND": f"127.0.0.1:{port}",
        "JUDGEAPP_LOG_LEVEL": "ERROR",
        "JUDGEAPP_RESEND_SECONDS": RESEND_SECONDS,
        "JUDGEAPP_RESEND_GRACE_SECONDS": "2",
    }
    ensure_database(DATABASE_URL)
    env["JUDGEAPP_STATIC_ROOT"] = collected_static(env)
    subprocess.run([PY, "manage.py", "migrate", "--noinput", "-v0"], cwd=REPO, env=env, check=True)
    log = open("/tmp/judgeapp-outage-bench.log", "wb")
    processes = [
        subprocess.Popen(
            [PY, "-m", *args],
            cwd=REPO,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        for args in (
            [
                "gunicorn",
                "judgeapp.wsgi",
                "--config",
                "docker/gunicorn.conf.py",
                "--access-logfile",
                "/dev/null",
            ],
            [
                "celery",
                "-A",
                "judgeapp",
                "worker",
                "--concurrency",
                "1",
                "--loglevel",
                "WARNING",
                "--without-gossip",
                "--without-mingle",
                "--without-heartbeat",
            ],
            [
                "celery",
                "-A",
                "judgeapp",
                "beat",
                "--loglevel",
                "WARNING",
                "--schedule",
                "/tmp/judgeapp-outage-beat",
            ],
        )
    ]
    try:
        time.sleep(8)
        before = [post(port) for _ in range(3)]
        print(f"broker up: {len(before)} jobs posted ({[s for s, _, _ in before]})")
        proxy.stop()
        print("broker stopped")
        during = [post(port) for _ in range(JOBS)]
        statuses = {s: sum(1 for x, _, _ in during if x == s) for s in {x for x, _, _ in during}}
        latencies = sorted(t for _, t, _ in during)
        print(
            f"{JOBS} jobs posted while it was down: answers {statuses}, p50 "
            f"{statistics.median(latencies) * 1000:.0f} ms, max {latencies[-1] * 1000:.0f} ms"
        )
        ids = [i for _, _, i in during if i]

        def counts() -> dict:
            import psycopg

            with psycopg.connect(DATABASE_URL.replace("postgres://", "postgresql://", 1)) as conn:
                rows = conn.execute(
                    "SELECT status, count(*), count(*) FILTER (WHERE sent_at IS NULL) FROM "
                    "judgeapp_job WHERE public_id::text = ANY(%s) GROUP BY status",
                    (ids,),
                ).fetchall()
            state = {"queued": 0, "running": 0, "succeeded": 0, "failed": 0, "unsent": 0}
            for status, count, unsent in rows:
                state[status] = count
                state["unsent"] += unsent
            return state

        print(f"in the database while down: {counts()}")
        time.sleep(3)
        proxy.start()
        back = time.monotonic()
        print("broker back")
        deadline = back + 120
        while time.monotonic() < deadline:
            state = counts()
            if state["succeeded"] + state["failed"] == len(ids):
                break
            time.sleep(1)
        print(
            f"after the broker came back: {state}; all {len(ids)} finished "
            f"{time.monotonic() - back:.1f} s later (beat re-sends every {RESEND_SECONDS} s)"
            if state["succeeded"] == len(ids)
            else f"NOT all finished: {state}"
        )
        return 0 if state["succeeded"] == len(ids) == JOBS else 1
    finally:
        for process in processes:
            os.killpg(process.pid, signal.SIGTERM)
        for process in processes:
            try:
                process.wait(20)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
        if proxy.running:
            proxy.stop()


if __name__ == "__main__":
    sys.exit(main())
