"""Where search reads card descriptions from: the card table when one is imported, else the
hand-written cards.toml (search.vocabulary.card_descriptions chooses).

rulesref imports none of the judge apps, so the cards app registers a provider here at start-up
(cards/apps.py), as the features that cite rules register with rulesref/citing.py. A provider is
two callables: `stamp()`, cheap, "" while its table holds no cards and otherwise a value that
changes whenever the cards change (an import); and `descriptions()`, card name -> what the
card does; and optionally `details(keys)`: the table's own records of the cards search found named
in a question (name, mana cost, type line, Oracle text, rulings), which the results show. The
hand-written list has no details: nothing written by hand is shown as a card's text.

Everything that depends on the cards (the built index, its file in the index cache, the asked-as
questions' embedded texts, the offline pack) is keyed by `card_stamp()`. The stamp is read again at
most every RECHECK_SECONDS, so another process's import (a Celery worker's daily sync) reaches a
running web process within seconds; `forget_cards()` (called by the import itself) makes the
process that imported see it at once. Standard library only: importing this starts no Django.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass

log = logging.getLogger(__name__)

RECHECK_SECONDS = 5.0
SHIPPED = "shipped"  # the stamp while no table holds cards: the hand-written list is read


@dataclass(frozen=True)
class CardProvider:
    stamp: Callable[[], str]
    descriptions: Callable[[], Mapping[str, str]]
    details: Callable[[list[str]], list[dict]] | None = None


_providers: dict[str, CardProvider] = {}
_lock = threading.Lock()
_seen: dict[str, object] = {"stamp": None, "at": float("-inf")}
_read: dict[str, dict[str, str]] = {}  # stamp -> descriptions read under it (one at a time)


def card_key(name: str) -> str:
    """A card name as search keys it: lower case, one space, a straight apostrophe."""
    return " ".join(str(name).lower().replace("’", "'").split())


def register_card_provider(
    owner: str,
    *,
    stamp: Callable[[], str],
    descriptions: Callable[[], Mapping[str, str]],
    details: Callable[[list[str]], list[dict]] | None = None,
) -> None:
    """Record where `owner`'s cards come from (re-registering an owner replaces its provider)."""
    _providers[owner] = CardProvider(stamp=stamp, descriptions=descriptions, details=details)
    forget_cards()


def unregister_card_provider(owner: str) -> None:
    _providers.pop(owner, None)
    forget_cards()


def forget_cards() -> None:
    """Read the stamp (and so the cards) again on the next use: after an import in this process."""
    with _lock:
        _seen.update(stamp=None, at=float("-inf"))
        _read.clear()


def _table_stamp() -> tuple[str, CardProvider | None]:
    for owner, provider in list(_providers.items()):
        try:
            found = provider.stamp()
        except Exception:
            # an unreadable table (not migrated, no database here) is no table: the
            # hand-written list
            log.debug(
                "card provider %s unreadable; reading the hand-written cards", owner, exc_info=True
            )
            continue
        if found:
            return f"{owner}:{found}", provider
    return SHIPPED, None


def card_stamp() -> str:
    """ "shipped" while no registered table holds cards, else "<owner>:<its stamp>"; cached
    RECHECK_SECONDS."""
    now = time.monotonic()
    stamp = _seen["stamp"]
    if stamp is None or now - float(_seen["at"]) >= RECHECK_SECONDS:  # type: ignore[arg-type]
        stamp, _ = _table_stamp()
        with _lock:
            _seen.update(stamp=stamp, at=now)
    return str(stamp)


def table_descriptions() -> dict[str, str] | None:
    """Card name (card_key) -> description from the table that holds cards, read once per stamp;
    None when no table holds cards (the caller then reads the hand-written list)."""
    stamp = card_stamp()
    if stamp == SHIPPED:
        return None
    found = _read.get(stamp)
    if found is None:
        owner = stamp.split(":", 1)[0]
        provider = _providers.get(owner)
        if provider is None:
            return None
        found = {
            key: str(text)
            for name, text in provider.descriptions().items()
            if (key := card_key(name))
        }
        with _lock:
            _read.clear()
            _read[stamp] = found
    return found


def card_details(keys: list[str]) -> list[dict]:
    """The card table's records of the cards named by `keys` (card_key names), in that order: []
    with no keys, while no table holds cards (the hand-written list has no card text to show), or
    when the table's provider has no details."""
    if not keys:
        return []
    stamp = card_stamp()
    if stamp == SHIPPED:
        return []
    provider = _providers.get(stamp.split(":", 1)[0])
    if provider is None or provider.details is None:
        return []
    return provider.details(keys)
