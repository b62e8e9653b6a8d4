"""A failed job says what a judge can read; the traceback goes to the log (issue 14). Job ids
are random."""

from __future__ import annotations

import logging
import uuid

import pytest
from rest_framework.test import APIClient

from jobs import computations, running, services
from jobs.models import Job

pytestmark = pytest.mark.django_db
GAME = {"format": "two_player", "players": [{"name": "A", "life": 0}, {"name": "B", "life": 3}]}


class FailedJobTests:
    def test_an_engine_crash_stores_a_readable_message_and_logs_the_traceback(
        self, monkeypatch, caplog
    ):
        job = Job.objects.create(kind=Job.Kind.GAME_OUTCOME, input=GAME, status=Job.Status.RUNNING)

        class Broken:
            def validate(self, payload):
                return payload

            def run(self, request):
                raise KeyError("/srv/app/engines/games/decision.py")

        monkeypatch.setitem(computations.COMPUTATIONS, Job.Kind.GAME_OUTCOME, Broken)
        with caplog.at_level(logging.ERROR, logger="jobs.running"):
            job = running.run_claimed_job(job)
        assert job.status == Job.Status.FAILED
        assert (
            "Traceback" not in job.error
            and "/srv/" not in job.error
            and "KeyError" not in job.error
        )
        assert "error id" in job.error
        reference = job.error.rsplit("error id ", 1)[1].rstrip(".")
        logged = "\n".join(r.getMessage() + (r.exc_text or "") for r in caplog.records)
        assert reference in logged
        assert any(r.exc_info for r in caplog.records), "the traceback goes to the log"

    def test_a_result_the_row_cannot_hold_fails_the_job_instead_of_leaving_it_running(
        self, monkeypatch
    ):
        job = Job.objects.create(kind=Job.Kind.GAME_OUTCOME, input=GAME, status=Job.Status.RUNNING)

        class Huge:
            def validate(self, payload):
                return payload

            def run(self, request):
                class Outcome:
                    def to_dict(self):
                        return {"citations": [], "count": 10**5000}  # past 4,300 digits

                return Outcome()

        monkeypatch.setitem(computations.COMPUTATIONS, Job.Kind.GAME_OUTCOME, Huge)
        job = running.run_claimed_job(job)
        assert job.status == Job.Status.FAILED and "error id" in job.error
        assert job.result is None


class JobIdTests:
    def test_the_id_clients_see_is_a_uuid_and_integer_ids_do_not_resolve(
        self, django_capture_on_commit_callbacks
    ):
        api = APIClient()
        with django_capture_on_commit_callbacks(execute=True):
            body = api.post("/api/v1/jobs/game-outcome", GAME, format="json").json()
        uuid.UUID(body["id"])
        job = Job.objects.get(public_id=body["id"])
        assert api.get(f"/api/v1/jobs/{body['id']}").status_code == 200
        response = api.get(f"/api/v1/jobs/{job.pk}")
        assert response.status_code == 404
        assert api.get(f"/api/v1/jobs/{uuid.uuid4()}").json()["error"]["code"] == "not_found"


class WaitCapTests:
    def test_over_the_cap_a_wait_answers_at_once(self, settings):
        settings.JUDGEAPP_MAX_WAITS = 1
        services.forget_wait_slots()
        job = Job.objects.create(kind=Job.Kind.GAME_OUTCOME, input=GAME)
        slots = services._slots()
        assert slots.acquire(blocking=False)  # one request is already waiting
        try:
            import time

            started = time.monotonic()
            services.wait_for(job, 5)
            assert time.monotonic() - started < 0.5
        finally:
            slots.release()
            services.forget_wait_slots()

    def test_with_a_free_slot_the_wait_polls_until_the_deadline(self, settings):
        import time

        settings.JUDGEAPP_MAX_WAITS = 1
        services.forget_wait_slots()
        job = Job.objects.create(kind=Job.Kind.GAME_OUTCOME, input=GAME)
        started = time.monotonic()
        services.wait_for(job, 0.3)
        assert time.monotonic() - started >= 0.3
        services.forget_wait_slots()


class DatabaseAwayTests:
    def test_a_job_the_worker_cannot_claim_for_a_database_error_is_tried_again_not_dropped(
        self, monkeypatch
    ):
        """Issue 29: with PostgreSQL stalled, claiming raises OperationalError; the task used to
        fail (and be acknowledged), leaving the job queued for 15 minutes. It retries instead."""
        from celery.exceptions import Retry
        from django.db import OperationalError

        from jobs import tasks

        job = Job.objects.create(kind=Job.Kind.GAME_OUTCOME, input=GAME)
        real_claim = running.claim_job
        calls = []

        def claim_while_the_database_comes_back(job_id, **kwargs):
            calls.append(job_id)
            if len(calls) == 1:
                raise OperationalError("database unavailable (connect failed: ConnectionTimeout)")
            return real_claim(job_id, **kwargs)

        monkeypatch.setattr(running, "claim_job", claim_while_the_database_comes_back)
        retried = []

        def retry(**kwargs):  # the worker runs the task again after the countdown
            retried.append(kwargs)
            tasks.run_job(job.pk)
            return Retry()

        monkeypatch.setattr(tasks.run_job, "retry", retry)
        with pytest.raises(Retry):
            tasks.run_job(job.pk)
        assert len(calls) == 2 and retried[0]["countdown"] == tasks.CLAIM_RETRY_SECONDS
        job.refresh_from_db()
        assert job.status == Job.Status.SUCCEEDED, (job.status, job.error)


class TimeLimitTests:
    def test_a_job_stopped_at_its_time_limit_says_so_and_logs_no_error(self, monkeypatch, caplog):
        """Ops audit 10: a job the worker's soft time limit stopped read "an error in the service"
        and was logged as an error with a traceback; the task's own message never ran."""
        from celery.exceptions import SoftTimeLimitExceeded

        from jobs import tasks

        job = Job.objects.create(kind=Job.Kind.GAME_OUTCOME, input=GAME, status=Job.Status.QUEUED)

        class Slow:
            def validate(self, payload):
                return payload

            def run(self, request):
                raise SoftTimeLimitExceeded()

        monkeypatch.setitem(computations.COMPUTATIONS, Job.Kind.GAME_OUTCOME, Slow)
        with caplog.at_level(logging.WARNING):
            tasks.run_job.apply(args=[job.pk])
        job.refresh_from_db()
        assert job.status == Job.Status.FAILED
        assert job.error == "the computation took longer than its time limit and was stopped"
        assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
