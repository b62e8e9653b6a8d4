"""The differ's records (rules, changes, word operations, trace steps), the per-document profiles,
and the typography and word normalisation every part compares with."""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass
from enum import Enum
from functools import cached_property
from typing import Any

# ---------------------------------------------------------------------------------------------
# Records in and out


@dataclass(frozen=True)
class DiffRule:
    """One rule as the differ sees it. Numbers are strings ("704.5a"), never floats."""

    number: str
    text: str
    title: str = ""  # section heading ("Taking Shortcuts"); "" for plain rules
    section: str | None = None  # number of the enclosing section ("729"), None for a section
    section_title: str = ""
    parent: str | None = None  # number of the enclosing rule ("729.2" for "729.2a")
    examples: tuple[str, ...] = ()


class ChangeKind(str, Enum):
    ADDED = "added"
    REMOVED = "removed"
    MOVED = "moved"  # paired with a different number; `edited` says whether the text changed too
    EDITED = "changed"  # same number, different text


@dataclass(frozen=True)
class WordOp:
    op: str  # "equal", "insert" or "delete"
    words: str


@dataclass(frozen=True)
class RuleChange:
    kind: ChangeKind
    old_number: str | None
    new_number: str | None
    similarity: float = 1.0  # 0..1 over words; 1.0 for an identical text
    edited: bool = False  # the text differs (beyond typography and renumbered citations)
    ops: tuple[WordOp, ...] = ()  # word-level diff old -> new, only when edited

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"from": self.old_number, "to": self.new_number}
        if self.kind in (ChangeKind.EDITED, ChangeKind.MOVED):
            out["number"] = self.new_number
            out["changed"] = self.edited
            out["similarity"] = round(self.similarity, 3)
            if self.ops:
                out["diff"] = [{"op": op.op, "words": op.words} for op in self.ops]
        return out


@dataclass(frozen=True)
class RulesDiff:
    """Everything that happened between two versions; each old rule is in exactly one bucket."""

    added: tuple[RuleChange, ...]
    removed: tuple[RuleChange, ...]
    changed: tuple[RuleChange, ...]  # same number, edited text
    moved: tuple[RuleChange, ...]  # new number, text edited or not
    unchanged: int
    # every surviving rule, old number -> new number, old order
    pairs: tuple[tuple[str, str], ...] = ()

    @cached_property
    def mapping(self) -> dict[str, str]:
        return dict(self.pairs)

    @property
    def counts(self) -> dict[str, int]:
        return {
            "unchanged": self.unchanged,
            "changed": len(self.changed),
            "moved": len(self.moved),
            "moved_edited": sum(1 for m in self.moved if m.edited),
            "added": len(self.added),
            "removed": len(self.removed),
        }

    def to_dict(self) -> dict[str, Any]:
        """docs/API.md's shape: added/removed are rule numbers, moved items carry "from"
        and "to"."""
        return {
            "added": [c.new_number for c in self.added],
            "removed": [c.old_number for c in self.removed],
            "changed": [c.to_dict() for c in self.changed],
            "moved": [c.to_dict() for c in self.moved],
            "counts": self.counts,
        }


@dataclass(frozen=True)
class TraceStep:
    effective_date: dt.date
    number: str | None  # None: the rule does not exist in this version
    text: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "effective_date": self.effective_date.isoformat(),
            "number": self.number,
            "text": self.text,
        }


# ---------------------------------------------------------------------------------------------
# What differs between documents


@dataclass(frozen=True)
class DiffProfile:
    """The document-specific parts: how citations look and how sure a pairing must be."""

    reference: re.Pattern[str]  # a rule number cited inside a text
    threshold: float = 0.6  # least similarity for a pairing found by content alone
    kin_threshold: float = 0.45  # least similarity under paired parents (same section)
    structural_threshold: float = 0.25  # least similarity when the position agrees too
    structure_bonus: float = 0.1  # added to the score of a position-consistent candidate
    kin_bonus: float = 0.05  # added to the score of a candidate under the paired parent
    title_bonus: float = 0.3  # added when both carry the same heading ("Video Coverage")
    # taken when the rule's parent is paired and this candidate lies elsewhere
    foreign_penalty: float = 0.15
    short_text: int = 15  # words; an identical text this short ("Fourth, the active
    # player gets priority.") is boilerplate, not proof
    rare_tokens: int = 8  # rarest words of a rule used to look up candidates
    max_candidates: int = 12  # candidates per unpaired rule compared word by word


# CR citations: "729.2a", "704.5", and a three-digit section ("rule 903").
CR_PROFILE = DiffProfile(reference=re.compile(r"(?<![\w.])\d{3}(?:\.\d+[a-z]?)?(?![\w])"))
# MTR/IPG citations: "4.2", "3.9", "10.1".
MTR_PROFILE = DiffProfile(reference=re.compile(r"(?<![\w.])\d{1,2}\.\d{1,2}(?![\w]|\.\d)"))

# Layout only: curly quotes (2025), dashes and trademark signs (some 2019 files spell "—" as "-"
# and "®" as "(r)"), non-breaking spaces.
_TYPOGRAPHY = str.maketrans(
    {
        "\u2018": "'",
        "\u2019": "'",
        "\u201c": '"',
        "\u201d": '"',
        "\u2013": "-",
        "\u2014": "-",
        "\u2212": "-",
        "\u00ae": "(r)",
        "\u2122": "(tm)",
        "\u00a9": "(c)",
        "\u00a0": " ",
    }
)
_WORD = re.compile(r"\w+|#")
_DIGIT = re.compile(r"\d")


def _plain(word: str) -> str:
    return word if word.isascii() else word.translate(_TYPOGRAPHY)


def normalize_typography(text: str) -> str:
    """Curly quotes, en dashes and spacing are layout, not wording (2025 file vs
    2017-2022 files)."""
    return " ".join((text if text.isascii() else text.translate(_TYPOGRAPHY)).split())


def rule_content(rule: DiffRule) -> str:
    """Title, text and examples as one text: what "the rule" says."""
    parts = [rule.title, rule.text] + [f"Example: {example}" for example in rule.examples]
    return "\n".join(part for part in parts if part)
