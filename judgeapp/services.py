"""Job services: validate a computation request, store it, enqueue it, claim it, finish it.

The only judge code that mixes models, transactions and engines. Views and tasks call these.
"""

from __future__ import annotations

import time
import traceback
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import F, Q
from django.utils import timezone

from judgeapp.models import Job
from rulesref import references

MAX_CLAIMS = 3  # a job redelivered after a worker died is run again, up to this many times


@dataclass(frozen=True)
class Computation:
    """How one kind of job is validated and run: both pure engine calls."""

    validate: Callable[[Mapping[str, Any]], Any]
    run: Callable[[Any], Any]


def _loop() -> Computation:
    from judgeapp.engines import loops

    return Computation(loops.validate_loop_request, lambda req: loops.resolve_loop(req, max_steps=settings.JUDGEAPP_LOOP_MAX_STEPS))


def _game() -> Computation:
    from judgeapp.engines import games

    return Computation(games.validate_game_request, games.decide_game)


def _shuffle() -> Computation:
    from judgeapp.engines import shuffles

    return Computation(
        shuffles.validate_shuffle_request,
        lambda req: shuffles.analyse_shuffle(
            req, max_samples=settings.JUDGEAPP_SHUFFLE_MAX_SAMPLES, threshold=settings.JUDGEAPP_SHUFFLE_THRESHOLD
        ),
    )


COMPUTATIONS: dict[str, Callable[[], Computation]] = {
    Job.Kind.LOOP_OUTCOME: _loop,
    Job.Kind.GAME_OUTCOME: _game,
    Job.Kind.SHUFFLE_ANALYSIS: _shuffle,
}


class InvalidRequest(Exception):
    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message


def validate_request(kind: str, payload: Any) -> Any:
    """The engine's typed request, or InvalidRequest naming the field. Nothing is stored."""
    if kind not in COMPUTATIONS:
        raise InvalidRequest("kind", f"unknown computation {kind!r}")
    if not isinstance(payload, Mapping):
        raise InvalidRequest("body", "the request body must be a JSON object")
    try:
        return COMPUTATIONS[kind]().validate(payload)
    except ValueError as exc:
        # The engines' request errors (RequestError, ShuffleRequestError) carry the field they name.
        field = getattr(exc, "field", None)
        if field is None:
            raise
        raise InvalidRequest(field, getattr(exc, "message", str(exc))) from None


def start_job(kind: str, payload: Mapping[str, Any], *, owner=None) -> Job:
    """Validate, store and enqueue a computation (the task is sent when the transaction commits)."""
    from judgeapp import tasks

    validate_request(kind, payload)
    user = owner if owner is not None and getattr(owner, "is_authenticated", False) else None
    with transaction.atomic():
        job = Job.objects.create(kind=kind, input=dict(payload), owner=user)
        tasks.run_job.delay_on_commit(job.pk)
    return job


def claim_job(job_id: int, *, worker: str = "") -> Job | None:
    """Mark a job running; None when another delivery already finished it or it was tried too often.

    A RUNNING job can be claimed again: with acks_late, a message comes back only when the
    worker that held it died, and the engines are deterministic, so running it again is safe.
    """
    claimed = (
        Job.objects.filter(pk=job_id, attempts__lt=MAX_CLAIMS)
        .filter(Q(status=Job.Status.QUEUED) | Q(status=Job.Status.RUNNING))
        .update(status=Job.Status.RUNNING, started_at=timezone.now(), attempts=F("attempts") + 1, worker=worker[:200])
    )
    if not claimed:
        Job.objects.filter(pk=job_id, status__in=[Job.Status.QUEUED, Job.Status.RUNNING], attempts__gte=MAX_CLAIMS).update(
            status=Job.Status.FAILED, error=f"gave up after {MAX_CLAIMS} attempts (workers died while running it)",
            finished_at=timezone.now(),
        )
        return None
    return Job.objects.get(pk=job_id)


def run_claimed_job(job: Job) -> Job:
    """Run the engine for a claimed job and store its result or its error."""
    try:
        computation = COMPUTATIONS[job.kind]()
        outcome = computation.run(computation.validate(job.input))
        result = resolve_citations(outcome_dict(outcome))
    except Exception as exc:  # stored with the job: a failed job is never lost
        return finish_job(job, error=f"{exc.__class__.__name__}: {exc}\n{traceback.format_exc(limit=5)}")
    return finish_job(job, result=result)


def outcome_dict(outcome: Any) -> dict:
    """An engine outcome as JSON-ready data (engines name the method to_dict or as_result)."""
    convert = getattr(outcome, "to_dict", None) or outcome.as_result
    return convert()


def finish_job(job: Job, *, result: dict | None = None, error: str = "") -> Job:
    status = Job.Status.FAILED if error else Job.Status.SUCCEEDED
    Job.objects.filter(pk=job.pk, status=Job.Status.RUNNING).update(
        status=status, result=result, error=error, finished_at=timezone.now()
    )
    job.refresh_from_db()
    return job


def fail_job(job_id: int, error: str) -> None:
    Job.objects.filter(pk=job_id, status__in=[Job.Status.QUEUED, Job.Status.RUNNING]).update(
        status=Job.Status.FAILED, error=error, finished_at=timezone.now()
    )


def resolve_citations(result: dict) -> dict:
    """Replace the engine's pinned references with citations in the current versions' numbering."""
    refs = [c for c in result.get("citations", []) if isinstance(c, str)]
    result["citations"] = references.citations(refs)
    return result


def wait_for(job: Job, seconds: float) -> Job:
    """Poll the job row until it is finished or the time is up (API ?wait=N): every 5 ms for the
    first second (most jobs finish in tens of milliseconds), then every 50 ms."""
    start = time.monotonic()
    deadline = start + seconds
    while job.status in (Job.Status.QUEUED, Job.Status.RUNNING) and time.monotonic() < deadline:
        time.sleep(0.005 if time.monotonic() - start < 1 else 0.05)
        job.refresh_from_db(fields=["status", "result", "error", "started_at", "finished_at", "attempts", "worker"])
    return job


def check_shuffle(facts: Any) -> dict:
    """The judge's shuffle check (engines.shuffle_check) with citations resolved."""
    from judgeapp.engines import shuffle_check

    if not isinstance(facts, Mapping):
        raise InvalidRequest("body", "the request body must be a JSON object")
    try:
        parsed = shuffle_check.validate_shuffle_facts(facts)
    except ValueError as exc:
        raise InvalidRequest(getattr(exc, "field", "body"), getattr(exc, "message", str(exc))) from None
    ruling = shuffle_check.check_shuffle(parsed, threshold=settings.JUDGEAPP_SHUFFLE_THRESHOLD)
    return resolve_citations(outcome_dict(ruling))


def pattern_p_value(deck_size: int, pattern: str, lands: int) -> float:
    """The exact p-value of a land/spell pattern seen at the top of a deck (cheap: no Monte Carlo)."""
    from judgeapp.engines import shuffles

    try:
        request = shuffles.validate_shuffle_request(
            {"deck_size": deck_size, "procedure": [], "observed": {"pattern": pattern, "lands": lands}})
    except ValueError as exc:
        raise InvalidRequest(getattr(exc, "field", "observed"), getattr(exc, "message", str(exc))) from None
    return float(shuffles.pattern_p_value_exact(deck_size, lands, request.observed.pattern))
