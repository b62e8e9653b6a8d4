/* judgeapp guides on a tablet: walks the guide embedded in the page (#guide-data, the API's shape) one
   question at a time in the browser; compute steps ask the server (POST .../walk with the answers so
   far). Without a connection a step the tablet can work out exactly runs here (the shuffle check:
   shuffle-check.js and riffles.js; a loop's outcome: loop-outcome.js); any other is queued on the
   tablet (compute-queue.js), run once the connection returns and its answer shown when the judge
   comes back. A conclusion can be saved as a call to an event through offline.js's queue. Without
   this script the page walks the guide on the server (?a=...).
   One piece past 400 lines because the walk, the event and its REL, the conclusion and the save form
   share one state (answers, the chosen event, the step shown); the stateless parts live beside it:
   words.js (results in words, IPG parts), players.js (player picker), penalty.js (penalty preview). */
(function () {
  "use strict";

  /* Offline copies: ask the service worker to keep every guide (page and JSON) and this page's files,
     at most once an hour from this tablet (a refresh picks up edited guides). */
  function precache() {
    if (!("serviceWorker" in navigator) || !window.isSecureContext) return;
    try {
      var last = Number(localStorage.getItem("judgeapp-guides-kept") || 0);
      if (Date.now() - last < 3600 * 1000) return;
    } catch (e) { /* private mode: ask every time */ }
    navigator.serviceWorker.addEventListener("message", function (event) {
      if (event.data && event.data.type === "guides-precached") {
        try { localStorage.setItem("judgeapp-guides-kept", String(Date.now())); } catch (e) { /* private mode */ }
      }
    });
    var assets = [];
    document.querySelectorAll("script[src], link[rel=stylesheet][href]").forEach(function (el) {
      assets.push(el.getAttribute("src") || el.getAttribute("href"));
    });
    navigator.serviceWorker.ready.then(function (registration) {
      var worker = registration.active || navigator.serviceWorker.controller;
      if (worker) worker.postMessage({ type: "precache-guides", assets: assets });
    });
  }
  precache();

  var app = document.getElementById("guide-app");
  var data = document.getElementById("guide-data");
  if (!app || !data) return;

  var guide = JSON.parse(data.textContent);
  var events = JSON.parse((document.getElementById("guide-events") || { textContent: "[]" }).textContent || "[]");
  var stepEl = document.getElementById("guide-step");
  var trailEl = document.getElementById("guide-trail");
  var navEl = document.getElementById("guide-nav");
  var relSelect = document.getElementById("guide-rel");
  var computed = {};          // JSON of the answers before a compute step -> {id, result}
  var answers = [];
  var current = null;         // {id, result, trail}
  var RELS = [["regular", "Regular"], ["competitive", "Competitive"], ["professional", "Professional"]];

  function el(tag, attrs, children) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (key) {
      if (key === "text") node.textContent = attrs[key];
      else if (key === "className") node.className = attrs[key];
      else node.setAttribute(key, attrs[key]);
    });
    (children || []).forEach(function (child) { if (child) node.appendChild(child); });
    return node;
  }
  function clear(node) { while (node.firstChild) node.removeChild(node.firstChild); }

  /* The event comes first (chosen at the top, remembered on this tablet): its REL is the REL, and a guide's
     own REL question is answered from it. With no event the REL is asked once: by the guide's question
     when it has one, else by the REL menu. An answer that disagrees with the event's REL is never
     overridden: the page says so and the call cannot be saved until the judge walks again. */
  var chosenEvent = null;
  var relQuestions = {};      // id of each question whose answers set the fact "rel" -> true
  Object.keys(guide.nodes).forEach(function (id) {
    var node = guide.nodes[id];
    if (node.kind === "question" && (node.answers || []).some(function (a) { return a.set && a.set.rel; })) relQuestions[id] = true;
  });
  var asksRel = Object.keys(relQuestions).length > 0;
  function rel() {
    if (chosenEvent) return chosenEvent.rel;
    if (asksRel) return (current && current.facts && current.facts.rel) || (relSelect ? relSelect.value : "competitive");
    return relSelect ? relSelect.value : "competitive";
  }
  /* The JAR: the IPG's fixes "don't apply at Regular REL". At Regular the JAR's part of a fix ("At
     Regular ...") comes first and the IPG's after it, labelled, as are the IPG's upgrades: as
     guides/pages.py fix_at and upgrades_at write them on the server's page. */
  var IPG_RELS = "At Competitive and Professional: ";
  function fixAt(fix, level) {
    var start = fix.indexOf("At Regular");
    if (level !== "regular" || start <= 0) return fix ? [fix] : [];
    return [fix.slice(start).trim(), IPG_RELS + fix.slice(0, start).trim()];
  }
  function upgradesAt(upgrades, level) {
    if (level !== "regular") return upgrades.slice();
    return upgrades.map(function (line) {
      return line.indexOf("IPG") >= 0 && line.indexOf("At ") !== 0 ? IPG_RELS + line : line;
    });
  }
  function relLabel(value) { return (RELS.filter(function (p) { return p[0] === value; })[0] || [value, value])[1]; }
  function autoRelAnswer(node) {
    if (!chosenEvent || !relQuestions[node.id]) return null;
    for (var k = 0; k < node.answers.length; k++) if (node.answers[k].set && node.answers[k].set.rel === chosenEvent.rel) return k;
    return null;
  }
  try {
    var remembered = localStorage.getItem("judgeapp-guide-rel");
    if (remembered && relSelect && !new URLSearchParams(location.search).get("rel")) relSelect.value = remembered;
  } catch (e) { /* private mode */ }
  if (relSelect) relSelect.addEventListener("change", function () {
    try { localStorage.setItem("judgeapp-guide-rel", rel()); } catch (e) { /* private mode */ }
    pushUrl(false);
    render();
  });

  function csrfToken() {
    var match = document.cookie.match(/(?:^|;\s*)csrftoken=([^;]+)/);
    return match ? decodeURIComponent(match[1]) : "";
  }

  /* The server's answer to the answers so far: the node it reached after running the computation. Without
     a connection, the answer a queued computation got once the connection returned (kept on the tablet). */
  function computeAt(prefix) {
    var key = JSON.stringify(prefix);
    if (computed[key]) return Promise.resolve(computed[key]);
    var kept = window.JudgeComputeQueue ? JudgeComputeQueue.answer(JudgeComputeQueue.key(guide.slug, prefix)) : null;
    // A queued step's answer of the last hours is used as it is: the queue ran it once, that is enough.
    if (kept && kept.body && Date.now() - Date.parse(kept.at) < 12 * 3600 * 1000) return Promise.resolve(accept(kept.body));
    return askWalk(prefix).then(accept, function (error) {
      if (!error.refused && kept && kept.body) return accept(kept.body);
      if (!error.refused && kept && kept.refused) throw Object.assign(new Error(kept.refused), { refused: true });
      throw error;
    });
    function accept(body) {
      var node = body.node || body;
      var id = node.id || body.node_id || body.current;
      if (!id || !guide.nodes[id]) throw Object.assign(new Error("the server named an unknown step"), { refused: true });
      var done = { id: id, result: body.result, facts: body.facts || {}, node: node };
      computed[key] = done;
      return done;
    }
  }
  function askWalk(prefix) {
    return fetch(app.dataset.walkUrl, {
      method: "POST", credentials: "same-origin",
      headers: { "Content-Type": "application/json", "Accept": "application/json", "X-CSRFToken": csrfToken() },
      body: JSON.stringify({ answers: prefix })
    }).then(function (response) {
      if (!response.ok) {
        return response.json().catch(function () { return {}; }).then(function (body) {
          var error = new Error((body && (body.detail || body.error || body.message)) || ("the server answered " + response.status));
          error.refused = true;
          throw error;
        });
      }
      return response.json();
    });
  }

  /* A compute step worked out on this tablet where that is exact (the same answer as the server's engine,
     tests/engines/test_shuffle_check_js.py, test_loop_outcome_js.py, test_shuffle_analysis_js.py): the
     result, or null when the server must run it. */
  var threshold = Number(app.dataset.shuffleThreshold || "0.25");
  var samples = Number(app.dataset.shuffleSamples || "200000");
  // A shuffle analysis draws up to `samples` deck prefixes of the pattern's length: past this many cards
  // drawn (under a second here, a few on a tablet: 30 cards seen at the 200,000 samples) it waits for the
  // server's workers instead.
  var DEVICE_DRAWS = 6000000;
  function onDevice(node, facts) {
    var answer = null, request = fill(node.request || {}, facts);
    if (node.computation === "shuffle-check" && window.JudgeShuffleCheck) answer = JudgeShuffleCheck.run(request, threshold);
    if (node.computation === "loop-outcome" && window.JudgeLoops) answer = JudgeLoops.run(request);
    if (node.computation === "shuffle-analysis" && window.JudgeShuffleAnalysis) {
      var seen = request.observed && typeof request.observed.pattern === "string" ? request.observed.pattern.length : 0;
      if (samples * seen <= DEVICE_DRAWS) answer = JudgeShuffleAnalysis.run(request, threshold, samples);
    }
    return (answer && answer.result) || null;
  }
  function queueFor(prefix) {
    if (!window.JudgeComputeQueue) return false;
    JudgeComputeQueue.add({ slug: guide.slug, answers: prefix, url: app.dataset.walkUrl, title: guide.title,
                            page: location.pathname + location.search });
    return true;
  }

  /* Facts as the server's runner keeps them (judgeapp/guides/runner.py): "$fact.path" templates, dotted
     lookups and branch keys, so switch steps run here too. */
  function dig(data, dotted) {
    if (!dotted) return data;
    var parts = dotted.split(".");
    for (var k = 0; k < parts.length; k++) {
      if (data && typeof data === "object" && !Array.isArray(data)) data = data[parts[k]];
      else if (Array.isArray(data) && /^-?\d+$/.test(parts[k])) { var n = Number(parts[k]); data = data[n < 0 ? data.length + n : n]; }
      else return null;
      if (data === undefined) return null;
    }
    return data;
  }
  function branchKey(value) {
    if (value === true) return "true";
    if (value === false) return "false";
    if (value === null || value === undefined) return "null";
    return String(value);
  }
  function fill(template, facts) {
    if (typeof template === "string" && template.charAt(0) === "$") return dig(facts, template.slice(1));
    if (Array.isArray(template)) return template.map(function (v) { return fill(v, facts); });
    if (template && typeof template === "object") {
      var out = {};
      Object.keys(template).forEach(function (key) { out[String(fill(key, facts))] = fill(template[key], facts); });
      return out;
    }
    return template;
  }
  function branchTarget(node, facts) {
    var key = branchKey(dig(facts, node.branch_on));
    var hit = (node.branches || []).filter(function (b) { return String(b.value) === key; })[0];
    return hit ? hit.next : node.next;
  }
  function typedAnswer(node, value) {
    if (node.kind === "question" || node.input === "int") return /^-?\d+$/.test(String(value)) ? Number(value) : value;
    return Array.isArray(value) ? value.join(", ") : String(value);
  }
  function inputFact(node, value) {
    if (node.input === "int") return Number(value);
    if (node.input === "players") return String(value).split(",").map(function (n) { return n.trim(); });
    if (node.input === "choice") return (node.choices || []).filter(function (c) { return c.toLowerCase() === String(value).trim().toLowerCase(); })[0] || value;
    return String(value).trim();
  }

  /* Walk the guide from its start with the given answers: here in the browser, except compute steps
     (and switch steps whose facts this page cannot know), which the server walks. */
  function settle(raw) {
    var given = raw.slice(), id = guide.start, i = 0, trail = [], result = null, serverNode = null, guard = 0, device = false;
    var auto = {}, mismatch = null;
    var facts = JSON.parse(JSON.stringify(guide.facts || {}));
    function askServer() {
      var prefix = given.slice(0, i);
      return computeAt(prefix).then(function (done) {
        id = done.id; result = done.result === undefined ? result : done.result; serverNode = done.node;
        facts = JSON.parse(JSON.stringify(done.facts || {}));
        if (result !== null && result !== undefined) facts.result = result;
        return step();
      }, function (error) {
        var node = guide.nodes[id];
        if (!error.refused && node.kind === "compute") {
          var local = onDevice(node, facts);
          if (local) {
            // As the server's runner keeps it (guides/runner.py apply_result): "result" and "results.<id>".
            result = local; facts.result = local;
            facts.results = Object.assign({}, facts.results || {});
            facts.results[node.id] = local;
            id = branchTarget(node, local); serverNode = null; device = true;
            return step();
          }
          error.queued = queueFor(prefix);
        }
        error.at = { id: id, trail: trail, answered: i, answers: prefix };
        throw error;
      });
    }
    function step() {
      while (guard++ < 10000) {
        var node = guide.nodes[id];
        if (!node) throw new Error("unknown step " + id);
        if (node.kind === "question" || node.kind === "input") {
          if (i >= given.length) {
            var fromEvent = autoRelAnswer(node);
            if (fromEvent === null) break;
            given.push(fromEvent);
            auto[i] = true;
          }
          var value = given[i] = typedAnswer(node, given[i]);
          if (node.kind === "question") {
            var answer = node.answers[value];
            if (!answer) throw new Error("no answer " + value + " at " + id);
            Object.keys(answer.set || {}).forEach(function (name) { facts[name] = fill(answer.set[name], facts); });
            if (relQuestions[id] && chosenEvent && answer.set.rel !== chosenEvent.rel) mismatch = { index: i, rel: answer.set.rel };
            trail.push({ question: node.text, answer: answer.label + (auto[i] ? " (the event’s REL)" : "") });
            id = answer.next;
          } else {
            facts[node.field] = inputFact(node, value);
            trail.push({ question: node.text, answer: String(value) });
            id = node.next;
          }
          i++;
          serverNode = null;
        } else if (node.kind === "switch") {
          var head = (node.branch_on || "").split(".")[0];
          if (guide.facts === undefined && !(head in facts)) return askServer();
          id = branchTarget(node, facts);
        } else if (node.kind === "compute") {
          return askServer();
        } else {
          break;
        }
      }
      return Promise.resolve({ id: id, result: result, trail: trail, answered: i, answers: given.slice(0, i), serverNode: serverNode, facts: facts, auto: auto, mismatch: mismatch, device: device });
    }
    try { return step(); } catch (e) { return Promise.reject(e); }
  }

  /* Each history entry keeps its answers and those of the entry below it (`below`), so the in-app Back
     can step back through the tablet's history when the step before is the entry below: the system
     Back then leaves the walk instead of reopening the step just left. */
  function pushUrl(push, below) {
    var params = new URLSearchParams();
    params.set("rel", rel());
    answers.forEach(function (a) { params.append("a", a); });
    var url = location.pathname + "?" + params.toString();
    if (push) history.pushState({ answers: answers.slice(), below: below }, "", url);
    else history.replaceState({ answers: answers.slice(), below: history.state ? history.state.below : undefined }, "", url);
  }
  function sameAnswers(a, b) { return JSON.stringify((a || []).map(String)) === JSON.stringify((b || []).map(String)); }

  function go(next, push) {
    var below = answers.slice();
    answers = next;
    pushUrl(push !== false, below);
    return show();
  }
  function goBack(target) {
    if (history.state && history.state.below && sameAnswers(history.state.below, target)) history.back();  // popstate shows it
    else go(target, false);
  }

  function show() {
    clear(stepEl);
    stepEl.dataset.busy = "yes";
    stepEl.appendChild(el("p", { className: "computing muted", text: "…" }));
    return settle(answers).then(function (state) {
      answers = state.answers;
      // A guide that asks the REL itself (an answer sets fact "rel") shows that REL's penalty.
      var asked = state.facts && state.facts.rel;
      if (!chosenEvent && relSelect && RELS.some(function (pair) { return pair[0] === asked; }) && relSelect.value !== asked) {
        relSelect.value = asked;
        pushUrl(false);
      }
      current = state;
      render();
    }, function (error) {
      if (error.at) {
        current = { id: error.at.id, trail: error.at.trail, answered: error.at.answered, error: error };
        render();
      } else {
        // Answers that do not fit this guide (an old link): start again.
        answers = [];
        pushUrl(false);
        show();
      }
    });
  }

  function renderTrail() {
    clear(trailEl);
    current.trail.forEach(function (t) {
      trailEl.appendChild(el("li", {}, [el("span", { className: "muted", text: t.question + " " }), el("strong", { text: t.answer })]));
    });
  }

  function realAnswers() {
    var auto = (current && current.auto) || {};
    return answers.filter(function (a, k) { return !auto[k]; }).length;
  }
  function renderNav() {
    clear(navEl);
    if (!realAnswers()) return;
    var back = el("button", { type: "button", className: "button back", text: "← Back" });
    back.addEventListener("click", function () {
      var auto = (current && current.auto) || {}, n = answers.length - 1;
      while (n > 0 && auto[n]) n--;   // an answer taken from the event is not a step back
      goBack(answers.slice(0, n));
    });
    var restart = el("button", { type: "button", className: "button restart", text: "Start again" });
    restart.addEventListener("click", function () { go([]); });
    navEl.appendChild(back);
    navEl.appendChild(restart);
  }

  function render() {
    if (!current) return;
    var node = guide.nodes[current.id];
    clear(stepEl);
    delete stepEl.dataset.busy;
    stepEl.dataset.answered = String(current.answered);
    stepEl.dataset.offline = current.error ? "yes" : "no";
    stepEl.dataset.computed = current.device ? "device" : "";
    stepEl.dataset.node = current.id;
    stepEl.dataset.kind = node.kind;
    renderTrail();
    renderNav();
    if (current.error) return renderComputeFailure(node, current.error);
    if (current.mismatch) stepEl.appendChild(relMismatchNotice(current.mismatch));
    if (node.kind === "question") renderQuestion(node);
    else if (node.kind === "input") renderInput(node);
    else if (node.kind === "conclusion") renderConclusion(node, current.result, current.serverNode);
    stepEl.setAttribute("tabindex", "-1");
    openAtTop(node.kind === "conclusion");
  }

  /* A new step opens at its top; a conclusion always opens at the ruling, whatever was scrolled before
     (portrait or landscape). */
  function openAtTop(always) {
    var target = stepEl.querySelector(".conclusion") || stepEl;
    var header = document.querySelector("header.top");
    var position = header ? getComputedStyle(header).position : "";
    var covered = position === "sticky" || position === "fixed" ? header.getBoundingClientRect().height : 0;  // the sticky search bar
    var top = target.getBoundingClientRect().top - covered;
    if (always || top < 0) window.scrollTo(0, Math.max(0, top + window.pageYOffset - 8));
  }

  function relMismatchNotice(mismatch) {
    var box = el("div", { className: "notice warn rel-warning", role: "alert" });
    box.appendChild(el("p", { text: "You answered " + relLabel(mismatch.rel) + " REL, but " + chosenEvent.name +
      " is a " + relLabel(chosenEvent.rel) + " REL event. The fix and the penalty differ: this call cannot be saved to that event as it is." }));
    var again = el("button", { type: "button", className: "big use-event-rel", text: "Walk again at " + relLabel(chosenEvent.rel) + " REL" });
    again.addEventListener("click", function () { go(answers.slice(0, mismatch.index)); });
    box.appendChild(again);
    return box;
  }

  /* The event chooser at the top of the page; the REL menu shows only when no event is chosen and the
     guide does not ask the REL itself. */
  var relForm = relSelect ? relSelect.closest("form") : null;
  var eventBox = el("div", { className: "guide-event" });
  var eventSelect = el("select", { id: "call-event", name: "event" });
  var relFixed = el("span", { className: "rel-fixed", id: "guide-rel-fixed" });
  function setupEvents() {
    if (app.dataset.signedIn !== "yes" || !events.length) return;
    eventSelect.appendChild(el("option", { value: "", text: "No event (the call is not saved)" }));
    var last = "";
    try { last = localStorage.getItem("judgeapp-call-event") || ""; } catch (e) { /* private mode */ }
    events.forEach(function (event) {
      var option = el("option", { value: String(event.id), text: event.name + (event.date ? " (" + event.date + ")" : "") + " · " + relLabel(event.rel) + " REL" });
      if (String(event.id) === last) option.selected = true;
      eventSelect.appendChild(option);
    });
    eventBox.appendChild(el("label", { for: "call-event", text: "Event" }));
    eventBox.appendChild(eventSelect);
    eventBox.appendChild(relFixed);
    (relForm || trailEl).parentNode.insertBefore(eventBox, relForm || trailEl);
    eventSelect.addEventListener("change", function () {
      try { localStorage.setItem("judgeapp-call-event", eventSelect.value); } catch (e) { /* private mode */ }
      chooseEvent();
      pushUrl(false);
      show();
    });
    chooseEvent();
  }
  function chooseEvent() {
    chosenEvent = events.filter(function (e) { return String(e.id) === eventSelect.value; })[0] || null;
    if (chosenEvent) JudgePlayersSafe().roster(chosenEvent.id);
    updateRelControls();
  }
  function updateRelControls() {
    relFixed.textContent = chosenEvent ? "REL: " + relLabel(chosenEvent.rel) + " (the event’s)" : "";
    relFixed.hidden = !chosenEvent;
    if (relForm) relForm.hidden = !!chosenEvent || asksRel;
  }
  function JudgePlayersSafe() {
    return window.JudgePlayers || { roster: function () { return Promise.resolve([]); }, remember: function (id, n) { return n || []; } };
  }

  // A citation as a judge says it: the server's label ("CR 729.4", "JAR: A player accidentally draws ...");
  // the JAR has no numbers, so its internal ones are never shown.
  function citationLabel(c, max) {
    var text = c.label || (c.doc === "jar" ? "JAR: " + (c.title || "") : c.doc.toUpperCase() + " " + c.number);
    return max && text.length > max ? text.slice(0, max - 1) + "…" : text;
  }

  function helpAndRefs(node) {
    var parts = [];
    if (node.help) parts.push(el("p", { className: "muted help", text: node.help }));
    var cited = (node.citations || []).filter(function (c) { return c.number; });
    if (cited.length) {
      var line = el("p", { className: "step-refs muted" }, [document.createTextNode("Rules: ")]);
      cited.forEach(function (c) {
        line.appendChild(el("a", { className: "chip", href: "/rules/" + c.doc + "/" + encodeURIComponent(c.number) + "/", title: c.title || "", text: citationLabel(c, 48) }));
      });
      parts.push(line);
    }
    return parts;
  }

  function renderQuestion(node) {
    stepEl.appendChild(el("h2", { className: "ask", text: node.text }));
    helpAndRefs(node).forEach(function (p) { stepEl.appendChild(p); });
    var button = function (answer, index) {
      var b = el("button", { type: "button", className: "answer", "data-index": String(index), text: answer.label });
      b.addEventListener("click", function () { go(answers.concat([index])); });
      return b;
    };
    if (!node.answers.some(function (a) { return a.group; })) {
      var box = el("div", { className: "answers" });
      node.answers.forEach(function (answer, index) { box.appendChild(button(answer, index)); });
      stepEl.appendChild(box);
      return;
    }
    stepEl.appendChild(answerGroups(node, button));
  }

  /* A long list of answers (17 in the first shortcut question) under its headings: the headings
     fit on one screen and tapping one opens its answers under it, closing the others, so no answer
     is a long scroll away. Each answer keeps its index: walks and links are unchanged. */
  function answerGroups(node, button) {
    var wrap = el("div", { className: "answer-groups" });
    var groups = [], byName = {};
    node.answers.forEach(function (answer, index) {
      var group = byName[answer.group];
      if (!group) {
        var details = el("details", { className: "answer-group" });
        var summary = el("summary", {}, [el("span", { className: "group-name", text: answer.group }), el("span", { className: "group-count muted" })]);
        details.appendChild(summary);
        group = byName[answer.group] = { details: details, count: summary.lastChild, box: el("div", { className: "answers" }), n: 0 };
        details.appendChild(group.box);
        groups.push(group);
        wrap.appendChild(details);
        var closeOthers = function () {
          groups.forEach(function (other) { if (other.details !== details) other.details.open = false; });
        };
        // at once on a tap (the toggle event comes a task later), and on any other way of opening
        summary.addEventListener("click", function () { if (!details.open) closeOthers(); });
        details.addEventListener("toggle", function () { if (details.open) closeOthers(); });
      }
      group.box.appendChild(button(answer, index));
      group.n += 1;
      group.count.textContent = group.n + (group.n === 1 ? " answer" : " answers");
    });
    return wrap;
  }

  function renderInput(node) {
    var form = el("form", { className: "input-step" });
    form.appendChild(el("label", { className: "ask", for: "guide-input", text: node.text }));
    helpAndRefs(node).forEach(function (p) { form.appendChild(p); });
    var input;
    if (node.input === "choice") {
      input = el("select", { id: "guide-input" });
      (node.choices || []).forEach(function (c) {
        var option = el("option", { value: c, text: c });
        if (c === node.default) option.selected = true;
        input.appendChild(option);
      });
    } else if (node.input === "int") {
      input = el("input", { id: "guide-input", type: "number", inputmode: "numeric", required: "" });
      if (node.min !== undefined && node.min !== null) input.min = node.min;
      if (node.max !== undefined && node.max !== null) input.max = node.max;
      if (node.default !== undefined && node.default !== null) input.value = node.default;
    } else {
      input = el("input", { id: "guide-input", type: "text", required: "" });
      if (node.input === "players") input.placeholder = "Names, separated by commas";
      if (node.default !== undefined && node.default !== null) input.value = node.default;
    }
    form.appendChild(input);
    form.appendChild(el("button", { type: "submit", className: "big", text: "Next" }));
    form.addEventListener("submit", function (event) {
      event.preventDefault();
      if (!form.reportValidity()) return;
      var value = node.input === "int" ? Number(input.value) : input.value;
      go(answers.concat([value]));
    });
    stepEl.appendChild(form);
    input.focus({ preventScroll: true });
  }

  function renderComputeFailure(node, error) {
    var box = el("div", { className: "needs-network", role: "alert" });
    if (error.refused) {
      box.appendChild(el("p", { text: "The server could not run this step: " + error.message }));
    } else if (error.queued) {
      box.appendChild(el("p", { text: "This step runs a computation on the server, so it needs the connection. It is queued on this tablet with your answers: it runs once the tablet is back online, even if this page is closed, and its result is shown here when you come back to this guide." }));
      var n = window.JudgeComputeQueue ? JudgeComputeQueue.pending().length : 1;
      box.appendChild(el("p", { className: "queued muted", text: n + (n === 1 ? " computation waiting" : " computations waiting") + " for the connection" }));
    } else {
      box.appendChild(el("p", { text: "This step runs a computation on the server, so it needs the connection. Your answers are kept: it runs as soon as the tablet is back online." }));
    }
    var retry = el("button", { type: "button", className: "big retry", text: "Try again" });
    retry.addEventListener("click", function () { show(); });
    box.appendChild(retry);
    stepEl.appendChild(box);
  }
  function waitingHere() {
    return current && current.error && !current.error.refused && current.error.at ? JudgeComputeQueue.key(guide.slug, current.error.at.answers) : null;
  }
  // The queue runs the step when the connection returns (compute-queue.js); once it has, show its answer.
  if (window.JudgeComputeQueue) JudgeComputeQueue.onChange(function () {
    var waiting = waitingHere();
    if (waiting && !JudgeComputeQueue.has(waiting) && JudgeComputeQueue.answer(waiting)) show();
  });
  window.addEventListener("online", function () {
    if (!current || !current.error || current.error.refused) return;
    if (window.JudgeComputeQueue && JudgeComputeQueue.has(waitingHere())) return;   // the queue runs it once
    show();
  });

  /* Results in words and IPG citations by their parts: static/judgeapp/words.js. */
  function shownLines(node, result, serverNode) { return JudgeWords.shownLines(node, result, serverNode); }
  function citationItem(c) { return JudgeWords.citationItem(c); }

  var preview = null;   // {row, base, node, box}: the highlighted penalty row of the conclusion shown, and
                        // the penalty to give beside the player field and the Save button (box)

  function renderConclusion(node, result, serverNode) {
    var box = el("div", { className: "ruling conclusion" });
    // The penalty first and largest, the ruling below it: at arm's length the judge looks for what
    // to announce before reading why.
    var table = el("table", { className: "by-rel" }, [el("caption", { text: "Penalty" })]);
    var currentRow = null;
    RELS.forEach(function (pair) {
      var row = el("tr", { "data-rel": pair[0] }, [el("th", { text: pair[1] }), el("td", { text: (node.penalty || {})[pair[0]] || "" })]);
      if (pair[0] === rel()) { row.className = "current"; currentRow = row; }
      table.appendChild(row);
    });
    box.appendChild(table);
    box.appendChild(el("h2", { className: "ruling-text", text: node.ruling }));
    if (current && current.device) {
      box.appendChild(el("p", { className: "notice computed-here", text: "Worked out on this tablet without a connection, by the same rules as the server's engine." }));
    }
    preview = { row: currentRow, base: (node.penalty || {})[rel()] || "", node: node };
    if (node.infraction && app.dataset.signedIn === "yes" && events.length) {
      box.appendChild(el("p", { className: "muted preview-hint", text: chosenEvent
        ? "The highlighted penalty is checked against the player's earlier penalties at " + chosenEvent.name + " once the player penalised is chosen below."
        : "Choose the event at the top to check the player's earlier penalties: a repeat can upgrade this penalty." }));
    }
    box.appendChild(el("h3", { text: "Fix" }));
    var fixes = fixAt(node.fix || "", rel());
    (fixes.length ? fixes : [""]).forEach(function (part) { box.appendChild(el("p", { className: "fix", text: part })); });
    var upgrades = upgradesAt(node.upgrades || [], rel());
    if (upgrades.length) {
      box.appendChild(el("h3", { text: "Upgrades and downgrades" }));
      var ups = el("ul", { className: "upgrades" });
      upgrades.forEach(function (u) { ups.appendChild(el("li", { text: u })); });
      box.appendChild(ups);
    }
    var handOver = (serverNode && serverNode.see_also) || node.see_also;
    if (handOver) {
      var query = handOver.answers.map(function (a) { return "a=" + a; }).join("&");
      box.appendChild(el("p", { className: "see-also" }, [el("a", { className: "button", href: "/guides/" + handOver.guide + "/?" + query, text: "Other calls: " + handOver.title + " — " + handOver.text })]));
    }
    shownLines(node, result, serverNode).forEach(function (item) {
      var title = el("strong", { text: item.label + ": " });
      if (item.lines.length === 1) {
        box.appendChild(el("p", { className: "result", "data-field": item.name }, [title, document.createTextNode(item.lines[0])]));
      } else {
        var list = el("ul");
        item.lines.forEach(function (line) { list.appendChild(el("li", { text: line })); });
        box.appendChild(el("div", { className: "result", "data-field": item.name }, [title, list]));
      }
    });
    var citations = (serverNode && serverNode.citations) || node.citations || [];
    if (citations.length) {
      box.appendChild(el("h3", { text: "Show the players" }));
      var list = el("ul", { className: "citations" });
      citations.forEach(function (c) { list.appendChild(citationItem(c)); });
      box.appendChild(list);
    }
    stepEl.appendChild(box);
    stepEl.appendChild(saveForm(node));
  }

  /* The penalty with the event's history applied, in the highlighted row, once the event and the player
     penalised are known (the server answers players/{name}?guide=&conclusion=). */
  var previewSerial = 0;
  /* keepShown: only the round changed, which adds IPG 1.1's note (one Game Loss of several given at
     once in a round) but never changes the penalty: what is shown stays until the new preview comes,
     so nothing moves under the judge's finger. */
  function refreshPreview(player, keepShown) {
    if (!preview || !preview.row || !window.JudgePenalty) return;
    var mine = ++previewSerial;
    var both = function (next, state, note) {
      JudgePenalty.show(preview.row, preview.base, next, state, note);
      JudgePenalty.summary(preview.box, preview.base, next, state, note);
    };
    var keep = keepShown === true && !!player && JudgePenalty.settled(preview.row);
    if (!keep) both(null, preview.node.infraction ? "" : "fixed");
    if (!chosenEvent || !player || !preview.node.infraction || current.mismatch) return;
    if (!keep) {
      preview.row.dataset.preview = "loading";
      JudgePenalty.summary(preview.box, preview.base, null, "loading");
    }
    var params = { guide: guide.slug, conclusion: preview.node.id };
    var round = preview.form && preview.form.elements.round ? String(preview.form.elements.round.value).trim() : "";
    if (/^\d+$/.test(round)) params.round = round;
    var day = preview.form && preview.form.elements.day ? String(preview.form.elements.day.value).trim() : "";
    if (/^\d+$/.test(day)) params.day = day;
    JudgePenalty.fetchNext(chosenEvent.id, player, params).then(function (next) {
      if (mine === previewSerial) both(next, "checked");
    }, function (error) {
      if (mine !== previewSerial) return;
      both(null, "offline", error.refused ? "not checked against the player's earlier penalties (" + error.message + ")" : undefined);
    });
  }

  function signInUrl() {
    return app.dataset.loginUrl.split("?")[0] + "?next=" + encodeURIComponent(location.pathname + location.search);
  }

  /* Save the call: table, round, time extension, players from the event's list -> the call log (queued
     while offline). The event and its REL are chosen at the top of the page. */
  function saveForm(node) {
    var section = el("section", { className: "save-call" });
    section.appendChild(el("h3", { text: "Save this call" }));
    if (app.dataset.signedIn !== "yes") {
      // Back to this step after signing in: the answers and the REL are in the address (next=).
      var signIn = el("a", { className: "button sign-in", href: signInUrl(), text: "Sign in to save calls" });
      signIn.addEventListener("click", function () { signIn.href = signInUrl(); });
      section.appendChild(el("p", {}, [signIn]));
      return section;
    }
    if (!events.length) {
      section.appendChild(el("p", { className: "muted", text: "You are not a judge of any event yet: the head judge adds you to one." }));
      return section;
    }
    if (!chosenEvent) {
      var pick = el("button", { type: "button", className: "button choose-event", text: "Choose the event at the top of the page" });
      pick.addEventListener("click", function () { window.scrollTo(0, 0); eventSelect.focus(); });
      section.appendChild(el("p", { className: "muted", text: "Choose the event to save this call and to see the penalty with the player's earlier penalties." }));
      section.appendChild(pick);
      return section;
    }
    if (current.mismatch) {
      section.appendChild(el("p", { className: "notice warn", text: "Not saved: the REL answered is not " + chosenEvent.name + "'s (see above)." }));
      return section;
    }
    if (!window.JudgePlayers) {
      section.appendChild(el("p", { className: "notice warn", text: "Saving calls needs this page's player list script, not yet kept on this tablet: open the page once with a connection." }));
      return section;
    }
    var form = el("form", { className: "save-form" });
    var offender = JudgePlayers.picker({ label: "Player penalised", name: "offender", required: true });
    var opponent = JudgePlayers.picker({ label: "Opponent (optional)", name: "opponent" });
    var eventId = chosenEvent.id;
    var kept = JudgePlayers.remember(eventId, []);
    offender.setRoster(kept); opponent.setRoster(kept);
    JudgePlayers.roster(eventId).then(function (names) { offender.setRoster(names); opponent.setRoster(names); });
    offender.onChange(refreshPreview);
    var fields = el("div", { className: "fields" }, [
      el("label", {}, [document.createTextNode("Table"), el("input", { name: "table", type: "text", inputmode: "numeric", autocomplete: "off", maxlength: "20", required: "" })]),
      el("label", {}, [document.createTextNode("Round"), el("input", { name: "round", type: "number", min: "1", max: "99", inputmode: "numeric", required: "" })]),
      // IPG 2 and 3: Warning counts reset between days; today's by this tablet's calendar
      el("label", {}, [document.createTextNode("Day"), el("input", { name: "day", type: "number", min: "1", max: "30", inputmode: "numeric", required: "",
        value: String(window.JudgePenalty ? JudgePenalty.eventDay(chosenEvent.date) : 1) })]),
      el("label", {}, [document.createTextNode("Time extension (minutes)"), el("input", { name: "time_extension", type: "number", min: "0", max: "120", inputmode: "numeric" })])
    ]);
    var who = el("div", { className: "fields players" }, [offender.element, opponent.element]);
    // The player, the penalty to give and Save together: the judge reads the penalty where they tap.
    var box = el("p", { className: "save-penalty", role: "status", "aria-live": "polite" });
    if (preview) { preview.box = box; preview.form = form; }
    if (window.JudgePenalty) JudgePenalty.summary(box, (node.penalty || {})[rel()] || "", null, node.infraction ? "" : "fixed");
    form.appendChild(fields);
    form.elements.round.addEventListener("change", function () { refreshPreview(offender.value(), true); });
    form.elements.day.addEventListener("change", function () { refreshPreview(offender.value()); });
    form.elements.day.addEventListener("input", function () { form.elements.day.dataset.touched = "1"; });
    form.appendChild(who);
    form.appendChild(box);
    form.appendChild(el("button", { type: "submit", className: "big", text: "Save call" }));
    var status = el("p", { className: "save-status", role: "status" });
    form.appendChild(status);
    form.addEventListener("submit", function (submitEvent) {
      submitEvent.preventDefault();
      // a page left open overnight: today's day, unless the judge typed one (the preview again first)
      var today = String(window.JudgePenalty ? JudgePenalty.eventDay(chosenEvent.date) : 1);
      if (!form.elements.day.dataset.touched && form.elements.day.value !== today) {
        form.elements.day.value = today;
        refreshPreview(offender.value());
        status.className = "save-status";
        status.textContent = "A new tournament day began: Day is now " + today + ". Check the penalty, then save.";
        return;
      }
      if (!form.reportValidity()) return;
      var button = form.querySelector("button[type=submit]");
      button.disabled = true;
      var players = [offender.value(), opponent.value()].filter(Boolean);
      var body = {
        // a call the server refused, corrected and saved again, replaces the refused one
        client_id: form.dataset.retry || window.JudgeOffline.uuid(),
        guide: guide.slug,
        answers: answers.slice(),
        table: String(form.elements.table.value).trim(),
        round: Number(form.elements.round.value),
        day: Number(form.elements.day.value) || 1,
        time_extension: form.elements.time_extension.value ? Number(form.elements.time_extension.value) : null,
        players: players,
        offender: players[0],
        rel: rel(),
        conclusion: current.id,
        // What the judge was shown, and so gave: stored as the call's penalty; the server flags the call
        // for the head judge when the player's earlier penalties give another (a call saved offline).
        announced_penalty: box.dataset.penalty || (window.JudgePenalty ? JudgePenalty.label((node.penalty || {})[rel()] || "") : ""),
        created_at: new Date().toISOString()
      };
      var url = app.dataset.callsUrl.replace("{id}", encodeURIComponent(eventId));
      JudgePlayers.remember(eventId, players);
      window.JudgeOffline.enqueue(url, body).then(function (outcome) {
        status.className = "save-status" + (outcome.sent ? " ok" : "");
        status.textContent = outcome.sent ? "Saved to the event."
          : outcome.refused ? "Not stored: " + outcome.error + ". Correct the call and save it again (it replaces the " +
            "refused one), or discard it from the list above."
          : outcome.error ? "Not sent yet (" + outcome.error + "): the call is kept on this tablet and tried again."
          : "No connection: the call is kept on this tablet and sent when the connection returns.";
        if (outcome.refused) { form.dataset.retry = outcome.client_id; button.disabled = false; return; }
        delete form.dataset.retry;
        var reply = outcome.reply || {};
        if (outcome.sent && reply.penalty) {
          status.textContent += " Penalty recorded: " + reply.penalty + ".";
          // The reason already opens with "Upgraded to Game Loss:": say it once.
          if (reply.upgraded) form.appendChild(el("p", { className: "notice warn upgrade", text: reply.upgrade_reason || "Upgraded by this player's earlier penalties at this event." }));
          if (reply.needs_review) form.appendChild(el("p", { className: "notice warn review-flag", role: "alert", text: "Flagged for the head judge: " + reply.review_reason }));
        }
        // Kept on the tablet: once it syncs, say so here, by Save, with the head judge's flag if any.
        if (!outcome.sent && window.JudgeOffline.whenSent) window.JudgeOffline.whenSent(outcome.client_id, function (sent) {
          status.className = "save-status ok";
          status.textContent = "Sent to the event. Penalty recorded: " + sent.penalty + ".";
          if (sent.needs_review) form.appendChild(el("p", { className: "notice warn review-flag", role: "alert", text: "Flagged for the head judge: " + sent.review_reason }));
        });
      });
    });
    section.appendChild(form);
    return section;
  }

  window.addEventListener("popstate", function (event) {
    answers = event.state && event.state.answers ? event.state.answers.slice() : new URLSearchParams(location.search).getAll("a");
    show();
  });

  /* Start where the URL says (a reload, or a link with answers). */
  answers = new URLSearchParams(location.search).getAll("a");
  setupEvents();
  updateRelControls();
  app.classList.add("enhanced");
  pushUrl(false);
  show();
})();
