"""Runs static/judgeapp/offline-search.js under node for the tests: one process per batch of calls."""

from __future__ import annotations

import json
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

ENGINE = Path(__file__).resolve().parents[3] / "static" / "judgeapp" / "offline-search.js"
NODE = shutil.which("node")

needs_node = pytest.mark.skipif(NODE is None, reason="node is not installed (apt-get install nodejs) to run the offline search engine")

_RUNNER = """
const S = require(process.argv[2]);
const input = JSON.parse(require('fs').readFileSync(process.argv[3], 'utf8'));
const engine = input.pack ? S.engine(input.pack) : null;
const out = input.calls.map(([name, args]) => {
  if (name === 'search') return engine.search(args[0], args[1] || {});
  if (name === 'resolve') return engine.resolve(args[0]);
  if (name === 'rule') return engine.rule(args[0], args[1]);
  if (name === 'readPeople') return engine.readPeople(args[0]);
  if (name === 'words') return S.words(args[0]);
  if (name === 'stem') return S.stem(args[0]);
  if (name === 'normalizeNumber') return S.normalizeNumber(args[0], args[1]);
  throw new Error('unknown call ' + name);
});
process.stdout.write(JSON.stringify(out));
"""


def run_engine(calls: list[tuple[str, list]], pack: dict | None = None) -> list:
    """The engine's answers to `calls` ([("search", ["deck out", {"limit": 5}]), ...]), in order."""
    with tempfile.TemporaryDirectory() as folder:
        runner, data = Path(folder) / "run.js", Path(folder) / "input.json"
        runner.write_text(_RUNNER)
        data.write_text(json.dumps({"pack": pack, "calls": calls}, ensure_ascii=False))
        done = subprocess.run([NODE, str(runner), str(ENGINE), str(data)], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)
