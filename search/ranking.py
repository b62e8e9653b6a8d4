"""Rules search: tokenise rules documents, build an in-memory index, rank rules for a
judge's question.

Pure standard library, no database: the service builds one index per set of published versions
from plain records and ranks in Python, so SQLite and PostgreSQL give the same answers.

Ranking, in order of application:
1. A query that is a rule number ("729.4", "CR 7294") returns that rule first, then its subrules.
2. Judge words are rewritten into rule words with the judge vocabulary (vocabulary.toml):
   "deck out" -> "draw card library no cards lose"; the judge's words a phrase consumed are dropped.
   Phrases match with every word, stopwords included: "on the draw" is not every "draw".
3. Unknown words are corrected to the nearest index word (one edit: a typo such as "shorcut"),
   unless they are English words the sentence model knows ("hurt" is not a typo of "hunt").
4. BM25F over fields weighted title/aliases > enclosing headings > rule text > examples, with a
   small suffix stemmer; rules whose whole text is a heading ("702.19. Trample") rank below
   their subrules.
5. Glossary terms found in the query lift the rules their definitions cite, and those
   rules' subrules.
6. A question naming a rule's title or alias ("Hidden Card Error", "HCE") lifts that rule; headings
   without text of their own are left to their subrules.
7. Quoted phrases lift the rules whose text contains the exact word sequence; a short question
   with one is ranked lexically alone, a story (quoting a card, a rule or a player) hybrid too.
8. With `semantic` (sentence-embedding similarities, search.vectors), the lexical score and
   the similarity are blended (0.25 / 0.75, measured with the judge-tuned model on the tuning
   questions; the stock all-MiniLM-L6-v2 was best at 0.4 / 0.6, and reciprocal rank fusion, a
   learned linear ranker and embedding the question with its vocabulary rewrites did worse). The
   question is embedded with its spoken words in the rules' words ([spoken] in the vocabulary
   file: "my walker" -> "my planeswalker"), which the model reads as a sentence.
   A question told as a story is read by the model whole, by its asking sentences and by its two
   longest sentences alone (the best of those two weighing a little).
9. A question in tournament words with no document chosen lifts the MTR, IPG and JAR; one asking
   for a penalty or a fix lifts the IPG (the JAR when it names Regular REL) a little more.
10. A question that names no REL whose first rules include a JAR section (Regular REL) gets the
   best IPG infraction (Competitive and Professional) right after it.
11. Before 10, a hybrid search whose best blended score leads the second by little (the first
   ranking unsure) has its first entries ordered again by the reranker (search.rerank); a lexical
   search never is, so the tablet's offline engine still ranks as the server's lexical search.
"""

from __future__ import annotations

import heapq
import re
from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence
from typing import Any, cast

from rulesref.parsing.common import normalize_rule_number
from search import bm25
from search import rerank as second_look
from search.asking import sentences
from search.query import ParsedQuery, parse_query
from search.records import SearchHit, SearchIndex
from search.snippets import snippet

