"""Building the search index: BM25F fields over the rules (title and aliases > enclosing headings >
text > examples), the asked-as questions as documents of their own, typo neighbourhoods, the
glossary's routes to cited rules, and rule names."""

from __future__ import annotations

import math
import re
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from functools import lru_cache

from rulesref.parsing.ipg import PART_LABELS
from rulesref.parsing.records import GlossaryEntry, ParsedDocument, RuleKind
from search import bm25
from search.bm25 import K1, B
from search.records import SearchEntry, SearchIndex
from search.text import STOPWORDS, phrase_key, stem, terms, words
from search.vocabulary import (
    card_descriptions,
    compile_vocabulary,
    load_competitive,
    load_intent,
    load_remedy,
    load_spoken,
    load_vocabulary,
)

# Field weights: a word in a rule's own title or alias counts three times a word of its text.
_W_TITLE = 3.0
_W_HEADING = 1.5
_W_TEXT = 1.0
_W_EXAMPLE = 0.3
# A name shared by more entries than this names none of them ("General", "Definition").
_NAME_MAX_ENTRIES = 3
# A one-word name whose word is in this share of the entries or more ("Players", MTR 1.10: "player"
# is in 40% of all the rules, 82% of the MTR's, and in nearly every story a judge tells) would lift
# its rule for any question: it names none. A rare one ("Cheating", "Tardiness", "Sideboard") still
# names its rule, in a document's own small index too; names of two words or more are phrases.
# On the real questions read (none in the index), lexical MRR@10 rose 0.03 to 0.07 a set.
_NAME_MAX_DF = 0.2
# Words of obsolete glossary definitions that say the term is obsolete, not what it means.
_GLOSSARY_BOILERPLATE = frozenset(
    (  # noqa: SIM905 - a word list reads better as prose
        "obsolete term terms card cards printed errata oracle reference older received former "
        "version versions previously rule rules text name called used see contain contained "
        "containing contains phrase phrases like refer referred refers referring"
    ).split()
)


# The parts of an IPG infraction that are searchable entries of their own, with their headings
# (the parser's: a part the parser learns is searchable with it).
PARTS = PART_LABELS


def part_entries(entry: SearchEntry, fields: Mapping[str, object]) -> list[SearchEntry]:
    """An infraction's parts (definition, examples, philosophy, additional remedy, upgrade,
    downgrade) as entries of their own that lead to the infraction: a question about its philosophy
    meets that part's words, not a long section where they are a tenth of the text."""
    out = []
    for key, label in PARTS.items():
        value = fields.get(key)
        text = " ".join(map(str, value)) if isinstance(value, (list, tuple)) else str(value or "")
        if text.strip():
            out.append(
                SearchEntry(
                    doc=entry.doc,
                    number=entry.number,
                    text=f"{label}. {text}",
                    section_title=entry.title or entry.section_title,
                    part=key,
                )
            )
    return out


def has_own_text(kind: RuleKind, text: str) -> bool:
    """Whether a rule is searched: every rule, and chapters with text of their own (the IPG's "1.
    General Philosophy" says when the Head Judge may deviate; the CR's chapters are only names)."""
    return kind is not RuleKind.CHAPTER or (bool(text.strip()) and not is_heading_text(text))


def entries_from_document(doc: ParsedDocument) -> list[SearchEntry]:
    """Search entries for every rule of a parsed document (chapters with text of their own), with
    section titles, and the parts of each infraction that has them."""
    titles = {r.number: r for r in doc.rules}

    def section_of(number: str | None) -> str:
        for _ in range(6):
            rule = titles.get(number) if number else None
            if rule is None:
                return ""
            if rule.kind in (RuleKind.SECTION, RuleKind.APPENDIX):
                return rule.title
            number = rule.parent
        return ""

    out: list[SearchEntry] = []
    for r in doc.rules:
        if not has_own_text(r.kind, r.text):
            continue
        entry = SearchEntry(
            doc=doc.doc.value,
            number=r.number,
            title=r.title,
            text=r.text,
            examples=r.examples,
            section_title=r.title
            if r.kind in (RuleKind.SECTION, RuleKind.CHAPTER)
            else section_of(r.parent),
            aliases=r.aliases,
        )
        out.append(entry)
        out.extend(part_entries(entry, dict(r.fields or ())))
    return out


def parent_number(number: str) -> str | None:
    """ "702.19b" -> "702.19" -> "702"; MTR "4.2" -> "4"; None at the top."""
    if re.fullmatch(r"\d+\.\d+[a-z]", number):
        return number[:-1]
    if "." in number:
        return number.rsplit(".", 1)[0]
    return None


