"""The call log as a floor judge uses it on a 768x1024 tablet (Chromium through Playwright, issue
13): the upgraded penalty in the penalty table before a call is saved, the REL asked once,
conclusions that open at the ruling and speak in words, calls edited with their history, players
picked from the list.

Skipped, like tests/browser/test_guides_browser.py, where Playwright or Chromium
is missing.
"""

from __future__ import annotations

import datetime as dt
import uuid

import pytest

from tests.browser.guide_paths import conclusion_paths
from tests.browser.test_guides_browser import (  # noqa: F401  (pytestmark: the same skips)
    SHOTS,
    TABLET,
    all_guides,
    answer_button,
    no_horizontal_scroll,
    pick_player,
    pytestmark,
    settled,
    tablet_page,
)

LANDSCAPE = {"width": 1024, "height": 768}


@pytest.fixture
def page(browser, judge):
    """A tablet-size page without the service worker: these tests need no stored guides (the offline
    call queue is offline.js's, in localStorage), and a worker storing every guide in the background
    would still be fetching from the live server when the test database is flushed."""
    with tablet_page(browser, judge["url"], cookie=judge["cookie"], service_workers="block") as tab:
        yield tab


def record(page, infraction: str, offender: str, *, table: str = "5", minutes: str = "") -> None:
    page.select_option("#record-infraction", infraction)
    pick_player(page, "offender", offender)
    page.fill("#record-form input[name=table]", table)
    page.fill("#record-form input[name=round]", "2")
    if minutes:
        page.fill("#record-form input[name=time_extension]", minutes)


def current_row(page, scope: str) -> str:
    page.wait_for_selector(
        f'{scope} tr.current[data-preview="checked"], {scope} tr.current[data-preview="upgraded"]'
    )
    return page.inner_text(f"{scope} tr.current td").strip()


def walk(page, answers: list, *, start: int = 0) -> dict:
    """Answer from a step already settled after `start` answers (some taken from the event)."""
    step = settled(page, start)
    for i, answer in enumerate(answers):
        if step["kind"] == "question":
            answer_button(page, answer).click()
        else:
            page.fill("#guide-input", str(answer))
            page.click("#guide-step button[type=submit]")
        step = settled(page, start + i + 1)
    return step


