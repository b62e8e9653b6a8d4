"""calllog 0003 (issue 27): calls stored before it get their penalties written the one way and their
computed_penalty (what the server stored then: the penalty before any hand edit), on SQLite and on
PostgreSQL (`DATABASE_URL=postgres://… pytest tests/calllog/test_penalty_migration.py`)."""

from __future__ import annotations

import datetime as dt
import uuid

import pytest
from django.utils import timezone

from tests.migrating import latest, migrate

BEFORE = [("calllog", "0002_call_log_players_revisions")]
AFTER = [("calllog", "0003_announced_and_computed_penalties")]


@pytest.mark.django_db(transaction=True)
class PenaltyMigrationTests:
    def test_earlier_calls_are_written_one_way_and_keep_what_was_computed(self):
        old = migrate(BEFORE)
        user = old.get_model("auth", "User").objects.create(username="hj", password="!")
        event = old.get_model("calllog", "Event").objects.create(
            name="PTQ", date=dt.date(2026, 11, 21), head_judge=user
        )
        Call = old.get_model("calllog", "Call")
        make = lambda **fields: Call.objects.create(  # noqa: E731
            event=event,
            judge=user,
            client_id=uuid.uuid4(),
            guide="shuffle-infractions",
            conclusion="x",
            infraction="Insufficient Shuffling",
            created_at=timezone.now(),
            **fields,
        )
        bracketed = make(
            base_penalty="Warning (Tournament Error - Insufficient Shuffling)",
            penalty="Warning (Tournament Error - Insufficient Shuffling)",
        )
        upgraded = make(
            base_penalty="Warning (Tournament Error - Insufficient Shuffling)",
            penalty="Game Loss",
            upgraded=True,
        )
        edited = make(base_penalty="Warning", penalty="No penalty")
        old.get_model("calllog", "CallRevision").objects.create(
            call=edited, editor=user, changes={"penalty": ["Game Loss", "No penalty"]}
        )
        jar = make(base_penalty="None: educate the player", penalty="None: educate the player")

        new = migrate(AFTER)

        rows = {c.pk: c for c in new.get_model("calllog", "Call").objects.all()}
        got = lambda c: (rows[c.pk].base_penalty, rows[c.pk].penalty, rows[c.pk].computed_penalty)  # noqa: E731
        assert got(bracketed) == ("Warning", "Warning", "Warning")
        assert got(upgraded) == ("Warning", "Game Loss", "Game Loss")
        assert got(edited) == ("Warning", "No penalty", "Game Loss")
        assert got(jar) == ("None: educate the player",) * 3
        assert not any(r.needs_review or r.announced_penalty for r in rows.values())
        # every app at its latest again
        migrate(latest())


@pytest.mark.django_db(transaction=True)
class UnsportingConductNameMigrationTests:
    def test_guide_calls_of_unsporting_conduct_are_named_as_the_ipg_titles_them(self):
        old = migrate(AFTER)
        user = old.get_model("auth", "User").objects.create(username="hj", password="!")
        event = old.get_model("calllog", "Event").objects.create(
            name="PTQ", date=dt.date(2026, 11, 21), head_judge=user
        )
        Call = old.get_model("calllog", "Call")

        def make(infraction: str, category: str):
            return Call.objects.create(
                event=event,
                judge=user,
                client_id=uuid.uuid4(),
                guide="infraction-finder",
                conclusion="x",
                infraction=infraction,
                category=category,
                created_at=timezone.now(),
            )

        short = make("Minor", "unsporting_conduct")
        titled = make("Unsporting Conduct - Major", "unsporting_conduct")
        other = make("Game Rule Violation", "game_play_error")
        new = migrate([("calllog", "0004_unsporting_conduct_named_as_the_ipg")])
        names = dict(new.get_model("calllog", "Call").objects.values_list("pk", "infraction"))
        assert names[short.pk] == "Unsporting Conduct - Minor"
        assert names[titled.pk] == "Unsporting Conduct - Major"
        assert names[other.pk] == "Game Rule Violation"
        migrate(latest())
