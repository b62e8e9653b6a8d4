"""PostgreSQL backend (Django's) whose round trips are bounded: see judgeapp.db_guard."""

from __future__ import annotations

import time

from django.conf import settings
from django.db.backends.postgresql import base as postgresql
from django.db.utils import OperationalError

from judgeapp import db_guard

# Django's check of a kept connection before it is used is one SELECT 1: a server that has not
# answered it in this many seconds is treated as gone (the connection is cut and replaced). A web
# request waits less: JUDGEAPP_DB_FIRST_WAIT, or more when the server was slow lately (LATENCY).
HEALTH_CHECK_SECONDS = 2.0


def _first_wait() -> float:
    """Seconds a web request waits for the server's first answer (see judgeapp.db_guard)."""
    return db_guard.LATENCY.bound(settings.JUDGEAPP_DB_FIRST_WAIT)


def _deadline() -> float:
    """Seconds a round trip may take before the watchdog cuts the connection."""
    if db_guard.in_request():
        return settings.JUDGEAPP_DB_REQUEST_TIMEOUT + 1
    return settings.JUDGEAPP_DB_STATEMENT_TIMEOUT + 5


class DatabaseWrapper(postgresql.DatabaseWrapper):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.execute_wrappers.append(self._guard_execute)

    def _fd(self) -> int | None:
        try:
            return self.connection.pgconn.socket if self.connection is not None else None
        except Exception:  # closed or broken: nothing to guard
            return None

    def _guard(self, what: str, at_most: float | None = None):
        deadline = _deadline() if at_most is None else min(at_most, _deadline())
        return db_guard.guarded(self._fd(), deadline, what)

    def _guard_execute(self, execute, sql, params, many, context):
        with self._guard("a query"):
            return execute(sql, params, many, context)

    def get_new_connection(self, conn_params):
        wait = db_guard.BREAKER.open_for()
        if wait > 0:
            raise OperationalError(
                f"database unavailable ({db_guard.BREAKER.reason}); next try in {wait:.1f} s"
            )
        if db_guard.in_request() and db_guard.BREAKER.suspect:
            # the database failed lately: one background try for the process, not one per request
            def connect():
                self.Database.connect(**conn_params).close()

            if not db_guard.BREAKER.probe(connect, settings.JUDGEAPP_DB_RETRY_SECONDS):
                raise OperationalError(
                    f"database unavailable ({db_guard.BREAKER.reason}); trying again in the "
                    "background"
                )
        try:
            if db_guard.in_request():
                # a new connection to a stalled server would hold the request for libpq's
                # connect_timeout (at least 2 s): it is waited for no longer than the first wait
                connection = db_guard.connect_within(
                    lambda: postgresql.DatabaseWrapper.get_new_connection(self, conn_params),
                    _first_wait(),
                )
            else:
                connection = super().get_new_connection(conn_params)
        except TimeoutError as exc:
            raise OperationalError(f"database unavailable ({exc})") from None
        except Exception as exc:
            db_guard.BREAKER.trip(settings.JUDGEAPP_DB_RETRY_SECONDS, db_guard.connect_failure(exc))
            raise
        db_guard.BREAKER.reset()
        return connection

    def init_connection_state(self):
        with self._guard("setting up the connection"):
            super().init_connection_state()
            if db_guard.in_request() and settings.JUDGEAPP_DB_REQUEST_TIMEOUT > 0:
                # Web requests: the server stops a query at the shorter limit (the connection's
                # options set the generous one, for workers and imports).
                with self.connection.cursor() as cursor:
                    cursor.execute(
                        "SET statement_timeout = "
                        f"{int(settings.JUDGEAPP_DB_REQUEST_TIMEOUT * 1000)}"
                    )

    def is_usable(self):
        if db_guard.in_request() and db_guard.BREAKER.suspect:
            # the database failed lately: this kept connection is not asked (a stalled server
            # would hold the request for the check's bound); it is replaced, through the probe
            return False
        if not db_guard.in_request():
            with self._guard("the health check", HEALTH_CHECK_SECONDS):
                return super().is_usable()
        started = time.monotonic()
        with self._guard("the health check", _first_wait()):
            usable = super().is_usable()
        if usable:
            db_guard.LATENCY.record(time.monotonic() - started)
        return usable

    def _commit(self):
        with self._guard("a commit"):
            return super()._commit()

    def _rollback(self):
        with self._guard("a rollback"):
            return super()._rollback()

    def _set_autocommit(self, autocommit):
        with self._guard("setting autocommit"):
            return super()._set_autocommit(autocommit)
