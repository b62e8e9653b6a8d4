/* judgeapp penalty preview: the penalty a conclusion or an infraction would give this player now, with
   the event's history applied (GET /api/v1/events/{id}/players/{name}?guide=&conclusion= or ?infraction=),
   written into the highlighted row of a penalty table before the judge announces it, and beside the
   player field and the Save button (summary: where the judge taps), with the penalty to announce kept
   in its data-penalty: the call sends it as "announced_penalty", so what is saved is what was shown.
   Penalties are written one way (label, as calllog/penalties.py penalty_label): "Warning", never
   "Warning (Tournament Error - Insufficient Shuffling)".
   window.JudgePenalty = { eventDay(date), fetchNext(eventId, player, params) -> Promise<next|null>, show(row, base, next, state),
                           summary(box, base, next, state, note), label(text), upgradeText(next),
                           settled(row) }. */
(function () {
  "use strict";

  function fetchNext(eventId, player, params) {
    var query = new URLSearchParams(params || {});
    var url = "/api/v1/events/" + encodeURIComponent(eventId) + "/players/" + encodeURIComponent(player) + "?" + query.toString();
    return fetch(url, { credentials: "same-origin", headers: { "Accept": "application/json" } }).then(function (response) {
      if (!response.ok) {
        var error = new Error("the server answered " + response.status);
        error.refused = true;
        throw error;
      }
      return response.json();
    }).then(function (body) { return body.next || null; });
  }

  var NAMES = ["Warning", "Game Loss", "Match Loss", "Disqualification"];
  var CATEGORIES = ["game play error", "tournament error", "unsporting conduct"];
  function tidy(text) { return String(text || "").replace(/\s+/g, " ").trim(); }

  /* The one way a penalty is written (calllog/penalties.py penalty_label): a penalty with its
     infraction's IPG title in brackets (and who receives it) is the penalty alone. */
  function label(text) {
    var cleaned = tidy(text);
    var head = cleaned;
    var match = cleaned.match(/^([^()]+?)\s*\(([^()]*)\)\s*(?:,\s*to the [\w' ]+)?\.?$/);
    if (match) {
      var title = match[2].split(",")[0];
      var category = title.indexOf(" - ") >= 0 ? title.split(" - ")[0].toLowerCase() : "";
      if (CATEGORIES.indexOf(category) < 0) return cleaned;
      head = match[1];
    }
    var bare = head.replace(/\.$/, "").toLowerCase();
    for (var i = 0; i < NAMES.length; i++) if (bare === NAMES[i].toLowerCase()) return NAMES[i];
    return cleaned;
  }

  /* "Game Loss — upgraded: this player already received a Warning for Slow Play … , IPG 3" */
  function upgradeText(next) {
    var reason = String(next.reason || "").replace(/^Upgraded to [^:]+:\s*/, "").replace(/\.\s*$/, "");
    var cited = (next.citations || []).filter(function (c) { return c.number; }).map(function (c) {
      return String(c.doc).toUpperCase() + " " + c.number;
    });
    return next.penalty + " — upgraded: " + reason + (cited.length ? ", " + cited.join(", ") : "");
  }

  /* Whether a penalty row shows a preview that has arrived (checked, upgraded, or not checked for want of
     a connection): what a change that cannot alter the penalty (the round) leaves in place. */
  function settled(row) { return /^(checked|upgraded|unchecked)$/.test((row && row.dataset.preview) || ""); }

  /* The penalty the judge is shown, and so announces: the server's when it was checked, else the guide's. */
  function toAnnounce(base, next, state) {
    return state === "checked" && next ? label(next.penalty) : label(base);
  }

  /* Write the preview into a penalty table row: state is "checked", "offline" or "" (no player yet). */
  function show(row, base, next, state, note) {
    if (!row) return;
    row.dataset.penalty = toAnnounce(base, next, state);
    var cell = row.querySelector("td");
    row.classList.remove("upgraded", "unchecked");
    delete row.dataset.preview;
    if (state === "checked" && next) {
      row.dataset.preview = next.upgraded ? "upgraded" : "checked";
      if (next.upgraded) {
        row.classList.add("upgraded");
        cell.textContent = upgradeText(next);
      } else {
        cell.textContent = next.penalty + (next.reason ? " — " + next.reason : " — checked against this player’s earlier penalties at this event");
      }
    } else if (state === "offline" && /^(warning|match loss)/i.test(base)) {
      // a Warning is upgraded by an earlier one (IPG 4.1: any earlier Unsporting Conduct - Minor), a
      // Match Loss for Unsporting Conduct - Major by a repeat (IPG 4.2): calllog/penalties.py
      row.dataset.preview = "unchecked";
      row.classList.add("unchecked");
      cell.textContent = label(base) + " — " + (note || "not checked against the player's earlier penalties (no connection): an earlier penalty may upgrade it");
    } else {
      cell.textContent = base;
    }
  }

  /* The penalty to give, beside the player field and the Save button: state "checked", "offline",
     "loading", or "" (no player chosen yet). data-penalty is what the call announces. */
  function summary(box, base, next, state, note) {
    if (!box) return;
    var penalty = toAnnounce(base, next, state);
    box.dataset.penalty = penalty;
    box.dataset.preview = state === "checked" && next ? (next.upgraded ? "upgraded" : "checked") : (state || "none");
    box.classList.toggle("upgraded", !!(state === "checked" && next && next.upgraded));
    box.classList.toggle("unchecked", state === "offline");
    while (box.firstChild) box.removeChild(box.firstChild);
    var strong = document.createElement("strong");
    strong.className = "penalty";
    strong.textContent = penalty;
    box.appendChild(document.createTextNode("Penalty to give: "));
    box.appendChild(strong);
    var words = "";
    if (state === "checked" && next && next.upgraded) words = " — " + upgradeText(next).slice(String(next.penalty).length + 3);
    else if (state === "checked" && next) words = next.reason ? " — " + next.reason : " — checked against this player’s earlier penalties at this event";
    else if (state === "offline" && /^warning/i.test(penalty)) words = " — " + (note || "not checked (no connection): an earlier Warning may upgrade it, and the head judge is told if it does");
    // IPG 4.2: a repeat of Unsporting Conduct - Major is a Disqualification (the row says so too)
    else if (state === "offline" && /^match loss/i.test(penalty)) words = " — " + (note || "not checked (no connection): an earlier penalty may upgrade it, and the head judge is told if it does");
    else if (state === "loading") words = " — checking this player’s earlier penalties…";
    else if (!state && penalty) words = " — choose the player penalised to check their earlier penalties";
    if (words) box.appendChild(document.createTextNode(words));
  }

  /* The tournament day of a call made today on this device: 1 on the event's date (YYYY-MM-DD), 2 the
     day after, by the device's own calendar (the venue's), up to a week (calllog/views.py EVENT_DAYS); a
     call made later is entered after the event: day 1 unless the judge says. The day turns at 06:00, not
     at midnight. IPG 2 and 3 reset Warning counts between days. */
  var DAY_TURNS_HOURS = 6;   // calllog/views.py DAY_TURNS
  function eventDay(date, now) {
    var m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(String(date || ""));
    if (!m) return 1;
    // a tournament day runs past midnight: until 06:00 it is still the day before's (round 9 at
    // 00:20 is day 1's)
    var today = new Date((now || new Date()).getTime() - DAY_TURNS_HOURS * 3600000);
    var start = Date.UTC(+m[1], +m[2] - 1, +m[3]);
    var local = Date.UTC(today.getFullYear(), today.getMonth(), today.getDate());
    var day = Math.round((local - start) / 86400000) + 1;
    return day >= 1 && day <= 7 ? day : 1;
  }

  window.JudgePenalty = { eventDay: eventDay, fetchNext: fetchNext, show: show, summary: summary, label: label, toAnnounce: toAnnounce, upgradeText: upgradeText,
                          settled: settled };
})();
