"""The browser fixtures (Chromium, a signed-in judge with a Competitive event, a tablet-size page),
defined with the guide walks in test_guides_browser and shared with every browser test here."""

from tests.browser.test_guides_browser import browser, judge, page  # noqa: F401
