/* The round clock: ticks every second from the server's state (corrected for this device's clock), asks
   the server again every 10 seconds, warns at 10 and 5 minutes left, and keeps ticking from the last
   state it had when the network drops. Head judges' buttons post actions. */
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
    if (over) { warnEl.hidden = false; warnEl.textContent = "Time is up: the end-of-round procedure begins (MTR 2.5)."; }
    else if (warning) {
      warnEl.hidden = false; warnEl.textContent = warning + " minutes left";
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
    }).then(function (next) { offline = false; clearConnectionError(); adopt(next); render(); }).catch(function () { offline = true; render(); });
  }
  /* A message about the lost connection goes once the server answers again (a refusal stays). */
  function clearConnectionError() {
    var error = document.getElementById("clock-error");
    if (error && error.dataset.connection) { error.hidden = true; error.textContent = ""; delete error.dataset.connection; }
  }
  var controls = document.getElementById("clock-controls");
  if (controls) {
    controls.addEventListener("click", function (event) {
      var action = event.target && event.target.dataset && event.target.dataset.action;
      if (!action) return;
      var body = { action: action };
      if (action === "start") { body.round = controls.elements.round.value; body.minutes = controls.elements.minutes.value; }
      fetch(url, { method: "POST", credentials: "same-origin", body: JSON.stringify(body),
                   headers: { "Content-Type": "application/json", Accept: "application/json", "X-CSRFToken": csrf() } })
        .then(function (r) { return r.json().then(function (data) { return { ok: r.ok, data: data }; }); })
        .then(function (answer) {
          var error = document.getElementById("clock-error");
          delete error.dataset.connection;
          if (!answer.ok) { error.hidden = false; error.textContent = (answer.data.error && answer.data.error.message) || "The server refused it."; return; }
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
            window.JudgeOffline.enqueue(url, body, "clock");
            error.hidden = false; error.dataset.connection = "1"; error.textContent = "Offline: the round is running on this tablet; the other tablets see it once this one is back online.";
            render();
            return;
          }
          error.hidden = false; error.dataset.connection = "1"; error.textContent = "No connection: pause, resume, extend and end need the network.";
        });
    });
  }
  try {
    var kept = JSON.parse(localStorage.getItem(key) || "null");
    if (kept && kept.state && kept.state.started_at === state.started_at && kept.fetched_at > fetchedAt) { state = kept.state; fetchedAt = kept.fetched_at; }
  } catch (e) { /* nothing kept */ }
  adopt(state);
  render();
  setInterval(render, 1000);
  setInterval(poll, 10000);
  window.addEventListener("online", poll);
})();
