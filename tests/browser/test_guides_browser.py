"""The guide pages in a real browser (Debian's Chromium through Playwright): every guide walked to
each of its conclusions at tablet size, and the offline story — guides kept by the service worker, a
call saved without a connection, sent once when it returns.

Skipped when Playwright or the browser is missing. The browser is JUDGEAPP_CHROMIUM (default
/usr/bin/chromium-headless-shell, else /usr/bin/chromium); screenshots go to JUDGEAPP_SCREENSHOTS
(default screenshots/, gitignored): each guide's first question always, every conclusion too when
JUDGEAPP_SCREENSHOTS is set (125 pictures cost the suite several seconds of CPU).
"""

from __future__ import annotations

import contextlib
import datetime as dt
import json
import os
import time
from pathlib import Path

import pytest

from tests.browser.guide_paths import conclusion_paths, conclusions

# Debian's headless build of Chromium (package chromium-headless-shell: the same engine without
# the desktop browser's windowing) where it is installed: the browser tests took 152 s against
# 228 s with the full browser on this 2-core machine (2026-11-29); else Debian's chromium.
CHROMIUM = Path(
    os.environ.get("JUDGEAPP_CHROMIUM")
    or next(
        (
            path
            for path in ("/usr/bin/chromium-headless-shell", "/usr/bin/chromium")
            if Path(path).exists()
        ),
        "/usr/bin/chromium",
    )
)
SHOTS = Path(
    os.environ.get("JUDGEAPP_SCREENSHOTS", Path(__file__).resolve().parents[2] / "screenshots")
)
EVERY_SHOT = "JUDGEAPP_SCREENSHOTS" in os.environ
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
TABLET = {"width": 768, "height": 1024}

try:
    from playwright.sync_api import sync_playwright
except ImportError:  # pragma: no cover - depends on the machine
    sync_playwright = None

pytestmark = [
    pytest.mark.skipif(
        sync_playwright is None,
        reason=(
            "Playwright for Python is not installed (pip install playwright; no `playwright "
            "install` needed)"
        ),
    ),
    pytest.mark.skipif(
        not CHROMIUM.exists(),
        reason=(
            f"no Chromium at {CHROMIUM} (apt-get install chromium-headless-shell, or set "
            "JUDGEAPP_CHROMIUM)"
        ),
    ),
]


@pytest.fixture
def judge(rules_loaded, live_server):
    """A signed-in floor judge with one Competitive event, and the session cookie the
    browser uses."""
    from django.contrib.auth.models import User
    from django.test import Client

    from calllog import services as calllog

    user = User.objects.create_user("tablet-judge", password="pw-tablet-judge")
    event = calllog.open_event(
        user, name="Store Championship", date=dt.date(2026, 11, 22), rel="competitive"
    )
    client = Client()
    client.force_login(user)
    cookie = {
        "name": "sessionid",
        "value": client.cookies["sessionid"].value,
        "url": live_server.url,
    }
    return {"user": user, "event": event, "cookie": cookie, "url": live_server.url}


class RequestsInFlight:
    """The live server's requests between Django's request_started and request_finished."""

    def __init__(self):
        import threading

        self.count = 0
        self.changed = threading.Condition()

    def started(self, **kwargs):
        with self.changed:
            self.count += 1

    def finished(self, **kwargs):
        with self.changed:
            self.count = max(0, self.count - 1)
            self.changed.notify_all()

    def wait_until_idle(self, timeout: float = 15.0) -> None:
        with self.changed:
            self.changed.wait_for(lambda: self.count == 0, timeout=timeout)


@contextlib.contextmanager
def tablet_page(
    browser,
    url: str,
    *,
    cookie: dict | None = None,
    service_workers: str = "allow",
    timeout: int = 15000,
):
    """A tablet-size page on the live server. On the way out the context is closed and the server is
    left to answer what the page had asked for: a request still being handled when the test database
    is flushed holds a lock on it, the flush fails and the next test finds the last one's rows."""
    from django.core.signals import request_finished, request_started

    in_flight = RequestsInFlight()
    request_started.connect(in_flight.started, weak=False)
    request_finished.connect(in_flight.finished, weak=False)
    context = browser.new_context(viewport=TABLET, base_url=url, service_workers=service_workers)
    if cookie:
        context.add_cookies([cookie])
    tab = context.new_page()
    tab.set_default_timeout(timeout)
    try:
        yield tab
    finally:
        context.set_offline(True)  # a service worker still storing pages asks for nothing more
        context.close()
        in_flight.wait_until_idle()
        request_started.disconnect(in_flight.started)
        request_finished.disconnect(in_flight.finished)


