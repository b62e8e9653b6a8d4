"""Issue 29: the deployment as compose and scripts/stack run it (the files they share).

The stack itself, with faults, runs in `make fault-test` (bench/fault_bench.py --ci); these check
what compose cannot be run here to show: nginx is the only way in, the health checks send an allowed
Host, the example environment starts as shipped, nginx accepts the configuration scripts/stack makes
from the template compose uses.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "scripts"))
sys.path.insert(0, str(REPO / "docker"))
import healthcheck  # noqa: E402
import stack  # noqa: E402

COMPOSE = yaml.safe_load((REPO / "docker" / "compose.yaml").read_text())


def example_env() -> dict[str, str]:
    return stack.read_env_file(REPO / "docker" / ".env.example")


def test_only_nginx_is_published():
    published = {name for name, service in COMPOSE["services"].items() if "ports" in service}
    assert published == {"nginx"}
    ports = COMPOSE["services"]["nginx"]["ports"]
    assert [p.rsplit(":", 1)[1] for p in ports] == ["80", "443"]
    # gunicorn binds loopback unless told otherwise (the image tells it: the compose network)
    conf: dict = {}
    env = {k: v for k, v in os.environ.items() if k != "GUNICORN_BIND"}
    code = "import runpy; print(runpy.run_path('docker/gunicorn.conf.py')['bind'])"
    run = subprocess.run(
        [sys.executable, "-c", code], cwd=REPO, env=env, capture_output=True, text=True
    )
    assert run.stdout.strip() == "127.0.0.1:8000", (run.stdout, run.stderr, conf)


def test_the_health_probes_send_a_host_the_example_allows(monkeypatch):
    hosts = example_env()["DJANGO_ALLOWED_HOSTS"].split(",")
    monkeypatch.setenv("DJANGO_ALLOWED_HOSTS", ",".join(hosts))
    assert healthcheck.allowed_host() == hosts[0].strip()
    web = COMPOSE["services"]["web"]["healthcheck"]["test"]
    assert web == ["CMD", "python", "docker/healthcheck.py"]
    nginx = " ".join(COMPOSE["services"]["nginx"]["healthcheck"]["test"])
    assert "DJANGO_ALLOWED_HOSTS%%,*" in nginx and "https://127.0.0.1/api/v1/health" in nginx
    for leading_dot, expected in ((".example.org,x", "example.org"), ("*", "localhost")):
        monkeypatch.setenv("DJANGO_ALLOWED_HOSTS", leading_dot)
        assert healthcheck.allowed_host() == expected


def test_the_example_environment_starts_as_shipped_with_the_secret_made_at_first_start(tmp_path):
    """compose's `setup` writes a random secret to DJANGO_SECRET_KEY_FILE; with it and nothing
    else, the example environment passes `check --deploy` (debug off, hosts set)."""
    secret_file = tmp_path / "django_secret_key"
    setup = COMPOSE["services"]["setup"]["command"][-1]
    assert "/secrets/django_secret_key" in setup
    assert COMPOSE["x-app"]["environment"]["DJANGO_SECRET_KEY_FILE"] == (
        "/secrets/django_secret_key"
    )
    secret_file.write_text("made-at-first-start-" + "s3cr" * 12)
    env = {k: v for k, v in os.environ.items() if not k.startswith("DJANGO_")}
    env.update(example_env())
    env.update(
        {
            "DJANGO_SETTINGS_MODULE": "judgeapp.settings",
            "DJANGO_SECRET_KEY_FILE": str(secret_file),
            "DATABASE_URL": "",
        }
    )
    assert "DJANGO_SECRET_KEY" not in env
    run = subprocess.run(
        [
            sys.executable,
            "manage.py",
            "check",
            "--deploy",
            "--tag",
            "security",
            "--fail-level",
            "WARNING",
        ],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    secret_file.unlink()
    run = subprocess.run(
        [sys.executable, "manage.py", "check"], cwd=REPO, env=env, capture_output=True, text=True
    )
    assert "DJANGO_SECRET_KEY_FILE=" in run.stderr and "cannot be read" in run.stderr


def test_scripts_stack_runs_what_compose_runs():
    s = stack.Stack({"STACK_DIR": "/tmp/judgeapp-test-stack-commands", "PATH": os.defpath})
    assert s.gunicorn_command()[-4:] == [
        "gunicorn",
        "judgeapp.wsgi",
        "--config",
        "docker/gunicorn.conf.py",
    ]
    worker = s.compose_command("worker")
    assert worker[:2] == ["sh", "-c"] and "--max-memory-per-child" in worker[2]
    assert "$$" not in worker[2]
    beat = s.compose_command("beat")
    assert " beat " in beat[2] and beat[2].endswith('--schedule "$STACK_BEAT_SCHEDULE"')
    assert s.env["DJANGO_DEBUG"] == example_env()["DJANGO_DEBUG"] == "0"
    assert s.env["JUDGEAPP_PROXY_COUNT"] == "1"


needs_nginx = pytest.mark.skipif(
    not (shutil.which("nginx") or Path("/usr/sbin/nginx").exists()),
    reason="nginx is not installed (Debian: apt-get install nginx; `make stack` installs it as "
    "root)",
)


def _free_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@needs_nginx
def test_with_gunicorn_away_the_api_answers_its_json_503_through_nginx(tmp_path):
    """Ops audit 12: while gunicorn restarted, nginx answered its own HTML 502 under /api/v1/,
    without Retry-After; a client of the API must get the contract's JSON 503."""
    import json
    import ssl
    import time
    import urllib.error
    import urllib.request

    env = {
        "STACK_DIR": str(tmp_path / "stack"),
        "PATH": os.environ["PATH"],
        "STACK_HTTPS_PORT": str(_free_port()),
        "STACK_HTTP_PORT": str(_free_port()),
    }
    s = stack.Stack(env)
    (s.dir / "logs").mkdir(parents=True)
    (s.dir / "run").mkdir()
    subprocess.run(
        [
            "sh",
            str(REPO / "docker/nginx/selfsigned.sh"),
            s.env["JUDGEAPP_TLS_CERT"],
            s.env["JUDGEAPP_TLS_KEY"],
            "localhost",
        ],
        check=True,
        capture_output=True,
    )
    nginx = s.nginx_binary()
    conf = s.render_nginx(nginx)  # the upstream's socket does not exist: gunicorn is away
    server = subprocess.Popen([nginx, "-c", str(conf)], stderr=subprocess.PIPE)
    try:
        context = ssl.create_default_context()
        context.check_hostname, context.verify_mode = False, ssl.CERT_NONE
        url = f"https://127.0.0.1:{s.https_port}/api/v1/rules/cr/729.3"
        for _ in range(50):
            try:
                urllib.request.urlopen(urllib.request.Request(url), context=context, timeout=5)
            except urllib.error.HTTPError as answer:
                status, headers, body = answer.code, answer.headers, answer.read()
                break
            except OSError:
                time.sleep(0.1)  # nginx not listening yet
        else:
            pytest.fail("nginx never answered")
        assert status == 503, body
        assert headers["Content-Type"].startswith("application/json")
        assert headers["Retry-After"] == "5"
        assert json.loads(body)["error"]["code"] == "unavailable"
    finally:
        server.terminate()
        server.wait(timeout=10)


