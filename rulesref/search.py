"""Rules search: tokenise rules documents, build an in-memory index, rank rules for a judge's question.

Pure standard library, no database: the service builds one index per set of published versions
from plain records and ranks in Python, so SQLite and PostgreSQL give the same answers.

Ranking, in order of application:
1. A query that is a rule number ("729.4", "CR 7294") returns that rule first, then its subrules.
2. Judge words are rewritten into rule words with the judge vocabulary (search_vocabulary.toml):
   "deck out" -> "draw card library no cards lose"; the judge's words a phrase consumed are dropped.
   Phrases match with every word, stopwords included: "on the draw" is not every "draw".
3. Unknown words are corrected to the nearest index word (one edit: a typo such as "shorcut"), unless
   they are English words the sentence model knows ("hurt" is not a typo of "hunt").
4. BM25F over fields weighted title/aliases > enclosing headings > rule text > examples, with a small
   suffix stemmer; rules whose whole text is a heading ("702.19. Trample") rank below their subrules.
5. Glossary terms found in the query lift the rules their definitions cite, and those rules' subrules.
6. A question naming a rule's title or alias ("Hidden Card Error", "HCE") lifts that rule; headings
   without text of their own are left to their subrules.
7. Quoted phrases lift the rules whose text contains the exact word sequence.
8. With `semantic` (sentence-embedding similarities, rulesref.search_semantic), the lexical score and
   the similarity are blended (0.4 / 0.6, measured on the tuning questions against reciprocal rank
   fusion, other weights, a learned linear ranker and embedding the question with its vocabulary
   rewrites). The question is embedded with its spoken words in the rules' words ([spoken] in the
   vocabulary file: "my walker" -> "my planeswalker"), which the model reads as a sentence.
"""

from __future__ import annotations

import heapq
import math
import re
import tomllib
import unicodedata
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import TypeVar

from rulesref.parsing.common import normalize_rule_number
from rulesref.parsing.records import GlossaryEntry, ParsedDocument, RuleKind

_V = TypeVar("_V")

VOCABULARY_PATH = Path(__file__).with_name("search_vocabulary.toml")
CARDS_PATH = Path(__file__).with_name("search_cards.toml")

# BM25 saturation and length normalisation (the usual defaults measured best on the dev questions).
_K1 = 1.2
_B = 0.75
# Field weights: a word in a rule's own title or alias counts three times a word of its text.
_W_TITLE = 3.0
_W_HEADING = 1.5
_W_TEXT = 1.0
_W_EXAMPLE = 0.3
# Share of the best asked-as question's BM25 score added to a rule's own score.
_W_ASKED = 0.5
# Weight of query words that come from a typo correction or a vocabulary expansion.
_W_TYPO = 0.8
_W_EXPANSION = 1.0
_W_OBSOLETE = 0.5
# Weight of the rule words a card's name stands for (search_cards.toml).
_W_CARD = 0.6
# A rule whose text is only a heading ("Trample") keeps this share of its score.
_HEADING_ONLY = 0.6
# Glossary: share of the best lexical score added to a cited rule, and to its subrules.
_GLOSSARY_CITED = 0.45
_GLOSSARY_CHILD = 0.25
# A glossary term lifts rules only when its words are rarer than this share of all entries.
_GLOSSARY_MAX_DF = 0.03
# Quoted phrase found verbatim: score multiplied by this.
_PHRASE_BOOST = 3.0
# A rule named by the question (its title or an alias): share of the best lexical score added.
_NAMED = 0.5
# A name shared by more entries than this names none of them ("General", "Definition").
_NAME_MAX_ENTRIES = 3
_SNIPPET_CHARS = 180
# Hybrid ranking: share of the semantic similarity in the blended score, and candidates per ranking.
_SEMANTIC = 0.6
_CANDIDATES = 50

_STOPWORDS = frozenset(
    """a about after all also am an and any are as at be been before being both but by can could
    did do does doing done during each else for from get gets getting got had has have having he her
    him his how i if in into is it its itself just let lets me mean means might more most much must my
    myself no nor not of off on once only or other our out over own really same she should so some
    still such than that the their them then there these they this those through to too under until
    up us very was we were what whats when where which while who whom why will with would you your
    happen happens happened happening exactly allowed able okay ok please rule rules""".split()  # noqa: SIM905 - a word list reads better as prose
)
# Words that look like stopwords but change the answer ("can't", "no", "not") are kept as tokens.
_KEEP = frozenset({"no", "not", "cant", "only", "each", "all", "more", "first", "out", "up", "off", "both", "other", "same"})
_STOPWORDS = _STOPWORDS - _KEEP

