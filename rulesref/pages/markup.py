"""Rule text as HTML: cited rule numbers become links, glossary terms get an explanation.

Text is escaped piece by piece; only the links and term marks this module builds are markup.
Glossary terms are found by looking word runs up in a dictionary (longest run first), not by a
regular expression with hundreds of alternatives, so a section of 700 subrules renders quickly.
"""

from __future__ import annotations

import re
import threading
from collections import Counter, OrderedDict
from collections.abc import Callable, Collection, Container
from dataclasses import dataclass, field

from django.utils.html import escape, format_html
from django.utils.safestring import SafeString, mark_safe

from rulesref.models import GlossaryTerm, Rule, Version

# A cited number: CR "704.5a", "729", MTR/IPG "4.2", "3.10", both ends of "903.6–903.11".
# Not inside "+1/+1", dates or "2.5%".
_NUMBER = re.compile(
    r"(?<![\w.+/$])(\d{3}\.\d+[a-z]?|\d{3}|\d{1,2}\.\d{1,2}(?:\.\d{1,2})?)(?![\w/%]|\.\d|[+\-]\d)"
)
# A chapter is cited only as "section 8" (CR 100.1b: "See section 8, “Multiplayer Rules.”"), or
# "sections 2-4" (IPG); an MTR appendix as "Appendix F".
_CHAPTER = re.compile(
    r"\b[Ss]ections?\s+(\d)(?![\w.])(?:\s*[-\u2013]\s*(\d)(?![\w.]))?|\b[Aa]ppendix\s+([A-Z])\b"
)
_WORD = re.compile(r"[A-Za-z0-9]+(?:['\u2019\-][A-Za-z0-9]+)*")
_PLAIN_NAME = re.compile(r"[\w\s'\u2019\-]+")
_POINTER = re.compile(r"See [^.\n]+\.?")
_MAX_TERM_WORDS = 6
_PLURALS = (("ies", "y"), ("es", ""), ("s", ""))
_CACHE_SIZE = 6
_cache: OrderedDict[tuple[int, str], GlossaryIndex] = OrderedDict()
_lock = threading.Lock()


@dataclass(frozen=True)
class GlossaryIndex:
    """Every name of every glossary term of one version, keyed by its casefolded words."""

    names: dict[str, int] = field(repr=False)  # "active player" -> term id
    terms: dict[int, tuple[str, str]] = field(repr=False)  # term id -> (term, definition)
    first_words: frozenset[str] = field(default=frozenset(), repr=False)

    def may_start(self, word: str) -> bool:
        """Whether some name starts with this word (or its singular): most words need no
        further look-up."""
        if word in self.first_words:
            return True
        return len(word) > 3 and any(
            word.endswith(p) and word[: len(word) - len(p)] + s in self.first_words
            for p, s in _PLURALS
        )

    def lookup(self, words: list[str], *, capitalised: bool = True) -> int | None:
        """The term named by these casefolded words; `capitalised`: whether the text wrote the
        first word with a capital (an ordinary word is the term only then: ORDINARY_WORDS)."""
        key = " ".join(words)
        found = self.names.get(key)
        if found is None and words and len(words[-1]) > 3:
            last = words[-1]
            # Plurals in running text: "creatures", "abilities", "copies".
            for plural, single in _PLURALS:
                if last.endswith(plural):
                    key = " ".join([*words[:-1], last[: len(last) - len(plural)] + single])
                    found = self.names.get(key)
                    if found is not None:
                        break
        if found is not None and not capitalised and key in ORDINARY_WORDS:
            return None
        return found


def _words_key(text: str) -> list[str]:
    return [w.casefold().replace("\u2019", "'") for w in _WORD.findall(text)]


# a one-word term in more than 3% of the rules ("player", "card") needs no popover
EVERYDAY_SHARE = 0.03

# One-word glossary terms that are also ordinary English words. Running text uses them in their
# ordinary sense ("in which case", "demonstrate awareness"), so only a
# capitalised use is the term: a subtype as the rules write it ("Case", "Class", "Role"), a
# keyword named as a keyword ("Demonstrate"). Keywords the rules write in lower case ("with
# reach", "double its power") are not listed: there the lower-case word is the term.
ORDINARY_WORDS = frozenset(
    {
        # subtypes, which rules text writes with a capital
        "case",
        "class",
        "role",
        "room",
        # keywords and obsolete terms the policy documents use as plain words
        "assist",
        "demonstrate",
        "general",
        "learn",
        "protect",
    }
)


def _without_everyday_words(version: Version, names: dict[str, int]) -> dict[str, int]:
    """Drop one-word terms so common in the rules that marking them would bury the rare ones."""
    single = {name for name in names if " " not in name}
    texts = list(Rule.objects.filter(version=version).values_list("text", flat=True))
    if not texts or not single:
        return names
    counts: Counter[str] = Counter()
    for text in texts:
        counts.update(single.intersection(_words_key(text)))
    everyday = {name for name, count in counts.items() if count > EVERYDAY_SHARE * len(texts)}
    return {name: pk for name, pk in names.items() if name not in everyday}


