"""Taps that must not lose work, in a real browser at tablet size (issue 30): the round clock's
Start and End ask first and its buttons do not look alike, its warning line says the minutes the
clock shows; the deck check's New is apart from Undo and undoable, and Undo survives a reload;
signing in from a guide's conclusion comes back to it; the system Back after the in-app Back
leaves the walk.

Skipped, like every browser test, when Playwright or Chromium is missing (test_guides_browser)."""

from __future__ import annotations

import datetime as dt

import pytest

from tests.browser.test_guides_browser import SHOTS, pytestmark, tablet_page  # noqa: F401


@pytest.fixture
def page(browser, judge):  # noqa: F811
    """A tablet page with no service worker: these tests work online, and a worker storing the
    offline kit kept the live server busy for seconds after each test."""
    with tablet_page(browser, judge["url"], cookie=judge["cookie"], service_workers="block") as tab:
        yield tab


def clock_page(page, judge) -> str:
    url = f"/events/{judge['event'].pk}/clock/"
    page.goto(url)
    page.wait_for_selector("#round-clock[data-state]")
    return url


def box(page, selector: str) -> dict:
    return page.locator(selector).bounding_box()


class RoundClockTapsTests:
    def test_start_and_end_ask_first_and_a_second_start_does_not_restart(self, page, judge):
        from floor.models import RoundClock

        clock_page(page, judge)
        # Three kinds of button, far apart: Start filled, the adjustments outlined, End in red.
        look = page.evaluate(
            """() => Object.fromEntries(["start", "pause", "resume", "add", "end"].map(a => {
                const s = getComputedStyle(document.querySelector(`[data-action=${a}]`));
                return [a, [s.backgroundColor, s.color, s.borderTopColor].join(" ")];
            }))"""
        )
        assert look["pause"] == look["resume"] == look["add"]
        assert len({look["start"], look["pause"], look["end"]}) == 3, look
        assert (
            box(page, "[data-action=pause]")["x"]
            - (box(page, "[data-action=start]")["x"] + box(page, "[data-action=start]")["width"])
            >= 24
            or box(page, "[data-action=pause]")["y"] > box(page, "[data-action=start]")["y"]
        )
        assert (
            box(page, "[data-action=end]")["x"]
            - (box(page, "[data-action=add]")["x"] + box(page, "[data-action=add]")["width"])
            >= 24
            or box(page, "[data-action=end]")["y"] > box(page, "[data-action=add]")["y"]
        )

        page.fill("#clock-controls input[name=round]", "3")
        page.click("[data-action=start]")
        assert page.locator("#clock-confirm").is_visible()
        assert "Start round 3 (50 minutes)" in page.inner_text("#clock-confirm-text")
        assert not RoundClock.objects.exists()  # one tap did nothing yet
        page.click("#clock-confirm [data-cancel]")
        assert page.locator("#clock-confirm").is_hidden()
        assert not RoundClock.objects.exists()
        page.click("[data-action=start]")
        page.click("#clock-confirm [data-confirm]")
        page.wait_for_selector("#round-clock[data-state=running]")
        started = RoundClock.objects.get()
        assert started.round == 3

        # A second tap on Start while the round runs asks to restart it, at full time.
        page.click("[data-action=start]")
        asked = page.inner_text("#clock-confirm-text")
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / "clock-restart-asked.png"))
        assert asked.startswith("Round 3 is running with") and "Restart it" in asked, asked
        assert page.inner_text("#clock-confirm [data-confirm]") == "Restart at full time"
        page.click("#clock-confirm [data-cancel]")
        assert RoundClock.objects.count() == 1

        page.click("[data-action=end]")
        assert "End round 3 now" in page.inner_text("#clock-confirm-text")
        started.refresh_from_db()
        assert started.ended_at is None
        page.click("#clock-confirm [data-confirm]")
        page.wait_for_selector("#round-clock[data-state=ended]")
        started.refresh_from_db()
        assert started.ended_at is not None

    def test_the_warning_says_the_minutes_the_clock_shows(self, page, judge):
        from django.utils import timezone

        from floor.models import RoundClock

        event = judge["event"]
        clock = RoundClock.objects.create(
            event=event, round=2, minutes=50, started_at=timezone.now(), started_by=judge["user"]
        )
        seen = []
        for left in (7 * 60 + 40, 100, 45):
            # as much time left as asked, give or take the page load
            RoundClock.objects.filter(pk=clock.pk).update(
                started_at=timezone.now() - dt.timedelta(seconds=50 * 60 - left)
            )
            clock_page(page, judge)
            page.wait_for_selector("#clock-warning:not([hidden])")
            shown, said = page.evaluate(
                """() => [document.getElementById("clock-time").innerText,
                          document.getElementById("clock-warning").innerText]"""
            )
            whole = int(shown.split(":")[0])
            expected = {0: "Less than a minute left", 1: "1 minute left"}.get(
                whole, f"{whole} minutes left"
            )
            assert said == expected, (shown, said)
            seen.append(said)
        assert seen == ["7 minutes left", "1 minute left", "Less than a minute left"]


