"""Job services: validate a computation request, store it, enqueue it, wait for it; the
shuffle check.

Views call these. What a worker does with a job is jobs.running (tasks call it), the kinds of
computation are jobs.computations; their public names are importable from here too.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Mapping
from typing import Any, cast

from django.conf import settings
from django.db import transaction

from jobs import dispatch
from jobs.computations import (  # noqa: F401  (re-exported: callers import them from here)
    COMPUTATIONS,
    Computation,
    InvalidRequest,
    SignInRequired,
    anonymous_cost_refusal,
    outcome_dict,
    resolve_citations,
    validate_request,
)
from jobs.models import Job
from jobs.running import MAX_CLAIMS, claim_job, fail_job, finish_job, run_claimed_job  # noqa: F401  (re-exported)


def start_job(kind: str, payload: Mapping[str, Any], *, owner=None) -> Job:
    """Validate, store and enqueue a computation. The row is committed first and its message sent
    after the commit (jobs.dispatch): when the broker is down the job stays queued and is
    re-sent later. Without a signed-in owner, a request over the anonymous cost caps raises
    SignInRequired and nothing is stored."""
    parsed = validate_request(kind, payload)
    user = owner if owner is not None and getattr(owner, "is_authenticated", False) else None
    if user is None:
        refusal = anonymous_cost_refusal(kind, parsed)
        if refusal is not None:
            raise refusal
    with transaction.atomic():
        job = Job.objects.create(kind=kind, input=dict(payload), owner=user)
        dispatch.send_on_commit(job.pk)
    return job


_wait_slots: threading.BoundedSemaphore | None = None
_wait_slots_lock = threading.Lock()


def _slots() -> threading.BoundedSemaphore | None:
    global _wait_slots
    with _wait_slots_lock:
        if _wait_slots is None:
            limit = settings.JUDGEAPP_MAX_WAITS
            _wait_slots = threading.BoundedSemaphore(limit) if limit > 0 else None
        return _wait_slots


def wait_for(job: Job, seconds: float) -> Job:
    """Poll the job row until it is finished or the time is up (API ?wait=N): every 5 ms for the
    first second (most jobs finish in tens of milliseconds), then every 50 ms.

    At most JUDGEAPP_MAX_WAITS requests of one process wait at a time; the others answer at once
    (202, the client polls), so waiting requests never take every thread of a web worker and the
    health check and other requests are still served."""
    slots = _slots()
    if slots is None or not slots.acquire(blocking=False):
        job.refresh_from_db()
        return job
    try:
        start = time.monotonic()
        deadline = start + seconds
        while job.status in (Job.Status.QUEUED, Job.Status.RUNNING) and time.monotonic() < deadline:
            time.sleep(0.005 if time.monotonic() - start < 1 else 0.05)
            job.refresh_from_db(
                fields=[
                    "status",
                    "result",
                    "error",
                    "sent_at",
                    "started_at",
                    "finished_at",
                    "attempts",
                    "worker",
                ]
            )
    finally:
        slots.release()
    return job


def forget_wait_slots() -> None:
    """Tests: the next wait builds the slots again from the settings."""
    global _wait_slots
    with _wait_slots_lock:
        _wait_slots = None


def check_shuffle(facts: Any) -> dict:
    """The judge's shuffle check (engines.shuffle_check) with citations resolved."""
    from engines import shuffle_check

    if not isinstance(facts, Mapping):
        raise InvalidRequest("body", "the request body must be a JSON object")
    try:
        parsed = shuffle_check.validate_shuffle_facts(facts)
    except ValueError as exc:
        raise InvalidRequest(
            getattr(exc, "field", "body"), getattr(exc, "message", str(exc))
        ) from None
    ruling = shuffle_check.check_shuffle(parsed, threshold=settings.JUDGEAPP_SHUFFLE_THRESHOLD)
    return resolve_citations(outcome_dict(ruling))


def pattern_finding(deck_size: int, pattern: str, lands: int) -> dict:
    """The exact test of a pattern seen at the top of a deck in both directions (too even, too
    clumped), as the ``analysis`` a shuffle check reads: {"pattern_p_value", "pattern_direction"}
    (cheap: no Monte Carlo)."""
    from engines import shuffles

    try:
        request = shuffles.validate_shuffle_request(
            {
                "deck_size": deck_size,
                "procedure": [],
                "observed": {"pattern": pattern, "lands": lands},
            }
        )
    except ValueError as exc:
        raise InvalidRequest(
            getattr(exc, "field", "observed"), getattr(exc, "message", str(exc))
        ) from None
    p_value, direction, _ = shuffles.pattern_finding(
        deck_size, lands, cast(shuffles.ObservedPattern, request.observed).pattern
    )
    return {
        "pattern_p_value": float(p_value),
        "pattern_direction": None if direction is None else direction.value,
    }
