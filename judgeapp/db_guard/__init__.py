"""A PostgreSQL that stops answering must not hold a request thread forever (issue 29).

libpq waits without end for the answer to a query sent on an open connection, and a server behind a
proxy that still accepts TCP (or a host gone silent with its kernel still up) never sends one; TCP
keepalives and tcp_user_timeout do not help while the other side's kernel acknowledges. So every
round trip of the project's database backend (judgeapp.db_guard.base, the ENGINE for PostgreSQL) is
armed on one watchdog thread per process: past its deadline the watchdog shuts the connection's
socket down, libpq sees the connection end, and the query raises OperationalError, which the API
answers 503 (judgeapp.api_guard). Deadlines: JUDGEAPP_DB_REQUEST_TIMEOUT (+1 s) inside a web
request, JUDGEAPP_DB_STATEMENT_TIMEOUT (+5 s) elsewhere (workers, imports, management commands);
the server's own statement_timeout stops a slow query a second earlier, with a clean error.

A connection that could not be made (connect_timeout) or was cut by the watchdog makes the process
refuse new connections for JUDGEAPP_DB_RETRY_SECONDS, at once: while the database is away, every
request answers 503 in milliseconds instead of each waiting the connect timeout itself.

The first request that meets a stall waits JUDGEAPP_DB_FIRST_WAIT (0.6 s) for the server's first
answer, the check of its kept connection or a new connection, not the query's bound nor libpq's
connect_timeout (at least 2 s): those first answers take milliseconds from a server that works, and
the wait grows with the slowest of them lately (LATENCY), so a server merely slow under load is
waited for.
"""

from __future__ import annotations

import logging
import os
import socket
import threading
import time
from contextlib import contextmanager
from itertools import count

logger = logging.getLogger("judgeapp.db")
_POLL = 0.05  # the watchdog looks at its deadlines twenty times a second

_local = threading.local()


