/* judgeapp player picker: players are picked from the event's player list (GET /api/v1/events/{id}/players,
   kept on this tablet for offline use); a name not on the list is accepted only after the judge taps
   "New player" (the server then adds them to the list), and close spellings of listed names are offered
   first, so one typo does not split a player's penalty history.
   window.JudgePlayers = { roster(eventId) -> Promise<[names]>, remember(eventId, names), picker(opts) }.
   picker({label, name, required}) -> {element, input, value(), setRoster(names), onChange(fn)}. */
(function () {
  "use strict";

  function key(name) { return String(name || "").trim().replace(/\s+/g, " ").toLowerCase(); }
  function storeKey(eventId) { return "judgeapp-roster-" + eventId; }

  function stored(eventId) {
    try { return JSON.parse(localStorage.getItem(storeKey(eventId)) || "[]"); } catch (e) { return []; }
  }
  function remember(eventId, names) {
    var all = stored(eventId), seen = {};
    all.concat(names || []).forEach(function (n) { if (n && !seen[key(n)]) seen[key(n)] = n; });
    var list = Object.keys(seen).map(function (k) { return seen[k]; }).sort(function (a, b) { return key(a) < key(b) ? -1 : 1; });
    try { localStorage.setItem(storeKey(eventId), JSON.stringify(list)); } catch (e) { /* private mode */ }
    return list;
  }

  /* The event's list from the server, else the copy kept on this tablet (offline). */
  function roster(eventId) {
    if (!eventId) return Promise.resolve([]);
    return fetch("/api/v1/events/" + encodeURIComponent(eventId) + "/players", {
      credentials: "same-origin", headers: { "Accept": "application/json" }
    }).then(function (response) {
      if (!response.ok) throw new Error(String(response.status));
      return response.json();
    }).then(function (body) {
      var names = (body.players || []).map(function (p) { return p.name; });
      try { localStorage.setItem(storeKey(eventId), JSON.stringify(names)); } catch (e) { /* private mode */ }
      return names;
    }, function () { return stored(eventId); });
  }

  /* Edit distance, for "did you mean" (names are short). */
  function distance(a, b) {
    var prev = [], cur, i, j;
    for (j = 0; j <= b.length; j++) prev.push(j);
    for (i = 1; i <= a.length; i++) {
      cur = [i];
      for (j = 1; j <= b.length; j++) {
        cur.push(Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a.charAt(i - 1) === b.charAt(j - 1) ? 0 : 1)));
      }
      prev = cur;
    }
    return prev[b.length];
  }

  function el(tag, attrs, text) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) { if (k === "className") node.className = attrs[k]; else node.setAttribute(k, attrs[k]); });
    if (text !== undefined) node.textContent = text;
    return node;
  }

  var counter = 0;
  function picker(opts) {
    var names = [], confirmedNew = "", listeners = [];
    var id = "player-pick-" + (++counter);
    var box = el("div", { className: "player-picker" });
    var label = el("label", { for: id }, opts.label || "Player");
    var input = el("input", { id: id, name: opts.name || "player", type: "text", autocomplete: "off", list: id + "-list", autocapitalize: "words", spellcheck: "false" });
    if (opts.required) input.required = true;
    var datalist = el("datalist", { id: id + "-list" });
    var note = el("div", { className: "picker-note", role: "status" });
    box.appendChild(label); box.appendChild(input); box.appendChild(datalist); box.appendChild(note);

    function listed(value) {
      var k = key(value);
      return names.filter(function (n) { return key(n) === k; })[0];
    }
    function changed() { listeners.forEach(function (fn) { fn(value()); }); }
    function value() {
      var typed = input.value.trim().replace(/\s+/g, " ");
      if (!typed) return "";
      var hit = listed(typed);
      if (hit) return hit;
      return key(typed) === key(confirmedNew) ? typed : "";
    }
    var shown = null;
    function show() {
      var typed = input.value.trim().replace(/\s+/g, " ");
      var stamp = typed + "|" + confirmedNew + "|" + names.join("|");
      if (stamp === shown) return;
      shown = stamp;
      while (note.firstChild) note.removeChild(note.firstChild);
      box.dataset.state = "";
      input.setCustomValidity("");
      if (!typed) return;
      var hit = listed(typed);
      if (hit) {
        box.dataset.state = "listed";
        note.appendChild(el("span", { className: "ok" }, "✓ on the event's player list"));
        return;
      }
      if (key(typed) === key(confirmedNew)) {
        box.dataset.state = "new";
        note.appendChild(el("span", {}, "New player: added to the event's list when the call is saved."));
        return;
      }
      box.dataset.state = "unknown";
      input.setCustomValidity("Pick a player from the list, or tap “New player”.");
      var close = names.map(function (n) { return [distance(key(n), key(typed)), n]; })
        .filter(function (p) { return p[0] <= Math.max(2, Math.floor(typed.length / 4)) || key(p[1]).indexOf(key(typed)) >= 0; })
        .sort(function (a, b) { return a[0] - b[0]; }).slice(0, 4);
      if (close.length) note.appendChild(el("span", { className: "muted" }, "Did you mean "));
      close.forEach(function (p) {
        var pick = el("button", { type: "button", className: "pick", "data-name": p[1] }, p[1]);
        pick.addEventListener("click", function () { input.value = p[1]; show(); changed(); });
        note.appendChild(pick);
      });
      var add = el("button", { type: "button", className: "new-player" }, "New player: “" + typed + "”");
      add.addEventListener("click", function () { confirmedNew = typed; show(); changed(); });
      note.appendChild(add);
    }
    input.addEventListener("input", function () { show(); changed(); });
    // Leaving the field (a tap on "New player" or a suggestion) must not rebuild the buttons under the finger.
    input.addEventListener("change", function () {
      var hit = listed(input.value);
      if (hit && hit !== input.value) { input.value = hit; show(); changed(); }
    });
    return {
      element: box, input: input, value: value,
      setRoster: function (list) {
        // The list may arrive after the judge typed a name (a slow connection): a name that is now on
        // it is a chosen player, and whoever listens (the penalty preview) is told.
        var before = value();
        names = (list || []).slice();
        while (datalist.firstChild) datalist.removeChild(datalist.firstChild);
        names.forEach(function (n) { datalist.appendChild(el("option", { value: n })); });
        show();
        if (value() !== before) changed();
      },
      onChange: function (fn) { listeners.push(fn); }
    };
  }

  window.JudgePlayers = { roster: roster, remember: remember, picker: picker, key: key };
})();
