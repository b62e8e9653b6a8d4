"""Migrating the test database to a point and back, for the tests of data migrations."""

from __future__ import annotations

from django.db import connection
from django.db.migrations.executor import MigrationExecutor


def migrate(targets):
    """Migrate to `targets` ([(app, migration or None)]) and return the apps as they stand there."""
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state([t for t in targets if t[1] is not None]).apps


def latest():
    """Every app's newest migration: where a test leaves the database."""
    return MigrationExecutor(connection).loader.graph.leaf_nodes()
