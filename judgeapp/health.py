"""GET /api/v1/health: database and broker reachability for load balancers and compose.

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
        return f"unreachable: {exc.__class__.__name__}"


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
    response = JsonResponse(body, status=200 if database == "ok" else 503)
    if database != "ok":
        response["Retry-After"] = str(settings.JUDGEAPP_RETRY_AFTER)
    return response
