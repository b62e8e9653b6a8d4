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

import bisect
import datetime as dt
import difflib
import html
import re
from collections import Counter, defaultdict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from functools import cached_property, lru_cache
from itertools import pairwise
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from rulesref.parsing.records import ParsedDocument


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
    pairs: tuple[tuple[str, str], ...] = ()  # every surviving rule, old number -> new number, old order

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
        """API.md's shape: added/removed are rule numbers, moved items carry "from" and "to"."""
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
        return {"effective_date": self.effective_date.isoformat(), "number": self.number, "text": self.text}


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
    foreign_penalty: float = 0.15  # taken when the rule's parent is paired and this candidate lies elsewhere
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
    """Curly quotes, en dashes and spacing are layout, not wording (2025 file vs 2017-2022 files)."""
    return " ".join((text if text.isascii() else text.translate(_TYPOGRAPHY)).split())


def rule_content(rule: DiffRule) -> str:
    """Title, text and examples as one text: what "the rule" says."""
    parts = [rule.title, rule.text] + [f"Example: {example}" for example in rule.examples]
    return "\n".join(part for part in parts if part)


# ---------------------------------------------------------------------------------------------
# Part 1: pair rules


@lru_cache(maxsize=1 << 16)
def _match_words(rule: DiffRule, profile: DiffProfile, *, examples: bool = True) -> tuple[str, ...]:
    """What pairing compares: lower-case words, citations masked ("see rule #")."""
    content = rule_content(rule) if examples else rule_content(DiffRule(rule.number, rule.text, rule.title))
    masked = profile.reference.sub("#", normalize_typography(content).lower())
    return tuple(_WORD.findall(masked))


@lru_cache(maxsize=1 << 16)
def _bag(words: tuple[str, ...]) -> Counter[str]:
    """Words and word pairs, counted: order matters a little, edits anywhere cost a little."""
    bag = Counter(words)
    bag.update(f"{a} {b}" for a, b in pairwise(words))
    return bag


def word_similarity(a: tuple[str, ...], b: tuple[str, ...]) -> float:
    """Dice coefficient of the two bags of words and word pairs: 1.0 identical, 0.0 nothing shared."""
    if a == b:
        return 1.0
    bag_a, bag_b = _bag(a), _bag(b)
    total = sum(bag_a.values()) + sum(bag_b.values())
    if not total:
        return 0.0
    if len(bag_a) > len(bag_b):
        bag_a, bag_b = bag_b, bag_a
    shared = sum(min(count, bag_b[key]) for key, count in bag_a.items() if key in bag_b)
    return 2.0 * shared / total


class _Side:
    """One version prepared for pairing: match keys, word tuples, positions, children."""

    def __init__(self, rules: Mapping[str, DiffRule], profile: DiffProfile) -> None:
        self.rules = rules
        self.numbers = list(rules)
        self.position = {number: i for i, number in enumerate(self.numbers)}
        self.words: dict[str, tuple[str, ...]] = {}
        self.children: dict[str, list[str]] = defaultdict(list)
        self.members: dict[str, list[str]] = defaultdict(list)  # section -> every rule in it
        by_parent: dict[str | None, list[str]] = defaultdict(list)
        self.text_words: dict[str, tuple[str, ...]] = {}  # without the examples
        for number, rule in rules.items():
            self.words[number] = _match_words(rule, profile)
            self.text_words[number] = (
                _match_words(rule, profile, examples=False) if rule.examples else self.words[number]
            )
            parent = rule.parent if rule.parent is not None and rule.parent in rules else None
            by_parent[parent].append(number)
            if parent is not None:
                self.children[parent].append(number)
            if rule.section is not None and rule.section in rules and rule.section != number:
                self.members[rule.section].append(number)
        # Siblings in order, for "the rule after my predecessor's partner" predictions.
        self.next_sibling: dict[str, str] = {}
        self.prev_sibling: dict[str, str] = {}
        for siblings in by_parent.values():
            for a, b in pairwise(siblings):
                self.next_sibling[a] = b
                self.prev_sibling[b] = a


