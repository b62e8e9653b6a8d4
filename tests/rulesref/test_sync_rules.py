"""manage.py sync_rules: fetch official documents, store new ones as pending, never publish; with no
network, fail naming the URL and change nothing. The success path fetches real files from a local
HTTP server (no mock of the network stack)."""

from __future__ import annotations

import functools
import http.server
import io
import os
import socket
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from rulesref.models import GlossaryTerm, Rule, Version, VersionEvent
from rulesref.parsing.documents import parse_document
from tests.conftest import RULES_DIR, needs_history

pytestmark = pytest.mark.django_db

REPO = Path(__file__).resolve().parents[2]
NEW_CR = "MagicCompRules-20220218.txt"  # not among the base documents conftest publishes


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format, *args):  # noqa: A002 (the signature is http.server's)
        pass


@pytest.fixture
def rules_server():
    """A real HTTP server on 127.0.0.1 serving the CR folder; yields its base URL."""
    server = http.server.ThreadingHTTPServer(
        ("127.0.0.1", 0), functools.partial(QuietHandler, directory=str(RULES_DIR / "cr"))
    )
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()
    thread.join(timeout=5)


@pytest.fixture
def closed_port() -> int:
    """A local port nobody listens on (bound, then released)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def db_state() -> dict:
    return {
        "versions": list(
            Version.objects.order_by("pk").values_list("pk", "status", "is_current", "content_hash")
        ),
        "events": VersionEvent.objects.count(),
        "rules": Rule.objects.count(),
        "glossary": GlossaryTerm.objects.count(),
    }


def sync(*urls: str) -> str:
    out = io.StringIO()
    call_command(
        "sync_rules", *[arg for url in urls for arg in ("--url", url)], "--timeout", "5", stdout=out
    )
    return out.getvalue()


class SyncFailureTests:
    def test_configured_official_url_fails_without_network_and_changes_nothing(self, settings):
        # This machine has no network: the configured official address cannot be fetched.
        before = db_state()
        with pytest.raises(CommandError) as failure:
            call_command("sync_rules", "--timeout", "5", stdout=io.StringIO())
        assert settings.JUDGEAPP_SYNC_URLS[0] in str(failure.value)
        assert "nothing was changed" in str(failure.value)
        assert db_state() == before

    @needs_history
    def test_refused_connection_names_the_url_and_changes_nothing(self, closed_port):
        before, url = db_state(), f"http://127.0.0.1:{closed_port}/{NEW_CR}"
        with pytest.raises(CommandError, match=f"cannot fetch {url}"):
            sync(url)
        assert db_state() == before

    @needs_history
    def test_one_bad_url_among_good_ones_stores_nothing(self, rules_server, closed_port):
        before = db_state()
        with pytest.raises(CommandError, match=str(closed_port)):
            sync(f"{rules_server}/{NEW_CR}", f"http://127.0.0.1:{closed_port}/x.txt")
        assert db_state() == before

    def test_missing_file_on_the_server_is_named_with_its_status(self, rules_server):
        before = db_state()
        with pytest.raises(CommandError, match=r"answered 404"):
            sync(f"{rules_server}/MagicCompRules-19990101.txt")
        assert db_state() == before

    def test_command_exits_non_zero_with_the_message_on_stderr(self, tmp_path, closed_port):
        env = {
            **os.environ,
            "DATABASE_URL": f"sqlite:///{tmp_path / 'sync.sqlite3'}",
            "JUDGEAPP_SYNC_URLS": f"http://127.0.0.1:{closed_port}/cr.txt",
        }
        manage = [sys.executable, str(REPO / "manage.py")]
        subprocess.run(
            [*manage, "migrate", "-v0"],
            cwd=REPO,
            env=env,
            check=True,
            capture_output=True,
            timeout=120,
        )
        run = subprocess.run(
            [*manage, "sync_rules", "--timeout", "5"],
            cwd=REPO,
            env=env,
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert run.returncode != 0
        assert (
            f"http://127.0.0.1:{closed_port}/cr.txt" in run.stderr
            and "nothing was changed" in run.stderr
        )
        assert run.stdout == ""


class SyncSuccessTests:
    @needs_history
    def test_new_document_is_stored_as_pending_and_not_published(self, rules_server):
        current = Version.objects.get(document__slug="cr", is_current=True)
        url = f"{rules_server}/{NEW_CR}"
        out = sync(url)
        version = Version.objects.get(document__slug="cr", effective_date="2022-02-18")
        parsed = parse_document((RULES_DIR / "cr" / NEW_CR).read_bytes(), NEW_CR)
        assert out.strip() == (
            f"{url}: CR 2022-02-18 stored as pending version #{version.pk} "
            f"({len(parsed.counted_rules)} rules)"
        )
        assert version.status == Version.Status.PENDING and not version.is_current
        assert version.rule_count == len(parsed.counted_rules) and version.source_name == NEW_CR
        assert Version.objects.get(document__slug="cr", is_current=True) == current
        assert (
            not VersionEvent.objects.filter(to_version=version)
            .exclude(action=VersionEvent.Action.IMPORT)
            .exists()
        )

    def test_a_document_already_stored_is_reported_and_not_stored_twice(self, rules_server):
        current = Version.objects.get(document__slug="cr", is_current=True)
        before = db_state()
        out = sync(f"{rules_server}/MagicCompRules-20250207.txt")
        assert f"already stored as version #{current.pk}" in out
        assert db_state() == before

    @needs_history
    def test_one_line_per_url(self, rules_server):
        urls = [f"{rules_server}/{NEW_CR}", f"{rules_server}/MagicCompRules-20211119.txt"]
        lines = sync(*urls).splitlines()
        assert [line.split(": ")[0] for line in lines] == urls
        assert (
            Version.objects.filter(
                status=Version.Status.PENDING, effective_date__in=["2022-02-18", "2021-11-19"]
            ).count()
            == 2
        )
