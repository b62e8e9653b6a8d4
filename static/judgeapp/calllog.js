/* judgeapp call log on the event page: "Record an infraction" — the infraction's penalty by REL from the
   current IPG (#infraction-data), players picked from the event's list (players.js), the penalty with the
   player's history applied in the highlighted row and beside the player and Save before saving (penalty.js),
   and the call sent through offline.js's queue (kept on the tablet while offline) with the penalty shown
   as "announced_penalty". The IPG's upgrades and the section's Downgrade (with a box to give its penalty)
   are shown at Competitive and Professional only; at Regular REL the JAR applies instead (its note).
   Without this script the form posts to the page. */
(function () {
  "use strict";
  // offline.js is loaded after this script: start once every deferred script has run.
  // (deferred scripts run while readyState is "interactive", before DOMContentLoaded).
  if (window.JudgeOffline) start(); else document.addEventListener("DOMContentLoaded", start);

  /* The list and edit forms post to the server: offline they say so instead of failing. */
  document.addEventListener("submit", function (event) {
    var target = event.target;
    if (!target.matches || !target.matches("form.needs-network") || navigator.onLine) return;
    event.preventDefault();
    var note = target.querySelector(".offline-note");
    if (!note) {
      note = document.createElement("p");
      note.className = "notice warn offline-note";
      note.setAttribute("role", "alert");
      target.appendChild(note);
    }
    note.textContent = "This needs the network: nothing was changed. Try again once the tablet is back online.";
  }, true);

  function start() {
  var form = document.getElementById("record-form");
  var data = document.getElementById("infraction-data");
  if (!form || !data || !window.JudgePlayers || !window.JudgeOffline) return;

  var catalogue = JSON.parse(data.textContent);
  var eventId = form.dataset.event;
  var eventRel = form.dataset.rel;
  // Today's tournament day by this tablet's calendar, unless the judge typed one: set at load, again
  // when the page comes back into view (a tablet left on it overnight) and at Save.
  function setToday() {
    var day = form.elements.day;
    if (!day || !window.JudgePenalty || day.dataset.touched) return false;
    var today = String(JudgePenalty.eventDay(form.dataset.date));
    if (day.value === today) return false;
    day.value = today;
    return true;
  }
  setToday();
  if (form.elements.day) form.elements.day.addEventListener("input", function () { form.elements.day.dataset.touched = "1"; });
  document.addEventListener("visibilitychange", function () {
    if (document.hidden || !setToday()) return;
    refresh();
    status.className = "save-status";
    status.textContent = "A new tournament day began: Day is now " + form.elements.day.value + ".";
  });
  var select = document.getElementById("record-infraction");
  var table = document.getElementById("record-penalties");
  var upgradeNote = document.getElementById("record-upgrade");
  var fixNote = document.getElementById("record-fix");
  var previewed = "";   // the penalty the last preview gave (showFix)
  var downgradeBox = document.getElementById("record-downgrade");
  var downgradeText = document.getElementById("record-downgrade-text");
  var downgradeLabel = document.getElementById("record-downgrade-label");
  var downgradeApply = document.getElementById("record-downgrade-apply");
  var downgradeChoice = document.getElementById("record-downgrade-choice");
  var raiseBox = document.getElementById("record-raise");
  var raiseApply = document.getElementById("record-raise-apply");
  var raiseChoice = document.getElementById("record-raise-choice");
  var box = document.getElementById("record-save-penalty");
  var status = form.querySelector(".save-status");
  var slot = document.getElementById("record-players");
  var serial = 0;

  var offender = JudgePlayers.picker({ label: "Player penalised", name: "offender", required: true });
  var opponent = JudgePlayers.picker({ label: "Opponent (optional)", name: "opponent" });
  while (slot.firstChild) slot.removeChild(slot.firstChild);
  slot.appendChild(offender.element);
  slot.appendChild(opponent.element);
  var initial = JSON.parse((document.getElementById("roster-data") || { textContent: "[]" }).textContent || "[]");
  JudgePlayers.remember(eventId, initial);
  offender.setRoster(initial); opponent.setRoster(initial);
  JudgePlayers.roster(eventId).then(function (names) { offender.setRoster(names); opponent.setRoster(names); });

  function chosen() {
    return catalogue.filter(function (i) { return i.number === select.value; })[0] || null;
  }
  function currentRow() { return table.querySelector('tr[data-rel="' + eventRel + '"]'); }
  /* Whether the judge gives the section's Downgrade penalty: offered at Competitive and Professional
     only (the JAR: the IPG does not apply at Regular), for a Downgrade that names one penalty. */
  function downgraded(infraction) {
    return !!(infraction && eventRel !== "regular" && infraction.downgrade_penalty && downgradeApply && downgradeApply.checked);
  }
  /* Whether the judge gives the section's own Upgrade penalty (Tardiness's Match Loss at 10 minutes):
     the same RELs, for an Upgrade that names one penalty other than the section's. */
  function raised(infraction) {
    return !!(infraction && eventRel !== "regular" && infraction.upgrade_penalty && raiseApply && raiseApply.checked);
  }
  /* The penalty the judge gives before the player's earlier penalties are counted. */
  function basePenalty(infraction) {
    if (downgraded(infraction)) return infraction.downgrade_penalty;
    if (raised(infraction)) return infraction.upgrade_penalty;
    return infraction.penalty[eventRel];
  }
  /* The fix to explain with the penalty (IPG 1.2), and, while the penalty to give is a Game Loss or
     more at Competitive or Professional, the word to report it to the Head Judge (as the saved
     call says it: Call.head_judge_note). */
  function showFix(infraction, penalty) {
    if (!fixNote) return;
    var fix = (infraction.fix || {})[eventRel] || "";
    var severe = eventRel !== "regular" && /^\s*(game loss|match loss|disqualification)\b/i.test(penalty || "");
    var note = severe ? infraction.head_judge_note || "" : "";
    fixNote.textContent = [fix ? "Fix: " + fix : "", note].filter(Boolean).join("\n");
    fixNote.hidden = !fixNote.textContent;
  }
  function showRules(infraction) {
    showFix(infraction, basePenalty(infraction));
    if (eventRel === "regular") {
      upgradeNote.textContent = infraction.regular_note || "";
    } else {
      upgradeNote.textContent = [infraction.count_upgrade, infraction.upgrade ? "IPG upgrade: " + infraction.upgrade : ""].filter(Boolean).join(" ");
    }
    upgradeNote.hidden = !upgradeNote.textContent;
    if (raiseBox) {
      var raise = eventRel !== "regular" && !!infraction.upgrade_penalty;
      raiseBox.hidden = !raise;
      raiseChoice.textContent = raise ? "The upgrade applies: give " + infraction.upgrade_penalty : "";
      if (!raise) raiseApply.checked = false;
    }
    if (!downgradeBox) return;
    var offered = eventRel !== "regular" && !!infraction.downgrade;
    downgradeBox.hidden = !offered;
    downgradeText.textContent = offered ? "IPG downgrade (" + infraction.number + "): " + infraction.downgrade : "";
    var choice = offered && !!infraction.downgrade_penalty;
    downgradeLabel.hidden = !choice;
    downgradeChoice.textContent = choice ? "The downgrade applies: give " + infraction.downgrade_penalty : "";
    if (!choice) downgradeApply.checked = false;
  }

  /* keepShown: only the round changed, which adds IPG 1.1's note but never changes the penalty: the
     penalty shown stays (and is what Save announces) until the new preview replaces it. */
  function refresh(keepShown) {
    var infraction = chosen();
    table.hidden = !infraction;
    upgradeNote.hidden = !infraction;
    if (fixNote && !infraction) fixNote.hidden = true;
    if (downgradeBox) downgradeBox.hidden = !infraction;
    if (raiseBox) raiseBox.hidden = !infraction;
    if (box) box.hidden = !infraction;
    if (!infraction) return;
    var player = offender.value();
    var row = currentRow();
    var keep = keepShown === true && !!player && JudgePenalty.settled(row);
    table.querySelectorAll("tr").forEach(function (each) {
      if (keep && each === row) return;   // nothing moves under the judge's finger
      each.querySelector("td").textContent = infraction.penalty[each.dataset.rel] || "";
    });
    showRules(infraction);
    // only the round changed: the fix and its Head Judge note stay as the last preview left them
    // (nothing moves under the judge's finger)
    if (keep) showFix(infraction, previewed);
    var lower = downgraded(infraction);
    var base = basePenalty(infraction);
    var both = function (next, state, note) { JudgePenalty.show(row, base, next, state, note); JudgePenalty.summary(box, base, next, state, note); };
    var mine = ++serial;
    if (!keep) both(null, "");
    if (!player) return;
    if (!keep) {
      row.dataset.preview = "loading";
      JudgePenalty.summary(box, base, null, "loading");
    }
    var params = { infraction: infraction.number };
    // the round: a second Game Loss in it says the player receives only one given at the same time (IPG 1.1)
    if (/^\d+$/.test(String(form.elements.round.value).trim())) params.round = String(form.elements.round.value).trim();
    // the day: IPG 2 and 3 reset Warning counts between days
    if (form.elements.day && /^\d+$/.test(String(form.elements.day.value).trim())) params.day = String(form.elements.day.value).trim();
    if (lower) params.downgrade = "true";
    if (raised(infraction)) params.upgrade = "true";
    JudgePenalty.fetchNext(eventId, player, params).then(function (next) {
      if (mine !== serial) return;
      both(next, "checked");
      previewed = next && next.penalty;
      showFix(infraction, previewed);
    }, function (error) {
      if (mine !== serial) return;
      // Refused (a round the server will not take, a session ended, too many requests) or offline:
      // the player's earlier penalties were not checked, and the page says so; a player not yet on
      // the list is answered by the server like any other (no history), never refused.
      both(null, "offline", error.refused ? "not checked against the player's earlier penalties (" + error.message + ")" : undefined);
    });
  }
  /* The saved call at the top of the event's list of calls, without reloading the page. */
  function listCall(reply) {
    var heading = document.getElementById("calls");
    var list = heading && heading.nextElementSibling;
    while (list && list.tagName !== "UL" && list.tagName !== "H2") list = list.nextElementSibling;   // past the filter
    if (!list || list.tagName !== "UL") return;
    list.querySelectorAll("li.muted").forEach(function (li) { li.remove(); });
    var link = document.createElement("a");
    link.className = "row call-row";
    link.href = "/events/" + eventId + "/calls/" + reply.id + "/";
    [["num", "#" + reply.id], ["", reply.table ? "Table " + reply.table + (reply.round ? " · R" + reply.round : "") : ""],
     ["strong", reply.infraction], ["penalty-tag" + (reply.upgraded ? " upgraded" : ""), reply.penalty + (reply.upgraded ? " (upgraded)" : "")],
     ["tag flag review-flag", reply.needs_review ? "For the head judge: announced " + reply.announced_penalty + ", computed " + reply.computed_penalty : ""],
     ["", reply.offender || ""], ["tag time-extension", reply.time_extension ? "+" + reply.time_extension + " min" : ""]]
      .forEach(function (part) {
        if (!part[1]) return;
        var span = document.createElement(part[0] === "strong" ? "strong" : "span");
        if (part[0] && part[0] !== "strong") span.className = part[0];
        span.textContent = part[1];
        link.appendChild(span);
      });
    var item = document.createElement("li");
    item.appendChild(link);
    list.insertBefore(item, list.firstChild);
    heading.textContent = "Calls (" + list.querySelectorAll("li").length + ")";
  }

  select.addEventListener("change", function () {
    if (downgradeApply) downgradeApply.checked = false;   // another infraction: its own Downgrade, unticked
    if (raiseApply) raiseApply.checked = false;
    refresh();
  });
  offender.onChange(function () { refresh(); });
  // the Upgrade and the Downgrade never both apply: ticking one unticks the other
  if (downgradeApply) downgradeApply.addEventListener("change", function () {
    if (downgradeApply.checked && raiseApply) raiseApply.checked = false;
    refresh();
  });
  if (raiseApply) raiseApply.addEventListener("change", function () {
    if (raiseApply.checked && downgradeApply) downgradeApply.checked = false;
    refresh();
  });
  form.elements.round.addEventListener("change", function () { refresh(true); });
  if (form.elements.day) form.elements.day.addEventListener("change", function () { refresh(); });

  form.addEventListener("submit", function (submitEvent) {
    submitEvent.preventDefault();
    if (setToday()) {   // a new day began: the penalty shown was the day before's
      refresh();
      status.className = "save-status";
      status.textContent = "A new tournament day began: Day is now " + form.elements.day.value + ". Check the penalty, then save.";
      return;
    }
    if (!form.reportValidity()) return;
    var infraction = chosen();
    var players = [offender.value(), opponent.value()].filter(Boolean);
    var body = {
      // A call the server refused, corrected here and saved again, replaces the refused one in the queue.
      client_id: form.dataset.retry || JudgeOffline.uuid(),
      infraction: infraction.number,
      rel: eventRel,
      table: String(form.elements.table.value).trim(),
      round: form.elements.round.value ? Number(form.elements.round.value) : null,
      day: form.elements.day && form.elements.day.value ? Number(form.elements.day.value) : null,
      time_extension: form.elements.time_extension.value ? Number(form.elements.time_extension.value) : null,
      players: players,
      offender: players[0],
      // What the judge was shown, and so gave (the server flags the call when the history gives another).
      announced_penalty: (box && box.dataset.penalty) ||
        JudgePenalty.label(basePenalty(infraction) || ""),
      created_at: new Date().toISOString()
    };
    if (downgraded(infraction)) body.downgrade = true;   // the section's Downgrade: its penalty, not a deviation
    if (raised(infraction)) body.upgrade = true;   // and its own Upgrade likewise
    var button = form.querySelector("button[type=submit]");
    button.disabled = true;
    status.className = "save-status";
    status.textContent = "Saving…";
    JudgeOffline.enqueue(form.dataset.callsUrl, body).then(function (outcome) {
      button.disabled = false;
      var reply = outcome.reply || {};
      status.className = "save-status" + (outcome.sent ? " ok" : "");
      status.textContent = outcome.sent
        ? "Saved: " + reply.infraction + " — " + reply.penalty + " for " + reply.offender + "." +
          (reply.needs_review ? " Flagged for the head judge: " + reply.review_reason : "")
        : outcome.refused ? "Not stored: " + outcome.error + ". Correct the call and save it again (it replaces " +
          "the refused one), or discard it from the list above."
        : outcome.error ? "Not sent yet (" + outcome.error + "): kept on this tablet and tried again. The form is " +
          "clear for the next call."
        : "No connection: the call is kept on this tablet and sent when the connection returns. The form is " +
          "clear for the next call.";
      var names = JudgePlayers.remember(eventId, players);
      offender.setRoster(names); opponent.setRoster(names);
      // refused: kept on the form to correct; saved again it replaces the refused call, and that
      // save says what becomes of it (no second notice waiting here)
      if (outcome.refused) { form.dataset.retry = outcome.client_id; return; }
      delete form.dataset.retry;
      if (!outcome.sent && JudgeOffline.whenSent) JudgeOffline.whenSent(outcome.client_id, function (sent) {
        var flagged = document.createElement("p");
        flagged.className = "notice" + (sent.needs_review ? " warn review-flag" : "") + " synced";
        flagged.setAttribute("role", sent.needs_review ? "alert" : "status");
        flagged.textContent = "Sent: " + sent.infraction + " — " + sent.penalty + " for " + sent.offender + "." +
          (sent.needs_review ? " Flagged for the head judge: " + sent.review_reason : "");
        status.parentNode.insertBefore(flagged, status.nextSibling);
        if (sent.id) listCall(sent);
      });
      // Sent, or kept on this tablet to be sent: either way it is saved, and a second tap on a form
      // still filled in would record the same call twice.
      form.reset();
      if (form.elements.day) delete form.elements.day.dataset.touched;
      setToday();
      offender.input.value = ""; opponent.input.value = "";
      // the pickers say what their (now empty) fields hold: no "on the list" left under them
      [offender, opponent].forEach(function (p) { p.input.dispatchEvent(new Event("input")); });
      refresh();
      if (outcome.sent) {
        if (reply.id) listCall(reply);
        if (reply.id) {
          var link = document.createElement("a");
          link.href = "/events/" + eventId + "/calls/" + reply.id + "/";
          link.textContent = " Open call #" + reply.id;
          status.appendChild(link);
        }
      }
    });
  });
  refresh();
  }
})();
