"""Celery tasks: thin wrappers that claim a job, run its engine and store the outcome."""

from __future__ import annotations

import socket

from celery import shared_task
from celery.exceptions import SoftTimeLimitExceeded

from jobs import running


@shared_task(name="judgeapp.run_job", ignore_result=True, acks_late=True, reject_on_worker_lost=True)
def run_job(job_id: int) -> None:
    job = running.claim_job(job_id, worker=socket.gethostname())
    if job is None:
        return
    try:
        running.run_claimed_job(job)
    except SoftTimeLimitExceeded:
        running.fail_job(job_id, "the computation took longer than its time limit and was stopped")
