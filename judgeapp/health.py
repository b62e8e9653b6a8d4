"""GET /api/v1/health: database and broker reachability for load balancers and compose, and whether
the database is migrated and the static files collected (without either every page fails: 503).

The broker is asked on one Redis connection per process, kept and reused (a new connection per call
cost up to seconds under load), with short timeouts, and at most once a second, on a thread of its
own: a call gives the last answer while the next is asked (only a process's first call waits for
one, at most half a second), so health never waits for a Redis that accepts TCP and never answers.
Only GET and HEAD: another method is 405, not a CSRF 403.
"""

from __future__ import annotations

import threading
import time

from django.conf import settings
from django.db import connection
from django.http import JsonResponse
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_safe

BROKER_TIMEOUT = 0.5  # seconds: connecting, and the PING's answer
# a process asks the broker at most once a second; calls between share the answer
BROKER_STATUS_SECONDS = 1.0
_status_lock = threading.Lock()
_status: tuple[float, str, str] | None = None  # (when, url, status)
_asking = False  # a thread is asking the broker now
_client_lock = threading.Lock()
_client = None  # (url, redis.Redis) on one pooled connection


def _redis_client(url: str):
    """The process's Redis client for health: a pool of ONE connection, reused by every call
    (redis-py makes a fresh pool in a forked child). A thread that finds it busy waits at most
    BROKER_TIMEOUT."""
    global _client
    with _client_lock:
        if _client is None or _client[0] != url:
            import redis
            from redis.backoff import NoBackoff
            from redis.retry import Retry

            pool = redis.BlockingConnectionPool.from_url(
                url,
                max_connections=1,
                timeout=BROKER_TIMEOUT,
                socket_connect_timeout=BROKER_TIMEOUT,
                socket_timeout=BROKER_TIMEOUT,
                retry=Retry(NoBackoff(), 0),  # one try: redis-py's default retries take seconds
            )
            _client = (url, redis.Redis(connection_pool=pool))
        return _client[1]


def _database_status() -> str:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
        return "ok"
    except Exception as exc:  # any driver error means unreachable
        # its first line: "database unavailable (connect failed: OperationalError: database
        # "judgeapp" does not exist)", where the class name alone hid a wrong name, role or host
        line = " ".join(str(exc).split("\n", 1)[0].split())[:240]
        return f"unreachable: {exc.__class__.__name__}" + (f": {line}" if line else "")


# Once this process has found every migration applied and the static files collected, that stays
# true (a deploy that changes either starts new processes): asked again only until it is.
SCHEMA_RECHECK_SECONDS = 5.0
_schema: tuple[float, str] | None = None  # (when asked, status)
_static: str | None = None


def _schema_status() -> str:
    """ "ok" when the database holds every migration of the code, else which are not applied: a
    machine added before `migrate` ran (or new code ahead of its migration) answers SELECT 1 but
    fails every page."""
    global _schema
    now = time.monotonic()
    if _schema is not None and (_schema[1] == "ok" or now - _schema[0] < SCHEMA_RECHECK_SECONDS):
        return _schema[1]
    from django.db.migrations.executor import MigrationExecutor

    try:
        executor = MigrationExecutor(connection)
        plan = executor.migration_plan(executor.loader.graph.leaf_nodes())
    except Exception as exc:  # the database went away between the two checks
        return f"unreachable: {exc.__class__.__name__}"
    if plan:
        names = [f"{m.app_label}.{m.name}" for m, _ in plan]
        more = f" and {len(names) - 3} more" if len(names) > 3 else ""
        status = f"migrations not applied: {', '.join(names[:3])}{more} (run migrate)"
    else:
        status = "ok"
    _schema = (now, status)
    return status


def _static_status() -> str:
    """ "ok" unless the static files are served from a manifest that collectstatic has not written
    (every HTML page would answer 500)."""
    global _static
    if _static == "ok":
        return _static
    from django.contrib.staticfiles.storage import ManifestFilesMixin
    from django.core.files.storage import storages

    storage = storages["staticfiles"]
    if isinstance(storage, ManifestFilesMixin) and not storage.exists(storage.manifest_name):
        _static = "not collected (run collectstatic)"
    else:
        _static = "ok"
    return _static


def _ask_broker(url: str) -> None:
    """PING the broker (at most BROKER_TIMEOUT) and keep the answer."""
    global _status, _asking
    try:
        _redis_client(url).ping()
        status = "ok"
    except Exception as exc:
        status = f"unreachable: {exc.__class__.__name__}"
    with _status_lock:
        _status = (time.monotonic(), url, status)
        _asking = False


def _broker_status() -> str:
    url = settings.CELERY_BROKER_URL
    if url.startswith("memory://"):
        return "eager"
    if url.startswith(("redis://", "rediss://")):
        global _asking
        with _status_lock:
            known = _status if _status is not None and _status[1] == url else None
            stale = known is None or time.monotonic() - known[0] >= BROKER_STATUS_SECONDS
            start = stale and known is not None and not _asking
            if start:
                _asking = True
        if known is None:
            # the process's first call asks itself (at most BROKER_TIMEOUT)
            _ask_broker(url)
            return _status[2] if _status is not None else "unknown"
        if start:
            # later calls never wait for the broker: the last answer, while one thread asks again
            # (issue 29: health within a second while Redis and PostgreSQL both stall)
            threading.Thread(target=_ask_broker, args=(url,), daemon=True).start()
        return known[2]
    return "configured"


@csrf_exempt
@require_safe
def health(request):
    database = _database_status()
    broker = _broker_status()
    body = {
        "status": "ok" if database == "ok" else "unavailable",
        "database": database,
        "broker": broker,
    }
    if database == "ok":
        body["schema"] = _schema_status()
        body["static"] = _static_status()
        if body["schema"] != "ok" or body["static"] != "ok":
            body["status"] = "unavailable"
    response = JsonResponse(body, status=200 if body["status"] == "ok" else 503)
    if database != "ok":
        response["Retry-After"] = str(settings.JUDGEAPP_RETRY_AFTER)
    return response
