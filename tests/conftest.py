"""Shared test fixtures: where the real rules documents are."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import settings as hypothesis_settings

# Hypothesis fails an example slower than its deadline (200 ms by default). Here an example can be
# paused by the machine's other work (two cores) or by a thread of the test process itself: the
# search encoder's ONNX Runtime session is built on one after a process's first question, holding
# the interpreter for up to a few hundred milliseconds. Slowed is not wrong: 2 s still catches an
# example that has gone quadratic.
hypothesis_settings.register_profile("judgeapp", deadline=2000)
hypothesis_settings.load_profile("judgeapp")

REPO = Path(__file__).resolve().parent.parent
# The current version of each document, shipped in the repository (rules/README.md).
SHIPPED_DIR = REPO / "rules"
# Every version (the history): the shared rules folder beside the repository, or JUDGEAPP_RULES_DIR.
HISTORY_DIR = Path(os.environ.get("JUDGEAPP_RULES_DIR", REPO.parent / "shared" / "rules"))
HAS_HISTORY = HISTORY_DIR.is_dir() and any((HISTORY_DIR / "cr").glob("*.txt"))
# Where the tests read documents: the history when it is there (it holds the shipped files too),
# else the shipped documents alone. Tests that need an older version are marked `history` (below).
RULES_DIR = HISTORY_DIR if HAS_HISTORY else SHIPPED_DIR
HISTORY_REASON = (
    f"needs the older rules documents (the history), not found at {HISTORY_DIR}: set "
    "JUDGEAPP_RULES_DIR to a folder of every version (cr/, mtr/, ipg/, jar/), such as the shared "
    "rules folder ../shared/rules (rules/README.md says where the documents come from)"
)
needs_history = pytest.mark.history


@pytest.fixture(scope="session", autouse=True)
def api_limits_off():
    """The API's rate limits and failed-authentication throttle (judgeapp.api_limits) count every
    client of the suite as one address: off unless a test sets them (tests/judgeapp/test_limits.py),
    so no test depends on what the others asked before it."""
    from django.test import override_settings

    limits = override_settings(
        JUDGEAPP_RATE_ANONYMOUS=0,
        JUDGEAPP_RATE_JUDGE=0,
        JUDGEAPP_JOB_RATE_ANONYMOUS=0,
        JUDGEAPP_JOB_RATE_JUDGE=0,
        JUDGEAPP_AUTH_FAILURE_LIMIT=0,
    )
    limits.enable()
    yield
    limits.disable()


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item):
    if item.get_closest_marker("history") and not HAS_HISTORY:
        pytest.skip(HISTORY_REASON)


def pytest_sessionfinish(session):
    """The run's queue is removed from the broker at the end of a run on the real stack, by the
    process that started the run (xdist's workers may still be sending to it until then)."""
    if os.environ.get("JUDGEAPP_REAL_WORKER") == "1" and not hasattr(session.config, "workerinput"):
        from tests.jobs.worker import forget_queue

        forget_queue()


# after pytest-django's order: tests in a transaction, those that flush, the rest
@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config, items):
    """The browser tests run last (in each xdist worker too: work is handed out in this order). They
    share one Chromium for the session (tests/browser/conftest.py), and while Playwright's sync API
    is open the thread has a running asyncio loop, which no other test should meet."""
    items.sort(key=lambda item: Path(str(item.path)).is_relative_to(REPO / "tests" / "browser"))


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config, log):
    """`--dist loadfile` in the collection's order. A test that flushes the database (transactional)
    empties the documents the session imported, so pytest-django runs them after every test that
    rolls back; a file's tests in two places of that order are two units here, and the units are
    handed out in order, so no xdist worker runs a rolled-back test after a flush."""
    if config.getvalue("dist") != "loadfile":
        return None
    from xdist.scheduler import LoadScopeScheduling

    class InOrderFileScheduling(LoadScopeScheduling):
        _units: dict[str, str] | None = None

        def _split_scope(self, nodeid: str) -> str:
            if self._units is None:
                self._units, run, last = {}, 0, None
                for each in self.collection:
                    file = each.split("::", 1)[0]
                    # The browser tests (last) are a unit each: they share only session fixtures,
                    # and handed out one by one they end both workers together instead of leaving
                    # one worker alone with a long file.
                    unit = each if file.startswith("tests/browser/") else file
                    run += unit != last
                    self._units[each], last = f"{run:05d} {unit}", unit
            return self._units[nodeid]

    config.option.loadscopereorder = False  # the order is what keeps the flushes last
    return InOrderFileScheduling(config, log)


