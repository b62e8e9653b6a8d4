"""Benchmark of the judge-tuned search model (`make search-model`) against the stock model it starts
from: recall@5 of each on the held-out asked-as questions (search.asked.held_out: never trained on),
ranking every entry of the newest IPG by cosine alone.

Run from the repository root: .venv/bin/python bench/search_model_bench.py [--kind ipg] [--limit N]
Reads the documents from JUDGEAPP_RULES_DIR (default ../shared/rules, else the shipped rules/).
Embeds every entry of the document with both models (tens of seconds on a laptop core), which is why
this measurement lives here and tests/search/test_search_policy.py checks only a small sample.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from rulesref.parsing.documents import parse_document  # noqa: E402
from search import asked, entries_from_document, model  # noqa: E402
from search.embedder import Encoder  # noqa: E402
from search.vectors import entry_texts  # noqa: E402


def rules_dir() -> Path:
    env = os.environ.get("JUDGEAPP_RULES_DIR")
    for candidate in (Path(env) if env else None, ROOT.parent / "shared" / "rules", ROOT / "rules"):
        if candidate is not None and candidate.is_dir():
            return candidate
    raise SystemExit("no rules folder: set JUDGEAPP_RULES_DIR")


def newest_entries(kind: str):
    path = sorted((rules_dir() / kind).glob("*.*"))[-1]
    parsed = parse_document(path.read_bytes(), str(path))
    found = asked.load_asked().get((kind, parsed.effective_date))
    entries = entries_from_document(parsed)
    return (asked.attach(entries, found.questions) if found else entries), path.name


def held_out_questions(entries) -> list[tuple[str, tuple[str, str]]]:
    """(question, (doc, number) it asks about) for every held-out asked-as question of `entries`."""
    return [(q, (e.doc, e.number)) for e in entries for q in e.questions if asked.held_out(q)]


def recall_at_5(path: Path, entries, held) -> float:
    """Recall@5 of the model at `path` on `held`, ranking `entries` by cosine (each rule once)."""
    encoder = Encoder(path)
    rules = encoder.encode(entry_texts(entries))
    questions = encoder.encode([q for q, _ in held])
    found = 0
    for vector, (_, want) in zip(questions, held, strict=True):
        top: list[tuple[str, str]] = []
        for i in np.argsort(-(rules @ vector)):
            key = (entries[i].doc, entries[i].number)
            if key not in top:
                top.append(key)
            if len(top) == 5:
                break
        found += want in top
    return found / len(held)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kind", default="ipg", choices=("cr", "mtr", "ipg", "jar"))
    parser.add_argument("--limit", type=int, default=0, help="only the first N held-out questions")
    args = parser.parse_args()
    stock = model.package_model_dir()
    if stock is None:
        print("the stock model package (requirements-models.txt) is not installed")
        return 1
    entries, name = newest_entries(args.kind)
    held = held_out_questions(entries)
    if args.limit:
        held = held[: args.limit]
    print(f"{name}: {len(entries)} entries, {len(held)} held-out asked-as questions")
    figures = {}
    for label, path in (("tuned", model.TUNED_DIR), ("stock", stock)):
        start = time.perf_counter()
        figures[label] = recall_at_5(path, entries, held)
        print(
            f"  {label:5} {model.model_name() if label == 'tuned' else stock.name}: "
            f"recall@5 {figures[label]:.3f}  ({time.perf_counter() - start:.1f} s)"
        )
    print(f"  tuned - stock: {figures['tuned'] - figures['stock']:+.3f}")
    return 0 if figures["tuned"] > figures["stock"] else 1


if __name__ == "__main__":
    sys.exit(main())