class RecordInfractionTests:
    def test_second_slow_play_shows_game_loss_in_the_penalty_table_before_it_is_saved(
        self, page, judge
    ):
        from calllog.models import Call

        event = judge["event"]
        page.goto(f"/events/{event.pk}/")
        record(page, "3.3", "Ana Costa", minutes="3")
        # The IPG's penalty at each REL; the event's (Competitive) highlighted, checked against
        # her history.
        assert (
            page.inner_text('#record-penalties tr[data-rel="professional"] td').strip() == "Warning"
        )
        assert current_row(page, "#record-penalties").startswith("Warning")
        page.click("#record-form button[type=submit]")
        page.wait_for_selector("#record-form .save-status.ok")
        assert "Slow Play — Warning for Ana Costa" in page.inner_text("#record-form .save-status")
        first = Call.objects.get()
        assert (first.infraction, first.penalty, first.time_extension, first.offender) == (
            "Slow Play",
            "Warning",
            3,
            "Ana Costa",
        )

        # A second Slow Play for her, picked from the list this time: Game Loss on screen, nothing
        # saved yet.
        page.select_option("#record-infraction", "3.3")
        page.fill("#record-form input[name=offender]", "ana costa")
        page.locator("#record-form input[name=round]").click()
        row = current_row(page, "#record-penalties")
        assert row.startswith("Game Loss — upgraded:"), row
        assert "IPG 3" in row
        # the fix to explain, and the Game Loss the Head Judge's to issue (IPG 1.2)
        fix = page.inner_text("#record-fix")
        assert "two additional turns" in fix and "Report it to the Head Judge" in fix
        assert page.locator("#record-penalties tr.current").bounding_box()["height"] >= 40
        assert Call.objects.count() == 1
        assert no_horizontal_scroll(page)
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / "record-second-slow-play.png"), full_page=True)
        page.fill("#record-form input[name=table]", "5")
        page.fill("#record-form input[name=round]", "3")
        page.click("#record-form button[type=submit]")
        page.wait_for_selector("#record-form .save-status.ok:has-text('Game Loss')")
        assert Call.objects.count() == 2
        second = Call.objects.order_by("id").last()
        assert (second.penalty, second.upgraded, second.offender) == (
            "Game Loss",
            True,
            "Ana Costa",
        )

    def test_the_guides_conclusion_shows_the_upgrade_once_event_and_player_are_chosen(
        self, page, judge
    ):
        from calllog import recording

        recording.record_call(
            judge["user"],
            judge["event"],
            {
                "client_id": "6d1b7f7e-51c6-4a56-9d8a-0d3c8c6f7a11",
                "infraction": "Slow Play",
                "players": ["Ana Costa"],
            },
        )
        guide = all_guides()["loop-resolution"]
        answers = conclusion_paths(guide)["slow-play"]
        page.goto("/guides/loop-resolution/")
        page.select_option("#call-event", str(judge["event"].pk))
        walk(page, answers)
        assert (
            page.inner_text("#guide-step tr.current td").strip()
            == guide.nodes["slow-play"].penalty.competitive
        )
        page.fill(".save-form input[name=offender]", "Ana Costa")
        row = current_row(page, "#guide-step")
        assert row.startswith("Game Loss — upgraded:") and "Slow Play" in row, row
        page.screenshot(path=str(SHOTS / "guide-upgrade-before-save.png"), full_page=False)

    def test_a_guides_game_loss_in_a_round_with_one_already_says_only_one_is_received(
        self, page, judge
    ):
        """IPG 1.1: a player who would receive several Game Losses at the same time receives one;
        the guide's preview says so once the round is typed, as the saved call would."""
        from calllog import recording

        recording.record_call(
            judge["user"],
            judge["event"],
            {
                "client_id": "0b8f4c55-2f55-4bd8-9d36-7f1f7b0a2c21",
                "infraction": "Tardiness",
                "players": ["Ana Costa"],
                "round": 2,
            },
        )
        guide = all_guides()["infraction-finder"]
        page.goto("/guides/infraction-finder/")
        page.select_option("#call-event", str(judge["event"].pk))
        walk(page, conclusion_paths(guide)["dlp"])
        page.fill(".save-form input[name=offender]", "Ana Costa")
        row = current_row(page, "#guide-step")
        assert row.startswith("Game Loss") and "only receives one" not in row, row
        page.fill(".save-form input[name=round]", "2")
        page.locator(".save-form input[name=table]").click()  # the round's change event
        page.wait_for_function(
            "() => /only receives one/.test(document.querySelector('#guide-step tr.current td')"
            ".textContent)"
        )
        assert "only receives one" in page.inner_text(".save-form .save-penalty")
        page.fill(".save-form input[name=round]", "3")
        page.locator(".save-form input[name=table]").click()
        page.wait_for_function(
            "() => !/only receives one/.test(document.querySelector('#guide-step tr.current td')"
            ".textContent)"
        )

    def test_a_player_list_that_arrives_after_the_name_is_typed_still_checks_the_penalty(
        self, page, judge
    ):
        """On a slow connection the judge types the player before the event's list arrives: once it
        arrives, the name is a listed player and the penalty is checked against the history."""
        from calllog import recording

        recording.record_call(
            judge["user"],
            judge["event"],
            {
                "client_id": "0b3c3a3e-7d0a-4c8e-9a51-2f4f0a6c1b22",
                "infraction": "Slow Play",
                "players": ["Ana Costa"],
            },
        )
        held = []
        page.route(
            f"**/api/v1/events/{judge['event'].pk}/players", lambda route: held.append(route)
        )
        guide = all_guides()["loop-resolution"]
        page.goto("/guides/loop-resolution/")
        page.select_option("#call-event", str(judge["event"].pk))
        walk(page, conclusion_paths(guide)["slow-play"])
        page.fill(".save-form input[name=offender]", "Ana Costa")
        page.wait_for_timeout(300)
        assert (
            page.get_attribute(".player-picker:has(input[name=offender])", "data-state")
            == "unknown"
        )
        assert held, "the player list was asked for"
        for route in held:
            route.continue_()
        row = current_row(page, "#guide-step")
        assert row.startswith("Game Loss — upgraded:") and "Slow Play" in row, row


