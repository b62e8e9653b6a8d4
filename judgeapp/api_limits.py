"""How much one client may ask of the API: requests a minute (anonymous clients by address,
signed-in judges by account), computations a minute, and failed authentications by address.

Counters live in the `limits` cache (settings: Redis on the real stack, so every gunicorn worker
counts together), one fixed window per limit: each request increments its window's key and renews
its expiry, one round trip to Redis (a pipeline; atomic). When the store does not answer, requests
go through uncounted, and this process leaves it alone for a few seconds rather than wait on it
each time: a limit never takes the site down with it.

Where: every DRF view (ApiRateThrottle), the rule lookup's fast path before DRF (limit_lookup),
job POSTs and the engines a guide walk runs (check_computation, the lower limit).
"""

from __future__ import annotations

import ipaddress
import logging
import math
import threading
import time
from dataclasses import dataclass

from django.conf import settings
from django.core.cache import caches
from rest_framework.throttling import BaseThrottle

from judgeapp import proxy

logger = logging.getLogger(__name__)
STORE_PAUSE_SECONDS = 5.0  # after the store failed, this process counts nothing for this long
_store_down_until = 0.0
_store_lock = threading.Lock()


@dataclass(frozen=True)
class Limit:
    """`count` events per `seconds` for one client; a count of 0 or less is no limit."""

    name: str  # named in the 429: "api-anonymous", "jobs-judge", "auth-failures"
    count: int
    seconds: int

    def describe(self) -> str:
        return f"{self.count} per {self.seconds} s"


def client_ip(request) -> str | None:
    """The client's IP address: REMOTE_ADDR, or with JUDGEAPP_PROXY_COUNT proxies in front (each
    appending to X-Forwarded-For, as nginx's $proxy_add_x_forwarded_for does) the address the
    outermost of them saw; what a client writes into the header itself is never read. None when
    there is no valid one. django-axes reads it too (AXES_CLIENT_IP_CALLABLE), so lockouts behind
    a proxy are per client."""
    django_request = getattr(request, "_request", request)
    meta = django_request.META
    proxies = settings.JUDGEAPP_PROXY_COUNT
    if proxies > 0 and len(proxy.forwarded_hops(meta)) >= proxies:
        return proxy.forwarded_client(meta, proxies)  # None for an entry that is no address
    candidate = meta.get("REMOTE_ADDR")
    try:
        return str(ipaddress.ip_address(candidate)) if candidate else None
    except ValueError:
        return None


def client_address(request) -> str:
    """The client's address for counting ("-" when none is known)."""
    return client_ip(request) or "-"


def client_key(request) -> tuple[str, bool]:
    """("user:<pk>", True) for a signed-in judge, ("addr:<address>", False) otherwise."""
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated:
        return f"user:{user.pk}", True
    return f"addr:{client_address(request)}", False


def _store_usable() -> bool:
    return time.monotonic() >= _store_down_until


def _store_failed(exc: Exception) -> None:
    global _store_down_until
    with _store_lock:
        _store_down_until = time.monotonic() + STORE_PAUSE_SECONDS
    logger.warning(
        "the limits store is not answering (%s: %s): not counting for %.0f s",
        exc.__class__.__name__,
        exc,
        STORE_PAUSE_SECONDS,
    )


def _now() -> float:
    """The wall clock the windows are counted on (one place, so a test can hold it still)."""
    return time.time()


