"""Jobs whose worker died (issue 29 item 10): noticed by their stopped heartbeat, run again while
they have tries left, else failed with a sentence the judge reads when polling."""

from __future__ import annotations

import datetime as dt
import time

import pytest
from django.test import Client
from django.utils import timezone

from jobs import recovery, running
from jobs.models import Job

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("rules_loaded")]
GAME = {"format": "two_player", "players": [{"name": "A", "life": 0}, {"name": "B", "life": 5}]}


def running_job(*, beat_seconds_ago: float | None, attempts: int = 1, kind=Job.Kind.GAME_OUTCOME):
    now = timezone.now()
    return Job.objects.create(
        kind=kind,
        input=GAME,
        status=Job.Status.RUNNING,
        attempts=attempts,
        worker="w1@dead-host",
        sent_at=now - dt.timedelta(minutes=5),
        started_at=now - dt.timedelta(minutes=5),
        heartbeat_at=None
        if beat_seconds_ago is None
        else now - dt.timedelta(seconds=beat_seconds_ago),
    )


class StaleJobTests:
    def test_a_job_whose_heartbeat_stopped_runs_again(self, settings):
        settings.JUDGEAPP_JOB_STALE_SECONDS = 40
        stale = running_job(beat_seconds_ago=41)
        alive = running_job(beat_seconds_ago=10)
        assert recovery.recover_stale_jobs() == (1, 0)
        stale.refresh_from_db()
        # eager Celery: sent again, the job ran at once
        assert stale.status == Job.Status.SUCCEEDED and stale.attempts == 2
        assert stale.result["losers"] == ["A"]
        alive.refresh_from_db()
        assert alive.status == Job.Status.RUNNING and alive.attempts == 1

    def test_a_job_that_never_beat_is_judged_by_its_start(self, settings):
        settings.JUDGEAPP_JOB_STALE_SECONDS = 40
        job = running_job(beat_seconds_ago=None)
        assert recovery.stale_jobs().get() == job

    def test_after_its_last_try_the_client_reads_why_it_failed(self, settings):
        settings.JUDGEAPP_JOB_STALE_SECONDS = 40
        job = running_job(beat_seconds_ago=60, attempts=running.MAX_CLAIMS)
        assert recovery.recover_stale_jobs() == (0, 1)
        body = Client().get(f"/api/v1/jobs/{job.public_id}").json()
        assert body["status"] == "failed"
        assert "worker running this game outcome stopped" in body["error"]
        assert "Send the request again" in body["error"]

    def test_a_job_that_cannot_be_run_again_is_failed(self, settings):
        settings.JUDGEAPP_JOB_STALE_SECONDS = 40
        job = running_job(beat_seconds_ago=60, kind=Job.Kind.RULES_IMPORT)
        assert recovery.recover_stale_jobs() == (0, 1)
        job.refresh_from_db()
        assert job.status == Job.Status.FAILED and "stopped before it finished" in job.error


class HeartbeatTests:
    def test_a_running_job_beats_while_its_block_runs(self, settings):
        settings.CELERY_TASK_ALWAYS_EAGER = False  # as on a worker
        settings.JUDGEAPP_JOB_HEARTBEAT_SECONDS = 0.05
        job = running_job(beat_seconds_ago=120)
        with running.heartbeat(job.pk):
            time.sleep(0.5)
        job.refresh_from_db()
        assert timezone.now() - job.heartbeat_at < dt.timedelta(seconds=2)
        assert not recovery.stale_jobs().exists()