_WORD = re.compile(r"[a-z0-9]+(?:/[a-z0-9]+)?")
# "+1/+1" and "-1/-1" become single words ("p1/p1", "m1/m1"), so counters are searchable.
_PT = re.compile(r"([+-]?)(\d+|x)/([+-]?)(\d+|x)")
# Words of obsolete glossary definitions that say the term is obsolete, not what it means.
_GLOSSARY_BOILERPLATE = frozenset((  # noqa: SIM905 - a word list reads better as prose
    "obsolete term terms card cards printed errata oracle reference older received former version versions "
    "previously rule rules text name called used see contain contained containing contains phrase phrases "
    "like refer referred refers referring").split()
)
_QUOTED = re.compile(r"[\"“”]([^\"“”]+)[\"“”]")


@dataclass(frozen=True)
class SearchEntry:
    doc: str                              # "cr", "mtr", "ipg", "jar"
    number: str                           # canonical rule number, "729.4"
    title: str = ""                       # the rule's own heading ("Taking Shortcuts"), "" for plain rules
    text: str = ""
    examples: tuple[str, ...] = ()
    section_title: str = ""               # the enclosing section's title ("Taking Shortcuts")
    aliases: tuple[str, ...] = ()
    questions: tuple[str, ...] = ()       # how judges ask about it (rulesref.asked), matched as questions


@dataclass(frozen=True)
class SearchHit:
    doc: str
    number: str
    score: float
    snippet: str
    title: str = ""                       # the rule's heading, else its section's title


@dataclass
class SearchIndex:
    """Everything a query needs; plain containers only, so it pickles."""

    entries: list[SearchEntry]
    postings: dict[str, list[tuple[int, float]]]     # stem -> [(entry index, weighted term frequency)]
    idf: dict[str, float]
    norms: list[float]                               # BM25 length factor per entry
    heading_only: list[bool]
    text_stems: list[tuple[str, ...]]                # title + text stems in order, for quoted phrases
    by_number: dict[tuple[str, str], int]            # (doc, number) -> entry index
    children: dict[tuple[str, str], list[int]]       # (doc, parent number) -> entry indexes
    surface: dict[str, str]                          # every indexed word form -> its stem
    deletes: dict[str, list[str]]                    # one-deletion variants -> word forms (typos)
    surface_count: dict[str, int]
    glossary: dict[tuple[str, ...], tuple[str, ...]]  # stemmed term/alias -> cited rule numbers (CR)
    obsolete: dict[tuple[str, ...], tuple[str, ...]]  # stemmed obsolete term -> stemmed words of its definition
    vocabulary: dict[tuple[str, ...], tuple[str, ...]]  # stemmed judge phrase -> stemmed rule words
    vocabulary_words: frozenset[str] = frozenset()   # stems that appear in judge phrases
    names: dict[tuple[str, ...], tuple[int, ...]] | None = None  # stemmed rule title or alias -> entry indexes
    # Asked-as questions, each its own small document: stem -> [(question index, term frequency)].
    question_postings: dict[str, list[tuple[int, float]]] = field(default_factory=dict)
    question_idf: dict[str, float] = field(default_factory=dict)
    question_norms: list[float] = field(default_factory=list)
    question_owner: list[int] = field(default_factory=list)   # question index -> entry index
    spoken: dict[str, str] = field(default_factory=dict)      # spoken word -> rule words, for the embedded question
    cards: dict[tuple[str, ...], tuple[str, ...]] = field(default_factory=dict)  # card name (all words) -> rule words
    card_text: dict[str, str] = field(default_factory=dict)   # card name -> what it does, as written, for the embedded question
    doc_entries: dict[str, list[int]] = field(default_factory=dict)  # document -> its entry indexes, in order


# --------------------------------------------------------------------------------------- words


_STEM_CACHE: dict[str, str] = {}


