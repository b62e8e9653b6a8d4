"""Importing the computation engines must not start Django or Celery (STYLE 1)."""

from __future__ import annotations

import subprocess
import sys
import unittest
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
PYDANTIC = {
    "pydantic",
    "pydantic_core",
    "annotated_types",
    "typing_extensions",
    "typing_inspection",
}


class EngineBoundaryTests(unittest.TestCase):
    def test_engines_load_without_django(self) -> None:
        code = (
            "import sys, engines.loops, engines.games, engines.citations, "
            "engines.errors; print('django' in sys.modules, 'celery' in sys.modules)"
        )
        run = subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=REPO
        )
        self.assertEqual(run.stdout.strip(), "False False")

    def test_engines_import_only_the_standard_library_pydantic_and_each_other(self) -> None:
        # pydantic (pinned in requirements.txt) reads and describes the requests
        # (engines/validation.py).
        code = (
            "import sys; before = set(sys.modules); import engines.loops, engines.games, "
            "engines.shuffles; new = {m.split('.')[0] for m in set(sys.modules) - before}; "
            "print(sorted(m for m in new if m not in sys.stdlib_module_names and m != 'engines' "
            "and not m.startswith('_sysconfigdata')))"
        )
        run = subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=REPO
        )
        self.assertEqual(run.stdout.strip(), str(sorted(PYDANTIC)))
