"""The infraction finder and the hand-overs to it, in a real browser at tablet size (skipped, saying
why, where Playwright or Chromium is missing: see test_guides_browser)."""

from __future__ import annotations

import re

import pytest

from tests.browser.guide_paths import conclusion_paths
from tests.browser.test_guides_browser import (  # noqa: F401
    all_guides,
    give,
    judge,
    pytestmark,
    settled,
    tablet_page,
)


@pytest.fixture
def page(browser, judge):  # noqa: F811
    """A tablet page with no service worker: these tests work online, and a worker storing the
    offline kit kept the live server busy for seconds after each test."""
    with tablet_page(browser, judge["url"], cookie=judge["cookie"], service_workers="block") as tab:
        yield tab


def test_a_finder_conclusion_shows_its_upgrades_and_cites_the_jar_by_heading(page):  # noqa: F811 (the fixture)
    guide = all_guides()["infraction-finder"]
    answers = conclusion_paths(guide)["sp-shuffle"]
    page.goto("/guides/infraction-finder/")
    settled(page, 0)
    step = give(page, guide, answers)
    assert step["node"] == "sp-shuffle"
    upgrades = page.inner_text("#guide-step ul.upgrades")
    assert "second Warning for Slow Play" in upgrades and "Game Loss" in upgrades
    cited = page.inner_text("#guide-step .citations")
    assert "JAR: General Unwanted Behaviors" in cited and "IPG 3.3" in cited
    assert not re.search(r"JAR (?:\d|Introduction)", page.inner_text("#guide-step"))


def test_a_guide_hands_over_to_the_finder_at_its_question(page):  # noqa: F811 (the fixture)
    guide = all_guides()["drawing-and-mulligans"]
    answers = conclusion_paths(guide)["ftmgs"]
    page.goto("/guides/drawing-and-mulligans/")
    settled(page, 0)
    assert give(page, guide, answers)["node"] == "ftmgs"
    link = page.locator("#guide-step .see-also a")
    assert "Infraction finder" in link.inner_text()
    link.click()
    page.wait_for_url(re.compile(r"/guides/infraction-finder/"))
    step = settled(page, 1)  # one answer: "A game action went wrong"
    assert step == {"node": "gpe", "kind": "question", "offline": "no"}