def stem(word: str) -> str:
    """A small suffix stemmer: plurals, -ing, -ed, -ly, final e/y, so "shuffling" meets "shuffled"."""
    cached = _STEM_CACHE.get(word)
    if cached is not None:
        return cached
    w = word
    if len(w) > 3 and w.isalpha():
        if w.endswith("ies") and len(w) > 4:
            w = w[:-3] + "i"
        elif w.endswith(("sses", "ches", "shes")) or (w.endswith("es") and w[-3] in "sxz" and len(w) > 4):
            w = w[:-2]
        elif w.endswith("s") and not w.endswith(("ss", "us", "is")):
            w = w[:-1]
        for suffix in ("ingly", "edly", "ing", "ed"):
            if w.endswith(suffix) and len(w) - len(suffix) >= 3 and re.search(r"[aeiouy]", w[: -len(suffix)]):
                w = w[: -len(suffix)]
                if len(w) > 3 and w[-1] == w[-2] and w[-1] not in "lsz":
                    w = w[:-1]                        # tapped -> tapp -> tap
                break
        if w.endswith("ly") and len(w) > 5:
            w = w[:-2]
        if w.endswith("e") and len(w) > 3:
            w = w[:-1]
        elif w.endswith("y") and len(w) > 3:
            w = w[:-1] + "i"
    _STEM_CACHE[word] = w
    return w


def words(text: str) -> list[str]:
    """Lower-case word forms of `text`: curly quotes folded, apostrophes dropped ("can't" -> "cant")."""
    text = unicodedata.normalize("NFKC", text).lower()
    text = text.replace("’", "").replace("'", "").replace("‘", "")
    text = text.replace("–", "-").replace("—", " ").replace("−", "-")
    text = _PT.sub(lambda m: f"{'p' if m[1] == '+' else 'm' if m[1] == '-' else ''}{m[2]}/"
                               f"{'p' if m[3] == '+' else 'm' if m[3] == '-' else ''}{m[4]}", text)
    return _WORD.findall(text)


def terms(text: str) -> list[str]:
    """Stems of the words of `text` without stopwords: what is indexed and what a query looks up."""
    return [stem(w) for w in words(text) if w not in _STOPWORDS]


# --------------------------------------------------------------------------------------- building


def load_vocabulary(path: Path = VOCABULARY_PATH) -> dict[str, str]:
    """The judge vocabulary: judge phrase -> rule words, as written in the TOML file."""
    with path.open("rb") as handle:
        data = tomllib.load(handle)
    return {str(k): str(v) for k, v in data.get("phrases", {}).items()}


def load_spoken(path: Path = VOCABULARY_PATH) -> dict[str, str]:
    """Spoken words -> rule words for the question the sentence model embeds ([spoken] table)."""
    with path.open("rb") as handle:
        data = tomllib.load(handle)
    return {" ".join(str(k).lower().split()): str(v) for k, v in data.get("spoken", {}).items()}


def load_cards(path: Path = CARDS_PATH) -> dict[str, str]:
    """Card names judges type -> what the card does in the rules' words ([cards]); {} without the file."""
    if not path.is_file():
        return {}
    with path.open("rb") as handle:
        data = tomllib.load(handle)
    return {" ".join(str(k).lower().replace("’", "'").split()): str(v) for k, v in data.get("cards", {}).items()}


_TOKEN = re.compile(r"[0-9A-Za-z]+")
_APOSTROPHES = "'’"


@lru_cache(maxsize=8)
def _phrase_table(keys: tuple[str, ...]) -> tuple[dict[tuple[str, ...], str], int]:
    """Each key's words (letters and digits, lower case) -> the key, and the longest key in words."""
    table: dict[tuple[str, ...], str] = {}
    for k in keys:   # "grafdigger's cage" is also typed "grafdiggers cage"
        for form in (k.replace("'", "").replace("’", ""), k):
            table[tuple(w.lower() for w in _TOKEN.findall(form))] = k
    table.pop((), None)
    return table, max(map(len, table), default=0)


def _spoken_matches(keys: Iterable[str], query: str) -> list[tuple[int, int, str]]:
    """(begin, end, key) for each key found in `query`: whole words, longest first, left to right,
    whatever the punctuation and spacing between a key's words ("DQ'd", "dq’d"); a word glued to an
    apostrophe ("you'll", "walker's") is not a key's word."""
    table, longest = _phrase_table(tuple(sorted(keys)))
    if not table:
        return []
    tokens = list(_TOKEN.finditer(query))
    found: list[tuple[int, int, str]] = []
    k = 0
    while k < len(tokens):
        for size in range(min(longest, len(tokens) - k), 0, -1):
            key = table.get(tuple(t.group().lower() for t in tokens[k:k + size]))
            begin, end = tokens[k].start(), tokens[k + size - 1].end()
            if key is not None and not _glued(query, begin, end):
                found.append((begin, end, key))
                k += size
                break
        else:
            k += 1
    return found