class RelOnceTests:
    def test_the_events_rel_answers_the_guides_rel_question(self, page, judge):
        from calllog import services

        regular = services.open_event(
            judge["user"], name="FNM", date=dt.date(2026, 11, 20), rel="regular"
        )
        page.goto("/guides/drawing-and-mulligans/")
        # No event: the guide's own question asks the REL, and no second REL menu is shown.
        assert settled(page, 0)["node"] == "rel"
        assert page.locator("#guide-rel").is_hidden()
        page.select_option("#call-event", str(judge["event"].pk))
        step = settled(page, 1)
        assert step["node"] == "when"  # Competitive taken from the event, not asked
        assert "Competitive (the event’s REL)" in page.inner_text("#guide-trail")
        assert page.inner_text("#guide-rel-fixed") == "REL: Competitive (the event’s)"
        assert page.locator("#guide-rel").is_hidden()
        page.select_option("#call-event", str(regular.pk))
        # The walk keeps its first answer (Competitive), which this Regular event disagrees with:
        # said plainly, nothing silently changed, and the judge walks again at the event's REL.
        settled(page, 1)
        assert "You answered Competitive REL, but FNM is a Regular REL event" in page.inner_text(
            ".rel-warning"
        )
        page.click(".rel-warning button.use-event-rel")
        assert settled(page, 1)["node"] == "regular-when"

    def test_a_regular_answer_cannot_be_saved_to_a_competitive_event(self, page, judge):
        from calllog.models import Call

        guide = all_guides()["drawing-and-mulligans"]
        node_id, answers = next(
            (n, a)
            for n, a in sorted(conclusion_paths(guide).items())
            if a[0] == 0 and guide.nodes[n].infraction
        )
        query = "&".join(f"a={a}" for a in answers)
        page.goto("/guides/drawing-and-mulligans/")
        page.select_option("#call-event", str(judge["event"].pk))
        page.goto(f"/guides/drawing-and-mulligans/?{query}")
        step = settled(page, len(answers))
        assert step["node"] == node_id
        assert page.locator(".rel-warning").is_visible()
        assert page.locator(".save-form").count() == 0
        assert "Not saved" in page.inner_text(".save-call")
        assert Call.objects.count() == 0


class ConclusionTests:
    def open_at_ruling(self, page, viewport) -> None:
        page.set_viewport_size(viewport)
        guide = all_guides()["loop-resolution"]
        answers = conclusion_paths(guide)["shortcut"]
        page.goto("/guides/loop-resolution/")
        walk(page, answers[:-1])
        page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
        walk(page, answers[-1:], start=len(answers) - 1)
        # The conclusion opens at its top: the penalty, then the ruling (issue 30).
        top = page.evaluate(
            "document.querySelector('#guide-step .conclusion').getBoundingClientRect().top"
        )
        # Below the sticky search bar, not under it, and at the top of what is seen.
        bar = page.evaluate("document.querySelector('header.top').getBoundingClientRect().bottom")
        assert bar <= top <= bar + 60, (
            f"the conclusion is at {top}px (search bar to {bar}px) in a {viewport} viewport"
        )
        ruling = page.evaluate(
            "document.querySelector('#guide-step .conclusion h2').getBoundingClientRect().bottom"
        )
        assert ruling <= viewport["height"], f"the ruling ends at {ruling}px, off the screen"
        assert page.evaluate("window.scrollY") > 0, (
            "the walk should have been long enough to scroll"
        )
        return guide

    def test_a_conclusion_opens_at_the_ruling_in_portrait_and_landscape(self, page, judge):
        self.open_at_ruling(page, TABLET)
        page.screenshot(path=str(SHOTS / "conclusion-portrait.png"))
        self.open_at_ruling(page, LANDSCAPE)
        page.screenshot(path=str(SHOTS / "conclusion-landscape.png"))

    def test_results_are_in_words_and_ipg_citations_by_their_parts(self, page, judge):
        self.open_at_ruling(page, TABLET)
        shown = page.inner_text("#guide-step .conclusion")
        assert "{" not in shown and '":' not in shown
        final = page.inner_text('#guide-step .result[data-field="final_state"]')
        assert final.startswith("Final state:") and " life" in final, final
        guide = all_guides()["loop-resolution"]
        page.goto("/guides/loop-resolution/")
        walk(page, conclusion_paths(guide)["slow-play"])
        labels = page.eval_on_selector_all(
            "#guide-step .citations .ipg-part dt", "items => items.map(i => i.textContent)"
        )
        assert (
            labels[:2] == ["Definition", "Penalty"]
            and "Philosophy" in labels
            and "Additional Remedy" in labels
        )
        penalty = page.inner_text('#guide-step .ipg-part[data-part="Penalty"] dd')
        assert penalty.strip() == "Warning"


