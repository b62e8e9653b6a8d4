"""The floor judge's kit offline, in a real browser (Debian's Chromium through Playwright) at tablet
size: open the site once, lose the network, and the number box, search, rules pages never opened,
contents and glossary still answer from the copy on the device; a publish replaces that copy the
next time the tablet is online; the site installs as an app.

Skipped when Playwright or the browser is missing (see tests/browser/test_guides_browser.py).
"""

from __future__ import annotations

import contextlib
import json
import time

import pytest

from tests.browser.test_guides_browser import SHOTS, TABLET, pytestmark, tablet_page  # noqa: F401  (the browser fixture: tests/browser/conftest.py)
from tests.conftest import HAS_HISTORY, RULES_DIR, needs_history

try:
    from playwright.sync_api import TimeoutError as PlaywrightTimeout
except ImportError:  # pragma: no cover - the module is skipped without Playwright
    PlaywrightTimeout = TimeoutError

PACK_STATE = """() => caches.open("judgeapp-pack").then(c => c.match("/offline/manifest.json"))
    .then(r => r ? r.json() : null)"""


@pytest.fixture
def site(rules_loaded, live_server):
    """The 2025 CR current with the 2022 CR stored and paired (old numbers lead to new ones)."""
    from rulesref import changes, services
    from rulesref.models import Version
    from search import card_source
    from search.offline import service

    if HAS_HISTORY:  # the tests of old numbers are marked needs_history
        if not Version.objects.filter(document__slug="cr", effective_date="2022-04-29").exists():
            services.import_paths([RULES_DIR / "cr" / "MagicCompRules-20220429.txt"])
        old = Version.objects.get(document__slug="cr", effective_date="2022-04-29")
        new = Version.objects.get(document__slug="cr", is_current=True)
        changes.pairing(old, new)
    # The card table was emptied after the last test (the database flush); the stamp read then is
    # kept for card_source.RECHECK_SECONDS, so without this the test could build its pack under the
    # last test's cards and the server, seconds later, another.
    card_source.forget_cards()
    service.forget_packs()
    return live_server.url


@pytest.fixture
def online_page(browser, site):
    """A tablet page with no service worker, for what needs no offline copy (one storing the kit
    keeps the live server busy for seconds)."""
    with tablet_page(browser, site, service_workers="block") as tab:
        yield tab


@pytest.fixture
def page(browser, site):
    with tablet_page(browser, site, timeout=20000) as tab:
        yield tab