def spoken_rewrite(spoken: Mapping[str, str], query: str, cards: Mapping[str, str] | None = None) -> str:
    """`query` with the judge's spoken words replaced by the rules' words, in place, as a sentence:
    "my walker went to zero" -> "my planeswalker went to zero" (what the sentence model embeds).
    A card named in it keeps its name, followed by what it does: "Blood Moon (nonbasic lands are
    Mountains)"."""
    cards = cards or {}
    out: list[str] = []
    done = 0
    for begin, end, key in _spoken_matches({*spoken, *cards}, query):
        out.append(query[done:begin])
        out.append(spoken[key] if key in spoken else f"{query[begin:end]} ({cards[key]})")
        done = end
    out.append(query[done:])
    return "".join(out)


@lru_cache(maxsize=1)
def shipped_words() -> tuple[dict[str, str], dict[str, str]]:
    """The shipped spoken words and cards, read once per process: for texts read as a judge's
    question outside an index (asked-as questions before embedding, snippets to highlight)."""
    return load_spoken(), load_cards()


def understood(index: SearchIndex, query: str) -> list[dict[str, str]]:
    """How the search reads the judge's own words in `query`: each spoken word or card name found,
    as typed, with the rules' words it stands for ({"words", "means", "kind": "spoken"|"card"})."""
    found = _spoken_matches({*index.spoken, *index.card_text}, query)
    return [
        {"words": query[begin:end], "means": index.spoken[key], "kind": "spoken"} if key in index.spoken
        else {"words": query[begin:end], "means": index.card_text[key], "kind": "card"}
        for begin, end, key in found
    ]


def _glued(text: str, begin: int, end: int) -> bool:
    """Whether text[begin:end] is part of a longer word through an apostrophe ("you'll", "walker's")."""
    before = begin >= 2 and text[begin - 1] in _APOSTROPHES and text[begin - 2].isalnum()
    after = end + 1 < len(text) and text[end] in _APOSTROPHES and text[end + 1].isalnum()
    return before or after


def phrase_key(text: str) -> tuple[str, ...]:
    """Stems of every word of `text`, stopwords included: how judge phrases, card names and old
    glossary names are matched, so that "in play" or "on the draw" is not read as every "play" or "draw"."""
    return tuple(stem(w) for w in words(text))


def compile_vocabulary(phrases: Mapping[str, str]) -> dict[tuple[str, ...], tuple[str, ...]]:
    compiled: dict[tuple[str, ...], tuple[str, ...]] = {}
    for phrase, expansion in phrases.items():
        key = phrase_key(phrase)
        if key:
            compiled[key] = tuple(terms(expansion))
    return compiled


def entries_from_document(doc: ParsedDocument) -> list[SearchEntry]:
    """Search entries for every rule of a parsed document except chapters, with section titles."""
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

    return [
        SearchEntry(
            doc=doc.doc.value, number=r.number, title=r.title, text=r.text, examples=r.examples,
            section_title=r.title if r.kind is RuleKind.SECTION else section_of(r.parent), aliases=r.aliases,
        )
        for r in doc.rules
        if r.kind is not RuleKind.CHAPTER
    ]


def parent_number(number: str) -> str | None:
    """"702.19b" -> "702.19" -> "702"; MTR "4.2" -> "4"; None at the top."""
    if re.fullmatch(r"\d+\.\d+[a-z]", number):
        return number[:-1]
    if "." in number:
        return number.rsplit(".", 1)[0]
    return None


def is_heading_text(text: str) -> bool:
    """A rule whose whole text is a name, like "702.19. Trample" or "701.20. Shuffle"."""
    return bool(text) and len(text.split()) <= 5 and not text.rstrip().endswith((".", ":", "”", '"'))