def glossary_for(version: Version | None) -> GlossaryIndex | None:
    """The glossary of a version (the CR's, for other documents pass the current CR version)."""
    if version is None:
        return None
    key = (version.pk, version.content_hash)
    with _lock:
        found = _cache.get(key)
        if found is not None:
            _cache.move_to_end(key)
            return found
    names: dict[str, int] = {}
    terms: dict[int, tuple[str, str]] = {}
    rows = list(
        GlossaryTerm.objects.filter(version=version).values_list(
            "pk", "term", "definition", "aliases"
        )
    )
    # "If: See Intervening 'If' Clause." and "Deal: See Damage." are pointers, not meanings: marking
    # every "if" and "deal" in running text would explain nothing. Acronyms such as "APNAP
    # Order" stay.
    pointers = {
        term.casefold()
        for _, term, definition, _ in rows
        if _POINTER.fullmatch(definition) and not term.split()[0].isupper()
    }
    for pk, term, definition, aliases in rows:
        terms[pk] = (term, definition)
        for name in [term, *aliases]:
            if name.casefold() in pointers:
                continue
            words = _words_key(name)
            # Names with punctuation the word runs cannot see ("Active Player, Nonactive Player
            # Order") are only reachable through their aliases.
            if words and len(words) <= _MAX_TERM_WORDS and _PLAIN_NAME.fullmatch(name):
                names.setdefault(" ".join(words), pk)
    names = _without_everyday_words(version, names)
    index = GlossaryIndex(
        names=names, terms=terms, first_words=frozenset(n.split(" ")[0] for n in names)
    )
    with _lock:
        _cache[key] = index
        while len(_cache) > _CACHE_SIZE:
            _cache.popitem(last=False)
    return index


@dataclass
class TextRenderer:
    """Renders the texts of one page. `used_terms` collects the glossary terms shown, for the
    page's popovers."""

    rule_url: Callable[[str], str]
    known_numbers: Container[str]
    glossary: GlossaryIndex | None = None
    glossary_url: Callable[[str], str] | None = None
    used_terms: dict[int, tuple[str, str]] = field(default_factory=dict)
    _urls: dict[tuple[str, str], str] = field(default_factory=dict, repr=False)

    def _url(self, kind: str, key: str) -> str:
        found = self._urls.get((kind, key))
        if found is None:
            make = self.rule_url if kind == "rule" else (self.glossary_url or (lambda _: "#"))
            found = self._urls[(kind, key)] = make(key)
        return found

    def render(
        self,
        text: str,
        *,
        references: Collection[str] = (),
        seen_terms: set[int] | None = None,
        skip_number: str = "",
    ) -> SafeString:
        """HTML of one paragraph. `seen_terms` is shared by the paragraphs of one rule: a term is
        explained once per rule."""
        spans = self._number_spans(text, references, skip_number)
        if self.glossary is not None and seen_terms is not None:
            spans += self._term_spans(text, spans, seen_terms)
        spans.sort()
        out: list[str] = []
        at = 0
        for start, end, html in spans:
            out.append(escape(text[at:start]))
            out.append(html)
            at = end
        out.append(escape(text[at:]))
        return mark_safe("".join(out))

    def _number_spans(
        self, text: str, references: Collection[str], skip_number: str
    ) -> list[tuple[int, int, str]]:
        spans: list[tuple[int, int, str]] = []
        found = [
            (m, g) for m in _CHAPTER.finditer(text) for g in (1, 2, 3) if m.group(g) in references
        ]
        found += [(m, 1) for m in _NUMBER.finditer(text)]
        for match, group in found:
            number = match.group(group)
            if number == skip_number:
                continue
            # A bare three-digit or MTR-shaped number links only when the parser read it as a
            # citation; a full CR number ("601.2b") links whenever that rule exists.
            cited = number in self.known_numbers and (
                number in references or re.fullmatch(r"\d{3}\.\d+[a-z]?", number)
            )
            if cited:
                spans.append(
                    (
                        match.start(group),
                        match.end(group),
                        format_html(
                            '<a class="ref" href="{}">{}</a>', self._url("rule", number), number
                        ),
                    )
                )
        return spans

    def _term_spans(
        self, text: str, taken: list[tuple[int, int, str]], seen: set[int]
    ) -> list[tuple[int, int, str]]:
        assert self.glossary is not None
        words = list(_WORD.finditer(text))
        keys = [w.group(0).casefold().replace("\u2019", "'") for w in words]
        # run_end[i]: the last word reachable from word i across plain single spaces only.
        run_end = list(range(len(words)))
        for j in range(len(words) - 2, -1, -1):
            if text[words[j].end() : words[j + 1].start()] == " ":
                run_end[j] = run_end[j + 1]
        blocked = [(s, e) for s, e, _ in taken]
        spans: list[tuple[int, int, str]] = []
        i = 0
        while i < len(words):
            hit = None
            if self.glossary.may_start(keys[i]):
                for size in range(min(_MAX_TERM_WORDS, run_end[i] - i + 1), 0, -1):
                    term_id = self.glossary.lookup(
                        keys[i : i + size], capitalised=words[i].group(0)[0].isupper()
                    )
                    if term_id is not None:
                        hit = (size, term_id)
                        break
            if hit is None:
                i += 1
                continue
            size, term_id = hit
            start, end = words[i].start(), words[i + size - 1].end()
            if term_id not in seen and not any(s < end and start < e for s, e in blocked):
                seen.add(term_id)
                term, definition = self.glossary.terms[term_id]
                self.used_terms[term_id] = (term, definition)
                href = self._url("term", term)
                spans.append(
                    (
                        start,
                        end,
                        format_html(
                            '<a class="term" href="{}" data-term="{}">{}</a>',
                            href,
                            term_id,
                            text[start:end],
                        ),
                    )
                )
            i += size
        return spans
