"""Which rules a card's keywords and keyword actions cite: "Trample" -> the keyword ability rule
named Trample (702.19 in the 2025 CR), "Exile target…" -> the keyword action Exile. Resolved against
the titles of whatever CR is current, never by number. Pure."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class KeywordRule:
    number: str
    title: str
    kind: str  # "ability" (702) or "action" (701)


def cited_rules(
    keywords: Iterable[str], oracle_text: str, rules: Sequence[KeywordRule]
) -> list[KeywordRule]:
    """The keyword rules a card cites: its listed keywords (abilities and actions, by name), and the
    keyword actions its Oracle text performs ("exiles", "sacrifice", "scry 1"), in rule order."""
    by_title = {r.title.casefold(): r for r in rules}
    found: dict[str, KeywordRule] = {}
    for keyword in keywords:
        rule = by_title.get(keyword.casefold())
        if rule is not None:
            found[rule.number] = rule
    # Reminder text explains keywords with other words ("cast", "exile"), and a keyword ability's
    # own name is not an action ("double strike" is not Double): both are left out before
    # reading actions.
    text = re.sub(r"\([^)]*\)", " ", oracle_text.casefold())
    for rule in found.values():
        text = re.sub(rf"\b{re.escape(rule.title.casefold())}\b", " ", text)
    for rule in rules:
        if rule.kind != "action" or rule.number in found:
            continue
        for word in re.split(r"\s+and\s+", rule.title.casefold()):
            stem = word.rstrip("e") if word.endswith("e") and len(word) > 4 else word
            if re.search(rf"\b{re.escape(stem)}(?:e|es|s|ed|d|ing)?\b", text):
                found[rule.number] = rule
                break
    return sorted(found.values(), key=lambda r: tuple(int(p) for p in r.number.split(".")))
