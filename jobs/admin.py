"""Jobs in the Django admin: a read-only list of computations with their status, timings
and error."""

from __future__ import annotations

from django.contrib import admin

from jobs.models import Job
from rulesref.admin import StaffOnlyAdmin


@admin.register(Job)
class JobAdmin(StaffOnlyAdmin):
    """Staff read jobs; workers write them. Nobody edits a job by hand."""

    list_display = (
        "id",
        "public_id",
        "kind",
        "status",
        "created_at",
        "sent_at",
        "started_at",
        "finished_at",
        "duration",
        "attempts",
        "worker",
        "owner",
        "error_line",
    )
    list_filter = ("status", "kind")
    list_select_related = ("owner",)
    search_fields = ("error", "worker")
    readonly_fields = (
        "public_id",
        "kind",
        "status",
        "sent_at",
        "input",
        "result",
        "error",
        "attempts",
        "worker",
        "created_at",
        "started_at",
        "finished_at",
        "owner",
    )

    @admin.display(description="duration")
    def duration(self, job: Job) -> str:
        ms = job.duration_ms
        return "—" if ms is None else f"{ms:.0f} ms"

    @admin.display(description="error")
    def error_line(self, job: Job) -> str:
        return job.error.splitlines()[0][:120] if job.error else ""
