"""Pairs the rules of two versions of a rules document and describes what changed.

The differ owns one question: which rule of the old version is which rule of the new one. A
renumbered rule is the same rule (it is *moved*, never removed and added), and a rule that kept its
number but now holds another rule's text (a cascade after an insertion) is not *changed*: rules are
paired by content first and by number second. Built from three swappable parts so that the CR and
the MTR differ only where they must:

    pair_rules(old, new, profile)          -> {old number: new number}
    compare_pair(a, b, mapping, profile)   -> PairComparison (edited?, similarity, word diff)
    order_changes(changes, old, new)       -> the changes in document order

On top of the pairwise diff: `trace_rule` follows one rule through every stored version and
`follow_rule` answers "where did this rule go" for pinned references ("cr@2025-02-07:729.4").
Pure: standard library only, plain values in, frozen dataclasses out.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rulesref.parsing.records import ParsedDocument
from rulesref.diffing.comparing import (  # noqa: F401  (the package's public names)
    PairComparison,
    compare_pair,
    render_word_diff_html,
    render_word_diff_text,
)
from rulesref.diffing.pairing import (  # noqa: F401  (the package's public names)
    _bag,
    _content_candidates,
    _heading,
    _match_words,
    _pair_by_score,
    _pair_identical,
    _Pairing,
    _placed,
    _Side,
    _unpair_stray_boilerplate,
    _voted,
    pair_rules,
    word_similarity,
)
from rulesref.diffing.records import (  # noqa: F401  (the package's public names)
    _DIGIT,
    _TYPOGRAPHY,
    _WORD,
    CR_PROFILE,
    MTR_PROFILE,
    ChangeKind,
    DiffProfile,
    DiffRule,
    RuleChange,
    RulesDiff,
    TraceStep,
    WordOp,
    _plain,
    normalize_typography,
    rule_content,
)
from rulesref.diffing.tracing import (  # noqa: F401  (the package's public names)
    PairingCache,
    Version,
    _as_cache,
    follow_rule,
    follow_through,
    trace_rule,
    version_index,
)

# the package's public names, for importers checked with no_implicit_reexport (mypy.ini)
__all__ = [
    "CR_PROFILE",
    "ChangeKind",
    "Comparer",
    "DiffProfile",
    "DiffRule",
    "MTR_PROFILE",
    "Orderer",
    "PairComparison",
    "Pairer",
    "PairingCache",
    "RuleChange",
    "RulesDiff",
    "TraceStep",
    "Version",
    "WordOp",
    "_DIGIT",
    "_Pairing",
    "_Side",
    "_TYPOGRAPHY",
    "_WORD",
    "_as_cache",
    "_bag",
    "_content_candidates",
    "_heading",
    "_match_words",
    "_pair_by_score",
    "_pair_identical",
    "_placed",
    "_plain",
    "_unpair_stray_boilerplate",
    "_voted",
    "compare_pair",
    "diff_rules",
    "diff_rules_from_document",
    "follow_rule",
    "follow_through",
    "normalize_typography",
    "order_changes",
    "pair_rules",
    "render_word_diff_html",
    "render_word_diff_text",
    "rule_content",
    "trace_rule",
    "version_index",
    "word_similarity",
]

# ---------------------------------------------------------------------------------------------
# Part 3: order changes, and the differ built from the three parts


def order_changes(
    changes: Sequence[RuleChange], old: Mapping[str, DiffRule], new: Mapping[str, DiffRule]
) -> list[RuleChange]:
    """New-document order; a removed rule sits where it stood in the old document."""
    old_pos = {n: i for i, n in enumerate(old)}
    new_pos = {n: i for i, n in enumerate(new)}
    return sorted(
        changes,
        key=lambda c: (
            (new_pos[c.new_number], 0)
            if c.new_number is not None
            else (-1, old_pos[c.old_number or ""])
        ),
    )


Pairer = Callable[[Mapping[str, DiffRule], Mapping[str, DiffRule], DiffProfile], Mapping[str, str]]
Comparer = Callable[[DiffRule, DiffRule, Mapping[str, str], DiffProfile], PairComparison]
Orderer = Callable[
    [Sequence[RuleChange], Mapping[str, DiffRule], Mapping[str, DiffRule]], list[RuleChange]
]


def diff_rules(
    old: Mapping[str, DiffRule],
    new: Mapping[str, DiffRule],
    *,
    profile: DiffProfile = CR_PROFILE,
    pair: Pairer = pair_rules,
    compare: Comparer = compare_pair,
    order: Orderer = order_changes,
    mapping: Mapping[str, str] | None = None,
) -> RulesDiff:
    """Diff two versions given as ordered {number: DiffRule}.

    `mapping` skips pairing when a pairing was computed before (a cached RulesDiff.mapping).
    Two full CRs (about 3000 rules each) take well under 2 s.
    """
    pairs = dict(mapping) if mapping is not None else dict(pair(old, new, profile))
    changes: list[RuleChange] = []
    unchanged = 0
    for o, n in pairs.items():
        result = compare(old[o], new[n], pairs, profile)
        if o == n and not result.edited:
            unchanged += 1
        elif o == n:
            changes.append(RuleChange(ChangeKind.EDITED, o, n, result.similarity, True, result.ops))
        else:
            changes.append(
                RuleChange(ChangeKind.MOVED, o, n, result.similarity, result.edited, result.ops)
            )
    paired_new = set(pairs.values())
    changes += [RuleChange(ChangeKind.REMOVED, o, None, 0.0) for o in old if o not in pairs]
    changes += [RuleChange(ChangeKind.ADDED, None, n, 0.0) for n in new if n not in paired_new]
    ordered = order(changes, old, new)
    return RulesDiff(
        added=tuple(c for c in ordered if c.kind is ChangeKind.ADDED),
        removed=tuple(c for c in ordered if c.kind is ChangeKind.REMOVED),
        changed=tuple(c for c in ordered if c.kind is ChangeKind.EDITED),
        moved=tuple(c for c in ordered if c.kind is ChangeKind.MOVED),
        unchanged=unchanged,
        pairs=tuple((o, pairs[o]) for o in old if o in pairs),
    )


def diff_rules_from_document(doc: ParsedDocument) -> dict[str, DiffRule]:
    """The differ's records for a parsed document, in document order; chapters that are only a
    heading are left out (docs/API.md does not count them as rules), a chapter with text of its own
    (the IPG's General Philosophy) is compared like any rule."""
    from rulesref.parsing.records import RuleKind

    by_number = {rule.number: rule for rule in doc.rules}
    records: dict[str, DiffRule] = {}
    for rule in doc.rules:
        if rule.kind is RuleKind.CHAPTER and not rule.text.strip():
            continue
        section = rule.parent
        while section is not None and by_number[section].kind not in (
            RuleKind.SECTION,
            RuleKind.APPENDIX,
        ):
            section = by_number[section].parent
        if rule.kind in (RuleKind.SECTION, RuleKind.APPENDIX):
            section = None
        records[rule.number] = DiffRule(
            number=rule.number,
            text=rule.text,
            title=rule.title,
            section=section,
            section_title=by_number[section].title if section is not None else "",
            parent=rule.parent
            if rule.parent in by_number and by_number[rule.parent].kind is not RuleKind.CHAPTER
            else None,
            examples=rule.examples,
        )
    return records
