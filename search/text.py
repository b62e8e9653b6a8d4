"""Words of rules and questions: lower-case word forms, a small suffix stemmer, stopwords.

What is indexed and what a query looks up are both `terms(text)`; judge phrases, card names and
old glossary names are matched with every word, stopwords included (`phrase_key`).
"""

from __future__ import annotations

import re
import unicodedata

STOPWORDS = frozenset(
    """a about after all also am an and any are as at be been before being both but by can could
    did do does doing done during each else for from get gets getting got had has have having he her
    him his how i if in into is it its itself just let lets me mean means might more most much must my
    myself no nor not of off on once only or other our out over own really same she should so some
    still such than that the their them then there these they this those through to too under until
    up us very was we were what whats when where which while who whom why will with would you your
    happen happens happened happening exactly allowed able okay ok please rule rules""".split()  # noqa: SIM905, E501 - a word list reads better as prose
)
# Words that look like stopwords but change the answer ("can't", "no", "not") are kept as tokens.
_KEEP = frozenset(
    {
        "no",
        "not",
        "cant",
        "only",
        "each",
        "all",
        "more",
        "first",
        "out",
        "up",
        "off",
        "both",
        "other",
        "same",
    }
)
STOPWORDS = STOPWORDS - _KEEP

_WORD = re.compile(r"[a-z0-9]+(?:/[a-z0-9]+)?")
# "+1/+1" and "-1/-1" become single words ("p1/p1", "m1/m1"), so counters are searchable.
_PT = re.compile(r"([+-]?)(\d+|x)/([+-]?)(\d+|x)")


_STEM_CACHE: dict[str, str] = {}


def stem(word: str) -> str:
    """A small suffix stemmer: plurals, -ing, -ed, -ly, final e/y, so "shuffling"
    meets "shuffled"."""
    cached = _STEM_CACHE.get(word)
    if cached is not None:
        return cached
    w = word
    if len(w) > 3 and w.isalpha():
        if w.endswith("ies") and len(w) > 4:
            w = w[:-3] + "i"
        elif w.endswith(("sses", "ches", "shes")) or (
            w.endswith("es") and w[-3] in "sxz" and len(w) > 4
        ):
            w = w[:-2]
        elif w.endswith("s") and not w.endswith(("ss", "us", "is")):
            w = w[:-1]
        for suffix in ("ingly", "edly", "ing", "ed"):
            if (
                w.endswith(suffix)
                and len(w) - len(suffix) >= 3
                and re.search(r"[aeiouy]", w[: -len(suffix)])
            ):
                w = w[: -len(suffix)]
                if len(w) > 3 and w[-1] == w[-2] and w[-1] not in "lsz":
                    w = w[:-1]  # tapped -> tapp -> tap
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
    """Lower-case word forms of `text`: curly quotes folded, apostrophes dropped ("can't"
    -> "cant")."""
    text = unicodedata.normalize("NFKC", text).lower()
    text = text.replace("’", "").replace("'", "").replace("‘", "")
    text = text.replace("–", "-").replace("—", " ").replace("−", "-")
    text = _PT.sub(
        lambda m: (
            f"{'p' if m[1] == '+' else 'm' if m[1] == '-' else ''}{m[2]}/"
            f"{'p' if m[3] == '+' else 'm' if m[3] == '-' else ''}{m[4]}"
        ),
        text,
    )
    return _WORD.findall(text)


def terms(text: str) -> list[str]:
    """Stems of the words of `text` without stopwords: what is indexed and what a query looks up."""
    return [stem(w) for w in words(text) if w not in STOPWORDS]


def phrase_key(text: str) -> tuple[str, ...]:
    """Stems of every word of `text`, stopwords included: how judge phrases, card names and old
    glossary names are matched, so that "in play" or "on the draw" is not read as every "play"
    or "draw"."""
    return tuple(stem(w) for w in words(text))