# Share of the best asked-as question's BM25 score added to a rule's own score.
_W_ASKED = 0.5
# A rule whose text is only a heading ("Trample") keeps this share of its score.
_HEADING_ONLY = 0.6
# Glossary: share of the best lexical score added to a cited rule, and to its subrules.
_GLOSSARY_CITED = 0.45
_GLOSSARY_CHILD = 0.25
# Quoted phrase found verbatim: score multiplied by this.
_PHRASE_BOOST = 3.0
# A rule named by the question (its title or an alias): share of the best lexical score added.
_NAMED = 0.5
# Hybrid ranking: share of the semantic similarity in the blended score, and candidates per ranking.
_SEMANTIC = 0.75
_CANDIDATES = 50
# A question told as a story (search.asking): share of the similarity to its asking sentences
# alone in the similarity used, the rest to the whole question (real-tune: 0.2 best; 0.5 and more
# lose the scene's cards and actions).
_ASKING = 0.2
# A question told as a story: its two longest sentences (of _SENTENCE_WORDS words or more) are
# also read alone by the sentence model, and the better similarity of the two weighs _SENTENCE in
# the similarity used, so that the sentence that names what decides is not drowned by the rest of
# the scene (real-tune 0.679 / 0.502 -> 0.685 / 0.517, its held-out third's MRR 0.586 -> 0.604,
# the written sets' stories' MRR 0.865 -> 0.885; 0.3 lost a written story from the top five; six
# sentences ranked as two and cost four more encodings).
_SENTENCE = 0.2
_SENTENCES = 2
_SENTENCE_WORDS = 4
# A question in tournament words, no document chosen: share of the best score added to the
# tournament documents' entries (measured on the tuning sets and the held-out asked-as questions).
_INTENT = 0.3
# A question asking for a penalty or a fix ([intent] remedy): the document that gives them gains
# this share more than the others: the IPG, or the JAR when the question names Regular REL.
_REMEDY = 0.15
# A JAR section among the first this many rules of a question that names no REL brings the best
# IPG infraction right after it (the same situation at Competitive REL).
_COUNTERPART = 3
# A question that names one REL: the entries of the document of the other REL keep this share of
# their score (the JAR at Competitive REL; the IPG at Regular REL, less, as its philosophy and
# definitions still inform a store judge).
_OTHER_REL_JAR = 0.5
_OTHER_REL_IPG = 0.8
POLICY_DOCS = frozenset({"mtr", "ipg", "jar"})


# Which document a bare number ("4.2") is looked up in first; a named one ("IPG 4.2") is
# that document's.
_NUMBER_ORDER = ("cr", "mtr", "ipg", "jar")
_NAMED_DOC = re.compile(r"^\s*(cr|mtr|ipg|jar)(?![a-z])", re.IGNORECASE)


def _number_hits(index: SearchIndex, query: str, doc: str | None) -> list[int]:
    """Entries for a query that is a rule number: the rule, then its subrules in order. A number
    that names its document ("MTR 4.2") is that document's, never another's 4.2."""
    named = _NAMED_DOC.match(query)
    present = index.doc_entries.keys()
    if doc:
        docs = [doc]
    elif named:
        docs = [named.group(1).lower()]
    else:
        docs = [d for d in _NUMBER_ORDER if d in present] + sorted(present - set(_NUMBER_ORDER))
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
    """Whether `phrase` is a run of `seq`: only where its first word is (found by seq.index, in C)
    is the rest compared; a long question's phrases against every rule it scores were a third
    of its ranking's CPU when every place was compared."""
    n = len(phrase)
    if n == 0:
        return True
    target, first, start = tuple(phrase), phrase[0], 0
    while True:
        try:
            k = seq.index(first, start)
        except ValueError:
            return False
        if tuple(seq[k : k + n]) == target:
            return True
        start = k + 1