def rules_files(kind: str) -> list[Path]:
    """Every real document of one kind (cr, mtr, ipg, jar), oldest first: the history's when it is
    there, else the shipped (current) one."""
    return sorted((RULES_DIR / kind).glob("*.*"))


def parsed_cr_2025():
    """The real 2025 CR, parsed (rulesref.parsing.records.ParsedDocument); fails when it
    is missing."""
    from rulesref.parsing.common import decode_document
    from rulesref.parsing.cr import parse_cr

    path = RULES_DIR / "cr" / "MagicCompRules-20250207.txt"
    if not path.is_file():
        pytest.fail(f"real CR not found at {path} (it ships in rules/cr/)")
    return parse_cr(decode_document(path.read_bytes(), str(path)), str(path))


@pytest.fixture(scope="session")
def rules_dir() -> Path:
    if not RULES_DIR.is_dir():
        pytest.fail(f"rules documents not found at {RULES_DIR} (the current ones ship in rules/)")
    return RULES_DIR


# The real documents most database tests stand on, imported once per test session: the 2022-04-29 CR
# (the history: tests of diffs, traces and old numbers, marked `history`) and the current one.
BASE_DOCUMENTS = (("cr/MagicCompRules-20220429.txt",) if HAS_HISTORY else ()) + (
    "cr/MagicCompRules-20250207.txt",
)


def policy_documents() -> list[Path]:
    """The newest MTR, IPG and JAR (imported and published too). Each must be there and must import:
    a parser that breaks fails the suite's set-up instead of quietly skipping what needs it."""
    found = []
    for kind in ("mtr", "ipg", "jar"):
        files = rules_files(kind)
        assert files, (
            f"no {kind.upper()} in {RULES_DIR / kind} (the current one ships in rules/{kind}/)"
        )
        found.append(files[-1])
    return found


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup, django_db_blocker, tmp_path_factory):
    from django.conf import settings

    from rulesref import services

    # No background embedding of the whole CR during the suite: search stays lexical unless a test
    # builds vectors itself (tests/search/test_search_service.py).
    settings.SEARCH_VECTORS = False
    settings.SEARCH_SHIPPED_VECTORS = False  # nor the vectors shipped in search/shipped/
    # Search indexes are kept on disk for this test run (named by everything they are built from,
    # search.index_cache): built once, then loaded by every test that drops the process's
    # indexes, and by the other xdist workers, whose databases hold the same versions.
    run_folder = tmp_path_factory.getbasetemp()
    settings.SEARCH_INDEX_CACHE = str(
        (run_folder.parent if os.environ.get("PYTEST_XDIST_WORKER") else run_folder)
        / "search-index"
    )
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]  # fast test users
    with django_db_blocker.unblock():
        services.import_paths([RULES_DIR / name for name in BASE_DOCUMENTS], publish=True)
        from rulesref import changes
        from rulesref.models import Version

        if HAS_HISTORY:
            old, new = Version.objects.filter(document__slug="cr").order_by("effective_date")
            # stored once for the session: diffs, traces and references reuse it
            changes.pairing(old, new)
        services.import_paths(policy_documents(), publish=True)


@pytest.fixture
def people(db):
    """Named people for service and view tests (STYLE 5)."""
    from django.contrib.auth.models import User

    return {
        "head_judge": User.objects.create_user("head", password="pw-head-judge", is_staff=True),
        "floor_judge": User.objects.create_user("floor", password="pw-floor-judge"),
        "stranger": None,
    }


