"""The round clock when time is up, in a real browser: MTR 2.5, "If a judge assigned a time
extension ... the end-of-match procedure does not begin until the end of the time extension", so
the clock does not announce it for the tables that have one.

Skipped, like every browser test, when Playwright or Chromium is missing (test_guides_browser)."""

from __future__ import annotations

import datetime as dt
import uuid

import pytest

from tests.browser.test_guides_browser import pytestmark, tablet_page  # noqa: F401
from tests.browser.test_taps_browser import clock_page


@pytest.fixture
def page(browser, judge):  # noqa: F811
    """A tablet page with no service worker: these tests work online, and a worker storing the
    offline kit kept the live server busy for seconds after each test."""
    with tablet_page(browser, judge["url"], cookie=judge["cookie"], service_workers="block") as tab:
        yield tab


def round_over(judge, round_number: int):
    from django.utils import timezone

    from floor.models import RoundClock

    return RoundClock.objects.create(
        event=judge["event"],
        round=round_number,
        minutes=50,
        started_at=timezone.now() - dt.timedelta(minutes=51),
        started_by=judge["user"],
    )


def time_up_words(page) -> str:
    page.wait_for_selector("#round-clock[data-state=over]")
    page.wait_for_selector("#clock-warning:not([hidden])")
    return page.inner_text("#clock-warning")


class RoundClockTimeUpTests:
    def test_time_up_is_not_announced_for_tables_with_a_time_extension(self, page, judge):
        from django.utils import timezone

        from calllog.models import Call

        round_over(judge, 4)
        Call.objects.create(
            event=judge["event"],
            judge=judge["user"],
            client_id=uuid.uuid4(),
            guide="deck-problem",
            conclusion="done",
            table="12",
            round=4,
            time_extension=5,
            created_at=timezone.now(),
        )
        clock_page(page, judge)
        said = time_up_words(page)
        assert "begins at every table without a time extension (MTR 2.5)" in said, said
        assert "only when its extension ends: Table 12 (+5 min)." in said, said
        assert "Time is up: the end-of-match procedure begins (MTR 2.5)." != said

    def test_with_no_extension_time_up_begins_the_end_of_match_procedure(self, page, judge):
        round_over(judge, 5)
        clock_page(page, judge)
        assert time_up_words(page) == "Time is up: the end-of-match procedure begins (MTR 2.5)."
