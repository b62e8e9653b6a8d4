/* The shuffle guide's analysis on the tablet: engines/shuffles/analysis.py's analyse_shuffle (the
   "shuffle-analysis" computation: distance from random after the procedure, the riffles needed, the pattern
   test with its seeded Monte Carlo check, the verdict and the advice), built from riffles.js,
   shuffle-patterns.js and shuffle-check.js (loaded before this file), with the request checked as
   engines/shuffles/requests.py checks it. The result is the engine's as_result(), citations still pinned
   (the guide shows its own). tests/engines/test_shuffle_analysis_js.py runs it under node against the engine.
   window.JudgeShuffleAnalysis (node: module.exports) = { run(request, threshold, maxSamples) -> {result} |
   {refused: field} | {unsupported: true} (a script missing, or a seed JavaScript cannot hold exactly) }. */
(function (root) {
  "use strict";

  var node = typeof module !== "undefined" && module.exports;
  var Riffles = node ? require("./riffles.js") : root.JudgeRiffles;
  var Patterns = node ? require("./shuffle-patterns.js") : root.JudgeShufflePatterns;
  var Check = node ? require("./shuffle-check.js") : root.JudgeShuffleCheck;
  var MAX_DECK_SIZE = 250, MAX_RIFFLES_SEARCHED = 400, PATTERN_ALPHA = 0.01;   // engines/shuffles/records.py
  var CITE = { SHUFFLE: "cr@2025-02-07:701.20a", PREGAME: "cr@2025-02-07:103.3", MTR_SHUFFLING: "mtr@2019-06-06:3.9",
               INSUFFICIENT: "ipg@2021-01-06:3.9", CHEATING: "ipg@2021-01-06:4.8" };

  function isObject(v) { return v !== null && typeof v === "object" && !Array.isArray(v); }
  function has(o, k) { return Object.prototype.hasOwnProperty.call(o, k); }
  function isWhole(v) { return typeof v === "number" && Number.isInteger(v); }

  /* ShuffleAnalysisRequest: {deck_size, procedure, observed, seed}, or {refused: field}. */
  function validate(data) {
    if (!isObject(data)) return { refused: "body" };
    var size = has(data, "deck_size") ? data.deck_size : undefined;
    if (!isWhole(size) || size < 1 || size > MAX_DECK_SIZE) return { refused: "deck_size" };
    var steps = [];
    if (has(data, "procedure") && data.procedure !== undefined) {
      var procedure = Check.validateProcedure(data.procedure, size);
      if (procedure.refused) return procedure;
      steps = procedure.steps;
    }
    var observed = null;
    if (has(data, "observed") && data.observed !== null && data.observed !== undefined) {
      if (!isObject(data.observed)) return { refused: "observed" };
      var pattern = has(data.observed, "pattern") ? data.observed.pattern : undefined;
      var lands = has(data.observed, "lands") ? data.observed.lands : undefined;
      var valid = Patterns.validate(size, pattern, lands);
      if (valid.refused) return valid;
      observed = { pattern: valid.pattern, lands: valid.lands };
    }
    var seed = has(data, "seed") ? data.seed : null;
    if (seed !== null && seed !== undefined) {
      if (!isWhole(seed) || seed < 0 || seed > 9223372036854775807) return { refused: "seed" };
      if (!Number.isSafeInteger(seed)) return { unsupported: true };   // not held exactly here
    } else {
      seed = null;
    }
    return { request: { deck_size: size, procedure: steps, observed: observed, seed: seed } };
  }

  function ridden(n, threshold) {
    for (var k = 0; k <= MAX_RIFFLES_SEARCHED; k++) if (Riffles.riffleDistance(n, k) <= threshold) return k;
    return null;
  }

  function advice(n, needed, sufficient, exact, steps) {
    if (n <= 1) return "A deck of one card is always in random order; shuffling it is still a shuffle for game purposes.";
    var how = "To bring a deck of this size close to random, finish with " + (needed === null ? "many" : String(needed)) +
      " or more riffle shuffles in a row (mashes count as half a riffle). Pile shuffling adds no randomness and is allowed " +
      "only once at the start of a game, to count the deck; a few overhand shuffles add almost nothing. Do not look at card " +
      "faces while shuffling: a card seen means the deck must be randomized again. Then present the deck to the opponent, " +
      "who may shuffle or cut it further (at Competitive and Professional REL the opponent must shuffle it).";
    var pilesOnly = steps.every(function (s) { return s.method === "pile" || s.method === "cut" || !s.times; });
    if (sufficient) return "By this measure the procedure randomizes the deck well. " + how;
    if (steps.length && pilesOnly) return "Pile shuffling alone does not randomize a deck. " + how;
    if (!exact) return "The riffles are split by other steps, so they cannot be credited as one run. " + how;
    return "This procedure leaves the deck measurably ordered. " + how;
  }

  function analyse(request, maxSamples, threshold) {
    var n = request.deck_size, steps = Riffles.procedureDistances(n, request.procedure);
    var found = Riffles.procedureDistance(n, request.procedure), distance = found[0], exact = found[1];
    var needed = ridden(n, threshold), sufficient = distance <= threshold;
    var citations = [CITE.SHUFFLE, CITE.PREGAME, CITE.MTR_SHUFFLING];
    if (!sufficient) citations.push(CITE.INSUFFICIENT);
    var pattern = null, verdict = sufficient ? "random_enough" : "not_random_enough";
    if (request.observed !== null) {
      var seen = request.observed;
      var seed = request.seed !== null ? request.seed : Patterns.defaultSeed(n, seen.lands, seen.pattern);
      pattern = Patterns.assess(n, seen.lands, seen.pattern, maxSamples, seed);
      if (pattern.direction !== null) { verdict = "suspicious_pattern"; citations.push(CITE.CHEATING); }
    }
    var said = advice(n, needed, sufficient, exact, request.procedure);
    if (verdict === "suspicious_pattern") {
      var kind = pattern.direction === "too_even" ? "spread more evenly (as mana weaving leaves them)" : "clumped together more";
      said = "The cards seen are " + kind + " than a shuffled deck would show in " + Math.round(PATTERN_ALPHA * 100) +
        "% of cases (p = " + Check.formatG(pattern.p_value_exact, 2) + "). That is not proof of anything; a judge should find out " +
        "how the deck was shuffled, and investigate whether it was stacked on purpose. " + said;
    }
    var unique = [];
    citations.forEach(function (c) { if (unique.indexOf(c) < 0) unique.push(c); });
    return {
      distance_from_random: distance, distance_is_exact: exact, riffles_needed: needed, sufficient: sufficient,
      pattern_p_value: pattern === null ? null : pattern.p_value_exact, verdict: verdict, advice: said, citations: unique,
      threshold: threshold,
      distance_words: Check.describeDistance(distance) + " (total variation distance " + Check.formatF3(distance) +
        "; 0 is a uniformly random order, and a large distance does not mean a player can tell where any card is)",
      pattern_direction: pattern === null ? null : pattern.direction,
      steps: steps,
      pattern: pattern === null ? null : {
        statistic: pattern.statistic, observed_value: pattern.observed_value, p_value_exact: pattern.p_value_exact,
        p_value_monte_carlo: pattern.p_value_monte_carlo, standard_error: pattern.standard_error,
        interval_95: pattern.interval_95, samples: pattern.samples, seed: pattern.seed, direction: pattern.direction,
        pattern_probability: pattern.pattern_probability, p_value_too_even: pattern.p_value_too_even,
        p_value_lands_clumped: pattern.p_value_lands_clumped, p_value_spells_clumped: pattern.p_value_spells_clumped,
        p_value_runs: pattern.p_value_runs, longest_land_run: pattern.longest_land_run,
        longest_spell_run: pattern.longest_spell_run
      },
      model_notes: Check.modelNotes(request.procedure, exact)
    };
  }

  /* The "shuffle-analysis" computation of a guide step, on the tablet. */
  function run(request, threshold, maxSamples) {
    if (!Riffles || !Patterns || !Check || !Check.validateProcedure) return { unsupported: true };
    var valid = validate(request);
    if (!valid.request) return valid;
    return { result: analyse(valid.request, maxSamples, threshold) };
  }

  var api = { run: run, formatG: Check.formatG };
  if (node) module.exports = api;
  else root.JudgeShuffleAnalysis = api;
})(this);