def search(
    index: SearchIndex,
    query: str,
    *,
    limit: int = 10,
    doc: str | None = None,
    semantic: Callable[[str], Sequence[float]] | None = None,
    rerank: bool = True,
) -> list[SearchHit]:
    """The best `limit` rules for `query`, best first; [] for an empty or unmatched query.

    `doc` keeps only rules of that document ("cr", "mtr", ...). Scores are comparable within one
    answer only. A rule number gets that rule first (score 1000), then its subrules. `semantic`,
    when given, maps a query to a similarity per entry (index order), e.g. sentence-embedding
    cosines from search.vectors; it is blended with the lexical ranking. A hybrid search whose
    first ranking is unsure is ordered again by the shipped reranker (search.rerank) unless
    `rerank` is False; a lexical one never is.
    """
    query = query.strip()
    if not query or limit <= 0:
        return []
    numbered = _number_hits(index, query, doc)
    if numbered:
        hits = numbered[:limit]
        return [_hit(index, i, 1000.0 - rank, frozenset()) for rank, i in enumerate(hits)]
    parsed = parse_query(index, query)
    scores = _lexical_scores(index, parsed, doc)
    lexical, similarity = scores, None
    # A quoted phrase asks for those words verbatim, the lexical ranking alone; in a question told
    # as a story it is the asker quoting a card, a rule or a player, and the sentence model still
    # reads the whole question (real-tune: 28 of 168 questions quote).
    if semantic is not None and (not parsed.phrases or len(query) > second_look.STORY):
        told = story_sentences(parsed.semantic_text) if len(query) > second_look.STORY else []
        prepare = getattr(semantic, "prepare", None)
        if prepare is not None:  # the scorer may encode them side by side first
            prepare([parsed.semantic_text, *filter(None, [parsed.asking_text]), *told])
        similarity = semantic(parsed.semantic_text)
        if parsed.asking_text:
            similarity = _with_asking(similarity, semantic(parsed.asking_text))
        each = [semantic(s) for s in told]
        if len(each) > 1:
            similarity = _with_sentences(similarity, each)
        scores = _blend(index, scores, similarity, doc)
    if doc is None and (parsed.intent or parsed.regular):
        remedy = parsed.regular or any(word in index.remedy for word in parsed.intent)
        _lift_policy(index, scores, remedy=("jar" if parsed.regular else "ipg") if remedy else None)
    if doc is None and parsed.regular != parsed.competitive:
        other, keep = ("ipg", _OTHER_REL_IPG) if parsed.regular else ("jar", _OTHER_REL_JAR)
        for i in index.doc_entries.get(other, ()):
            if i in scores:
                scores[i] *= keep
    order = sorted((i for i, v in scores.items() if v > 0), key=lambda i: (-scores[i], i))
    second = second_look.shipped() if rerank and similarity is not None else None
    if second is not None and similarity is not None:
        order = second_look.rerank(
            second, index, query, parsed.weights, order, scores, lexical, similarity
        )
    if doc is None and not parsed.regular and _COUNTERPART:
        order = _competitive_beside_regular(index, order, scores)
    ranked = _one_per_rule(index, order, limit)
    return [_hit(index, i, scores[i], parsed.shown) for i in ranked]


def _lift_policy(
    index: SearchIndex, scores: dict[int, float], *, remedy: str | None = None
) -> None:
    """A question in tournament words ("penalty", "deck check") with no document chosen: the
    tournament documents' entries gain a share of the best score, so a CR rule that shares its game
    words does not bury the policy that answers it. One that asks for a penalty or a fix lifts the
    document that gives them (`remedy`: the IPG, or the JAR at Regular REL) a little more."""
    top = max(scores.values(), default=0.0)
    for i in scores:
        doc = index.entries[i].doc
        if doc in POLICY_DOCS:
            scores[i] += (_INTENT + (_REMEDY if doc == remedy else 0.0)) * top


def _competitive_beside_regular(
    index: SearchIndex, order: list[int], scores: dict[int, float]
) -> list[int]:
    """A question that names no REL whose best hits include a JAR section (Regular REL) within the
    first _COUNTERPART rules, and no IPG entry above it: the best IPG infraction (an entry with
    parts; Competitive and Professional REL) comes right after it, so the judge sees both RELs'
    answers side by side. Its score is raised to between its neighbours', so scores still fall
    down the list."""
    seen: set[tuple[str, str]] = set()
    for place, i in enumerate(order):
        e = index.entries[i]
        if len(seen) >= _COUNTERPART:
            return order
        seen.add((e.doc, e.number))
        if e.doc == "jar":
            if any(index.entries[j].doc == "ipg" for j in order[:place]):
                return order
            infractions = {
                index.entries[k].number
                for k in index.doc_entries.get("ipg", ())
                if index.entries[k].part
            }
            best = next(
                (
                    j
                    for j in order[place + 1 :]
                    if index.entries[j].doc == "ipg" and index.entries[j].number in infractions
                ),
                None,
            )
            if best is None:
                return order
            rest = [j for j in order[place + 1 :] if j != best]
            if rest:
                scores[best] = max(scores[best], (scores[i] + scores[rest[0]]) / 2)
            return [*order[: place + 1], best, *rest]
    return order


def _one_per_rule(index: SearchIndex, ranked: Sequence[int], limit: int) -> list[int]:
    """The first `limit` of `ranked` with each rule once: the best of a rule and its parts."""
    seen: set[tuple[str, str]] = set()
    out: list[int] = []
    for i in ranked:
        e = index.entries[i]
        if (e.doc, e.number) not in seen:
            seen.add((e.doc, e.number))
            out.append(i)
            if len(out) == limit:
                break
    return out


