"""Sending jobs to the broker. The job row is the truth: a job is committed first and sent after the
commit; when the broker is down the row stays `queued` with no `sent_at`, and the periodic re-send
(`resend_unsent_jobs`, run by Celery beat) sends it once the broker is back. No job is ever lost.
"""

from __future__ import annotations

import datetime as dt
import logging
from functools import partial

from django.conf import settings
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from kombu.exceptions import OperationalError

from jobs.models import Job

logger = logging.getLogger(__name__)
# What a broker that is down or unreachable raises while publishing (kombu wraps most into
# OperationalError; a refused or reset socket can surface as OSError).
BROKER_ERRORS = (OperationalError, OSError, TimeoutError)
RUN_JOB = "judgeapp.run_job"  # jobs.tasks.run_job


def send_job(job_id: int) -> bool:
    """Publish one job's message now; True when the broker took it. A broker error is logged and
    leaves the job queued and unsent for the re-send."""
    from celery import current_app

    # Looked up by its registered name: jobs.tasks imports this module (the re-send task), not
    # the reverse.
    run_job = current_app.tasks[RUN_JOB]
    try:
        run_job.apply_async(args=[job_id], retry=False)
    except BROKER_ERRORS as exc:
        logger.warning(
            "job %s not sent (broker: %s: %s); it stays queued and is sent again later",
            job_id,
            exc.__class__.__name__,
            exc,
        )
        return False
    Job.objects.filter(pk=job_id).update(sent_at=timezone.now())
    return True


def send_on_commit(job_id: int) -> None:
    """Send the job when the surrounding transaction commits (at once outside one)."""
    transaction.on_commit(partial(send_job, job_id))


def jobs_to_resend(now: dt.datetime | None = None):
    """Queued jobs never sent (older than a grace period, so a send about to happen is not doubled),
    and queued jobs sent so long ago that their message must have been lost (a broker restarted
    without persistence)."""
    now = now or timezone.now()
    unsent_before = now - dt.timedelta(seconds=settings.JUDGEAPP_RESEND_GRACE_SECONDS)
    stale_before = now - dt.timedelta(seconds=settings.JUDGEAPP_RESEND_STALE_SECONDS)
    return (
        Job.objects.filter(status=Job.Status.QUEUED)
        .filter(Q(sent_at__isnull=True, created_at__lt=unsent_before) | Q(sent_at__lt=stale_before))
        .order_by("created_at")
    )


def resend_unsent_jobs(*, limit: int = 500) -> tuple[int, int]:
    """Send again what `jobs_to_resend` finds: (sent, still unsent). Stops at the first
    broker error."""
    ids = list(jobs_to_resend().values_list("pk", flat=True)[:limit])
    sent = 0
    for job_id in ids:
        if not send_job(job_id):
            break
        sent += 1
    if ids:
        logger.warning("re-sent %d of %d queued jobs", sent, len(ids))
    return sent, len(ids) - sent