class EditAndPlayersTests:
    def test_a_judge_edits_a_call_and_the_change_is_kept_with_their_name(self, page, judge):
        from calllog import recording

        call, _ = recording.record_call(
            judge["user"],
            judge["event"],
            {
                "client_id": "0f0e5a4c-7d5b-4f0e-9a51-3b7f3f4f2c01",
                "infraction": "3.3",
                "players": ["Ana Costa"],
                "table": "4",
            },
        )
        page.goto(f"/events/{judge['event'].pk}/calls/{call.pk}/")
        page.click("#edit-call")
        page.fill("#edit-call-form input[name=table]", "14")
        page.fill("#edit-call-form input[name=time_extension]", "2")
        page.fill("#edit-call-form input[name=reason]", "wrong table")
        page.click("#edit-call-form button[type=submit]")
        page.wait_for_selector("#revisions .revisions li")
        history = page.inner_text("#revisions")
        assert "tablet-judge" in history and "wrong table" in history and "4 → 14" in history
        call.refresh_from_db()
        assert (call.table, call.time_extension) == ("14", 2)
        page.goto(f"/events/{judge['event'].pk}/")
        assert "+2" in page.inner_text("#time-extensions + table")

    def test_the_picker_offers_the_listed_spelling_and_a_rename_follows_into_calls(
        self, page, judge
    ):
        from calllog import players
        from calllog.models import Call

        players.add_player(judge["user"], judge["event"], "Ana Costa")
        page.goto(f"/events/{judge['event'].pk}/")
        page.select_option("#record-infraction", "2.2")
        page.fill("#record-form input[name=offender]", "Ana Cotsa")
        picker = page.locator(".player-picker:has(input[name=offender])")
        assert picker.get_attribute("data-state") == "unknown"
        assert not page.evaluate("document.getElementById('record-form').checkValidity()")
        suggestion = picker.locator("button.pick")
        assert suggestion.inner_text() == "Ana Costa"
        assert suggestion.bounding_box()["height"] >= 44
        suggestion.click()
        assert page.input_value("#record-form input[name=offender]") == "Ana Costa"
        assert picker.get_attribute("data-state") == "listed"
        page.click("#record-form button[type=submit]")
        page.wait_for_selector("#record-form .save-status.ok")
        assert Call.objects.get().offender == "Ana Costa"
        # The head judge corrects the name on the list: the call follows.
        page.goto(f"/events/{judge['event'].pk}/players/Ana Costa/")
        page.fill(".rename-player input[name=new_name]", "Ana Maria Costa")
        page.click(".rename-player button[type=submit]")
        page.wait_for_selector("h1:has-text('Ana Maria Costa')")
        assert Call.objects.get().offender == "Ana Maria Costa"


