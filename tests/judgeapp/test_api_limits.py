"""Rate limits per client and the anonymous cost cap (issue 29 item 7): anonymous clients by
address, judges by account, computations lower; a 429 names its limit and says when to retry."""

from __future__ import annotations

import os
import subprocess
import sys
import uuid
from pathlib import Path

import pytest
from django.test import Client

from jobs.models import Job
from judgeapp import api_limits, api_tokens
from tests.guides.test_guide_api import LOOP_TO_PROPOSAL

pytestmark = pytest.mark.django_db
REPO = Path(__file__).resolve().parents[2]
GAME = {"format": "two_player", "players": [{"name": "A", "life": 0}, {"name": "B", "life": 5}]}


@pytest.fixture
def limits(settings, monkeypatch):
    """A fresh counter store of this test's own, so no other test's requests count, and a clock
    that stays a second into every window: a test's requests never straddle two fixed windows (on a
    loaded machine the judge's eleven requests once did, and the eleventh was let through)."""
    start = 3600.0 * 500_000 + 1.0  # one second past the start of every window of up to an hour
    monkeypatch.setattr(api_limits, "_now", lambda: start)
    settings.CACHES = {
        **settings.CACHES,
        "limits": {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            "LOCATION": f"limits-{uuid.uuid4().hex}",
        },
    }
    return settings


@pytest.fixture
def judge_key(django_user_model):
    judge = django_user_model.objects.create_user("judge-lea", password="right-password-6")
    return {"HTTP_AUTHORIZATION": f"Token {api_tokens.issue_token(judge, 'tablet')[1]}"}


def post_json(client: Client, path: str, body: dict, **extra):
    return client.post(path, body, content_type="application/json", **extra)


def assert_limited(response, limit: str) -> None:
    assert response.status_code == 429, response.content
    assert response["Content-Type"] == "application/json"
    error = response.json()["error"]
    assert error["code"] == "rate_limited"
    assert error["details"]["limit"] == limit and limit in error["message"]
    assert 1 <= int(response["Retry-After"]) <= 60
    assert error["details"]["retry_after_seconds"] == int(response["Retry-After"])


class RequestRateTests:
    def test_an_anonymous_address_is_limited_and_a_judge_is_not(self, limits, judge_key):
        limits.JUDGEAPP_RATE_ANONYMOUS = 3
        limits.JUDGEAPP_RATE_JUDGE = 10
        here = {"REMOTE_ADDR": "10.1.2.3"}
        answers = [Client().get("/api/v1/documents", **here) for _ in range(4)]
        assert [a.status_code for a in answers[:3]] == [200] * 3
        assert_limited(answers[3], "api-anonymous")
        # a judge at the same address counts on their own account, with more
        judge = [Client().get("/api/v1/documents", **here, **judge_key) for _ in range(10)]
        assert [a.status_code for a in judge] == [200] * 10
        assert_limited(Client().get("/api/v1/documents", **here, **judge_key), "api-judge")
        # other addresses, and the health check, are untouched
        assert Client().get("/api/v1/documents", REMOTE_ADDR="10.1.2.4").status_code == 200
        assert Client().get("/api/v1/health", **here).status_code in (200, 503)
        assert Client().get("/api/v1/health", **here).json().get("status") != "rate_limited"


class ProxyTests:
    def test_behind_a_proxy_each_client_counts_on_its_own(self, limits):
        """Behind nginx every request comes from the proxy's address: with JUDGEAPP_PROXY_COUNT
        the client is the address the proxy appended to X-Forwarded-For (never what the client
        wrote there itself)."""
        limits.JUDGEAPP_RATE_ANONYMOUS = 2
        limits.JUDGEAPP_PROXY_COUNT = 1
        proxy = {"REMOTE_ADDR": "172.18.0.5"}

        def ask(forwarded: str) -> int:
            return (
                Client()
                .get("/api/v1/documents", HTTP_X_FORWARDED_FOR=forwarded, **proxy)
                .status_code
            )

        assert [ask("203.0.113.7") for _ in range(3)] == [200, 200, 429]
        assert ask("203.0.113.8") == 200  # another client behind the same proxy
        # a client that forges the header is still counted by the address the proxy saw
        assert ask("198.51.100.1, 203.0.113.7") == 429


