"""The jump box in a real browser (Debian's Chromium through Playwright): a judge types a number
from an older printout, 725.3 of the 2022 CR, and lands on 729.3 of the current CR with a line
saying where it came from. Skipped, saying why, where Playwright or Chromium is missing (see
tests/browser/test_guides_browser.py)."""

from __future__ import annotations

import pytest

from tests.browser.test_guides_browser import no_horizontal_scroll, pytestmark, tablet_page  # noqa: F401 (fixtures; the browser: conftest.py)
from tests.conftest import RULES_DIR, needs_history


@pytest.fixture
def site(rules_loaded, live_server):
    from rulesref import changes, services
    from rulesref.models import Version

    services.import_paths([RULES_DIR / "cr" / "MagicCompRules-20220429.txt"])  # stored, not current
    old, new = Version.objects.filter(document__slug="cr").order_by("effective_date")
    changes.pairing(old, new)
    return live_server.url


@needs_history
def test_typing_an_old_number_in_the_box_opens_the_rule_it_became(browser, site):  # noqa: F811
    with tablet_page(browser, site, service_workers="block") as page:
        page.goto("/")
        page.fill("#jump-q", "725.3")
        page.press("#jump-q", "Enter")
        page.wait_for_url("**/rules/cr/729.3/?was=725.3")
        line = page.locator(".renumbered")
        assert line.inner_text().strip() == "725.3 in the CR of 2022-04-29 is now 729.3"
        assert line.is_visible() and no_horizontal_scroll(page)
        assert "Taking Shortcuts" in page.inner_text("nav.crumbs")