class _Pairing:
    """The pairing under construction, with similarity cached per (old, new)."""

    def __init__(self, old: _Side, new: _Side) -> None:
        self.old, self.new = old, new
        self.forward: dict[str, str] = {}
        self.backward: dict[str, str] = {}
        self._similarity: dict[tuple[str, str], float] = {}

    def pair(self, o: str, n: str) -> None:
        self.forward[o] = n
        self.backward[n] = o

    def unpair(self, o: str) -> None:
        del self.backward[self.forward.pop(o)]

    def similarity(self, o: str, n: str) -> float:
        key = (o, n)
        if key not in self._similarity:
            value = word_similarity(self.old.words[o], self.new.words[n])
            if self.old.rules[o].examples or self.new.rules[n].examples:
                # An example added, rewritten or dropped (CR 118.3c, 2025) leaves the rule itself.
                value = max(value, word_similarity(self.old.text_words[o], self.new.text_words[n]))
            self._similarity[key] = value
        return self._similarity[key]

    def unpaired_old(self) -> list[str]:
        return [n for n in self.old.numbers if n not in self.forward]

    def unpaired_new(self) -> list[str]:
        return [n for n in self.new.numbers if n not in self.backward]


def pair_rules(
    old: Mapping[str, DiffRule], new: Mapping[str, DiffRule], profile: DiffProfile = CR_PROFILE
) -> dict[str, str]:
    """Which old rule is which new rule: {old number: new number} for every surviving rule.

    Identical content (citations masked) pairs by hash first, except short boilerplate that
    jumped out of its parent's partner. The rest is paired greedily, best score first, over
    candidates from three sources: the rule's position (same suffix under its parent's partner,
    next to its neighbour's partner), where its children went (a section whose rules moved
    together, 725 "Taking Shortcuts" -> 729), and an inverted index of rare words. Rounds repeat
    while they pair something, because pairs found in one round place the rest.
    """
    state = _Pairing(_Side(old, profile), _Side(new, profile))
    _pair_identical(state)
    _unpair_stray_boilerplate(state, profile)
    for _ in range(4):
        if not _pair_by_score(state, profile):
            break
    return {o: state.forward[o] for o in state.old.numbers if o in state.forward}


def _pair_identical(state: _Pairing) -> None:
    """Identical content under one number each side pairs at once; same-number twins next."""
    olds: dict[tuple[str, ...], list[str]] = defaultdict(list)
    news: dict[tuple[str, ...], list[str]] = defaultdict(list)
    for number, words in state.old.words.items():
        if words:
            olds[words].append(number)
    for number, words in state.new.words.items():
        if words:
            news[words].append(number)
    for words, old_numbers in olds.items():
        new_numbers = news.get(words)
        if not new_numbers:
            continue
        if len(old_numbers) == 1 and len(new_numbers) == 1:
            state.pair(old_numbers[0], new_numbers[0])
            continue
        # Repeated texts (section titles such as "General"): only the same number is certain
        # here; the rest are placed by position in _pair_by_score.
        for number in set(old_numbers) & set(new_numbers):
            state.pair(number, number)


def _unpair_stray_boilerplate(state: _Pairing, profile: DiffProfile) -> None:
    """Undo an identical-text pairing of a short text that jumped to a parent other than its own
    parent's partner: CR 505.6 and 509.4 both read "Fourth, the active player gets priority."."""
    for o, n in list(state.forward.items()):
        if o == n or len(state.old.words[o]) > profile.short_text:
            continue
        parent = state.old.rules[o].parent
        if parent in state.forward and state.forward[parent] != state.new.rules[n].parent:
            state.unpair(o)


def _placed(state: _Pairing, o: str) -> set[str]:
    """New numbers where `o` would be if it kept its place: same suffix under its parent's partner,
    or right after its previous sibling's partner, or right before its next sibling's partner."""
    guesses: set[str] = set()
    parent = state.old.rules[o].parent
    if parent is not None and parent in state.forward and o.startswith(parent):
        guesses.add(state.forward[parent] + o[len(parent) :])
    elif parent is None or parent not in state.old.rules:
        guesses.add(o)
    before = state.old.prev_sibling.get(o)
    if before in state.forward:
        after_partner = state.new.next_sibling.get(state.forward[before])
        if after_partner is not None:
            guesses.add(after_partner)
    after = state.old.next_sibling.get(o)
    if after in state.forward:
        before_partner = state.new.prev_sibling.get(state.forward[after])
        if before_partner is not None:
            guesses.add(before_partner)
    return {g for g in guesses if g in state.new.rules and g not in state.backward}


def _voted(state: _Pairing, o: str) -> tuple[str | None, int]:
    """Where the rules under `o` went, if most of them went under one unpaired new rule: a section
    is followed by all its rules, another rule by its subrules. (target, votes) or (None, 0)."""
    if o in state.old.members:
        under, key = state.old.members[o], "section"
    else:
        under, key = state.old.children.get(o, []), "parent"
    votes = Counter(getattr(state.new.rules[state.forward[u]], key) for u in under if u in state.forward)
    if not votes:
        return None, 0
    target, count = votes.most_common(1)[0]
    if target is None or target in state.backward or target not in state.new.rules or 2 * count <= len(under):
        return None, 0
    return target, count


