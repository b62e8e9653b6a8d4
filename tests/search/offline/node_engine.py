"""Runs static/judgeapp/offline-search.js under node for the tests: every batch of calls answered by
the test process's one node process (tests/node_process.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.node_process import NODE, run_node, script_path

ENGINE = Path(__file__).resolve().parents[3] / "static" / "judgeapp" / "offline-search.js"

needs_node = pytest.mark.skipif(
    NODE is None,
    reason="node is not installed (apt-get install nodejs) to run the offline search engine",
)

_RUNNER = f"""
const S = require({script_path(ENGINE)});
const engine = input.pack ? S.engine(input.pack) : null;
return input.calls.map(([name, args]) => {{
  if (name === 'search') return engine.search(args[0], args[1] || {{}});
  if (name === 'resolve') return engine.resolve(args[0]);
  if (name === 'rule') return engine.rule(args[0], args[1]);
  if (name === 'readPeople') return engine.readPeople(args[0]);
  if (name === 'words') return S.words(args[0]);
  if (name === 'stem') return S.stem(args[0]);
  if (name === 'cardWords') return S.cardWords(args[0], args[1]);
  if (name === 'normalizeNumber') return S.normalizeNumber(args[0], args[1]);
  throw new Error('unknown call ' + name);
}});
"""


def run_engine(calls: list[tuple[str, list]], pack: dict | None = None) -> list:
    """The engine's answers to `calls` ([("search", ["deck out", {"limit": 5}]), ...]), in order."""
    return run_node(_RUNNER, {"pack": pack, "calls": calls}, timeout=120)
