"""Issue 27 on a 768x1024 tablet (Chromium through Playwright): the call log records what
was announced.

- A call saved offline keeps the penalty the tablet showed ("Warning — not checked"); once it syncs,
  a Game Loss the player's earlier penalties give is kept beside it, the call is flagged for the
  head judge, the tablet says so, and the event page lists it.
- The penalty to give is shown beside the player field and the Save button, not only in the penalty
  table at the top of the conclusion; what is saved is what was shown.
- An upgrade's note says "upgraded" once.

Skipped, like tests/browser/test_guides_browser.py, where Playwright or Chromium
is missing.
"""

from __future__ import annotations

import pytest

from tests.browser.guide_paths import conclusion_paths
from tests.browser.test_calllog_browser import walk
from tests.browser.test_guides_browser import (  # noqa: F401  (pytestmark: the same skips)
    SHOTS,
    all_guides,
    no_horizontal_scroll,
    pick_player,
    pytestmark,
    tablet_page,
)

NEAR = 200  # px: "beside" the player field and the Save button on a 1024 px tall tablet


@pytest.fixture
def page(browser, judge):
    """As in test_calllog_browser: no service worker (the call queue is offline.js's, in
    localStorage); 30 s per step, for a machine busy with other work (a run once timed out
    under load)."""
    with tablet_page(
        browser, judge["url"], cookie=judge["cookie"], service_workers="block", timeout=30000
    ) as tab:
        yield tab


def first_slow_play(judge) -> None:
    from calllog import recording

    recording.record_call(
        judge["user"],
        judge["event"],
        {
            "client_id": "5b0f8a7e-3c1d-4e55-9a0b-6f2e8d4c1a01",
            "infraction": "Slow Play",
            "players": ["Ana Costa"],
        },
    )


def box_of(page, selector: str) -> dict:
    return page.locator(selector).bounding_box()


def gap(a: dict, b: dict) -> float:
    """Vertical distance between two boxes (0 when they overlap)."""
    return max(0.0, max(a["y"], b["y"]) - min(a["y"] + a["height"], b["y"] + b["height"]))


class PenaltyBesideSaveTests:
    def test_the_upgraded_penalty_is_shown_beside_the_player_and_save_and_is_what_is_saved(
        self, page, judge
    ):
        from calllog.models import Call

        first_slow_play(judge)
        guide = all_guides()["loop-resolution"]
        page.goto("/guides/loop-resolution/")
        page.select_option("#call-event", str(judge["event"].pk))
        walk(page, conclusion_paths(guide)["slow-play"])
        page.fill(".save-form input[name=table]", "9")
        page.fill(".save-form input[name=round]", "2")
        pick_player(page, "offender", "Ana Costa")
        page.wait_for_selector('.save-form .save-penalty[data-preview="upgraded"]')
        shown = page.inner_text(".save-form .save-penalty")
        assert shown.startswith("Penalty to give: Game Loss — upgraded:"), shown
        assert "already received a Warning for Slow Play" in shown and "IPG 3" in shown
        assert page.get_attribute(".save-form .save-penalty", "data-penalty") == "Game Loss"
        penalty = box_of(page, ".save-form .save-penalty")
        player = box_of(page, ".save-form input[name=offender]")
        save = box_of(page, ".save-form button[type=submit]")
        assert gap(penalty, player) < NEAR and gap(penalty, save) < NEAR, (penalty, player, save)
        # The penalty table at the top of the conclusion is far from Save: that is why it
        # is repeated.
        assert gap(box_of(page, "#guide-step tr.current"), save) > gap(penalty, save)
        assert no_horizontal_scroll(page)
        # Scrolled to Save, the penalty is on screen with it.
        page.locator(".save-form button[type=submit]").scroll_into_view_if_needed()
        top, bottom = page.evaluate("[0, window.innerHeight]")
        shown_box = page.evaluate(
            "document.querySelector('.save-form .save-penalty').getBoundingClientRect().toJSON()"
        )
        assert top <= shown_box["top"] and shown_box["bottom"] <= bottom, shown_box
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / "penalty-beside-save.png"), full_page=False)

        page.click(".save-form button[type=submit]")
        page.wait_for_selector(".save-form .save-status.ok")
        call = Call.objects.get(conclusion="slow-play")
        assert (call.penalty, call.announced_penalty, call.computed_penalty, call.needs_review) == (
            "Game Loss",
            "Game Loss",
            "Game Loss",
            False,
        )
        note = page.inner_text(".save-form .notice.upgrade")
        assert note.startswith("Upgraded to Game Loss:") and "Upgraded: Upgraded" not in note, note
        assert page.locator(".save-form .review-flag").count() == 0

    def test_a_guide_penalty_written_with_its_infraction_is_shown_and_sent_one_way(
        self, page, judge
    ):
        from calllog.models import Call

        guide = all_guides()["loop-resolution"]
        written = guide.nodes["slow-play"].penalty.competitive
        page.goto("/guides/loop-resolution/")
        page.select_option("#call-event", str(judge["event"].pk))
        walk(page, conclusion_paths(guide)["slow-play"])
        page.fill(".save-form input[name=table]", "3")
        page.fill(".save-form input[name=round]", "1")
        pick_player(page, "offender", "Cy Park")
        page.wait_for_selector('.save-form .save-penalty[data-preview="checked"]')
        assert page.get_attribute(".save-form .save-penalty", "data-penalty") == "Warning", written
        page.click(".save-form button[type=submit]")
        page.wait_for_selector(".save-form .save-status.ok")
        call = Call.objects.get()
        assert (call.base_penalty, call.penalty, call.announced_penalty) == (
            "Warning",
            "Warning",
            "Warning",
        )


