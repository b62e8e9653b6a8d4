"""A real Celery worker process for the tests marked `worker` (run by `make test-stack`)."""

from __future__ import annotations

import contextlib
import fcntl
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.conf import settings
from django.db import connection

REPO = Path(__file__).resolve().parents[2]


def real_stack_or_skip() -> None:
    if os.environ.get("JUDGEAPP_REAL_WORKER") != "1" or settings.CELERY_BROKER_URL.startswith(
        "memory://"
    ):
        pytest.skip("needs a real broker and worker: run `make test-stack`")
    if connection.vendor != "postgresql":
        pytest.skip("a worker process shares the test database only on PostgreSQL")


def test_database_url() -> str:
    db = connection.settings_dict
    auth = db["USER"] + (f":{db['PASSWORD']}" if db["PASSWORD"] else "")
    return f"postgres://{auth}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"


class WorkerProcess:
    """`celery -A judgeapp worker` against the test database; stopped (or killed) by the test."""

    def __init__(
        self, *, concurrency: int = 1, env: dict[str, str] | None = None, name: str = "w1"
    ) -> None:
        self.env = {**os.environ, "DATABASE_URL": test_database_url(), **(env or {})}
        self.args = [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "judgeapp",
            "worker",
            "--loglevel",
            "INFO",
            "--concurrency",
            str(concurrency),
            "--pool",
            "prefork",
            "-n",
            f"{name}@%h",
            "--without-gossip",
            "--without-mingle",
            "--without-heartbeat",
        ]
        self.log = Path(f"/tmp/judgeapp-worker-{name}-{os.getpid()}.log")
        self.process: subprocess.Popen | None = None

    def start(self) -> WorkerProcess:
        self.process = subprocess.Popen(
            self.args,
            cwd=REPO,
            env=self.env,
            stdout=self.log.open("wb"),
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if "ready." in self.log.read_text(errors="replace"):
                return self
            if self.process.poll() is not None:
                break
            time.sleep(0.1)
        raise RuntimeError(
            f"the worker did not start:\n{self.log.read_text(errors='replace')[-3000:]}"
        )

    def children(self) -> list[int]:
        out = subprocess.run(
            ["pgrep", "-P", str(self.process.pid)], capture_output=True, text=True
        ).stdout
        return [int(pid) for pid in out.split()]

    def kill_hard(self) -> None:
        """SIGKILL the whole worker, pool children included: nothing gets to
        acknowledge anything."""
        os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(10)

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(15)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait(5)

    def output(self) -> str:
        return self.log.read_text(errors="replace")


@contextlib.contextmanager
def one_at_a_time() -> Iterator[None]:
    """Held by a worker test for its whole run: a lock file per queue that every xdist process of
    the run shares, so that no two worker tests send to the run's queue at once."""
    name = re.sub(r"[^\w.-]", "_", settings.CELERY_TASK_DEFAULT_QUEUE)
    with open(Path(tempfile.gettempdir()) / f"judgeapp-worker-{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def purge_queue() -> None:
    from judgeapp.celery import app

    app.control.purge()


def forget_queue() -> None:
    """Remove what the run's queue left on the broker: Redis keeps each queue's bindings (kombu's
    `_kombu.binding*` keys) after its last message, and `make test-stack` names a queue a run."""
    from judgeapp.celery import app

    queue = app.conf.task_default_queue
    if queue == "celery" or not app.conf.broker_url.startswith(("redis://", "rediss://")):
        return  # a deployment's queue, or a broker without such keys
    with app.connection_for_write() as conn:
        client = conn.default_channel.client
        client.delete(f"_kombu.binding.{queue}", f"_kombu.binding_permanent.{queue}", queue)