@pytest.fixture
def page(browser, judge):
    with tablet_page(browser, judge["url"], cookie=judge["cookie"]) as tab:
        yield tab


def settled(page, answered: int) -> dict:
    """Wait until the guide script has settled on a step after `answered` answers; that
    step's markers."""
    # One round trip to the browser: wait for the step and read its markers in the same call.
    return page.wait_for_function(
        """answered => {
            const el = document.querySelector("#guide-step");
            if (!el || el.dataset.answered !== String(answered) || el.hasAttribute("data-busy")) return false;
            return {node: el.dataset.node, kind: el.dataset.kind, offline: el.dataset.offline};
        }""",  # noqa: E501
        arg=answered,
    ).json_value()


def answer_button(page, index: int):
    """An answer button of the step shown, its group opened first when the answers are grouped
    (a closed group's buttons cannot be tapped)."""
    button = page.locator(f'#guide-step button.answer[data-index="{index}"]')
    if not button.is_visible():
        page.locator(
            f'#guide-step details.answer-group:has(button.answer[data-index="{index}"]) > summary'
        ).click()
    return button


def give(page, guide, answers: list) -> dict:
    """Answer from the step the page is at (a fresh start): tap an answer button or fill
    the input."""
    step = settled(page, 0)
    for i, answer in enumerate(answers):
        node = guide.nodes[step["node"]]
        if step["kind"] == "question":
            button = answer_button(page, answer)
            label, height = button.evaluate("b => [b.innerText, b.getBoundingClientRect().height]")
            assert label.strip() == node.answers[answer].label
            assert height >= 56, (
                f"{guide.slug}/{node.id}: answer buttons must be at least 56px tall"
            )
            button.click()
        else:
            assert step["kind"] == "input", step
            value = ", ".join(answer) if isinstance(answer, list) else str(answer)
            page.fill("#guide-input", value)
            page.click("#guide-step button[type=submit]")
        step = settled(page, i + 1)
    return step


def pick_player(page, field: str, name: str) -> None:
    """Type a player into a picker (players.js); a name not on the event's list needs
    "New player"."""
    page.fill(f"input[name={field}]", name)
    picker = page.locator(f".player-picker:has(input[name={field}])")
    if picker.get_attribute("data-state") == "unknown":
        picker.locator("button.new-player").click()
    assert picker.get_attribute("data-state") in ("listed", "new")


# The walk of walk_in_page, in the page: each answer tapped as a judge would reach it (its group
# opened first), the step waited for as settled() does, the conclusion read at the end. One call
# into the browser a conclusion instead of some forty (the guides' walks were a sixth of the suite).
WALK_JS = """async ({answers, restart}) => {
    const wait = (answered) => new Promise((resolve, reject) => {
        const until = Date.now() + 15000;
        (function poll() {
            const el = document.querySelector("#guide-step");
            if (el && el.dataset.answered === String(answered) && !el.hasAttribute("data-busy")) {
                return resolve({node: el.dataset.node, kind: el.dataset.kind,
                                offline: el.dataset.offline});
            }
            if (Date.now() > until) return reject(new Error("no step after " + answered));
            requestAnimationFrame(poll);
        })();
    });
    if (restart) document.querySelector("#guide-nav button.restart").click();
    let step = await wait(0);
    const taps = [];
    for (let i = 0; i < answers.length; i++) {
        const answer = answers[i];
        if (step.kind === "question") {
            const button = document.querySelector(
                `#guide-step button.answer[data-index="${answer}"]`);
            const group = button && button.closest("details.answer-group");
            if (group && !group.open) group.querySelector(":scope > summary").click();
            const box = button.getBoundingClientRect();
            taps.push({node: step.node, kind: step.kind, label: button.innerText,
                       height: box.height, visible: box.width > 0 && box.height > 0});
            button.click();
        } else {
            taps.push({node: step.node, kind: step.kind});
            const input = document.querySelector("#guide-input");
            input.value = Array.isArray(answer) ? answer.join(", ") : String(answer);
            input.dispatchEvent(new Event("input", {bubbles: true}));
            document.querySelector("#guide-step button[type=submit]").click();
        }
        step = await wait(i + 1);
    }
    const text = (selector) => {
        const found = document.querySelector(selector);
        return found ? found.innerText : "";
    };
    const root = document.documentElement;
    const shown = {
        ruling: text("#guide-step h2"),
        current_rel: text("#guide-step tr.current th"),
        current_penalty: text("#guide-step tr.current td"),
        rows: [...document.querySelectorAll("#guide-step .by-rel tr")].map(r => r.dataset.rel),
        links: [...document.querySelectorAll("#guide-step .citations a")]
            .map(a => a.getAttribute("href")),
        trail: document.querySelectorAll("#guide-trail li").length,
        fits: root.scrollWidth <= root.clientWidth,
    };
    return {step, taps, shown};
}"""


