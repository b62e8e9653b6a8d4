/* The shuffle check page (/check/shuffle/) without a network: the form's answers read as jobs/pages.py
   reads them and ruled on this tablet (shuffle-check.js with riffles.js, the engine's logic), shown in the
   page's own markup; a pattern seen is tested exactly by shuffle-patterns.js, as the server's
   pattern_finding tests it. Online the form posts to the server as before. */
(function () {
  "use strict";
  var form = document.querySelector("form.check");
  if (!form || !window.JudgeShuffleCheck) return;
  var METHODS = ["overhand", "mash", "riffle"];

  // jobs/pages.py _count: a whole number (negative read as 0), -1 for anything else (the engine names it)
  function count(raw) {
    var text = String(raw || "").trim() || "0";
    return /^[+-]?\d+$/.test(text) ? Math.max(0, parseInt(text, 10)) : -1;
  }

  function facts(data) {
    var procedure = [];
    if (data.get("piles")) procedure.push({ method: "pile", times: 1, piles: count(data.get("piles")) || 7 });
    METHODS.forEach(function (m) { var n = count(data.get(m)); if (n) procedure.push({ method: m, times: n }); });
    var out = { rel: data.get("rel") || "", deck_size: count(data.get("deck_size")), procedure: procedure };
    form.querySelectorAll("fieldset.yes-no input[value=yes]").forEach(function (input) {
      out[input.name] = data.get(input.name) === "yes";
    });
    return out;
  }

  function el(tag, text, className) {
    var node = document.createElement(tag);
    if (text !== undefined) node.textContent = text;
    if (className) node.className = className;
    return node;
  }
  function list(heading, items, box, className) {
    if (!items.length) return;
    box.appendChild(el("h3", heading));
    var ul = el("ul", undefined, className);
    items.forEach(function (item) { ul.appendChild(el("li", item)); });
    box.appendChild(ul);
  }
  /* A pinned reference ("cr@2025-02-07:701.20a") as the rule it names in that version. */
  function citation(ref) {
    var match = /^([a-z]+)@([\d-]+):(.+)$/.exec(ref);
    if (!match) return el("li", ref);
    var li = el("li"), link = el("a", match[1] === "jar" ? "JAR: " + match[3] : match[1].toUpperCase() + " " + match[3]);
    link.href = "/rules/" + match[1] + "/" + encodeURIComponent(match[3]) + "/";
    li.appendChild(link);
    li.appendChild(document.createTextNode(" (the version of " + match[2] + ")"));
    return li;
  }

  function show(ruling) {
    var box = document.querySelector("section.ruling") || el("section", undefined, "ruling");
    box.setAttribute("aria-live", "polite");
    box.dataset.computed = "device";
    while (box.firstChild) box.removeChild(box.firstChild);
    box.appendChild(el("p", "Offline: worked out on this tablet by the same rules as the server's shuffle check.", "notice computed-here"));
    box.appendChild(el("h2", ruling.infraction_name));
    var penalty = el("p", undefined, "penalty");
    penalty.appendChild(el("strong", "Penalty:"));
    penalty.appendChild(document.createTextNode(" " + ruling.penalty));
    box.appendChild(penalty);
    var table = el("table", undefined, "by-rel");
    [["Regular", "regular"], ["Competitive", "competitive"], ["Professional", "professional"]].forEach(function (r) {
      var tr = el("tr");
      tr.appendChild(el("th", r[0]));
      tr.appendChild(el("td", ruling.penalties[r[1]]));
      table.appendChild(tr);
    });
    box.appendChild(table);
    // another player's infraction in the same events, each with its own penalty (the server's page alike)
    (ruling.further_infractions || []).forEach(function (f) {
      var further = el("div", undefined, "further");
      further.appendChild(el("h3", "Also: " + f.infraction_name + ", charged to " + (f.charged_to === "shuffler" ? "the opponent who shuffled" : "the deck's owner")));
      var line = el("p", undefined, "penalty");
      line.appendChild(el("strong", "Penalty:"));
      line.appendChild(document.createTextNode(" " + f.penalty));
      further.appendChild(line);
      box.appendChild(further);
    });
    box.appendChild(el("h3", "Fix"));
    box.appendChild(el("p", ruling.fix));
    if (ruling.investigate) box.appendChild(el("p", "Investigate: " + ruling.investigation, "notice warn"));
    list("What was wrong", ruling.problems, box);
    list("Rules points", ruling.notes, box);
    list("The mathematics (information, not the ruling)", ruling.information, box, "muted");
    box.appendChild(el("h3", "Show the players"));
    var refs = el("ul", undefined, "citations");
    ruling.citations.forEach(function (c) { refs.appendChild(citation(c)); });
    box.appendChild(refs);
    if (!box.parentNode) form.parentNode.insertBefore(box, form.nextSibling);
    box.scrollIntoView({ block: "start" });
  }

  function refuse(text) {
    var note = document.getElementById("shuffle-offline-note") || el("p", undefined, "notice warn");
    note.id = "shuffle-offline-note";
    note.setAttribute("role", "alert");
    note.textContent = text;
    if (!note.parentNode) form.parentNode.insertBefore(note, form);
  }

  form.addEventListener("submit", function (event) {
    if (navigator.onLine !== false) return;   // online: the server rules, as always
    event.preventDefault();
    var data = new FormData(form), asked = facts(data);
    var Patterns = window.JudgeShufflePatterns;
    var pattern = Patterns ? Patterns.pythonStrip(data.get("pattern") || "").toUpperCase() : String(data.get("pattern") || "").trim();
    if (pattern) {
      if (!Patterns) {
        refuse("Offline: the pattern analysis is not kept on this tablet yet. Clear the pattern to rule without it now, or check again once online.");
        return;
      }
      // jobs/pages.py: the pattern's exact test (jobs/services.pattern_finding), read by the check.
      var found = Patterns.pageAnalysis(asked.deck_size, pattern, count(data.get("lands")));
      if (found.refused) { refuse(found.refused + ": this answer is not valid."); return; }
      asked.analysis = found.analysis;
      asked.pattern_seen = true;
    }
    var answer = JudgeShuffleCheck.run(asked, Number(form.dataset.threshold || "0.25"));
    if (answer.refused) { refuse(answer.refused + ": this answer is not valid."); return; }
    if (!answer.result) { refuse("Offline: this check needs the server; check again once online."); return; }
    var old = document.getElementById("shuffle-offline-note");
    if (old) old.parentNode.removeChild(old);
    show(answer.result);
  });
})();