class TournamentDayTests:
    def test_the_day_is_todays_and_a_new_day_starts_the_warnings_again(self, page, judge):
        # IPG 2: "For multi-day tournaments, the penalty count for these infractions resets
        # between days." The event began yesterday: today is day 2.
        from django.contrib.auth.models import User

        from calllog import recording
        from calllog.models import Call

        event = judge["event"]
        from django.utils import timezone

        from calllog.views import DAY_TURNS

        yesterday = (timezone.localtime() - DAY_TURNS).date() - dt.timedelta(days=1)
        type(event).objects.filter(pk=event.pk).update(date=yesterday)
        event.refresh_from_db()
        head = User.objects.get(pk=judge["user"].pk)
        for round_ in (1, 2):
            body = {
                "client_id": str(uuid.uuid4()),
                "infraction": "2.5",
                "players": ["Ana Costa"],
                "round": round_,
                "day": 1,
            }
            recording.record_call(head, event, body)
        page.goto(f"/events/{event.pk}/")
        assert page.input_value("#record-form input[name=day]") == "2"
        record(page, "2.5", "Ana Costa")
        assert current_row(page, "#record-penalties").startswith("Warning")
        page.fill("#record-form input[name=day]", "1")
        page.dispatch_event("#record-form input[name=day]", "change")
        page.wait_for_selector('#record-penalties tr.current[data-preview="upgraded"]')
        page.fill("#record-form input[name=day]", "2")
        page.dispatch_event("#record-form input[name=day]", "change")
        page.wait_for_selector('#record-penalties tr.current[data-preview="checked"]')
        page.click("#record-form button[type=submit]")
        page.wait_for_selector("#record-form .save-status.ok")
        call = Call.objects.order_by("pk").last()
        assert (call.day, call.penalty) == (2, "Warning")
        assert page.input_value("#record-form input[name=day]") == "2", "kept for the next call"


