"""Security from the environment (issue 14): login throttling on every way in, HTTPS settings that
make `check --deploy` clean with docker/.env.example."""

from __future__ import annotations

import base64
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db
REPO = Path(__file__).resolve().parents[2]


@pytest.fixture
def judge(django_user_model):
    return django_user_model.objects.create_user("judge-ann", password="right-password-1")


def basic(username: str, password: str) -> dict:
    token = base64.b64encode(f"{username}:{password}".encode()).decode()
    return {"HTTP_AUTHORIZATION": f"Basic {token}"}


class LoginThrottlingTests:
    @pytest.mark.parametrize(
        ("page", "staff"),
        [("/accounts/login/", False), ("/admin/login/", True)],
        ids=["sign-in page", "admin sign-in"],
    )
    def test_a_sign_in_page_locks_out_after_too_many_wrong_passwords(
        self, django_user_model, settings, page, staff
    ):
        django_user_model.objects.create_user(
            "curator", password="right-password-2", is_staff=staff
        )
        client = Client()
        for _ in range(settings.AXES_FAILURE_LIMIT):
            client.post(page, {"username": "curator", "password": "wrong"})
        response = client.post(page, {"username": "curator", "password": "right-password-2"})
        assert response.status_code == 429
        assert "_auth_user_id" not in client.session

    def test_basic_auth_on_the_api_locks_out_and_answers_json(self, judge, settings):
        client = Client()
        assert (
            client.get("/api/v1/events", **basic("judge-ann", "right-password-1")).status_code
            == 200
        )
        answers = [
            client.get("/api/v1/events", **basic("judge-ann", "wrong")).status_code
            for _ in range(settings.AXES_FAILURE_LIMIT)
        ]
        # the attempt that reaches the limit locks
        assert set(answers[:-1]) <= {401, 403} and answers[-1] == 429
        response = client.get("/api/v1/events", **basic("judge-ann", "right-password-1"))
        assert response.status_code == 429, response.content
        assert response["Content-Type"] == "application/json"
        assert response.json()["error"]["code"] == "locked_out"
        assert int(response["Retry-After"]) > 0

    def test_a_right_password_before_the_limit_resets_the_count(self, judge, settings):
        client = Client()
        for _ in range(settings.AXES_FAILURE_LIMIT - 1):
            client.post("/accounts/login/", {"username": "judge-ann", "password": "wrong"})
        response = client.post(
            "/accounts/login/", {"username": "judge-ann", "password": "right-password-1"}
        )
        assert response.status_code == 302


def env_example() -> dict[str, str]:
    values = {}
    for line in (REPO / "docker" / ".env.example").read_text().splitlines():
        if line.strip() and not line.lstrip().startswith("#") and "=" in line:
            key, value = line.split("=", 1)
            values[key.strip()] = value.strip()
    return values


# A real secret, as an operator sets one in docker/.env (the example's own is refused).
REAL_SECRET = "operator-chosen-" + "k3y" * 20


def clean_env(**values: str) -> dict[str, str]:
    """This environment without what the tests set for themselves (debug on, the tests'
    settings module) nor any Django setting: a process started as production starts."""
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith("DJANGO_") and key != "DATABASE_URL"
    }
    return {**env, "DJANGO_SETTINGS_MODULE": "judgeapp.settings", **values}


def manage(env: dict[str, str], *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "manage.py", *args], cwd=REPO, env=env, capture_output=True, text=True
    )


DEPLOY_CHECK = ("check", "--deploy", "--tag", "security", "--fail-level", "WARNING")


class SafeDefaultsTests:
    """Issue 29: debug off unless asked for, the example secret refused, the hosts required."""

    def test_with_no_environment_debug_is_off_and_a_secret_is_required(self):
        run = manage(clean_env(), "check")
        assert run.returncode != 0
        assert (
            "DJANGO_SECRET_KEY (or DJANGO_SECRET_KEY_FILE) must be set when debug is off"
            in run.stderr
        )

    def test_with_a_secret_and_no_hosts_the_hosts_variable_is_named(self):
        run = manage(clean_env(DJANGO_SECRET_KEY=REAL_SECRET), "check")
        assert run.returncode != 0
        assert "DJANGO_ALLOWED_HOSTS must name the site's host names" in run.stderr

    def test_debug_is_off_by_default_once_secret_and_hosts_are_set(self):
        code = "from django.conf import settings as s; print(s.DEBUG, s.ALLOWED_HOSTS)"
        env = clean_env(DJANGO_SECRET_KEY=REAL_SECRET, DJANGO_ALLOWED_HOSTS="a.example, b")
        run = manage(env, "shell", "-c", code)
        assert run.returncode == 0, run.stderr
        assert run.stdout.splitlines()[-1] == "False ['a.example', 'b']"

    def test_the_example_secret_is_refused_at_start_and_by_check_deploy(self):
        """The value docker/.env.example shipped until issue 29 (an .env copied from it): the
        example now ships no secret at all (compose's `setup` makes one)."""
        example = env_example()
        assert "DJANGO_SECRET_KEY" not in example
        assert settings_module().EXAMPLE_SECRET.startswith("replace-me")
        env = clean_env(**example, DJANGO_SECRET_KEY=settings_module().EXAMPLE_SECRET)
        for args in (("check",), DEPLOY_CHECK, ("migrate", "--check")):
            run = manage(env, *args)
            assert run.returncode != 0, args
            assert "DJANGO_SECRET_KEY is the example value from docker/.env.example" in run.stderr
        # debug on does not let it through either
        run = manage({**env, "DJANGO_DEBUG": "1"}, "check")
        assert "DJANGO_SECRET_KEY is the example value" in run.stderr

    def test_check_deploy_names_the_development_secret(self):
        run = manage(clean_env(DJANGO_DEBUG="1"), "check", "--deploy")
        assert run.returncode != 0
        assert "judgeapp.E001" in run.stdout + run.stderr

    def test_the_image_runs_with_debug_off(self):
        dockerfile = (REPO / "docker" / "Dockerfile").read_text()
        runtime = dockerfile.rsplit("FROM ", 1)[1]
        env_lines = [line for line in runtime.splitlines() if line.startswith("ENV ")]
        assert any("DJANGO_DEBUG=0" in line.split() for line in env_lines), env_lines


