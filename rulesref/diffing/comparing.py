"""Part 2 of the differ: compare one paired rule (edited or not, similarity, word diff) and render
word diffs."""

from __future__ import annotations

import difflib
import html
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from rulesref.diffing.records import (
    _DIGIT,
    CR_PROFILE,
    DiffProfile,
    DiffRule,
    WordOp,
    _plain,
    normalize_typography,
    rule_content,
)

# ---------------------------------------------------------------------------------------------
# Part 2: compare a pair


@dataclass(frozen=True)
class PairComparison:
    edited: bool
    similarity: float
    ops: tuple[WordOp, ...]


def compare_pair(
    a: DiffRule, b: DiffRule, mapping: Mapping[str, str], profile: DiffProfile = CR_PROFILE
) -> PairComparison:
    """Word-level comparison of two paired rules.

    Typography is ignored, and so is a citation that only follows the renumbering ("see rule
    725.2" -> "see rule 729.2" when 725.2 became 729.2): that rule says the same thing.
    """

    def cited(match: re.Match[str]) -> str:
        return mapping.get(match.group(0), match.group(0))

    old_text, new_text = rule_content(a), rule_content(b)
    if profile.reference.sub(cited, normalize_typography(old_text)) == normalize_typography(
        new_text
    ):
        return PairComparison(False, 1.0, ())
    old_words, new_words = old_text.split(), new_text.split()
    old_keys = [
        profile.reference.sub(cited, _plain(w)) if _DIGIT.search(w) else _plain(w)
        for w in old_words
    ]
    new_keys = [_plain(w) for w in new_words]
    if old_keys == new_keys:
        return PairComparison(False, 1.0, ())
    matcher = difflib.SequenceMatcher(None, old_keys, new_keys, autojunk=False)
    ops: list[WordOp] = []
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            ops.append(WordOp("equal", " ".join(new_words[j1:j2])))
            continue
        if i2 > i1:
            ops.append(WordOp("delete", " ".join(old_words[i1:i2])))
        if j2 > j1:
            ops.append(WordOp("insert", " ".join(new_words[j1:j2])))
    return PairComparison(True, matcher.ratio(), tuple(ops))


def render_word_diff_text(ops: Sequence[WordOp]) -> str:
    """ "[-old words-]{+new words+}" inline, for logs and plain-text notes."""
    marks = {"equal": "{}", "delete": "[-{}-]", "insert": "{{+{}+}}"}
    return " ".join(marks[op.op].format(op.words) for op in ops)


def render_word_diff_html(ops: Sequence[WordOp]) -> str:
    """The word diff as HTML with <del> and <ins>, text escaped."""
    tags = {"equal": "{}", "delete": "<del>{}</del>", "insert": "<ins>{}</ins>"}
    return " ".join(tags[op.op].format(html.escape(op.words)) for op in ops)