def is_heading_text(text: str) -> bool:
    """A rule whose whole text is a name, like "702.19. Trample" or "701.20. Shuffle"."""
    return (
        bool(text) and len(text.split()) <= 5 and not text.rstrip().endswith((".", ":", "”", '"'))
    )


def build_index(
    entries: Iterable[SearchEntry],
    glossary: Iterable[GlossaryEntry] = (),
    *,
    vocabulary: Mapping[str, str] | None = None,
    spoken: Mapping[str, str] | None = None,
    cards: Mapping[str, str] | None = None,
    intent: Iterable[str] | None = None,
    remedy: tuple[Iterable[str], Iterable[str]] | None = None,
    competitive: Iterable[str] | None = None,
) -> SearchIndex:
    """Index `entries` (any mix of documents) for `search`.

    `glossary` entries (CR) route their terms and aliases to the rules they cite. `vocabulary` maps
    judge phrases to rule words, and `spoken` spoken words to the rules' words for the embedded
    question; default for both: the shipped vocabulary.toml. `cards` maps card names to what
    they do in rule words; default: `vocabulary.card_descriptions()`. `intent` lists the words that
    make a question one of tournament policy ("penalty", "deck check"); `remedy` is (those of them
    that ask for a penalty or a fix, the words that place a question at Regular REL) and
    `competitive` the words that place it at Competitive or Professional REL; default for all three:
    [intent] of the shipped vocabulary.toml.
    """
    entries = list(entries)
    remedy_words, regular_words = load_remedy() if remedy is None else remedy
    # A rule's parts (SearchEntry.part) lead to the rule: looked up by number is the whole rule.
    by_number: dict[tuple[str, str], int] = {}
    for i, e in enumerate(entries):
        if not e.part:
            by_number.setdefault((e.doc, e.number), i)
    children: dict[tuple[str, str], list[int]] = defaultdict(list)
    for i, e in enumerate(entries):
        parent = parent_number(e.number)
        if parent is not None and not e.part:
            children[(e.doc, parent)].append(i)

    counts: dict[str, dict[int, float]] = defaultdict(dict)
    lengths: list[float] = []
    heading_only: list[bool] = []
    text_stems: list[tuple[str, ...]] = []
    surface_count: dict[str, int] = defaultdict(int)
    for i, e in enumerate(entries):
        # The names of enclosing rules that are headings ("Trample" above 702.19b) act as headings.
        headings = [e.section_title]
        parent = parent_number(e.number)
        while parent is not None:
            j = by_number.get((e.doc, parent))
            if j is not None and j != i and is_heading_text(entries[j].text):
                headings.append(entries[j].text)
            parent = parent_number(parent)
        own_heading = is_heading_text(e.text) and not e.examples
        fields = (
            (" ".join((e.title, *e.aliases, e.text if own_heading else "")), _W_TITLE),
            (" ".join(headings), _W_HEADING),
            ("" if own_heading else e.text, _W_TEXT),
            (" ".join(e.examples), _W_EXAMPLE),
        )
        length = 0.0
        bag = counts
        for text, weight in fields:
            for form in words(text):
                surface_count[form] += 1
                if form in STOPWORDS:
                    continue
                s = stem(form)
                bag[s][i] = bag[s].get(i, 0.0) + weight
                length += weight
        lengths.append(length)
        heading_only.append(own_heading or (not e.text and not e.examples))
        text_stems.append(tuple(stem(w) for w in words(f"{e.title} {e.text}")))

    n = max(len(entries), 1)
    average = (sum(lengths) / n) or 1.0
    norms = [K1 * (1 - B + B * length / average) for length in lengths]
    postings = {s: sorted(docs.items()) for s, docs in counts.items()}
    idf = {s: math.log(1 + (n - len(docs) + 0.5) / (len(docs) + 0.5)) for s, docs in counts.items()}
    asked = _index_questions(entries, surface_count)

    surface = {
        form: stem(form) for form in surface_count if form not in STOPWORDS and form.isalpha()
    }
    deletes: dict[str, list[str]] = defaultdict(list)
    for form in surface:
        if len(form) >= 4:
            for k in range(len(form)):
                deletes[form[:k] + form[k + 1 :]].append(form)

    gloss: dict[tuple[str, ...], tuple[str, ...]] = {}
    obsolete: dict[tuple[str, ...], tuple[str, ...]] = {}
    boilerplate = {stem(w) for w in _GLOSSARY_BOILERPLATE}
    for g in glossary:
        for name in {g.term, *g.aliases}:
            plain = re.sub(r"\(obsolete\)", "", name, flags=re.IGNORECASE)
            key = tuple(terms(plain))
            if not key:
                continue
            if g.references:
                gloss[key] = tuple(dict.fromkeys(gloss.get(key, ()) + tuple(g.references)))
            if "(obsolete)" in g.term.lower():
                # An old name ("converted mana cost", "in play") is read as the words its definition
                # gives for it today ("mana value", "battlefield"), matched with all its words.
                meaning = [t for t in terms(g.definition) if t not in boilerplate and t not in key]
                obsolete[phrase_key(plain)] = tuple(dict.fromkeys(meaning))

    # Rule names: a question that names a rule ("hidden card error", "HCE", "taking shortcuts")
    # lifts it, however long its text (a long IPG section is otherwise flattened by BM25's
    # length norm).
    names: dict[tuple[str, ...], list[int]] = defaultdict(list)
    for i, e in enumerate(entries):
        if e.part:
            continue
        for name in {e.title, *e.aliases, *(e.title.split(" - ")[1:])}:
            key = tuple(terms(name))
            if key and (
                len(key) > 1
                or len(index_words := words(name)) == 1
                and index_words[0] not in STOPWORDS
            ):
                names[key].append(i)

    card_text = (
        card_descriptions()
        if cards is None
        else {" ".join(k.lower().split()): v for k, v in cards.items()}
    )
    spoken_words = (
        load_spoken()
        if spoken is None
        else {" ".join(k.lower().split()): v for k, v in spoken.items()}
    )
    # With the shipped vocabulary, the spoken words count as judge phrases too where [phrases]
    # has none.
    phrases = {**spoken_words, **load_vocabulary()} if vocabulary is None else dict(vocabulary)
    vocab = compile_vocabulary(phrases)
    return SearchIndex(
        entries=entries,
        postings=postings,
        idf=idf,
        norms=norms,
        heading_only=heading_only,
        text_stems=text_stems,
        by_number=by_number,
        children=dict(children),
        surface=surface,
        deletes=dict(deletes),
        surface_count=dict(surface_count),
        glossary=gloss,
        obsolete=obsolete,
        vocabulary=vocab,
        vocabulary_words=frozenset(s for key in vocab for s in key),
        names={
            k: tuple(v)
            for k, v in names.items()
            if len(v) <= _NAME_MAX_ENTRIES
            and (len(k) > 1 or len(counts.get(k[0], ())) <= max(1.0, _NAME_MAX_DF * n))
        },
        spoken=spoken_words,
        cards=dict(filter(None, (_card_words(k, v) for k, v in card_text.items()))),
        card_text=card_text,
        doc_entries={
            d: [i for i, e in enumerate(entries) if e.doc == d]
            for d in dict.fromkeys(e.doc for e in entries)
        },
        intent={
            key: w for w in (load_intent() if intent is None else intent) if (key := phrase_key(w))
        },
        remedy=frozenset(remedy_words),
        regular={key: w for w in regular_words if (key := phrase_key(w))},
        competitive={
            key: w
            for w in (load_competitive() if competitive is None else competitive)
            if (key := phrase_key(w))
        },
        packed=bm25.pack(postings, norms),
        question_packed=bm25.pack(
            asked["question_postings"], asked["question_norms"], asked["question_owner"]
        ),
        **asked,
    )


