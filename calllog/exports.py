"""Calls as data: the JSON record of one call (API and exports) and the event's calls as CSV
and JSON.

A call carries its penalty three ways: "penalty" (what the player received: the one announced at the
table), "announced_penalty" (what the tablet showed, "" when the client did not say) and
"computed_penalty" (the server's count from the player's history); "needs_review" flags a call whose
announced and computed penalties differ, "review_reason" says how.

Investigation notes appear only when the caller says the reader is a head judge (`with_notes`).
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable

from calllog.models import Call, Event
from rulesref import references

CSV_COLUMNS = (
    "id",
    "client_id",
    "created_at",
    "day",
    "round",
    "table",
    "judge",
    "guide",
    "conclusion",
    "players",
    "offender",
    "infraction",
    "category",
    "base_penalty",
    "penalty",
    "upgraded",
    "upgrade_reason",
    "ruling",
    "fix",
    "citations",
    "answers",
    "investigation_notes",
    "ipg_section",
    "rel",
    "time_extension",
    "updated_at",
    # Issue 27, after the earlier columns so that a sheet reading them by position still reads them.
    "announced_penalty",
    "computed_penalty",
    "needs_review",
    "review_reason",
)


def event_record(event: Event) -> dict:
    return {
        "id": event.pk,
        "name": event.name,
        "date": event.date.isoformat(),
        "rel": event.rel,
        "head_judge": event.head_judge.username,
    }


def call_record(call: Call, *, with_notes: bool) -> dict:
    record = {
        "id": call.pk,
        "event": call.event_id,
        "client_id": str(call.client_id),
        "judge": call.judge.username if call.judge else None,
        "guide": call.guide,
        "guide_title": call.guide_title,
        "answers": call.answers,
        "conclusion": call.conclusion,
        "table": call.table,
        "round": call.round,
        "day": call.day,
        "players": call.players,
        "offender": call.offender,
        "ruling": call.ruling,
        "fix": call.fix,
        "infraction": call.infraction,
        "category": call.category,
        "base_penalty": call.base_penalty,
        "penalty": call.penalty,
        "upgraded": call.upgraded,
        "upgrade_reason": call.upgrade_reason,
        "citations": references.labelled(call.citations),
        "created_at": call.created_at.isoformat(),
        "received_at": call.received_at.isoformat() if call.received_at else None,
        "ipg_section": call.ipg_section,
        "rel": call.rel,
        "time_extension": call.time_extension,
        "updated_at": call.updated_at.isoformat() if call.updated_at else None,
        "announced_penalty": call.announced_penalty,
        "computed_penalty": call.computed_penalty,
        "needs_review": call.needs_review,
        "review_reason": call.review_reason,
        "head_judge_note": call.head_judge_note,
    }
    if with_notes:
        record["investigation_notes"] = call.investigation_notes
    return record


def calls_json(event: Event, calls: Iterable[Call]) -> dict:
    """The head judge's export: the event and every call with its notes."""
    return {"event": event_record(event), "calls": [call_record(c, with_notes=True) for c in calls]}


def calls_csv(calls: Iterable[Call]) -> str:
    """One row per call, CSV_COLUMNS in order; lists are joined with " | "."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(CSV_COLUMNS)
    for call in calls:
        record = call_record(call, with_notes=True)
        record["players"] = " | ".join(call.players)
        record["answers"] = " | ".join(str(a) for a in call.answers)
        record["citations"] = " | ".join(_citation_label(c) for c in call.citations)
        writer.writerow([_cell(record[column]) for column in CSV_COLUMNS])
    return out.getvalue()


def _citation_label(citation: dict) -> str:
    if citation.get("number") or citation.get("label"):
        return references.labelled([citation])[0]["label"]  # the JAR by its heading, never a number
    return f"{str(citation.get('doc', '')).upper()} {citation.get('ref') or '?'}".strip()


def _cell(value: object) -> str:
    text = "" if value is None else str(value)
    # A player name typed on a tablet must not run as a formula when the CSV is opened in
    # a spreadsheet.
    if text[:1] in ("=", "+", "-", "@", "\t", "\r"):
        return "'" + text
    return text