class OfflineAnnouncedTests:
    def test_a_warning_given_offline_stays_a_warning_and_is_flagged_once_it_syncs(
        self, page, judge
    ):
        from calllog.models import Call

        first_slow_play(judge)
        guide = all_guides()["loop-resolution"]
        page.goto("/guides/loop-resolution/")
        page.select_option("#call-event", str(judge["event"].pk))
        walk(page, conclusion_paths(guide)["slow-play"])
        page.context.set_offline(True)
        page.fill(".save-form input[name=table]", "9")
        page.fill(".save-form input[name=round]", "2")
        pick_player(page, "offender", "Ana Costa")
        page.wait_for_selector('.save-form .save-penalty[data-preview="offline"]')
        shown = page.inner_text(".save-form .save-penalty")
        assert shown.startswith("Penalty to give: Warning — not checked (no connection)"), shown
        page.click(".save-form button[type=submit]")
        page.wait_for_selector(".save-status:has-text('No connection')")
        assert Call.objects.count() == 1

        page.context.set_offline(False)
        page.wait_for_selector("#call-queue[hidden]", state="attached", timeout=45000)
        call = Call.objects.get(conclusion="slow-play")
        assert (call.penalty, call.announced_penalty, call.computed_penalty) == (
            "Warning",
            "Warning",
            "Game Loss",
        )
        assert call.needs_review
        # By Save, where the judge left it: sent, and flagged.
        page.wait_for_selector(".save-form .review-flag")
        assert page.inner_text(".save-form .save-status").startswith(
            "Sent to the event. Penalty recorded: Warning."
        )
        assert "Announced at the table: Warning" in page.inner_text(".save-form .review-flag")
        # The tablet says so once the call has synced, and keeps saying it until the judge has
        # seen it.
        flag = page.locator(f'#call-flags .call-flag[data-call="{call.pk}"]')
        flag.wait_for()
        text = flag.inner_text()
        assert (
            "flagged for the head judge" in text
            and "announced Warning" in text
            and "give Game Loss" in text
        )
        page.reload()
        page.locator(f'#call-flags .call-flag[data-call="{call.pk}"]').wait_for()
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / "synced-call-flagged.png"), full_page=False)
        page.click(f'#call-flags .call-flag[data-call="{call.pk}"] button.seen')
        assert page.locator("#call-flags .call-flag").count() == 0

        # The head judge's event page lists it among the calls to settle.
        page.goto(f"/events/{judge['event'].pk}/")
        flagged = page.inner_text("#flagged")
        assert (
            "For the head judge (1)" in flagged
            and "announced Warning · computed Game Loss" in flagged
        )
        page.locator("#flagged").scroll_into_view_if_needed()
        page.screenshot(path=str(SHOTS / "flagged-for-head-judge.png"), full_page=False)
        page.click("#flagged a.call-row")
        assert "Announced at the table: Warning" in page.inner_text("#review")

    def test_five_calls_queued_offline_keep_their_warnings_and_four_are_flagged(self, page, judge):
        from calllog.models import Call

        event = judge["event"]
        page.goto(f"/events/{event.pk}/")
        page.context.set_offline(True)

        def fill() -> None:  # a kept call clears the form: each call is recorded anew
            page.select_option("#record-infraction", "3.3")
            pick_player(page, "offender", "Ana Costa")
            page.fill("#record-form input[name=table]", "5")
            page.fill("#record-form input[name=round]", "2")
            page.wait_for_selector('#record-save-penalty[data-preview="offline"]')

        fill()
        assert page.get_attribute("#record-save-penalty", "data-penalty") == "Warning"
        save = box_of(page, "#record-form button[type=submit]")
        assert gap(box_of(page, "#record-save-penalty"), save) < NEAR
        assert (
            gap(
                box_of(page, "#record-save-penalty"),
                box_of(page, "#record-form input[name=offender]"),
            )
            < NEAR
        )
        for n in range(1, 6):
            if n > 1:
                fill()
            page.click("#record-form button[type=submit]")
            page.wait_for_selector(f"#call-queue:has-text('{n} call')")
            # The save is over (the button comes back once the tablet has tried and kept the call),
            # so the connection returns only after the judge was told it is kept; else the fifth
            # call may be sent by its own try and answered there ("Saved"), not by the sync.
            page.wait_for_selector("#record-form button[type=submit]:not([disabled])")
            assert "No connection" in page.inner_text("#record-form .save-status")
        assert Call.objects.count() == 0

        page.context.set_offline(False)
        page.wait_for_selector("#call-queue[hidden]", state="attached", timeout=45000)
        calls = list(Call.objects.order_by("id"))
        assert [c.penalty for c in calls] == ["Warning"] * 5
        assert [c.computed_penalty for c in calls] == ["Warning"] + ["Game Loss"] * 4
        assert [c.needs_review for c in calls] == [False] + [True] * 4
        page.wait_for_function("document.querySelectorAll('#call-flags .call-flag').length === 4")
        page.wait_for_function("document.querySelectorAll('#record-form .synced').length === 5")
        assert page.locator("#record-form .synced.review-flag").count() == 4
        # listed without a reload
        assert page.locator("#calls + p.call-filter + ul.list .review-flag").count() == 4
        page.goto(f"/events/{event.pk}/?flagged=1")
        assert "For the head judge (4)" in page.inner_text("#flagged")
        assert page.locator("#calls + p.call-filter + ul.list li a.call-row").count() == 4


class OneFormatTests:
    def test_the_tablet_writes_every_guide_penalty_as_the_server_does(self, page, judge):
        """penalty.js label() and calllog.penalties.penalty_label agree on every penalty of every
        guide (the tablet's announced penalty is compared with the server's in that format)."""
        from calllog.penalties import penalty_label

        texts = sorted(
            {
                getattr(node.penalty, rel)
                for guide in all_guides().values()
                for node in guide.nodes.values()
                if node.penalty is not None
                for rel in ("regular", "competitive", "professional")
            }
            | {"warning", "Game Loss (SP)", "Warning (Tournament Error - Slow Play)."}
        )
        assert any(t.startswith("Warning (") for t in texts)
        page.goto("/guides/loop-resolution/")
        page.wait_for_function("!!(window.JudgePenalty && window.JudgePenalty.label)")
        tablet = page.evaluate("texts => texts.map(t => window.JudgePenalty.label(t))", texts)
        assert dict(zip(texts, tablet, strict=True)) == {t: penalty_label(t) for t in texts}