# The rules tables' rows as the first import after a flush left them, copied into tables of their
# own (flush empties only Django's tables), so that the next flushed test copies them back in SQL
# instead of parsing and publishing the four documents again (about a second of CPU each time).
SNAPSHOT_PREFIX = "zz_snapshot_"


def _rules_tables() -> list:
    from django.apps import apps

    return [
        model
        for label in ("rulesref", "search")
        for model in apps.get_app_config(label).get_models(include_auto_created=True)
        if not model._meta.proxy and model._meta.managed
    ]


def _snapshot_rules_tables() -> None:
    from django.db import connection

    quote = connection.ops.quote_name
    with connection.cursor() as cursor:
        for model in _rules_tables():
            table = model._meta.db_table
            cursor.execute(f"DROP TABLE IF EXISTS {quote(SNAPSHOT_PREFIX + table)}")
            cursor.execute(
                f"CREATE TABLE {quote(SNAPSHOT_PREFIX + table)} AS SELECT * FROM {quote(table)}"
            )


def _restore_rules_tables() -> bool:
    """Copy the snapshot back into the (flushed) rules tables; False when there is none."""
    from django.core.management.color import no_style
    from django.db import connection, transaction

    quote = connection.ops.quote_name
    models = _rules_tables()
    if not all(
        SNAPSHOT_PREFIX + model._meta.db_table in connection.introspection.table_names()
        for model in models
    ):
        return False
    with transaction.atomic(), connection.cursor() as cursor:
        for model in models:
            table = model._meta.db_table
            columns = ", ".join(quote(field.column) for field in model._meta.local_concrete_fields)
            cursor.execute(
                f"INSERT INTO {quote(table)} ({columns}) "
                f"SELECT {columns} FROM {quote(SNAPSHOT_PREFIX + table)}"
            )
        for statement in connection.ops.sequence_reset_sql(no_style(), models):
            cursor.execute(statement)
    return True


@pytest.fixture
def rules_loaded(transactional_db):
    """For transactional tests (a worker process or on-commit work must see committed rows): the
    tables are flushed after each such test, so the base documents are imported again if missing
    (the first time by parsing them; after that from the copy that import left)."""
    from rulesref import services
    from rulesref.models import Version

    if Version.objects.filter(document__slug="cr", is_current=True).exists():
        return
    untouched = not Version.objects.exists()
    if untouched and _restore_rules_tables():
        services.forget_current_versions()
        return
    services.import_paths([RULES_DIR / "cr" / "MagicCompRules-20250207.txt"], publish=True)
    services.import_paths(policy_documents(), publish=True)
    if untouched:
        _snapshot_rules_tables()


@pytest.fixture(autouse=True)
def forget_process_caches():
    """Process caches (current version ids, resolved references) must not outlive a
    rolled-back test."""
    yield
    from rulesref import changes, references, services

    services.forget_current_versions()
    references.forget_resolutions()
    changes._records.clear()  # keyed by version id, which a rolled-back test gives out again


@pytest.fixture(autouse=True)
def celery_mode(request):
    """Tasks run eagerly in every test but those marked `worker`, which use a real worker process on
    the real broker (`make test-stack`): eager runs test the logic, worker tests the delivery."""
    from judgeapp.celery import app

    if request.node.get_closest_marker("worker"):
        # The run's worker tests share its queue (JUDGEAPP_QUEUE), and a worker process started by
        # one takes any job on it: one at a time across the run's xdist workers, whatever the
        # scheduling (xdist's --dist loadgroup stopped grouping with pytest 9.2, pytest-xdist
        # issue 1386).
        from tests.jobs.worker import one_at_a_time

        with one_at_a_time():
            yield
        return
    previous = app.conf.task_always_eager
    app.conf.task_always_eager = True
    yield
    app.conf.task_always_eager = previous
