"""manage.py import_rules PATH [PATH ...] [--publish] (docs/API.md "Commands")."""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from rulesref import services
from rulesref.parsing.records import ParseError


class Command(BaseCommand):
    help = (
        "Import rules documents (CR text, MTR/IPG/JAR HTML; files or folders). The kind and "
        "effective date are read from each document. Importing the same content twice changes "
        "nothing. With --publish, the newest imported version of each document becomes the current "
        "one. A file that cannot be read stops the import before anything is written, naming the "
        "file and line."
    )

    def add_arguments(self, parser):
        parser.add_argument("paths", nargs="+", help="rules files or folders of them")
        parser.add_argument(
            "--publish",
            action="store_true",
            help="make the newest imported version of each document current",
        )

    def handle(self, *args, paths, publish, **options):
        try:
            outcomes = services.import_paths(paths, publish=publish)
        except ParseError as exc:
            raise CommandError(f"{exc}\nNothing was imported.") from None
        for outcome in outcomes:
            self.stdout.write(outcome.summary())
        if publish:
            from rulesref.models import Version

            for version in (
                Version.objects.filter(is_current=True)
                .select_related("document")
                .order_by("document__slug")
            ):
                self.stdout.write(
                    f"current: {version.document.slug.upper()} {version.effective_date.isoformat()}"
                )
