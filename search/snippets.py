"""The part of a rule's text shown under a hit: where the question's words are densest."""

from __future__ import annotations

import re
from functools import lru_cache

from search.records import SearchEntry
from search.text import stem

_SNIPPET_CHARS = 180


@lru_cache(maxsize=4096)
def _stemmed_words(text: str) -> tuple[tuple[int, str], ...]:
    """(character offset, stem) of every word of a rule's text: worked out once per text, since
    the same rules come back for question after question."""
    return tuple(
        (match.start(), stem(match.group().lower().replace("’", "").replace("'", "")))
        for match in re.finditer(r"[A-Za-z0-9’'+/-]+", text)
    )


def snippet(e: SearchEntry, shown: frozenset[str]) -> str:
    """About _SNIPPET_CHARS characters of the rule text where the query's words are densest."""
    text = " ".join(e.text.split()) or e.title or (e.examples[0] if e.examples else "")
    if len(text) <= _SNIPPET_CHARS:
        return text
    hits = [offset for offset, word in _stemmed_words(text) if word in shown]
    start, best, last = 0, 0, 0
    for k, offset in enumerate(hits):  # sliding window over matched words
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
