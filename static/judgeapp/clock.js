/* The round clock: ticks every second from the server's state (corrected for this device's clock), asks
   the server again every 10 seconds, warns at 10 and 5 minutes left (then says the whole minutes left,
   as the clock shows them), and keeps ticking from the last state it had when the network drops. Head
   judges' buttons post actions; Start and End change every judge's tablet, so they ask first, and a
   Start while a round is under way asks to restart it (the server refuses a start without it). Offline,
   a start and "+1 minute" are kept in the tablet's queue (offline.js) and sent once the connection
   returns; pause, resume and end need the network. */
(function () {
  "use strict";
  var box = document.getElementById("round-clock");
  if (!box) return;
  var url = box.dataset.url, key = "judgeapp-clock-" + box.dataset.event;
  var timeEl = document.getElementById("clock-time"), roundEl = document.getElementById("clock-round");
  var warnEl = document.getElementById("clock-warning"), statusEl = document.getElementById("clock-status");
  var state = JSON.parse(document.getElementById("clock-state").textContent), offset = 0, fetchedAt = Date.now(), warned = {};
  var offline = false;

  function csrf() { var m = document.cookie.match(/(?:^|;\s*)csrftoken=([^;]+)/); return m ? decodeURIComponent(m[1]) : ""; }
  function adopt(next) {
    state = next; fetchedAt = Date.now();
    offset = new Date(next.server_time).getTime() - Date.now();
    try { localStorage.setItem(key, JSON.stringify({ state: next, fetched_at: fetchedAt, offset: offset })); } catch (e) { /* private mode */ }
    renderExtensions();
  }
  function left() {
    if (state.state === "running") return Math.max(0, state.seconds_left - (Date.now() - fetchedAt) / 1000);
    return state.seconds_left || 0;
  }
  function pad(n) { return (n < 10 ? "0" : "") + n; }
  /* The whole minutes the clock shows (04:59 is 4), in words. */
  function minutesLeft(seconds) {
    var whole = Math.floor(seconds / 60);
    return whole < 1 ? "Less than a minute left" : whole === 1 ? "1 minute left" : whole + " minutes left";
  }
  /* MTR 2.5: "If a judge assigned a time extension ... the end-of-match procedure does not begin until the end
     of the time extension": said for the tables that have one, never announced for the whole room. */
  function timeUp() {
    var extended = state.extensions || [];
    if (!extended.length) return "Time is up: the end-of-match procedure begins (MTR 2.5).";
    return "Time is up: the end-of-match procedure begins at every table without a time extension (MTR 2.5). " +
      "At a table with one it begins only when its extension ends: " +
      extended.map(function (x) { return "Table " + x.table + " (+" + x.minutes + " min)"; }).join(", ") + ".";
  }
  function shownTime() { return pad(Math.floor(Math.ceil(left()) / 60)) + ":" + pad(Math.ceil(left()) % 60); }
  function render() {
    var seconds = Math.ceil(left()), shown = state.state === "none" ? "--:--" : pad(Math.floor(seconds / 60)) + ":" + pad(seconds % 60);
    if (state.state === "running" && seconds <= 0) shown = "00:00";
    timeEl.textContent = shown;
    roundEl.textContent = state.round ? "Round " + state.round + " · " + state.minutes + " minutes" : "No round started";
    var warning = null;
    (state.warnings || [10, 5]).slice().sort(function (a, b) { return a - b; }).some(function (w) { if (seconds > 0 && seconds <= w * 60) { warning = w; return true; } return false; });
    var over = state.state === "over" || (state.state === "running" && seconds <= 0);
    box.dataset.state = over ? "over" : state.state;
    box.dataset.warning = warning || "";
    if (over) { warnEl.hidden = false; warnEl.textContent = timeUp(); }
    else if (warning) {
      warnEl.hidden = false; warnEl.textContent = minutesLeft(seconds);
      var tag = state.round + ":" + warning;
      if (!warned[tag] && state.state === "running") { warned[tag] = true; if (navigator.vibrate) navigator.vibrate([300, 150, 300]); }
    } else { warnEl.hidden = true; }
    statusEl.textContent = (state.state === "paused" ? "Paused. " : state.state === "ended" ? "Ended. " : "") + (offline ? "Offline: counting from the clock last received." : "");
  }
  function renderExtensions() {
    var list = document.getElementById("clock-extensions"), none = document.getElementById("clock-no-extensions");
    if (!list) return;
    list.innerHTML = "";
    (state.extensions || []).forEach(function (x) {
      var li = document.createElement("li");
      li.textContent = "Table " + x.table + ": +" + x.minutes + " min";
      list.appendChild(li);
    });
    none.hidden = (state.extensions || []).length > 0;
  }
  function poll() {
    fetch(url, { credentials: "same-origin", headers: { Accept: "application/json" } }).then(function (r) {
      if (!r.ok) throw new Error(r.status);
      return r.json();
    }).then(function (next) {
      offline = false; clearConnectionError();
      // A change made here offline and not sent yet stands until the server has it (its reply is adopted).
      if (!waitingHere().length) adopt(next);
      render();
    }).catch(function () { offline = true; render(); });
  }
  /* This clock's changes waiting to be sent (one the server refused is not waiting: the server's clock stands). */
  function waitingHere() {
    return window.JudgeOffline ? JudgeOffline.pending().filter(function (i) { return i.kind === "clock" && i.url === url && !i.error; }) : [];
  }
  /* A clock change queued offline (offline.js sends it when the connection returns): the server's
     answer to it becomes this tablet's clock. */
  function queue(body) {
    return window.JudgeOffline.enqueue(url, body, "clock").then(function (outcome) {
      var took = function (reply) { if (reply && reply.state && !waitingHere().length) { adopt(reply); render(); } };
      if (outcome.sent) took(outcome.reply);
      else if (window.JudgeOffline.whenSent) window.JudgeOffline.whenSent(outcome.client_id, took);
    });
  }
  /* One more minute offline: a round started offline is not on the server yet, so its queued start is
     sent with the minute in it; a round the server has gets an extension with its own id, which the
     server adds once however often it is sent. */
  function addOffline() {
    var added = 1, start = waitingHere().filter(function (i) {
      return i.body.action === "start" && i.body.started_at === state.started_at;
    }).pop();
    if (start) {
      start.body.minutes = String((parseInt(start.body.minutes, 10) || 50) + added);
      queue(start.body);
    } else {
      queue({ action: "add", minutes: added, client_id: window.JudgeOffline.uuid() });
    }
    var now = new Date(Date.now() + offset).toISOString();
    adopt(Object.assign({}, state, { minutes: state.minutes + added, seconds_left: left() + added * 60, server_time: now }));
  }
  /* A message about the lost connection goes once the server answers again (a refusal stays). */
  function clearConnectionError() {
    var error = document.getElementById("clock-error");
    if (error && error.dataset.connection) { error.hidden = true; error.textContent = ""; delete error.dataset.connection; }
  }
  var controls = document.getElementById("clock-controls");
  var confirmBox = document.getElementById("clock-confirm"), asked = null;
  /* Start and End ask first, in the page: what the tap would do to every tablet, and a button that does it. */
  function ask(action) {
    var underWay = state.state === "running" || state.state === "paused";
    var round = controls.elements.round.value, minutes = controls.elements.minutes.value;
    var text, label;
    if (action === "start" && underWay) {
      text = "Round " + state.round + " is " + state.state + " with " + shownTime() + " left. Restart it at " +
        (parseInt(minutes, 10) || 50) + " minutes on every judge's tablet?";
      label = "Restart at full time";
    } else if (action === "start") {
      text = "Start round " + round + " (" + (parseInt(minutes, 10) || 50) + " minutes) on every judge's tablet?";
      label = "Yes, start round " + round;
    } else if (!state.round) {
      text = "No round is started at this event: nothing to end."; label = "End the round";
    } else {
      text = "End round " + state.round + " now" + (underWay ? ", with " + shownTime() + " left" : "") + "? Every judge's tablet stops counting.";
      label = "Yes, end round " + state.round;
    }
    asked = { action: action, restart: action === "start" && underWay };
    document.getElementById("clock-confirm-text").textContent = text;
    var yes = confirmBox.querySelector("[data-confirm]");
    yes.textContent = label;
    yes.classList.toggle("danger", action === "end" || asked.restart);
    confirmBox.hidden = false;
    confirmBox.dataset.action = action;
    yes.focus();
  }
  /* The server's refusal in the head judge's words, not the API's ("send restart: true"). */
  function refusal(error) {
    var details = (error && error.details) || {};
    if (details.restart) return "Another judge has already started this round: the clock below is the one every tablet " +
      "shows now. To start it again at full time, tap Start again and confirm the restart.";
    if (details.started_at && error.code === "conflict") return "Another judge started a round after this tablet's " +
      "start was made: theirs stands, and the clock below is the one every tablet shows.";
    if (error && error.code === "conflict") return "The clock changed on another tablet meanwhile: the clock below is " +
      "the one every tablet shows now.";
    return (error && error.message) || "The server refused it.";
  }
  function dismiss() { asked = null; confirmBox.hidden = true; delete confirmBox.dataset.action; }
  if (controls) {
    controls.addEventListener("click", function (event) {
      var target = event.target;
      if (target.hasAttribute("data-cancel")) { dismiss(); return; }
      var action = target.dataset && target.dataset.action, restart = false;
      if (target.hasAttribute("data-confirm") && asked) { action = asked.action; restart = asked.restart; dismiss(); }
      else if (action === "start" || action === "end") { ask(action); return; }
      if (!action) return;
      dismiss();
      var body = { action: action };
      if (action === "start") { body.round = controls.elements.round.value; body.minutes = controls.elements.minutes.value; }
      if (restart) body.restart = true;
      fetch(url, { method: "POST", credentials: "same-origin", body: JSON.stringify(body),
                   headers: { "Content-Type": "application/json", Accept: "application/json", "X-CSRFToken": csrf() } })
        .then(function (r) { return r.json().then(function (data) { return { ok: r.ok, data: data }; }); })
        .then(function (answer) {
          var error = document.getElementById("clock-error");
          delete error.dataset.connection;
          if (!answer.ok) {
            error.hidden = false; error.textContent = refusal(answer.data.error);
            poll();  // another tablet may have changed the round: show what the server has
            return;
          }
          error.hidden = true; adopt(answer.data); render();
        }).catch(function () {
          var error = document.getElementById("clock-error");
          if (action === "start" && window.JudgeOffline) {
            // Offline: the round starts on this tablet now, and the start is sent (with its time) once
            // the connection returns, so the other judges' tablets follow.
            body.started_at = new Date(Date.now() + offset).toISOString();
            var minutes = parseInt(body.minutes, 10) || 50;
            adopt({ state: "running", round: parseInt(body.round, 10) || 1, minutes: minutes, seconds_left: minutes * 60,
                    started_at: body.started_at, server_time: body.started_at, warnings: state.warnings || [10, 5], extensions: [] });
            queue(body);
            error.hidden = false; error.dataset.connection = "1"; error.textContent = "Offline: the round is running on this tablet; the other tablets see it once this one is back online.";
            render();
            return;
          }
          if (action === "add" && window.JudgeOffline && (state.state === "running" || state.state === "paused")) {
            addOffline();
            error.hidden = false; error.dataset.connection = "1";
            error.textContent = "Offline: one more minute on this tablet; the other tablets see it once this one is back online.";
            render();
            return;
          }
          error.hidden = false; error.dataset.connection = "1"; error.textContent = "No connection: pause, resume and end need the network.";
        });
    });
  }
  /* At load, the newest clock this tablet knows: the page's (fresh from the server, or as old as the copy
     the service worker kept), the one kept here, or a start queued here offline, whichever the server's
     time says is newest; then counted from when it was true, not from now (a page kept 40 minutes ago
     would show 40 minutes too many). The device's offset from the server's clock is the one kept. */
  function when(iso) { var t = Date.parse(iso || ""); return isNaN(t) ? null : t; }
  function restore() {
    var kept = null;
    try { kept = JSON.parse(localStorage.getItem(key) || "null"); } catch (e) { /* nothing kept */ }
    var knownOffset = kept && typeof kept.offset === "number";
    var best = state;
    if (kept && kept.state && when(kept.state.server_time) !== null &&
        (when(best.server_time) === null || when(kept.state.server_time) > when(best.server_time))) best = kept.state;
    var start = waitingHere().filter(function (i) { return i.body.action === "start" && when(i.body.started_at) !== null; }).pop();
    if (start && (when(best.server_time) === null || when(start.body.started_at) > when(best.server_time))) {
      var minutes = parseInt(start.body.minutes, 10) || 50;
      best = { state: "running", round: parseInt(start.body.round, 10) || 1, minutes: minutes, seconds_left: minutes * 60,
               started_at: start.body.started_at, server_time: start.body.started_at,
               warnings: state.warnings || [10, 5], extensions: [] };
    }
    state = best;
    offset = knownOffset ? kept.offset : when(state.server_time) !== null ? when(state.server_time) - Date.now() : 0;
    fetchedAt = when(state.server_time) !== null ? Math.min(Date.now(), when(state.server_time) - offset) : Date.now();
    try { localStorage.setItem(key, JSON.stringify({ state: state, fetched_at: fetchedAt, offset: offset })); } catch (e) { /* private mode */ }
    renderExtensions();
  }
  offline = navigator.onLine === false;
  restore();
  render();
  setInterval(render, 1000);
  setInterval(poll, 10000);
  window.addEventListener("online", poll);
})();
