/* judgeapp penalty preview: the penalty a conclusion or an infraction would give this player now, with
   the event's history applied (GET /api/v1/events/{id}/players/{name}?guide=&conclusion= or ?infraction=),
   written into the highlighted row of a penalty table before the judge announces it.
   window.JudgePenalty = { fetchNext(eventId, player, params) -> Promise<next|null>, show(row, base, next, state) }. */
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

  /* "Game Loss — upgraded: this player already received a Warning for Slow Play … , IPG 3" */
  function upgradeText(next) {
    var reason = String(next.reason || "").replace(/^Upgraded to [^:]+:\s*/, "").replace(/\.\s*$/, "");
    var cited = (next.citations || []).filter(function (c) { return c.number; }).map(function (c) {
      return String(c.doc).toUpperCase() + " " + c.number;
    });
    return next.penalty + " — upgraded: " + reason + (cited.length ? ", " + cited.join(", ") : "");
  }

  /* Write the preview into a penalty table row: state is "checked", "offline" or "" (no player yet). */
  function show(row, base, next, state, note) {
    if (!row) return;
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
    } else if (state === "offline" && /^warning/i.test(base)) {   // only a Warning is upgraded by count
      row.dataset.preview = "unchecked";
      row.classList.add("unchecked");
      cell.textContent = base + " — " + (note || "not checked against the player's earlier penalties (no connection): an earlier Warning may upgrade it");
    } else {
      cell.textContent = base;
    }
  }

  window.JudgePenalty = { fetchNext: fetchNext, show: show, upgradeText: upgradeText };
})();