def _heading(title: str) -> str:
    return normalize_typography(title).lower()


def _content_candidates(
    state: _Pairing, olds: list[str], news: list[str], profile: DiffProfile
) -> dict[str, list[str]]:
    """Unpaired new rules sharing the rarest words of each unpaired old rule (inverted index)."""
    index: dict[str, list[str]] = defaultdict(list)
    for n in news:
        for word in set(state.new.words[n]):
            index[word].append(n)
    found: dict[str, list[str]] = {}
    for o in olds:
        words = sorted(set(state.old.words[o]) & index.keys(), key=lambda w: len(index[w]))
        hits: Counter[str] = Counter()
        for word in words[: profile.rare_tokens]:
            hits.update(index[word])
        need = 1 if len(words) <= 2 else 2
        found[o] = [n for n, count in hits.most_common(profile.max_candidates) if count >= need]
    return found


def _pair_by_score(state: _Pairing, profile: DiffProfile) -> int:
    """One greedy round, best score first: similarity plus a bonus for agreeing structure.

    How similar a candidate must be depends on the evidence beside its words: none (content
    alone), the same parent's partner (kin), the predicted place, or where its rules went (any
    similarity, with two or more rules following: a renamed section, 308 "Tribals" -> "Kindreds").
    Returns the number of pairs made.
    """
    olds, news = state.unpaired_old(), state.unpaired_new()
    if not olds or not news:
        return 0
    by_content = _content_candidates(state, olds, news, profile)
    by_title: dict[str, set[str]] = defaultdict(set)
    for n in news:
        if state.new.rules[n].title:
            by_title[_heading(state.new.rules[n].title)].add(n)
    scored: list[tuple[float, float, int, str, str]] = []
    for o in olds:
        placed = _placed(state, o)
        target, votes = _voted(state, o)
        parent = state.old.rules[o].parent
        kin_parent = state.forward.get(parent) if parent is not None else None
        title = _heading(state.old.rules[o].title)
        same_title = by_title.get(title, set()) if title else set()
        for n in placed | set(by_content.get(o, ())) | ({target} if target else set()) | same_title:
            similarity = state.similarity(o, n)
            if n == target and votes >= 2:
                least, bonus = 0.0, profile.structure_bonus
            elif n in placed or n == target:
                least, bonus = profile.structural_threshold, profile.structure_bonus
            elif kin_parent is not None and state.new.rules[n].parent == kin_parent:
                least, bonus = profile.kin_threshold, profile.kin_bonus
            else:
                least, bonus = profile.threshold, 0.0
            if kin_parent is not None and state.new.rules[n].parent != kin_parent:
                # Its parent is known to be elsewhere: a move out of it needs more than words,
                # and short boilerplate never proves one (see _unpair_stray_boilerplate) unless
                # the rule's own subrules went there.
                if len(state.old.words[o]) <= profile.short_text and not (n == target and votes >= 2):
                    continue
                bonus -= profile.foreign_penalty
            if n in same_title:
                # A heading kept across versions (MTR "2.13 Video Coverage") is the rule's name.
                least, bonus = min(least, profile.structural_threshold), bonus + profile.title_bonus
            if similarity < least:
                continue
            distance = abs(
                state.old.position[o] / len(state.old.numbers) - state.new.position[n] / len(state.new.numbers)
            )
            scored.append((-(similarity + bonus), distance, state.old.position[o], o, n))
    scored.sort()
    made = 0
    for _, _, _, o, n in scored:
        if o not in state.forward and n not in state.backward:
            state.pair(o, n)
            made += 1
    return made


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
    if profile.reference.sub(cited, normalize_typography(old_text)) == normalize_typography(new_text):
        return PairComparison(False, 1.0, ())
    old_words, new_words = old_text.split(), new_text.split()
    old_keys = [profile.reference.sub(cited, _plain(w)) if _DIGIT.search(w) else _plain(w) for w in old_words]
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
        key=lambda c: (new_pos[c.new_number], 0) if c.new_number is not None else (-1, old_pos[c.old_number or ""]),
    )