class WebRequestMiddleware:
    """First in MIDDLEWARE: the thread serves a web request while it runs (the shorter deadline)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        _local.in_request = True
        try:
            return self.get_response(request)
        finally:
            _local.in_request = False


def in_request() -> bool:
    return getattr(_local, "in_request", False)


class Watchdog:
    """Deadlines for blocking database round trips; one thread per process, started on first use
    (and again in a forked child, whose parent's thread did not come along)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._armed: dict[int, tuple[float, int, str]] = {}
        self._ids = count()
        self._pid: int | None = None

    def _ensure_thread(self) -> None:
        if self._pid == os.getpid():
            return
        with self._lock:
            if self._pid == os.getpid():
                return
            self._armed.clear()
            threading.Thread(target=self._run, name="db-watchdog", daemon=True).start()
            self._pid = os.getpid()

    def arm(self, fd: int, seconds: float, what: str) -> int:
        self._ensure_thread()
        token = next(self._ids)
        with self._lock:
            self._armed[token] = (time.monotonic() + seconds, fd, what)
        return token

    def disarm(self, token: int) -> bool:
        """False when the watchdog fired for this token (the connection was cut)."""
        with self._lock:
            return self._armed.pop(token, None) is not None

    def _run(self) -> None:
        while True:
            time.sleep(_POLL)
            now = time.monotonic()
            with self._lock:
                expired = [
                    token
                    for token, (deadline, _fd, _what) in self._armed.items()
                    if deadline <= now
                ]
                for token in expired:
                    _deadline, fd, what = self._armed.pop(token)
                    _cut(fd)
                    logger.warning("database did not answer %s in time: connection cut", what)


def _cut(fd: int) -> None:
    """Shut the socket down (both ways) under libpq: its wait ends and it reports the
    connection lost."""
    try:
        sock = socket.socket(fileno=os.dup(fd))
    except OSError:
        return
    try:
        sock.shutdown(socket.SHUT_RDWR)
    except OSError:
        pass
    finally:
        sock.close()


WATCHDOG = Watchdog()


# A web request that finds the database suspect waits at most this long for the background try.
PROBE_WAIT = 0.5


def connect_failure(exc: BaseException) -> str:
    """Why a connection failed, for the 503's message, health and logs: the driver's own words
    ("database "judgeapp" does not exist", "password authentication failed for user ...", never
    the password itself), where a class name alone hid a wrong database name, role or host."""
    words = " ".join(str(exc).split())
    if "FATAL:" in words:
        words = words.split("FATAL:", 1)[1].strip()
    words = words[:200]
    return f"connect failed: {exc.__class__.__name__}" + (f": {words}" if words else "")


class Breaker:
    """After a failed connect or a cut connection, new connections are refused for a while.

    Then the database stays suspect until a connection is made again: a web request does not
    connect itself (a stalled server would hold it for the whole connect timeout) but starts one
    try in the background, shared by every thread of the process, and waits for it at most
    PROBE_WAIT from the try's start: a database that is back is used at once, one still away
    answers 503 in well under a second (issue 29: health and lookups within 1 s while PostgreSQL
    stalls)."""

    def __init__(self) -> None:
        self.until = 0.0
        self.reason = ""
        self.suspect = False
        self._lock = threading.Lock()
        self._probe: threading.Event | None = None
        self._probe_ok = False
        self._probe_started = 0.0

    def trip(self, seconds: float, reason: str) -> None:
        if seconds > 0:
            self.until = time.monotonic() + seconds
            self.reason = reason
            self.suspect = True

    def reset(self) -> None:
        self.until = 0.0
        self.suspect = False

    def open_for(self) -> float:
        return max(0.0, self.until - time.monotonic())

    def probe(self, connect, retry_seconds: float, wait: float = PROBE_WAIT) -> bool:
        """Try `connect()` (opens and closes a connection) on a background thread, one at a time
        per process; True when it succeeded within `wait` seconds (the database is back)."""
        with self._lock:
            if self._probe is None:
                done = threading.Event()
                self._probe, self._probe_ok = done, False
                self._probe_started = time.monotonic()
                threading.Thread(
                    target=self._run_probe,
                    args=(connect, retry_seconds, done),
                    name="db-probe",
                    daemon=True,
                ).start()
            done = self._probe
            # a request waits only within `wait` of the try's start: later ones answer at once
            left = self._probe_started + wait - time.monotonic()
        return done.wait(max(0.0, left)) and self._probe_ok

    def _run_probe(self, connect, retry_seconds: float, done: threading.Event) -> None:
        try:
            connect()
        except Exception as exc:
            self.trip(retry_seconds, connect_failure(exc))
        else:
            self._probe_ok = True
            self.reset()
        finally:
            with self._lock:
                self._probe = None
            done.set()


BREAKER = Breaker()


class Latency:
    """The slowest first answer (a kept connection's check, a new connection) this process saw
    lately: the wait for the next one is FACTOR times it, at least the setting, at most CAP."""

    WINDOW = 15.0  # seconds a slow answer is remembered (a server slow under load keeps it up)
    FACTOR = 4.0
    # at most this: with the watchdog's poll and the answer, the first request into a stall still
    # answers within a second (a server slower than this to answer SELECT 1 is taken for away)
    CAP = 0.9

    def __init__(self) -> None:
        self.peak = 0.0
        self.at = 0.0

    def record(self, seconds: float) -> None:
        now = time.monotonic()
        if seconds >= self.peak or now - self.at > self.WINDOW:
            self.peak, self.at = seconds, now

    def bound(self, least: float) -> float:
        peak = self.peak if time.monotonic() - self.at <= self.WINDOW else 0.0
        return max(least, min(self.CAP, self.FACTOR * peak))


LATENCY = Latency()


def connect_within(connect, seconds: float):
    """`connect()` on a thread of its own, waited for at most `seconds`: its connection, or its
    error. Past the wait, TimeoutError and the database is suspect (the next requests go through
    the breaker's probe); the late connection is closed when it comes, and clears the suspicion."""
    box: dict = {}
    done = threading.Event()
    lock = threading.Lock()
    started = time.monotonic()

    def run() -> None:
        try:
            box["connection"] = connect()
        except Exception as exc:
            box["error"] = exc
        with lock:
            done.set()
            late = box.get("late", False)
        if not late:
            return
        if "connection" in box:
            box["connection"].close()
            LATENCY.record(time.monotonic() - started)
            BREAKER.reset()
        else:
            from django.conf import settings

            BREAKER.trip(settings.JUDGEAPP_DB_RETRY_SECONDS, "connect failed")

    threading.Thread(target=run, name="db-connect", daemon=True).start()
    done.wait(seconds)
    with lock:
        if not done.is_set():
            box["late"] = True
            BREAKER.suspect, BREAKER.reason = True, f"no connection within {seconds:.1f} s"
            raise TimeoutError(BREAKER.reason)
    if "error" in box:
        raise box["error"]
    LATENCY.record(time.monotonic() - started)
    return box["connection"]


@contextmanager
def guarded(fd: int | None, seconds: float, what: str):
    """Arm the watchdog around one blocking round trip on the socket `fd`."""
    if fd is None or fd < 0 or seconds <= 0:
        yield
        return
    token = WATCHDOG.arm(fd, seconds, what)
    try:
        yield
    finally:
        if not WATCHDOG.disarm(token):
            from django.conf import settings

            BREAKER.trip(settings.JUDGEAPP_DB_RETRY_SECONDS, f"{what} did not answer")