class OfflineRecordTests:
    def test_an_infraction_recorded_offline_waits_on_the_tablet_and_arrives_once(self, page, judge):
        from calllog.models import Call, Player

        event = judge["event"]
        page.goto(f"/events/{event.pk}/")
        page.context.set_offline(True)
        record(page, "3.3", "Ana Costa", minutes="1")
        # No connection: the Competitive row says plainly that her history was not checked.
        page.wait_for_selector('#record-penalties tr.current[data-preview="unchecked"]')
        assert "not checked" in page.inner_text("#record-penalties tr.current td")
        page.click("#record-form button[type=submit]")
        page.wait_for_selector("#record-form .save-status:has-text('No connection')")
        assert page.inner_text("#call-queue").startswith("1 call waiting to be sent")
        assert Call.objects.count() == 0
        # The list's forms post to the server: offline they say so and change nothing.
        page.fill(".add-player input[name=name]", "Walk In")
        page.click(".add-player button[type=submit]")
        assert "needs the network" in page.inner_text(".add-player .offline-note")
        page.context.set_offline(False)
        page.wait_for_selector("#call-queue[hidden]", state="attached", timeout=45000)
        call = Call.objects.get()
        assert (call.ipg_section, call.offender, call.time_extension) == ("3.3", "Ana Costa", 1)
        assert list(Player.objects.values_list("name", flat=True)) == ["Ana Costa"]

    def test_the_form_is_cleared_once_the_call_is_kept_so_a_second_tap_records_nothing_twice(
        self, page, judge
    ):
        from calllog.models import Call

        page.goto(f"/events/{judge['event'].pk}/")
        page.context.set_offline(True)
        record(page, "3.3", "Ana Costa")
        page.click("#record-form button[type=submit]")
        page.wait_for_selector("#record-form .save-status:has-text('No connection')")
        assert page.input_value("#record-form input[name=table]") == ""
        assert page.input_value("#record-form input[name=offender]") == ""
        picker = page.locator(".player-picker:has(input[name=offender])")
        assert picker.get_attribute("data-state") == ""
        assert "on the event" not in picker.inner_text()
        page.context.set_offline(False)
        page.wait_for_selector("#call-queue[hidden]", state="attached", timeout=45000)
        assert Call.objects.count() == 1

    def test_an_answer_that_is_not_the_servers_keeps_the_call_until_the_server_has_it(
        self, page, judge
    ):
        # A venue's Wi-Fi sign-in page answers 200 with HTML (or a proxy 204): the call stays.
        from calllog.models import Call

        event = judge["event"]
        page.goto(f"/events/{event.pk}/")
        portal = {"body": "<html><body>Sign in to Venue-WiFi</body></html>"}
        page.route(
            f"**/api/v1/events/{event.pk}/calls",
            lambda route: route.fulfill(status=200, content_type="text/html", **portal),
        )
        record(page, "3.3", "Ana Costa")
        page.click("#record-form button[type=submit]")
        page.wait_for_selector("#record-form .save-status:has-text('Not sent yet')")
        assert "Wi-Fi" in page.inner_text("#call-queue")
        assert len(page.evaluate("JudgeOffline.pending()")) == 1
        page.reload()
        assert len(page.evaluate("JudgeOffline.pending()")) == 1, "kept across a reload"
        assert Call.objects.count() == 0
        page.unroute(f"**/api/v1/events/{event.pk}/calls")
        page.evaluate("JudgeOffline.flush()")
        page.wait_for_selector("#call-queue[hidden]", state="attached", timeout=45000)
        assert Call.objects.get().ipg_section == "3.3"

    def test_a_proxys_4xx_page_is_no_refusal_and_the_call_is_tried_again(self, page, judge):
        from calllog.models import Call

        event = judge["event"]
        page.goto(f"/events/{event.pk}/")
        url = f"**/api/v1/events/{event.pk}/calls"
        page.route(
            url,
            lambda route: route.fulfill(
                status=407, content_type="text/html", body="<html>Proxy sign-in</html>"
            ),
        )
        record(page, "3.3", "Ana Costa")
        page.click("#record-form button[type=submit]")
        page.wait_for_selector("#record-form .save-status:has-text('Not sent yet')")
        (item,) = page.evaluate("JudgeOffline.pending()")
        assert not item.get("refused") and page.locator("#call-refused").count() == 0
        page.unroute(url)
        page.evaluate("JudgeOffline.flush()")
        page.wait_for_selector("#call-queue[hidden]", state="attached", timeout=45000)
        assert Call.objects.count() == 1

    def test_a_call_the_server_refuses_is_listed_with_its_words_and_can_be_discarded(
        self, page, judge
    ):
        event = judge["event"]
        page.goto(f"/events/{event.pk}/")
        refusal = {
            "error": {
                "code": "invalid",
                "message": "table: a table number or name (at most 20 characters)",
                "details": {"table": ["a table number or name (at most 20 characters)"]},
            }
        }
        page.route(
            f"**/api/v1/events/{event.pk}/calls",
            lambda route: route.fulfill(status=400, json=refusal),
        )
        record(page, "3.3", "Ana Costa", table="12")
        page.click("#record-form button[type=submit]")
        page.wait_for_selector("#record-form .save-status:has-text('Not stored')")
        # The form keeps the call to be corrected; the list says what the server said.
        assert page.input_value("#record-form input[name=table]") == "12"
        line = page.inner_text("#call-refused .refused-call")
        assert "3.3" in line and "Ana Costa" in line and "at most 20 characters" in line
        # Saved again, corrected: the same call, not a second one.
        page.fill("#record-form input[name=table]", "7")
        page.click("#record-form button[type=submit]")
        page.wait_for_selector("#record-form .save-status:has-text('Not stored')")
        assert len(page.evaluate("JudgeOffline.pending()")) == 1
        page.on("dialog", lambda dialog: dialog.accept())
        page.click("#call-refused button.discard")
        page.wait_for_selector("#call-queue[hidden]", state="attached")
        assert page.evaluate("JudgeOffline.pending()") == []

    def test_two_tabs_saving_at_once_keep_every_call(self, page, judge):
        # Two tabs (the home-screen app and a browser tab) each saving a call every few
        # milliseconds at the same time: every call of both is kept.
        page.goto(f"/events/{judge['event'].pk}/")
        other = page.context.new_page()
        other.goto(f"/events/{judge['event'].pk}/")
        page.context.set_offline(True)
        burst = """(tag) => { window.burst = 0; const t = setInterval(() => {
            JudgeOffline.enqueue("/api/v1/events/0/calls",
                                 {infraction: "3.3", players: [tag + window.burst, "B"]});
            if (++window.burst >= 60) clearInterval(t); }, 4); }"""
        page.evaluate(burst, "a")
        other.evaluate(burst, "b")
        for tab in (page, other):
            tab.wait_for_function("window.burst >= 60")
        page.wait_for_timeout(300)
        names = {i["body"]["players"][0] for i in page.evaluate("JudgeOffline.pending()")}
        assert len(names) == 120, f"{120 - len(names)} calls lost"
        other.close()


