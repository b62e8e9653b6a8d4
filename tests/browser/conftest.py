"""The browser fixtures: one Chromium for the whole test session (each test opens its own context),
and a signed-in judge with a Competitive event and a tablet-size page, defined with the guide walks
in test_guides_browser and shared with every browser test here."""

import os

import pytest

from tests.browser.test_guides_browser import ARGS, CHROMIUM, judge, page, sync_playwright  # noqa: F401


@pytest.fixture(scope="session")
def browser():
    # Playwright's sync API runs an event loop in this thread; the ORM calls the tests make between
    # browser steps are ordinary synchronous calls, not made from inside that loop.
    previous = os.environ.get("DJANGO_ALLOW_ASYNC_UNSAFE")
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield launched
        launched.close()
    if previous is None:
        os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
    else:
        os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = previous
