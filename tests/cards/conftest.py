"""The shipped Scryfall fixture, imported."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "scryfall"
CARDS, RULINGS = FIXTURE / "oracle-cards.json", FIXTURE / "rulings.json"
# The finish time the fixture's import is given: the same cards imported in every test then carry
# the same search card stamp (cards.services.card_stamp), so the search index built with them for
# one test is loaded from the run's index cache (tests/conftest.py) by the next instead of
# built again.
FINISHED = dt.datetime(2026, 1, 1, tzinfo=dt.UTC)


@pytest.fixture
def imported(db):
    from cards import services
    from cards.models import CardSync
    from search import card_source

    services.forget_names()
    outcome = services.import_bulk(CARDS, RULINGS)
    CardSync.objects.filter(pk=outcome.sync.pk).update(finished_at=FINISHED)
    card_source.forget_cards()
    return outcome