def _window(limit: Limit, who: str, now: float) -> tuple[str, int]:
    index = int(now // limit.seconds)
    wait = math.ceil((index + 1) * limit.seconds - now)
    return f"rate:{limit.name}:{who}:{index}", max(1, wait)


def _increment(store, key: str, ttl: int) -> int:
    """The window's count after this event. On Redis one round trip (INCR and EXPIRE in a
    pipeline: the key holds the window's index, so renewing its expiry never joins two windows);
    elsewhere (one process's memory) add, then incr."""
    backend = getattr(store, "_cache", None)
    if backend is not None and hasattr(backend, "get_client"):  # django's RedisCache
        full_key = store.make_and_validate_key(key)
        pipe = backend.get_client(full_key, write=True).pipeline(transaction=False)
        pipe.incr(full_key)
        pipe.expire(full_key, ttl)
        seen, _renewed = pipe.execute()
        return int(seen)
    store.add(key, 0, timeout=ttl)
    return store.incr(key)


def count(limit: Limit, who: str) -> int | None:
    """Count one event; the seconds to wait when this one is over the limit, else None."""
    if limit.count <= 0 or not _store_usable():
        return None
    key, wait = _window(limit, who, _now())
    try:
        seen = _increment(caches["limits"], key, limit.seconds + 1)
    except ValueError:  # the key expired between add and incr: this is the window's first event
        return None
    except Exception as exc:  # the store is down or slow: let the request through
        _store_failed(exc)
        return None
    return wait if seen > limit.count else None


def over(limit: Limit, who: str) -> int | None:
    """Without counting: the seconds to wait when the limit is already reached, else None."""
    if limit.count <= 0 or not _store_usable():
        return None
    key, wait = _window(limit, who, _now())
    try:
        seen = caches["limits"].get(key, 0)
    except Exception as exc:
        _store_failed(exc)
        return None
    return wait if seen >= limit.count else None


def refuse(limit: Limit, wait: int, what: str):
    """The 429 to raise (imported here: DRF's views import this module through its settings)."""
    from judgeapp.api_errors import RateLimited

    return RateLimited(
        limit.name,
        f"Too many {what} ({limit.name}: at most {limit.describe()}); try again in {wait} s.",
        wait,
    )


def request_limit(judge: bool) -> Limit:
    if judge:
        return Limit("api-judge", settings.JUDGEAPP_RATE_JUDGE, 60)
    return Limit("api-anonymous", settings.JUDGEAPP_RATE_ANONYMOUS, 60)


def job_limit(judge: bool) -> Limit:
    if judge:
        return Limit("jobs-judge", settings.JUDGEAPP_JOB_RATE_JUDGE, 60)
    return Limit("jobs-anonymous", settings.JUDGEAPP_JOB_RATE_ANONYMOUS, 60)


def auth_failure_limit() -> Limit:
    return Limit(
        "auth-failures", settings.JUDGEAPP_AUTH_FAILURE_LIMIT, settings.JUDGEAPP_AUTH_FAILURE_WINDOW
    )


def check_computation(request) -> None:
    """A computation (a job POST) counts against its own, lower limit."""
    who, judge = client_key(request)
    limit = job_limit(judge)
    wait = count(limit, who)
    if wait is not None:
        raise refuse(limit, wait, "computations")


def computation_counter(request):
    """For a guide walk: a function the walk calls before it runs an engine (an answer it has not
    memoised); the first call counts one computation against the client's limit, the others
    nothing (one walk, one computation, however many engines it runs)."""
    counted = False

    def count_once() -> None:
        nonlocal counted
        if not counted:
            counted = True
            check_computation(request)

    return count_once


def carries_credentials(request) -> bool:
    """A token, basic auth or the site's session: the request is counted by account, once DRF
    has authenticated it."""
    return "HTTP_AUTHORIZATION" in request.META or settings.SESSION_COOKIE_NAME in request.COOKIES


def limit_lookup(request):
    """The rule lookup's fast path, which answers before DRF (no authentication): an anonymous
    request counts against its address's API limit like any other; the 429 to send, else None.
    A request with credentials is not answered there (the DRF view counts it by account)."""
    limit = request_limit(False)
    wait = count(limit, f"addr:{client_address(request)}")
    if wait is None:
        return None
    from judgeapp.api_errors import rate_limited_response

    return rate_limited_response(refuse(limit, wait, "requests"))


def refuse_if_failing(request) -> None:
    """Before any credential is checked: an address past its failed authentications waits."""
    limit = auth_failure_limit()
    wait = over(limit, f"addr:{client_address(request)}")
    if wait is not None:
        raise refuse(limit, wait, "failed authentications from this address")


def count_failure(request) -> None:
    count(auth_failure_limit(), f"addr:{client_address(request)}")


class ApiRateThrottle(BaseThrottle):
    """REST_FRAMEWORK's default throttle: every API view counts against the client's limit."""

    def allow_request(self, request, view) -> bool:
        who, judge = client_key(request)
        limit = request_limit(judge)
        wait = count(limit, who)
        if wait is not None:
            raise refuse(limit, wait, "requests")
        return True
