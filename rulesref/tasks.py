"""Celery tasks for rules curation: parse an uploaded document into a pending version."""

from __future__ import annotations

import logging

from celery import shared_task
from celery.exceptions import SoftTimeLimitExceeded

from rulesref import curation

log = logging.getLogger(__name__)


@shared_task(
    name="rulesref.parse_upload", ignore_result=True, acks_late=True, reject_on_worker_lost=True
)
def parse_upload(version_id: int) -> None:
    version = curation.claim_upload(version_id)
    if version is None:
        return
    try:
        curation.parse_claimed_upload(version)
    except SoftTimeLimitExceeded:
        curation.fail_upload(
            version_id,
            f"{version.source_name}: parsing took longer than its time limit and was stopped",
        )
    except Exception as exc:
        # An upload must never stay "parsing" for ever: the admin sees what went wrong.
        # Logged, not raised: an eager run happens inside the upload request, which did its part.
        log.exception("parsing upload %s failed", version_id)
        curation.fail_upload(version_id, f"{version.source_name}: {exc.__class__.__name__}: {exc}")


@shared_task(name="rulesref.pair_versions", ignore_result=True, acks_late=True)
def pair_versions(document_id: int) -> None:
    """Store the pairings that traces, rule histories and stable references read
    (see changes.py)."""
    from rulesref import changes

    try:
        changes.pair_document(document_id)
    except Exception:
        # Pairings are a cache: pages and references compute what is missing when asked.
        log.exception("pairing versions of document %s failed", document_id)
