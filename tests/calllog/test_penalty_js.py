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
