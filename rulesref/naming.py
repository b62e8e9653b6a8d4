"""How a rule is named where a judge reads it: pages, search results, citations, the offline reader.

The CR, MTR and IPG print their numbers ("CR 729.3", "IPG 2.5"). The JAR prints none: the numbers
the parser gives its sections by heading order ("1.3") are keys for addresses and the API
(/rules/jar/1.3/, {"doc": "jar", "number": "1.3"}), never shown; a JAR section is named by its
situation, its heading ("A player accidentally draws or has more cards than they were supposed to").
Pure: no Django. static/judgeapp/offline-reader.js follows the same rule (its UNNUMBERED).
"""

from __future__ import annotations

UNNUMBERED = frozenset({"jar"})  # documents that print no numbers


def prints_numbers(doc: str) -> bool:
    return doc.lower() not in UNNUMBERED


def shown_number(doc: str, number: str | None) -> str:
    """The number as the document prints it: the number itself, or "" for the JAR."""
    return (number or "") if prints_numbers(doc) else ""


def rule_name(doc: str, number: str | None, title: str) -> str:
    """A rule's name for a page title or heading: "CR 729.3", "IPG 2.5 Game Play Error - Game Rule
    Violation", and for the JAR its heading alone ("A player accidentally draws ...")."""
    if not prints_numbers(doc):
        return title or doc.upper()
    return " ".join(part for part in (doc.upper(), number or "", title) if part)


def citation_label(doc: str, number: str | None, title: str) -> str:
    """How a citation is shown to people: "CR 729.4", "IPG 2.5"; a JAR citation is its own heading:
    "JAR: A player accidentally draws or has more cards than they were supposed to"; its opening
    text (stored as "0", titled "Introduction" by the parser) is "JAR: the opening paragraphs"."""
    if not prints_numbers(doc):
        if number == "0":
            return f"{doc.upper()}: the opening paragraphs"
        return f"{doc.upper()}: {title}" if title else doc.upper()
    return f"{doc.upper()} {number}" if number else doc.upper()
