"""Builds the offline pack from the published versions and keeps it per set of current versions.

The pack is rebuilt only when the set of current versions changes (a publish or a rollback) or the
cards search reads change (a card import: the pack's card words are the server index's), so a
tablet asking whether its copy is current costs one query. Old numbers come from the pairings
already stored (never computed on a request path).
"""

from __future__ import annotations

import threading
from dataclasses import dataclass

from rulesref import changes, services
from rulesref.models import GlossaryTerm, Rule, Version
from search import card_source
from search import index as search_index
from search import query as search_query
from search import ranking as search_ranking
from search import service as search_service
from search import text as search_text
from search.offline import pack as packing


@dataclass(frozen=True)
class BuiltPack:
    key: tuple[tuple[int, ...], str]  # the current versions' ids and the card stamp
    version: str  # the pack's content hash
    body: bytes  # the compact JSON
    documents: tuple[packing.PackDocument, ...]


_built: dict[tuple[tuple[int, ...], str], BuiltPack] = {}
_lock = threading.Lock()


def current_versions() -> list[Version]:
    order = list(services.DOC_TITLES)
    found = Version.objects.select_related("document").filter(is_current=True)
    return sorted(
        found,
        key=lambda v: order.index(v.document.slug) if v.document.slug in order else len(order),
    )


def moved_numbers(current: Version) -> dict[str, tuple[str, str]]:
    """Old number -> (its number in `current`, date of the newest older version that had it), for
    numbers that no longer name a rule in `current` (725.3 of 2022 -> 729.3)."""
    numbers = set(Rule.objects.filter(version=current).values_list("number", flat=True))
    moved: dict[str, tuple[str, str]] = {}
    older = [
        v for v in changes.stored_versions(current) if v.effective_date < current.effective_date
    ]
    for old in reversed(older):  # the closest version first: its meaning wins
        mapping = changes.stored_mapping(old, current)
        if mapping is None:
            continue
        for was, now in mapping.items():
            if was not in numbers and was not in moved and now != was:
                moved[was] = (now, old.effective_date.isoformat())
    return moved


def _build(versions: list[Version], stamp: str) -> BuiltPack:
    index = search_service.index_for(versions)
    documents = tuple(
        packing.PackDocument(
            doc=v.document.slug,
            title=v.document.title,
            effective_date=v.effective_date.isoformat() if v.effective_date else "",
            version_id=v.pk,
        )
        for v in versions
    )
    glossary = [
        packing.PackGlossary(term=g.term, definition=g.definition, references=tuple(g.references))
        for v in versions
        for g in GlossaryTerm.objects.filter(version=v).order_by("term")
    ]
    moved = {v.document.slug: moved_numbers(v) for v in versions}
    params = {
        name.lstrip("_").lower(): value
        for module in (search_index, search_query, search_ranking)
        for name, value in vars(module).items()
        if name.lstrip("_")[:2] in ("W_", "K1", "B")
        or name.lstrip("_").startswith(
            (
                "HEADING_ONLY",
                "GLOSSARY_",
                "NAMED",
                "PHRASE_BOOST",
                "INTENT",
                "REMEDY",
                "COUNTERPART",
                "OTHER_REL",
            )
        )
        if isinstance(value, int | float) and not isinstance(value, bool)
    }
    built = packing.build_pack(
        index,
        documents,
        glossary,
        moved,
        params=params,
        stopwords=search_text.STOPWORDS,
        policy_docs=search_ranking.POLICY_DOCS,
        # a card table's words are derived on the tablet from the card copy it keeps
        card_words_on_device=stamp != card_source.SHIPPED,
    )
    return BuiltPack(
        key=(tuple(v.pk for v in versions), stamp),
        version=built["version"],
        body=packing.encode_pack(built),
        documents=documents,
    )


def current_pack() -> BuiltPack | None:
    """The pack of the documents published now; None before anything is published."""
    versions = current_versions()
    if not versions:
        return None
    stamp = card_source.card_stamp()
    key = (tuple(v.pk for v in versions), stamp)
    found = _built.get(key)
    if found is None:
        with _lock:
            found = _built.get(key)
            if found is None:
                found = _build(versions, stamp)
                _built.clear()  # one set of current versions at a time
                _built[key] = found
    return found


def forget_packs() -> None:
    _built.clear()