def build_index(
    entries: Iterable[SearchEntry],
    glossary: Iterable[GlossaryEntry] = (),
    *,
    vocabulary: Mapping[str, str] | None = None,
    spoken: Mapping[str, str] | None = None,
    cards: Mapping[str, str] | None = None,
) -> SearchIndex:
    """Index `entries` (any mix of documents) for `search`.

    `glossary` entries (CR) route their terms and aliases to the rules they cite. `vocabulary` maps
    judge phrases to rule words, and `spoken` spoken words to the rules' words for the embedded
    question; default for both: the shipped search_vocabulary.toml. `cards` maps card names to what
    they do in rule words; default: the shipped search_cards.toml.
    """
    entries = list(entries)
    by_number = {(e.doc, e.number): i for i, e in enumerate(entries)}
    children: dict[tuple[str, str], list[int]] = defaultdict(list)
    for i, e in enumerate(entries):
        parent = parent_number(e.number)
        if parent is not None:
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
                if form in _STOPWORDS:
                    continue
                s = stem(form)
                bag[s][i] = bag[s].get(i, 0.0) + weight
                length += weight
        lengths.append(length)
        heading_only.append(own_heading or (not e.text and not e.examples))
        text_stems.append(tuple(stem(w) for w in words(f"{e.title} {e.text}")))

    n = max(len(entries), 1)
    average = (sum(lengths) / n) or 1.0
    norms = [_K1 * (1 - _B + _B * length / average) for length in lengths]
    postings = {s: sorted(docs.items()) for s, docs in counts.items()}
    idf = {s: math.log(1 + (n - len(docs) + 0.5) / (len(docs) + 0.5)) for s, docs in counts.items()}
    asked = _index_questions(entries, surface_count)

    surface = {form: stem(form) for form in surface_count if form not in _STOPWORDS and form.isalpha()}
    deletes: dict[str, list[str]] = defaultdict(list)
    for form in surface:
        if len(form) >= 4:
            for k in range(len(form)):
                deletes[form[:k] + form[k + 1:]].append(form)

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
    # lifts it, however long its text (a long IPG section is otherwise flattened by BM25's length norm).
    names: dict[tuple[str, ...], list[int]] = defaultdict(list)
    for i, e in enumerate(entries):
        for name in {e.title, *e.aliases, *(e.title.split(" - ")[1:])}:
            key = tuple(terms(name))
            if key and (len(key) > 1 or len(index_words := words(name)) == 1 and index_words[0] not in _STOPWORDS):
                names[key].append(i)

    card_text = load_cards() if cards is None else {" ".join(k.lower().split()): v for k, v in cards.items()}
    spoken_words = load_spoken() if spoken is None else {" ".join(k.lower().split()): v for k, v in spoken.items()}
    # With the shipped vocabulary, the spoken words count as judge phrases too where [phrases] has none.
    phrases = {**spoken_words, **load_vocabulary()} if vocabulary is None else dict(vocabulary)
    vocab = compile_vocabulary(phrases)
    return SearchIndex(
        entries=entries, postings=postings, idf=idf, norms=norms, heading_only=heading_only,
        text_stems=text_stems, by_number=by_number, children=dict(children), surface=surface,
        deletes=dict(deletes), surface_count=dict(surface_count), glossary=gloss, obsolete=obsolete,
        vocabulary=vocab, vocabulary_words=frozenset(s for key in vocab for s in key),
        names={k: tuple(v) for k, v in names.items() if len(v) <= _NAME_MAX_ENTRIES},
        spoken=spoken_words,
        cards={phrase_key(k): tuple(terms(v)) for k, v in card_text.items() if phrase_key(k)},
        card_text=card_text,
        doc_entries={d: [i for i, e in enumerate(entries) if e.doc == d] for d in dict.fromkeys(e.doc for e in entries)},
        **asked,
    )


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
                if form in _STOPWORDS:
                    continue
                s = stem(form)
                counts[s][k] = counts[s].get(k, 0.0) + 1.0
                length += 1
            lengths.append(length)
    n = max(len(owner), 1)
    average = (sum(lengths) / n) or 1.0
    return {
        "question_postings": {s: sorted(found.items()) for s, found in counts.items()},
        "question_idf": {s: math.log(1 + (n - len(found) + 0.5) / (len(found) + 0.5)) for s, found in counts.items()},
        "question_norms": [_K1 * (1 - _B + _B * length / average) for length in lengths],
        "question_owner": owner,
    }


# --------------------------------------------------------------------------------------- querying


@dataclass(frozen=True)
class _Query:
    weights: dict[str, float]            # stem -> weight
    phrases: list[tuple[str, ...]]       # quoted phrases, stemmed
    glossary: list[tuple[str, ...]]      # rule numbers cited by glossary terms found
    shown: frozenset[str]                # stems to highlight in snippets
    semantic_text: str = ""              # the question in the rules' words ([spoken]), for embeddings
    named: tuple[int, ...] = ()          # entries whose title or alias the question names
    asked: Mapping[str, float] = field(default_factory=dict)  # the judge's own words (typos fixed), for asked-as questions


