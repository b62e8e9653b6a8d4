"""A rule page's history (rulesref.pages.content.guarded): a failed change service leaves the page
with its rule, and the service runs in the request's own mode: no transaction opened around it in a
request (autocommit), so a history diffed for the first time never holds SQLite's write lock while
it diffs (judgeapp.settings opens SQLite's transactions with that lock); a savepoint inside a
transaction, so a failed query does not spoil it (PostgreSQL on `make test-stack`)."""

from __future__ import annotations

import pytest
from django.db import connection, transaction

from rulesref.pages.content import guarded


@pytest.mark.django_db(transaction=True)
def test_in_a_request_the_service_runs_without_a_transaction_of_its_own():
    seen = {}

    def produce():
        seen["in_transaction"] = transaction.get_connection().in_atomic_block
        return "history"

    assert guarded(produce) == ("history", False)
    assert seen == {"in_transaction": False}


@pytest.mark.django_db(transaction=True)
def test_a_failed_service_leaves_the_page_its_rule():
    def produce():
        with connection.cursor() as cursor:
            cursor.execute("SELECT * FROM no_such_table_for_history")

    assert guarded(produce) == (None, True)
    with connection.cursor() as cursor:  # the connection still answers
        cursor.execute("SELECT 1")
        assert cursor.fetchone() == (1,)


@pytest.mark.django_db
def test_inside_a_transaction_a_failed_query_does_not_spoil_it():
    from rulesref.models import Version

    def produce():
        with connection.cursor() as cursor:
            cursor.execute("SELECT * FROM no_such_table_for_history")

    with transaction.atomic():
        assert guarded(produce) == (None, True)
        # on PostgreSQL this query fails ("current transaction is aborted") without the savepoint
        assert Version.objects.filter(document__slug="cr").exists()
