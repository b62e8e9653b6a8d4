"""Part 1 of the differ: which rule of the old version is which rule of the new one (by content
first, by number second; a renumbered rule is moved, not removed and added)."""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Mapping
from functools import lru_cache
from itertools import pairwise

from rulesref.diffing.records import (
    _WORD,
    CR_PROFILE,
    DiffProfile,
    DiffRule,
    normalize_typography,
    rule_content,
)

# ---------------------------------------------------------------------------------------------
# Part 1: pair rules


@lru_cache(maxsize=1 << 16)
def _match_words(rule: DiffRule, profile: DiffProfile, *, examples: bool = True) -> tuple[str, ...]:
    """What pairing compares: lower-case words, citations masked ("see rule #")."""
    content = (
        rule_content(rule)
        if examples
        else rule_content(DiffRule(rule.number, rule.text, rule.title))
    )
    masked = profile.reference.sub("#", normalize_typography(content).lower())
    return tuple(_WORD.findall(masked))


@lru_cache(maxsize=1 << 16)
def _bag(words: tuple[str, ...]) -> Counter[str]:
    """Words and word pairs, counted: order matters a little, edits anywhere cost a little."""
    bag = Counter(words)
    bag.update(f"{a} {b}" for a, b in pairwise(words))
    return bag


def word_similarity(a: tuple[str, ...], b: tuple[str, ...]) -> float:
    """Dice coefficient of the two bags of words and word pairs: 1.0 identical, 0.0
    nothing shared."""
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
    votes = Counter(
        getattr(state.new.rules[state.forward[u]], key) for u in under if u in state.forward
    )
    if not votes:
        return None, 0
    target, count = votes.most_common(1)[0]
    if (
        target is None
        or target in state.backward
        or target not in state.new.rules
        or 2 * count <= len(under)
    ):
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
                if len(state.old.words[o]) <= profile.short_text and not (
                    n == target and votes >= 2
                ):
                    continue
                bonus -= profile.foreign_penalty
            if n in same_title:
                # A heading kept across versions (MTR "2.13 Video Coverage") is the rule's name.
                least, bonus = min(least, profile.structural_threshold), bonus + profile.title_bonus
            if similarity < least:
                continue
            distance = abs(
                state.old.position[o] / len(state.old.numbers)
                - state.new.position[n] / len(state.new.numbers)
            )
            scored.append((-(similarity + bonus), distance, state.old.position[o], o, n))
    scored.sort()
    made = 0
    for _, _, _, o, n in scored:
        if o not in state.forward and n not in state.backward:
            state.pair(o, n)
            made += 1
    return made
