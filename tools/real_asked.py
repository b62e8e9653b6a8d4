"""Write the real questions read as asked-as questions the search ships (search/questions/real).

    make search-real-asked      # = .venv/bin/python tools/real_asked.py, then make search-vectors

The real questions the bench has measured and read (bench/search_sets.READ: people's questions from
public pages, each with its source address and the sections of the current documents that decide it,
checked against their text) become asked-as questions of those sections (search.asked, kind =
"real"), one file per document, pinned to the document version the keys were checked against (the
newest of each kind in the shipped rules/ folder). A blind set not yet measured (search_sets.BLIND)
is never written: it is added to READ once measured, and this is run again. `--check` writes nothing
and exits 1 when the files shipped are not what would be written.
"""

from __future__ import annotations

import argparse
import json
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import search_sets  # noqa: E402

from rulesref.parsing.documents import parse_document  # noqa: E402
from search import asked  # noqa: E402

SHIPPED_RULES = ROOT / "rules"


def versions(rules_dir: Path = SHIPPED_RULES) -> dict[str, str]:
    """Document -> the effective date of the newest shipped version of it (ISO)."""
    out = {}
    for doc in asked.DOCS:
        files = sorted((rules_dir / doc).glob("*.*"))
        if files:
            out[doc] = parse_document(files[-1].read_bytes(), str(files[-1])).effective_date
    return {doc: date.isoformat() for doc, date in out.items()}


def files(read: dict[str, Path], pinned: dict[str, str]) -> dict[str, str]:
    """File name -> text of the real asked-as files for the question sets `read`: every question
    under every section that answers it, in the sets' order, each once per section."""
    by_doc: dict[str, dict[str, list[str]]] = {}
    for path in read.values():
        for q in tomllib.loads(path.read_text(encoding="utf-8"))["question"]:
            text = asked.normalized(q["q"])
            for key in q["answers"]:
                doc, number = key.split(":", 1)
                listed = by_doc.setdefault(doc, {}).setdefault(number, [])
                if text not in listed:
                    listed.append(text)
    out = {}
    for doc in sorted(by_doc):
        if doc not in pinned:
            raise SystemExit(f"no shipped {doc} document to pin the real {doc} questions to")
        head = (
            f"# Real questions people posted on public pages, as the asker wrote them, filed under"
            f" the sections\n# of the {doc.upper()} of {pinned[doc]} that decide them. Written by"
            " tools/real_asked.py from bench/real_questions\n# (its files hold each question's"
            f" source address); do not edit: run `make search-real-asked`.\n"
            f"# Parts: {', '.join(read)}.\n\n"
        )
        body = "".join(
            f"{json.dumps(number)} = [\n" + "".join(f"  {json.dumps(t)},\n" for t in listed) + "]\n"
            for number, listed in by_doc[doc].items()
        )
        out[f"{doc}.toml"] = (
            f'{head}doc = "{doc}"\nversion = "{pinned[doc]}"\nkind = "real"\n\n[questions]\n{body}'
        )
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=asked.REAL_DIR)
    parser.add_argument("--check", action="store_true", help="compare, write nothing")
    args = parser.parse_args()
    wanted = files(search_sets.READ, versions())
    if args.check:
        have = {p.name: p.read_text(encoding="utf-8") for p in sorted(args.out.glob("*.toml"))}
        if have != wanted:
            raise SystemExit(f"{args.out} is not what tools/real_asked.py writes: run it")
        print(f"{args.out}: up to date")
        return
    args.out.mkdir(parents=True, exist_ok=True)
    for stale in set(p.name for p in args.out.glob("*.toml")) - set(wanted):
        (args.out / stale).unlink()
    for name, text in wanted.items():
        (args.out / name).write_text(text, encoding="utf-8")
        parsed = asked.parse_asked(text, str(args.out / name))
        print(f"{args.out / name}: {parsed.count} questions on {len(parsed.questions)} sections")


if __name__ == "__main__":
    main()
