/* judgeapp offline call queue: a call saved at the table is kept on this device (localStorage) until the
   server has answered for it with the API's JSON (a 2xx that is no JSON, such as a venue Wi-Fi's sign-in
   page or a proxy's 204, keeps it), then removed. Each item is a key of its own
   ("judgeapp-call-queue:<client_id>"), so two tabs saving or sending at once never write over each
   other's calls (one shared list, read and written whole, lost calls that way). A call the server
   refuses for good (a 4xx other than sign-in, time-out or rate limit) is listed under the badge with the
   server's words, to be corrected and saved again, or discarded. Sent on save, when the connection returns ("online"),
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

  var KEY = "judgeapp-call-queue";   // the list of earlier versions, moved to one key per item at load
  var PREFIX = KEY + ":";
  var FLAGS = "judgeapp-call-flags";
  var listeners = [];
  var flushing = null;
  var replies = {};   // client_id -> the server's JSON answer, for the page that saved the call
  var memory = {};    // items localStorage could not take (storage full), for this page's life

  /* Every queued item, oldest first. */
  function read() {
    var items = [], seen = {};
    try {
      for (var k = 0; k < localStorage.length; k++) {
        var key = localStorage.key(k);
        if (!key || key.indexOf(PREFIX) !== 0) continue;
        try { var item = JSON.parse(localStorage.getItem(key)); } catch (e) { continue; }
        if (item && item.body && item.body.client_id) { items.push(item); seen[item.body.client_id] = true; }
      }
    } catch (e) { /* storage unavailable: what this page holds */ }
    Object.keys(memory).forEach(function (id) { if (!seen[id]) items.push(memory[id]); });
    return items.sort(function (a, b) {
      return a.queued_at < b.queued_at ? -1 : a.queued_at > b.queued_at ? 1 : a.body.client_id < b.body.client_id ? -1 : 1;
    });
  }
  function put(item) {
    try { localStorage.setItem(PREFIX + item.body.client_id, JSON.stringify(item)); delete memory[item.body.client_id]; }
    catch (e) { memory[item.body.client_id] = item; /* storage full: kept in memory only */ }
    notify();
  }
  function remove(clientId) {
    delete memory[clientId];
    try { localStorage.removeItem(PREFIX + clientId); } catch (e) { /* storage unavailable */ }
    notify();
  }
  /* Mark a still-queued item (never bring back one another tab has sent meanwhile). */
  function mark(clientId, fields) {
    var item = read().filter(function (i) { return i.body.client_id === clientId; })[0];
    if (!item) return;
    Object.keys(fields).forEach(function (k) { item[k] = fields[k]; });
    put(item);
  }
  /* The single list of earlier versions, once: each item to its own key. */
  function migrate() {
    try {
      var old = localStorage.getItem(KEY);
      if (old === null) return;
      (JSON.parse(old) || []).forEach(function (item) {
        if (item && item.body && item.body.client_id && localStorage.getItem(PREFIX + item.body.client_id) === null) {
          localStorage.setItem(PREFIX + item.body.client_id, JSON.stringify(item));
        }
      });
      localStorage.removeItem(KEY);
    } catch (e) { /* kept as it was: tried again on the next load */ }
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
    put({ url: url, body: body, kind: kind || "call", queued_at: new Date().toISOString(), error: "" });
    // A flush already under way may have read the queue before this call was added: send after it.
    var sending = flushing ? flushing.then(flush) : flush();
    return sending.then(function () {
      var left = read().filter(function (i) { return i.body.client_id === body.client_id; })[0];
      return { sent: !left, error: left ? left.error : "", refused: !!(left && left.refused),
               reply: replies[body.client_id] || null, client_id: body.client_id };
    });
  }

  function sendOne(item) {
    return fetch(item.url, {
      method: "POST", credentials: "same-origin",
      headers: { "Content-Type": "application/json", "Accept": "application/json", "X-CSRFToken": csrfToken() },
      body: JSON.stringify(item.body)
    }).then(function (response) {
      var json = /^application\/json/i.test(response.headers.get("Content-Type") || "");
      return (json ? response.json() : Promise.resolve(null)).catch(function () { return null; }).then(function (data) {
        var answer = data && typeof data === "object" && !Array.isArray(data) ? data : null;
        // Only the API's own answer to this call removes it: a 2xx with no JSON (a Wi-Fi sign-in
        // page, a proxy's 204) or naming another call keeps it for the next try.
        if (response.ok && answer && (answer.client_id === undefined || String(answer.client_id) === item.body.client_id)) {
          replies[item.body.client_id] = answer;
          remove(item.body.client_id);
          if (answer.needs_review) flag(answer);
          return true;
        }
        var status = response.status;
        // refused for good only by the API's own error (a proxy's or a Wi-Fi sign-in page's 4xx is
        // no answer about the call: tried again)
        var apiError = !!(answer && answer.error && answer.error.code);
        var final = apiError && status >= 400 && status < 500 && [401, 403, 408, 429].indexOf(status) < 0;
        var said = answer && answer.error && answer.error.message ? String(answer.error.message) : "";
        var error = status === 401 || status === 403 ? "sign in again to send it"
          : response.ok || !apiError ? "an answer that is not the server's came back (is the Wi-Fi asking to sign in?)"
          : "the server refused it (" + status + ")" + (said ? ": " + said : "");
        mark(item.body.client_id, { error: error, refused: final });
        return false;
      });
    });
  }

  /* Send every queued call, one at a time; one flush at a time in this tab (and across tabs where the
     browser has Web Locks), so a call is never in flight twice from here. */
  function flush() {
    if (flushing) return flushing;
    var run = function () {
      var items = read().filter(function (i) { return !i.refused; });  // refused for good: the judge's to mend
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
    var refused = items.filter(function (i) { return i.refused; });
    var waiting = items.filter(function (i) { return !i.refused; });
    var calls = waiting.filter(function (i) { return !i.kind || i.kind === "call"; }).length;
    var clocks = waiting.length - calls, parts = [];
    if (calls) parts.push(calls + (calls === 1 ? " call" : " calls"));
    if (clocks) parts.push(clocks === 1 ? "1 round clock change" : clocks + " round clock changes");
    var text = parts.length ? parts.join(" and ") + " waiting to be sent" : "";
    var errors = waiting.filter(function (i) { return i.error; });
    if (text && errors.length) text += " — " + errors[0].error;
    else if (text && !navigator.onLine) text += " (offline)";
    if (refused.length) text += (text ? "; " : "") + (refused.length === 1 ? "1 refused by the server, below" : refused.length + " refused by the server, below");
    el.textContent = text;
    el.hidden = false;
    refusedList(el, refused);
  }

  /* What the server refused for good, one line each (what was saved, the server's words), with Copy
     (the call's details, to record it again) and Discard (asked first). */
  function summary(item) {
    var b = item.body || {};
    if (item.kind === "clock") return "Round clock: " + (b.action || "change") + (b.round ? " round " + b.round : "");
    var what = b.infraction || b.guide || "call";
    var who = Array.isArray(b.players) ? b.players.join(", ") : "";
    return "Call " + what + (who ? " (" + who + ")" : "") + (b.table ? ", table " + b.table : "") +
      (item.queued_at ? ", saved " + new Date(item.queued_at).toLocaleTimeString() : "");
  }
  function refusedList(el, refused) {
    var box = document.getElementById("call-refused");
    if (!refused.length) { if (box) box.hidden = true; return; }
    if (!box) {
      box = document.createElement("div");
      box.id = "call-refused";
      box.className = "notice warn call-refused";
      el.parentNode.insertBefore(box, el.nextSibling);
    }
    while (box.firstChild) box.removeChild(box.firstChild);
    box.hidden = false;
    refused.forEach(function (item) {
      var line = document.createElement("p");
      line.className = "refused-call";
      line.dataset.clientId = item.body.client_id;
      line.appendChild(document.createTextNode(summary(item) + ": " + item.error + ". "));
      var copy = document.createElement("button");
      copy.type = "button";
      copy.textContent = "Copy details";
      copy.addEventListener("click", function () {
        var text = summary(item) + "\n" + JSON.stringify(item.body, null, 2);
        if (navigator.clipboard) navigator.clipboard.writeText(text).catch(function () {});
        copy.textContent = "Copied";
      });
      var discard = document.createElement("button");
      discard.type = "button";
      discard.className = "discard";
      discard.textContent = "Discard";
      discard.addEventListener("click", function () {
        if (window.confirm("Discard this " + (item.kind === "clock" ? "clock change" : "call") +
            " for good? It was never stored on the server.")) remove(item.body.client_id);
      });
      line.appendChild(copy);
      line.appendChild(discard);
      box.appendChild(line);
    });
  }

  window.JudgeOffline = {
    enqueue: enqueue, flush: flush, uuid: uuid,
    pending: function () { return read(); },
    flags: function () { return readFlags(); },
    whenSent: whenSent,
    onChange: function (fn) { listeners.push(fn); }
  };

  window.addEventListener("online", function () { flush(); });
  window.addEventListener("storage", function (event) {
    if (event.key === null || (event.key && event.key.indexOf(KEY) === 0)) notify();
    if (event.key === FLAGS) showFlags();
  });
  migrate();
  setInterval(function () { if (read().length) flush(); }, 30000);
  document.addEventListener("DOMContentLoaded", function () { badge(); showFlags(); if (read().length) flush(); });
  if (document.readyState !== "loading") { badge(); showFlags(); if (read().length) flush(); }
})();
