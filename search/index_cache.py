"""Built search indexes kept on disk, so a new web process answers its first search at once.

Building the index of the current versions (3,000 CR rules, 17,000 asked-as questions, the typo
neighbourhoods) takes seconds; a new process loads the one built before from a pickle instead.
A file is named by everything the index is built from: the versions (id and content hash), the
stored renumbering pairings (they carry asked-as questions into older versions), the search code
and data files, the cards search reads (search.card_source.card_stamp: the hand-written list,
or the card table as of its last import), and the model (vector keys). Anything changed gives
another name, so a stale index is never read; files of old names are removed when a new one
is written.

SEARCH_INDEX_CACHE (setting; env JUDGEAPP_SEARCH_INDEX_CACHE) is the folder; empty turns it off.
"""

from __future__ import annotations

import hashlib
import logging
import os
import pickle
import tempfile
from functools import cache
from pathlib import Path
from typing import Any

from django.conf import settings
from django.db.models import Max

from rulesref.models import Version, VersionPairing
from search import model

log = logging.getLogger(__name__)
_PACKAGE = Path(__file__).resolve().parent


def digested_files() -> list[Path]:
    """The search code and its data files, the asked-as questions of every folder under questions/
    (the real questions read, questions/real/, among them) included."""
    return sorted(
        [
            *_PACKAGE.glob("*.py"),
            *_PACKAGE.glob("*.toml"),
            *(_PACKAGE / "questions").rglob("*.toml"),
        ]
    )


@cache
def _code_digest() -> str:
    """The search code and its data files: a change to any of them builds the index again."""
    digest = hashlib.sha256()
    for path in digested_files():
        digest.update(str(path.relative_to(_PACKAGE)).encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()


def _folder() -> Path | None:
    found = getattr(settings, "SEARCH_INDEX_CACHE", None)
    return Path(found) if found else None


def name_for(versions: list[Version], *, cards: str) -> str | None:
    """The file name of the index of `versions` built with the cards of stamp `cards`; None when it
    cannot be named safely (a version without a content hash) or the cache is off."""
    if _folder() is None or any(not v.content_hash for v in versions):
        return None
    pairing = VersionPairing.objects.aggregate(last=Max("pk"))["last"] or 0
    digest = hashlib.sha256(
        "\0".join(
            [
                _code_digest(),
                model.model_name() if model.model_dir() else "lexical",
                str(pairing),
                f"cards={cards}",
                *(f"{v.pk}:{v.content_hash}" for v in sorted(versions, key=lambda v: v.pk)),
            ]
        ).encode()
    ).hexdigest()
    return f"index-{digest[:32]}.pickle"


def load(name: str | None) -> Any | None:
    folder = _folder()
    if name is None or folder is None or not (folder / name).is_file():
        return None
    try:
        with (folder / name).open("rb") as handle:
            return pickle.load(handle)  # noqa: S301 - our own file, named by the content it was built from
    except Exception:  # a broken file is built again, never a failed search
        log.warning(
            "search index cache %s unreadable; building the index again",
            folder / name,
            exc_info=True,
        )
        return None


def save(name: str | None, value: Any, *, keep: int = 8) -> None:
    """Write `value` atomically (another process may read the same name), keeping the newest
    `keep` files."""
    folder = _folder()
    if name is None or folder is None:
        return
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=folder, prefix=".index-", delete=False) as handle:
            pickle.dump(value, handle, protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(handle.name, folder / name)
        old = sorted(folder.glob("index-*.pickle"), key=lambda p: p.stat().st_mtime, reverse=True)[
            keep:
        ]
        for path in old:
            path.unlink(missing_ok=True)
    except OSError:
        log.warning("search index cache %s not written", folder, exc_info=True)
