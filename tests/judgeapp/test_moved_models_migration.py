"""Models that moved apps keep their rows: a database made before the move (Job, Event, EventJudge
and Call in the judgeapp app) migrates forward to jobs and calllog without losing one, on SQLite and
on PostgreSQL (`DATABASE_URL=postgres://… pytest tests/judgeapp/test_moved_models_migration.py`)."""

from __future__ import annotations

import datetime as dt
import uuid

import pytest
from django.utils import timezone

from tests.migrating import latest, migrate

# The last state before the move: judgeapp owned the four models; jobs and calllog had no migration.
BEFORE = [("judgeapp", "0002_call_log"), ("jobs", None), ("calllog", None)]


@pytest.mark.django_db(transaction=True)
class MovedModelsMigrationTests:
    def test_jobs_and_calls_made_before_the_move_are_found_after_it(self):
        old = migrate(BEFORE)
        assert not {"jobs", "calllog"} & {m._meta.app_label for m in old.get_models()}
        user = old.get_model("auth", "User").objects.create(username="hj", password="!")
        job = old.get_model("judgeapp", "Job").objects.create(
            kind="loop-outcome",
            input={"actions": 1},
            status="succeeded",
            result={"outcome": "draw"},
            owner=user,
        )
        event = old.get_model("judgeapp", "Event").objects.create(
            name="PTQ", date=dt.date(2026, 11, 21), head_judge=user
        )
        old.get_model("judgeapp", "EventJudge").objects.create(event=event, judge=user, role="head")
        client_id = uuid.uuid4()
        old.get_model("judgeapp", "Call").objects.create(
            event=event,
            judge=user,
            client_id=client_id,
            guide="shortcut-disputes",
            conclusion="x",
            penalty="Warning",
            answers=["a", "b"],
            citations=[{"ref": "cr@2025-02-07:729.4"}],
            created_at=timezone.now(),
        )

        new = migrate(latest())

        moved_job = new.get_model("jobs", "Job").objects.get(pk=job.pk)
        assert (moved_job.kind, moved_job.result, moved_job.owner_id) == (
            "loop-outcome",
            {"outcome": "draw"},
            user.pk,
        )
        moved_event = new.get_model("calllog", "Event").objects.get(pk=event.pk)
        assert list(moved_event.judges.values_list("username", flat=True)) == ["hj"]
        call = new.get_model("calllog", "Call").objects.get(client_id=client_id)
        assert (call.event_id, call.answers, call.penalty) == (event.pk, ["a", "b"], "Warning")

        # The app's own models read the same rows, and new rows continue the old tables' ids.
        from calllog.models import Call, Event
        from jobs.models import Job

        assert Job.objects.get(pk=job.pk).input == {"actions": 1}
        assert Event.objects.get(pk=event.pk).calls.get().client_id == client_id
        assert Job.objects.create(kind="game-outcome").pk > job.pk
        assert Call.objects.count() == 1

    def test_content_types_follow_the_models(self):
        from django.contrib.contenttypes.models import ContentType

        ContentType.objects.clear_cache()
        before = {m: ContentType.objects.get_for_model(m).pk for m in self._models()}
        migrate(BEFORE)
        labels = set(
            ContentType.objects.filter(pk__in=before.values()).values_list("app_label", flat=True)
        )
        assert labels == {"judgeapp"}
        migrate(latest())
        ContentType.objects.clear_cache()
        assert {m: ContentType.objects.get_for_model(m).pk for m in self._models()} == before

    @staticmethod
    def _models():
        from calllog.models import Call, Event, EventJudge
        from jobs.models import Job

        return (Job, Event, EventJudge, Call)
