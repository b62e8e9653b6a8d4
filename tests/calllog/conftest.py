"""Call-log fixtures: a small guide with one conclusion per kind of upgrade, the named people plus
another event's judge, and an event headed by head_judge with floor_judge on its floor."""

from __future__ import annotations

import datetime as dt
import tomllib
import uuid

import pytest

GUIDE = """
title = "Call log test guide"
summary = "One conclusion per upgrade rule."
start = "what"

[[nodes]]
id = "what"
kind = "question"
text = "What happened?"
answers = [
  { label = "Game Rule Violation", next = "grv" },
  { label = "Did not point it out", next = "ftmgs" },
  { label = "Slow play", next = "slow" },
  { label = "A rules question", next = "question" },
  { label = "Not sure", next = "unsure" },
]

[[nodes]]
id = "unsure"
kind = "question"
text = "Was a game rule broken?"
answers = [{ label = "Yes", next = "grv" }, { label = "No", next = "question" }]

[[nodes]]
id = "grv"
kind = "conclusion"
ruling = "Game Rule Violation."
fix = "Back up or leave the game as it is."
penalty = { regular = "Warning", competitive = "Warning", professional = "Warning" }
refs = ["ipg@2021-01-06:2.5"]
infraction = "GRV"
category = "game_play_error"

[[nodes]]
id = "ftmgs"
kind = "conclusion"
ruling = "Failure to Maintain Game State."
fix = "None beyond the GRV's."
penalty = { regular = "No penalty", competitive = "Warning", professional = "Warning" }
refs = ["ipg@2021-01-06:2.6"]
infraction = "FtMGS"
category = "game_play_error"

[[nodes]]
id = "slow"
kind = "conclusion"
ruling = "Slow Play."
fix = "Two extra turns if time runs out."
penalty = { regular = "Warning", competitive = "Warning", professional = "Warning" }
refs = ["ipg@2021-01-06:3.3"]
infraction = "SP"
category = "tournament_error"

[[nodes]]
id = "question"
kind = "conclusion"
ruling = "Answer the question."
fix = "None."
penalty = { regular = "None", competitive = "None", professional = "None" }
refs = ["cr@2025-02-07:729.4"]
"""

SLUG = "call-log-test"


@pytest.fixture(autouse=True)
def fast_passwords(settings):
    """PBKDF2 at its production cost takes most of a second per user; these tests create four."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def test_guide(monkeypatch):
    from guides import loader
    from guides import services as guide_services

    guide = loader.parse_guide(tomllib.loads(GUIDE), source="conftest", default_slug=SLUG)
    monkeypatch.setattr(guide_services, "guides", lambda: {SLUG: guide})
    return guide


@pytest.fixture
def calllog_urls(settings):
    settings.ROOT_URLCONF = "tests.calllog.urls"
    settings.LOGIN_URL = "/accounts/login/"
    from django.urls import clear_url_caches

    clear_url_caches()
    yield
    clear_url_caches()


@pytest.fixture
def cast(people, db):
    """The named people, another event's head judge, and head_judge's event with floor_judge
    on it."""
    from django.contrib.auth.models import User

    from calllog import services

    other = User.objects.create_user("other", password="pw-other-judge")
    event = services.open_event(
        people["head_judge"],
        name="Regional Championship",
        date=dt.date(2026, 11, 22),
        rel="competitive",
    )
    services.add_judge(people["head_judge"], event, username="floor")
    other_event = services.open_event(
        other, name="Store Championship", date=dt.date(2026, 11, 22), rel="competitive"
    )
    return {**people, "other": other, "event": event, "other_event": other_event}


def call_body(answer: str = "Game Rule Violation", *, players=("Ana", "Ben"), **extra) -> dict:
    body = {
        "client_id": str(uuid.uuid4()),
        "guide": SLUG,
        "answers": [answer],
        "table": "12",
        "round": 3,
        "players": list(players),
    }
    body.update(extra)
    return body