def walk_in_page(page, answers: list, *, restart: bool) -> dict:
    """From the first question (Start again first when `restart`), give `answers` in the page: the
    step reached, each tap's step, label and height, and what the conclusion shows."""
    return page.evaluate(WALK_JS, {"answers": answers, "restart": restart})


def check_taps(guide, answers: list, taps: list) -> None:
    """Each answer was a visible button labelled as the guide's answer and tall enough to tap, or
    the input step's value."""
    assert len(taps) == len(answers)
    for tap, answer in zip(taps, answers, strict=True):
        node = guide.nodes[tap["node"]]
        if tap["kind"] == "question":
            assert tap["visible"], f"{guide.slug}/{node.id}: answer {answer} not shown"
            assert tap["label"].strip() == node.answers[answer].label
            assert tap["height"] >= 56, (
                f"{guide.slug}/{node.id}: answer buttons must be at least 56px tall"
            )
        else:
            assert tap["kind"] == "input", tap


def no_horizontal_scroll(page) -> bool:
    return page.evaluate(
        "document.documentElement.scrollWidth <= document.documentElement.clientWidth"
    )


def expected_rel(slug: str, answers: list, default: str) -> str:
    """The REL a conclusion highlights: the one the guide asked for (fact "rel"), else
    the page's."""
    from guides import services as guide_services

    asked = guide_services.walk(slug, answers)["facts"].get("rel")
    return asked if asked in ("regular", "competitive", "professional") else default


def all_guides():
    from guides import services as guide_services

    return guide_services.guides()


def guide_slugs() -> list[str]:
    """Every guide's slug, read when the tests are collected (the guides are files, not rows)."""
    from guides import loader

    return sorted(loader.load_all(loader.DEFINITIONS))


