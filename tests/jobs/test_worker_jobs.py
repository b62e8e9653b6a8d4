"""Jobs on the real stack: PostgreSQL, Redis and a real Celery worker process (`make
test-stack`)."""

from __future__ import annotations

import time

import pytest
from rest_framework.test import APIClient

from jobs.models import Job
from tests.jobs.worker import WorkerProcess, purge_queue, real_stack_or_skip

pytestmark = [
    pytest.mark.worker,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("rules_loaded"),
]
SHUFFLE = {"deck_size": 60, "procedure": [{"method": "riffle", "times": 7}]}
# A perfectly weaved 60-card deck: its pattern is so unlikely that the Monte Carlo check runs to its
# sample cap, which the slow worker below raises so that the job takes seconds.
SLOW_SHUFFLE = {
    "deck_size": 60,
    "procedure": [{"method": "riffle", "times": 2}],
    "observed": {"pattern": "LS" * 30, "lands": 30},
}


@pytest.fixture
def worker():
    real_stack_or_skip()
    purge_queue()
    process = WorkerProcess().start()
    yield process
    process.stop()


def wait_until(predicate, seconds: float, what: str):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")


class RealWorkerTests:
    def test_a_worker_process_runs_the_job(self, worker):
        response = APIClient().post("/api/v1/jobs/shuffle-analysis?wait=20", SHUFFLE, format="json")
        assert response.status_code == 200, response.content
        body = response.json()
        assert body["status"] == "succeeded", worker.output()[-2000:]
        assert body["result"]["riffles_needed"] >= 7
        job = Job.objects.get(public_id=body["id"])
        assert job.worker, "the worker process records its host name when it claims the job"

    def test_game_and_loop_jobs_run_on_the_worker(self, worker):
        client = APIClient()
        game = {
            "format": "two_player",
            "players": [{"name": "A", "life": 0}, {"name": "B", "life": 5}],
        }
        body = client.post("/api/v1/jobs/game-outcome?wait=20", game, format="json").json()
        assert body["status"] == "succeeded", body
        assert body["result"]["losers"] == ["A"] and body["result"]["winners"] == ["B"]


@pytest.fixture
def slow_worker_env():
    return {
        "JUDGEAPP_SHUFFLE_MAX_SAMPLES": "400000000",
        "JUDGEAPP_VISIBILITY_TIMEOUT": "3",
        "JUDGEAPP_RESTORE_INTERVAL": "1",
    }


class WorkerDeathTests:
    def test_a_job_survives_its_worker_being_killed(self, slow_worker_env):
        """acks_late: the message is acknowledged only after the job is stored, so a worker killed
        mid-job leaves it on the broker, and the next worker runs it to the end."""
        real_stack_or_skip()
        purge_queue()
        first = WorkerProcess(env=slow_worker_env, name="doomed").start()
        try:
            job_id = Job.objects.get(
                public_id=APIClient()
                .post("/api/v1/jobs/shuffle-analysis", SLOW_SHUFFLE, format="json")
                .json()["id"]
            ).pk
            wait_until(
                lambda: Job.objects.get(pk=job_id).status == Job.Status.RUNNING,
                20,
                "the job to start",
            )
            first.kill_hard()
        finally:
            first.stop()
        assert Job.objects.get(pk=job_id).status == Job.Status.RUNNING  # nobody finished it
        second = WorkerProcess(
            env={**slow_worker_env, "JUDGEAPP_SHUFFLE_MAX_SAMPLES": "200000"}, name="heir"
        ).start()
        try:
            job = wait_until(
                lambda: Job.objects.filter(
                    pk=job_id, status__in=[Job.Status.SUCCEEDED, Job.Status.FAILED]
                ).first(),
                60,
                "the second worker to finish the job",
            )
        finally:
            second.stop()
        assert job.status == Job.Status.SUCCEEDED, job.error
        assert job.attempts == 2
        assert job.result["pattern_p_value"] < 1e-6


class LostWorkerTests:
    def test_a_job_whose_worker_was_killed_runs_again_once_its_heartbeat_stops(self, settings):
        """No waiting for the broker's visibility timeout (minutes): the killed worker's job
        stops beating, the recovery (beat runs it every 15 s) queues it again, another worker
        runs it."""
        from jobs import recovery

        real_stack_or_skip()
        purge_queue()
        env = {
            "JUDGEAPP_SHUFFLE_MAX_SAMPLES": "400000000",
            "JUDGEAPP_JOB_HEARTBEAT_SECONDS": "0.5",
            "JUDGEAPP_VISIBILITY_TIMEOUT": "600",  # the broker would hand it back only much later
        }
        settings.JUDGEAPP_JOB_STALE_SECONDS = 3
        first = WorkerProcess(env=env, name="beating").start()
        try:
            job_id = Job.objects.get(
                public_id=APIClient()
                .post("/api/v1/jobs/shuffle-analysis", SLOW_SHUFFLE, format="json")
                .json()["id"]
            ).pk
            started = wait_until(
                lambda: Job.objects.filter(pk=job_id, status=Job.Status.RUNNING).first(),
                20,
                "the job to start",
            )
            wait_until(
                lambda: Job.objects.get(pk=job_id).heartbeat_at > started.heartbeat_at,
                10,
                "the worker to beat the job's heartbeat",
            )
            first.kill_hard()
        finally:
            first.stop()
        killed = time.monotonic()
        assert not recovery.stale_jobs().exists()  # it beat a moment ago
        second = WorkerProcess(
            env={**env, "JUDGEAPP_SHUFFLE_MAX_SAMPLES": "200000"}, name="recovering"
        ).start()
        try:

            def beat_once():
                recovery.recover_stale_jobs()
                return Job.objects.filter(pk=job_id, status=Job.Status.SUCCEEDED).first()

            job = wait_until(beat_once, 60, "the job to be recovered and run again")
        finally:
            second.stop()
        assert time.monotonic() - killed < 60
        assert job.attempts == 2 and job.result["pattern_p_value"] < 1e-6
        body = APIClient().get(f"/api/v1/jobs/{job.public_id}").json()
        assert body["status"] == "succeeded" and body["attempts"] == 2


class BrokerOutageTests:
    def test_jobs_posted_while_the_broker_is_down_run_once_beat_re_sends_them(
        self, worker, settings
    ):
        """The lost-job case of issue 14 end to end: POSTs while the broker is unreachable answer
        202 and leave the jobs queued and unsent; the re-send (what beat runs) hands them to
        the worker."""
        import datetime as dt

        from django.utils import timezone

        from jobs import tasks
        from tests.jobs.broker import broker_at, closed_port_url

        game = {
            "format": "two_player",
            "players": [{"name": "A", "life": 0}, {"name": "B", "life": 5}],
        }
        with broker_at(closed_port_url(), settings):
            answers = [
                APIClient().post("/api/v1/jobs/game-outcome", game, format="json") for _ in range(5)
            ]
        assert [a.status_code for a in answers] == [202] * 5
        ids = [a.json()["id"] for a in answers]
        assert (
            Job.objects.filter(
                public_id__in=ids, status=Job.Status.QUEUED, sent_at__isnull=True
            ).count()
            == 5
        )
        Job.objects.filter(public_id__in=ids).update(
            created_at=timezone.now() - dt.timedelta(minutes=1)
        )
        tasks.resend_unsent_jobs()
        wait_until(
            lambda: Job.objects.filter(public_id__in=ids, status=Job.Status.SUCCEEDED).count() == 5,
            30,
            "the re-sent jobs to run",
        )
