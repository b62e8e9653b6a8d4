"""manage.py build_search_index: build the search indexes of the current versions and keep them
on disk."""

from __future__ import annotations

import time

from django.core.management.base import BaseCommand

from rulesref import services
from search import service


class Command(BaseCommand):
    help = (
        "Build the search index of the current versions (all documents, and each document on its "
        "own) and keep it in SEARCH_INDEX_CACHE, so every new web process answers its first search "
        "at once (make setup runs it)."
    )

    def handle(self, *args, **options):
        for doc in (None, *services.DOC_TITLES):
            versions = service.current_versions(doc)
            if not versions:
                continue
            start = time.perf_counter()
            index = service.index_for(versions)
            self.stdout.write(
                f"{(doc or 'all').upper()}: {len(index.entries)} entries, "
                f"{len(index.question_owner)} asked-as questions, "
                f"{time.perf_counter() - start:.1f} "
                "s"
            )