class GuideWalkTests:
    @pytest.fixture
    def page(self, browser, judge):
        """Online walks: no service worker (one storing the offline kit kept the live server busy
        for seconds after each test)."""
        with tablet_page(
            browser, judge["url"], cookie=judge["cookie"], service_workers="block"
        ) as tab:
            yield tab

    def test_the_guides_page_lists_every_guide(self, page, judge):
        guides = all_guides()
        assert guides, "no guides installed"
        page.goto("/guides/")
        listed = page.eval_on_selector_all(
            "a.guide-card", "links => links.map(a => a.dataset.guide)"
        )
        assert sorted(listed) == sorted(guides)
        assert no_horizontal_scroll(page)

    # One test a guide, so that the guides' walks share the suite's workers.
    @pytest.mark.parametrize("slug", guide_slugs())
    def test_every_guide_reaches_each_of_its_conclusions(self, page, judge, slug):
        guide = all_guides()[slug]
        paths = conclusion_paths(guide)
        assert set(paths) == conclusions(guide), (
            f"{slug}: conclusions no answers reach: {conclusions(guide) - set(paths)}"
        )
        # one page load per guide: the rest is the page's own navigation, each conclusion walked to
        # in one call into the page (walk_in_page) and read in the same call
        page.goto(f"/guides/{slug}/")
        settled(page, 0)
        (SHOTS / slug).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / slug / "_first-question.png"))
        for index, (node_id, answers) in enumerate(sorted(paths.items())):
            walked = walk_in_page(page, answers, restart=bool(index))
            check_taps(guide, answers, walked["taps"])
            node = guide.nodes[node_id]
            assert walked["step"] == {"node": node_id, "kind": "conclusion", "offline": "no"}, (
                f"{slug} {answers}"
            )
            shown = walked["shown"]
            assert shown["ruling"].strip() == node.ruling.strip()
            # The REL shown (the page's, Competitive, unless the guide asked it) is the
            # highlighted row; the others are shown too.
            rel = expected_rel(slug, answers, "competitive")
            assert shown["current_rel"].startswith(rel.capitalize())
            assert shown["rows"] == ["regular", "competitive", "professional"]
            assert shown["current_penalty"].strip() == getattr(node.penalty, rel).strip()
            links = shown["links"]
            assert links and all(link.startswith("/rules/") for link in links), (
                f"{slug}/{node_id}: no rule links"
            )
            assert shown["trail"] == len(answers)
            assert shown["fits"], f"{slug}/{node_id} scrolls sideways at 768px"
            if EVERY_SHOT:
                page.screenshot(path=str(SHOTS / slug / f"{node_id}.png"))  # the viewport
        # The back button returns to the last question asked, its answers intact.
        page.click("#guide-nav button.back")
        step = settled(page, len(answers) - 1)
        assert step["kind"] in ("question", "input")
        assert page.url.count("a=") == len(answers) - 1

    def test_at_regular_the_tablet_shows_the_jars_fix_first_and_labels_the_ipgs(self, page, judge):
        """As the server's page does (guides/pages.py fix_at, upgrades_at): the JAR says the IPG's
        fixes do not apply at Regular REL (audit rulings5, W3)."""
        from guides import links

        guide = all_guides()["infraction-finder"]
        node = guide.nodes["tardy-game-loss"]
        answers = links.path_to(guide, node.id)
        query = "&".join(["rel=regular", *(f"a={a}" for a in answers)])
        page.goto(f"/guides/infraction-finder/?{query}")
        assert settled(page, len(answers))["node"] == node.id
        shown = page.eval_on_selector_all(
            "#guide-app .fix, #guide-app .upgrades li", "els => els.map(e => e.textContent)"
        )
        ipg, jar = node.fix.split("At Regular", 1)
        labelled = [f"At Competitive and Professional: {line}" for line in node.upgrades]
        assert shown == [
            "At Regular" + jar.rstrip(),
            "At Competitive and Professional: " + ipg.strip(),
            *labelled,
        ]

    def test_a_reload_with_answers_in_the_address_returns_to_the_same_step(self, page, judge):
        guide = all_guides()["shortcut-disputes"]
        node_id, answers = max(conclusion_paths(guide).items(), key=lambda item: len(item[1]))
        page.goto("/guides/shortcut-disputes/")
        give(page, guide, answers)
        page.reload()
        step = settled(page, len(answers))
        assert step["node"] == node_id
        # Dim halls: the same conclusion in the dark theme, still no sideways scrolling.
        page.emulate_media(color_scheme="dark")
        background = page.evaluate("getComputedStyle(document.body).backgroundColor")
        assert background == "rgb(21, 23, 27)"  # app.css --bg in the dark theme
        assert no_horizontal_scroll(page)
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / "dark-conclusion.png"), full_page=False)

    def test_a_call_saved_online_is_stored_with_the_events_penalty(self, page, judge):
        from calllog.models import Call

        guide = all_guides()["shortcut-disputes"]
        node_id, answers = max(conclusion_paths(guide).items(), key=lambda item: len(item[1]))
        page.goto("/guides/shortcut-disputes/")
        page.select_option("#call-event", str(judge["event"].pk))
        give(page, guide, answers)
        page.fill(".save-form input[name=table]", "7")
        page.fill(".save-form input[name=round]", "2")
        pick_player(page, "offender", "Cy Park")
        pick_player(page, "opponent", "Di Lu")
        page.click(".save-form button[type=submit]")
        page.wait_for_selector(".save-status:not(:empty)")
        assert page.inner_text(".save-status").startswith("Saved to the event.")
        assert page.locator("#call-queue").is_hidden()
        call = Call.objects.get()
        assert (call.conclusion, call.table, call.round, call.offender) == (
            node_id,
            "7",
            2,
            "Cy Park",
        )
        # the event is Competitive
        assert call.base_penalty == guide.nodes[node_id].penalty.competitive
        assert f"Penalty recorded: {call.penalty}." in page.inner_text(".save-status")