def _lexical_scores(index: SearchIndex, parsed: ParsedQuery, doc: str | None) -> dict[int, float]:
    scores: dict[int, float] = defaultdict(
        float, bm25.sums(parsed.weights, index.postings, index.idf, index.norms, index.packed)
    )
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
            # A heading with no text of its own ("729. Taking Shortcuts") is not lifted: its
            # subrules answer.
            if (doc is None or index.entries[i].doc == doc) and not index.heading_only[i]:
                scores[i] += _NAMED * top

    if parsed.phrases:
        for i in list(scores):
            if all(_contains(index.text_stems[i], p) for p in parsed.phrases):
                scores[i] *= _PHRASE_BOOST
    return scores


def _question_scores(index: SearchIndex, asked: Mapping[str, float]) -> dict[int, float]:
    """Entry index -> BM25 score of its best-matching asked-as question."""
    return bm25.best_by_question(
        asked,
        index.question_postings,
        index.question_idf,
        index.question_norms,
        index.question_owner,
        index.question_packed,
    )


def _blend(
    index: SearchIndex, lexical: Mapping[int, float], similarity: Sequence[float], doc: str | None
) -> dict[int, float]:
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
    return {
        i: (1 - _SEMANTIC) * lexical.get(i, 0.0) / top + _SEMANTIC * (v - low) / span
        for i, v in chosen.items()
    }


def _with_asking(whole: Sequence[float], asking: Sequence[float]) -> Sequence[float]:
    """A question told as a story: the similarity to the whole question and to its asking
    sentences alone, the asking sentences weighing _ASKING (numpy arrays from the semantic scorer
    are mixed as arrays; the engine imports no numpy)."""
    if hasattr(whole, "__array__"):
        return cast(Any, whole) * (1 - _ASKING) + cast(Any, asking) * _ASKING
    return [(1 - _ASKING) * w + _ASKING * a for w, a in zip(whole, asking, strict=True)]


def story_sentences(text: str, most: int | None = None) -> list[str]:
    """The sentences of a story that the sentence model reads alone: those of _SENTENCE_WORDS words
    or more, at most _SENTENCES of them (the longest; a tie goes to the later), in their order."""
    most = _SENTENCES if most is None else most
    found = [s for s in sentences(text) if len(s.split()) >= _SENTENCE_WORDS]
    if len(found) > most:
        kept = sorted(range(len(found)), key=lambda k: (-len(found[k].split()), -k))[:most]
        found = [found[k] for k in sorted(kept)]
    return found


def _with_sentences(whole: Sequence[float], each: Sequence[Sequence[float]]) -> Sequence[float]:
    """`whole` with the best similarity of any one sentence weighing _SENTENCE (numpy arrays as
    arrays, without importing numpy: the engine imports none)."""
    if hasattr(whole, "__array__"):
        best = cast(Any, each[0])
        for other in each[1:]:
            best = best * (best >= other) + cast(Any, other) * (other > best)
        return cast(Any, whole) * (1 - _SENTENCE) + best * _SENTENCE
    top = [max(values) for values in zip(*each, strict=True)]
    return [(1 - _SENTENCE) * w + _SENTENCE * b for w, b in zip(whole, top, strict=True)]


def _best(values: Sequence[float], allowed: Sequence[int], n: int) -> list[int]:
    """The `n` indexes of `allowed` with the largest `values`: a partial sort when `values` is a
    numpy array (what the semantic scorer gives), heapq otherwise; the engine imports no numpy."""
    if hasattr(values, "argpartition") and len(allowed) > n:
        pool = (
            values
            if isinstance(allowed, range) and len(allowed) == len(values)
            else cast(Any, values)[list(allowed)]
        )
        picked = pool.argpartition(len(pool) - n)[len(pool) - n :]
        return [allowed[k] for k in picked.tolist()]
    return heapq.nlargest(n, allowed, key=values.__getitem__)


def _hit(index: SearchIndex, i: int, score: float, shown: frozenset[str]) -> SearchHit:
    e = index.entries[i]
    return SearchHit(
        doc=e.doc,
        number=e.number,
        score=score,
        snippet=snippet(e, shown),
        title=e.title or e.section_title,
        part=e.part,
    )
