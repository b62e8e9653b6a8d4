"""static/judgeapp/penalty.js offline: a penalty the server may upgrade by the player's earlier ones
is marked "not checked" when there is no connection to ask; the set is the server's
(calllog.penalties.apply_upgrades), run under node (tests/node_process.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from calllog import penalties
from tests.node_process import NODE, run_node

STATIC = Path(__file__).resolve().parents[2] / "static" / "judgeapp"

pytestmark = pytest.mark.skipif(
    NODE is None, reason="node is not installed (apt-get install nodejs)"
)

# penalty.js's show() on a stand-in table row: what the row is marked and says offline
SHOW_OFFLINE = """
const vm = require('vm');
const fs = require('fs');
const context = {window: {}, URLSearchParams, fetch: () => null};
vm.runInNewContext(fs.readFileSync(input.script, 'utf8'), context);
return input.penalties.map(base => {
  const classes = new Set();
  const cell = {textContent: ''};
  const row = {dataset: {}, querySelector: () => cell,
               classList: {add: c => classes.add(c), remove: (...cs) => cs.forEach(c => classes.delete(c))}};
  context.window.JudgePenalty.show(row, base, null, 'offline');
  return {base, preview: row.dataset.preview || '', text: cell.textContent};
});
"""  # noqa: E501


def _upgradable(base: str) -> bool:
    """Whether an earlier offense can upgrade `base` for some infraction, by the server's rules."""
    for infraction, category in [
        ("Hidden Card Error", penalties.GAME_PLAY_ERROR),
        ("Slow Play", penalties.TOURNAMENT_ERROR),
        (penalties.USC_MINOR, penalties.UNSPORTING_CONDUCT),
        (penalties.USC_MAJOR, penalties.UNSPORTING_CONDUCT),
        ("Cheating", penalties.UNSPORTING_CONDUCT),
    ]:
        earlier = penalties.Offense(infraction, category, base)
        if penalties.apply_upgrades([earlier, earlier], earlier).upgraded:
            return True
    return False


def test_offline_a_penalty_an_earlier_one_may_upgrade_is_marked_unchecked():
    shown = run_node(
        SHOW_OFFLINE,
        {"script": str(STATIC / "penalty.js"), "penalties": list(penalties.PENALTY_NAMES)},
    )
    marked = {row["base"] for row in shown if row["preview"] == "unchecked"}
    assert marked == {base for base in penalties.PENALTY_NAMES if _upgradable(base)}
    assert marked == {penalties.WARNING, penalties.MATCH_LOSS}  # IPG 2, 3, 4.1; IPG 4.2
    for row in shown:
        if row["preview"] == "unchecked":
            assert "earlier penalty may upgrade it" in row["text"]
        else:
            assert row["text"] == row["base"]


# penalty.js's summary() (the line beside Save) on a stand-in box, offline
SUMMARY_OFFLINE = """
const vm = require('vm');
const fs = require('fs');
const context = {window: {}, URLSearchParams, fetch: () => null,
                 document: {createElement: () => ({textContent: ''}),
                            createTextNode: text => ({textContent: text})}};
vm.runInNewContext(fs.readFileSync(input.script, 'utf8'), context);
return input.penalties.map(base => {
  const kids = [];
  const box = {dataset: {}, classList: {toggle: () => null},
               get firstChild() { return kids[0]; }, removeChild: () => kids.shift(),
               appendChild: node => kids.push(node)};
  context.window.JudgePenalty.summary(box, base, null, 'offline');
  return {base, text: kids.map(k => k.textContent).join('')};
});
"""


def test_offline_the_line_beside_save_says_too_what_an_earlier_penalty_may_upgrade():
    # the line the judge reads where they tap Save: a Match Loss for Unsporting Conduct - Major
    # (IPG 4.2: a repeat is a Disqualification) says "not checked" as a Warning does
    shown = run_node(
        SUMMARY_OFFLINE,
        {"script": str(STATIC / "penalty.js"), "penalties": list(penalties.PENALTY_NAMES)},
    )
    for row in shown:
        if _upgradable(row["base"]):
            assert "not checked" in row["text"], row
        else:
            assert "not checked" not in row["text"], row


EVENT_DAY = """
const vm = require('vm');
const fs = require('fs');
const context = {window: {}, URLSearchParams, fetch: () => null};
vm.runInNewContext(fs.readFileSync(input.script, 'utf8'), context);
return input.cases.map(([date, today]) => {
  const [y, m, d] = today.split('-').map(Number);
  return [
    context.window.JudgePenalty.eventDay(date, new Date(y, m - 1, d, 23, 30)),
    context.window.JudgePenalty.eventDay(date, new Date(y, m - 1, d, 0, 20)),
  ];
});
"""


def test_the_tablets_event_day_is_the_servers():
    import datetime as dt

    from calllog.models import Event
    from calllog.views import event_day

    start = dt.date(2026, 2, 27)  # across the end of February, and a year's turn below
    cases = [(start, start + dt.timedelta(days=n)) for n in range(-2, 10)]
    cases += [(dt.date(2026, 12, 31), dt.date(2027, 1, 2))]
    days = run_node(
        EVENT_DAY,
        {
            "script": str(STATIC / "penalty.js"),
            "cases": [[a.isoformat(), b.isoformat()] for a, b in cases],
        },
    )
    evening = [late for late, _ in days]
    past_midnight = [early for _, early in days]
    assert evening == [event_day(Event(date=a), b) for a, b in cases]
    assert evening[2:9] == [1, 2, 3, 4, 5, 6, 7] and evening[9] == 1 and evening[-1] == 3
    # at 00:20 it is still the day before's tournament day (round 9 of day 1 past midnight)
    assert past_midnight[3:9] == [1, 2, 3, 4, 5, 6]
