/* A loop's outcome on the tablet: engines/loops (resolve_loop) for loops whose effects are additions to
   life and poison, the loops the loop guide describes, so the guide rules without a network. Counts and
   counters are BigInt: a shortcut of 10^18 iterations is exact, and costs what 10 cost (one division per
   player, condition and action, as the engine's arithmetic). Anything else (a library, an effect that
   multiplies or sets, a loop that removes poison counters, which stop at 0 and so are played out, a
   request outside that shape) answers {unsupported: true} and the step goes to the server; declarations
   the loop rules refuse answer {refused: field} as the engine does.
   tests/engines/test_loop_outcome_js.py runs this file under node against the Python engine on generated
   requests: the same result, field for field (numbers past 2^53 as the nearest double), or the same refusal.
   window.JudgeLoops (node: module.exports) = { run(request) -> {result} | {refused} | {unsupported} }.
   One piece past 400 lines because it mirrors the engine's request, kinds, arithmetic and resolution
   (engines/loops, 1,300 lines) section by section, in their order, so the two are read side by side. */
(function (root) {
  "use strict";

  var MAX_COUNT = 1000000000000000000n, MAX_PLAYERS = 16, MAX_ACTIONS = 64, DEFAULT_LIFE = 20n;
  var WORDS = ["accept", "indefinitely", "no_action"];
  var CR = "cr@2025-02-07:", MTR = "mtr@2019-06-06:";   // engines/citations.py
  var CITE = {
    WIN_OPPONENTS_LEFT: CR + "104.2a", LOSE_LIFE: CR + "104.3b", LOSE_POISON: CR + "104.3d",
    DRAW_ALL_LOSE: CR + "104.4a", DRAW_MANDATORY_LOOP: CR + "104.4b", LEAVES_GAME: CR + "104.5",
    SBA_CHECK: CR + "704.3", SBA_LIFE: CR + "704.5a", SBA_POISON: CR + "704.5c", MULTIPLAYER_CONTINUES: CR + "800.4",
    TOURNAMENT_RULES_PREVAIL: CR + "729.1c", SHORTCUT_PROPOSAL: CR + "729.2a", SHORTCUT_SHORTEN: CR + "729.2b",
    SHORTCUT_TAKEN: CR + "729.2c", LOOP_FRAGMENTED: CR + "729.3", LOOP_MANDATORY: CR + "729.4",
    LOOP_NOT_FORCED: CR + "729.5", LOOP_UNLESS: CR + "729.6", MTR_LOOPS: MTR + "4.4", LEAVES_WITH_OBJECTS: CR + "800.4a"
  };
  var REASON_WORDS = { life: "has 0 or less life", poison: "has reached the poison counter limit" };
  var REASON_CITES = { life: [CITE.LOSE_LIFE, CITE.SBA_LIFE], poison: [CITE.LOSE_POISON, CITE.SBA_POISON] };
  /* resolution.reason_cites: CR 104.3d and 704.5c say ten poison counters; fifteen is a Two-Headed Giant
     team's (704.6b, 810.8d), any other limit an effect's (101.1). */
  function reasonCites(reason, threshold) {
    if (reason !== "poison" || Number(threshold) === 10) return REASON_CITES[reason];
    if (Number(threshold) === 15) return [CR + "704.6b", CR + "810.8d"];
    return [CR + "101.1"];
  }

  function Unsupported() {}
  function Refused(field) { this.field = field; }
  function isObject(v) { return v !== null && typeof v === "object" && !Array.isArray(v); }
  function has(o, k) { return Object.prototype.hasOwnProperty.call(o, k); }
  function get(o, k) { return has(o, k) && o[k] !== undefined ? o[k] : null; }
  function need(ok) { if (!ok) throw new Unsupported(); }
  function whole(v, low, high) {
    need(typeof v === "number" && Number.isInteger(v));
    var b = BigInt(v);
    need(b >= low && b <= high);
    return b;
  }
  function flag(v, fallback) { if (v === null) return fallback; need(typeof v === "boolean"); return v; }
  function text(v) { if (v === null) return ""; need(typeof v === "string"); return v; }

  /* Python's f"{n:,}" and f"{n:+,}" for a BigInt. */
  function commas(n) {
    var digits = (n < 0n ? -n : n).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ",");
    return (n < 0n ? "-" : "") + digits;
  }
  function signed(n) { return (n < 0n ? "" : "+") + commas(n); }
  function names(list) { return list.length <= 1 ? list.join("") : list.slice(0, -1).join(", ") + " and " + list[list.length - 1]; }
  function num(b) { return b === null ? null : Number(b); }

  /* ------------------------------------------------------------------ the request (the guide's shape) */

  function read(data) {
    need(isObject(data));
    var players = get(data, "players");
    need(Array.isArray(players) && players.length >= 2 && players.length <= MAX_PLAYERS);
    players.forEach(function (p) { need(typeof p === "string" && p.trim() !== "" && !/^\d+$/.test(p)); });
    need(new Set(players).size === players.length);
    var isPlayer = function (p) { return typeof p === "string" && players.indexOf(p) >= 0; };
    var raw = get(data, "iteration");
    need(Array.isArray(raw) && raw.length >= 1 && raw.length <= MAX_ACTIONS);
    var iteration = raw.map(function (a) {
      need(isObject(a) && isPlayer(get(a, "player")));
      var kind = get(a, "kind"), unless = get(a, "unless_player");
      need(["optional", "mandatory", "unless"].indexOf(kind) >= 0);
      if (kind === "unless") need(isPlayer(unless)); else need(unless === null);
      var effects = get(a, "effects"), changes = [];
      if (effects !== null) {
        need(isObject(effects));
        Object.keys(effects).forEach(function (target) {
          need(isPlayer(target) && isObject(effects[target]));
          Object.keys(effects[target]).forEach(function (counter) {
            need(counter === "life" || counter === "poison");
            // removing poison counters stops at 0: the engine plays such a loop out, the server's work
            changes.push({ player: target, counter: counter, amount: whole(effects[target][counter], counter === "poison" ? 0n : -MAX_COUNT, MAX_COUNT) });
          });
        });
      }
      return { player: a.player, kind: kind, text: text(get(a, "text")), unless_player: unless, changes: changes };
    });
    var breakers = get(data, "breakers") || [];
    need(Array.isArray(breakers));
    breakers = breakers.map(function (b) {
      need(isObject(b) && isPlayer(get(b, "player")));
      return { player: b.player, text: text(get(b, "text")) };
    });
    var fragmented = get(data, "fragmented");
    need(fragmented === null || typeof fragmented === "boolean");
    var given = get(data, "state") || {};
    need(isObject(given));
    Object.keys(given).forEach(function (p) { need(isPlayer(p)); });
    var state = {};
    players.forEach(function (p) {
      var counters = get(given, p) || {};
      need(isObject(counters));
      var own = { life: DEFAULT_LIFE, poison: 0n };
      Object.keys(counters).forEach(function (c) {
        need(c === "life" || c === "poison");
        own[c] = whole(counters[c], c === "poison" ? 0n : -MAX_COUNT, MAX_COUNT);
      });
      state[p] = own;
    });
    var request = {
      players: players, iteration: iteration, breakers: breakers, fragmented: fragmented, state: state,
      deterministic: flag(get(data, "deterministic"), true), spans_turns: flag(get(data, "spans_turns"), false),
      declared: null, restarted_without_change: flag(get(data, "restarted_without_change"), false), poison_threshold: 10n
    };
    var declared = get(data, "declared");
    if (declared !== null) {
      need(isObject(declared));
      request.declared = {};
      Object.keys(declared).forEach(function (p) {
        need(isPlayer(p));
        var v = declared[p];
        if (typeof v === "string") { need(WORDS.indexOf(v) >= 0); request.declared[p] = v; }
        else if (isObject(v)) {
          var keys = Object.keys(v).sort();
          need(keys.length === 2 && keys[0] === "after_action" && keys[1] === "iterations" && iteration.length >= 2);
          request.declared[p] = { after_action: Number(whole(v.after_action, 0n, BigInt(iteration.length - 2))),
                                  iterations: whole(v.iterations, 0n, MAX_COUNT) };
        } else request.declared[p] = whole(v, 0n, MAX_COUNT);
      });
    }
    if (has(data, "poison_threshold")) request.poison_threshold = whole(data.poison_threshold, 1n, 1000n);
    return request;
  }

  /* ------------------------------------------------------------------ kinds (engines/loops/kinds.py) */

  function countKey(v) {
    if (typeof v === "bigint") return [v, -1n];
    if (isObject(v)) return [v.iterations, BigInt(v.after_action)];
    return null;
  }
  function below(a, b) { return a[0] < b[0] || (a[0] === b[0] && a[1] < b[1]); }
  function maintainersOf(r) {
    return r.players.filter(function (p) { return r.iteration.some(function (a) { return a.kind === "optional" && a.player === p; }); });
  }
  function breakersOf(r) {
    return r.players.filter(function (p) {
      return r.breakers.some(function (b) { return b.player === p; }) || r.iteration.some(function (a) { return a.unless_player === p; });
    });
  }
  function classify(r) {
    if (!r.deterministic) return "non_deterministic";
    var m = maintainersOf(r);
    if (!m.length) return "mandatory";
    if (m.length === 1) return "maintained_by_one";
    var fragmented = r.fragmented;
    if (fragmented === null) {
      var net = {};
      r.iteration.forEach(function (a) { a.changes.forEach(function (ch) { var k = ch.player + "\u0000" + ch.counter; net[k] = (net[k] || 0n) + ch.amount; }); });
      fragmented = !Object.keys(net).some(function (k) { return net[k] !== 0n; });
    }
    return fragmented ? "fragmented" : "maintained_by_several";
  }
  function namesNoNumber(r) {
    var d = r.declared || {};
    return !Object.keys(d).some(function (p) { return countKey(d[p]) !== null || d[p] === "indefinitely"; });
  }

  /* check_declarations (engines/loops/requests.py). */
  function checkDeclarations(r) {
    if (r.declared === null) return;
    var kind = classify(r), d = r.declared, players = Object.keys(d);
    if (kind === "non_deterministic" || (kind === "fragmented" && namesNoNumber(r))) return;
    var m = maintainersOf(r);
    players.forEach(function (p) {
      if (d[p] === "indefinitely" && (!r.spans_turns || kind === "maintained_by_one")) throw new Refused("declared." + p);
    });
    if (kind === "mandatory") {
      var able = breakersOf(r);
      // a number needs a way to break the loop; MTR 4.4: a number, or no action (no one proposed a
      // number to accept); one player at a time, as the engine checks them
      players.forEach(function (p) {
        if ((countKey(d[p]) !== null && able.indexOf(p) < 0) || d[p] === "accept") throw new Refused("declared." + p);
      });
      return;
    }
    m.forEach(function (p) {
      var mine = has(d, p) ? d[p] : null;
      if (mine === null || (countKey(mine) === null && mine !== "indefinitely")) throw new Refused("declared." + p);
    });
    if (kind === "maintained_by_one") {
      var proposed = countKey(d[m[0]]);
      players.forEach(function (p) {
        var own = countKey(d[p]);
        if (p !== m[0] && own !== null && proposed !== null && below(proposed, own)) throw new Refused("declared." + p);
      });
    }
  }

  /* ------------------------------------------------------------------ thresholds (arithmetic only) */

  function key(p, c) { return p + "\u0000" + c; }
  function prefixSums(r) {
    var running = {}, prefixes = [];
    r.iteration.forEach(function (a) {
      a.changes.forEach(function (ch) { var k = key(ch.player, ch.counter); running[k] = (running[k] || 0n) + ch.amount; });
      prefixes.push(Object.assign({}, running));
    });
    return [prefixes, running];
  }
  function firstAtMostZero(start, per) {
    if (start <= 0n) return 0n;
    if (per >= 0n) return null;
    var step = -per;
    return (start + step - 1n) / step;
  }
  function initialLosses(r) {
    var reasons = {}, any = false;
    r.players.forEach(function (p) {
      var list = [];
      if (r.state[p].life <= 0n) list.push("life");
      if (r.state[p].poison >= r.poison_threshold) list.push("poison");
      if (list.length) { reasons[p] = list; any = true; }
    });
    return any ? reasons : null;
  }
  function crossings(r) {
    var both = prefixSums(r), prefixes = both[0], total = both[1], out = [];
    prefixes.forEach(function (prefix, j) {
      r.players.forEach(function (p) {
        var s = r.state[p];
        [["life", s.life + (prefix[key(p, "life")] || 0n), total[key(p, "life")] || 0n],
         ["poison", r.poison_threshold - s.poison - (prefix[key(p, "poison")] || 0n), -(total[key(p, "poison")] || 0n)]]
          .forEach(function (t) {
            var n = firstAtMostZero(t[1], t[2]);
            if (n !== null) out.push([p, t[0], n, j]);
          });
      });
    });
    return out;
  }
  function firstLoss(r, limit) {
    var initial = initialLosses(r);
    if (initial) return { iteration: 0n, action: null, reasons: initial, order: Object.keys(initial) };
    var best = null, found = {};
    crossings(r).forEach(function (c) {
      var p = c[0], reason = c[1], n = c[2], j = c[3];
      if (limit !== null && n >= limit) return;
      var k = [n, BigInt(j)];
      if (best === null || !below(best, k)) {
        best = k;
        var id = n + ":" + j;
        if (!found[id]) found[id] = { reasons: {}, order: [] };
        if (!found[id].reasons[p]) { found[id].reasons[p] = []; found[id].order.push(p); }
        found[id].reasons[p].push(reason);
      }
    });
    if (best === null) return null;
    var hit = found[best[0] + ":" + best[1]];
    return { iteration: best[0] + 1n, action: Number(best[1]), reasons: hit.reasons, order: hit.order };
  }
  function thresholdsByPlayer(r) {
    var out = {};
    r.players.forEach(function (p) { out[p] = { life: null, poison: null }; });
    var initial = initialLosses(r) || {};
    Object.keys(initial).forEach(function (p) { initial[p].forEach(function (reason) { out[p][reason] = 0n; }); });
    crossings(r).forEach(function (c) {
      var current = out[c[0]][c[1]];
      if (current === null || c[2] + 1n < current) out[c[0]][c[1]] = c[2] + 1n;
    });
    return out;
  }
  function stateAfter(r, iterations, action) {
    var both = prefixSums(r), extra = action !== null && action !== undefined ? both[0][action] : {}, total = both[1], out = {};
    r.players.forEach(function (p) {
      out[p] = {};
      Object.keys(r.state[p]).forEach(function (c) {
        out[p][c] = r.state[p][c] + iterations * (total[key(p, c)] || 0n) + (extra[key(p, c)] || 0n);
      });
    });
    return out;
  }

  /* ------------------------------------------------------------------ resolution (resolution.py) */

  function label(r, i) { return r.iteration[i].text || "action " + (i + 1); }
  function countWords(r, v) {
    if (isObject(v)) return commas(v.iterations) + " and then the next iteration up to \"" + label(r, v.after_action) + "\"";
    return typeof v === "bigint" ? commas(v) : String(v);
  }
  function perIteration(r) {
    return r.iteration.map(function (a, i) {
      var changes = a.changes.map(function (ch) { return ch.player + " " + ch.counter + " " + signed(ch.amount); });
      var kind = a.unless_player ? a.kind + ", unless " + a.unless_player + " chooses otherwise" : a.kind;
      return "action " + (i + 1) + " (" + a.player + ", " + kind + "): " + (a.text || "no description") +
        (changes.length ? " [" + changes.join("; ") + "]" : "");
    });
  }

  function Draft(kind, maintainers) { this.kind = kind; this.maintainers = maintainers; this.sentences = []; this.cites = []; this.steps = []; }
  Draft.prototype.say = function (sentence) {
    this.sentences.push(sentence);
    for (var i = 1; i < arguments.length; i++) if (this.cites.indexOf(arguments[i]) < 0) this.cites.push(arguments[i]);
  };

  function describeKind(r, d) {
    var m = d.maintainers;
    if (d.kind === "mandatory") d.say("Every action in this loop is mandatory: no player's choice keeps it going.", CITE.LOOP_MANDATORY);
    else if (d.kind === "maintained_by_one") d.say(m[0] + " alone keeps this loop going by choosing to repeat it; everything else in it is mandatory.", CITE.MTR_LOOPS);
    else if (d.kind === "maintained_by_several") d.say(names(m) + " each keep this loop going with their own choices.", CITE.MTR_LOOPS);
    r.iteration.forEach(function (a) {
      if (a.kind === "unless") {
        d.say("\"" + (a.text || "The unless action") + "\" repeats as if it were mandatory unless " + a.unless_player +
              " chooses to do the other thing; nobody can be forced to do it.", CITE.LOOP_UNLESS);
      }
    });
    if (r.breakers.length) {
      d.say("Nobody has to use an action outside the loop to end it: " + r.breakers.map(function (b) {
        return b.text ? b.player + " may " + b.text : b.player + " may act";
      }).join("; ") + ".", CITE.LOOP_NOT_FORCED);
    }
  }

  function describeLoss(r, loss, d) {
    var where;
    if (loss.iteration === 0n) where = "Before the loop begins";
    else where = "During iteration " + commas(loss.iteration) + ", after \"" + label(r, loss.action !== null ? loss.action : 0) + "\"";
    loss.order.forEach(function (p) {
      var reasons = loss.reasons[p];
      var words = reasons.map(function (x) { return x === "poison" ? "has " + r.poison_threshold + " or more poison counters" : REASON_WORDS[x]; });
      var refs = [CITE.SBA_CHECK];
      reasons.forEach(function (x) { refs = refs.concat(reasonCites(x, r.poison_threshold)); });
      d.say.apply(d, [where + ", " + p + " " + words.join(" and ") + "."].concat(refs));
    });
    var losers = r.players.filter(function (p) { return has(loss.reasons, p); });
    var remaining = r.players.filter(function (p) { return !has(loss.reasons, p); });
    var at = { after_iteration: num(loss.iteration), after_action: loss.action };
    if (!remaining.length) {
      d.say("State-based actions make " + names(losers) + " lose at the same time, so the game is a draw.", CITE.DRAW_ALL_LOSE);
      return [Object.assign({ winners: [], losers: losers, draw: true }, at), []];
    }
    if (remaining.length === 1) {
      d.say("State-based actions end the game before the loop can continue: " + names(losers) + " " +
            (losers.length === 1 ? "loses" : "lose") + " and " + remaining[0] + " wins.", CITE.WIN_OPPONENTS_LEFT);
      return [Object.assign({ winners: remaining, losers: losers, draw: false }, at), []];
    }
    var left = names(losers) + " " + (losers.length === 1 ? "loses" : "lose") + " and " + (losers.length === 1 ? "leaves" : "leave") +
      " the game; the game goes on for " + names(remaining);
    // CR 800.4a: the loop stops for certain only if one of its actions is a leaving player's.
    var controllers = losers.filter(function (p) { return r.iteration.some(function (a) { return a.player === p; }); });
    if (controllers.length) {
      d.say(left + ", and the loop stops here: " + names(controllers) + " " + (controllers.length === 1 ? "controls" : "control") +
            " an action of it, and the objects of a player who leaves leave with them. The remaining players describe the loop " +
            "again if it can still go on.", CITE.LEAVES_GAME, CITE.MULTIPLAYER_CONTINUES, CITE.LEAVES_WITH_OBJECTS);
    } else {
      d.say(left + ". No action of the loop is taken by " + names(losers) + ", so the loop may still go on, unless it uses an " +
            "object " + names(losers) + " " + (losers.length === 1 ? "owns" : "own") + " (such objects leave the game too): the " +
            "remaining players describe it again from here.", CITE.LEAVES_GAME, CITE.MULTIPLAYER_CONTINUES, CITE.LEAVES_WITH_OBJECTS);
    }
    return [null, losers];
  }

  function findLoss(r, limit, extra) {
    if (!extra || limit === null) return firstLoss(r, limit);
    var loss = firstLoss(r, limit + 1n);
    if (loss !== null && loss.iteration === limit + 1n && loss.action !== null && loss.action >= extra) loss = null;
    return loss;
  }

  function lossJson(loss) {
    if (!loss) return null;
    var losers = {};
    loss.order.forEach(function (p) { losers[p] = loss.reasons[p].slice(); });
    return { iteration: num(loss.iteration), action: loss.action, losers: losers };
  }
  function stateJson(state) {
    if (!state) return null;
    var out = {};
    Object.keys(state).forEach(function (p) { out[p] = {}; Object.keys(state[p]).forEach(function (c) { out[p][c] = num(state[p][c]); }); });
    return out;
  }
  function declJson(v) {
    if (typeof v === "bigint") return num(v);
    if (isObject(v)) return { iterations: num(v.iterations), after_action: v.after_action };
    return v;
  }

  function finish(d, common, fields) {
    var out = {
      loop_kind: common.loop_kind, shortcut_allowed: true, iterations: null, stopped_by: null, must_deviate: null,
      draw: false, game_over: null, final_state: null, explanation: d.sentences.join(" "), citations: d.cites.slice(),
      maintainers: common.maintainers.slice(), stop_kind: null, declarations: [], ends_game_after: lossJson(common.ends_game_after),
      eliminated: [], method: "arithmetic", gave_up: false, cycle: null, refused: false, then_actions: 0,
      thresholds: null, steps: d.steps.slice(), decided_by: d.cites.indexOf(CITE.MTR_LOOPS) >= 0 ? "mtr" : "cr"
    };
    var t = common.thresholds;
    out.thresholds = {};
    Object.keys(t).forEach(function (p) { out.thresholds[p] = { life: num(t[p].life), poison: num(t[p].poison) }; });
    if (common.declarations) out.declarations = common.declarations.map(function (m) { return { player: m[0], declared: declJson(m[1]) }; });
    Object.keys(fields).forEach(function (k) {
      var v = fields[k];
      if (k === "iterations") v = num(v);
      else if (k === "final_state") v = stateJson(v);
      out[k] = v;
    });
    return out;
  }

  function endAtLoss(r, loss, d, common, fields) {
    var over = describeLoss(r, loss, d);
    var before = loss.iteration - 1n;
    return finish(d, common, Object.assign({
      iterations: loss.iteration, stopped_by: null, stop_kind: null, draw: !!(over[0] && over[0].draw), game_over: over[0],
      final_state: stateAfter(r, before > 0n ? before : 0n, loss.action), eliminated: over[1]
    }, fields || {}));
  }

  function describeDeclarations(r, d, made, lowest, chooser) {
    var words = { accept: "accepts", no_action: "will take no action to stop it", indefinitely: "will continue indefinitely" };
    var parts = made.map(function (m) { return m[0] + " " + (typeof m[1] === "string" ? words[m[1]] : "names " + countWords(r, m[1])); });
    if (d.kind === "maintained_by_one") {
      d.say("Under the loop rules, " + d.maintainers[0] + " names a number of iterations and each other player in turn order " +
            "accepts it or names a lower number after which they will act; the lowest number wins.",
            CITE.SHORTCUT_PROPOSAL, CITE.SHORTCUT_SHORTEN, CITE.MTR_LOOPS);
    } else if (d.kind === "mandatory") {
      d.say("Under the loop rules, each player in turn order names a number of iterations after which they will act to break " +
            "the loop, or says they will take no action; the lowest number wins.", CITE.MTR_LOOPS);
    } else if (d.kind !== "fragmented") {
      d.say("Under the loop rules, each player in turn order names a number of iterations" +
            (r.spans_turns ? " or says they will continue indefinitely" : "") + "; the lowest number wins.", CITE.MTR_LOOPS);
    }
    d.say("Declared: " + parts.join("; ") + ".");
    parts.forEach(function (p) { d.steps.push(p); });
    if (lowest !== null) d.steps.push("lowest number: " + countWords(r, lowest) + ", named by " + chooser);
  }

  function describeFragmented(r, d) {
    d.say("This is a fragmented loop: " + names(d.maintainers) + " each take an independent action and the game comes back " +
          "to a state it was in before.", CITE.LOOP_FRAGMENTED);
    d.say("In a tournament the Tournament Rules take precedence over the Comprehensive Rules on loops, and they speak to " +
          "loops kept going by two or more players" + (r.spans_turns ? " across turns" : " within a turn") + ": each of those " +
          "players names a number of iterations" + (r.spans_turns ? " or says they will continue indefinitely" : "") +
          ", and the lowest number stands. This is decided by the Magic Tournament Rules.",
          CITE.TOURNAMENT_RULES_PREVAIL, CITE.MTR_LOOPS);
  }

  function fragmentedByCr(r, d, common) {
    var ap = r.players[0], who = d.maintainers.indexOf(ap) >= 0 ? ap : d.maintainers[0];
    d.say("This is a fragmented loop: " + names(d.maintainers) + " each take an independent action and the game comes back " +
          "to a state it was in before.", CITE.LOOP_FRAGMENTED);
    var whom = who === ap ? "the active player, " + who + "," :
      "the active player is not involved in the loop, so the first involved player in turn order, " + who + ",";
    d.say("No player named a number of iterations, so the rule for fragmented loops settles it: " + whom +
          " must make a different game choice so the loop does not continue.", CITE.LOOP_FRAGMENTED);
    d.say("(In a tournament the players may instead each name a number of iterations; the lowest then stands and the " +
          "player who named it makes the different choice.)", CITE.TOURNAMENT_RULES_PREVAIL, CITE.MTR_LOOPS);
    var loss = findLoss(r, 1n, 0);
    if (loss !== null) return endAtLoss(r, loss, d, common, { decided_by: "cr" });
    return finish(d, common, { iterations: 1n, stopped_by: who, must_deviate: who, stop_kind: "makes_different_choice",
                               final_state: stateAfter(r, 1n, null), decided_by: "cr" });
  }

  /* _breakers_undeclared: each player able to break the loop says, in turn order, after how many iterations
     they act or that they take no action; the first of them whose choice is not given must say it. */
  function breakersUndeclared(r, d, common, undecided) {
    var first = undecided[0], horizon = common.ends_game_after;
    var who = undecided.length === 1 ? first + ", who can break the loop, has" : names(undecided) + ", who can each break the loop, have";
    d.say(who + " not said yet what they choose, and it is not presumed: under the tournament loop rules each player in turn " +
          "order says after how many iterations they will act to break the loop, or that they will take no action, and the " +
          "game is a draw only if all players choose to take no action. " + first + " must say it first.",
          CITE.MTR_LOOPS, CITE.LOOP_NOT_FORCED);
    if (horizon !== null) {
      d.say("If the loop is performed " + commas(horizon.iteration) + " times or more, state-based actions end the game " +
            "during iteration " + commas(horizon.iteration) + ": " + names(horizon.order) + " would lose.", CITE.SBA_CHECK);
    } else {
      d.say("If every player chooses to take no action, the loop never ends the game by itself and the game is a draw.",
            CITE.DRAW_MANDATORY_LOOP);
    }
    return finish(d, common, { stopped_by: first, stop_kind: "must_name_number" });
  }

  function resolve(r) {
    checkDeclarations(r);
    var kind = classify(r), d = new Draft(kind, maintainersOf(r));
    var common = { loop_kind: kind, maintainers: d.maintainers, ends_game_after: firstLoss(r, null), thresholds: thresholdsByPlayer(r) };
    perIteration(r).forEach(function (s) { d.steps.push(s); });
    if (r.restarted_without_change && d.maintainers.length) {
      var who = d.maintainers[0];
      d.say("This loop was already shortcut and the game has not changed in a relevant way since, so under the tournament " +
            "loop rules it may not be restarted: " + who + " must do something else.", CITE.MTR_LOOPS);
      return finish(d, common, { shortcut_allowed: false, iterations: 0n, stopped_by: who, stop_kind: "makes_different_choice",
                                 must_deviate: who, final_state: r.state, refused: true });
    }
    if (kind === "non_deterministic") {
      var first = d.maintainers.length ? d.maintainers[0] : null;
      d.say("This loop relies on chance or on decisions along the way, so under the tournament loop rules it cannot be " +
            "shortcut: it is played out for real, and " + (first ? first + " " : "the players ") +
            "must stop as soon as the game reaches a state it was in before.", CITE.MTR_LOOPS, CITE.SHORTCUT_PROPOSAL);
      if (r.declared && Object.keys(r.declared).length) d.say("The numbers declared do not apply to such a loop.");
      return finish(d, common, { shortcut_allowed: false, stopped_by: first, stop_kind: first ? "must_stop" : null });
    }
    if (kind === "fragmented" && namesNoNumber(r)) return fragmentedByCr(r, d, common);
    if (kind === "fragmented") describeFragmented(r, d);
    describeKind(r, d);
    if (r.restarted_without_change) {
      d.say("A loop of only mandatory actions is not restarted by anyone's choice, so the rule against restarting a loop " +
            "without a relevant change does not apply.", CITE.MTR_LOOPS);
    }
    if (r.declared === null && kind !== "mandatory") {
      var proposer = d.maintainers[0], horizon = common.ends_game_after;
      d.say("No numbers were declared yet: " + proposer + " must name a number of iterations first.", CITE.SHORTCUT_PROPOSAL, CITE.MTR_LOOPS);
      if (horizon !== null) {
        d.say("If the loop is performed " + commas(horizon.iteration) + " times or more, state-based actions end the game " +
              "during iteration " + commas(horizon.iteration) + ": " + names(horizon.order) + " would lose.", CITE.SBA_CHECK);
      }
      return finish(d, common, { stopped_by: proposer, stop_kind: "must_name_number" });
    }
    // A player able to break a loop of mandatory actions whose choice is not given: it is asked for, never
    // presumed (MTR 4.4: a draw only if all players choose to take no action; CR 729.6).
    if (kind === "mandatory") {
      var given = r.declared || {};
      var undecided = breakersOf(r).filter(function (p) { return !has(given, p); });
      if (undecided.length) return breakersUndeclared(r, d, common, undecided);
    }
    // Who declares, in order: the proposer then the others in turn order, else turn order (CR 729.2b).
    var order = r.players;
    if (kind === "maintained_by_one") {
      var start = r.players.indexOf(d.maintainers[0]);
      order = r.players.slice(start).concat(r.players.slice(0, start));
    }
    var declared = r.declared || {}, fallback = kind === "mandatory" ? "no_action" : "accept";
    var made = order.map(function (p) { return [p, has(declared, p) ? declared[p] : fallback]; });
    var lowest = null, lowestKey = null, chooser = null;
    made.forEach(function (m) {
      var k = countKey(m[1]);
      if (k !== null && (lowestKey === null || below(k, lowestKey))) { lowest = m[1]; lowestKey = k; chooser = m[0]; }
    });
    var limit = null, extra = 0;
    if (isObject(lowest)) { limit = lowest.iterations; extra = lowest.after_action + 1; }
    else if (typeof lowest === "bigint") limit = lowest;
    if (r.declared !== null) describeDeclarations(r, d, made, lowest, chooser);
    var loss = findLoss(r, limit, extra);
    common.declarations = made;
    if (loss !== null) return endAtLoss(r, loss, d, common);
    if (limit === null) {
      if (kind === "mandatory") {
        d.say("Nobody will stop the loop and it never ends the game by itself, so under the rules for ending the game it is a draw.",
              CITE.DRAW_MANDATORY_LOOP, CITE.LOOP_MANDATORY);
      } else {
        d.say("Every player chose to continue the loop indefinitely across turns, so the game is a draw.", CITE.MTR_LOOPS);
      }
      return finish(d, common, { draw: true, game_over: { winners: [], losers: [], draw: true, after_iteration: null, after_action: null } });
    }
    var final = stateAfter(r, limit, extra ? extra - 1 : null);
    var performed = "The loop is performed " + commas(limit) + " times" + (extra ? ", then once more only up to \"" + label(r, extra - 1) + "\"" : "");
    var stopKind;
    if (kind === "mandatory") {
      d.say(performed + "; then " + chooser + " must take their action to break it.", CITE.MTR_LOOPS);
      stopKind = "breaks_loop";
    } else {
      var where = r.spans_turns && kind !== "maintained_by_one" ? " at the point where they stop taking an action to sustain the loop" : "";
      d.say(performed + ", and " + chooser + " then receives priority" + where + ".", CITE.SHORTCUT_TAKEN, CITE.MTR_LOOPS);
      stopKind = "receives_priority";
      if (kind === "fragmented") {
        d.say(chooser + " must then make a different choice so the loop does not continue.", CITE.MTR_LOOPS);
        return finish(d, common, { iterations: limit, then_actions: extra, stopped_by: chooser, stop_kind: "makes_different_choice",
                                   must_deviate: chooser, final_state: final, decided_by: "mtr" });
      }
      if (kind === "maintained_by_one" && chooser !== d.maintainers[0]) {
        d.say("Because the shortcut was shortened, " + chooser + " must then do something other than what was proposed.", CITE.SHORTCUT_TAKEN);
      }
    }
    return finish(d, common, { iterations: limit, then_actions: extra, stopped_by: chooser, stop_kind: stopKind,
                               final_state: final, decided_by: "mtr" });
  }

  /* The "loop-outcome" computation of a guide step, on the tablet when it can be exact. */
  function run(request) {
    try {
      return { result: resolve(read(request)) };
    } catch (e) {
      if (e instanceof Unsupported) return { unsupported: true };
      if (e instanceof Refused) return { refused: e.field };
      throw e;
    }
  }

  var api = { run: run };
  if (typeof module !== "undefined" && module.exports) module.exports = api;
  else root.JudgeLoops = api;
})(this);
