/* The pattern test of a shuffle on the tablet: engines/shuffles/patterns.py (how unlikely the land/spell
   pattern seen at the top of a deck is under a uniform shuffle, too even and too clumped, with Bonferroni's
   p over the three one-sided tests) in exact integer arithmetic (BigInt), each probability rounded to a
   double once, as Python's Fraction -> float rounds it (riffles.js toDouble); and the engine's seeded
   Monte Carlo check of the deciding p-value, drawn as numpy draws it (default_rng: PCG64 seeded through
   SeedSequence), so its estimate is the engine's double too. With them the request checks of
   engines/shuffles/requests.py for the pattern (the same field refused) and jobs/services.pattern_finding,
   the analysis the shuffle check page reads (exact, no sampling). tests/engines/test_shuffle_patterns_js.py
   runs it under node against the Python engine and numpy.
   window.JudgeShufflePatterns (node: module.exports) = { exact(deckSize, lands, pattern) -> the exact
   fields of a PatternTest, assess(deckSize, lands, pattern, maxSamples, seed) -> the whole PatternTest,
   finding(deckSize, lands, pattern) -> {p_value, direction, deciding}, pageAnalysis(deckSize, pattern,
   lands) -> {analysis: {pattern_p_value, pattern_direction}} | {refused: field}, defaultSeed(deckSize,
   lands, pattern), generator(seed) -> random(), PATTERN_ALPHA }. */
