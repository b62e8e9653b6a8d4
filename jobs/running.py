"""What a worker does with a job: claim it (once, even when a message is delivered twice), run its
engine, store the result or the error. jobs.tasks calls these; nothing here enqueues."""

from __future__ import annotations

import contextlib
import json
import logging
import threading
import uuid
from collections.abc import Iterator

from django.conf import settings
from django.db import close_old_connections, connection
from django.db.models import F, Q
from django.utils import timezone

from jobs.computations import COMPUTATIONS, outcome_dict, resolve_citations
from jobs.models import Job

logger = logging.getLogger(__name__)
MAX_CLAIMS = 3  # a job redelivered after a worker died is run again, up to this many times


def claim_job(job_id: int, *, worker: str = "") -> Job | None:
    """Mark a job running; None when another delivery already finished it or it was tried too often.

    A RUNNING job can be claimed again: with acks_late, a message comes back only when the
    worker that held it died, and the engines are deterministic, so running it again is safe.
    """
    claimed = (
        Job.objects.filter(pk=job_id, attempts__lt=MAX_CLAIMS)
        .filter(Q(status=Job.Status.QUEUED) | Q(status=Job.Status.RUNNING))
        .update(
            status=Job.Status.RUNNING,
            started_at=timezone.now(),
            heartbeat_at=timezone.now(),
            attempts=F("attempts") + 1,
            worker=worker[:200],
        )
    )
    if not claimed:
        Job.objects.filter(
            pk=job_id, status__in=[Job.Status.QUEUED, Job.Status.RUNNING], attempts__gte=MAX_CLAIMS
        ).update(
            status=Job.Status.FAILED,
            error=f"gave up after {MAX_CLAIMS} attempts (workers died while running it)",
            finished_at=timezone.now(),
        )
        return None
    return Job.objects.get(pk=job_id)


def run_claimed_job(job: Job, *, passes: tuple[type[BaseException], ...] = ()) -> Job:
    """Run the engine for a claimed job and store its result or its error. The exceptions of
    `passes` are not errors of the service: raised for the caller to handle (the worker's time
    limit: the task fails the job saying so)."""
    try:
        computation = COMPUTATIONS[job.kind]()
        outcome = computation.run(computation.validate(job.input))
        result = resolve_citations(outcome_dict(outcome))
        json.dumps(result)  # a result the job's row cannot hold fails here, never after it
    except passes:
        raise
    except Exception as exc:
        # stored with the job: a failed job is never lost; the traceback goes to the log only
        field = getattr(exc, "field", None)
        # the engines' request errors name the field: input the engine refused
        if field is not None:
            return finish_job(
                job, error=f"the input was refused: {field}: {getattr(exc, 'message', exc)}"
            )
        reference = uuid.uuid4().hex[:12]
        logger.exception("job %s (%s) failed [error id %s]", job.public_id, job.kind, reference)
        return finish_job(job, error=failure_message(job.kind, reference))
    return finish_job(job, result=result)


def failure_message(kind: str, reference: str) -> str:
    """What a judge reads on a job that broke: no traceback, no server paths; the id finds it in
    the log."""
    return (
        f"The {kind.replace('-', ' ')} computation failed because of an error in the service, not "
        f"in what you entered. Ask the organiser to check the server log for error id {reference}."
    )


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


@contextlib.contextmanager
def heartbeat(job_id: int) -> Iterator[None]:
    """While the block runs, a thread renews the running job's heartbeat_at every
    JUDGEAPP_JOB_HEARTBEAT_SECONDS, on a database connection of its own. When the worker dies the
    beats stop, and jobs.recovery notices. Eager tasks (the embedded default) beat no thread: they
    run inside the request that waits for them."""
    every = settings.JUDGEAPP_JOB_HEARTBEAT_SECONDS
    if settings.CELERY_TASK_ALWAYS_EAGER or every <= 0:
        yield
        return
    done = threading.Event()

    def beat() -> None:
        try:
            while not done.wait(every):
                try:
                    Job.objects.filter(pk=job_id, status=Job.Status.RUNNING).update(
                        heartbeat_at=timezone.now()
                    )
                except Exception as exc:  # the database is away for a moment: beat again later
                    logger.warning("job %s: heartbeat not stored: %s", job_id, exc)
                    close_old_connections()
        finally:
            connection.close()

    thread = threading.Thread(target=beat, name=f"job-{job_id}-heartbeat", daemon=True)
    thread.start()
    try:
        yield
    finally:
        done.set()
        thread.join(every + 5)
