"""What a card raises in the rules, in the rules' own words: a planeswalker's loyalty abilities, a
Saga's chapters, a replacement effect ("instead", "As ~ enters"), an enters trigger, copying, a
leaves-the-battlefield look-back, a trigger's targets. Search reads a named card as its type line,
its Oracle text and these words, which are the titles and phrases of the Comprehensive Rules that
answer such questions, so a question naming the card meets those rules (never a rule number: the
words are looked up in whatever CR is current, and a test checks that each is still there). Pure.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass


@dataclass(frozen=True)
class Feature:
    name: str
    words: str  # what the rules call it: a rule's title or a phrase of its text
    types: tuple[str, ...] = ()  # any of these words of the type line (lower case)
    layouts: tuple[str, ...] = ()  # any of these Scryfall layouts
    text: str = ""  # or this pattern in the Oracle text (lower case, reminder text out)


_TRIGGER = r"(?:^|[;.]\s*|\n)(?:when|whenever|at the beginning of)\b"
FEATURES = (
    Feature("loyalty", "Loyalty Abilities, loyalty counters", types=("planeswalker",)),
    Feature("saga", "Saga Cards, lore counters, chapter abilities", types=("saga",)),
    Feature("class", "Class Cards, level abilities", types=("class",)),
    Feature(
        "replacement",
        "Replacement Effects",
        text=r"\binstead\b|\bas (?:~|this \w+|it) enters\b|\benters (?:tapped|with)\b",
    ),
    Feature(
        "enters trigger",
        "enters-the-battlefield abilities",
        text=_TRIGGER + r"[^.;\n]*\benters?\b",
    ),
    Feature(
        "leaves trigger",
        "leaves-the-battlefield abilities, look back in time",
        text=_TRIGGER + r"[^.;\n]*\b(?:dies|die|leaves the battlefield|put into a graveyard)\b",
    ),
    Feature(
        "trigger targets",
        "putting a triggered ability on the stack, targets",
        text=_TRIGGER + r"[^\n]*\btarget\b",
    ),
    Feature("copy", "Copying Objects, copiable values", text=r"\bcop(?:y|ies)\b"),
    Feature("prevention", "Prevention Effects", text=r"\bprevent\b"),
    Feature(
        "layers",
        "Interaction of Continuous Effects, layers",
        text=r"\blose(?:s)? all abilities\b|\bbase power and toughness\b"
        r"|\bin addition to (?:its|their) other (?:types|colors)\b",
    ),
    Feature("control", "control-changing effects", text=r"\bgain control\b|\bexchange control\b"),
    Feature("split", "Split Cards", layouts=("split",)),
    Feature("flip", "Flip Cards", layouts=("flip",)),
    Feature(
        "double-faced",
        "Double-Faced Cards",
        layouts=("transform", "modal_dfc", "meld", "reversible_card"),
    ),
    Feature("adventure", "Adventurer Cards", layouts=("adventure",)),
)


def features_of(
    type_line: str, oracle_text: str, layout: str = "", keywords: Iterable[str] = ()
) -> list[Feature]:
    """The features a card has, in FEATURES' order. `oracle_text` is read without its reminder
    text, with the card's own name already written as "~" where the caller can."""
    types = set(re.findall(r"[a-z]+", type_line.casefold()))
    text = re.sub(r"\([^)]*\)", " ", oracle_text.casefold())
    found = []
    for feature in FEATURES:
        if (
            types.intersection(feature.types)
            or layout in feature.layouts
            or (feature.text and re.search(feature.text, text))
        ):
            found.append(feature)
    return found


def reading(
    name: str, type_line: str, oracle_text: str, layout: str = "", keywords: Iterable[str] = ()
) -> str:
    """What search reads for a card: its type line, its Oracle text without reminder text (lines
    joined with "; "), its keywords not already in the text, and the rules' words for what it
    raises."""
    text = plain_text(oracle_text)
    parts = [type_line.strip(), text, *_tail(name, type_line, oracle_text, text, layout, keywords)]
    return ". ".join(p.rstrip(".") for p in parts if p) + "."


def tail(
    name: str, type_line: str, oracle_text: str, layout: str = "", keywords: Iterable[str] = ()
) -> tuple[str, str]:
    """The end of a card's reading that its type line and Oracle text do not give: its keywords not
    already in the text, and the rules' words for what it raises. The tablet's card copy carries
    only these (cards.offline), and builds the rest of the reading from the card's own text."""
    return _tail(name, type_line, oracle_text, plain_text(oracle_text), layout, keywords)


def plain_text(oracle_text: str) -> str:
    """Oracle text without reminder text, its lines joined with "; "."""
    lines = [re.sub(r"\s*\([^)]*\)", "", line).strip() for line in oracle_text.splitlines()]
    return "; ".join(line for line in lines if line)


def _tail(
    name: str, type_line: str, oracle_text: str, text: str, layout: str, keywords: Iterable[str]
) -> tuple[str, str]:
    own = re.sub(rf"\b{re.escape(name)}\b", "~", oracle_text) if name else oracle_text
    listed = [k for k in keywords if k.casefold() not in text.casefold()]
    words = [f.words for f in features_of(type_line, own, layout, keywords)]
    return ", ".join(listed), "; ".join(words)
