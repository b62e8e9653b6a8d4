"""Shared set-up for benchmarks that need Django: a throwaway database and the repo on sys.path."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
RULES = Path(os.environ.get("JUDGEAPP_RULES_DIR", REPO.parent / "shared" / "rules"))
PG_ADMIN_URL = os.environ.get("BENCH_PG_URL", "postgres://postgres@127.0.0.1:5432")
# The environment of a server a benchmark starts as deployed: debug off, which then requires a
# secret and the host names; errors only in the log; and the API's rate limits far above what the
# benchmark's clients, all from one address, send.
DEPLOYED_ENV = {
    "DJANGO_DEBUG": "0",
    "DJANGO_ALLOWED_HOSTS": "127.0.0.1,localhost",
    "DJANGO_SECRET_KEY": "bench-only-secret",
    "JUDGEAPP_LOG_LEVEL": "ERROR",
    "JUDGEAPP_RATE_ANONYMOUS": "10000000",
    "JUDGEAPP_RATE_JUDGE": "10000000",
}


def fresh_database(vendor: str, name: str) -> str:
    """A new empty database URL for one benchmark run: an SQLite file in /tmp, or a
    PostgreSQL database."""
    if vendor == "sqlite":
        path = Path(f"/tmp/{name}.sqlite3")
        path.unlink(missing_ok=True)
        return f"sqlite:///{path}"
    subprocess.run(
        ["psql", f"{PG_ADMIN_URL}/postgres", "-qc", f"DROP DATABASE IF EXISTS {name}"],
        check=True,
        capture_output=True,
    )
    subprocess.run(
        ["psql", f"{PG_ADMIN_URL}/postgres", "-qc", f"CREATE DATABASE {name}"],
        check=True,
        capture_output=True,
    )
    return f"{PG_ADMIN_URL}/{name}"


def ensure_database(database_url: str) -> None:
    """Create the PostgreSQL database `database_url` names when it does not exist yet (kept when it
    does, so a benchmark reuses what it stored before); nothing for SQLite."""
    if not database_url.startswith(("postgres://", "postgresql://")):
        return
    server, name = database_url.rsplit("/", 1)
    name = name.split("?", 1)[0]
    found = subprocess.run(
        [
            "psql",
            f"{server}/postgres",
            "-tAc",
            f"SELECT 1 FROM pg_database WHERE datname = '{name}'",
        ],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    if not found:
        subprocess.run(
            ["psql", f"{server}/postgres", "-qc", f'CREATE DATABASE "{name}"'],
            check=True,
            capture_output=True,
        )


def setup_django(database_url: str, broker: str = "memory://") -> None:
    os.environ["DATABASE_URL"] = database_url
    os.environ["CELERY_BROKER_URL"] = broker
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "judgeapp.settings")
    sys.path.insert(0, str(REPO))
    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate", verbosity=0)


def collected_static(env: dict[str, str], folder: Path | None = None) -> str:
    """collectstatic for a server run with debug off, as every deployment does: a folder for
    JUDGEAPP_STATIC_ROOT (health answers 503 while the static files are not collected)."""
    import tempfile

    root = folder or Path(tempfile.mkdtemp(prefix="judgeapp-static-"))
    subprocess.run(
        [sys.executable, "manage.py", "collectstatic", "--noinput", "-v0", "--skip-checks"],
        cwd=REPO,
        env={**os.environ, **env, "JUDGEAPP_STATIC_ROOT": str(root)},
        check=True,
    )
    return str(root)
