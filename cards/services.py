"""Cards: import Scryfall's bulk files, find a card from what a judge types, and the rules it cites.

The card table changes in one transaction per import, after both files were read whole, so a bad or
truncated download leaves the cards as they were; the CardSync row says how far an import got and,
when it failed, why, in words an admin can act on.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from django.conf import settings
from django.db import DatabaseError, transaction
from django.urls import reverse
from django.utils import timezone

from cards import features, keywords, names, scryfall
from cards.models import Card, CardRuling, CardSync
from rulesref.models import GlossaryTerm, Rule, Version
from search import card_source
from search import tasks as search_tasks
from search.model import english_words
from search.text import STOPWORDS, words

_PROGRESS_EVERY = 2000


class CardNotFound(LookupError):
    def __init__(self, query: str, close: list[str]) -> None:
        super().__init__(f"No card is named {query!r}.")
        self.query, self.close = query, close


@dataclass(frozen=True)
class ImportOutcome:
    sync: CardSync
    cards: int
    rulings: int
    added: int
    updated: int
    removed: int


def _progress(sync: CardSync, **fields) -> None:
    for key, value in fields.items():
        setattr(sync, key, value)
    CardSync.objects.filter(pk=sync.pk).update(**fields)


def _read(path: Path, reader: Callable, sync: CardSync, counter: str) -> list:
    records = []
    with path.open(encoding="utf-8-sig", errors="strict") as stream:
        for record in reader(stream, path.name):
            records.append(record)
            if len(records) % _PROGRESS_EVERY == 0:
                _progress(sync, **{counter: len(records)})
    _progress(sync, **{counter: len(records)})
    return records


def import_bulk(
    cards_path: Path,
    rulings_path: Path,
    *,
    source: str = "",
    bulk_updated_at: str = "",
    sync: CardSync | None = None,
    replace: bool = False,
) -> ImportOutcome:
    """Read both bulk files whole, then replace the card table with them in one transaction.

    Raises scryfall.BulkError (naming the file, line and item) or UnicodeDecodeError/OSError; the
    CardSync row then says failed with that message and no card changes. A file with no cards, or
    with fewer than half the cards (or rulings) the table holds, is refused the same way (a
    truncated or wrong download must not empty the table) unless `replace` says the operator means
    it."""
    sync = sync or CardSync.objects.create(
        source=source or str(cards_path), bulk_updated_at=bulk_updated_at
    )
    try:
        _progress(sync, stage=f"reading {cards_path.name}")
        records = _read(cards_path, scryfall.read_cards, sync, "cards_read")
        _progress(sync, stage=f"reading {rulings_path.name}")
        rulings = _read(rulings_path, scryfall.read_rulings, sync, "rulings_read")
        _check_size(cards_path, records, Card.objects.count(), "cards", replace=replace)
        _check_size(rulings_path, rulings, CardRuling.objects.count(), "rulings", replace=replace)
        _progress(sync, stage="storing")
        added, updated, removed = _store(records, rulings)
    except (DatabaseError, scryfall.BulkError, UnicodeDecodeError, OSError, ValueError) as exc:
        # a value the database refuses (a length, a NUL) that the reader did not check is said as
        # the reader's refusals are, never a traceback with the sync left "running"
        refused = isinstance(exc, DatabaseError)
        message = f"the database refused a value of {cards_path.name}: {exc}" if refused else exc
        _progress(
            sync,
            status=CardSync.Status.FAILED,
            stage="",
            message=f"Cards not changed: {message}",
            finished_at=timezone.now(),
        )
        if refused:
            raise ValueError(message) from None
        raise
    _progress(
        sync,
        status=CardSync.Status.SUCCEEDED,
        stage="",
        added=added,
        updated=updated,
        removed=removed,
        message=(
            f"{len(records)} cards ({added} new, {updated} changed, {removed} gone) and "
            f"{len(rulings)} rulings."
        ),
        finished_at=timezone.now(),
    )
    forget_names()
    cards_changed()
    return ImportOutcome(sync, len(records), len(rulings), added, updated, removed)


SHRINK_LIMIT = 0.5  # an import may remove at most this share of the table without `replace`


def _check_size(path: Path, read: list, held: int, what: str, *, replace: bool) -> None:
    """Refuse a file that would empty the table or remove most of it (SizeRefused naming the
    file)."""
    if not read and what == "cards":
        raise SizeRefused(f"{path.name} holds no cards (tokens and art cards are not cards)")
    if replace or not held or len(read) >= held * SHRINK_LIMIT:
        return
    raise SizeRefused(
        f"{path.name} holds {len(read)} {what}, fewer than half of the {held} the table holds: "
        "a truncated or wrong file? (--replace imports it anyway)"
    )


class SizeRefused(ValueError):
    """A bulk file that would empty the card table or remove most of it."""


_FIELDS = (
    "name",
    "name_key",
    "face_keys",
    "layout",
    "mana_cost",
    "type_line",
    "oracle_text",
    "colour_identity",
    "keywords",
    "legalities",
    "faces",
    "scryfall_uri",
)


def _row(record: scryfall.CardRecord) -> dict:
    face_keys = [
        names.name_key(f.name)
        for f in record.faces
        if names.name_key(f.name) != names.name_key(record.name)
    ]
    return {
        "name": record.name,
        "name_key": names.name_key(record.name),
        "face_keys": face_keys,
        "layout": record.layout,
        "mana_cost": record.mana_cost,
        "type_line": record.type_line,
        "oracle_text": record.oracle_text,
        "colour_identity": list(record.colour_identity),
        "keywords": list(record.keywords),
        "legalities": record.legalities,
        "faces": [
            {
                "name": f.name,
                "mana_cost": f.mana_cost,
                "type_line": f.type_line,
                "oracle_text": f.oracle_text,
            }
            for f in record.faces
        ],
        "scryfall_uri": record.scryfall_uri,
    }


@transaction.atomic
def _store(
    records: list[scryfall.CardRecord], rulings: list[scryfall.RulingRecord]
) -> tuple[int, int, int]:
    wanted = {r.oracle_id: _row(r) for r in records}
    existing = {str(c.oracle_id): c for c in Card.objects.all()}
    new = [Card(oracle_id=oid, **row) for oid, row in wanted.items() if oid not in existing]
    changed = []
    for oid, row in wanted.items():
        card = existing.get(oid)
        if card is not None and any(getattr(card, f) != row[f] for f in _FIELDS):
            for f in _FIELDS:
                setattr(card, f, row[f])
            changed.append(card)
    gone = [c.pk for oid, c in existing.items() if oid not in wanted]
    Card.objects.filter(pk__in=gone).delete()
    Card.objects.bulk_create(new, batch_size=1000)
    Card.objects.bulk_update(changed, _FIELDS, batch_size=500)
    ids = {str(k): v for k, v in Card.objects.values_list("oracle_id", "pk")}
    CardRuling.objects.all().delete()
    CardRuling.objects.bulk_create(
        [
            CardRuling(
                card_id=ids[r.oracle_id],
                published_at=r.published_at,
                source=r.source,
                comment=r.comment,
            )
            for r in rulings
            if r.oracle_id in ids
        ],
        batch_size=2000,
    )
    return len(new), len(changed), len(gone)


# ------------------------------------------------------------------------------- finding a card

_lock = threading.Lock()
_names: dict[str, object] = {}


def forget_names() -> None:
    _names.clear()


def _name_table() -> dict[str, int]:
    """Name key (and each face's) -> card id; read once per import."""
    latest = (
        CardSync.objects.filter(status=CardSync.Status.SUCCEEDED)
        .values_list("pk", flat=True)
        .first()
    )
    stamp = (latest, Card.objects.count())
    if _names.get("stamp") != stamp:
        with _lock:
            table: dict[str, int] = {}
            for pk, key, faces in Card.objects.values_list("pk", "name_key", "face_keys"):
                table.setdefault(key, pk)
                for face in faces:
                    table.setdefault(face, pk)
            _names.update(stamp=stamp, table=table)
    return _names["table"]  # type: ignore[return-value]


def find_card(query: str) -> Card:
    """The card a judge means ("thassas oracle", "Delver", "lightening bolt"); CardNotFound with
    close names."""
    table = _name_table()
    match = names.match_name(query, table)
    if match.found is None:
        cards = Card.objects.in_bulk([table[k] for k in match.close])
        close = list(dict.fromkeys(cards[table[k]].name for k in match.close if table[k] in cards))
        raise CardNotFound(query, close)
    return Card.objects.prefetch_related("rulings").get(pk=table[match.found])


def search_cards(query: str, *, limit: int = 20) -> list[Card]:
    """Cards whose name holds the words typed, then cards whose Oracle text does."""
    key = names.name_key(query)
    if not key:
        return []
    by_name = list(Card.objects.filter(name_key__contains=key)[:limit])
    if len(by_name) < limit:
        more = Card.objects.filter(oracle_text__icontains=query.strip()).exclude(
            pk__in=[c.pk for c in by_name]
        )
        by_name += list(more[: limit - len(by_name)])
    return by_name


_keyword_rules: dict[int, list[keywords.KeywordRule]] = {}


def keyword_rules(version: Version) -> list[keywords.KeywordRule]:
    """The CR's keyword actions (701.x) and abilities (702.x) in `version`, by their titles."""
    found = _keyword_rules.get(version.pk)
    if found is None:
        found = []
        for number, title, text in Rule.objects.filter(
            version=version, number__regex=r"^70[12]\.[0-9]+$"
        ).values_list("number", "title", "text"):
            name = (title or text).strip().rstrip(".")
            if name and len(name.split()) <= 4:
                found.append(
                    keywords.KeywordRule(
                        number=number,
                        title=name,
                        kind="action" if number.startswith("701") else "ability",
                    )
                )
        _keyword_rules.clear()
        _keyword_rules[version.pk] = found
    return found


def card_rules(card: Card) -> list[dict]:
    """[{"doc": "cr", "number", "title"}]: the rules of the current CR its keywords and
    actions cite."""
    current = Version.objects.filter(document__slug="cr", is_current=True).first()
    if current is None:
        return []
    cited = keywords.cited_rules(card.keywords, card.oracle_text, keyword_rules(current))
    return [{"doc": "cr", "number": r.number, "title": r.title} for r in cited]


def _search_cards(common_words: frozenset[str]):
    """(name, type line, Oracle text, layout, keywords) of every card and face search reads, each
    name once, in name order; the one-word names that are ordinary words left out."""
    seen: set[str] = set()
    for name, type_line, text, layout, kept, faces in Card.objects.order_by("name").values_list(
        "name", "type_line", "oracle_text", "layout", "keywords", "faces"
    ):
        whole = text or "\n".join(str(f.get("oracle_text", "")) for f in faces or ())
        rows = [(name, type_line, whole)] + [
            (face["name"], str(face.get("type_line", "")), str(face.get("oracle_text", "")))
            for face in faces or ()
            if face.get("name") and face.get("name") != name
        ]
        for each, face_type, face_text in rows:
            if left_out_of_search(each, common_words) or each in seen:
                continue
            seen.add(each)
            yield each, face_type, face_text, layout, list(kept or ())


def search_tails() -> dict[str, list[str]]:
    """Name -> the end of its reading (cards.features.tail: keywords, the rules' words), for the
    names that have one: the offline card copy carries these, the tablet reads the rest from the
    card's own text (static/judgeapp/offline-search.js cardWords)."""
    out = {}
    for name, type_line, text, layout, kept in _search_cards(common_words()):
        listed, words = features.tail(name, type_line, text, layout, kept)
        if listed or words:
            out[name] = [listed, words]
    return out


def card_descriptions(common_words: frozenset[str] = frozenset()) -> dict[str, str]:
    """Card name -> what search reads for it (cards.features.reading): its type line, its Oracle
    text without reminder text, its keywords and the rules' words for what it raises (loyalty
    abilities, a replacement effect, an enters trigger ...). A card with faces is also read under
    each face's own name, with that face's type line and text. A one-word name that is also an
    ordinary word ("Exile", "Opt", "Fog") is left out: a judge typing "exile" asks about the rule,
    not the card (search.card_names still finds such a face where the judge capitalised it)."""
    return {
        name: features.reading(name, type_line, text, layout, kept)
        for name, type_line, text, layout, kept in _search_cards(common_words)
    }


def left_out_of_search(name: str, common_words: frozenset[str]) -> bool:
    """A name search does not read as a card: no words, or one word that is an ordinary word."""
    key = names.name_key(name)
    return not key or (" " not in key and key in common_words)


def search_left_out() -> list[str]:
    """The card and face names card_descriptions leaves out (left_out_of_search), sorted: the
    offline card copy carries them, so a tablet derives search's card words as the server reads
    them (static/judgeapp/offline-search.js cardWords)."""
    common = common_words()
    found: set[str] = set()
    for name, faces in Card.objects.values_list("name", "faces"):
        for each in [name, *(f.get("name") for f in faces or () if f.get("name"))]:
            if left_out_of_search(each, common):
                found.add(each)
    return sorted(found)


def search_card_details(keys: list[str]) -> list[dict]:
    """The cards of the table named by search's card keys (lower-case names or face names), in that
    order, each once: what the search results show above the rules (the cards app's card_source
    provider). Every text is the imported one (Scryfall's); a key no card holds is left out."""
    table = _name_table()
    ids = list(dict.fromkeys(table[k] for key in keys if (k := names.name_key(key)) in table))
    cards = Card.objects.prefetch_related("rulings").in_bulk(ids)
    return [card_summary(cards[pk]) for pk in ids if pk in cards]


def card_summary(card: Card) -> dict:
    """A card as the search results show it: name, mana cost, type line, Oracle text, faces, its
    rulings, the rules its keywords cite and its page."""
    return {
        "name": card.name,
        "mana_cost": card.mana_cost,
        "type_line": card.type_line,
        "oracle_text": card.oracle_text,
        "faces": card.faces,
        "rulings": [
            {"date": r.published_at.isoformat(), "text": r.comment, "source": r.source}
            for r in card.rulings.all()
        ],
        "rules": card_rules(card),
        "scryfall_uri": card.scryfall_uri,
        "url": reverse("card-page", args=[card.name]),
    }


# ------------------------------------------------------------------------------- what search reads


def card_stamp() -> str:
    """ "" while the card table is empty; else a value that changes with every import that changes
    it (the last successful import, when it finished, and the count): search's card_source stamp."""
    count = Card.objects.count()
    if not count:
        return ""
    last = (
        CardSync.objects.filter(status=CardSync.Status.SUCCEEDED)
        .values_list("pk", "finished_at")
        .first()
    )
    top = Card.objects.order_by("-pk").values_list("pk", flat=True).first()
    return (
        f"{last[0] if last else 0}:{last[1].isoformat() if last and last[1] else ''}:{count}:{top}"
    )


def common_words() -> frozenset[str]:
    """Words a one-word card name must not take over in search: English words the search model
    knows, stopwords, the current CR glossary's words (Sacrifice), and any word of three letters or
    fewer (Opt, Fog: too short to tell from a word typed in passing)."""
    glossary = GlossaryTerm.objects.filter(
        version__document__slug="cr", version__is_current=True
    ).values_list("term", flat=True)
    found = {w for term in glossary for w in words(term.lower())}
    short = {
        key
        for name_key, face_keys in Card.objects.values_list("name_key", "face_keys")
        for key in (name_key, *face_keys)
        if " " not in key and len(key) <= 3
    }
    return frozenset(english_words() | STOPWORDS | found | short)


def search_card_descriptions() -> dict[str, str]:
    """What search reads for the card table (the cards app's card_source provider)."""
    return card_descriptions(common_words())


def wait_for_search_vectors(out) -> None:
    """With the embedded broker the new cards' search vectors are computed in a thread of this
    process: wait for it, so a command ends cleanly (a process ending under a native thread
    aborts, exit 134) and search is hybrid again when it returns. A worker computes them
    otherwise, and nothing is waited for."""
    if search_tasks.wait_for_builds(timeout=0):
        return
    out.write("computing the search vectors of the questions that name the new cards...")
    search_tasks.wait_for_builds()
    out.write("search vectors done")


def cards_changed() -> None:
    """After an import: search reads the new cards at once in this process (other processes within
    card_source.RECHECK_SECONDS), and the asked-as questions' embedded texts that name cards, now
    read with the new descriptions, get their vectors computed (search is lexical until then)."""
    card_source.forget_cards()
    # off: no vectors are built, so none are looked for
    if getattr(settings, "SEARCH_VECTORS", True):
        transaction.on_commit(search_tasks.schedule_missing_vectors)
