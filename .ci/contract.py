"""Contract test (issue 14): schemathesis against the schema, on the real stack.

Starts the service as it runs in production (PostgreSQL, Redis, gunicorn with
docker/gunicorn.conf.py, a real Celery worker), with the current rules documents the repository
ships (rules/) and, when the history is there (JUDGEAPP_RULES_DIR, else ../shared/rules), the
2022-04-29 CR too so that diffs and traces have two versions; then runs schemathesis with a fixed
seed and a bounded number of examples per operation, signed in as a judge (basic auth), and checks:
no server error, answers that match the schema, status codes the schema documents. Prints requests
sent, failures and operations; exits non-zero on any failure.

    .venv/bin/python .ci/contract.py            # `make contract`
    CONTRACT_EXAMPLES=50 CONTRACT_WORKERS=2 CONTRACT_SEED=14 CONTRACT_DATABASE=judgeapp_contract ...
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
PY = sys.executable
SHIPPED = REPO / "rules"
RULES_DIR = Path(os.environ.get("JUDGEAPP_RULES_DIR", REPO.parent / "shared" / "rules"))
OLDER_CR = RULES_DIR / "cr" / "MagicCompRules-20220429.txt"  # from the history, when it is there
PG = os.environ.get("CONTRACT_PG", "postgres://postgres@127.0.0.1:5432")
DATABASE = os.environ.get("CONTRACT_DATABASE", "judgeapp_contract")
BROKER = os.environ.get("CONTRACT_BROKER", "redis://127.0.0.1:6379/10")
EXAMPLES = os.environ.get("CONTRACT_EXAMPLES", "50")
WORKERS = os.environ.get("CONTRACT_WORKERS", "2")
SEED = os.environ.get("CONTRACT_SEED", "14")
PHASES = os.environ.get("CONTRACT_PHASES", "fuzzing")  # coverage adds ~8 minutes here: see README
CHECKS = os.environ.get(
    "CONTRACT_CHECKS",
    "not_a_server_error,response_schema_conformance,status_code_conformance,positive_data_acceptance",
)
USER, PASSWORD = "contract-judge", "contract-judge-password"


def newest(kind: str) -> str:
    """The current document of a kind, as the repository ships it."""
    return str(sorted((SHIPPED / kind).glob("*.*"))[-1])


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def run(args: list[str], env: dict, **kwargs) -> None:
    subprocess.run(args, cwd=REPO, env=env, check=True, **kwargs)


def prepare_database(env: dict) -> dict:
    import psycopg

    with psycopg.connect(f"{PG}/postgres", autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{DATABASE}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{DATABASE}"')
    run([PY, "manage.py", "migrate", "--noinput", "-v0"], env)
    # as every deployment does (health answers 503 while they are not collected)
    run([PY, "manage.py", "collectstatic", "--noinput", "-v0"], env)
    run(
        [
            PY,
            "manage.py",
            "import_rules",
            *([str(OLDER_CR)] if OLDER_CR.is_file() else []),
            newest("cr"),
            "--publish",
        ],
        env,
        stdout=subprocess.DEVNULL,
    )
    run(
        [PY, "manage.py", "import_rules", newest("mtr"), newest("ipg"), newest("jar"), "--publish"],
        env,
        stdout=subprocess.DEVNULL,
    )
    run([PY, "manage.py", "build_search_index"], env, stdout=subprocess.DEVNULL)
    seeded = subprocess.run(
        [PY, "manage.py", "shell", "-c", SEED_DATA],
        cwd=REPO,
        env=env,
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    return json.loads(seeded.strip().splitlines()[-1])


# The judge the run signs in as, and things of theirs for the path parameters (an event with a
# player and a call, a job), so that the fuzzing reaches the call log's and the clock's logic, not
# only 404s.
SEED_DATA = f"""
import json, uuid
from django.contrib.auth.models import User
from rest_framework.test import APIClient
judge = User.objects.create_user({USER!r}, password={PASSWORD!r})
client = APIClient()
client.force_authenticate(judge)
event = client.post("/api/v1/events", {{"name": "Contract Open", "date": "2026-11-24", "rel": "competitive"}}, format="json").json()
client.post(f"/api/v1/events/{{event['id']}}/players", {{"name": "Alice"}}, format="json")
call = client.post(f"/api/v1/events/{{event['id']}}/calls", {{"client_id": str(uuid.uuid4()), "infraction": "2.2",
                   "players": ["Alice"], "offender": "Alice", "table": "12", "round": 1}}, format="json").json()
