"""API clients' sign-in (issue 29 item 8): a token per client, checked with one cheap hash; basic
auth that pays the password hash once, not per request; failed authentications throttled by
address, whatever the username."""

from __future__ import annotations

import base64
import uuid
from io import StringIO
from unittest import mock

import pytest
from django.contrib.auth.hashers import get_hasher
from django.core.management import call_command
from django.test import Client

from judgeapp.models import ApiToken

pytestmark = pytest.mark.django_db


@pytest.fixture
def judge(django_user_model):
    return django_user_model.objects.create_user("judge-tom", password="right-password-3")


@pytest.fixture
def limits(settings):
    """A fresh counter store of this test's own, so no other test's requests count."""
    settings.CACHES = {
        **settings.CACHES,
        "limits": {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            "LOCATION": f"limits-{uuid.uuid4().hex}",
        },
    }
    return settings


def basic(username: str, password: str) -> dict:
    token = base64.b64encode(f"{username}:{password}".encode()).decode()
    return {"HTTP_AUTHORIZATION": f"Basic {token}"}


def new_key(username: str, name: str = "round bot") -> str:
    out = StringIO()
    call_command("create_api_token", username, "--name", name, stdout=out)
    return out.getvalue().strip().rsplit(" ", 1)[-1]


class HashCount:
    """Counts the password hashes the requests run (PBKDF2 in production; the suite's users have
    a faster hasher, called as often)."""

    def __enter__(self):
        hasher = type(get_hasher())
        self.patch = mock.patch.object(hasher, "encode", autospec=True, side_effect=hasher.encode)
        self.spy = self.patch.start()
        return self

    def __exit__(self, *exc):
        self.patch.stop()

    @property
    def count(self) -> int:
        return self.spy.call_count


class TokenTests:
    def test_a_token_from_the_command_signs_the_client_in(self, judge, limits):
        key = new_key("judge-tom")
        assert Client().get("/api/v1/events").status_code == 403
        for scheme in ("Token", "Bearer"):
            with HashCount() as hashes:
                response = Client().get("/api/v1/events", HTTP_AUTHORIZATION=f"{scheme} {key}")
            assert response.status_code == 200, response.content
            assert hashes.count == 0, "a token costs no password hash"
        token = ApiToken.objects.get(user=judge)
        assert token.name == "round bot" and token.last_used_at is not None
        # only a digest is stored: the key is nowhere in the row
        assert key not in (token.digest, token.prefix) and key.startswith(token.prefix)

    def test_a_wrong_or_revoked_token_is_refused_in_json(self, judge, limits):
        key = new_key("judge-tom")
        response = Client().get("/api/v1/events", HTTP_AUTHORIZATION=f"Token {key}x")
        assert response.status_code in (401, 403)
        assert response.json()["error"]["message"] == "Invalid or revoked API token."
        ApiToken.objects.filter(user=judge).delete()
        response = Client().get("/api/v1/events", HTTP_AUTHORIZATION=f"Token {key}")
        assert response.status_code in (401, 403)

    def test_the_command_refuses_an_unknown_user(self):
        from django.core.management.base import CommandError

        with pytest.raises(CommandError, match="no active user"):
            new_key("nobody-here")
        assert not ApiToken.objects.exists()

    def test_staff_create_a_token_in_the_admin_and_see_its_key_once(
        self, judge, django_user_model, limits
    ):
        django_user_model.objects.create_superuser("boss", password="boss-password-4")
        admin = Client()
        admin.force_login(django_user_model.objects.get(username="boss"))
        response = admin.post(
            "/admin/judgeapp/apitoken/add/",
            {"user": judge.pk, "name": "scorekeeper script"},
            follow=True,
        )
        assert response.status_code == 200
        token = ApiToken.objects.get(user=judge, name="scorekeeper script")
        shown = [str(m) for m in response.context["messages"]]
        key = next(word for m in shown for word in m.split() if word.startswith(token.prefix))
        answer = Client().get("/api/v1/events", HTTP_AUTHORIZATION=f"Token {key}")
        assert answer.status_code == 200, answer.content
        assert key not in admin.get(f"/admin/judgeapp/apitoken/{token.pk}/change/").content.decode()


class BasicAuthCostTests:
    def test_a_right_password_is_hashed_once_not_on_every_request(self, judge, limits):
        with HashCount() as hashes:
            answers = [
                Client().get("/api/v1/events", **basic("judge-tom", "right-password-3")).status_code
                for _ in range(5)
            ]
        assert answers == [200] * 5
        assert hashes.count == 1

    def test_a_changed_password_is_not_remembered(self, judge, limits):
        assert Client().get("/api/v1/events", **basic("judge-tom", "right-password-3")).status_code
        judge.set_password("new-password-5")
        judge.save()
        response = Client().get("/api/v1/events", **basic("judge-tom", "right-password-3"))
        assert response.status_code in (401, 403)
        response = Client().get("/api/v1/events", **basic("judge-tom", "new-password-5"))
        assert response.status_code == 200

    def test_a_wrong_password_makes_the_right_one_checked_again(self, judge, limits):
        client = Client()
        assert client.get("/api/v1/events", **basic("judge-tom", "right-password-3")).status_code
        client.get("/api/v1/events", **basic("judge-tom", "wrong"))
        with HashCount() as hashes:
            response = client.get("/api/v1/events", **basic("judge-tom", "right-password-3"))
        assert response.status_code == 200 and hashes.count == 1


class FailedAuthenticationThrottleTests:
    def test_made_up_usernames_are_throttled_by_address_before_any_hash(self, judge, limits):
        limits.JUDGEAPP_AUTH_FAILURE_LIMIT = 3
        attacker = {"REMOTE_ADDR": "10.20.30.40"}
        answers = [
            Client().get("/api/v1/documents", **attacker, **basic(f"user-{i}", "guess")).status_code
            for i in range(3)
        ]
        assert set(answers) <= {401, 403}
        with HashCount() as hashes:
            response = Client().get("/api/v1/documents", **attacker, **basic("user-9", "guess"))
            right = Client().get(
                "/api/v1/events", **attacker, **basic("judge-tom", "right-password-3")
            )
            token = Client().get("/api/v1/events", **attacker, HTTP_AUTHORIZATION="Token abc")
        assert response.status_code == 429, response.content
        assert response["Content-Type"] == "application/json"
        error = response.json()["error"]
        assert error["code"] == "rate_limited" and error["details"]["limit"] == "auth-failures"
        assert 0 < int(response["Retry-After"]) <= limits.JUDGEAPP_AUTH_FAILURE_WINDOW
        assert right.status_code == 429 and token.status_code == 429
        assert hashes.count == 0, "a throttled address costs no password hash"
        # another address, and the same address without credentials, are served
        other = Client().get(
            "/api/v1/events", REMOTE_ADDR="10.20.30.41", **basic("judge-tom", "right-password-3")
        )
        assert other.status_code == 200
        assert Client().get("/api/v1/documents", **attacker).status_code == 200

    def test_wrong_tokens_count_as_failures(self, judge, limits):
        limits.JUDGEAPP_AUTH_FAILURE_LIMIT = 2
        attacker = {"REMOTE_ADDR": "10.20.30.50"}
        answers = [
            Client().get("/api/v1/documents", **attacker, HTTP_AUTHORIZATION=f"Token t{i}")
            for i in range(3)
        ]
        assert [a.status_code for a in answers][2] == 429
