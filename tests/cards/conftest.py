"""The shipped Scryfall fixture, imported."""

from __future__ import annotations

from pathlib import Path

import pytest

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "scryfall"
CARDS, RULINGS = FIXTURE / "oracle-cards.json", FIXTURE / "rulings.json"


@pytest.fixture
def imported(db):
    from cards import services

    services.forget_names()
    return services.import_bulk(CARDS, RULINGS)
