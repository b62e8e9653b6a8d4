"""Celery task that computes the stored rule embeddings of a version, and how it is scheduled.

Embedding a whole CR takes minutes on one CPU core. A worker runs the build in slices shorter
than the task time limit, each enqueuing the next until nothing is missing; each batch is
committed, so a killed worker loses one batch at most. The embedded default
(CELERY_TASK_ALWAYS_EAGER) would run the task inside the request that published a version, so there
the build runs in a background daemon thread instead, with its own database connection.
"""

from __future__ import annotations

import logging
import threading

from celery import shared_task
from celery.exceptions import SoftTimeLimitExceeded
from django.conf import settings
from django.db import connection, transaction

from search import model, vector_store

log = logging.getLogger(__name__)

_running: dict[int, threading.Thread] = {}
_running_lock = threading.Lock()


def _slice_seconds() -> float:
    """How long one task run embeds before handing over to the next: well inside the soft limit."""
    soft = getattr(settings, "CELERY_TASK_SOFT_TIME_LIMIT", None) or 100
    return max(5.0, float(soft) * 0.6)


@shared_task(
    name="rulesref.build_search_vectors",
    ignore_result=True,
    acks_late=True,
    reject_on_worker_lost=True,
)
def build_search_vectors(version_id: int) -> None:
    """Compute the missing search vectors of one version; enqueue itself again when a slice
    ends first."""
    try:
        outcome = vector_store.build_vectors(version_id, budget_seconds=_slice_seconds())
    except SoftTimeLimitExceeded:
        log.warning(
            "search vectors of version %s: slice hit the soft time limit; continuing in a new task",
            version_id,
        )
        build_search_vectors.delay(version_id)
        return
    if outcome.gave_up:
        build_search_vectors.delay(version_id)
    log.info(
        "search vectors of version %s: %d computed, %d missing",
        version_id,
        outcome.computed,
        outcome.missing,
    )


def _build_in_thread(version_id: int) -> None:
    try:
        vector_store.build_vectors(version_id)
    except Exception:
        # a background build must not die silently: search stays lexical, the log says why
        log.exception("search vectors of version %s failed", version_id)
    finally:
        connection.close()  # this thread's own connection
        with _running_lock:
            _running.pop(version_id, None)


def _start_thread(version_id: int) -> None:
    with _running_lock:
        if version_id in _running:
            return
        thread = threading.Thread(
            target=_build_in_thread,
            args=(version_id,),
            name=f"search-vectors-{version_id}",
            daemon=True,
        )
        _running[version_id] = thread
    thread.start()


def schedule_search_vectors(version) -> bool:
    """After the current transaction commits, compute the version's missing search vectors: in a
    worker (task), or with the embedded in-process Celery in a background thread. False when
    nothing is scheduled: the model package is not installed or SEARCH_VECTORS is off."""
    if not getattr(settings, "SEARCH_VECTORS", True) or model.model_dir() is None:
        return False
    version_id = version.pk
    if getattr(settings, "CELERY_TASK_ALWAYS_EAGER", False):
        transaction.on_commit(lambda: _start_thread(version_id))
    else:
        build_search_vectors.delay_on_commit(version_id)
    return True


def wait_for_builds(timeout: float | None = None) -> bool:
    """Wait for background builds started by `schedule_search_vectors` (tests, commands); True when
    none is left."""
    with _running_lock:
        threads = list(_running.values())
    for thread in threads:
        thread.join(timeout)
    with _running_lock:
        return not _running


def schedule_missing_vectors() -> list[int]:
    """Schedule vector builds for every current version that still misses vectors (for a command
    or a deploy step: versions published before vectors existed). Returns the version ids."""
    from rulesref.models import Version

    scheduled = []
    for version in Version.objects.select_related("document").filter(is_current=True):
        if vector_store.missing_vectors(version) and schedule_search_vectors(version):
            scheduled.append(version.pk)
    return scheduled
