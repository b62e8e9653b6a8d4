"""The daily card sync on a Celery worker (scheduled by Celery beat:
settings.CELERY_BEAT_SCHEDULE)."""

from __future__ import annotations

import logging

from celery import shared_task

from cards import sync

log = logging.getLogger(__name__)


@shared_task(name="cards.sync_cards", ignore_result=True)
def sync_cards() -> None:
    try:
        outcome = sync.sync_cards()
    except (OSError, ValueError):
        log.exception("card sync failed (the CardSync row holds the message)")
        return
    log.info("card sync: %s", outcome.message)
