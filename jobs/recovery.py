"""Jobs whose worker died: noticed by their stopped heartbeat, then run again or failed.

A worker renews a running job's heartbeat every few seconds (jobs.running.heartbeat). When a job
has been `running` without a beat for JUDGEAPP_JOB_STALE_SECONDS, its worker was killed (out of
memory, a deploy, a crash): beat's `recover_stale_jobs` puts it back in the queue and sends it
again when it may be run again (every computation here is a pure, deterministic engine, so a second
run gives the same answer) and it has tries left, else fails it with a sentence the judge reads.
Without this the job would wait for the broker's visibility timeout (minutes), telling the client
nothing.
"""

from __future__ import annotations

import datetime as dt
import logging

from django.conf import settings
from django.db.models import Q
from django.utils import timezone

from jobs import dispatch
from jobs.computations import COMPUTATIONS
from jobs.models import Job
from jobs.running import MAX_CLAIMS

logger = logging.getLogger(__name__)


def stale_jobs(now: dt.datetime | None = None):
    """Running jobs whose heartbeat (or, before the first beat, start) is older than the limit."""
    now = now or timezone.now()
    before = now - dt.timedelta(seconds=settings.JUDGEAPP_JOB_STALE_SECONDS)
    return Job.objects.filter(status=Job.Status.RUNNING).filter(
        Q(heartbeat_at__lt=before) | Q(heartbeat_at__isnull=True, started_at__lt=before)
    )


def lost_worker_message(job: Job) -> str:
    kind = job.get_kind_display().lower()
    return (
        f"The worker running this {kind} stopped before it finished (tried {job.attempts} "
        f"time{'s' if job.attempts != 1 else ''}). Send the request again; if it fails again, ask "
        "the organiser to check the workers."
    )


def may_run_again(job: Job) -> bool:
    return job.kind in COMPUTATIONS and job.attempts < MAX_CLAIMS


def recover_stale_jobs(now: dt.datetime | None = None) -> tuple[int, int]:
    """Re-queue (and send) or fail every stale job: (re-queued, failed). Each change is conditional
    on the job still being the stale one, so a worker that beats or finishes meanwhile wins."""
    now = now or timezone.now()
    requeued = failed = 0
    for job in stale_jobs(now):
        same = Job.objects.filter(
            pk=job.pk, status=Job.Status.RUNNING, heartbeat_at=job.heartbeat_at
        )
        if may_run_again(job):
            if same.update(status=Job.Status.QUEUED, sent_at=None, worker=""):
                requeued += 1
                dispatch.send_job(job.pk)  # a broker that is down: the re-send takes it later
        elif same.update(status=Job.Status.FAILED, error=lost_worker_message(job), finished_at=now):
            failed += 1
    if requeued or failed:
        logger.warning("jobs whose worker died: %d queued again, %d failed", requeued, failed)
    return requeued, failed