@lru_cache(maxsize=65536)
def _card_words(name: str, text: str) -> tuple[tuple[str, ...], tuple[str, ...]] | None:
    """A card's name and what it does, in the index's words; None for a name of no word. Remembered:
    every index built reads the same cards again (a card table's 30,000)."""
    key = phrase_key(name)
    return (key, tuple(terms(text))) if key else None


def _index_questions(entries: Sequence[SearchEntry], surface_count: dict[str, int]) -> dict:
    """BM25 postings over the asked-as questions, each question its own document, so that a judge's
    question is matched against whole questions (the best one per rule), not against a rule's
    text made longer by them. Their word forms join `surface_count` (typo correction)."""
    counts: dict[str, dict[int, float]] = defaultdict(dict)
    owner: list[int] = []
    lengths: list[int] = []
    for i, e in enumerate(entries):
        for question in e.questions:
            k = len(owner)
            owner.append(i)
            length = 0
            for form in words(question):
                surface_count[form] += 1
                if form in STOPWORDS:
                    continue
                s = stem(form)
                counts[s][k] = counts[s].get(k, 0.0) + 1.0
                length += 1
            lengths.append(length)
    n = max(len(owner), 1)
    average = (sum(lengths) / n) or 1.0
    return {
        "question_postings": {s: sorted(found.items()) for s, found in counts.items()},
        "question_idf": {
            s: math.log(1 + (n - len(found) + 0.5) / (len(found) + 0.5))
            for s, found in counts.items()
        },
        "question_norms": [K1 * (1 - B + B * length / average) for length in lengths],
        "question_owner": owner,
    }
