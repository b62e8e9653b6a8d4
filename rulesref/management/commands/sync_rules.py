"""manage.py sync_rules [--url URL ...] [--page URL ...]: fetch the newest official documents (the
CR, and the MTR, IPG and JAR PDFs linked from the rules-documents page) and store new ones
as pending."""

from __future__ import annotations

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from rulesref import curation


class Command(BaseCommand):
    help = (
        "Fetch the official rules documents from settings.JUDGEAPP_SYNC_URLS (or each --url), and "
        "the MTR, IPG and JAR PDFs linked from settings.JUDGEAPP_SYNC_PAGES (or each --page), and "
        "store the ones not stored yet as pending versions for review. Never publishes. If any URL "
        "cannot be fetched or parsed (for instance with no network), it fails naming the URL and "
        "stores nothing."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "--url",
            action="append",
            dest="urls",
            metavar="URL",
            help="a document URL (repeatable); replaces the configured list",
        )
        parser.add_argument(
            "--page",
            action="append",
            dest="pages",
            metavar="URL",
            help=(
                "a page linking to rules documents (repeatable); replaces "
                "settings.JUDGEAPP_SYNC_PAGES"
            ),
        )
        parser.add_argument(
            "--timeout",
            type=float,
            default=20.0,
            help="seconds to wait for each server (default 20)",
        )

    def handle(self, *args, urls, pages, timeout, **options):
        from rulesref import sync_pages

        if urls is None and pages is None:  # the configured documents and pages
            urls = list(settings.JUDGEAPP_SYNC_URLS)
            pages = list(getattr(settings, "JUDGEAPP_SYNC_PAGES", sync_pages.DEFAULT_PAGES))
        try:
            outcomes = sync_pages.sync_with_pages(urls or [], pages or [], timeout=timeout)
        except curation.SyncError as exc:
            raise CommandError(f"{exc.message}; nothing was changed") from None
        for outcome in outcomes:
            self.stdout.write(outcome.summary())