job = client.post("/api/v1/jobs/game-outcome", {{"format": "two_player", "players": [{{"name": "A", "life": 0}}, {{"name": "B", "life": 3}}]}}, format="json").json()
print(json.dumps({{"event_id": event["id"], "call_id": call.get("id") or call.get("call", {{}}).get("id"), "job_id": job.get("id")}}))
"""  # noqa: E501


def write_config(path: Path, seeded: dict) -> None:
    """schemathesis.toml for the run: the seeded ids as path parameters."""
    lines = ["[parameters]"]
    for name, value in seeded.items():
        if value is not None:
            lines.append(f'"path.{name}" = {json.dumps(value)}')
    lines.append('"path.slug" = "loop-resolution"')
    # docs/API.md: no text holds NUL or an unpaired surrogate (PostgreSQL cannot store them); the
    # server refuses them with 400, so valid data leaves them out.
    lines += ["", "[generation]", "allow-x00 = false", 'codec = "utf-8"']
    path.write_text("\n".join(lines) + "\n")


def wait_for(url: str, seconds: float) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(url, timeout=2) as answer:
                if answer.status == 200:
                    return
        except OSError:
            time.sleep(0.5)
    raise RuntimeError(f"{url} did not answer within {seconds} s")


def summarise(report: Path) -> dict:
    """Requests sent, failures and operations from schemathesis' NDJSON event stream."""
    requests = failures = 0
    operations: set[str] = set()
    failed: dict[str, set[str]] = {}
    for line in report.read_text().splitlines():
        event = json.loads(line)
        finished = event.get("ScenarioFinished")
        if not finished:
            continue
        recorder = finished.get("recorder") or {}
        label = recorder.get("label") or finished.get("label") or ""
        if label:
            operations.add(label)
        interactions = recorder.get("interactions") or {}
        requests += len(interactions)
        for check_list in (recorder.get("checks") or {}).values():
            for check in check_list:
                if str(check.get("status", "")).lower() in ("failure", "error"):
                    failures += 1
                    failed.setdefault(label, set()).add(check.get("name", "?"))
    return {
        "requests": requests,
        "failures": failures,
        "operations": len(operations),
        "failed": {k: sorted(v) for k, v in failed.items()},
    }