def settings_module():
    import judgeapp.settings

    return judgeapp.settings


class DeployCheckTests:
    def test_check_deploy_is_clean_with_the_example_environment_and_a_real_secret(self):
        env = clean_env(**{**env_example(), "DJANGO_SECRET_KEY": REAL_SECRET})
        run = manage(env, *DEPLOY_CHECK)
        assert run.returncode == 0, run.stdout + run.stderr
        assert "security.W" not in run.stdout + run.stderr

    def test_each_https_setting_comes_from_the_environment(self):
        values = env_example()
        for name in (
            "DJANGO_SECURE_HSTS_SECONDS",
            "DJANGO_SECURE_SSL_REDIRECT",
            "DJANGO_SESSION_COOKIE_SECURE",
            "DJANGO_CSRF_COOKIE_SECURE",
        ):
            assert name in values and values[name] not in ("", "0")
        code = (
            "import django, os; os.environ['DJANGO_SETTINGS_MODULE']='judgeapp.settings'; "
            "django.setup(); from django.conf import settings as s; "
            "print(s.SECURE_HSTS_SECONDS, s.SECURE_SSL_REDIRECT, s.SESSION_COOKIE_SECURE, "
            "s.CSRF_COOKIE_SECURE)"
        )
        env = {
            **os.environ,
            "DJANGO_SECURE_HSTS_SECONDS": "60",
            "DJANGO_SECURE_SSL_REDIRECT": "1",
            "DJANGO_SESSION_COOKIE_SECURE": "1",
            "DJANGO_CSRF_COOKIE_SECURE": "1",
        }
        run = subprocess.run(
            [sys.executable, "-c", code],
            cwd=REPO,
            env=env,
            capture_output=True,
            text=True,
            check=True,
        )
        assert run.stdout.split() == ["60", "True", "True", "True"]

    def test_the_health_check_is_not_redirected_to_https(self, settings):
        settings.SECURE_SSL_REDIRECT = True
        assert Client().get("/api/v1/health").status_code == 200
        assert Client().get("/api/v1/documents").status_code == 301


class ServiceUrlTests:
    """Ops audit 6 and 16: a misspelt broker scheme or port, or a soft time limit above the hard
    one, passed `check` and health, then every job POST answered 500; a malformed DATABASE_URL port
    raised a bare ValueError naming no variable."""

    @pytest.mark.parametrize(
        "url, words",
        [
            ("reddis://127.0.0.1:6379/0", "CELERY_BROKER_URL scheme 'reddis' is not supported"),
            ("redis://127.0.0.1:63x9/0", "CELERY_BROKER_URL has a port that is not a number"),
        ],
    )
    def test_a_broker_url_that_cannot_work_is_refused_naming_it(self, url, words):
        from django.core.exceptions import ImproperlyConfigured

        with pytest.raises(ImproperlyConfigured, match=words):
            settings_module()._broker(url)

    @pytest.mark.parametrize(
        "url", ["redis://:secret@127.0.0.1:6379/1", "amqp://guest:guest@localhost//", "memory://"]
    )
    def test_a_working_broker_url_is_taken_as_it_is(self, url):
        assert settings_module()._broker(url) == url

    def test_a_database_port_that_is_no_number_names_the_variable_and_not_the_password(self):
        from django.core.exceptions import ImproperlyConfigured

        with pytest.raises(ImproperlyConfigured) as raised:
            settings_module().database_from_url("postgres://u:hunter2@db:54x2/judge", Path("x"))
        assert "DATABASE_URL has a port that is not a number" in str(raised.value)
        assert "hunter2" not in str(raised.value)

    def test_a_soft_time_limit_not_below_the_hard_one_stops_the_start(self):
        env = clean_env(
            DJANGO_DEBUG="1", JUDGEAPP_TASK_TIME_LIMIT="60", JUDGEAPP_TASK_SOFT_TIME_LIMIT="90"
        )
        run = manage(env, "check")
        assert run.returncode != 0
        assert "JUDGEAPP_TASK_SOFT_TIME_LIMIT=90 must be above 0 and below" in run.stderr


def test_a_log_line_says_when_how_bad_and_from_where():
    """Ops audit 15: log lines were the bare message, with no time, level or logger."""
    code = "import logging; logging.getLogger('jobs.running').warning('job abc left queued')"
    run = manage(clean_env(DJANGO_DEBUG="1"), "shell", "-c", code)
    assert run.returncode == 0, run.stderr
    line = run.stderr.strip().splitlines()[-1]
    assert re.fullmatch(
        r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d{4} WARNING jobs\.running \[\d+\]: "
        r"job abc left queued",
        line,
    ), line
