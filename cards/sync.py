"""sync_cards: fetch Scryfall's current bulk files (Oracle cards and rulings) and import them.

Scryfall lists its bulk files at JUDGEAPP_SCRYFALL_BULK_URL (https://api.scryfall.com/bulk-data);
each has a download_uri and an updated_at. A sync whose files have the updated_at of the last
successful import changes nothing. Downloads stream to temporary files (gzip is undone), so a file
of 150 MB never sits in memory.
"""

from __future__ import annotations

import gzip
import http.client
import json
import shutil
import tempfile
import urllib.request
import zlib
from pathlib import Path

from django.conf import settings
from django.utils import timezone

from cards import scryfall, services
from cards.models import CardSync

_HEADERS = {"User-Agent": "judgeapp/1 (tournament judge tool)", "Accept": "application/json"}


def _open(url: str):
    request = urllib.request.Request(url, headers={**_HEADERS, "Accept-Encoding": "gzip"})
    response = urllib.request.urlopen(request, timeout=settings.JUDGEAPP_CARDS_TIMEOUT)  # noqa: S310 - configured https URL
    if response.headers.get("Content-Encoding") == "gzip":
        return gzip.GzipFile(fileobj=response)
    return response


def _download(url: str, target: Path) -> None:
    try:
        with _open(url) as source, target.open("wb") as sink:
            shutil.copyfileobj(source, sink, 1 << 20)
    except (EOFError, zlib.error) as exc:
        # a gzip stream cut short or damaged in transit: a failed download, said as one
        raise OSError(f"{url}: the download was cut short or damaged ({exc})") from None


def sync_cards(*, force: bool = False, replace: bool = False) -> CardSync:
    """Fetch and import the current bulk files unless they are the ones imported last (`force`
    imports anyway)."""
    url = settings.JUDGEAPP_SCRYFALL_BULK_URL
    sync = CardSync.objects.create(source=url, stage="reading the bulk-data list")
    try:
        with _open(url) as answer:
            files = scryfall.bulk_files(json.load(answer))
        updated = max(
            files["oracle_cards"].get("updated_at", ""), files["rulings"].get("updated_at", "")
        )
        sync.bulk_updated_at = updated
        CardSync.objects.filter(pk=sync.pk).update(bulk_updated_at=updated)
        last = CardSync.objects.filter(status=CardSync.Status.SUCCEEDED).exclude(pk=sync.pk).first()
        if not force and last is not None and updated and last.bulk_updated_at == updated:
            CardSync.objects.filter(pk=sync.pk).update(
                status=CardSync.Status.UNCHANGED,
                stage="",
                finished_at=timezone.now(),
                message=f"Scryfall's files of {updated} are the ones imported last.",
            )
            sync.refresh_from_db()
            return sync
        with tempfile.TemporaryDirectory(prefix="judgeapp-cards-") as folder:
            cards, rulings = Path(folder) / "oracle-cards.json", Path(folder) / "rulings.json"
            for kind, target in (("oracle_cards", cards), ("rulings", rulings)):
                CardSync.objects.filter(pk=sync.pk).update(stage=f"downloading {kind}")
                _download(files[kind]["download_uri"], target)
            services.import_bulk(
                cards, rulings, source=url, bulk_updated_at=updated, sync=sync, replace=replace
            )
    except (OSError, ValueError, EOFError, zlib.error, http.client.HTTPException) as error:
        # an answer cut short or damaged (the list of files or a file: EOFError, IncompleteRead,
        # a gzip stream ended early) is a failed sync, said as one
        exc = error
        if isinstance(error, (EOFError, zlib.error, http.client.HTTPException)):
            exc = OSError(f"{url}: the answer was cut short or damaged ({error})")
        sync.refresh_from_db()
        if sync.status != CardSync.Status.FAILED:
            CardSync.objects.filter(pk=sync.pk).update(
                status=CardSync.Status.FAILED,
                stage="",
                finished_at=timezone.now(),
                message=f"Cards not changed: {exc}",
            )
        if exc is error:
            raise
        raise exc from None
    sync.refresh_from_db()
    return sync
