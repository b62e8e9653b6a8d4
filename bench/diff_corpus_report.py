"""Measurements: what the differ finds between every consecutive pair of stored CR versions.

Prints one row per pair: rules on each side, unchanged, changed (same number, new words), moved
(new number; "of which edited" moved and reworded), added, removed, and the seconds the diff took,
then the check that every old rule is counted exactly once. With --samples N, also prints up to N
examples of each kind per pair for reading against the files.

Run from the repo root: .venv/bin/python bench/diff_corpus_report.py [--samples N] [--markdown]
The CR files are read from JUDGEAPP_RULES_DIR (default ../shared/rules relative to the repo).
"""

from __future__ import annotations

import argparse
import itertools
import os
import sys
import time
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO_ROOT))

from rulesref import diffing
from rulesref.parsing.common import decode_document
from rulesref.parsing.cr import parse_cr

RULES_DIR = Path(os.environ.get("JUDGEAPP_RULES_DIR", REPO_ROOT.parent / "shared" / "rules"))
COLUMNS = (
    "from",
    "to",
    "old",
    "new",
    "unchanged",
    "changed",
    "moved",
    "of which edited",
    "added",
    "removed",
    "s",
)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--samples", type=int, default=0, help="examples of each kind to print per pair"
    )
    parser.add_argument("--markdown", action="store_true", help="print the table as Markdown")
    args = parser.parse_args()
    versions = []
    for path in sorted((RULES_DIR / "cr").glob("*.txt")):
        doc = parse_cr(decode_document(path.read_bytes(), path.name), path.name)
        versions.append((doc.effective_date, diffing.diff_rules_from_document(doc)))
    rows, problems, samples = [], [], []
    for (old_date, old), (new_date, new) in itertools.pairwise(versions):
        start = time.perf_counter()
        result = diffing.diff_rules(old, new)
        seconds = time.perf_counter() - start
        c = result.counts
        rows.append(
            (
                old_date.isoformat(),
                new_date.isoformat(),
                len(old),
                len(new),
                c["unchanged"],
                c["changed"],
                c["moved"],
                c["moved_edited"],
                c["added"],
                c["removed"],
                f"{seconds:.2f}",
            )
        )
        if c["unchanged"] + c["changed"] + c["moved"] + c["removed"] != len(old) or c[
            "unchanged"
        ] + c["changed"] + c["moved"] + c["added"] != len(new):
            problems.append(f"{old_date} -> {new_date}: counts do not add up")
        if {x.old_number for x in result.removed} & {x.old_number for x in result.moved}:
            problems.append(f"{old_date} -> {new_date}: a rule is both removed and moved")
        if args.samples:
            samples.append(sample_lines(old_date, new_date, result, old, new, args.samples))
    print_table(rows, args.markdown)
    totals = [sum(int(r[i]) for r in rows) for i in range(4, 10)]
    print(
        f"\ntotals over {len(rows)} pairs: "
        + ", ".join(f"{name} {value}" for name, value in zip(COLUMNS[4:10], totals))
    )
    print(
        "consistency: "
        + (
            "every old rule counted exactly once, nothing both removed and moved"
            if not problems
            else "; ".join(problems)
        )
    )
    for block in samples:
        print("\n" + block)
    return 1 if problems else 0


def print_table(rows: list[tuple], markdown: bool) -> None:
    if markdown:
        print("| " + " | ".join(COLUMNS) + " |")
        print("|" + "---|" * len(COLUMNS))
        for row in rows:
            print("| " + " | ".join(str(v) for v in row) + " |")
        return
    widths = [max(len(str(v)) for v in column) for column in zip(COLUMNS, *rows)]
    for row in (COLUMNS, *rows):
        print("  ".join(str(v).rjust(w) for v, w in zip(row, widths)))


def sample_lines(old_date, new_date, result: diffing.RulesDiff, old, new, n: int) -> str:
    def short(text: str) -> str:
        text = " ".join(text.split())
        return text if len(text) <= 110 else text[:107] + "..."

    lines = [f"== {old_date} -> {new_date}"]
    for c in result.moved[:n]:
        lines.append(
            f"  moved   {c.old_number} -> {c.new_number}{' (edited)' if c.edited else ''}: "
            f"{short(diffing.rule_content(new[c.new_number]))}"
        )
    for c in [m for m in result.moved if m.edited][:n]:
        lines.append(
            f"  moved+edited {c.old_number} -> {c.new_number}: "
            f"{short(diffing.render_word_diff_text(c.ops))}"
        )
    for c in result.changed[:n]:
        lines.append(f"  changed {c.old_number}: {short(diffing.render_word_diff_text(c.ops))}")
    for c in result.added[:n]:
        lines.append(f"  added   {c.new_number}: {short(diffing.rule_content(new[c.new_number]))}")
    for c in result.removed[:n]:
        lines.append(f"  removed {c.old_number}: {short(diffing.rule_content(old[c.old_number]))}")
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())
