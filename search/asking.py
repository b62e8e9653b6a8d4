"""Where a long question asks: a judge's question told as a story sets the scene (who plays what,
what each player did, what the judge saw) and asks at the end ("What happens?", "Is this a Game
Rule Violation?", "How do I rule?"). `pieces` splits a question into its sentences and says which
ask, so that the reading (search.query) and the sentence model (search.ranking) weigh the asking
sentences more than the scene, whose words still count, less.

A sentence asks when it ends with "?" or is said as a question ("what happens", "is this", "can
he", "how do I rule", "I'm wondering whether"). A story none of whose sentences asks ends with its
question. A question of one sentence, of fewer than MIN_WORDS words, or whose every sentence asks,
has no scene: it is read as before.

The offline engine (static/judgeapp/offline-search.js, `pieces`) splits and weighs alike: keep
them equal.
"""

from __future__ import annotations

import re

# A sentence ends at ".", "!" or "?" followed by a space, or at a line break.
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+|\s*\n\s*")
# Words that open a sentence said as a question ("Can he...", "What happens...").
_OPENERS = frozenset(
    (
        "what whats how hows can could does do did is isnt are arent would should shouldnt "
        "who why wouldnt cant doesnt didnt"
    ).split()
)
# Phrases anywhere in a sentence that ask ("..., what happens", "I'm wondering if...").
_ASKS = re.compile(
    r"\b(what happens|what would happen|how do i rule|how should i rule|how would you rule|"
    r"what is the (?:right |correct )?(?:ruling|penalty|fix|call)|what's the (?:right |correct )?"
    r"(?:ruling|penalty|fix|call)|wonder(?:ing)? (?:if|whether|what|how|why)|my question is|"
    r"the question is|is this|is that|is it|can (?:he|she|they|i|you|we)|"
    r"do (?:i|you|we|they)|does (?:it|he|she|that|this))\b"
)
_LETTERS = re.compile(r"[a-z']+")
# A question shorter than this, in words, is read whole: a line of scene before a short question
# ("Opponent has Blood Moon. Do my fetches work?") is the question's own subject, not a story.
MIN_WORDS = 25


def sentences(question: str) -> list[str]:
    """The sentences of `question`, in order, as written (without the spaces between them)."""
    return [s for s in _SENTENCE_END.split(question.strip()) if s.strip()]


def asks(sentence: str) -> bool:
    """Whether `sentence` is said as a question."""
    text = sentence.strip().lower().replace("’", "'")
    if text.endswith("?"):
        return True
    first = _LETTERS.search(text)
    if first is not None and first.group().replace("'", "") in _OPENERS and first.start() == 0:
        return True
    return _ASKS.search(text) is not None


def pieces(question: str) -> list[tuple[str, bool]]:
    """The sentences of `question` with whether each asks, when it tells a scene before (or
    around) what it asks; [(question, True)] when it has no scene."""
    found = sentences(question)
    if len(found) < 2 or len(_LETTERS.findall(question.lower())) < MIN_WORDS:
        return [(question, True)]
    asking = [asks(s) for s in found]
    if all(asking):
        return [(question, True)]
    if not any(asking):
        asking[-1] = True
    return list(zip(found, asking, strict=True))


def asking_text(question: str) -> str:
    """The asking sentences of `question` joined, or "" when it has no scene."""
    split = pieces(question)
    if len(split) < 2:
        return ""
    return " ".join(s for s, ask in split if ask)
