"""Shared test fixtures: where the real rules documents are."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

RULES_DIR = Path(os.environ.get("JUDGEAPP_RULES_DIR", Path(__file__).resolve().parent.parent.parent / "shared" / "rules"))


def rules_files(kind: str) -> list[Path]:
    """Every real document of one kind (cr, mtr, ipg, jar), oldest first."""
    return sorted((RULES_DIR / kind).glob("*.*"))


@pytest.fixture(scope="session")
def rules_dir() -> Path:
    if not RULES_DIR.is_dir():
        pytest.fail(f"rules documents not found at {RULES_DIR} (set JUDGEAPP_RULES_DIR)")
    return RULES_DIR