def wait_for_copy(page, version: str | None = None, timeout: float = 60) -> dict:
    """Until the service worker has stored a pack (of `version`, when given); the stored note."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        state = page.evaluate(PACK_STATE)
        if (
            state
            and (version is None or state["version"] == version)
            and page.evaluate("navigator.serviceWorker.controller !== null")
        ):
            return state
        time.sleep(0.25)
    server = page.evaluate(
        "() => fetch('/offline/manifest.json').then(r => r.status + ' ' + r.statusText).catch(e "
        "=> String(e))"
    )
    raise AssertionError(
        f"the service worker did not store the offline copy {version or ''}: it keeps {state}; "
        f"the manifest answers {server}"
    )


def live_results(page, query: str) -> list[str]:
    page.fill("#jump-q", "")
    page.type("#jump-q", query)
    page.wait_for_selector("#jump-results .results a.hit", timeout=10000)
    return page.eval_on_selector_all(
        "#jump-results .results a.hit .num", "els => els.map(e => e.textContent.trim())"
    )


def seconds(shown: str) -> int:
    """mm:ss as the clock shows it, in seconds."""
    minutes, secs = shown.strip().split(":")
    return int(minutes) * 60 + int(secs)


class OfflineKitTests:
    @needs_history
    def test_rules_and_search_answer_offline_from_the_copy_on_the_device(self, page):
        from search.offline import service

        # built here first: SQLite in memory is one writer at a time
        version = service.current_pack().version
        page.goto("/")
        kept = wait_for_copy(page, version)
        assert {d["doc"] for d in kept["documents"]} >= {"cr"}
        assert page.is_hidden("#offline-badge")

        page.context.set_offline(True)
        page.wait_for_selector("#offline-badge:not([hidden])")
        assert page.inner_text("#offline-badge").startswith("Offline: searching the copy from ")

        # Results as you type come from the on-device index.
        hits = live_results(page, "deck out")
        assert {"121.4", "704.5b"} <= set(hits[:3]), hits
        assert "Offline: searching the copy" in page.inner_text("#jump-results")
        page.screenshot(path=str(SHOTS / "offline-deck-out.png"))

        # The number box: an old number leads to where the rule stands now.
        page.fill("#jump-q", "725.3")
        page.press("#jump-q", "Enter")
        page.wait_for_url("**/rules/cr/729.3/**")
        page.wait_for_selector(".moved-from")
        assert "725.3 in the version of 2022-04-29 is now 729.3" in page.inner_text(".moved-from")
        assert "loop" in page.inner_text("article#r-729\\.3").lower()
        page.screenshot(path=str(SHOTS / "offline-725-3.png"))

        # A rule never opened on this tablet, with its subrules and example.
        page.goto("/rules/cr/702.19/")
        page.wait_for_selector("article#r-702\\.19b")
        assert "Trample" in page.inner_text("h1")
        # The search page, the contents and the glossary.
        page.goto("/search/?q=" + "missed trigger")
        page.wait_for_selector("#offline-reader .results a.hit")
        assert "IPG" in page.inner_text("#offline-reader .results")
        page.goto("/rules/mtr/")
        page.wait_for_selector("#offline-reader .list a.row")
        page.goto("/glossary/Trample/")
        page.wait_for_selector("#offline-reader .definition")
        # A page outside the rules that was never opened still says plainly that it needs
        # the network.
        page.goto("/changes/cr/")
        assert "Offline" in page.inner_text("h1")

    def test_jar_sections_are_named_by_their_situation_offline(self, page):
        """The JAR prints no numbers (rulesref/naming.py): offline, its pages, contents and hits
        name its sections by their headings; the addresses keep the stored numbers."""
        from rulesref.models import Rule
        from search.offline import service

        situation = Rule.objects.filter(
            version__document__slug="jar", version__is_current=True, kind="rule"
        ).order_by("position")[2]
        version = service.current_pack().version
        page.goto("/")
        wait_for_copy(page, version)
        page.context.set_offline(True)
        page.wait_for_selector("#offline-badge:not([hidden])")
        page.goto(f"/rules/jar/{situation.number}/")
        page.wait_for_selector(
            f"#offline-reader article#r-{situation.number.replace('.', chr(92) + '.')}"
        )
        assert page.inner_text("#offline-reader h1").strip() == situation.title
        assert page.title().startswith(situation.title)
        named = (
            page.inner_text("#offline-reader .crumbs")
            + page.inner_text("#offline-reader h1")
            + page.title()
        )
        assert situation.number not in named and situation.parent not in named.replace(
            situation.title, ""
        ), named
        page.goto("/rules/jar/")
        page.wait_for_selector("#offline-reader .list a.row")
        assert page.eval_on_selector_all("#offline-reader .list .num", "els => els.length") == 0
        page.goto("/search/?q=" + "drew extra cards" + "&doc=jar")
        page.wait_for_selector("#offline-reader .results a.hit")
        assert (
            page.eval_on_selector_all(
                "#offline-reader .results .hit-head .num", "els => els.length"
            )
            == 0
        )
        assert (
            page.eval_on_selector_all(
                "#offline-reader .results .hit-head .title", "els => els.length"
            )
            > 0
        )

    @needs_history
    def test_a_publish_replaces_the_copy_the_next_time_the_tablet_is_online(self, page):
        from rulesref import services
        from rulesref.models import Version
        from search.offline import service

        version = service.current_pack().version
        page.goto("/")
        first = wait_for_copy(page, version)
        current = Version.objects.get(document__slug="cr", is_current=True)
        older = Version.objects.get(document__slug="cr", effective_date="2022-04-29")
        services.publish_version(older)
        try:
            newer = service.current_pack().version
            assert newer != first["version"]
            page.context.set_offline(True)
            page.reload()
            # offline: the copy kept stays
            assert wait_for_copy(page)["version"] == first["version"]
            page.context.set_offline(False)
            page.goto("/glossary/")
            kept = wait_for_copy(page, newer)
            assert (
                next(d for d in kept["documents"] if d["doc"] == "cr")["effective_date"]
                == "2022-04-29"
            )
            stored = page.evaluate(
                """() => caches.open("judgeapp-pack").then(c => c.keys()).then(ks => ks.map(k """
                """=> new URL(k.url).pathname))"""
            )
            # one copy of the rules (the old one is gone) beside the cards
            assert sorted(stored) == [
                "/offline/cards-manifest.json",
                "/offline/cards.json",
                "/offline/manifest.json",
                "/offline/pack.json",
            ]
            page.context.set_offline(True)
            page.goto("/jump/?q=725.3")
            # the 2022 CR is the copy now: 725.3 is itself
            page.wait_for_selector("article#r-725\\.3")
        finally:
            services.publish_version(current)

    def test_the_site_installs_as_an_app_that_opens_offline(self, page):
        from search.offline import service

        version = service.current_pack().version
        page.goto("/")
        wait_for_copy(page, version)
        manifest = page.evaluate(
            "() => fetch(document.querySelector('link[rel=manifest]').href).then(r => r.json())"
        )
        assert manifest["display"] == "standalone" and manifest["start_url"].startswith("/")
        for icon in manifest["icons"]:
            size = page.evaluate(
                """src => new Promise(ok => { const i = new Image(); i.onload = () => """
                """ok(i.naturalWidth + 'x' + i.naturalHeight); i.onerror = () => ok(null); """
                """i.src = src; })""",
                icon["src"],
            )
            assert size == icon["sizes"], icon
        cdp = page.context.new_cdp_session(page)
        errors = cdp.send("Page.getInstallabilityErrors")["installabilityErrors"]
        # Playwright's browser contexts are incognito, where Chromium installs nothing; nothing else
        # may be missing.
        assert [e for e in errors if e["errorId"] != "in-incognito"] == [], json.dumps(errors)
        page.context.set_offline(True)
        page.goto(manifest["start_url"])
        assert page.locator("#jump-q").is_visible()


CARDS_STATE = (
    """() => caches.open("judgeapp-pack").then(c => """
    """c.match("/offline/cards-manifest.json")).then(r => r ? r.json() : null)"""
)


def wait_for_cards(page, timeout: float = 60) -> dict:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        state = page.evaluate(CARDS_STATE)
        if state:
            return state
        time.sleep(0.25)
    raise AssertionError("the service worker did not keep the cards")


@pytest.fixture
def head_judge(site, live_server):
    import datetime as dt

    from django.contrib.auth.models import User
    from django.test import Client

    from calllog import services as calllog

    user = User.objects.create_user("clock-head", password="pw-clock-head")
    event = calllog.open_event(
        user, name="Regional Championship Qualifier", date=dt.date(2026, 11, 24)
    )
    client = Client()
    client.force_login(user)
    return {
        "event": event,
        "cookie": {
            "name": "sessionid",
            "value": client.cookies["sessionid"].value,
            "url": live_server.url,
        },
    }


class OfflineFloorToolsTests:
    def test_a_card_with_its_rulings_opens_offline(self, page):
        from cards import services as cards
        from cards.offline import current_card_pack
        from search.offline import service
        from tests.cards.conftest import CARDS, RULINGS

        cards.import_bulk(CARDS, RULINGS)
        version, card_version = service.current_pack().version, current_card_pack().version
        page.goto("/")
        wait_for_copy(page, version)
        assert wait_for_cards(page)["version"] == card_version
        page.context.set_offline(True)
        page.goto("/cards/" + "thassas oracle" + "/")
        page.wait_for_selector("#offline-reader .rulings li")
        assert page.inner_text("#offline-reader h1").startswith("Thassa's Oracle")
        assert "2020-01-24" in page.inner_text("#offline-reader .rulings")
        assert "you win the game" in page.inner_text("#offline-reader .card-face")
        page.screenshot(path=str(SHOTS / "offline-card.png"))
        page.goto("/cards/?q=angel")
        page.wait_for_selector("#offline-reader .list a.row")
        assert {"Platinum Angel", "Serra Angel"} <= set(
            page.eval_on_selector_all(
                "#offline-reader .list a.row span:first-child", "els => els.map(e => e.textContent)"
            )
        )

    def test_a_round_clock_started_offline_counts_down_and_reaches_the_server(
        self, page, head_judge
    ):
        from floor.models import RoundClock
        from search.offline import service

        page.context.add_cookies([head_judge["cookie"]])
        version = service.current_pack().version
        url = f"/events/{head_judge['event'].pk}/clock/"
        page.goto(url)
        wait_for_copy(page, version)
        page.goto(url)  # kept for offline use now that the worker controls the page
        page.context.set_offline(True)
        page.reload()
        page.fill("#clock-controls input[name=round]", "4")
        page.fill("#clock-controls input[name=minutes]", "5")
        page.click("#clock-controls [data-action=start]")
        page.click("#clock-confirm [data-confirm]")  # Start asks first
        page.wait_for_selector("#round-clock[data-state=running]")
        shown, said = page.evaluate(
            "['clock-time', 'clock-warning'].map(id => document.getElementById(id).innerText)"
        )
        assert shown in ("05:00", "04:59", "04:58"), shown
        assert said == ("5 minutes left" if shown == "05:00" else "4 minutes left"), (shown, said)
        assert "Offline" in page.inner_text("#clock-error")
        # until it has counted down (the assertion says if not)
        with contextlib.suppress(PlaywrightTimeout):
            page.wait_for_function(
                "shown => document.querySelector('#clock-time').innerText < shown",
                arg=shown,
                timeout=10000,
            )
        later = page.inner_text("#clock-time")
        # it counts down without the network
        assert later < shown, (
            shown,
            later,
            page.evaluate(
                "JSON.parse(localStorage.getItem('judgeapp-clock-' + "
                "document.getElementById('round-clock').dataset.event))"
            ),
        )
        page.screenshot(path=str(SHOTS / "offline-round-clock.png"))
        # Reloaded offline, the round started here is still shown, not the page's older copy.
        page.reload()
        page.wait_for_selector("#round-clock[data-state=running]")
        assert page.inner_text("#clock-round").startswith("Round 4")
        assert seconds(page.inner_text("#clock-time")) <= seconds(later)
        assert not RoundClock.objects.exists()
        page.context.set_offline(False)
        page.evaluate("window.JudgeOffline.flush()")
        deadline = time.monotonic() + 15
        while not RoundClock.objects.exists() and time.monotonic() < deadline:
            time.sleep(0.2)
        clock = RoundClock.objects.get()
        assert (clock.round, clock.minutes, clock.event_id) == (4, 5, head_judge["event"].pk)
        # Offline again some seconds later, the page reloaded from the copy kept before the round
        # existed: the newest clock this tablet knows, counted from when it was true.
        from django.utils import timezone

        from floor.services import state_of

        page.wait_for_function("!document.getElementById('clock-error').dataset.connection")
        page.context.set_offline(True)
        page.wait_for_timeout(4000)
        page.reload()
        # a loaded machine (a fresh clone's first run) took over 20 s once here
        page.wait_for_selector("#round-clock[data-state=running]", timeout=45000)
        assert page.inner_text("#clock-round").startswith("Round 4")
        expected = state_of(RoundClock.objects.get(), timezone.now())["seconds_left"]
        assert abs(seconds(page.inner_text("#clock-time")) - expected) <= 3
        page.context.set_offline(False)

    def test_deck_check_counts_offline_and_keeps_them(self, page):
        from search.offline import service

        version = service.current_pack().version
        page.goto("/")
        wait_for_copy(page, version)
        page.context.set_offline(True)
        page.goto("/tools/deck-check/")
        lands = page.locator("tr[data-type=Lands]")
        lands.locator(".registered").fill("3")
        plus = lands.locator(".plus")
        assert plus.bounding_box()["height"] >= 56
        for _ in range(3):
            plus.click()
        assert page.inner_text("#deck-verdict") == "Matches"
        page.locator("tr[data-type=Creatures] .plus").click()
        assert page.inner_text("#deck-verdict").startswith("Off by 1")
        page.reload()
        assert page.inner_text("tr[data-type=Lands] .counted") == "3"
        assert page.inner_text("#deck-verdict").startswith("Off by 1")

    def test_deck_check_in_two_tabs_counts_into_one_check(self, online_page):
        page = online_page
        # The home-screen app and a browser tab both on the deck check: neither's taps undo the
        # other's.
        page.goto("/tools/deck-check/")
        page.click("#deck-reset")
        lands = page.locator("tr[data-type=Lands] .plus")
        for _ in range(5):
            lands.click()
        other = page.context.new_page()
        other.goto("/tools/deck-check/")
        page.bring_to_front()  # the tab tapped is the one in front (a background one waits on rAF)
        for _ in range(10):
            lands.click()
        other.bring_to_front()
        other.locator("tr[data-type=Creatures] .plus").click()
        page.wait_for_function(
            "document.querySelector('tr[data-type=Creatures] .counted').innerText === '1'"
        )
        for tab in (page, other):
            tab.reload()
            assert tab.inner_text("tr[data-type=Lands] .counted") == "15"
            assert tab.inner_text("tr[data-type=Creatures] .counted") == "1"
        other.close()

    def test_deck_check_counts_in_memory_when_storage_refuses_writes(self, online_page):
        page = online_page
        page.goto("/tools/deck-check/")
        page.click("#deck-reset")
        page.evaluate(
            "() => { Storage.prototype.setItem = function () { throw new Error('quota'); }; }"
        )
        lands = page.locator("tr[data-type=Lands] .plus")
        for _ in range(3):
            lands.click()
        assert page.inner_text("tr[data-type=Lands] .counted") == "3"
