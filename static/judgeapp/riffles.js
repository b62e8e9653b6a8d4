/* The distance from random of a described shuffle procedure on the tablet: engines/shuffles/riffles.py
   (Bayer & Diaconis's exact distance of a GSR a-shuffle, the bound for riffles split by other steps) in
   exact integer arithmetic (BigInt), each distance rounded to a double once, as Python's Fraction -> float
   rounds it (to nearest, ties to even). 200 riffles of 250 cards are integers of 50,000 bits: milliseconds.
   tests/engines/test_shuffle_check_js.py runs it under node against the Python engine.
   window.JudgeRiffles (node: module.exports) = { procedureDistance(n, steps) -> [distance, exact],
   procedureDistances(n, steps) -> the distance after each step,
   riffleDistance(n, riffles), toDouble(num, den), MAX_EXACT_RIFFLES }. Steps: [{method, times}]. */
(function (root) {
  "use strict";

  var MAX_EXACT_RIFFLES = 200;   // engines/shuffles/records.py
  var rows = {}, distances = {};

  function bitLength(x) { return x === 0n ? 0 : x.toString(2).length; }

  /* num / den (num >= 0, den > 0) as the nearest double, ties to even: a quotient of 56-57 bits and a
     sticky bit for the remainder, which Number() then rounds once. */
  function toDouble(num, den) {
    if (num === 0n) return 0;
    var shift = 56 - (bitLength(num) - bitLength(den)), q, r;
    if (shift >= 0) { var n2 = num << BigInt(shift); q = n2 / den; r = n2 % den; }
    else { var d2 = den << BigInt(-shift); q = num / d2; r = num % d2; }
    q = (q << 1n) | (r === 0n ? 0n : 1n);
    var value = Number(q), e = -(shift + 1);
    while (e < -1000) { value *= Math.pow(2, -1000); e += 1000; }
    while (e > 1000) { value *= Math.pow(2, 1000); e -= 1000; }
    return value * Math.pow(2, e);
  }

  /* A(n, 0..n-1), the Eulerian numbers (A(0, 0) = 1). */
  function eulerianRow(n) {
    if (rows[n]) return rows[n];
    var row = [1n];
    for (var m = 2; m <= n; m++) {
      var next = [];
      for (var j = 0; j < m; j++) {
        next.push(BigInt(j + 1) * (j < row.length ? row[j] : 0n) + BigInt(m - j) * (j >= 1 ? row[j - 1] : 0n));
      }
      row = next;
    }
    rows[n] = row;
    return row;
  }

  /* [TV, separation] of one GSR a-shuffle (a = 2^k) of n cards, each as a double of the exact value. */
  function gsr(n, k) {
    var id = n + ":" + k;
    if (distances[id]) return distances[id];
    if (n <= 1) return (distances[id] = [0, 0]);
    var a = 1n << BigInt(k), N = BigInt(n), power = a ** N, row = eulerianRow(n);
    var f = 1n, i;
    for (i = 0n; i < N; i++) f *= a + i;   // r = 1: a(a+1)...(a+n-1)
    var excess = 0n;
    for (var r = 1; r <= n; r++) {
      if (f > power) excess += row[r - 1] * (f - power);
      var R = BigInt(r);
      if (R >= a) f = 0n;
      else if (f) f = f * (a - R) / (a - R + N);
    }
    var factorial = 1n;
    for (i = 2n; i <= N; i++) factorial *= i;
    var least = 0n;   // n! * the least likely permutation's probability, times a^n
    if (a >= N) { least = 1n; for (i = a - N + 1n; i <= a; i++) least *= i; }
    return (distances[id] = [toDouble(excess, power * factorial), toDouble(power - least, power)]);
  }

  function riffleDistance(n, riffles) { return gsr(n, riffles)[0]; }

  /* _combine: exact for one block of riffles, else min(best TV, product of separations). */
  function combine(n, blocks) {
    var live = blocks.filter(function (b) { return b > 0; }).map(function (b) { return Math.min(b, MAX_EXACT_RIFFLES); });
    var capped = blocks.some(function (b) { return b > MAX_EXACT_RIFFLES; });
    if (!live.length) return [gsr(n, 0)[0], true];
    if (live.length === 1) return [gsr(n, live[0])[0], !capped];
    var pairs = live.map(function (b) { return gsr(n, b); });
    var best = Math.min.apply(null, pairs.map(function (p) { return p[0]; }));
    var product = pairs.reduce(function (acc, p) { return acc * p[1]; }, 1);
    return [Math.min(best, product), false];
  }

  /* procedure_distances: after each step, {method, times, credited_riffles, distance, exact} (the result's
     "steps"). Credits are counted in halves (a mash is half a riffle). */
  /* riffle_credit, in halves: a riffle two, a mash one (half a riffle), an overhand, pile or cut none. */
  function creditHalves(step) { return step.method === "riffle" ? 2 * step.times : step.method === "mash" ? step.times : 0; }

  function procedureDistances(n, steps) {
    var closed = [], halves = 0, broken = false;
    return steps.map(function (step) {
      var credit = creditHalves(step);
      if (credit) {
        if (broken && halves) { closed.push(Math.floor(halves / 2)); halves = 0; }
        broken = false;
        halves += credit;
      } else if (step.times && halves) {
        broken = true;   // pile/cut: a fixed permutation; overhand: credited as nothing
      }
      var found = combine(n, closed.concat([Math.floor(halves / 2)]));
      return { method: step.method, times: step.times, credited_riffles: Math.floor(halves / 2), distance: found[0], exact: found[1] };
    });
  }

  /* procedure_distance: [distance, exact] after the whole procedure; none leaves 1 - 1/n!. */
  function procedureDistance(n, steps) {
    var all = procedureDistances(n, steps), last = all[all.length - 1];
    return last ? [last.distance, last.exact] : [gsr(n, 0)[0], true];
  }

  var api = { procedureDistance: procedureDistance, procedureDistances: procedureDistances, riffleDistance: riffleDistance, toDouble: toDouble,
              creditHalves: creditHalves,
              MAX_EXACT_RIFFLES: MAX_EXACT_RIFFLES };
  if (typeof module !== "undefined" && module.exports) module.exports = api;
  else root.JudgeRiffles = api;
})(this);
