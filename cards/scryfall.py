"""Scryfall's bulk files, read as a stream: Oracle cards and rulings in Scryfall's own JSON format.

A bulk file is one JSON array of objects (about 150 MB for Oracle cards); it is read one object at a
time so memory stays flat. Bad input raises BulkError naming the file, the line and the item. Pure:
no Django, no network.
"""

from __future__ import annotations

import datetime as dt
import json
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import IO, Any

_CHUNK = 1 << 16
# Layouts that are not cards a judge is asked about at a table.
SKIPPED_LAYOUTS = frozenset(
    {"token", "double_faced_token", "emblem", "art_series", "vanguard", "scheme", "planar"}
)


class BulkError(ValueError):
    def __init__(self, message: str, *, source: str, line: int, item: int | None = None) -> None:
        where = f"{source}, line {line}" + (f" (item {item})" if item is not None else "")
        super().__init__(f"{where}: {message}")
        self.source, self.line, self.item = source, line, item


@dataclass(frozen=True)
class Face:
    name: str
    mana_cost: str = ""
    type_line: str = ""
    oracle_text: str = ""


@dataclass(frozen=True)
class CardRecord:
    oracle_id: str
    name: str
    layout: str
    mana_cost: str
    type_line: str
    oracle_text: str
    colour_identity: tuple[str, ...] = ()
    keywords: tuple[str, ...] = ()
    legalities: dict[str, str] = field(default_factory=dict)
    faces: tuple[Face, ...] = ()
    scryfall_uri: str = ""


@dataclass(frozen=True)
class RulingRecord:
    oracle_id: str
    published_at: dt.date
    source: str
    comment: str


def read_objects(stream: IO[str], source: str) -> Iterator[tuple[int, int, dict]]:
    """(item number from 0, line, object) for each element of the JSON array in `stream`."""
    decoder = json.JSONDecoder()
    buffer, line, pos, item, started, eof = "", 1, 0, 0, False, False

    def fill() -> bool:
        nonlocal buffer, pos, eof
        if eof:
            return False
        chunk = stream.read(_CHUNK)
        if not chunk:
            eof = True
            return False
        buffer = buffer[pos:] + chunk
        pos = 0
        return True

    def skip_space() -> None:
        nonlocal pos, line
        while True:
            while pos < len(buffer) and buffer[pos] in " \t\r\n\ufeff":
                line += buffer[pos] == "\n"
                pos += 1
            if pos < len(buffer) or not fill():
                return

    skip_space()
    if pos >= len(buffer) or buffer[pos] != "[":
        raise BulkError(
            "not a Scryfall bulk file: expected a JSON array of objects", source=source, line=line
        )
    pos += 1
    while True:
        skip_space()
        if pos >= len(buffer):
            raise BulkError(
                "the file ends inside the array (truncated download?)",
                source=source,
                line=line,
                item=item,
            )
        if buffer[pos] == "]":
            return
        if started:
            if buffer[pos] != ",":
                raise BulkError(
                    f"expected ',' between objects, found {buffer[pos]!r}",
                    source=source,
                    line=line,
                    item=item,
                )
            pos += 1
            skip_space()
        while True:
            try:
                value, end = decoder.raw_decode(buffer, pos)
                break
            except json.JSONDecodeError as exc:
                if fill():
                    continue
                raise BulkError(
                    f"invalid JSON: {exc.msg}",
                    source=source,
                    line=line + buffer.count("\n", pos, exc.pos),
                    item=item,
                ) from None
        if not isinstance(value, dict):
            raise BulkError(
                "each element must be a JSON object", source=source, line=line, item=item
            )
        yield item, line, value
        line += buffer.count("\n", pos, end)
        pos, item, started = end, item + 1, True


def _text(obj: dict, key: str, *, source: str, line: int, item: int, required: bool = False) -> str:
    value = obj.get(key)
    if value is None:
        if required:
            raise BulkError(f"{key!r} is missing", source=source, line=line, item=item)
        return ""
    if not isinstance(value, str):
        raise BulkError(f"{key!r} must be a string", source=source, line=line, item=item)
    if "\x00" in value:
        raise BulkError(f"{key!r} holds a NUL character", source=source, line=line, item=item)
    return value


def _oracle_id(obj: dict, *, source: str, line: int, item: int) -> str:
    raw = _text(obj, "oracle_id", source=source, line=line, item=item, required=True)
    try:
        return str(uuid.UUID(raw))
    except ValueError:
        raise BulkError(
            f"oracle_id {raw!r} is not a UUID", source=source, line=line, item=item
        ) from None


MAX_NAME = 300  # cards.models.Card.name and type_line


