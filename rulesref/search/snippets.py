"""The part of a rule's text shown under a hit: where the question's words are densest."""

from __future__ import annotations

import re

from rulesref.search.records import SearchEntry
from rulesref.search.text import stem

_SNIPPET_CHARS = 180


def snippet(e: SearchEntry, shown: frozenset[str]) -> str:
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