def main() -> int:
    started = time.monotonic()
    port = free_port()
    workdir = Path(tempfile.mkdtemp(prefix="judgeapp-contract-"))
    env = {
        **os.environ,
        "DATABASE_URL": f"{PG}/{DATABASE}",
        "CELERY_BROKER_URL": BROKER,
        "DJANGO_DEBUG": "0",
        "DJANGO_SECRET_KEY": "contract-run-secret-key-not-for-production-0123456789",
        "DJANGO_ALLOWED_HOSTS": "127.0.0.1,localhost,testserver",
        **({"JUDGEAPP_RULES_DIR": str(RULES_DIR)} if RULES_DIR.is_dir() else {}),
        "JUDGEAPP_SEARCH_VECTORS": "0",
        "JUDGEAPP_SEARCH_SHIPPED_VECTORS": "0",
        "JUDGEAPP_SEARCH_INDEX_CACHE": str(workdir / "search"),
        "JUDGEAPP_MEDIA_ROOT": str(workdir / "media"),
        "JUDGEAPP_STATIC_ROOT": str(workdir / "static"),
        "GUNICORN_BIND": f"127.0.0.1:{port}",
        "GUNICORN_WORKERS": os.environ.get("CONTRACT_GUNICORN_WORKERS", "2"),
        "OPENBLAS_NUM_THREADS": "1",
        "JUDGEAPP_LOG_LEVEL": "ERROR",
        # one client sending thousands of requests: the rate limits and the failed-authentication
        # throttle (tested in tests/judgeapp/test_api_limits.py) would answer most of them 429
        "JUDGEAPP_RATE_ANONYMOUS": "0",
        "JUDGEAPP_RATE_JUDGE": "0",
        "JUDGEAPP_JOB_RATE_ANONYMOUS": "0",
        "JUDGEAPP_JOB_RATE_JUDGE": "0",
        "JUDGEAPP_AUTH_FAILURE_LIMIT": "0",
    }
    history = f" and the 2022 CR from {RULES_DIR}" if OLDER_CR.is_file() else ""
    print(f"== contract: preparing {DATABASE} (rules from {SHIPPED}{history})", flush=True)
    seeded = prepare_database(env)
    config = workdir / "schemathesis.toml"
    write_config(config, seeded)
    print(f"== contract: seeded {seeded}", flush=True)
    subprocess.run(
        [PY, "-c", f"import redis; redis.Redis.from_url({BROKER!r}).flushdb()"], check=True
    )
    print(
        f"== contract: prepared in {time.monotonic() - started:.0f} s; starting gunicorn on "
        f":{port} and a worker",
        flush=True,
    )
    logs = {name: (workdir / f"{name}.log").open("wb") for name in ("web", "worker")}
    web = subprocess.Popen(
        [
            PY,
            "-m",
            "gunicorn",
            "judgeapp.wsgi",
            "--config",
            "docker/gunicorn.conf.py",
            "--access-logfile",
            "/dev/null",
        ],
        cwd=REPO,
        env=env,
        stdout=logs["web"],
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    worker = subprocess.Popen(
        [
            PY,
            "-m",
            "celery",
            "-A",
            "judgeapp",
            "worker",
            "--loglevel",
            "WARNING",
            "--concurrency",
            "1",
            "--without-gossip",
            "--without-mingle",
            "--without-heartbeat",
        ],
        cwd=REPO,
        env=env,
        stdout=logs["worker"],
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    report = workdir / "events.ndjson"
    try:
        wait_for(f"http://127.0.0.1:{port}/api/v1/health", 120)
        fuzz_started = time.monotonic()
        command = [
            str(Path(PY).parent / "schemathesis"),
            "--config-file",
            str(config),
            "run",
            f"http://127.0.0.1:{port}/api/v1/schema/",
            "--checks",
            CHECKS,
            "--max-examples",
            EXAMPLES,
            "--seed",
            SEED,
            "--workers",
            WORKERS,
            "--phases",
            PHASES,
            "--auth",
            f"{USER}:{PASSWORD}",
            "--request-timeout",
            "60",
            "--generation-database",
            "none",
            "--no-shrink",
            "--suppress-health-check",
            "all",
            "--report",
            "ndjson",
            "--report-ndjson-path",
            str(report),
            "--no-color",
            "--output-truncate",
            "true",
        ]
        print("== contract:", " ".join(command[1:]), flush=True)
        hooks = {"SCHEMATHESIS_HOOKS": "contract_hooks", "PYTHONPATH": str(REPO / ".ci")}
        code = subprocess.run(command, cwd=REPO, env={**env, **hooks}).returncode
        fuzz_seconds = time.monotonic() - fuzz_started
    finally:
        for process in (web, worker):
            os.killpg(process.pid, signal.SIGTERM)
        for process in (web, worker):
            try:
                process.wait(20)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
    summary = (
        summarise(report)
        if report.exists()
        else {"requests": 0, "failures": -1, "operations": 0, "failed": {}}
    )
    errors = (workdir / "web.log").read_text(errors="replace").count("error id ")
    print(
        f"== contract: {summary['requests']} requests, {summary['failures']} failures, "
        f"{summary['operations']} operations, {errors} logged 500s, schemathesis "
        f"{fuzz_seconds:.0f} "
        f"s, total {time.monotonic() - started:.0f} s (seed {SEED}, {EXAMPLES} examples an "
        f"operation, {WORKERS} workers, phases {PHASES})"
    )
    for label, checks in summary["failed"].items():
        print(f"   FAILED {label}: {', '.join(checks)}")
    if errors:
        print((workdir / "web.log").read_text(errors="replace")[-6000:])
    if os.environ.get("CONTRACT_KEEP") != "1":
        shutil.rmtree(workdir, ignore_errors=True)
    else:
        print(f"== contract: logs kept in {workdir}")
    return 0 if code == 0 and summary["failures"] == 0 and errors == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