Pairer = Callable[[Mapping[str, DiffRule], Mapping[str, DiffRule], DiffProfile], Mapping[str, str]]
Comparer = Callable[[DiffRule, DiffRule, Mapping[str, str], DiffProfile], PairComparison]
Orderer = Callable[[Sequence[RuleChange], Mapping[str, DiffRule], Mapping[str, DiffRule]], list[RuleChange]]


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
            changes.append(RuleChange(ChangeKind.MOVED, o, n, result.similarity, result.edited, result.ops))
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
    """The differ's records for a parsed document, in document order; chapters are left out
    because API.md does not count them as rules."""
    from rulesref.parsing.records import RuleKind

    by_number = {rule.number: rule for rule in doc.rules}
    records: dict[str, DiffRule] = {}
    for rule in doc.rules:
        if rule.kind is RuleKind.CHAPTER:
            continue
        section = rule.parent
        while section is not None and by_number[section].kind not in (RuleKind.SECTION, RuleKind.APPENDIX):
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


# ---------------------------------------------------------------------------------------------
# Following a rule across versions


def follow_rule(
    old: Mapping[str, DiffRule], new: Mapping[str, DiffRule], number: str, *, profile: DiffProfile = CR_PROFILE
) -> str | None:
    """The number in `new` of rule `number` of `old`; None when it was removed.

    Raises KeyError when `old` has no such rule (a pinned reference naming nothing).
    """
    if number not in old:
        raise KeyError(number)
    return pair_rules(old, new, profile).get(number)


def follow_through(mappings: Sequence[Mapping[str, str]], number: str | None) -> str | None:
    """Chain consecutive pairings (v0->v1, v1->v2, ...): where `number` of v0 ends up, or None."""
    for mapping in mappings:
        if number is None:
            return None
        number = mapping.get(number)
    return number


Version = tuple[dt.date, Mapping[str, DiffRule]]


def version_index(versions: Sequence[Version], at: dt.date) -> int:
    """The version in effect on `at` (the newest with effective_date <= at). ValueError if none."""
    dates = [date for date, _ in versions]
    if dates != sorted(dates):
        raise ValueError("versions must be ordered oldest first")
    i = bisect.bisect_right(dates, at) - 1
    if i < 0:
        raise ValueError(f"no version is in effect on {at.isoformat()}")
    return i


@dataclass
class PairingCache:
    """Consecutive pairings for a list of versions, computed on demand and kept; a service can
    seed it with stored mappings (`known[i]` pairs version i with version i + 1)."""

    versions: Sequence[Version]
    profile: DiffProfile = CR_PROFILE
    known: dict[int, Mapping[str, str]] = field(default_factory=dict)

    def forward(self, i: int) -> Mapping[str, str]:
        if i not in self.known:
            self.known[i] = pair_rules(self.versions[i][1], self.versions[i + 1][1], self.profile)
        return self.known[i]

    def backward(self, i: int) -> dict[str, str]:
        return {n: o for o, n in self.forward(i).items()}


def trace_rule(
    versions: Sequence[Version],
    number: str,
    at: dt.date,
    *,
    pairings: PairingCache | Sequence[Mapping[str, str] | None] | None = None,
    profile: DiffProfile = CR_PROFILE,
) -> list[TraceStep]:
    """Rule `number` of the version in effect on `at`, through every version (oldest first).

    Steps follow consecutive pairings backward and forward, so a rule renumbered twice
    (719 -> 722 -> 725 -> 729) is followed through each renumbering; a version where the rule does
    not exist has number None and text None, and the trail stops on that side. `pairings` may
    hold precomputed consecutive mappings (None for unknown ones). Raises KeyError when that
    version has no rule `number`, ValueError when no version is in effect on `at`.
    """
    cache = _as_cache(versions, pairings, profile)
    start = version_index(versions, at)
    if number not in versions[start][1]:
        raise KeyError(number)
    numbers: list[str | None] = [None] * len(versions)
    numbers[start] = number
    for i in range(start + 1, len(versions)):
        previous = numbers[i - 1]
        if previous is None:
            break
        numbers[i] = cache.forward(i - 1).get(previous)
    for i in range(start - 1, -1, -1):
        following = numbers[i + 1]
        if following is None:
            break
        numbers[i] = cache.backward(i).get(following)
    return [TraceStep(date, n, rules[n].text if n is not None else None) for (date, rules), n in zip(versions, numbers)]


def _as_cache(
    versions: Sequence[Version],
    pairings: PairingCache | Sequence[Mapping[str, str] | None] | None,
    profile: DiffProfile,
) -> PairingCache:
    if isinstance(pairings, PairingCache):
        return pairings
    known = {i: m for i, m in enumerate(pairings or ()) if m is not None}
    return PairingCache(versions, profile, known)
