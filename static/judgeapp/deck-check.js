/* Deck-check counter: registered and counted cards per type, kept on this device (localStorage), so a
   reload or a lost connection loses nothing. Big + and − buttons; Undo takes back the last tap, or the
   last "New deck check" (which keeps the check it cleared in the Undo history). The Undo history is
   kept on the device too, so a reload does not lose it. A type whose count does not match says so in
   words, not by colour alone. Every tap reads the check as stored first, and a change made in another
   tab (the home-screen app beside a browser tab) is shown at once, so two tabs count into one check and
   neither writes over the other's counts. */
(function () {
  "use strict";
  var form = document.getElementById("deck-check");
  if (!form) return;
  var KEY = "judgeapp-deck-check", UNDO_KEY = "judgeapp-deck-check-undo", KEPT = 500;
  var rows = Array.prototype.slice.call(form.querySelectorAll("tr[data-type]"));
  var statusEl = document.getElementById("deck-status");
  var data, history;
  var stored = true;   // false once storage refused a write: then the check counts in memory alone
  sync();

  function load(key, empty) {
    try { return JSON.parse(localStorage.getItem(key) || "null") || empty(); } catch (e) { return empty(); }
  }
  function fresh() { return { player: "", registered: {}, counted: {}, sideboard: 0 }; }
  /* The check and its Undo history as stored (another tab may have counted since this one read them). */
  function sync() {
    if (!stored) return;
    data = load(KEY, fresh);
    data.registered = data.registered || {}; data.counted = data.counted || {};
    history = load(UNDO_KEY, function () { return []; });
    if (!Array.isArray(history)) history = [];
  }
  function save() {
    try {
      localStorage.setItem(KEY, JSON.stringify(data));
      localStorage.setItem(UNDO_KEY, JSON.stringify(history.slice(-KEPT)));
      stored = true;
    } catch (e) { stored = false; /* kept in memory, and counted there */ }
  }
  function remember(entry) { history.push(entry); if (history.length > KEPT) history.splice(0, history.length - KEPT); }
  function say(text) { statusEl.textContent = text; }
  function total(check) {
    return Object.keys(check.counted || {}).reduce(function (sum, type) { return sum + (check.counted[type] || 0); }, 0);
  }
  function render() {
    var registered = 0, counted = 0, off = 0;
    form.elements.player.value = data.player || "";
    form.elements.sideboard.value = data.sideboard || 0;
    rows.forEach(function (row) {
      var type = row.dataset.type, r = data.registered[type], c = data.counted[type] || 0;
      row.querySelector(".registered").value = r === undefined || r === null ? "" : r;
      row.querySelector(".counted").textContent = c;
      var wrong = r !== undefined && r !== null && r !== "" && Number(r) !== c;
      row.classList.toggle("off", wrong);
      var mark = row.querySelector(".off-mark");
      mark.textContent = wrong ? (c > Number(r) ? c - Number(r) + " over" : Number(r) - c + " short") : "";
      mark.hidden = !wrong;
      if (wrong) off++;
      registered += Number(r || 0); counted += c;
    });
    document.getElementById("deck-registered").textContent = registered;
    document.getElementById("deck-counted").textContent = counted;
    var verdict = document.getElementById("deck-verdict"), matches = counted === registered && !off;
    verdict.textContent = matches ? "Matches" : "Off by " + (counted - registered) + (off ? " (" + off + " type" + (off > 1 ? "s" : "") + ")" : "");
    verdict.dataset.verdict = matches ? "matches" : "off";
    document.getElementById("deck-undo").disabled = !history.length;
  }
  rows.forEach(function (row) {
    var type = row.dataset.type;
    row.querySelector(".plus").addEventListener("click", function () {
      sync(); remember({ tap: type, by: 1 }); data.counted[type] = (data.counted[type] || 0) + 1; say(""); save(); render();
    });
    row.querySelector(".minus").addEventListener("click", function () {
      sync();
      if (!data.counted[type]) { render(); return; }
      remember({ tap: type, by: -1 }); data.counted[type] -= 1; say(""); save(); render();
    });
    row.querySelector(".registered").addEventListener("input", function (event) {
      var value = event.target.value.trim();
      sync();
      data.registered[type] = value === "" ? null : Math.max(0, parseInt(value, 10) || 0);
      save(); render();
    });
  });
  form.elements.player.addEventListener("input", function (event) { sync(); data.player = event.target.value; save(); });
  form.elements.sideboard.addEventListener("input", function (event) { sync(); data.sideboard = Math.max(0, parseInt(event.target.value, 10) || 0); save(); });
  document.getElementById("deck-undo").addEventListener("click", function () {
    sync();
    var last = history.pop();
    if (!last) return;
    if (last.wiped) {
      data = last.wiped;
      say("Deck check brought back" + (data.player ? " (" + data.player + ")" : "") + ".");
    } else {
      var type = last.tap || last[0], by = last.tap ? last.by : last[1];  // [type, by]: an older page's entry
      data.counted[type] = Math.max(0, (data.counted[type] || 0) - by);
      say("");
    }
    save(); render();
  });
  document.getElementById("deck-reset").addEventListener("click", function () {
    sync();
    var empty = JSON.stringify(data) === JSON.stringify(fresh());
    if (!empty) remember({ wiped: data });
    var who = data.player, cards = total(data);
    data = fresh(); save(); render();
    if (!empty) say("New deck check started. Undo brings back the last one (" + (who ? who + ", " : "") + cards + " card" + (cards === 1 ? "" : "s") + " counted).");
  });
  window.addEventListener("storage", function (event) {
    if (event.key === null || event.key === KEY || event.key === UNDO_KEY) { sync(); render(); }
  });
  render();
})();