def read_cards(stream: IO[str], source: str) -> Iterator[CardRecord]:
    """The cards of an Oracle-cards bulk file, tokens, emblems and art cards left out."""
    for item, line, obj in read_objects(stream, source):
        if obj.get("object") != "card":
            raise BulkError(
                f"expected a card object, found {obj.get('object')!r} (is this the rulings file?)",
                source=source,
                line=line,
                item=item,
            )
        layout = _text(obj, "layout", source=source, line=line, item=item)
        if layout in SKIPPED_LAYOUTS or "oracle_id" not in obj and obj.get("card_faces"):
            continue
        faces = []
        for raw in obj.get("card_faces") or ():
            if not isinstance(raw, dict):
                raise BulkError("card_faces must hold objects", source=source, line=line, item=item)
            faces.append(
                Face(
                    name=_text(raw, "name", source=source, line=line, item=item, required=True),
                    mana_cost=_text(raw, "mana_cost", source=source, line=line, item=item),
                    type_line=_text(raw, "type_line", source=source, line=line, item=item),
                    oracle_text=_text(raw, "oracle_text", source=source, line=line, item=item),
                )
            )
        oracle_text = _text(obj, "oracle_text", source=source, line=line, item=item)
        if not oracle_text and faces:
            oracle_text = "\n//\n".join(f.oracle_text for f in faces)
        mana_cost = _text(obj, "mana_cost", source=source, line=line, item=item) or " // ".join(
            f.mana_cost for f in faces if f.mana_cost
        )
        legalities = obj.get("legalities") or {}
        if not isinstance(legalities, dict) or not all(
            isinstance(v, str) for v in legalities.values()
        ):
            raise BulkError(
                "legalities must map formats to strings", source=source, line=line, item=item
            )
        type_line = _text(obj, "type_line", source=source, line=line, item=item) or " // ".join(
            f.type_line for f in faces if f.type_line
        )
        if not type_line:
            # every card Scryfall lists has a type line, on the card or on its faces
            raise BulkError("'type_line' is missing", source=source, line=line, item=item)
        uri = _text(obj, "scryfall_uri", source=source, line=line, item=item)
        if uri and not uri.startswith(("https://", "http://")):
            raise BulkError(
                f"scryfall_uri {uri[:80]!r} is not a web address",
                source=source,
                line=line,
                item=item,
            )
        name = _text(obj, "name", source=source, line=line, item=item, required=True)
        if len(name) > MAX_NAME or len(type_line) > MAX_NAME:
            raise BulkError(
                f"a name or type line over {MAX_NAME} characters ({name[:60]!r}...)",
                source=source,
                line=line,
                item=item,
            )
        yield CardRecord(
            oracle_id=_oracle_id(obj, source=source, line=line, item=item),
            name=name,
            layout=layout,
            mana_cost=mana_cost,
            type_line=type_line,
            oracle_text=oracle_text,
            colour_identity=_strings(obj, "color_identity", source=source, line=line, item=item),
            keywords=_strings(obj, "keywords", source=source, line=line, item=item),
            legalities=dict(legalities),
            faces=tuple(faces),
            scryfall_uri=uri,
        )


def _strings(obj: dict, key: str, *, source: str, line: int, item: int) -> tuple[str, ...]:
    """A list of strings ("keywords", "color_identity"): () when absent; anything else, a string
    included ("Flying" is no list of keywords), is refused."""
    value = obj.get(key)
    if value is None:
        return ()
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise BulkError(f"{key!r} must be a list of strings", source=source, line=line, item=item)
    if any("\x00" in v for v in value):
        raise BulkError(f"{key!r} holds a NUL character", source=source, line=line, item=item)
    return tuple(value)


def read_rulings(stream: IO[str], source: str) -> Iterator[RulingRecord]:
    for item, line, obj in read_objects(stream, source):
        if obj.get("object") != "ruling":
            raise BulkError(
                f"expected a ruling object, found {obj.get('object')!r} (is this the cards file?)",
                source=source,
                line=line,
                item=item,
            )
        raw_date = _text(obj, "published_at", source=source, line=line, item=item, required=True)
        try:
            published = dt.date.fromisoformat(raw_date)
        except ValueError:
            raise BulkError(
                f"published_at {raw_date!r} is not a date (YYYY-MM-DD)",
                source=source,
                line=line,
                item=item,
            ) from None
        yield RulingRecord(
            oracle_id=_oracle_id(obj, source=source, line=line, item=item),
            published_at=published,
            source=_text(obj, "source", source=source, line=line, item=item) or "wotc",
            comment=_text(obj, "comment", source=source, line=line, item=item, required=True),
        )


def bulk_files(index: Any) -> dict[str, dict]:
    """Scryfall's /bulk-data answer -> {"oracle_cards": {...}, "rulings": {...}} with download_uri
    and updated_at."""
    if not isinstance(index, dict) or not isinstance(index.get("data"), list):
        raise ValueError("not a Scryfall bulk-data list")
    found = {}
    for entry in index["data"]:
        if (
            isinstance(entry, dict)
            and entry.get("type") in ("oracle_cards", "rulings")
            and isinstance(entry.get("download_uri"), str)
        ):
            found[entry["type"]] = entry
    missing = {"oracle_cards", "rulings"} - set(found)
    if missing:
        raise ValueError(f"the bulk-data list has no {', '.join(sorted(missing))}")
    return found
