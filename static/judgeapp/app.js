/* judgeapp tablet pages: results as you type, glossary popovers, theme toggle, version switcher.
   Plain JavaScript, no framework; every page also works without it. */
(function () {
  "use strict";

  /* The question boxes (the jump box on every page, the search page's box) become text areas that
     grow with a long question told as a story (up to 1,000 characters): Enter still searches,
     Shift+Enter starts a new line. One line high until the question needs more; without this script
     they stay one-line search fields, which search just the same. */
  var MAX_QUESTION = 1000;
  var grow = function (box) {
    box.style.height = "auto";
    box.style.height = box.scrollHeight + 2 + "px";
  };
  document.querySelectorAll("form.jump input[name=q], form.search input[name=q]").forEach(function (field) {
    var box = document.createElement("textarea");
    ["id", "name", "placeholder", "autocomplete", "autocapitalize", "spellcheck", "enterkeyhint", "class"].forEach(function (name) {
      if (field.hasAttribute(name)) box.setAttribute(name, field.getAttribute(name));
    });
    box.classList.add("question-box");
    box.rows = 1;
    box.maxLength = MAX_QUESTION;
    // a one-line field drops the question's line breaks from its value; its attribute keeps them
    var typed = field.getAttribute("value");
    box.value = typed !== null && typed.replace(/[\r\n]/g, "") === field.value ? typed : field.value;
    var focused = document.activeElement === field;
    field.parentNode.replaceChild(box, field);
    if (focused) box.focus();
    grow(box);
    box.addEventListener("input", function () { grow(box); });
    box.addEventListener("keydown", function (event) {
      if (event.key !== "Enter" || event.shiftKey || event.isComposing) return;
      event.preventDefault();
      if (!box.value.trim()) return;
      if (box.form.requestSubmit) box.form.requestSubmit(); else box.form.submit();
    });
  });

  /* Results as you type under the jump box (debounced; a newer keystroke cancels the older request). */
  var form = document.querySelector("form.jump");
  if (form && window.fetch) {
    var input = form.querySelector("[name=q]");
    var live = form.querySelector(".live");
    var timer = null, controller = null, lastQuery = null;
    var clear = function () { live.innerHTML = ""; lastQuery = null; };
    var load = function () {
      var query = input.value.trim();
      if (query === lastQuery) return;
      lastQuery = query;
      if (query.length < 2 && !/^\d$/.test(query)) { live.innerHTML = ""; return; }
      if (controller) controller.abort();
      controller = window.AbortController ? new AbortController() : null;
      fetch(form.dataset.fragment + "?q=" + encodeURIComponent(query), controller ? { signal: controller.signal } : {})
        .then(function (r) { return r.ok ? r.text() : ""; })
        .then(function (html) { if (input.value.trim() === query) live.innerHTML = html; })
        .catch(function () { /* aborted or offline: keep what is shown */ });
    };
    input.addEventListener("input", function () {
      clearTimeout(timer);
      timer = setTimeout(load, 200);
    });
    input.addEventListener("keydown", function (event) {
      var hits = Array.prototype.slice.call(live.querySelectorAll("a"));
      if (event.key === "Escape") { clear(); return; }
      // in a question of several lines the arrow moves down its lines first
      var last = input.value.indexOf("\n", input.selectionEnd || 0) < 0;
      if (event.key === "ArrowDown" && hits.length && last) { event.preventDefault(); hits[0].focus(); }
    });
    live.addEventListener("keydown", function (event) {
      var hits = Array.prototype.slice.call(live.querySelectorAll("a"));
      var index = hits.indexOf(document.activeElement);
      if (event.key === "ArrowDown" && index < hits.length - 1) { event.preventDefault(); hits[index + 1].focus(); }
      if (event.key === "ArrowUp") { event.preventDefault(); (index > 0 ? hits[index - 1] : input).focus(); }
      if (event.key === "Escape") { clear(); input.focus(); }
    });
    document.addEventListener("click", function (event) {
      if (!form.contains(event.target)) clear();
    });
  }

  /* Version switcher: choosing a version shows it. */
  document.querySelectorAll("select[data-autosubmit]").forEach(function (select) {
    select.addEventListener("change", function () { select.form.submit(); });
  });

  /* Theme toggle: system -> dark -> light -> system, remembered on this device. */
  var toggle = document.getElementById("theme-toggle");
  if (toggle) {
    var root = document.documentElement;
    var label = function () {
      var theme = root.getAttribute("data-theme") || "system";
      toggle.setAttribute("aria-label", "Colour theme: " + theme);
      toggle.title = "Colour theme: " + theme;
    };
    label();
    toggle.addEventListener("click", function () {
      var next = { system: "dark", dark: "light", light: "system" }[root.getAttribute("data-theme") || "system"];
      if (next === "system") root.removeAttribute("data-theme"); else root.setAttribute("data-theme", next);
      try {
        if (next === "system") localStorage.removeItem("judgeapp-theme"); else localStorage.setItem("judgeapp-theme", next);
      } catch (e) { /* not remembered in private mode */ }
      label();
    });
  }

  /* Glossary terms: a tap opens the definition; "Open glossary entry" follows the link. */
  var data = document.getElementById("glossary-terms");
  var popover = document.getElementById("glossary-popover");
  if (data && popover) {
    var terms = {};
    var opener = null;
    JSON.parse(data.textContent).forEach(function (t) { terms[t.id] = t; });
    var close = function () {
      if (popover.hidden) return;
      popover.hidden = true;
      if (opener) opener.focus();  // back where the reader was
      opener = null;
    };
    document.addEventListener("click", function (event) {
      var link = event.target.closest && event.target.closest("a.term");
      if (link && terms[link.dataset.term]) {
        event.preventDefault();
        var term = terms[link.dataset.term];
        popover.querySelector(".popover-term").textContent = term.term;
        popover.querySelector(".popover-definition").textContent = term.definition;
        popover.querySelector(".popover-more").href = link.href;
        popover.hidden = false;
        opener = link;
        popover.querySelector(".popover-close").focus({ preventScroll: true });
      } else if (!popover.contains(event.target)) {
        close();
      }
    });
    popover.querySelector(".popover-close").addEventListener("click", close);
    document.addEventListener("keydown", function (event) { if (event.key === "Escape") close(); });
  }

  /* Offline: the service worker keeps the current rules and their search on this device (sw.js);
     this page asks it to check for a newer copy whenever it opens online or the connection returns,
     and says so when it is offline and answering from that copy. */
  var badge = document.getElementById("offline-badge");
  var COPY_KEY = "judgeapp-offline-copy";
  var copy = function () { try { return JSON.parse(localStorage.getItem(COPY_KEY) || "null"); } catch (e) { return null; } };
  var showBadge = function () {
    if (!badge) return;
    var kept = copy();
    if (navigator.onLine !== false) { badge.hidden = true; return; }
    badge.hidden = false;
    if (kept) {
      badge.textContent = "Offline: searching the copy from " + String(kept.synced_at || "").slice(0, 10);
      badge.title = (kept.documents || []).map(function (d) { return d.doc.toUpperCase() + " " + d.effective_date; }).join(", ");
    } else {
      badge.textContent = "Offline: no copy of the rules on this device yet";
    }
  };
  window.addEventListener("online", showBadge);
  window.addEventListener("offline", showBadge);
  showBadge();
  /* A number quoted from an older version, opened offline through the box: say where it came from. */
  var params = new URLSearchParams(location.search);
  var heading = document.querySelector("#main h1");
  // Online the server's page already says it (p.renumbered): once is enough.
  if (params.get("was") && heading && !document.getElementById("offline-reader") && !document.querySelector(".renumbered") && /^\/rules\/([a-z]+)\//.test(location.pathname)) {
    var note = document.createElement("p");
    note.className = "notice moved-from";
    note.textContent = location.pathname.split("/")[2].toUpperCase() + " " + params.get("was") + (params.get("from") ? " in the version of " + params.get("from") : "") + " is now " + decodeURIComponent(location.pathname.split("/")[3]) + ".";
    heading.parentNode.insertBefore(note, heading.nextSibling);
  }
  /* The player list of each of the judge's events, kept on this tablet (players.js reads it offline)
     whenever the home page or the event list opens online: a tablet that opened only those still
     knows its event's players without a network, so a call is saved without "New player". */
  if ((location.pathname === "/" || location.pathname === "/events/") && navigator.onLine !== false && window.fetch) {
    var asJson = { credentials: "same-origin", headers: { Accept: "application/json" } };
    fetch("/api/v1/events", asJson).then(function (r) { return r.ok ? r.json() : { events: [] }; }).then(function (body) {
      return (body.events || []).slice(0, 10).reduce(function (chain, event) {
        return chain.then(function () {
          return fetch("/api/v1/events/" + encodeURIComponent(event.id) + "/players", asJson).then(function (r) {
            if (!r.ok) return;
            return r.json().then(function (data) {
              var names = (data.players || []).map(function (p) { return p.name; });
              try { localStorage.setItem("judgeapp-roster-" + event.id, JSON.stringify(names)); } catch (e) { /* private mode */ }
            });
          });
        });
      }, Promise.resolve());
    }).then(function () { document.documentElement.dataset.rostersKept = "yes"; }, function () { /* offline: the lists kept stay */ });
  }
  if ("serviceWorker" in navigator && window.isSecureContext) {
    navigator.serviceWorker.addEventListener("message", function (event) {
      var message = event.data || {};
      if (message.type !== "pack-ready") return;
      try { localStorage.setItem(COPY_KEY, JSON.stringify({ version: message.version, documents: message.documents, synced_at: message.synced_at })); } catch (e) { /* private mode */ }
      document.documentElement.dataset.offlineCopy = message.version;
      showBadge();
    });
    var sync = function () {
      if (navigator.onLine === false) return;
      navigator.serviceWorker.ready.then(function (registration) {
        if (registration.active) registration.active.postMessage({ type: "sync-pack" });
      });
    };
    navigator.serviceWorker.register("/sw.js", { scope: "/" }).then(sync).catch(function () { /* no offline copy */ });
    window.addEventListener("online", sync);
    // Until a first copy is kept (a server busy or a connection lost mid-download), ask again now and then.
    var tries = 0;
    var retry = setInterval(function () {
      if (copy() || ++tries > 20) { clearInterval(retry); return; }
      sync();
    }, 10000);
  }
})();