@pytest.mark.usefixtures("rules_loaded")
class ComputationLimitTests:
    def test_computations_have_their_own_lower_rate(self, limits, judge_key):
        limits.JUDGEAPP_JOB_RATE_ANONYMOUS = 2
        here = {"REMOTE_ADDR": "10.1.3.1"}
        answers = [post_json(Client(), "/api/v1/jobs/game-outcome", GAME, **here) for _ in range(3)]
        assert [a.status_code for a in answers[:2]] == [202, 202]
        assert_limited(answers[2], "jobs-anonymous")
        assert Job.objects.count() == 2, "a refused POST stores nothing"
        assert Client().get("/api/v1/documents", **here).status_code == 200
        judge = post_json(Client(), "/api/v1/jobs/game-outcome", GAME, **here, **judge_key)
        assert judge.status_code == 202

    @pytest.mark.parametrize(
        ("body", "field"),
        [
            ({"deck_size": 120, "procedure": [{"method": "riffle", "times": 7}]}, "deck_size"),
            ({"deck_size": 60, "procedure": [{"method": "riffle", "times": 25}]}, "procedure"),
            (
                {
                    "deck_size": 60,
                    "procedure": [
                        {"method": "riffle", "times": 15},
                        {"method": "pile", "times": 6, "piles": 7},
                    ],
                },
                "procedure",
            ),
        ],
        ids=["cards", "shuffles", "shuffles-over-steps"],
    )
    def test_an_expensive_shuffle_analysis_needs_a_signed_in_judge(
        self, limits, judge_key, body, field
    ):
        limits.JUDGEAPP_ANONYMOUS_SHUFFLE_MAX_CARDS = 100
        limits.JUDGEAPP_ANONYMOUS_SHUFFLE_MAX_SHUFFLES = 20
        response = post_json(Client(), "/api/v1/jobs/shuffle-analysis", body)
        assert response.status_code == 403, response.content
        error = response.json()["error"]
        assert error["code"] == "sign_in_required" and field in error["details"]
        assert "sign in" in error["message"]
        assert not Job.objects.exists()
        signed_in = post_json(Client(), "/api/v1/jobs/shuffle-analysis", body, **judge_key)
        assert signed_in.status_code == 202, signed_in.content
        assert Job.objects.get().owner is not None

    def test_a_cheap_anonymous_shuffle_analysis_runs(self, limits):
        body = {"deck_size": 60, "procedure": [{"method": "riffle", "times": 7}]}
        assert post_json(Client(), "/api/v1/jobs/shuffle-analysis", body).status_code == 202


class LookupLimitTests:
    def test_the_lookups_fast_path_counts_an_anonymous_address(self, limits, judge_key):
        """The rule lookup answers a rule asked for before from its cache, before DRF: it counts
        against the address's API limit all the same, and answers 429 past it."""
        limits.JUDGEAPP_RATE_ANONYMOUS = 3
        here = {"REMOTE_ADDR": "10.1.5.1"}
        first = Client().get("/api/v1/rules/cr/100.1", **here)  # fills the cache
        assert first.status_code == 200, first.content
        again = [Client().get("/api/v1/rules/cr/100.1", **here) for _ in range(3)]
        assert [a.status_code for a in again[:2]] == [200, 200]
        assert again[0].json() == first.json()
        assert_limited(again[2], "api-anonymous")
        # another address is untouched; a judge's token is counted on the account (the DRF view)
        assert Client().get("/api/v1/rules/cr/100.1", REMOTE_ADDR="10.1.5.2").status_code == 200
        judged = Client().get("/api/v1/rules/cr/100.1", **here, **judge_key)
        assert judged.status_code == 200 and judged.json()["number"] == "100.1"

    def test_credentials_are_checked_not_skipped_by_the_fast_path(self, limits):
        Client().get("/api/v1/rules/cr/100.1")  # cached
        wrong = Client().get("/api/v1/rules/cr/100.1", HTTP_AUTHORIZATION="Token not-a-key")
        assert wrong.status_code in (401, 403), wrong.content


