"""SearchVector moved from rulesref to the search app and keeps its rows: a database made before the
move (the model in rulesref, search without a migration) migrates forward without losing one, on
SQLite and on PostgreSQL (`DATABASE_URL=postgres://… pytest
tests/search/test_moved_search_vector_migration.py`)."""

from __future__ import annotations

import pytest

from tests.migrating import latest, migrate

# The last state before the move: rulesref owned SearchVector; search had no migration.
BEFORE = [("rulesref", "0004_searchvector_model_name_length"), ("search", None)]


@pytest.mark.django_db(transaction=True)
class MovedSearchVectorMigrationTests:
    def test_vectors_stored_before_the_move_are_found_after_it(self):
        old = migrate(BEFORE)
        assert "search" not in {m._meta.app_label for m in old.get_models()}
        row = old.get_model("rulesref", "SearchVector").objects.create(
            key="k" * 64, model="judge-tuned", vector=b"\x00\x01" * 8
        )

        new = migrate(latest())

        moved = new.get_model("search", "SearchVector").objects.get(pk=row.pk)
        assert (moved.key, moved.model, bytes(moved.vector)) == (
            "k" * 64,
            "judge-tuned",
            b"\x00\x01" * 8,
        )
        with pytest.raises(LookupError):
            new.get_model("rulesref", "SearchVector")

        # The app's own model reads the same table, and new rows continue its ids.
        from search.models import SearchVector

        assert SearchVector._meta.db_table == "rulesref_searchvector"
        assert SearchVector.objects.get(key="k" * 64).model == "judge-tuned"
        assert SearchVector.objects.create(key="n" * 64, model="m", vector=b"").pk > row.pk

    def test_the_content_type_follows_the_model(self):
        from django.contrib.contenttypes.models import ContentType

        from search.models import SearchVector

        ContentType.objects.clear_cache()
        before = ContentType.objects.get_for_model(SearchVector).pk
        migrate(BEFORE)
        assert ContentType.objects.get(pk=before).app_label == "rulesref"
        migrate(latest())
        ContentType.objects.clear_cache()
        assert ContentType.objects.get_for_model(SearchVector).pk == before
        assert ContentType.objects.get(pk=before).app_label == "search"
