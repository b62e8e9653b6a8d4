"""python manage.py import_cards ORACLE_CARDS.json RULINGS.json"""

from __future__ import annotations

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from cards import scryfall, services


class Command(BaseCommand):
    help = (
        "Import Scryfall's Oracle-cards and rulings bulk files (JSON, as Scryfall publishes "
        "them). The card table changes only if both read whole."
    )

    def add_arguments(self, parser):
        parser.add_argument("cards", type=Path, help="the oracle_cards bulk file")
        parser.add_argument("rulings", type=Path, help="the rulings bulk file")
        parser.add_argument(
            "--replace",
            action="store_true",
            help="import even a file with fewer than half the cards or rulings the table holds",
        )

    def handle(self, *args, **options):
        try:
            outcome = services.import_bulk(
                options["cards"], options["rulings"], replace=options["replace"]
            )
        except UnicodeDecodeError as exc:
            raise CommandError(
                f"{options['cards'].name} or {options['rulings'].name}: not UTF-8 text "
                f"({exc.reason} at byte {exc.start})"
            ) from None
        except (scryfall.BulkError, ValueError) as exc:
            # ValueError: a file refused whole (services.SizeRefused), a value the database refused
            raise CommandError(f"cards not changed: {exc}") from None
        except OSError as exc:
            raise CommandError(f"{exc.filename or ''}: {exc.strerror or exc}") from None
        self.stdout.write(
            f"cards: {outcome.cards} ({outcome.added} new, {outcome.updated} changed, "
            f"{outcome.removed} gone), {outcome.rulings} rulings"
        )
        services.wait_for_search_vectors(self.stdout)
