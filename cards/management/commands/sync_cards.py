"""python manage.py sync_cards [--force]"""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from cards import services, sync


class Command(BaseCommand):
    help = (
        "Fetch Scryfall's current Oracle-cards and rulings bulk files "
        "(JUDGEAPP_SCRYFALL_BULK_URL) and import them when they are new."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "--force",
            action="store_true",
            help="import even when the files are the ones imported last",
        )
        parser.add_argument(
            "--replace",
            action="store_true",
            help="import even files with fewer than half the cards or rulings the table holds",
        )

    def handle(self, *args, **options):
        try:
            outcome = sync.sync_cards(force=options["force"], replace=options["replace"])
        except (OSError, ValueError) as exc:
            raise CommandError(f"card sync failed, cards not changed: {exc}") from None
        self.stdout.write(f"cards: {outcome.get_status_display().lower()}: {outcome.message}")
        services.wait_for_search_vectors(self.stdout)
