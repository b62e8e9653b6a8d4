"""Celery tasks: thin wrappers that claim a job, run its engine (beating its heartbeat) and store
the outcome; the re-send; the recovery of jobs whose worker died."""

from __future__ import annotations

import socket

from celery import shared_task
from celery.exceptions import SoftTimeLimitExceeded
from django.db import InterfaceError, OperationalError

from jobs import dispatch, recovery, running

# A worker that cannot reach the database to claim a job tries again this many seconds later.
CLAIM_RETRY_SECONDS = 5


@shared_task(
    bind=True,
    name="judgeapp.run_job",
    ignore_result=True,
    acks_late=True,
    reject_on_worker_lost=True,
    max_retries=None,
)
def run_job(self, job_id: int) -> None:
    try:
        job = running.claim_job(job_id, worker=socket.gethostname())
    except (OperationalError, InterfaceError) as exc:
        # The database is away (down, stalled: judgeapp.db_guard): the job is still queued, and a
        # failed task would be acknowledged and forgotten until the re-send's stale limit (15 min).
        # Try again later, for as long as it is away (issue 29: no job lost to a stall).
        raise self.retry(exc=exc, countdown=CLAIM_RETRY_SECONDS) from exc
    if job is None:
        return
    try:
        with running.heartbeat(job_id):
            running.run_claimed_job(job, passes=(SoftTimeLimitExceeded,))
    except SoftTimeLimitExceeded:
        running.fail_job(job_id, "the computation took longer than its time limit and was stopped")


@shared_task(name="jobs.resend_unsent_jobs", ignore_result=True)
def resend_unsent_jobs() -> None:
    """Celery beat runs this every JUDGEAPP_RESEND_SECONDS: jobs left queued are sent again."""
    dispatch.resend_unsent_jobs()


@shared_task(name="jobs.recover_stale_jobs", ignore_result=True)
def recover_stale_jobs() -> None:
    """Celery beat runs this every JUDGEAPP_STALE_CHECK_SECONDS: running jobs whose worker died are
    run again or failed with a message."""
    recovery.recover_stale_jobs()
