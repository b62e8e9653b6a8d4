"""The search page shows the cards a question names, from the card table (the shipped Scryfall
fixture imported), above the rules that answer it."""

import json

import pytest

from tests.browser.test_guides_browser import judge, pytestmark, tablet_page  # noqa: F401
from tests.cards.conftest import CARDS, RULINGS


@pytest.fixture
def page(browser, judge):  # noqa: F811
    """A tablet page with no service worker: these tests work online, and a worker storing the
    offline kit kept the live server busy for seconds after each test."""
    with tablet_page(browser, judge["url"], cookie=judge["cookie"], service_workers="block") as tab:
        yield tab


def test_a_question_naming_a_card_shows_its_oracle_text_and_rulings_above_the_rules(
    page,  # noqa: F811 (the fixture)
    settings,
):
    from cards import services as card_services
    from search import card_source
    from search import service as search_service

    settings.SEARCH_VECTORS = False  # no worker computes vectors for this page
    card_services.import_bulk(CARDS, RULINGS)
    card_source.forget_cards()
    oracle = next(c for c in json.loads(CARDS.read_text("utf-8")) if c["name"] == "Thassa's Oracle")
    rulings = [
        r["comment"]
        for r in json.loads(RULINGS.read_text("utf-8"))
        if r["oracle_id"] == oracle["oracle_id"]
    ]

    # the index with the table's cards is built here, not within the page's time to load
    assert search_service.search_answer("Thassas Oracel")["cards"]
    page.goto("/search/?q=" + "My opponent resolves Thassas Oracel with an empty library")
    page.wait_for_selector(".named-card")
    card = page.locator(".named-card")
    assert card.count() == 1
    assert card.locator(".card-name").inner_text().startswith("Thassa's Oracle")
    assert card.locator(".type-line").inner_text() == oracle["type_line"]
    shown = " ".join(card.locator(".oracle-text").inner_text().split())
    assert shown == " ".join(oracle["oracle_text"].split())
    card.locator(".rulings summary").click()
    assert [li.split(" ", 1)[1] for li in card.locator(".rulings li").all_inner_texts()] == rulings
    # the card stands above the rules, and the rules are there
    above = page.evaluate(
        "() => !!(document.querySelector('.named-card').compareDocumentPosition("
        "document.querySelector('ul.results')) & Node.DOCUMENT_POSITION_FOLLOWING)"
    )
    assert above
    assert page.locator("ul.results a.hit").count() > 0
    # the card's name leads to its page
    page.click(".named-card .card-name a")
    page.wait_for_url("**/cards/**")
    assert "Thassa" in page.inner_text("h1")


def test_without_a_card_table_no_card_text_is_shown(page):  # noqa: F811 (the fixture)
    from search import service as search_service

    assert search_service.search_answer("Blood Moon")["cards"] == []  # the index, built here
    page.goto("/search/?q=" + "Blood Moon turns Urborg into a Mountain")
    page.wait_for_selector("ul.results a.hit")
    assert page.locator(".named-card").count() == 0