@needs_nginx
def test_nginx_accepts_the_configuration_made_from_compose_template(tmp_path):
    s = stack.Stack({"STACK_DIR": str(tmp_path / "stack"), "PATH": os.environ["PATH"]})
    (s.dir / "logs").mkdir(parents=True)
    (s.dir / "run").mkdir()
    subprocess.run(
        [
            "sh",
            str(REPO / "docker" / "nginx" / "selfsigned.sh"),
            s.env["JUDGEAPP_TLS_CERT"],
            s.env["JUDGEAPP_TLS_KEY"],
            "localhost",
        ],
        check=True,
        capture_output=True,
    )
    conf = s.render_nginx(s.nginx_binary())  # runs `nginx -t`; raises when nginx refuses it
    site = (conf.parent / "judgeapp.conf").read_text()
    assert "${" not in site
    for directive in (
        "client_header_timeout",
        "client_body_timeout",
        "send_timeout",
        "keepalive_timeout",
        "proxy_read_timeout",
        "proxy_request_buffering on",
    ):
        assert directive in site
    assert f"unix:{s.socket}" in site


def test_a_configured_certificate_that_is_missing_is_an_error_not_replaced(tmp_path):
    cert, key = tmp_path / "fullchain.pem", tmp_path / "privkey.pem"
    run = subprocess.run(
        ["sh", str(REPO / "docker" / "nginx" / "selfsigned.sh"), str(cert), str(key)],
        capture_output=True,
        text=True,
    )
    assert run.returncode == 1 and "fullchain.pem" in run.stderr
    assert not cert.exists() and not key.exists()


@pytest.mark.parametrize(
    ("count", "forwarded", "seen"),
    [
        (1, "203.0.113.7", "203.0.113.7"),  # nginx's one entry
        (1, "198.51.100.1, 203.0.113.7", "203.0.113.7"),  # what the client wrote is not trusted
        (2, "198.51.100.1, 203.0.113.7", "198.51.100.1"),
        (0, "203.0.113.7", "10.0.0.5"),  # no proxy: a client could write the header
        (1, "not-an-address", "10.0.0.5"),
        (2, "203.0.113.7", "10.0.0.5"),  # fewer hops than proxies: not from them
    ],
)
def test_the_client_address_behind_the_proxy(settings, rf, count, forwarded, seen):
    from judgeapp.proxy import ForwardedForMiddleware

    settings.JUDGEAPP_PROXY_COUNT = count
    request = rf.get("/", HTTP_X_FORWARDED_FOR=forwarded, REMOTE_ADDR="10.0.0.5")
    ForwardedForMiddleware(lambda r: r.META["REMOTE_ADDR"])(request)
    assert request.META["REMOTE_ADDR"] == seen


def test_the_image_stands_alone_and_setup_imports_what_it_holds(tmp_path):
    """Ops audit 1: the image held no rules and compose mounted only RULES_DIR, which a clone has
    not: `setup` failed ("no rules files found") and nothing started. The image now holds rules/,
    and `setup` imports it, with RULES_DIR's history when one is mounted."""
    dockerfile = (REPO / "docker" / "Dockerfile").read_text()
    assert "COPY rules ./rules" in dockerfile
    setup = COMPOSE["services"]["setup"]["command"][-1].replace("$$", "$")
    fake = setup.replace("python -c", "true ||").replace("python manage.py", "echo manage")
    empty, history = tmp_path / "empty", tmp_path / "history"
    empty.mkdir()
    history.mkdir()
    (history / "cr.txt").write_text("x")
    for mounted, imported in ((empty, "rules"), (history, f"rules {history}")):
        run = subprocess.run(
            ["sh", "-c", fake.replace("/rules", str(mounted))], capture_output=True, text=True
        )
        assert run.returncode == 0, run.stderr
        assert run.stdout.splitlines()[-1] == f"manage import_rules {imported} --publish"


def test_every_long_running_service_comes_back_after_it_stops():
    """Ops audit 7: no service had a restart policy; a dead worker left jobs running for good."""
    for name, service in COMPOSE["services"].items():
        expected = "no" if name == "setup" else "unless-stopped"
        assert service.get("restart") == expected, name