@lru_cache(maxsize=1)
def english_words() -> frozenset[str]:
    """Whole English words known to the sentence model's WordPiece vocabulary (about 22,000), read
    once from the installed model package; empty without it. A word of the question that is real
    English ("hurt", "aimed", "thick") is left as it is, not "corrected" into a rule word one edit
    away ("hunt", "timed", "think"): only words that are neither rule words nor English are typos."""
    from rulesref.search_semantic import model_dir  # imported here: search_semantic imports this module

    path = model_dir()
    if path is None or not (path / "vocab.txt").is_file():
        return frozenset()
    lines = (path / "vocab.txt").read_text(encoding="utf-8").splitlines()
    return frozenset(w for w in lines if w.isalpha() and w.islower() and len(w) >= 4)


def _correct(index: SearchIndex, form: str) -> str | None:
    """The most frequent index word one edit away from `form` (deletion, insertion, substitution,
    transposition all meet in the one-deletion neighbourhood); None when there is none."""
    if len(form) < 4 or not form.isalpha():
        return None
    candidates: set[str] = set()
    candidates.update(index.deletes.get(form, ()))
    variants = {form[:k] + form[k + 1:] for k in range(len(form))}
    for variant in variants:
        if variant in index.surface:
            candidates.add(variant)
        candidates.update(index.deletes.get(variant, ()))
    candidates = {c for c in candidates if abs(len(c) - len(form)) <= 1 and _within_one_edit(form, c)}
    if not candidates:
        return None
    return max(sorted(candidates), key=lambda c: index.surface_count.get(c, 0))


def _within_one_edit(a: str, b: str) -> bool:
    if a == b:
        return True
    if len(a) == len(b):
        diff = [k for k in range(len(a)) if a[k] != b[k]]
        return len(diff) == 1 or (len(diff) == 2 and diff[1] == diff[0] + 1 and a[diff[0]] == b[diff[1]] and a[diff[1]] == b[diff[0]])
    if len(a) > len(b):
        a, b = b, a
    return any(b[:k] + b[k + 1:] == a for k in range(len(b)))


def _find_phrases(tokens: Sequence[str], table: Mapping[tuple[str, ...], _V], longest: int = 6) -> list[tuple[int, int, _V]]:
    """Non-overlapping (start, end, value) matches of `table` keys in `tokens`, longest first."""
    found: list[tuple[int, int, _V]] = []
    k = 0
    while k < len(tokens):
        for size in range(min(longest, len(tokens) - k), 0, -1):
            value = table.get(tuple(tokens[k:k + size]))
            if value is not None:
                found.append((k, k + size, value))
                k += size
                break
        else:
            k += 1
    return found


def _parse_query(index: SearchIndex, query: str) -> _Query:
    # Quoted phrases keep every word, stopwords included: "legend rule" is not just "legend".
    phrases = [tuple(stem(w) for w in words(p)) for p in _QUOTED.findall(query)]
    # Typos are fixed first, so that a misspelt judge phrase still meets the vocabulary. Judge
    # phrases match every word, stopwords included (`sequence`); the rest looks up `tokens`.
    sequence: list[str] = []
    is_stop: list[bool] = []
    sequence_weight: list[float] = []
    for form in words(query):
        s = stem(form)
        stop = form in _STOPWORDS
        known = stop or s in index.idf or s in index.vocabulary_words or s in index.question_idf or form in english_words()
        fixed = None if known else _correct(index, form)
        sequence.append(index.surface[fixed] if fixed else s)
        is_stop.append(stop)
        sequence_weight.append(_W_TYPO if fixed else 1.0)
    tokens = [s for s, stop in zip(sequence, is_stop, strict=True) if not stop]
    token_weight = [w for w, stop in zip(sequence_weight, is_stop, strict=True) if not stop]

    weights: dict[str, float] = {}

    def add(stems: Iterable[str], weight: float) -> None:
        for s in stems:
            weights[s] = max(weights.get(s, 0.0), weight)

    consumed: set[int] = set()
    # A card's name stands for what the card does; its own words ("Blood", "Moon") say nothing of the rules.
    for start, end, meaning in _find_phrases(sequence, index.cards):
        consumed.update(range(start, end))
        add(meaning, _W_CARD)
    for start, end, expansion in _find_phrases(sequence, index.vocabulary):
        if consumed.isdisjoint(range(start, end)):
            consumed.update(range(start, end))
            add(expansion, _W_EXPANSION)
    for k, s in enumerate(sequence):
        if k not in consumed and not is_stop[k]:
            add([s], sequence_weight[k])
    for _, _, meaning in _find_phrases(sequence, index.obsolete):
        add(meaning, _W_OBSOLETE)

    # A glossary term made of common words ("card", "player") would lift rules for any question.
    n = max(len(index.entries), 1)
    cited = []
    for start, end, refs in _find_phrases(tokens, index.glossary):
        df = min(len(index.postings.get(s, ())) for s in tokens[start:end])
        if df <= max(1.0, _GLOSSARY_MAX_DF * n):
            cited.append(refs)
    phrases = [p for p in phrases if p]
    shown = frozenset(s for p in phrases for s in p) if phrases else frozenset(weights) | frozenset(tokens)
    semantic_text = spoken_rewrite(index.spoken, query, index.card_text)
    named = tuple(i for _, _, found in _find_phrases(tokens, index.names or {}) for i in found)
    asked: dict[str, float] = {}
    for s, weight in zip(tokens, token_weight, strict=True):
        asked[s] = max(asked.get(s, 0.0), weight)
    return _Query(weights=weights, phrases=phrases, glossary=cited[:3], shown=shown, semantic_text=semantic_text,
                  named=named, asked=asked)


