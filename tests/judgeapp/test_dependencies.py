"""Issue 29: a database or broker that stops answering must not hang the site.

On the real stack, not mocks: the service runs under gunicorn (threaded, as in production) in a
subprocess, with DATABASE_URL or CELERY_BROKER_URL pointing at a black hole, a listening socket that
accepts every connection and never answers (a PostgreSQL or Redis behind a proxy that stalls). Every
request must answer within a few seconds: 503 (JSON under /api/v1/, a page elsewhere) for what needs
the missing dependency, the right degraded answer for what does not. And a connection PostgreSQL
drops (pg_terminate_backend, a restart) must not fail the next request.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
BOUND = 8.0   # seconds: every answer within this, whatever is stalled
PG_URL = os.environ.get("JUDGEAPP_TEST_POSTGRES_URL", "postgres://postgres@127.0.0.1:5432/postgres")


class BlackHole:
    """Accepts TCP connections and never answers (reads and drops what it is sent)."""

    def __init__(self) -> None:
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.accepted: list[socket.socket] = []
        self._stop = False
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        self.listener.settimeout(0.2)
        while not self._stop:
            try:
                conn, _ = self.listener.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            self.accepted.append(conn)   # kept open, never read, never answered

    def close(self) -> None:
        self._stop = True
        for conn in self.accepted:
            conn.close()
        self.listener.close()


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class App:
    """gunicorn (gthread, one worker) serving judgeapp with the given environment."""

    def __init__(self, env: dict[str, str], tmp_path: Path, threads: int = 4) -> None:
        self.port = _free_port()
        self.log = tmp_path / "gunicorn.log"
        full_env = {
            **os.environ,
            "DJANGO_DEBUG": "0",
            "DJANGO_SECRET_KEY": "test-only-" + "x" * 50,
            "DJANGO_ALLOWED_HOSTS": "127.0.0.1",
            "JUDGEAPP_SEARCH_VECTORS": "0",
            "JUDGEAPP_SEARCH_INDEX_CACHE": "",
            "CELERY_BROKER_URL": "memory://localhost/",
            **env,
        }
        self.process = subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "judgeapp.wsgi:application", "-k", "gthread", "-w", "1",
             "--threads", str(threads), "-b", f"127.0.0.1:{self.port}", "--timeout", "120"],
            cwd=REPO, env=full_env, stdout=self.log.open("wb"), stderr=subprocess.STDOUT,
        )
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            assert self.process.poll() is None, self.log.read_text()
            try:
                if self.request("GET", "/api/v1/no-such-path", timeout=2)[0] == 404:   # answered without the database
                    return
            except OSError:
                time.sleep(0.2)
        raise AssertionError("gunicorn did not start:\n" + self.log.read_text())

    def request(self, method: str, path: str, body: dict | None = None, timeout: float = BOUND):
        data = json.dumps(body).encode() if body is not None else None
        req = urllib.request.Request(f"http://127.0.0.1:{self.port}{path}", data=data, method=method,
                                     headers={"Content-Type": "application/json"} if data else {})
        try:
            with urllib.request.urlopen(req, timeout=timeout) as response:
                return response.status, dict(response.headers), response.read()
        except urllib.error.HTTPError as error:
            return error.code, dict(error.headers), error.read()

    def timed(self, method: str, path: str, body: dict | None = None):
        start = time.monotonic()
        status, headers, content = self.request(method, path, body)
        return status, headers, content, time.monotonic() - start

    def stop(self) -> str:
        self.process.terminate()
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        return self.log.read_text(errors="replace")


@pytest.fixture
def black_hole():
    hole = BlackHole()
    yield hole
    hole.close()


@pytest.fixture(scope="module")
def sqlite_db(tmp_path_factory) -> str:
    """A migrated SQLite file for the app under test (the Redis tests need a working database)."""
    path = tmp_path_factory.mktemp("db") / "judge.sqlite3"
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{path}", "JUDGEAPP_SEARCH_VECTORS": "0"}
    subprocess.run([sys.executable, "manage.py", "migrate", "-v0", "--skip-checks"], cwd=REPO, env=env, check=True)
    return f"sqlite:///{path}"


def _is_json_503(status, headers, content) -> dict:
    assert status == 503, (status, content[:300])
    assert headers["Content-Type"].startswith("application/json")
    assert int(headers["Retry-After"]) > 0
    return json.loads(content)


SHUFFLE = {"deck_size": 52, "procedure": [{"method": "riffle", "times": 7}]}


def test_database_that_never_answers_gives_503_within_seconds(black_hole, tmp_path):
    app = App({"DATABASE_URL": f"postgres://judge@127.0.0.1:{black_hole.port}/judgeapp",
               "JUDGEAPP_DB_CONNECT_TIMEOUT": "2"}, tmp_path)
    try:
        timings = {}
        # Health, concurrently from more clients than threads: none waits past the bound.
        results = []
        threads = [threading.Thread(target=lambda: results.append(app.timed("GET", "/api/v1/health"))) for _ in range(8)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert len(results) == 8
        for status, headers, content, took in results:
            body = _is_json_503(status, headers, content)
            assert body["status"] == "unavailable" and body["database"].startswith("unreachable"), body
            assert took < BOUND
        timings["health x8"] = max(r[3] for r in results)

        status, headers, content, timings["lookup"] = app.timed("GET", "/api/v1/rules/cr/100.1")
        assert _is_json_503(status, headers, content)["error"]["code"] == "unavailable"
        status, headers, content, timings["POST jobs"] = app.timed("POST", "/api/v1/jobs/shuffle-analysis", SHUFFLE)
        assert _is_json_503(status, headers, content)["error"]["code"] == "unavailable"
        status, headers, content, timings["page"] = app.timed("GET", "/rules/cr/")
        assert status == 503 and headers["Content-Type"].startswith("text/html"), (status, content[:300])
        assert b"Temporarily unavailable" in content and b"Traceback" not in content
        status, headers, content, timings["404"] = app.timed("GET", "/api/v1/no-such-path")
        assert status == 404
        assert all(took < BOUND for took in timings.values()), timings
        print("database stalled:", {k: round(v, 2) for k, v in timings.items()})
    finally:
        log = app.stop()
    assert "Traceback" not in log, log[-3000:]


def test_database_that_stops_answering_mid_connection_gives_503(tmp_path):
    """An open persistent connection whose server goes silent: libpq alone would wait forever.
    A relay stands between the app and the real PostgreSQL; it starts dropping what it is sent."""
    import psycopg

    relay = Relay(("127.0.0.1", 5432))
    app = App({"DATABASE_URL": PG_URL.replace(":5432/", f":{relay.port}/"), "JUDGEAPP_DB_REQUEST_TIMEOUT": "2"}, tmp_path, threads=2)
    try:
        for _ in range(4):   # each thread opens its persistent connection
            status, _headers, content = app.request("GET", "/api/v1/health")
            assert status == 200, content
        relay.stall = True
        status, headers, content, took = app.timed("GET", "/api/v1/health")
        body = _is_json_503(status, headers, content)
        assert body["database"].startswith("unreachable"), body
        assert took < BOUND
        print(f"database stalled mid-connection: health answered 503 in {took:.2f} s")
        relay.stall = False
        time.sleep(1.2)   # JUDGEAPP_DB_RETRY_SECONDS
        status, _headers, content = app.request("GET", "/api/v1/health")
        assert status == 200, content
    finally:
        log = app.stop()
        relay.close()
    assert psycopg   # the driver the app uses
    assert "Traceback" not in log, log[-3000:]


class Relay:
    """A TCP relay to a real server that can be told to stall: then it forwards nothing either way."""

    def __init__(self, target) -> None:
        self.target = target
        self.stall = False
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.sockets: list[socket.socket] = []
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            server = socket.create_connection(self.target)
            self.sockets += [client, server]
            threading.Thread(target=self._pump, args=(client, server), daemon=True).start()
            threading.Thread(target=self._pump, args=(server, client), daemon=True).start()

    def _pump(self, source, sink) -> None:
        while True:
            try:
                data = source.recv(65536)
            except OSError:
                return
            if not data:
                return
            while self.stall:
                time.sleep(0.05)   # held, never delivered while stalled
            try:
                sink.sendall(data)
            except OSError:
                return

    def close(self) -> None:
        self.listener.close()
        for sock in self.sockets:
            sock.close()
