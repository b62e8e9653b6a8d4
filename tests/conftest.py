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

RULES_DIR = Path(os.environ.get("JUDGEAPP_RULES_DIR", Path(__file__).resolve().parent.parent.parent / "shared" / "rules"))


def rules_files(kind: str) -> list[Path]:
    """Every real document of one kind (cr, mtr, ipg, jar), oldest first."""
    return sorted((RULES_DIR / kind).glob("*.*"))


def parsed_cr_2025():
    """The real 2025 CR, parsed (rulesref.parsing.records.ParsedDocument); fails when it is missing."""
    from rulesref.parsing.common import decode_document
    from rulesref.parsing.cr import parse_cr

    path = RULES_DIR / "cr" / "MagicCompRules-20250207.txt"
    if not path.is_file():
        pytest.fail(f"real CR not found at {path} (set JUDGEAPP_RULES_DIR)")
    return parse_cr(decode_document(path.read_bytes(), str(path)), str(path))


@pytest.fixture(scope="session")
def rules_dir() -> Path:
    if not RULES_DIR.is_dir():
        pytest.fail(f"rules documents not found at {RULES_DIR} (set JUDGEAPP_RULES_DIR)")
    return RULES_DIR


# The real documents most database tests stand on, imported once per test session.
BASE_DOCUMENTS = ("cr/MagicCompRules-20220429.txt", "cr/MagicCompRules-20250207.txt")


def policy_documents() -> list[Path]:
    """The newest MTR, IPG and JAR (imported and published too). Each must be there and must import:
    a parser that breaks fails the suite's set-up instead of quietly skipping what needs it."""
    found = []
    for kind in ("mtr", "ipg", "jar"):
        files = rules_files(kind)
        assert files, f"no {kind.upper()} in {RULES_DIR / kind} (set JUDGEAPP_RULES_DIR to the shared rules folder)"
        found.append(files[-1])
    return found


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup, django_db_blocker):
    from django.conf import settings

    from rulesref import services

    # No background embedding of the whole CR during the suite: search stays lexical unless a test
    # builds vectors itself (tests/search/test_search_service.py).
    settings.SEARCH_VECTORS = False
    settings.SEARCH_SHIPPED_VECTORS = False   # nor the vectors shipped in search/shipped/
    settings.SEARCH_INDEX_CACHE = ""          # indexes built in each test session, not kept on disk
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]  # fast test users
    with django_db_blocker.unblock():
        services.import_paths([RULES_DIR / name for name in BASE_DOCUMENTS], publish=True)
        from rulesref import changes
        from rulesref.models import Version

        old, new = Version.objects.filter(document__slug="cr").order_by("effective_date")
        changes.pairing(old, new)  # stored once for the session: diffs, traces and references reuse it
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


@pytest.fixture
def rules_loaded(transactional_db):
    """For transactional tests (a worker process or on-commit work must see committed rows): the
    tables are flushed after each such test, so the base documents are imported again if missing."""
    from rulesref import services
    from rulesref.models import Version

    if not Version.objects.filter(document__slug="cr", is_current=True).exists():
        services.import_paths([RULES_DIR / "cr" / "MagicCompRules-20250207.txt"], publish=True)
        services.import_paths(policy_documents(), publish=True)


@pytest.fixture(autouse=True)
def forget_process_caches():
    """Process caches (current version ids, resolved references) must not outlive a rolled-back test."""
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
        yield
        return
    previous = app.conf.task_always_eager
    app.conf.task_always_eager = True
    yield
    app.conf.task_always_eager = previous