def _number_hits(index: SearchIndex, query: str, doc: str | None) -> list[int]:
    """Entries for a query that is a rule number: the rule, then its subrules in order."""
    docs = [doc] if doc else sorted({e.doc for e in index.entries})
    for d in docs:
        number = normalize_rule_number(query, d)
        if number is None:
            continue
        i = index.by_number.get((d, number))
        if i is not None:
            return [i, *_descendants(index, d, number)]
    return []


def _descendants(index: SearchIndex, doc: str, number: str) -> list[int]:
    out: list[int] = []
    for j in index.children.get((doc, number), ()):
        out.append(j)
        out.extend(_descendants(index, doc, index.entries[j].number))
    return out


def _contains(seq: Sequence[str], phrase: Sequence[str]) -> bool:
    n = len(phrase)
    return any(tuple(seq[k:k + n]) == tuple(phrase) for k in range(len(seq) - n + 1))


def search(
    index: SearchIndex,
    query: str,
    *,
    limit: int = 10,
    doc: str | None = None,
    semantic: Callable[[str], Sequence[float]] | None = None,
) -> list[SearchHit]:
    """The best `limit` rules for `query`, best first; [] for an empty or unmatched query.

    `doc` keeps only rules of that document ("cr", "mtr", ...). Scores are comparable within one
    answer only. A rule number gets that rule first (score 1000), then its subrules. `semantic`,
    when given, maps a query to a similarity per entry (index order), e.g. sentence-embedding
    cosines from rulesref.search_semantic; it is blended with the lexical ranking.
    """
    query = query.strip()
    if not query or limit <= 0:
        return []
    numbered = _number_hits(index, query, doc)
    if numbered:
        hits = numbered[:limit]
        return [_hit(index, i, 1000.0 - rank, frozenset()) for rank, i in enumerate(hits)]
    parsed = _parse_query(index, query)
    scores = _lexical_scores(index, parsed, doc)
    if semantic is not None and not parsed.phrases:
        scores = _blend(index, scores, semantic(parsed.semantic_text), doc)
    ranked = sorted((i for i, v in scores.items() if v > 0), key=lambda i: (-scores[i], i))[:limit]
    return [_hit(index, i, scores[i], parsed.shown) for i in ranked]


def _lexical_scores(index: SearchIndex, parsed: _Query, doc: str | None) -> dict[int, float]:
    scores: dict[int, float] = defaultdict(float)
    for s, weight in parsed.weights.items():
        idf = index.idf.get(s)
        if idf is None:
            continue
        for i, tf in index.postings[s]:
            scores[i] += weight * idf * tf * (_K1 + 1) / (tf + index.norms[i])
    for i, v in _question_scores(index, parsed.asked).items():
        scores[i] += _W_ASKED * v
    if doc is not None:
        entries = index.entries
        scores = defaultdict(float, {i: v for i, v in scores.items() if entries[i].doc == doc})
    for i in scores:
        if index.heading_only[i]:
            scores[i] *= _HEADING_ONLY

    top = max(scores.values(), default=0.0)
    if parsed.glossary and top > 0 and (doc in (None, "cr")):
        lifted: dict[int, float] = {}
        for refs in parsed.glossary:
            for number in refs:
                cited = index.by_number.get(("cr", number))
                if cited is None:
                    continue
                share = _GLOSSARY_CITED * (_HEADING_ONLY if index.heading_only[cited] else 1.0)
                lifted[cited] = max(lifted.get(cited, 0.0), share * top)
                for j in index.children.get(("cr", number), ()):
                    if scores.get(j, 0.0) > 0:
                        lifted[j] = max(lifted.get(j, 0.0), _GLOSSARY_CHILD * top)
        for i, bonus in lifted.items():
            scores[i] += bonus

    if parsed.named and top > 0:
        for i in parsed.named:
            # A heading with no text of its own ("729. Taking Shortcuts") is not lifted: its subrules answer.
            if (doc is None or index.entries[i].doc == doc) and not index.heading_only[i]:
                scores[i] += _NAMED * top

    if parsed.phrases:
        for i in list(scores):
            if all(_contains(index.text_stems[i], p) for p in parsed.phrases):
                scores[i] *= _PHRASE_BOOST
    return scores