class OfflineTests:
    def wait_for_precache(self, page, slugs: list[str]) -> None:
        urls = (
            ["/guides/"] + [f"/guides/{s}/" for s in slugs] + [f"/api/v1/guides/{s}" for s in slugs]
        )
        # The guide pages' own scripts (player picker, penalty preview, the engines a guide runs
        # on the tablet), kept with the guides one at a time (static/sw.js): wait for the last of
        # them too, or a page opened offline under load may miss an engine (it then marks the
        # step "offline" instead of computing it).
        urls += [
            "/static/judgeapp/players.js",
            "/static/judgeapp/penalty.js",
            "/static/judgeapp/words.js",
            "/static/judgeapp/riffles.js",
            "/static/judgeapp/loop-outcome.js",
            "/static/judgeapp/shuffle-check.js",
            "/static/judgeapp/shuffle-patterns.js",
            "/static/judgeapp/shuffle-analysis.js",
            "/static/judgeapp/guides.js",
        ]
        script = """urls => caches.keys().then(names => Promise.all(names.map(n => caches.open(n)))).then(stores =>
            Promise.all(urls.map(u => Promise.all(stores.map(s => s.match(u))).then(hits => hits.some(Boolean)))))
            .then(found => found.every(Boolean))"""  # noqa: E501
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            if page.evaluate("navigator.serviceWorker.controller !== null") and page.evaluate(
                script, urls
            ):
                return
            time.sleep(0.2)
        raise AssertionError("the service worker did not store every guide")

    def test_guides_work_offline_and_a_call_saved_offline_arrives_once(self, page, judge):
        from calllog.models import Call
        from guides import services as guide_services

        guides = all_guides()
        page.goto("/guides/")
        self.wait_for_precache(page, sorted(guides))

        page.goto("/rules/cr/729.4/")  # a rules page read online ...
        rule_text = page.inner_text("main")
        assert "729.4" in rule_text

        page.context.set_offline(True)
        page.goto("/rules/cr/729.4/")  # ... reads the same offline
        assert page.inner_text("main") == rule_text
        # A page never opened that the offline copy of the rules does not cover says so (the browser
        # really is offline); rules, glossary and search pages are read from that copy instead
        # (tests/browser/test_offline_browser.py).
        page.goto("/changes/cr/")
        assert "Offline" in page.inner_text("h1")

        # A guide reloaded with its answers in the address, offline, returns to the same step.
        shortcuts = guides["shortcut-disputes"]
        node_id, answers = max(conclusion_paths(shortcuts).items(), key=lambda item: len(item[1]))
        page.goto("/guides/shortcut-disputes/")
        give(page, shortcuts, answers)
        page.reload()
        assert settled(page, len(answers))["node"] == node_id
        page.screenshot(path=str(SHOTS / "offline-conclusion.png"), full_page=True)

        # Save the call with no connection: it waits on the tablet.
        page.select_option("#call-event", str(judge["event"].pk))
        page.fill(".save-form input[name=table]", "12")
        page.fill(".save-form input[name=round]", "3")
        pick_player(page, "offender", "Ana Costa")
        pick_player(page, "opponent", "Ben Ito")
        page.click(".save-form button[type=submit]")
        page.wait_for_selector(".save-status:not(:empty)")
        assert page.inner_text("#call-queue").startswith("1 call waiting to be sent")
        assert "No connection" in page.inner_text(".save-status")
        queued = page.evaluate("JudgeOffline.pending()")
        assert len(queued) == 1
        client_id = queued[0]["body"]["client_id"]
        assert Call.objects.count() == 0
        page.screenshot(path=str(SHOTS / "offline-call-queued.png"), full_page=True)

        # Still offline, a guide never opened on this tablet runs from the stored copy, up to a step
        # that needs the server; the queue badge is on this page too.
        # (The shuffle guide's analysis of a long pattern runs on the workers; loops and short
        # patterns run on the tablet.)
        loop = guides["shuffle-infractions"]
        loop_paths = conclusion_paths(loop)
        # No event chosen this time: the guide asks its own REL question.
        page.evaluate("localStorage.removeItem('judgeapp-call-event')")
        page.goto("/guides/shuffle-infractions/")
        assert page.inner_text("h1").strip() == loop.title
        loop_answers = max(
            (
                a
                for a in loop_paths.values()
                if "analyse" in guide_services.walk(loop.slug, a)["path"]
            ),
            key=len,
        )
        step, _ = walk_until_offline_stop(page, with_a_long_pattern(loop, loop_answers))
        assert step["offline"] == "yes", (
            "a long pattern's analysis computes on the server: offline it must stop and say so"
        )
        assert "needs the connection" in page.inner_text("#guide-step .needs-network")
        assert page.locator("#guide-step button.retry").is_visible()
        assert page.inner_text("#call-queue").startswith("1 call waiting to be sent")
        waiting_at = step["node"]

        # The connection returns: the queue is sent by itself, and emptied only after the
        # server's 2xx.
        page.context.set_offline(False)
        page.wait_for_selector("#call-queue[hidden]", state="attached", timeout=45000)
        # ... and the guide waiting on its computation goes on by itself.
        page.wait_for_selector('#guide-step[data-offline="no"]:not([data-busy])')
        assert page.eval_on_selector("#guide-step", "el => el.dataset.node") != waiting_at
        calls = list(Call.objects.all())
        assert len(calls) == 1
        call = calls[0]
        assert str(call.client_id) == client_id
        assert (call.guide, call.conclusion, call.table, call.round) == (
            "shortcut-disputes",
            node_id,
            "12",
            3,
        )
        assert call.players == ["Ana Costa", "Ben Ito"]
        assert call.event_id == judge["event"].pk and call.judge_id == judge["user"].pk

        # The same call again (a reply lost on the way back, sent a second time) is still
        # stored once.
        again = page.evaluate("item => JudgeOffline.enqueue(item.url, item.body)", queued[0])
        assert again["sent"] is True and again["reply"]["id"] == call.pk
        page.evaluate("JudgeOffline.flush()")
        assert Call.objects.filter(client_id=client_id).count() == 1 == Call.objects.count()
        assert page.evaluate("JudgeOffline.pending().length") == 0
        assert json.loads(json.dumps(call.answers)) == answers


