"""Reading at arm's length (issue 30), in a real browser at tablet size (Debian's Chromium through
Playwright): the penalty first on a conclusion, the first shortcut question's answers grouped, an
old number that says where it went, the REL note inside the results panel with readable labels,
glossary links only where a word is the term, and a "What changed" page that is a page.

One page load per scenario. Skipped, saying why, where Playwright or Chromium is missing (see
tests/browser/test_guides_browser.py)."""

from __future__ import annotations

import re

import pytest

from tests.browser.guide_paths import conclusion_paths
from tests.browser.test_guides_browser import (  # noqa: F401 (fixtures; the browser: conftest.py)
    TABLET,
    all_guides,
    answer_button,
    no_horizontal_scroll,
    pytestmark,
    settled,
    tablet_page,
)
from tests.conftest import RULES_DIR, needs_history


@pytest.fixture
def site(rules_loaded, live_server):
    return live_server.url


@pytest.fixture
def history_site(rules_loaded, live_server):
    """The current CR and the one of 2022, paired: old numbers and release notes between them."""
    from rulesref import changes, services
    from rulesref.models import Version

    services.import_paths([RULES_DIR / "cr" / "MagicCompRules-20220429.txt"])  # stored, not current
    old, new = Version.objects.filter(document__slug="cr").order_by("effective_date")
    changes.pairing(old, new)
    return {"url": live_server.url, "old": old, "new": new}


def box(page, selector: str) -> dict:
    """Where an element sits in the document (not the viewport), and its font size in px."""
    return page.eval_on_selector(
        selector,
        """e => { const r = e.getBoundingClientRect();
                  return {top: r.top + scrollY, bottom: r.bottom + scrollY,
                          size: parseFloat(getComputedStyle(e).fontSize)}; }""",
    )


def test_a_conclusion_shows_the_penalty_first_and_largest(browser, site):  # noqa: F811
    guide = all_guides()["shortcut-disputes"]
    # The conclusion with the longest ruling: the one whose penalty was furthest down.
    node_id, answers = max(
        conclusion_paths(guide).items(), key=lambda item: len(guide.nodes[item[0]].ruling)
    )
    query = "&".join(f"a={a}" for a in answers)
    with tablet_page(browser, site) as page:
        page.goto(f"/guides/shortcut-disputes/?{query}")
        assert settled(page, len(answers))["node"] == node_id
        penalty = box(page, "#guide-step .conclusion tr.current td")
        ruling = box(page, "#guide-step .conclusion h2")
        assert penalty["bottom"] <= ruling["top"], (penalty, ruling)
        assert penalty["size"] > ruling["size"], (penalty, ruling)
        # the page opens at the conclusion: the penalty is on the first screen
        seen = page.eval_on_selector(
            "#guide-step .conclusion tr.current td", "e => e.getBoundingClientRect().bottom"
        )
        assert 0 < seen <= TABLET["height"]
        assert no_horizontal_scroll(page)


def test_every_answer_of_the_first_shortcut_question_is_within_a_screen(browser, site):  # noqa: F811
    guide = all_guides()["shortcut-disputes"]
    first = guide.nodes[guide.start]
    forgot = next(i for i, a in enumerate(first.answers) if a.label.startswith("Forgot a trigger"))
    with tablet_page(browser, site) as page:
        page.goto("/guides/shortcut-disputes/")
        settled(page, 0)
        headings = page.locator("#guide-step details.answer-group > summary")
        assert headings.count() >= 2
        for i in range(headings.count()):
            assert (
                box(page, f"#guide-step details.answer-group:nth-of-type({i + 1}) > summary")[
                    "bottom"
                ]
                <= TABLET["height"]
            )
        for index, answer in enumerate(first.answers):
            button = page.locator(f'#guide-step button.answer[data-index="{index}"]')
            group = page.locator(
                f'#guide-step details.answer-group:has(button.answer[data-index="{index}"])'
            )
            if not button.is_visible():
                group.locator("summary").click()
            assert button.inner_text().strip() == answer.label
            # one group open at a time: its answers sit right under the headings
            page.wait_for_function(
                "document.querySelectorAll('#guide-step details.answer-group[open]').length === 1"
            )
            bottom = box(page, f'#guide-step button.answer[data-index="{index}"]')["bottom"]
            assert bottom <= TABLET["height"] * 1.25, (answer.label, bottom)
        button = answer_button(page, forgot)
        button.click()
        assert settled(page, 1)["node"] == first.answers[forgot].next


