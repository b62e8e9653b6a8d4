"""Card names as judges type them: case, accents, punctuation and a close misspelling
forgiven. Pure."""

from __future__ import annotations

import difflib
import re
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

_NOT_WORD = re.compile(r"[^a-z0-9 ]+")


def name_key(name: str) -> str:
    """ "Thassa's Oracle" -> "thassas oracle"; "Lim-Dûl's Vault" -> "limduls vault"; "Fire // Ice"
    -> "fire ice"."""
    text = unicodedata.normalize("NFKD", name)
    text = "".join(c for c in text if not unicodedata.combining(c)).casefold()
    text = text.replace("’", "").replace("'", "").replace("-", "")
    return " ".join(_NOT_WORD.sub(" ", text).split())


@dataclass(frozen=True)
class NameMatch:
    found: str | None  # the key of the card meant, or None
    close: tuple[str, ...] = ()  # keys of close names, best first, when none is meant


def match_name(query: str, keys: Mapping[str, str] | Iterable[str], *, limit: int = 5) -> NameMatch:
    """The card a judge means by `query` among `keys` (name keys): the exact name, a face's name or
    a unique prefix of one, else the one close misspelling that stands out; otherwise the
    close names."""
    wanted = name_key(query)
    pool = list(keys)
    if not wanted:
        return NameMatch(None)
    if wanted in pool:
        return NameMatch(wanted)
    starts = [k for k in pool if k.startswith(wanted + " ") or k.startswith(wanted)]
    # a front face's start is also its card's ("delver" of "delver of secrets" and "delver of
    # secrets // insectile aberration"): one card, however many of its names begin so
    cards = {keys[k] for k in starts} if isinstance(keys, Mapping) else set(starts)
    if len(cards) == 1 and len(wanted) >= 4:
        return NameMatch(min(starts, key=len))
    close = difflib.get_close_matches(wanted, pool, n=limit, cutoff=0.6)
    if close:
        best = difflib.SequenceMatcher(None, wanted, close[0]).ratio()
        runner_up = (
            difflib.SequenceMatcher(None, wanted, close[1]).ratio() if len(close) > 1 else 0.0
        )
        if best >= 0.85 and best - runner_up >= 0.05:
            return NameMatch(close[0])
    if len(starts) > 1:
        close = sorted(starts, key=len)[:limit]
    return NameMatch(None, tuple(close))
