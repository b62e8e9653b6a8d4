"""GET /api/v1/health: database and broker reachability for load balancers and compose."""

from __future__ import annotations

from django.conf import settings
from django.db import connection
from django.http import JsonResponse
from django.views.decorators.http import require_safe


def _database_status() -> str:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
        return "ok"
    except Exception as exc:  # any driver error means unreachable
        return f"unreachable: {exc.__class__.__name__}"


def _broker_status() -> str:
    url = settings.CELERY_BROKER_URL
    if url.startswith("memory://"):
        return "eager"
    if url.startswith(("redis://", "rediss://")):
        try:
            import redis
            from redis.backoff import NoBackoff
            from redis.retry import Retry

            # One try: redis-py's default retries take seconds, and health must answer within one.
            redis.Redis.from_url(url, socket_connect_timeout=0.5, socket_timeout=0.5, retry=Retry(NoBackoff(), 0)).ping()
            return "ok"
        except Exception as exc:
            return f"unreachable: {exc.__class__.__name__}"
    return "configured"


@require_safe
def health(request):
    database = _database_status()
    broker = _broker_status()
    body = {"status": "ok" if database == "ok" else "unavailable", "database": database, "broker": broker}
    return JsonResponse(body, status=200 if database == "ok" else 503)