def _question_scores(index: SearchIndex, asked: Mapping[str, float]) -> dict[int, float]:
    """Entry index -> BM25 score of its best-matching asked-as question."""
    per_question: dict[int, float] = defaultdict(float)
    for s, weight in asked.items():
        idf = index.question_idf.get(s)
        if idf is None:
            continue
        for k, tf in index.question_postings[s]:
            per_question[k] += weight * idf * tf * (_K1 + 1) / (tf + index.question_norms[k])
    best: dict[int, float] = {}
    for k, v in per_question.items():
        i = index.question_owner[k]
        if v > best.get(i, 0.0):
            best[i] = v
    return best


def _blend(index: SearchIndex, lexical: Mapping[int, float], similarity: Sequence[float], doc: str | None) -> dict[int, float]:
    """(1 - _SEMANTIC) x lexical score / best lexical score + _SEMANTIC x similarity rescaled to
    [0, 1] over the candidates (the best _CANDIDATES of each ranking)."""
    allowed = range(len(index.entries)) if doc is None else index.doc_entries.get(doc, [])
    by_similarity = _best(similarity, allowed, _CANDIDATES)
    by_lexical = heapq.nlargest(_CANDIDATES, lexical, key=lexical.__getitem__)
    candidates = set(by_similarity) | set(by_lexical)
    if not candidates:
        return {}
    top = max(lexical.values(), default=0.0) or 1.0
    chosen = {i: float(similarity[i]) for i in candidates}
    low = min(chosen.values())
    span = (max(chosen.values()) - low) or 1.0
    return {i: (1 - _SEMANTIC) * lexical.get(i, 0.0) / top + _SEMANTIC * (v - low) / span for i, v in chosen.items()}


def _best(values: Sequence[float], allowed: Sequence[int], n: int) -> list[int]:
    """The `n` indexes of `allowed` with the largest `values`: a partial sort when `values` is a
    numpy array (what the semantic scorer gives), heapq otherwise; the engine imports no numpy."""
    if hasattr(values, "argpartition") and len(allowed) > n:
        pool = values if isinstance(allowed, range) and len(allowed) == len(values) else values[list(allowed)]
        picked = pool.argpartition(len(pool) - n)[len(pool) - n:]
        return [allowed[k] for k in picked.tolist()]
    return heapq.nlargest(n, allowed, key=values.__getitem__)


def _hit(index: SearchIndex, i: int, score: float, shown: frozenset[str]) -> SearchHit:
    e = index.entries[i]
    return SearchHit(doc=e.doc, number=e.number, score=score, snippet=_snippet(e, shown),
                     title=e.title or e.section_title)


def _snippet(e: SearchEntry, shown: frozenset[str]) -> str:
    """About _SNIPPET_CHARS characters of the rule text where the query's words are densest."""
    text = " ".join(e.text.split()) or e.title or (e.examples[0] if e.examples else "")
    if len(text) <= _SNIPPET_CHARS:
        return text
    found = []   # (character offset, matched?) per word
    for match in re.finditer(r"[A-Za-z0-9’'+/-]+", text):
        form = match.group().lower().replace("’", "").replace("'", "")
        found.append((match.start(), stem(form) in shown))
    hits = [offset for offset, hit in found if hit]
    start, best, last = 0, 0, 0
    for k, offset in enumerate(hits):       # sliding window over matched words
        while last < len(hits) and hits[last] - offset < _SNIPPET_CHARS * 2 // 3:
            last += 1
        if last - k > best:
            start, best = offset, last - k
    begin = max(0, start - _SNIPPET_CHARS // 3)
    if begin > 0:
        space = text.find(" ", begin)
        begin = space + 1 if 0 <= space < start else begin
    end = min(len(text), begin + _SNIPPET_CHARS)
    if end < len(text):
        space = text.rfind(" ", begin, end)
        end = space if space > start else end
    return ("…" if begin > 0 else "") + text[begin:end] + ("…" if end < len(text) else "")
