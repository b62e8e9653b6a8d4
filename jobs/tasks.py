"""Celery tasks: thin wrappers that claim a job, run its engine and store the outcome;
the re-send."""

from __future__ import annotations

import socket

from celery import shared_task
from celery.exceptions import SoftTimeLimitExceeded

from jobs import dispatch, running


@shared_task(
    name="judgeapp.run_job", ignore_result=True, acks_late=True, reject_on_worker_lost=True
)
def run_job(job_id: int) -> None:
    job = running.claim_job(job_id, worker=socket.gethostname())
    if job is None:
        return
    try:
        running.run_claimed_job(job)
    except SoftTimeLimitExceeded:
        running.fail_job(job_id, "the computation took longer than its time limit and was stopped")


@shared_task(name="jobs.resend_unsent_jobs", ignore_result=True)
def resend_unsent_jobs() -> None:
    """Celery beat runs this every JUDGEAPP_RESEND_SECONDS: jobs left queued are sent again."""
    dispatch.resend_unsent_jobs()
