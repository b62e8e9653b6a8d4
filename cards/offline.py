"""The cards a tablet keeps for reading offline: every card with its Oracle text, rulings and the
rules it cites, as one JSON value whose version is a hash of its content (it changes with an import
or a new CR). The service worker keeps it beside the rules pack (search/offline), and the tablet
derives search's card words from it (the rules pack does not carry them while a card table is
imported)."""

from __future__ import annotations

import hashlib
import json
import threading
from dataclasses import dataclass

from cards import services
from cards.models import Card, CardRuling, CardSync
from rulesref.models import Version


@dataclass(frozen=True)
class CardPack:
    version: str
    body: bytes
    count: int


_built: dict[tuple, CardPack] = {}
_lock = threading.Lock()


def _stamp() -> tuple:
    latest = (
        CardSync.objects.filter(status=CardSync.Status.SUCCEEDED)
        .values_list("pk", flat=True)
        .first()
    )
    cr = (
        Version.objects.filter(document__slug="cr", is_current=True)
        .values_list("pk", flat=True)
        .first()
    )
    return (latest, cr, Card.objects.count())


def current_card_pack() -> CardPack:
    stamp = _stamp()
    found = _built.get(stamp)
    if found is None:
        with _lock:
            found = _built.get(stamp)
            if found is None:
                found = _build()
                _built.clear()
                _built[stamp] = found
    return found


def _build() -> CardPack:
    rulings: dict[int, list[list[str]]] = {}
    for card_id, date, comment in CardRuling.objects.order_by("published_at", "id").values_list(
        "card_id", "published_at", "comment"
    ):
        rulings.setdefault(card_id, []).append([date.isoformat(), comment])
    cards = []
    for card in Card.objects.order_by("name"):
        rules = [[r["number"], r["title"]] for r in services.card_rules(card)]
        cards.append(
            [
                card.name,
                card.name_key,
                card.face_keys,
                card.mana_cost,
                card.type_line,
                card.oracle_text,
                card.faces,
                rulings.get(card.pk, []),
                rules,
            ]
        )
    body = {
        "format": 1,
        "fields": [
            "name",
            "key",
            "face_keys",
            "mana_cost",
            "type_line",
            "oracle_text",
            "faces",
            "rulings",
            "rules",
        ],
        "cards": cards,
        # search's card words are derived on the tablet from this copy, these names left out
        "search_left_out": services.search_left_out(),
        # and the end of each card's reading the tablet cannot build from the card's own text
        "search_tails": services.search_tails(),
    }
    encoded = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()
    version = hashlib.sha256(encoded).hexdigest()[:16]
    return CardPack(
        version=version,
        body=json.dumps(
            {"version": version, **body}, separators=(",", ":"), ensure_ascii=False
        ).encode(),
        count=len(cards),
    )
