/* judgeapp's queue of guide computations waiting for the connection, kept on this device (localStorage) like
   the call queue (offline.js). A guide step that computes on the server, reached offline, is queued with the
   guide and the answers before it; when the tablet is online again (on page load, on "online" and every 30
   seconds, whatever page is open) each is run once (POST /api/v1/guides/<slug>/walk) and its answer kept on
   the tablet, so the guide shows the result when the judge comes back to it (the answers are in its address),
   online or not. A refusal (4xx) is kept too and not tried again; only a lost connection keeps it queued.
   window.JudgeComputeQueue = { add(item), has(key), answer(key), pending(), flush(), onChange(fn), key(slug, answers) }. */
(function () {
  "use strict";

  var QUEUE = "judgeapp-compute-queue";
  var DONE = "judgeapp-compute-done";
  var KEEP = 30;          // answers kept on the tablet, newest first
  var listeners = [];
  var flushing = null;

  function read(name, empty) {
    try { return JSON.parse(localStorage.getItem(name) || empty); } catch (e) { return JSON.parse(empty); }
  }
  function write(name, value) {
    try { localStorage.setItem(name, JSON.stringify(value)); } catch (e) { /* storage full: kept in memory only */ }
  }
  function key(slug, answers) { return slug + " " + JSON.stringify(answers); }
  function pending() { return read(QUEUE, "[]"); }
  function has(k) { return pending().some(function (item) { return item.key === k; }); }
  function answer(k) { return read(DONE, "{}")[k] || null; }

  function notify() {
    var items = pending();
    listeners.forEach(function (fn) { try { fn(items); } catch (e) { /* a listener's bug stays its own */ } });
    badge(items);
  }

  /* item: {slug, answers, url (the walk URL), page (the guide's address with the answers), title}. */
  function add(item) {
    item.key = key(item.slug, item.answers);
    var items = pending().filter(function (i) { return i.key !== item.key; });
    item.queued_at = new Date().toISOString();
    items.push(item);
    write(QUEUE, items);
    notify();
  }

  function keep(k, stored) {
    var done = read(DONE, "{}");
    done[k] = stored;
    var keys = Object.keys(done).sort(function (a, b) { return String(done[b].at).localeCompare(String(done[a].at)); });
    keys.slice(KEEP).forEach(function (old) { delete done[old]; });
    write(DONE, done);
    write(QUEUE, pending().filter(function (i) { return i.key !== k; }));
  }

  function csrfToken() {
    var match = document.cookie.match(/(?:^|;\s*)csrftoken=([^;]+)/);
    return match ? decodeURIComponent(match[1]) : "";
  }

  function runOne(item) {
    return fetch(item.url, {
      method: "POST", credentials: "same-origin",
      headers: { "Content-Type": "application/json", "Accept": "application/json", "X-CSRFToken": csrfToken() },
      body: JSON.stringify({ answers: item.answers })
    }).then(function (response) {
      return response.json().catch(function () { return {}; }).then(function (body) {
        var at = new Date().toISOString();
        if (response.ok) keep(item.key, { body: body, at: at });
        else if (response.status >= 400 && response.status < 500) {
          var message = (body && body.error && body.error.message) || body.detail || ("the server answered " + response.status);
          keep(item.key, { refused: String(message), at: at });
        }   // a 5xx stays queued: tried again later
      });
    });
  }

  /* Run every queued computation, one at a time; a lost connection stops the round (tried again later). */
  function flush() {
    if (flushing) return flushing;
    var run = function () {
      return pending().reduce(function (chain, item) {
        return chain.then(function (stop) {
          if (stop) return true;
          return runOne(item).then(function () { return false; }, function () { return true; });
        });
      }, Promise.resolve(false));
    };
    var locked = navigator.locks && navigator.locks.request ? navigator.locks.request(QUEUE, run) : run();
    flushing = Promise.resolve(locked).catch(function () {}).then(function () { flushing = null; notify(); });
    return flushing;
  }

  function badge(items) {
    var el = document.getElementById("compute-queue");
    if (!el) return;
    items = items || pending();
    if (!items.length) { el.hidden = true; el.textContent = ""; return; }
    var n = items.length;
    el.textContent = "";
    el.appendChild(document.createTextNode(n + (n === 1 ? " computation waiting" : " computations waiting") + " for the connection"));
    if (items.length === 1 && items[0].page && location.pathname + location.search !== items[0].page) {
      var link = document.createElement("a");
      link.href = items[0].page;
      link.textContent = items[0].title || "open the guide";
      el.appendChild(document.createTextNode(": "));
      el.appendChild(link);
    }
    el.hidden = false;
  }

  window.JudgeComputeQueue = {
    add: add, has: has, answer: answer, pending: pending, flush: flush, key: key,
    onChange: function (fn) { listeners.push(fn); }
  };

  window.addEventListener("online", function () { flush(); });
  window.addEventListener("storage", function (event) { if (event.key === QUEUE) notify(); });
  setInterval(function () { if (pending().length && navigator.onLine !== false) flush(); }, 30000);
  function start() { badge(); if (pending().length && navigator.onLine !== false) flush(); }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start); else start();
})();