class GuideComputationLimitTests:
    def test_a_walk_that_runs_an_engine_counts_as_a_computation(self, limits):
        """A guide walk that runs a loop's outcome costs what a job does: it counts against the
        computation limit; a walk answered from the memo, or one that computes nothing, does
        not."""
        limits.JUDGEAPP_JOB_RATE_ANONYMOUS = 1
        here = {"REMOTE_ADDR": "10.1.6.1"}
        url = "/api/v1/guides/loop-resolution/walk"

        def walk(life: int):
            answers = [*LOOP_TO_PROPOSAL, life, -3, 10, "Names a lower number", 4, "No"]
            return post_json(Client(), url, {"answers": answers}, **here)

        assert walk(20).json()["result"]["iterations"] == 4
        assert walk(20).status_code == 200  # the same facts: memoised, nothing run
        assert (
            post_json(Client(), url, {"answers": LOOP_TO_PROPOSAL[:2]}, **here).status_code == 200
        )
        assert_limited(walk(19), "jobs-anonymous")  # new facts: an engine would run
        elsewhere = {"REMOTE_ADDR": "10.1.6.2"}
        assert walk(19).status_code == 429
        assert (
            post_json(Client(), url, {"answers": LOOP_TO_PROPOSAL}, **elsewhere).status_code == 200
        )

    def test_the_guide_page_answers_429_past_the_limit(self, limits):
        """The page walks the guide on the server for readers without JavaScript: the same
        count; past it, the guide's first step with the limit's message, 429 and Retry-After."""
        from urllib.parse import urlencode

        limits.JUDGEAPP_JOB_RATE_ANONYMOUS = 1
        here = {"REMOTE_ADDR": "10.1.7.1"}

        def page(life: int):
            answers = [*LOOP_TO_PROPOSAL, life, -3, 10, "Names a lower number", 4, "No"]
            query = urlencode([("a", str(a)) for a in answers])
            return Client().get(f"/guides/loop-resolution/?{query}", **here)

        assert page(17).status_code == 200
        limited = page(16)
        assert limited.status_code == 429 and 1 <= int(limited["Retry-After"]) <= 60
        assert "jobs-anonymous" in limited.content.decode()


class SharedCounterTests:
    def test_the_counters_live_in_the_brokers_redis_when_there_is_one(self):
        """Every gunicorn worker counts in one store: Redis on the real stack."""
        code = (
            "import django, os; os.environ['DJANGO_SETTINGS_MODULE']='judgeapp.settings'; "
            "from django.conf import settings as s; c = s.CACHES['limits']; "
            "print(c['BACKEND'], c['LOCATION'])"
        )
        env = {**os.environ, "CELERY_BROKER_URL": "redis://127.0.0.1:6379/4"}
        env.pop("JUDGEAPP_LIMITS_CACHE_URL", None)
        out = subprocess.run(
            [sys.executable, "-c", code], cwd=REPO, env=env, capture_output=True, text=True
        )
        assert out.stdout.split() == [
            "django.core.cache.backends.redis.RedisCache",
            "redis://127.0.0.1:6379/4",
        ], out.stderr

    def test_a_store_that_does_not_answer_lets_requests_through(self, limits):
        from judgeapp import api_limits

        limits.JUDGEAPP_RATE_ANONYMOUS = 1
        limits.CACHES = {
            **limits.CACHES,
            "limits": {
                "BACKEND": "django.core.cache.backends.redis.RedisCache",
                "LOCATION": "redis://127.0.0.1:9/0",  # the discard port: nothing answers
                "OPTIONS": {"socket_connect_timeout": 0.3, "socket_timeout": 0.3},
            },
        }
        try:
            answers = [Client().get("/api/v1/documents").status_code for _ in range(3)]
        finally:
            api_limits._store_down_until = 0.0
        assert answers == [200, 200, 200]
