/* The judge's shuffle check on the tablet: engines/shuffle_check's infraction logic (validate_shuffle_facts,
   then check_shuffle), so the shuffle guide's ruling needs no server; a described procedure's distance from
   random is worked out exactly by riffles.js (loaded before this file), as the server's engine does.
   tests/engines/test_shuffle_check_js.py runs this file under node against the Python engine on generated
   facts: the same result, field for field, or the same refusal.
   window.JudgeShuffleCheck (node: module.exports) = { run(request, threshold) -> {result} | {refused: field} |
   {unsupported: true} (riffles.js missing), formatG(x, digits), formatG3(x), formatF3(x), PATTERN_ALPHA, MAX_DECK_SIZE }. */
(function (root) {
  "use strict";

  var PATTERN_ALPHA = 0.01;   // engines/shuffles/records.py
  var MAX_DECK_SIZE = 250, MAX_TIMES = 100, MAX_STEPS = 50;
  var METHODS = ["riffle", "mash", "overhand", "pile", "cut"];
  var Riffles = typeof module !== "undefined" && module.exports ? require("./riffles.js") : root.JudgeRiffles;
  var FAR_FROM_RANDOM = 0.9;   // where the band said "far from random" begins
  var DISTANCE_WORDS = [[0.05, "practically indistinguishable from random"], [0.25, "close to random"],
                        [0.5, "somewhat short of random"], [FAR_FROM_RANDOM, "well short of random"], [1.01, "far from random"]];
  var CITE = {
    SHUFFLE: "cr@2025-02-07:701.20a", PREGAME: "cr@2025-02-07:103.3", MTR_SHUFFLING: "mtr@2019-06-06:3.9",
    INSUFFICIENT: "ipg@2021-01-06:3.9", CHEATING: "ipg@2021-01-06:4.8", GRV: "ipg@2021-01-06:2.5",
    LEC: "ipg@2021-01-06:2.2", TOURNAMENT_ERRORS: "ipg@2021-01-06:3", SEARCH_EXCLUDED: "cr@2025-02-07:701.20b",
    OBJECTS_GONE: "cr@2025-02-07:701.20c", EMPTY_SET: "cr@2025-02-07:701.20d", SMALL_LIBRARY: "cr@2025-02-07:701.20e",
    POSITION: "cr@2025-02-07:701.20g", JAR_UNWANTED: "jar@2019-01-21:General Unwanted Behaviors",
    JAR_SERIOUS: "jar@2019-01-21:Serious Problems", JAR_CARD_SEEN: "jar@2019-01-21:1.2", JAR_GAME_ERROR: "jar@2019-01-21:1.4"
  };
  var NAMES = {
    none: "No infraction",
    insufficient_shuffling: "Tournament Error - Insufficient Shuffling",
    game_rule_violation: "Game Play Error - Game Rule Violation",
    unwanted_behaviour: "Inadequate shuffling (a General Unwanted Behavior at Regular REL)",
    regular_game_error: "An in-game error at Regular REL",
    looking_at_extra_cards: "Game Play Error - Looking at Extra Cards"
  };
  var FLAGS = {
    presented_to_opponent: true, searched_without_shuffle: false, card_seen_while_shuffling: false, pattern_seen: false,
    arranged_before_shuffle: false, repeated_after_education: false, found_cards_shuffled_in: false, put_at_position: false,
    objects_to_shuffle_missing: false, has_shuffle_trigger: false, cards_could_be_known: false,
    prior_insufficient_shuffling_warning: false, shuffling_opponents_deck: false
  };

  function isObject(v) { return v !== null && typeof v === "object" && !Array.isArray(v); }
  function has(o, k) { return Object.prototype.hasOwnProperty.call(o, k); }
  function get(o, k) { return has(o, k) && o[k] !== undefined ? o[k] : null; }

  /* Python's format(x, ".<digits>g") for a finite x >= 0: the double's exact decimal value rounded half to
     even at `digits` significant digits, in fixed or exponent notation. */
  function formatG(x, digits) {
    if (x === 0) return "0";
    var view = new DataView(new ArrayBuffer(8));
    view.setFloat64(0, x);
    var hi = view.getUint32(0), lo = view.getUint32(4), bits = (hi >>> 20) & 0x7ff;
    var mant = (BigInt(hi & 0xfffff) << 32n) | BigInt(lo), e2;
    if (bits === 0) e2 = -1074; else { mant |= 1n << 52n; e2 = bits - 1075; }
    var text, e10;
    if (e2 >= 0) { text = (mant << BigInt(e2)).toString(); e10 = 0; } else { text = (mant * 5n ** BigInt(-e2)).toString(); e10 = e2; }
    var exp = text.length - 1 + e10, head = BigInt(text.slice(0, digits).padEnd(digits, "0")), rest = text.slice(digits);
    var half = rest.length ? rest.charAt(0) : "0", beyond = /[1-9]/.test(rest.slice(1));
    if (half > "5" || (half === "5" && (beyond || head % 2n === 1n))) head += 1n;
    if (head === 10n ** BigInt(digits)) { head = 10n ** BigInt(digits - 1); exp += 1; }
    var sig = head.toString();
    if (exp >= -4 && exp < digits) {
      var fixed = exp >= 0 ? sig.slice(0, exp + 1) + "." + sig.slice(exp + 1) : "0." + "0".repeat(-exp - 1) + sig;
      return fixed.replace(/\.?0+$/, "").replace(/\.$/, "");
    }
    var mantissa = (sig.charAt(0) + "." + sig.slice(1)).replace(/\.?0+$/, "");
    var size = String(Math.abs(exp));
    return mantissa + "e" + (exp < 0 ? "-" : "+") + (size.length < 2 ? "0" + size : size);
  }
  function formatG3(x) { return formatG(x, 3); }

  /* Python's format(x, ".3f") for 0 <= x <= 1: toFixed, except at an exact tie (x = odd/16, e.g. 0.0625),
     which Python rounds to even and toFixed up. */
  function formatF3(x) {
    var sixteenths = x * 16;
    if (Number.isInteger(sixteenths) && sixteenths % 2 === 1) {
      var low = Math.floor(x * 1000), n = low % 2 === 0 ? low : low + 1;
      return (n / 1000).toFixed(3);
    }
    return x.toFixed(3);
  }

  function isWhole(v) { return typeof v === "number" && Number.isInteger(v); }

  /* engines/shuffles/requests.py's Procedure: the steps, or {refused: field}. */
  function validateProcedure(raw, size) {
    if (!Array.isArray(raw) || raw.length > MAX_STEPS) return { refused: "procedure" };
    var steps = [];
    for (var i = 0; i < raw.length; i++) {
      var at = "procedure[" + i + "]", step = raw[i];
      if (!isObject(step)) return { refused: at };
      var method = get(step, "method");
      if (METHODS.indexOf(method) < 0) return { refused: at + ".method" };
      var times = has(step, "times") ? step.times : 1;
      if (!isWhole(times) || times < 0 || times > MAX_TIMES) return { refused: at + ".times" };
      var piles = get(step, "piles");
      if (piles !== null) {
        if (method !== "pile" || !isWhole(piles) || piles < 2 || piles > Math.max(2, size)) return { refused: at + ".piles" };
      }
      steps.push({ method: method, times: times, piles: piles });
    }
    return { steps: steps };
  }

  /* validate_shuffle_facts: the facts, or {refused: field}. */
  function validate(data) {
    if (!isObject(data)) return { refused: "body" };
    var rel = get(data, "rel");
    if (["regular", "competitive", "professional"].indexOf(rel) < 0) return { refused: "rel" };
    var size = get(data, "deck_size");
    if (typeof size !== "number" || !Number.isInteger(size) || size < 0 || size > MAX_DECK_SIZE) return { refused: "deck_size" };
    var facts = { rel: rel, deck_size: size, procedure: null };
    if (get(data, "procedure") !== null) {
      var procedure = validateProcedure(data.procedure, size);
      if (procedure.refused) return procedure;
      facts.procedure = procedure.steps;
    }
    var names = Object.keys(FLAGS);
    for (var k = 0; k < names.length; k++) {
      var value = has(data, names[k]) && data[names[k]] !== undefined ? data[names[k]] : FLAGS[names[k]];
      if (typeof value !== "boolean") return { refused: names[k] };
      facts[names[k]] = value;
    }
    var p = get(data, "pattern_p_value"), field = "pattern_p_value", direction = null, analysis = get(data, "analysis");
    if (analysis !== null) {
      if (!isObject(analysis)) return { refused: "analysis" };
      if (p === null) { p = get(analysis, "pattern_p_value"); field = "analysis.pattern_p_value"; }
      direction = get(analysis, "pattern_direction");
      if (direction !== null && direction !== "too_even" && direction !== "too_clumped") return { refused: "analysis.pattern_direction" };
    }
    if (p !== null && (typeof p !== "number" || !(p >= 0 && p <= 1))) return { refused: field };
    facts.pattern_p_value = p;
    facts.pattern_direction = direction;
    return { facts: facts };
  }

  /* What the documents say of a procedure (MTR 3.9; IPG 3.9's own example), or null. */
  function procedureProblem(steps, size) {
    var counted = steps.filter(function (s) { return s.times; });
    var riffles = counted.reduce(function (n, s) { return n + (s.method === "riffle" ? s.times : 0); }, 0);
    var randomizing = counted.filter(function (s) { return s.method !== "pile" && s.method !== "cut"; });
    if (!counted.length) return "the deck was not shuffled at all";
    if (!randomizing.length) return "only pile shuffles (or cuts) were used, and pile shuffling alone is not sufficiently random";
    if (riffles === 1 && randomizing.length === 1 && oneRiffleLeavesFarFromRandom(size)) {
      return "a single riffle shuffle was the whole randomization, as in the Infraction Procedure Guide's own example of " +
             "insufficient shuffling (IPG 3.9, example B)";
    }
    return null;
  }

  /* IPG 3.9 example B is about a library one riffle leaves "far from random" (describeDistance's band); a
     library of a handful of cards is not, and there the example does not settle it (the judge's call). */
  function oneRiffleLeavesFarFromRandom(size) { return Riffles.riffleDistance(size, 1) >= FAR_FROM_RANDOM; }

  /* _undecided: a described procedure no documented example settles, though this engine's own model credits it
     with less than two riffles' worth (a riffle 1, a mash 1/2, the rest 0): the judge's call (IPG 3.9). */
  function undecided(f, problems) {
    if (f.procedure === null || f.deck_size <= 1 || problems.length) return false;
    var halves = f.procedure.reduce(function (n, s) { return n + Riffles.creditHalves(s); }, 0);
    return halves < 4;
  }
  function judgeCallWords(f) {
    var counted = f.procedure.filter(function (s) { return s.times; });
    var riffles = counted.reduce(function (n, s) { return n + (s.method === "riffle" ? s.times : 0); }, 0);
    if (riffles === 1 && counted.length === 1 && !oneRiffleLeavesFarFromRandom(f.deck_size)) {
      return "one riffle shuffle of a " + f.deck_size + "-card library, which in the riffle model one riffle does not leave " +
             "far from random, unlike the libraries of the example";
    }
    return "none of them, but this tool's own model credits it with less than two riffle shuffles' worth (a mash shuffle " +
           "counted as half a riffle, an overhand shuffle as nothing)";
  }
  function judgeCallFix(f) {
    return "No documented example settles this shuffle: the Infraction Procedure Guide's examples of insufficient shuffling " +
           "are a library not shuffled after a search and a single riffle shuffle after a search (IPG 3.9), and pile shuffling " +
           "alone is not sufficiently random (MTR 3.9); this shuffle was " + judgeCallWords(f) + ". Whether the deck was " +
           "shuffled is the judge's call: \"A deck is not shuffled if the judge believes a player could know the position or " +
           "distribution of one or more cards in their deck\", and \"A player should shuffle their deck using multiple " +
           "methods\" (IPG 3.9). If the judge believes so, it is Insufficient Shuffling (the deck is then shuffled " +
           "thoroughly); if not, there is nothing to fix.";
  }
  function judgeCallPenalties(f) {
    var would = penalties("insufficient_shuffling", f);
    var condition = "none, unless the judge believes a player could know the position or distribution of one or more cards";
    return { regular: "Judge's call: " + condition + " (then: " + would.regular + ")",
             competitive: "Judge's call: " + condition + " (then Insufficient Shuffling: " + would.competitive + ")",
             professional: "Judge's call: " + condition + " (then Insufficient Shuffling: " + would.professional + ")" };
  }

  /* _further: another player's infraction in the same events, with its own penalty and fix. */
  function further(atIpg, f, chargedTo) {
    var regular = f.rel === "regular", byRel = penalties(atIpg, f), fix, refs;
    if (atIpg === "looking_at_extra_cards") {
      fix = "Shuffle the card seen into the unknown portion of the library.";
      refs = [regular ? CITE.JAR_CARD_SEEN : CITE.LEC];
    } else {
      fix = searchFix(f.rel);
      refs = [regular ? CITE.JAR_GAME_ERROR : CITE.GRV];
    }
    var infraction = regular ? "regular_game_error" : atIpg;
    return { infraction: infraction, infraction_name: NAMES[infraction], penalty: byRel[f.rel], penalties: byRel,
             charged_to: chargedTo, fix: fix, citations: refs };
  }

  function describeDistance(distance) {
    for (var i = 0; i < DISTANCE_WORDS.length; i++) if (distance < DISTANCE_WORDS[i][0]) return DISTANCE_WORDS[i][1];
    throw new Error("no words for the distance " + distance);
  }

  function modelNotes(steps, exact) {
    var methods = {};
    steps.forEach(function (s) { if (s.times) methods[s.method] = true; });
    var notes = ["riffle: Gilbert-Shannon-Reeds model, exact distance (Bayer & Diaconis 1992, Ann. Appl. Probab. 2)"];
    if (methods.mash) {
      notes.push("mash: modelled as a GSR riffle credited at half (two mashes = one riffle, rounded down); a " +
                 "conservative convention of this engine, not a published result");
    }
    if (methods.overhand) {
      notes.push("overhand: credited with nothing; randomizing takes order n^2 log n overhand shuffles (Pemantle " +
                 "1989, J. Theoret. Probab. 2; Jonasson 2006, Ann. Appl. Probab. 16)");
    }
    if (methods.pile || methods.cut) notes.push("pile/cut: a fixed rearrangement; it adds no randomness and leaves the distance unchanged");
    if (!exact) {
      notes.push("riffles separated by other steps (or more than MAX_EXACT_RIFFLES in a row): the distance is an " +
                 "upper bound, min(best block TV, product of block separation distances) (Aldous & Diaconis 1986, " +
                 "Amer. Math. Monthly 93)");
    }
    return notes;
  }

  function mathematics(size, distance, exact) {
    var aside = "The tournament documents set no number of shuffles and no distance; whether a player could know the " +
                "position or distribution of cards is the judge's call (IPG 3.9).";
    if (distance === null) {
      return "As mathematics, not a ruling: no figure is given for this shuffle. Mash and overhand shuffles have no " +
             "published model of how close to random they leave a deck; this tool's own convention (a mash counted as " +
             "half a riffle, an overhand shuffle as nothing) is not a measure of the shuffle. " + aside;
    }
    return "As mathematics, not a ruling: in the Gilbert-Shannon-Reeds model of riffle shuffling, the shuffle described " +
           "leaves a " + size + "-card deck " + describeDistance(distance) + ": a total variation distance of " +
           (exact ? "" : "at most ") + formatF3(distance) + " from a uniformly random order (0 is a uniformly random " +
           "order). The distance compares the whole distribution of orders with the uniform one: a large distance does " +
           "not mean a player can tell where any card is. " + aside;
  }

  /* [problems, distance, model notes, information] (_shuffle_problems). */
  function problemsOf(f) {
    var problems = [], distance = null, notes = [], information = [];
    if (f.deck_size <= 1) return [problems, distance, notes, information];   // nothing to randomize
    if (f.searched_without_shuffle) problems.push("the library was not shuffled after a search that required it");
    if (f.procedure !== null) {
      var problem = procedureProblem(f.procedure, f.deck_size);
      if (problem) problems.push(problem);
      var found = Riffles.procedureDistance(f.deck_size, f.procedure), exact = found[1];
      distance = found[0];
      notes = modelNotes(f.procedure, exact);
      // Mash and overhand rest on this engine's own convention: no figure.
      if (f.procedure.some(function (s) { return s.times && (s.method === "mash" || s.method === "overhand"); })) distance = null;
      information.push(mathematics(f.deck_size, distance, exact));
    }
    if (f.cards_could_be_known) problems.push("the judge believes a player could know the position or distribution of one or more cards");
    if (f.card_seen_while_shuffling && !f.shuffling_opponents_deck) problems.push("a card face was seen while shuffling and the deck was not randomized again");
    if (!f.presented_to_opponent) problems.push("the deck was not presented to the opponent for further shuffling");
    return [problems, distance, notes, information];
  }

  function rulesNotes(f) {
    var notes = [], refs = [];
    if (f.found_cards_shuffled_in || f.searched_without_shuffle || f.put_at_position) {
      notes.push("Cards found by a search that go elsewhere or to a set position are not part of the " +
                 "shuffle: every other card of the library is shuffled, and shuffle triggers still trigger.");
      refs.push(CITE.SEARCH_EXCLUDED);
    }
    if (f.put_at_position) {
      notes.push("When a library is shuffled as an object is put at a set position, the result is a " +
                 "randomized library with that object in that position.");
      refs.push(CITE.POSITION);
    }
    if (f.objects_to_shuffle_missing) {
      notes.push("An instruction to shuffle objects into a library shuffles the library even if those " +
                 "objects have left their zone or the set of objects is empty.");
      refs.push(CITE.OBJECTS_GONE, CITE.EMPTY_SET);
    }
    if (f.deck_size <= 1) {
      notes.push("A library of zero or one card is still shuffled when told to, and abilities that " +
                 "trigger when a library is shuffled still trigger.");
      refs.push(CITE.SMALL_LIBRARY);
    } else if (f.has_shuffle_trigger) {
      notes.push("Every shuffle of the library triggers abilities that trigger on shuffling, including a " +
                 "shuffle that excludes found cards.");
      refs.push(CITE.SEARCH_EXCLUDED);
    }
    return { notes: notes, refs: refs };
  }

  function investigation(f) {
    if (!f.pattern_seen) return [false, "", null];
    var ref = f.rel === "regular" ? CITE.JAR_SERIOUS : CITE.CHEATING;
    var kind = f.rel === "regular" ? "a Serious Problem" : "Unsporting Conduct - Cheating";
    var p = f.pattern_p_value;
    if (p === null) {
      return [false, "A pattern was reported: run the shuffle analysis with the cards seen to learn how " +
                     "unusual it is before deciding whether to investigate.", null];
    }
    if (p > PATTERN_ALPHA) {
      return [false, "The pattern seen is not unusual for a shuffled deck (p = " + formatG3(p) + "): neither " +
                     "more evenly spread nor more clumped than shuffling leaves cards; it is no reason to suspect intent.", null];
    }
    var stacked = f.arranged_before_shuffle ? " The player arranged the deck before shuffling, so" : " So";
    var shape = { too_even: "more evenly spread (as mana weaving leaves it) than", too_clumped: "more clumped than" }[f.pattern_direction || ""] || "unlike what";
    return [true, "The pattern seen is " + shape + " a shuffled deck shows (p = " + formatG3(p) + ")." + stacked +
                  " investigate (separately from the players) whether the deck was left unrandomized " +
                  "on purpose; if so, this is " + kind + ". The tool does not decide intent.", ref];
  }

  function penalties(atIpg, f) {
    if (atIpg === "none") return { regular: "None", competitive: "None", professional: "None" };
    var regular = f.repeated_after_education && atIpg === "insufficient_shuffling"
      ? "Game Loss may be applied: the behaviour continued after education" : "None: educate the player";
    if (atIpg === "game_rule_violation") regular = "None: fix the error and educate the player";
    if (atIpg === "looking_at_extra_cards") regular = "None: shuffle the card seen into the unknown portion of the library";
    var ipg = "Warning";
    // IPG 3: a Tournament Error Warning after a Warning for an offense in the same category (the same infraction).
    if (atIpg === "insufficient_shuffling" && f.prior_insufficient_shuffling_warning) ipg = "Game Loss (upgraded: a second Warning for Insufficient Shuffling today, IPG 3)";
    return { regular: regular, competitive: ipg, professional: ipg };
  }

  var CHARGED_WORDS = { owner: "deck's owner", shuffler: "opponent who shuffled" };
  function fixOf(f, problems, judgeCall, more) {
    if (f.deck_size <= 1) {
      return "No randomizing is needed for a library of one card or none: nobody can know more about its order. " +
             "The instruction still counts as a shuffle for game purposes.";
    }
    // Another player's infraction is said where the fix is read out, not only in its own field.
    var parts = more.map(function (m) { return "Also charged, to the " + CHARGED_WORDS[m.charged_to] + ": " + m.infraction_name + " (penalty: " + m.penalty + ")."; });
    if (f.card_seen_while_shuffling && f.shuffling_opponents_deck) {
      // IPG 2.2's "The library is already randomized": not when its owner shuffled it too little.
      parts.push(problems.length ? "Shuffle the card seen into the unknown portion of the library." :
                 "Shuffle the card seen into the unknown portion of the library; the library was already " +
                 "randomized, so this should not take excessive effort.");
    }
    if (f.found_cards_shuffled_in) parts.push(searchFix(f.rel));
    if (problems.length) {
      parts.push("Shuffle the unknown part of the library thoroughly, until no player can have any information about the " +
                 "order or position of its cards, without looking at card faces; pile shuffling alone is not sufficiently " +
                 "random. Then present it to the opponent, who may shuffle or cut it further.");
    }
    if (judgeCall) parts.push(judgeCallFix(f));
    if (parts.length) return parts.join(" ");
    if (rulesQuestion(f)) return "Nothing to fix: apply the shuffle instruction as the rules points below say.";
    return "Nothing to fix: the deck was shuffled and presented properly.";
  }

  /* A search whose found cards went into the shuffle: IPG 2.5's remedy in its order, or the JAR's at Regular. */
  function searchFix(rel) {
    if (rel === "regular") {
      return "Fix anything that is currently illegal and usually leave the game as it is; if the error was caught " +
             "quickly and rewinding is relatively easy, you may undo the actions back to the search (JAR).";
    }
    return "First consider a simple backup. If the exact cards found are still known to all players (they were " +
           "revealed) and putting them where the effect says causes only minor disruption, put them there. Otherwise " +
           "the Head Judge may consider a full backup, or the game is left as it is (IPG 2.5).";
  }

  /* Facts that ask only how a shuffle instruction works: nothing was done at the table to fix. */
  function rulesQuestion(f) {
    var table = f.procedure !== null || f.searched_without_shuffle || f.card_seen_while_shuffling || f.pattern_seen || f.found_cards_shuffled_in ||
                f.cards_could_be_known || !f.presented_to_opponent;
    return !table && (f.put_at_position || f.objects_to_shuffle_missing || f.has_shuffle_trigger);
  }

  function check(f, threshold) {
    var found = problemsOf(f), problems = found[0], distance = found[1], rules = rulesNotes(f), refs = rules.refs.slice();
    var regular = f.rel === "regular", chargedTo = "owner", atIpg, infraction, more = [];
    // IPG 2.2, example A: a card revealed while shuffling the opponent's library, the shuffler's, beside any of the owner's.
    var seenByShuffler = f.card_seen_while_shuffling && f.shuffling_opponents_deck;
    if (seenByShuffler && !problems.length) {
      atIpg = "looking_at_extra_cards";
      infraction = regular ? "regular_game_error" : atIpg;
      refs.push(regular ? CITE.JAR_CARD_SEEN : CITE.LEC);
      chargedTo = "shuffler";
      if (f.found_cards_shuffled_in) more.push(further("game_rule_violation", f, "owner"));
    } else if (problems.length) {
      atIpg = "insufficient_shuffling";
      infraction = regular ? "unwanted_behaviour" : atIpg;
      refs.push(CITE.MTR_SHUFFLING, regular ? CITE.JAR_UNWANTED : CITE.INSUFFICIENT);
      if (seenByShuffler) more.push(further("looking_at_extra_cards", f, "shuffler"));
    } else if (f.found_cards_shuffled_in) {
      atIpg = "game_rule_violation";
      infraction = regular ? "regular_game_error" : atIpg;
      refs.push(regular ? CITE.JAR_GAME_ERROR : CITE.GRV);
    } else {
      atIpg = infraction = "none";
    }
    more.forEach(function (m) { refs = refs.concat(m.citations); });
    var judgeCall = undecided(f, problems);
    if (judgeCall) refs.push(CITE.MTR_SHUFFLING, CITE.INSUFFICIENT);
    var byRel = penalties(atIpg, f), name = NAMES[infraction];
    if (judgeCall && infraction === "none") { name = "No documented example settles it: the judge's call"; byRel = judgeCallPenalties(f); }
    var upgraded = !regular && byRel.competitive.indexOf("Game Loss") === 0;
    if (upgraded) refs.push(CITE.TOURNAMENT_ERRORS);
    var looked = investigation(f);
    if (looked[2]) refs.push(looked[2]);
    if (!f.presented_to_opponent || f.procedure !== null) refs.push(CITE.PREGAME);
    var citations = [];
    [CITE.SHUFFLE].concat(refs).forEach(function (r) { if (citations.indexOf(r) < 0) citations.push(r); });
    return {
      infraction: infraction, infraction_name: name, penalty: byRel[f.rel], penalties: byRel,
      fix: fixOf(f, problems, judgeCall, more), investigate: looked[0], investigation: looked[1], problems: problems, notes: rules.notes,
      distance_from_random: distance, citations: citations, threshold: threshold, model_notes: found[2],
      information: found[3], distance_words: distance === null ? null : describeDistance(distance) + " (total variation " +
        "distance " + formatF3(distance) + " in the riffle model; 0 is a uniformly random order)", upgraded: upgraded, charged_to: chargedTo,
      further_infractions: more, judge_call: judgeCall
    };
  }

  /* The "shuffle-check" computation of a guide step, on the tablet when it can be exact. */
  function run(request, threshold) {
    if (!Riffles && isObject(request) && get(request, "procedure") !== null) return { unsupported: true };
    var valid = validate(request);
    if (valid.refused) return valid;
    return { result: check(valid.facts, threshold) };
  }

  var api = { run: run, formatG: formatG, formatG3: formatG3, formatF3: formatF3, PATTERN_ALPHA: PATTERN_ALPHA, MAX_DECK_SIZE: MAX_DECK_SIZE,
              // shared with shuffle-analysis.js
              validateProcedure: validateProcedure, modelNotes: modelNotes, describeDistance: describeDistance };
  if (typeof module !== "undefined" && module.exports) module.exports = api;
  else root.JudgeShuffleCheck = api;
})(this);