class DirectCallRulesTests:
    """The direct-call form against the documents: the section's Downgrade stated and given at
    Competitive (IPG 3.1 Tardiness), Deck Problem as the Warning it is (IPG 3.5), and at Regular
    REL nothing of the IPG's upgrades presented as applying (JAR introduction)."""

    def test_a_tardiness_downgrade_is_shown_and_recorded_as_a_warning(self, page, judge):
        from calllog.models import Call

        page.goto(f"/events/{judge['event'].pk}/")
        page.select_option("#record-infraction", "3.5")
        assert (
            page.inner_text('#record-penalties tr[data-rel="professional"] td').strip() == "Warning"
        )
        assert page.locator("#record-downgrade").is_hidden()  # Deck Problem has no Downgrade
        record(page, "3.1", "Ana Costa")
        assert "IPG 3" in page.inner_text("#record-upgrade")
        assert page.locator("#record-downgrade").is_visible()
        said = page.inner_text("#record-downgrade")
        assert "before 1 minute has elapsed" in said and "give Warning" in said, said
        assert current_row(page, "#record-penalties").startswith("Game Loss")
        page.check("#record-downgrade-apply")
        page.wait_for_function(
            "() => document.querySelector('#record-save-penalty').dataset.penalty === 'Warning'"
            " && document.querySelector('#record-save-penalty').dataset.preview === 'checked'"
        )
        assert current_row(page, "#record-penalties").startswith("Warning")
        assert "Penalty to give: Warning" in page.inner_text("#record-save-penalty")
        page.click("#record-form button[type=submit]")
        page.wait_for_selector("#record-form .save-status.ok")
        assert "Tardiness — Warning for Ana Costa" in page.inner_text("#record-form .save-status")
        call = Call.objects.get()
        assert (call.penalty, call.base_penalty, call.needs_review) == ("Warning", "Warning", False)
        assert not page.is_checked("#record-downgrade-apply")  # the form starts afresh
        # IPG 3.1's own Upgrade: "not in their seat 10 minutes into the round ... a Match Loss"
        record(page, "3.1", "Ben Ito")
        assert "give Match Loss" in page.inner_text("#record-raise")
        # the box beside its words, the line a big tap target (it was a box stretched to the
        # form's width, its words under it)
        box = page.locator("#record-raise-apply").bounding_box()
        words = page.locator("#record-raise-choice").bounding_box()
        line = page.locator("#record-raise label").bounding_box()
        assert box["width"] < 60 and box["x"] + box["width"] <= words["x"]
        assert abs((box["y"] + box["height"] / 2) - (words["y"] + words["height"] / 2)) < 8
        assert line["height"] >= 44
        page.check("#record-downgrade-apply")
        page.check("#record-raise-apply")
        assert not page.is_checked("#record-downgrade-apply")  # never both
        page.wait_for_function(
            "() => document.querySelector('#record-save-penalty').dataset.penalty === 'Match Loss'"
            " && document.querySelector('#record-save-penalty').dataset.preview === 'checked'"
        )
        page.click("#record-form button[type=submit]")
        page.wait_for_selector("#record-form .save-status.ok")
        raised = Call.objects.get(offender="Ben Ito")
        assert (raised.penalty, raised.needs_review) == ("Match Loss", False)

    def test_at_regular_the_ipgs_upgrades_and_downgrades_are_not_presented(self, page, judge):
        from calllog import services

        regular = services.open_event(
            judge["user"], name="FNM", date=dt.date(2026, 11, 20), rel="regular"
        )
        page.goto(f"/events/{regular.pk}/")
        assert "upgraded by the player" not in page.inner_text("#record-rule")
        assert "do not apply" in page.inner_text("#record-rule")
        record(page, "3.3", "Ana Costa")
        note = page.inner_text("#record-upgrade")
        assert "do not apply" in note and "JAR" in note, note
        assert "IPG 3" not in note and "IPG upgrade" not in note, note
        page.select_option("#record-infraction", "3.1")
        assert page.locator("#record-downgrade").is_hidden()
        assert "IPG upgrade" not in page.inner_text("#record-upgrade")
        assert no_horizontal_scroll(page)