def walk_until_offline_stop(page, answers: list) -> tuple[dict, list]:
    """Answer from a fresh start until the page stops at a step that needs the server; the step's
    markers and the answers given before it."""
    step, given = settled(page, 0), []
    for answer in answers:
        if step["offline"] == "yes":
            break
        if step["kind"] == "question":
            answer_button(page, answer).click()
        else:
            page.fill("#guide-input", str(answer))
            page.click("#guide-step button[type=submit]")
        given.append(answer)
        step = settled(page, len(given))
    return step, given


# The tablet works out a shuffle analysis up to a budget of cards drawn for its Monte Carlo check
# (static/judgeapp/guides.js DEVICE_DRAWS): a long pattern seen waits for the server's workers, the
# computation these tests see queued.
LONG_PATTERN = "LS" * 20 + "L"


def with_a_long_pattern(guide, answers: list) -> list:
    """The answers with the pattern seen (the pattern input's default) made too long for the
    tablet."""
    default = guide.nodes["pattern"].default
    assert default in answers, answers
    return [LONG_PATTERN if a == default else a for a in answers]


class ComputeOfflineTests:
    """Guide steps that compute, reached without a connection (issue 16): the shuffle check's
    infraction logic runs on the tablet; any other computation is queued on the tablet, run once the
    connection returns (after a reload too) and its result shown when the judge comes back to
    the guide."""

    def test_a_server_step_reached_offline_is_queued_and_its_result_shown_after_a_reload(
        self, page, judge
    ):
        from guides import services as guide_services

        # The shuffle guide's analysis of a long pattern (past the tablet's budget of cards drawn)
        # needs the server; the loop, the shuffle check and a short pattern's analysis are worked
        # out on the tablet.
        loop = all_guides()["shuffle-infractions"]
        page.goto("/guides/")
        OfflineTests.wait_for_precache(self, page, sorted(all_guides()))
        answered = []  # walks the server answered (attempts made offline never reach it)
        page.on(
            "response",
            lambda r: (
                answered.append(r.url)
                if r.request.method == "POST" and r.url.endswith("/walk")
                else None
            ),
        )

        page.context.set_offline(True)
        page.goto("/guides/shuffle-infractions/")
        through = [
            a
            for a in conclusion_paths(loop).values()
            if "analyse" in guide_services.walk(loop.slug, a)["path"]
        ]
        step, given = walk_until_offline_stop(
            page, with_a_long_pattern(loop, max(through, key=len))
        )
        assert step["offline"] == "yes", (
            "a long pattern's analysis computes on the server: offline it stops at that step"
        )
        waiting_at = step["node"]
        message = page.inner_text("#guide-step .needs-network")
        assert "needs the connection" in message and "queued on this tablet" in message
        assert page.inner_text("#guide-step .queued") == "1 computation waiting for the connection"
        assert page.inner_text("#compute-queue").startswith(
            "1 computation waiting for the connection"
        )
        queued = page.evaluate("JudgeComputeQueue.pending()")
        assert [(q["slug"], q["answers"]) for q in queued] == [("shuffle-infractions", given)]
        page.screenshot(path=str(SHOTS / "offline-computation-queued.png"), full_page=True)

        # A reload (the tab closed and opened again) keeps it queued: still offline, the same step
        # says so.
        page.reload()
        assert settled(page, len(given)) == {
            "node": waiting_at,
            "kind": step["kind"],
            "offline": "yes",
        }
        assert page.inner_text("#guide-step .queued") == "1 computation waiting for the connection"
        assert len(page.evaluate("JudgeComputeQueue.pending()")) == 1

        # Online again: the queue runs it once, and the guide goes on to where the server's
        # walk leads.
        expected = guide_services.walk("shuffle-infractions", given)
        page.context.set_offline(False)
        page.wait_for_selector('#guide-step[data-offline="no"]:not([data-busy])', timeout=45000)
        assert (
            page.eval_on_selector("#guide-step", "el => el.dataset.node")
            == expected["node_id"]
            != waiting_at
        )
        page.wait_for_selector("#compute-queue[hidden]", state="attached")
        assert page.evaluate("JudgeComputeQueue.pending()") == []
        assert len(answered) == 1, answered  # run once: the page shows the answer the queue got

        # Offline again, the judge comes back to the guide (the answers are in its address): the
        # result is there.
        address = page.url
        page.context.set_offline(True)
        page.goto("/guides/")
        page.goto(address)
        page.wait_for_selector("#guide-step:not([data-busy])")
        assert page.eval_on_selector(
            "#guide-step", "el => [el.dataset.node, el.dataset.offline]"
        ) == [expected["node_id"], "no"]
        page.screenshot(path=str(SHOTS / "offline-computation-result.png"), full_page=True)

    def test_the_shuffle_check_rules_on_the_tablet_offline(self, page, judge):
        from guides import services as guide_services

        shuffle = all_guides()["shuffle-infractions"]
        paths = {
            node: answers
            for node, answers in conclusion_paths(shuffle).items()
            if "check" in (walked := guide_services.walk(shuffle.slug, answers))["path"]
            and not {"analyse", "check-procedure"} & set(walked["path"])
        }
        assert paths, (
            "the shuffle guide has conclusions reached through its shuffle check without a "
            "procedure"
        )
        page.goto("/guides/")
        OfflineTests.wait_for_precache(self, page, sorted(all_guides()))
        page.context.set_offline(True)
        for node_id, answers in sorted(paths.items())[:4]:
            page.goto("/guides/shuffle-infractions/")
            assert give(page, shuffle, answers) == {
                "node": node_id,
                "kind": "conclusion",
                "offline": "no",
            }
            assert page.eval_on_selector("#guide-step", "el => el.dataset.computed") == "device"
            assert page.locator(".computed-here").is_visible()
            server = guide_services.walk(shuffle.slug, answers)
            text = page.inner_text("#guide-step")
            assert server["node"]["ruling"] in text
            assert server["result"]["fix"] in text
        assert page.evaluate("JudgeComputeQueue.pending()") == []
        page.screenshot(path=str(SHOTS / "offline-shuffle-check.png"), full_page=True)
