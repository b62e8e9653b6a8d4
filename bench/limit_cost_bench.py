"""What a rate limit adds to a rule lookup (issue 29): the cached lookup's fast path counts each
anonymous request in the limits store (Redis on the real stack) before it answers.

Times judgeapp.api_limits.limit_lookup, what the fast path adds, on a request that is not limited:
counted in Redis (one pipelined INCR and EXPIRE), with the limit off (JUDGEAPP_RATE_ANONYMOUS=0, as
the tests run), and, for comparison, the two round trips a count took before (cache add, then
incr). Prints the median and p95 in microseconds.

    .venv/bin/python bench/limit_cost_bench.py
    BENCH_REDIS_URL=redis://127.0.0.1:6379/12 BENCH_ROUNDS=5000 ...
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
REDIS = os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/12")
ROUNDS = int(os.environ.get("BENCH_ROUNDS", "3000"))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "judgeapp.settings")
os.environ.setdefault("DJANGO_DEBUG", "1")
os.environ["JUDGEAPP_LIMITS_CACHE_URL"] = REDIS
os.environ["JUDGEAPP_SEARCH_VECTORS"] = "0"


def timed(call, rounds: int = ROUNDS) -> tuple[float, float]:
    """(median, p95) of `call()` in microseconds, after a warm-up."""
    for _ in range(100):
        call()
    took = []
    for _ in range(rounds):
        start = time.perf_counter()
        call()
        took.append((time.perf_counter() - start) * 1e6)
    took.sort()
    return statistics.median(took), took[int(len(took) * 0.95)]


def main() -> int:
    import django

    django.setup()
    from django.conf import settings
    from django.core.cache import caches
    from django.test import RequestFactory

    from judgeapp import api_limits

    request = RequestFactory().get("/api/v1/rules/cr/100.1", REMOTE_ADDR="10.9.9.9")
    settings.JUDGEAPP_RATE_ANONYMOUS = 10**9
    counted = timed(lambda: api_limits.limit_lookup(request))
    settings.JUDGEAPP_RATE_ANONYMOUS = 0
    off = timed(lambda: api_limits.limit_lookup(request))
    store = caches["limits"]

    def add_then_incr() -> None:
        store.add("bench-two-trips", 0, timeout=61)
        store.incr("bench-two-trips")

    two_trips = timed(add_then_incr)
    store.clear()
    print(
        f"limit_lookup, counted in Redis ({REDIS}): median {counted[0]:.0f} us, "
        f"p95 {counted[1]:.0f} us"
    )
    print(f"limit_lookup, limit off: median {off[0]:.1f} us, p95 {off[1]:.1f} us")
    print(f"add then incr (before): median {two_trips[0]:.0f} us, p95 {two_trips[1]:.0f} us")
    return 0


if __name__ == "__main__":
    sys.exit(main())
