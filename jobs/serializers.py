"""Shapes of the jobs API's answers (docs/API.md "Computations")."""

from __future__ import annotations

from django.urls import reverse

from jobs.models import Job


def job_detail(job: Job, request=None) -> dict:
    url = reverse("api-job", args=[job.public_id])
    return {
        "id": str(job.public_id),
        "kind": job.kind,
        "status": job.status,
        "url": request.build_absolute_uri(url) if request is not None else url,
        "input": job.input,
        "result": job.result,
        "error": job.error or None,
        "attempts": job.attempts,
        "sent": job.sent_at is not None,
        "created_at": job.created_at.isoformat(),
        "started_at": job.started_at.isoformat() if job.started_at else None,
        "finished_at": job.finished_at.isoformat() if job.finished_at else None,
        "duration_ms": job.duration_ms,
    }
