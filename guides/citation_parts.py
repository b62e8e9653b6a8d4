"""IPG citations by their parts: an infraction's section cited in a conclusion or a call is shown as
labelled blocks (Definition, Penalty, Examples, Philosophy, Additional Remedy, Upgrade, Downgrade),
read from the parts the IPG parser stored for that section in the version the citation resolved to,
instead of one run of text ("Definition … Penalty: Warning Philosophy …").
"""

from __future__ import annotations

from rulesref.parsing.ipg import PART_LABELS, PART_ORDER

_LABELS = {"penalty": "Penalty", **PART_LABELS}


def section_parts(fields: dict) -> list[dict]:
    """An IPG section's parts as labelled blocks, in the IPG's order: [{"label", "text"}]."""
    return [
        {"label": _LABELS[key], "text": str(fields[key]).strip()}
        for key in PART_ORDER
        if str(fields.get(key) or "").strip()
    ]


def with_parts(citations: list[dict]) -> list[dict]:
    """The citations, each IPG section that has parts given "parts": [{"label", "text"}] (others
    as given)."""
    from rulesref.models import Rule

    wanted = [c for c in citations if c.get("doc") == "ipg" and c.get("number")]
    if not wanted:
        return citations
    rules = Rule.objects.filter(
        version__document__slug="ipg",
        version__is_current=True,
        number__in=[c["number"] for c in wanted],
    )
    fields = {rule.number: rule.fields or {} for rule in rules}
    out = []
    for citation in citations:
        parts = (
            section_parts(fields.get(citation.get("number") or "", {}))
            if citation in wanted
            else []
        )
        out.append({**citation, "parts": parts} if parts else citation)
    return out
