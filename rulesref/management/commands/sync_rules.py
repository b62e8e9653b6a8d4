"""manage.py sync_rules [--url URL ...]: fetch the newest official documents and store new ones as pending."""

from __future__ import annotations

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from rulesref import curation


class Command(BaseCommand):
    help = (
        "Fetch the official rules documents from settings.JUDGEAPP_SYNC_URLS (or each --url) and store the ones "
        "not stored yet as pending versions for review. Never publishes. If any URL cannot be fetched or parsed "
        "(for instance with no network), it fails naming the URL and stores nothing."
    )

    def add_arguments(self, parser):
        parser.add_argument("--url", action="append", dest="urls", metavar="URL", help="a document URL (repeatable); replaces the configured list")
        parser.add_argument("--timeout", type=float, default=20.0, help="seconds to wait for each server (default 20)")

    def handle(self, *args, urls, timeout, **options):
        try:
            outcomes = curation.sync_documents(urls or settings.JUDGEAPP_SYNC_URLS, timeout=timeout)
        except curation.SyncError as exc:
            raise CommandError(f"{exc.message}; nothing was changed") from None
        for outcome in outcomes:
            self.stdout.write(outcome.summary())
