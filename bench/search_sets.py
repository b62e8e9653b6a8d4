"""Question sets of the search bench, each asked two ways: with no document filter (as the box on
every page asks, "All documents") and with the right document chosen.

Two file formats are read (bench/search_questions*.toml):
- the older sets: `part`, `q`, `answers` as numbers of the question's `doc` (default "cr"), or as
  "doc:number" when doc = "any" (no filter);
- the sets written from final5 on: `part`, `doc` (the document that answers), `q`, `answers` as
  "doc:number", and `paraphrase` (true when the question shares at most one content word with
  its answer, as its writer judged).
Plus "asked-heldout": the slice of the shipped asked-as questions kept out of training the model
(search.asked.held_out), asked of an index that holds none of them.

The report prints aggregate figures only (recall@5, MRR@10, per document, paraphrases): it never
lists the questions or misses of a set, so a blind set can be measured without being read.
"""

from __future__ import annotations

import hashlib
import tomllib
from collections.abc import Collection
from dataclasses import dataclass, replace
from pathlib import Path

from search import asked

BENCH = Path(__file__).resolve().parent


@dataclass(frozen=True)
class SetQuestion:
    part: str
    text: str
    answers: tuple[str, ...]  # "doc:number"
    doc: str  # the document that answers (of the first answer)
    paraphrase: bool | None  # as its writer judged; None: computed by the bench


def _read(path: Path) -> list[SetQuestion]:
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    out = []
    for q in data["question"]:
        doc = q.get("doc", "cr")
        answers = tuple(a if ":" in a else f"{doc}:{a}" for a in q["answers"])
        right = answers[0].split(":", 1)[0] if doc == "any" else doc
        out.append(SetQuestion(q["part"], q["q"], answers, right, q.get("paraphrase")))
    return out


REAL = BENCH / "real_questions"
# Real questions measured blind and read since, by part: tuning data
# (bench/real_questions/README.md).
READ = {
    "real-tune": REAL / "real_tune.toml",
    "real-blind": REAL / "real_blind.toml",
    "real-blind2": REAL / "real_blind2.toml",
    "real-blind3": REAL / "real_blind3.toml",
    "real-blind4": REAL / "real_blind4.toml",
    "real-blind5": REAL / "real_blind5.toml",
    "real-blind6": REAL / "real_blind6.toml",
    "real-blind7": REAL / "real_blind7.toml",
    "real-blind8": REAL / "real_blind8.toml",
    "real-blind9": REAL / "real_blind9.toml",
    "real-blind10": REAL / "real_blind10.toml",
    "real-blind11": REAL / "real_blind11.toml",
    "real-blind12": REAL / "real_blind12.toml",
    "real-blind13": REAL / "real_blind13.toml",
}
# The blind sets not yet read: loaded only when named, so that nothing measures them by accident,
# each until it is measured once.
BLIND: dict[str, Path] = {}


def held_out_real(text: str) -> bool:
    """A fixed third of the real questions read, never trained on (the second look's and the
    sentence model's trainings leave out the same questions): a digest of the question's text."""
    return hashlib.sha256(text.encode()).digest()[0] % 3 == 0


def held_out_texts() -> frozenset[str]:
    """The held-out third of the real questions read, as the asked-as files hold them (whitespace
    collapsed): the bench's index leaves them out of the real asked-as questions (search.asked) so
    that part "real-heldout" measures questions the search has not seen."""
    return frozenset(
        asked.normalized(q.text)
        for path in READ.values()
        for q in _read(path)
        if held_out_real(q.text)
    )


def load_sets(*, blind: Collection[str] = ()) -> dict[str, list[SetQuestion]]:
    """Every question set, by part, in file order: the written sets, the real questions measured
    and read (READ), "real-heldout" (the held-out third of those, the one part of them the bench's
    index has not seen as asked-as questions), and the blind sets of BLIND only when named in
    `blind`."""
    unknown = sorted(set(blind) - set(BLIND))
    if unknown:
        raise ValueError(f"not a blind set: {', '.join(unknown)} (blind sets: {', '.join(BLIND)})")
    parts: dict[str, list[SetQuestion]] = {}
    for path in [
        BENCH / "search_questions.toml",
        *sorted(BENCH.glob("search_questions_final*.toml"), key=lambda p: (len(p.stem), p.stem)),
        *READ.values(),
        *(BLIND[part] for part in blind if BLIND[part].is_file()),
    ]:
        for q in _read(path):
            parts.setdefault(q.part, []).append(q)
    parts["real-heldout"] = [
        replace(q, part="real-heldout")
        for part in READ
        for q in parts.get(part, [])
        if held_out_real(q.text)
    ]
    return parts


def held_out_questions(
    sets: dict, corpus_versions: dict[str, object], *, every: int = 3
) -> list[SetQuestion]:
    """Every `every`-th held-out asked-as question of the document versions searched."""
    found = []
    for (doc, version), questions in sorted(sets.items()):
        if corpus_versions.get(doc) != version:
            continue
        for number, listed in questions.questions.items():
            found.extend(
                SetQuestion("asked-heldout", q, (f"{doc}:{number}",), doc, None)
                for q in listed
                if asked.held_out(q)
            )
    return found[::every]


def without_held_out(sets: dict) -> dict:
    """The asked-as sets with their held-out questions removed."""
    out = {}
    for key, found in sets.items():
        kept = {
            n: tuple(q for q in qs if not asked.held_out(q)) for n, qs in found.questions.items()
        }
        out[key] = asked.AskedSet(
            found.doc, found.version, {n: qs for n, qs in kept.items() if qs}, found.sources
        )
    return out
