"""The embedded SQLite file under several threads (the embedded default serves with threads, and an
import or a publish holds the write lock for seconds): a page read never waits for a writer, and a
write made meanwhile waits its turn instead of failing with "database is locked".

Real SQLite files in a temporary folder, each thread with its own connection (Django's
ConnectionHandler, as the service has), with the settings judgeapp.settings.database_from_url gives,
and Django's own atomic blocks (pointed at these connections instead of the suite's database).
"""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest
from django.db import OperationalError, transaction
from django.db.utils import ConnectionHandler

from judgeapp.settings import database_from_url

HOLD = 1.5  # seconds the "import" holds the write lock


@pytest.fixture(autouse=True)
def own_files(django_db_blocker):
    """These tests open their own SQLite files, never the suite's database."""
    with django_db_blocker.unblock():
        yield


def handler(entry: dict) -> ConnectionHandler:
    return ConnectionHandler({"default": entry})


def import_holding_the_lock(connections: ConnectionHandler, started: threading.Event) -> None:
    """An import: a transaction that writes, then keeps the lock for HOLD seconds."""
    try:
        with transaction.atomic(), connections["default"].cursor() as cursor:
            cursor.execute("INSERT INTO rule (number) VALUES ('702.19')")
            started.set()
            time.sleep(HOLD)
    finally:
        connections.close_all()


def during_an_import(entry: dict) -> dict:
    """While another thread's transaction holds the write lock: a read, and a transaction that reads
    then writes (a judge saving a call). What each did: the read's rows and seconds, the write's
    seconds or its error."""
    connections = handler(entry)
    # Django's atomic blocks on these connections (each thread its own, as in the service)
    real = transaction.get_connection
    transaction.get_connection = lambda using=None: connections[using or "default"]
    try:
        return _during_an_import(connections)
    finally:
        transaction.get_connection = real


def _during_an_import(connections: ConnectionHandler) -> dict:
    with connections["default"].cursor() as cursor:
        cursor.execute("CREATE TABLE IF NOT EXISTS rule (id INTEGER PRIMARY KEY, number TEXT)")
        cursor.execute("CREATE TABLE IF NOT EXISTS call (id INTEGER PRIMARY KEY, note TEXT)")
    connections.close_all()
    started = threading.Event()
    writer = threading.Thread(target=import_holding_the_lock, args=(connections, started))
    writer.start()
    assert started.wait(10)
    found: dict = {}
    try:
        begun = time.monotonic()
        with connections["default"].cursor() as cursor:
            cursor.execute("SELECT count(*) FROM rule")
            found["rows_read"] = cursor.fetchone()[0]
        found["read_seconds"] = time.monotonic() - begun
        begun = time.monotonic()
        try:
            with transaction.atomic(), connections["default"].cursor() as cursor:
                cursor.execute("SELECT count(*) FROM call")
                cursor.execute("INSERT INTO call (note) VALUES ('drew an extra card')")
            found["write_seconds"] = time.monotonic() - begun
        except OperationalError as exc:
            found["write_error"] = str(exc)
    finally:
        writer.join()
        connections.close_all()
    with connections["default"].cursor() as cursor:
        cursor.execute("SELECT count(*) FROM call")
        found["calls_saved"] = cursor.fetchone()[0]
    connections.close_all()
    return found


def test_the_embedded_database_reads_beside_an_import_and_queues_writes_behind_it(
    tmp_path: Path,
) -> None:
    found = during_an_import(database_from_url("", tmp_path / "judge.sqlite3"))
    # the read answered at once, from before the import's uncommitted rows
    assert found["read_seconds"] < 0.5 and found["rows_read"] == 0, found
    # the judge's save waited for the import and was kept
    assert "write_error" not in found, found
    assert found["write_seconds"] > HOLD / 2 and found["calls_saved"] == 1, found


def test_a_sqlite_url_gets_the_same_settings(tmp_path: Path) -> None:
    found = during_an_import(database_from_url(f"sqlite:///{tmp_path / 'event.sqlite3'}", Path()))
    assert "write_error" not in found and found["calls_saved"] == 1, found


def test_with_sqlites_defaults_the_same_save_fails_at_once(tmp_path: Path) -> None:
    """What the settings prevent: SQLite's deferred transaction, having read, cannot wait for the
    lock, so the save fails at once though the timeout allows seconds."""
    entry = {"ENGINE": "django.db.backends.sqlite3", "NAME": str(tmp_path / "plain.sqlite3")}
    found = during_an_import(entry)
    assert "database is locked" in found.get("write_error", ""), found
    assert found["calls_saved"] == 0


def test_the_wait_is_bounded_by_the_setting(tmp_path: Path, monkeypatch) -> None:
    """Past JUDGEAPP_SQLITE_BUSY_TIMEOUT the save fails (the request answers 503): never a hang."""
    monkeypatch.setenv("JUDGEAPP_SQLITE_BUSY_TIMEOUT", "0.2")
    found = during_an_import(database_from_url("", tmp_path / "short.sqlite3"))
    assert "database is locked" in found.get("write_error", ""), found
    assert found["calls_saved"] == 0