class DeckCheckTapsTests:
    def test_new_is_apart_from_undo_and_undoable_and_undo_survives_a_reload(self, page, judge):
        page.goto("/tools/deck-check/")
        for field in ("player", "sideboard"):  # thumb-size, like every other target
            assert box(page, f"#deck-check input[name={field}]")["height"] >= 44, field
        undo, new = box(page, "#deck-undo"), box(page, "#deck-reset")
        apart = max(new["y"] - (undo["y"] + undo["height"]), new["x"] - (undo["x"] + undo["width"]))
        assert apart >= 24, (undo, new)

        page.fill("#deck-check input[name=player]", "Ana Silva")
        lands = page.locator("tr[data-type=Lands]")
        lands.locator(".registered").fill("3")
        for _ in range(2):
            lands.locator(".plus").click()
        # A count that does not match says so in words, not only by colour.
        assert lands.locator(".off-mark").is_visible()
        assert lands.locator(".off-mark").inner_text() == "1 short"
        lands.locator(".plus").click()
        assert lands.locator(".off-mark").is_hidden()
        page.locator("tr[data-type=Creatures] .plus").click()

        page.reload()  # the Undo history is kept on the tablet
        page.click("#deck-undo")
        assert page.inner_text("tr[data-type=Creatures] .counted") == "0"
        page.click("#deck-reset")
        assert page.inner_text("tr[data-type=Lands] .counted") == "0"
        assert page.input_value("#deck-check input[name=player]") == ""
        assert "Undo brings back" in page.inner_text("#deck-status")

        page.reload()
        page.click("#deck-undo")  # New is undone, after a reload too
        assert page.inner_text("tr[data-type=Lands] .counted") == "3"
        assert page.input_value("#deck-check input[name=player]") == "Ana Silva"
        assert page.inner_text("#deck-verdict") == "Matches"
        page.click("#deck-undo")
        assert page.inner_text("tr[data-type=Lands] .counted") == "2"
        assert page.inner_text("tr[data-type=Lands] .off-mark") == "1 short"
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.emulate_media(color_scheme="dark")
        page.screenshot(path=str(SHOTS / "deck-check-off.png"), full_page=True)


def short_walk(slug: str = "shortcut-disputes"):
    """A guide and the shortest answers (two at least) that reach one of its conclusions."""
    from tests.browser.guide_paths import conclusion_paths
    from tests.browser.test_guides_browser import all_guides

    guide = all_guides()[slug]
    paths = [(node, answers) for node, answers in conclusion_paths(guide).items() if answers]
    node_id, answers = min(
        (item for item in paths if len(item[1]) >= 2), key=lambda item: len(item[1])
    )
    return guide, node_id, answers


class GuideWalkTapsTests:
    def test_signing_in_from_a_conclusion_comes_back_to_it(self, browser, judge):
        from tests.browser.test_guides_browser import give, settled, tablet_page

        guide, node_id, answers = short_walk()
        with tablet_page(browser, judge["url"]) as page:  # not signed in
            page.goto(f"/guides/{guide.slug}/")
            assert give(page, guide, answers)["node"] == node_id
            page.click("#guide-step a:has-text('Sign in to save calls')")
            page.fill("input[name=username]", "tablet-judge")
            page.fill("input[name=password]", "pw-tablet-judge")
            page.click("form.check button[type=submit]")
            page.wait_for_url(f"**/guides/{guide.slug}/**")
            step = settled(page, len(answers))
            assert step["node"] == node_id
            assert page.locator("#guide-trail li").count() == len(answers)
            # signed in now: the conclusion offers to save the call
            assert page.locator("#guide-step a:has-text('Sign in to save calls')").count() == 0
            assert page.locator("#guide-step .save-call").count() == 1

    def test_the_system_back_after_the_in_app_back_leaves_the_step(self, page, judge):
        from tests.browser.test_guides_browser import give, settled

        guide, node_id, answers = short_walk()
        page.goto("/guides/")
        page.goto(f"/guides/{guide.slug}/")
        give(page, guide, answers[:2])
        page.click("#guide-nav button.back")
        assert settled(page, 1)
        page.go_back()  # the tablet's own Back: to the first question, not the step just left
        assert settled(page, 0)
        assert "a=" not in page.url
        page.go_back()  # and then out of the walk
        page.wait_for_url("**/guides/")


HEIGHTS = "(s) => [...document.querySelectorAll(s)].map(a => a.getBoundingClientRect().height)"


class TouchTargetTests:
    def test_the_home_pages_titles_and_a_calls_citations_are_as_tall_as_a_button(self, page, judge):
        from calllog import recording

        page.goto("/")
        heights = page.evaluate(HEIGHTS, ".card h2 a")
        assert heights and min(heights) >= 44, heights
        call, _ = recording.record_call(
            judge["user"],
            judge["event"],
            {
                "client_id": "0d6c1b9e-7f7a-4d1e-9a53-3c8f2a1b4e10",
                "infraction": "3.3",
                "players": ["Ana Costa"],
            },
        )
        page.goto(f"/events/{judge['event'].pk}/calls/{call.pk}/")
        links = page.evaluate(HEIGHTS, ".citations a")
        assert links and min(links) >= 44, links
