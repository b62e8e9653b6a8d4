"""No lost job (issue 14): a job is committed first and sent after; a broker that is down leaves it
queued and unsent, and the re-send sends it once the broker is back. The broker outage is real: the
app points at a closed port, not at a mock."""

from __future__ import annotations

import datetime as dt
import time

import pytest
import redis
from django.utils import timezone
from rest_framework.test import APIClient

from jobs import dispatch, tasks
from jobs.models import Job
from tests.jobs.broker import (
    QUEUE_KEY,
    REDIS_URL,
    broker_at,
    closed_port_url,
    forget_keys,
    redis_or_skip,
)

pytestmark = pytest.mark.django_db
GAME = {"format": "two_player", "players": [{"name": "A", "life": 0}, {"name": "B", "life": 3}]}


def post_game(django_capture_on_commit_callbacks, path="/api/v1/jobs/game-outcome"):
    with django_capture_on_commit_callbacks(execute=True):
        return APIClient().post(path, GAME, format="json")


def age(job_id, seconds: int) -> None:
    Job.objects.filter(pk=job_id).update(created_at=timezone.now() - dt.timedelta(seconds=seconds))


class BrokerDownTests:
    def test_post_answers_202_json_and_the_job_stays_queued_unsent(
        self, settings, django_capture_on_commit_callbacks
    ):
        with broker_at(closed_port_url(), settings):
            started = time.monotonic()
            response = post_game(django_capture_on_commit_callbacks)
            elapsed = time.monotonic() - started
        assert response.status_code == 202, response.content
        assert response["Content-Type"] == "application/json"
        job = Job.objects.get(public_id=response.json()["id"])
        assert job.status == Job.Status.QUEUED and job.sent_at is None
        assert elapsed < 2.0, f"a down broker took {elapsed:.2f} s to notice"

    def test_wait_on_a_down_broker_answers_202_not_500(
        self, settings, django_capture_on_commit_callbacks
    ):
        with broker_at(closed_port_url(), settings):
            response = post_game(
                django_capture_on_commit_callbacks, "/api/v1/jobs/game-outcome?wait=0.2"
            )
        assert response.status_code == 202, response.content
        assert response.json()["status"] == "queued"

    def test_resend_while_the_broker_is_still_down_keeps_the_job(
        self, settings, django_capture_on_commit_callbacks
    ):
        with broker_at(closed_port_url(), settings):
            job_id = Job.objects.get(
                public_id=post_game(django_capture_on_commit_callbacks).json()["id"]
            ).pk
            age(job_id, 60)
            assert dispatch.resend_unsent_jobs() == (0, 1)
        assert Job.objects.get(pk=job_id).sent_at is None

    def test_resend_sends_every_job_left_queued_once_the_broker_is_back(
        self, settings, django_capture_on_commit_callbacks
    ):
        redis_or_skip()
        with broker_at(closed_port_url(), settings):
            ids = [
                Job.objects.get(
                    public_id=post_game(django_capture_on_commit_callbacks).json()["id"]
                ).pk
                for _ in range(5)
            ]
        for job_id in ids:
            age(job_id, 60)
        queue = redis.Redis.from_url(REDIS_URL)
        queue.delete(QUEUE_KEY)
        try:
            with broker_at(REDIS_URL, settings):
                tasks.resend_unsent_jobs()  # what beat runs
            assert queue.llen(QUEUE_KEY) == 5
        finally:
            forget_keys(queue)
        assert not Job.objects.filter(pk__in=ids, sent_at__isnull=True).exists()
        assert dispatch.jobs_to_resend().count() == 0


class ResendSelectionTests:
    def test_a_job_just_made_is_left_to_its_own_send(self):
        job = Job.objects.create(kind=Job.Kind.GAME_OUTCOME, input=GAME)
        assert job not in dispatch.jobs_to_resend()
        age(job.pk, 60)
        assert job in dispatch.jobs_to_resend()

    def test_a_job_sent_long_ago_and_never_started_is_sent_again(self, settings):
        job = Job.objects.create(kind=Job.Kind.GAME_OUTCOME, input=GAME, sent_at=timezone.now())
        assert job not in dispatch.jobs_to_resend()
        Job.objects.filter(pk=job.pk).update(
            sent_at=timezone.now()
            - dt.timedelta(seconds=settings.JUDGEAPP_RESEND_STALE_SECONDS + 1)
        )
        assert job in dispatch.jobs_to_resend()

    def test_running_and_finished_jobs_are_never_sent_again(self):
        for status in (Job.Status.RUNNING, Job.Status.SUCCEEDED, Job.Status.FAILED):
            job = Job.objects.create(kind=Job.Kind.GAME_OUTCOME, input=GAME, status=status)
            age(job.pk, 3600)
            assert job not in dispatch.jobs_to_resend()

    def test_beat_runs_the_resend_beside_the_daily_card_sync(self, settings):
        tasks_scheduled = {entry["task"] for entry in settings.CELERY_BEAT_SCHEDULE.values()}
        assert {"jobs.resend_unsent_jobs", "cards.sync_cards"} <= tasks_scheduled


class EagerDefaultTests:
    def test_without_a_broker_the_job_runs_in_process_and_counts_as_sent(
        self, django_capture_on_commit_callbacks
    ):
        response = post_game(django_capture_on_commit_callbacks)
        job = Job.objects.get(public_id=response.json()["id"])
        assert job.status == Job.Status.SUCCEEDED and job.sent_at is not None
