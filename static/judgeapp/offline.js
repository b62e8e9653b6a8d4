/* judgeapp offline call queue: a call saved at the table is kept on this device (localStorage) until the
   server has answered 2xx for it, then removed. Sent on save, when the connection returns ("online"),
   on page load and every 30 seconds. Each call carries a client_id (a UUID made here) and the server is
   idempotent on it, so a call sent twice (a reply lost on the way back) is still stored once.
   A call the server flags for the head judge (its announced penalty is not the one the player's earlier
   penalties give: saved offline, the history unchecked) is said on every page of this tablet once it
   has synced (#call-flags, kept until the judge taps "Seen").
   Besides calls, the round clock queues a round started offline (kind "clock"): the badge names each kind.
   window.JudgeOffline = { enqueue(url, body, kind), flush(), pending(), flags(), onChange(fn), whenSent(client_id, fn),
   uuid() }. */
(function () {
  "use strict";

  var KEY = "judgeapp-call-queue";
  var FLAGS = "judgeapp-call-flags";
  var listeners = [];
  var flushing = null;
  var replies = {};   // client_id -> the server's JSON answer, for the page that saved the call

  function read() {
    try { return JSON.parse(localStorage.getItem(KEY) || "[]"); } catch (e) { return []; }
  }
  function write(items) {
    try { localStorage.setItem(KEY, JSON.stringify(items)); } catch (e) { /* storage full: kept in memory only */ }
    notify();
  }
  function notify() {
    var items = read();
    listeners.forEach(function (fn) { try { fn(items); } catch (e) { /* a listener's bug stays its own */ } });
    badge(items);
  }

  function uuid() {
    if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
    var bytes = new Uint8Array(16);
    crypto.getRandomValues(bytes);
    bytes[6] = (bytes[6] & 0x0f) | 0x40; bytes[8] = (bytes[8] & 0x3f) | 0x80;
    var hex = Array.prototype.map.call(bytes, function (b) { return (b + 256).toString(16).slice(1); }).join("");
    return hex.slice(0, 8) + "-" + hex.slice(8, 12) + "-" + hex.slice(12, 16) + "-" + hex.slice(16, 20) + "-" + hex.slice(20);
  }

  function csrfToken() {
    var match = document.cookie.match(/(?:^|;\s*)csrftoken=([^;]+)/);
    if (match) return decodeURIComponent(match[1]);
    var field = document.querySelector("input[name=csrfmiddlewaretoken]");
    return field ? field.value : "";
  }

  /* Put a call in the queue (replacing one with the same client_id) and try to send it at once. */
  function enqueue(url, body, kind) {
    if (!body.client_id) body.client_id = uuid();
    var items = read().filter(function (item) { return item.body.client_id !== body.client_id; });
    items.push({ url: url, body: body, kind: kind || "call", queued_at: new Date().toISOString(), error: "" });
    write(items);
    // A flush already under way may have read the queue before this call was added: send after it.
    var sending = flushing ? flushing.then(flush) : flush();
    return sending.then(function () {
      var left = read().filter(function (i) { return i.body.client_id === body.client_id; })[0];
      return { sent: !left, error: left ? left.error : "", reply: replies[body.client_id] || null, client_id: body.client_id };
    });
  }

  function sendOne(item) {
    return fetch(item.url, {
      method: "POST", credentials: "same-origin",
      headers: { "Content-Type": "application/json", "Accept": "application/json", "X-CSRFToken": csrfToken() },
      body: JSON.stringify(item.body)
    }).then(function (response) {
      if (response.ok) {
        // Only a 2xx removes the call: anything else keeps it for the next try.
        write(read().filter(function (i) { return i.body.client_id !== item.body.client_id; }));
        return response.json().then(function (data) {
          replies[item.body.client_id] = data;
          if (data && data.needs_review) flag(data);
        }, function () {}).then(function () { return true; });
      }
      var error = response.status === 401 || response.status === 403 ? "sign in again to send it" : "the server refused it (" + response.status + ")";
      write(read().map(function (i) { if (i.body.client_id === item.body.client_id) i.error = error; return i; }));
      return false;
    });
  }

  /* Send every queued call, one at a time; one flush at a time in this tab (and across tabs where the
     browser has Web Locks), so a call is never in flight twice from here. */
  function flush() {
    if (flushing) return flushing;
    var run = function () {
      var items = read();
      return items.reduce(function (chain, item) {
        return chain.then(function (stop) {
          if (stop) return true;
          return sendOne(item).then(function () { return false; }, function () { return true; /* offline: stop here */ });
        });
      }, Promise.resolve(false));
    };
    var locked = navigator.locks && navigator.locks.request ? navigator.locks.request("judgeapp-call-queue", run) : run();
    flushing = Promise.resolve(locked).catch(function () {}).then(function () { flushing = null; notify(); });
    return flushing;
  }

  /* fn(reply) once, when a call left waiting has been sent (the page that queued it says so there). */
  function whenSent(clientId, fn) {
    var done = false;
    listeners.push(function (items) {
      var waiting = items.some(function (i) { return i.body.client_id === clientId; });
      if (done || waiting || !replies[clientId]) return;
      done = true;
      fn(replies[clientId]);
    });
  }

  function readFlags() {
    try { return JSON.parse(localStorage.getItem(FLAGS) || "[]"); } catch (e) { return []; }
  }
  function writeFlags(list) {
    try { localStorage.setItem(FLAGS, JSON.stringify(list)); } catch (e) { /* storage full */ }
    showFlags();
  }
  function flag(call) {
    var list = readFlags().filter(function (f) { return f.id !== call.id || f.event !== call.event; });
    list.push({ id: call.id, event: call.event, infraction: call.infraction || call.guide_title || "",
                offender: call.offender || "", announced: call.announced_penalty, computed: call.computed_penalty,
                reason: call.review_reason || "" });
    writeFlags(list);
  }
  /* The synced calls flagged for the head judge, below the queue's badge, each with "Seen". */
  function showFlags() {
    var list = readFlags();
    var box = document.getElementById("call-flags");
    if (!box) {
      var queue = document.getElementById("call-queue");
      if (!queue || !queue.parentNode) return;
      box = document.createElement("div");
      box.id = "call-flags";
      box.className = "notice warn call-flags";
      box.setAttribute("role", "alert");
      queue.parentNode.insertBefore(box, queue.nextSibling);
    }
    while (box.firstChild) box.removeChild(box.firstChild);
    box.hidden = !list.length;
    list.forEach(function (f) {
      var item = document.createElement("p");
      item.className = "call-flag";
      item.dataset.call = f.id;
      var link = document.createElement("a");
      link.href = "/events/" + encodeURIComponent(f.event) + "/calls/" + encodeURIComponent(f.id) + "/";
      link.textContent = "Call #" + f.id + (f.infraction ? " (" + f.infraction + (f.offender ? ", " + f.offender : "") + ")" : "");
      item.appendChild(link);
      item.appendChild(document.createTextNode(" synced and flagged for the head judge: announced " + f.announced +
        ", the player's earlier penalties give " + f.computed + ". " + f.reason + " "));
      var seen = document.createElement("button");
      seen.type = "button";
      seen.className = "seen";
      seen.textContent = "Seen";
      seen.addEventListener("click", function () {
        writeFlags(readFlags().filter(function (g) { return g.id !== f.id || g.event !== f.event; }));
      });
      item.appendChild(seen);
      box.appendChild(item);
    });
  }

  function badge(items) {
    var el = document.getElementById("call-queue");
    if (!el) return;
    items = items || read();
    if (!items.length) { el.hidden = true; el.textContent = ""; return; }
    var calls = items.filter(function (i) { return !i.kind || i.kind === "call"; }).length;
    var clocks = items.length - calls, parts = [];
    if (calls) parts.push(calls + (calls === 1 ? " call" : " calls"));
    if (clocks) parts.push(clocks === 1 ? "1 round clock change" : clocks + " round clock changes");
    var text = parts.join(" and ") + " waiting to be sent";
    var errors = items.filter(function (i) { return i.error; });
    if (errors.length) text += " — " + errors[0].error;
    else if (!navigator.onLine) text += " (offline)";
    el.textContent = text;
    el.hidden = false;
  }

  window.JudgeOffline = {
    enqueue: enqueue, flush: flush, uuid: uuid,
    pending: function () { return read(); },
    flags: function () { return readFlags(); },
    whenSent: whenSent,
    onChange: function (fn) { listeners.push(fn); }
  };

  window.addEventListener("online", function () { flush(); });
  window.addEventListener("storage", function (event) { if (event.key === KEY) notify(); if (event.key === FLAGS) showFlags(); });
  setInterval(function () { if (read().length) flush(); }, 30000);
  document.addEventListener("DOMContentLoaded", function () { badge(); showFlags(); if (read().length) flush(); });
  if (document.readyState !== "loading") { badge(); showFlags(); if (read().length) flush(); }
})();