@needs_history
def test_an_old_number_in_the_box_says_where_it_went_and_the_page_says_it_once(
    browser,
    history_site,  # noqa: F811
):
    from rulesref import old_numbers

    now = old_numbers.where_now(history_site["new"], "725.3")
    assert now is not None
    line = old_numbers.sentence("cr", now)  # "725.3 in the CR of 2022-04-29 is now 729.3"
    with tablet_page(browser, history_site["url"], service_workers="block") as page:
        page.goto("/")
        page.fill("#jump-q", "725.3")
        page.wait_for_selector("#jump-results .jump-hit")
        jump = page.inner_text("#jump-results .jump-hit")
        assert line in jump and f"CR {now['number']}" in jump, jump
        # digits searched as words ("725", "3") are not answers to a rule number
        assert page.locator("#jump-results a.hit:not(.jump-hit)").count() == 0
        page.click("#jump-results .jump-hit")
        page.wait_for_url(f"**/rules/cr/{now['number']}/?was=725.3")
        text = page.inner_text("main")
        assert text.count("725.3") == 1, re.findall(r".*725\.3.*", text)
        assert page.inner_text(".renumbered").strip() == line


def test_the_rel_note_is_in_the_results_panel_and_labels_are_readable(browser, site):  # noqa: F811
    from search import service

    service.warm()  # the index and the encoder, loaded before the page waits on its first search
    with tablet_page(browser, site, service_workers="block") as page:
        page.goto("/")
        page.fill("#jump-q", "opponent forgot his upkeep trigger, what's the fix")
        page.wait_for_selector("#jump-results .rel-note")
        assert page.locator("#jump-results .results .rel-note").count() == 1
        assert page.locator("#jump-results > .rel-note").count() == 0
        sizes = page.eval_on_selector_all(
            "#jump-results .hit .where, #jump-results .rel-note",
            "items => items.map(e => parseFloat(getComputedStyle(e).fontSize))",
        )
        assert sizes and min(sizes) >= 16, sizes


def test_glossary_links_skip_ordinary_words(browser, site):  # noqa: F811
    from rulesref.models import Rule
    from rulesref.pages import content

    ordinary = (
        Rule.objects.filter(
            version__is_current=True,
            version__document__slug="ipg",
            text__contains="demonstrate awareness",
        )
        .select_related("version__document")
        .first()
    )
    assert ordinary is not None
    with tablet_page(browser, site) as page:
        page.goto(content.rule_url("ipg", ordinary.number))
        linked = page.eval_on_selector_all(
            "main a.term", "links => links.map(a => a.textContent.trim())"
        )
        assert linked, "the page links no glossary term at all"
        assert not {w for w in linked if w.casefold() in ("demonstrate", "case")}, linked


@needs_history
def test_what_changed_is_a_page_with_filters(browser, history_site):  # noqa: F811
    from rulesref import changes

    moved = [
        n
        for n in changes.release_notes(history_site["old"], history_site["new"])
        if n["kind"] == "moved"
    ]
    assert moved
    with tablet_page(browser, history_site["url"]) as page:
        page.goto(f"/changes/cr/{history_site['new'].effective_date}/")
        height = page.evaluate("document.documentElement.scrollHeight")
        assert height < 40_000, height  # 167,813 px before
        assert no_horizontal_scroll(page)
        with page.expect_navigation():
            page.select_option(".change-filters select[name=kind]", "moved")
        assert "kind=moved" in page.url
        kinds = page.eval_on_selector_all("li.change", "items => items.map(i => i.className)")
        assert kinds and all("change-moved" in k for k in kinds), set(kinds)
        assert f"of {len(moved)} matching" in page.inner_text(".change-range")