(function (root) {
  "use strict";

  var PATTERN_ALPHA = 0.01, MAX_DECK_SIZE = 250;   // engines/shuffles/records.py
  var Riffles = typeof module !== "undefined" && module.exports ? require("./riffles.js") : root.JudgeRiffles;
  // Python's str.isspace() characters: what str.split() and str.strip() remove.
  var SPACE = "\\t\\n\\v\\f\\r\\x1c-\\x1f \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000";
  var SPACES = new RegExp("[" + SPACE + "]+", "g");
  var STATISTIC_WORDS = {
    too_even: "no run of lands or of spells longer than seen (lands spread evenly, as mana weaving leaves them)",
    lands_clumped: "a run of lands at least as long as the longest seen",
    spells_clumped: "a run of spells at least as long as the longest seen"
  };

  var combs = {};
  /* math.comb(n, k) for 0 <= n, k: 0 when k > n. */
  function comb(n, k) {
    if (k < 0 || n < 0) throw new Error("comb of a negative number");
    if (k > n) return 0n;
    if (k > n - k) k = n - k;
    var id = n + ":" + k;
    if (combs[id] !== undefined) return combs[id];
    var out = 1n;
    for (var i = 1; i <= k; i++) out = out * BigInt(n - k + i) / BigInt(i);
    combs[id] = out;
    return out;
  }

  /* Fractions as [numerator, denominator], denominator > 0. */
  function less(a, b) { return a[0] * b[1] < b[0] * a[1]; }
  function double(f) { return Riffles.toDouble(f[0], f[1]); }
  /* A double (>= 0) as the exact fraction it is, as Python compares a Fraction with a float. */
  function exactly(x) {
    var view = new DataView(new ArrayBuffer(8));
    view.setFloat64(0, x);
    var hi = view.getUint32(0), lo = view.getUint32(4), bits = (hi >>> 20) & 0x7ff;
    var mant = (BigInt(hi & 0xfffff) << 32n) | BigInt(lo), e2;
    if (bits === 0) e2 = -1074; else { mant |= 1n << 52n; e2 = bits - 1075; }
    return e2 >= 0 ? [mant << BigInt(e2), 1n] : [mant, 1n << BigInt(-e2)];
  }

  function samePairs(pattern) {
    var n = 0;
    for (var i = 1; i < pattern.length; i++) if (pattern[i] === pattern[i - 1]) n++;
    return n;
  }
  function count(pattern, kind) {
    var n = 0;
    for (var i = 0; i < pattern.length; i++) if (pattern[i] === kind) n++;
    return n;
  }
  function longestRun(pattern, kind) {
    var best = 0, current = 0;
    for (var i = 0; i < pattern.length; i++) {
      current = pattern[i] === kind ? current + 1 : 0;
      if (current > best) best = current;
    }
    return best;
  }

  /* Binary sequences with `ones` ones, `zeros` zeros and exactly `runs` maximal runs. */
  function sequencesWithRuns(ones, zeros, runs) {
    if (ones === 0 || zeros === 0) return runs === (ones + zeros ? 1 : 0) ? 1n : 0n;
    var half = Math.floor(runs / 2);
    if (!half) return 0n;
    if (runs % 2 === 0) return 2n * comb(ones - 1, half - 1) * comb(zeros - 1, half - 1);
    return comb(ones - 1, half) * comb(zeros - 1, half - 1) + comb(ones - 1, half - 1) * comb(zeros - 1, half);
  }

  /* P(same-type pairs in the top m cards <= observed), exactly (pattern_p_value_exact). */
  function runsPValue(size, lands, pattern) {
    var m = pattern.length, limit = samePairs(pattern), favourable = 0n;
    for (var seen = Math.max(0, m - (size - lands)); seen <= Math.min(m, lands); seen++) {
      var sequences = 0n;
      for (var runs = m - limit; runs <= m; runs++) sequences += sequencesWithRuns(seen, m - seen, runs);
      favourable += comb(size - m, lands - seen) * sequences;
    }
    return [favourable, comb(size, lands)];
  }

  /* {lands l: L/S sequences of length m with l lands, no land run over maxLands, no spell run over
     maxSpells} as an array indexed by l (sequences_with_runs_at_most). */
  function sequencesWithRunsAtMost(m, maxLands, maxSpells) {
    var out = [];
    for (var l = 0; l <= m; l++) out.push(0n);
    if (m === 0) { out[0] = 1n; return out; }
    // state (lands so far, last card a land, length of its run) -> sequences, keyed as one number
    var width = m + 1, key = function (lands, land, run) { return (lands * 2 + (land ? 1 : 0)) * width + run; };
    var states = new Map();
    if (maxLands >= 1) states.set(key(1, true, 1), 1n);
    if (maxSpells >= 1) states.set(key(0, false, 1), 1n);
    var add = function (map, k, ways) { map.set(k, (map.get(k) || 0n) + ways); };
    for (var step = 0; step < m - 1; step++) {
      var following = new Map();
      states.forEach(function (ways, k) {
        var run = k % width, rest = (k - run) / width, land = rest % 2 === 1, lands = (rest - (land ? 1 : 0)) / 2;
        if (run < (land ? maxLands : maxSpells)) add(following, key(lands + (land ? 1 : 0), land, run + 1), ways);
        if ((land ? maxSpells : maxLands) >= 1) add(following, key(lands + (land ? 0 : 1), !land, 1), ways);
      });
      states = following;
    }
    states.forEach(function (ways, k) {
      var rest = (k - k % width) / width, lands = (rest - rest % 2) / 2;
      out[lands] += ways;
    });
    return out;
  }

  function probabilityOf(counts, size, lands, m) {
    var favourable = 0n;
    counts.forEach(function (ways, seen) {
      if (ways && lands - seen >= 0 && lands - seen <= size - m) favourable += ways * comb(size - m, lands - seen);
    });
    return [favourable, comb(size, lands)];
  }

  function patternProbability(size, lands, pattern) {
    var seen = count(pattern, "L"), m = pattern.length;
    if (!(lands - seen >= 0 && lands - seen <= size - m)) return [0n, 1n];
    return [comb(size - m, lands - seen), comb(size, lands)];
  }

  /* P(no land run and no spell run longer than the longest seen); 1 when only one kind is seen. */
  function tooEven(size, lands, pattern) {
    if (pattern.indexOf("L") < 0 || pattern.indexOf("S") < 0) return [1n, 1n];
    var counts = sequencesWithRunsAtMost(pattern.length, longestRun(pattern, "L"), longestRun(pattern, "S"));
    return probabilityOf(counts, size, lands, pattern.length);
  }

  /* P(a run of `kind` at least as long as the longest seen); 1 when none is seen. */
  function clumped(size, lands, pattern, kind) {
    var m = pattern.length, run = longestRun(pattern, kind);
    if (run === 0) return [1n, 1n];
    var shorter = sequencesWithRunsAtMost(m, kind === "L" ? run - 1 : m, kind === "S" ? run - 1 : m);
    var p = probabilityOf(shorter, size, lands, m);
    return [p[1] - p[0], p[1]];
  }

  function oneSided(size, lands, pattern) {
    return { too_even: tooEven(size, lands, pattern), lands_clumped: clumped(size, lands, pattern, "L"),
             spells_clumped: clumped(size, lands, pattern, "S") };
  }

  /* pattern_finding with its one-sided values: Bonferroni's p over the three (at most 1), the direction
     when p <= PATTERN_ALPHA, the deciding test (a tie goes to a clump: spells, then lands, then even). */
  function decide(sided) {
    var deciding = ["spells_clumped", "lands_clumped", "too_even"].reduce(function (best, name) {
      return less(sided[name], sided[best]) ? name : best;
    }, "spells_clumped");
    var p = sided[deciding], three = [3n * p[0], p[1]];
    var combined = less([1n, 1n], three) ? [1n, 1n] : three;
    var direction = null;
    if (!less(exactly(PATTERN_ALPHA), combined)) direction = deciding === "too_even" ? "too_even" : "too_clumped";
    return { combined: combined, direction: direction, deciding: deciding };
  }

  function finding(size, lands, pattern) {
    var found = decide(oneSided(size, lands, pattern));
    return { p_value: double(found.combined), direction: found.direction, deciding: found.deciding };
  }

  /* The exact fields of assess_pattern's PatternTest (not its Monte Carlo estimate). */
  function exact(size, lands, pattern) {
    var sided = oneSided(size, lands, pattern), found = decide(sided);
    var maxL = longestRun(pattern, "L"), maxS = longestRun(pattern, "S");
    return {
      statistic: STATISTIC_WORDS[found.deciding] + "; p is three times the smallest of the three one-sided p-values " +
                 "(too even, lands clumped, spells clumped), at most 1",
      observed_value: found.deciding === "spells_clumped" ? maxS : found.deciding === "lands_clumped" ? maxL : Math.max(maxL, maxS),
      p_value_exact: double(found.combined),
      direction: found.direction,
      pattern_probability: double(patternProbability(size, lands, pattern)),
      p_value_too_even: double(sided.too_even),
      p_value_lands_clumped: double(sided.lands_clumped),
      p_value_spells_clumped: double(sided.spells_clumped),
      p_value_runs: double(runsPValue(size, lands, pattern)),
      longest_land_run: maxL,
      longest_spell_run: maxS
    };
  }

  /* ------------------------------------------------------------ the Monte Carlo check, as numpy draws it */

  /* numpy's SeedSequence(seed).generate_state(4, uint64) as eight 32-bit words (low word first): the
     entropy's words hashed into a pool of four, the pool hashed out. Math.imul keeps each product to 32 bits,
     as numpy's uint32 arithmetic does. */
  function seedState(seed) {
    var entropy = [], n = BigInt(seed), pool = [0, 0, 0, 0], hash = 0x43b0d7e5, i, j;
    if (n === 0n) entropy.push(0);
    while (n > 0n) { entropy.push(Number(n & 0xffffffffn)); n >>= 32n; }
    var hashmix = function (value) {
      value = (value ^ hash) >>> 0;
      hash = Math.imul(hash, 0x931e8875) >>> 0;
      value = Math.imul(value, hash) >>> 0;
      return (value ^ (value >>> 16)) >>> 0;
    };
    var mix = function (x, y) {
      var r = (Math.imul(0xca01f9dd, x) - Math.imul(0x4973f715, y)) >>> 0;
      return (r ^ (r >>> 16)) >>> 0;
    };
    for (i = 0; i < 4; i++) pool[i] = hashmix(i < entropy.length ? entropy[i] : 0);
    for (i = 0; i < 4; i++) for (j = 0; j < 4; j++) if (i !== j) pool[j] = mix(pool[j], hashmix(pool[i]));
    for (i = 4; i < entropy.length; i++) for (j = 0; j < 4; j++) pool[j] = mix(pool[j], hashmix(entropy[i]));
    var out = [], h = 0x8b51f9dd;
    for (i = 0; i < 8; i++) {
      var v = (pool[i % 4] ^ h) >>> 0;
      h = Math.imul(h, 0x58f38ded) >>> 0;
      v = Math.imul(v, h) >>> 0;
      out.push((v ^ (v >>> 16)) >>> 0);
    }
    return out;
  }

  // PCG64's multiplier in 16-bit limbs, low first (0x2360ED051FC65DA44385DF649FCCF645).
  var PCG_MULT = [0xf645, 0x9fcc, 0xdf64, 0x4385, 0x5da4, 0x1fc6, 0xed05, 0x2360];
  function limbs(hi64, lo64) {   // two 64-bit halves, each [high word, low word]
    var words = [lo64[1], lo64[0], hi64[1], hi64[0]], out = [];
    words.forEach(function (w) { out.push(w & 0xffff, w >>> 16); });
    return out;
  }
  function pcgStep(state, inc) {   // state = state * multiplier + inc (mod 2^128), in place
    var next = [0, 0, 0, 0, 0, 0, 0, 0], carry = 0, k, i;
    for (k = 0; k < 8; k++) {
      var sum = carry + inc[k];
      for (i = 0; i <= k; i++) sum += state[i] * PCG_MULT[k - i];
      carry = Math.floor(sum / 65536);
      next[k] = sum - carry * 65536;
    }
    for (k = 0; k < 8; k++) state[k] = next[k];
  }
  function pcgAdd(state, other) {
    var carry = 0;
    for (var k = 0; k < 8; k++) { var sum = state[k] + other[k] + carry; carry = sum >= 65536 ? 1 : 0; state[k] = sum - carry * 65536; }
  }

  /* numpy.random.default_rng(seed): PCG64 (XSL-RR output) seeded through SeedSequence; random() is a
     double as numpy's Generator.random makes it, (next 64 bits >> 11) / 2^53. */
  function generator(seed) {
    var w = seedState(seed);
    // generate_state(4, uint64) = [w1w0, w3w2, w5w4, w7w6]; the seed is the first two, the stream the last two.
    var initstate = limbs([w[1], w[0]], [w[3], w[2]]), initseq = limbs([w[5], w[4]], [w[7], w[6]]);
    var inc = [], state = [0, 0, 0, 0, 0, 0, 0, 0], carry = 1, k;
    for (k = 0; k < 8; k++) {   // inc = (initseq << 1) | 1, mod 2^128
      var doubled = initseq[k] * 2 + carry;
      carry = doubled >= 65536 ? 1 : 0;
      inc.push(doubled - carry * 65536);
    }
    pcgStep(state, inc);
    pcgAdd(state, initstate);
    pcgStep(state, inc);
    return function random() {
      pcgStep(state, inc);
      var hi = state[7] * 65536 + state[6], mh = state[5] * 65536 + state[4];   // bits 96-127, 64-95
      var ml = state[3] * 65536 + state[2], lo = state[1] * 65536 + state[0];   // bits 32-63, 0-31
      var xh = (hi ^ ml) >>> 0, xl = (mh ^ lo) >>> 0, rot = state[7] >>> 10, rh, rl;
      if (rot >= 32) { var t = xh; xh = xl; xl = t; rot -= 32; }
      if (rot) { rh = ((xh >>> rot) | (xl << (32 - rot))) >>> 0; rl = ((xl >>> rot) | (xh << (32 - rot))) >>> 0; }
      else { rh = xh; rl = xl; }
      return (rh * 2097152 + (rl >>> 11)) / 9007199254740992;
    };
  }

  /* zlib.crc32 of the text's UTF-8 bytes. */
  var CRC = [];
  for (var c = 0; c < 256; c++) {
    var r = c;
    for (var b = 0; b < 8; b++) r = r & 1 ? (0xedb88320 ^ (r >>> 1)) >>> 0 : r >>> 1;
    CRC.push(r >>> 0);
  }
  function crc32(text) {
    var bytes = unescape(encodeURIComponent(text)), crc = 0xffffffff;
    for (var i = 0; i < bytes.length; i++) crc = (CRC[(crc ^ bytes.charCodeAt(i)) & 0xff] ^ (crc >>> 8)) >>> 0;
    return (crc ^ 0xffffffff) >>> 0;
  }
  function defaultSeed(size, lands, pattern) { return crc32(size + ":" + lands + ":" + pattern); }

  var MC_BATCH = 20000, MC_TARGET_HITS = 400;   // engines/shuffles/records.py
  function withError(hits, samples) {
    var p = hits / samples, se = Math.sqrt(p * (1 - p) / samples), z = 1.959963984540054;
    var centre = (p + z * z / (2 * samples)) / (1 + z * z / samples);
    var half = z * Math.sqrt(p * (1 - p) / samples + z * z / (4 * samples * samples)) / (1 + z * z / samples);
    return [p, se, [Math.max(0, centre - half), Math.min(1, centre + half)], samples];
  }

  /* estimate_run_p_values: the three one-sided p-values estimated from deck prefixes drawn as numpy draws
     them (one batch at a time, a card position at a time across the batch), until the rarest has
     MC_TARGET_HITS hits or maxSamples are drawn. {name: [estimate, standard error, [low, high], samples]}. */
  function estimates(size, lands, pattern, maxSamples, seed) {
    if (maxSamples < 1) throw new Error("max_samples must be >= 1");
    var random = generator(seed), m = pattern.length, maxL = longestRun(pattern, "L"), maxS = longestRun(pattern, "S");
    var hits = { too_even: 0, lands_clumped: 0, spells_clumped: 0 }, samples = 0;
    while (samples < maxSamples && Math.min(hits.too_even, hits.lands_clumped, hits.spells_clumped) < MC_TARGET_HITS) {
      var batch = Math.min(MC_BATCH, maxSamples - samples), j;
      var left = new Int32Array(batch).fill(lands), runL = new Int32Array(batch), runS = new Int32Array(batch);
      var bestL = new Int32Array(batch), bestS = new Int32Array(batch);
      for (var i = 0; i < m; i++) {
        var cards = size - i;
        for (j = 0; j < batch; j++) {
          if (random() * cards < left[j]) {   // drawing without replacement
            left[j] -= 1; runL[j] += 1; runS[j] = 0;
            if (runL[j] > bestL[j]) bestL[j] = runL[j];
          } else {
            runS[j] += 1; runL[j] = 0;
            if (runS[j] > bestS[j]) bestS[j] = runS[j];
          }
        }
      }
      for (j = 0; j < batch; j++) {
        if (!(maxL && maxS) || (bestL[j] <= maxL && bestS[j] <= maxS)) hits.too_even += 1;
        if (maxL === 0 || bestL[j] >= maxL) hits.lands_clumped += 1;
        if (maxS === 0 || bestS[j] >= maxS) hits.spells_clumped += 1;
      }
      samples += batch;
    }
    return { too_even: withError(hits.too_even, samples), lands_clumped: withError(hits.lands_clumped, samples),
             spells_clumped: withError(hits.spells_clumped, samples) };
  }

  /* assess_pattern whole: the exact fields and the deciding test's Monte Carlo estimate on the scale of the
     reported p-value (three one-sided tests), as the engine reports them. */
  function assess(size, lands, pattern, maxSamples, seed) {
    var out = exact(size, lands, pattern), sided = oneSided(size, lands, pattern), deciding = decide(sided).deciding;
    var found = estimates(size, lands, pattern, maxSamples, seed)[deciding];
    out.p_value_monte_carlo = Math.min(1, 3 * found[0]);
    out.standard_error = 3 * found[1];
    out.interval_95 = [Math.min(1, 3 * found[2][0]), Math.min(1, 3 * found[2][1])];
    out.samples = found[3];
    out.seed = seed;
    return out;
  }

  function isWhole(v) { return typeof v === "number" && Number.isInteger(v); }

  /* The pattern request (deck_size, observed: {pattern, lands}) checked as engines/shuffles/requests.py
     checks it: {deck_size, pattern, lands}, or {refused: the field named}. */
  function validate(size, rawPattern, lands) {
    if (!isWhole(size) || size < 1 || size > MAX_DECK_SIZE) return { refused: "deck_size" };
    if (typeof rawPattern !== "string") return { refused: "observed.pattern" };
    var pattern = rawPattern.replace(SPACES, "").toUpperCase();
    if (!pattern || /[^LS]/.test(pattern) || pattern.length > size) return { refused: "observed.pattern" };
    if (!isWhole(lands) || lands < 0 || lands > size) return { refused: "observed.lands" };
    var seen = count(pattern, "L");
    if (seen > lands || pattern.length - seen > size - lands) return { refused: "observed.pattern" };
    return { deck_size: size, pattern: pattern, lands: lands };
  }

  /* jobs/services.pattern_finding: the analysis the shuffle check reads, or the field refused. */
  function pageAnalysis(size, pattern, lands) {
    var valid = validate(size, pattern, lands);
    if (valid.refused) return valid;
    var found = finding(valid.deck_size, valid.lands, valid.pattern);
    return { analysis: { pattern_p_value: found.p_value, pattern_direction: found.direction } };
  }

  var api = { exact: exact, finding: finding, assess: assess, estimates: estimates, generator: generator,
              defaultSeed: defaultSeed, pageAnalysis: pageAnalysis, validate: validate, pythonStrip: function (text) {
    return String(text).replace(new RegExp("^[" + SPACE + "]+|[" + SPACE + "]+$", "g"), "");
  }, PATTERN_ALPHA: PATTERN_ALPHA };
  if (typeof module !== "undefined" && module.exports) module.exports = api;
  else root.JudgeShufflePatterns = api;
})(this);
