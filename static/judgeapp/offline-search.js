/* judgeapp offline search: answers the number box and lexical search from the offline pack that the
   server builds (search/offline/pack.py), with the server's BM25F ranking over the same index:
   rule fields, asked-as questions (the best question per rule), judge phrases, card names, rule
   names, glossary terms and quoted phrases. Typo correction and the sentence model stay on the
   server. Runs in pages, in the service worker (importScripts) and under node (the tests).

   var engine = JudgeOfflineSearch.engine(pack);
   engine.search("deck out", {doc: null, limit: 10}) -> [{doc, number, title, snippet, score}]
   engine.resolve("725.3") -> {doc, number, was: {number, date} | null} or {choices: [...]} or null */
(function (root, factory) {
  "use strict";
  if (typeof module === "object" && module.exports) module.exports = factory();
  else root.JudgeOfflineSearch = factory();
})(typeof self !== "undefined" ? self : this, function () {
  "use strict";

  var DOCS = ["cr", "mtr", "ipg", "jar"];
  var WORD = /[a-z0-9]+(?:\/[a-z0-9]+)?/g;
  var PT = /([+-]?)(\d+|x)\/([+-]?)(\d+|x)/g;
  var QUOTED = /["\u201c\u201d]([^"\u201c\u201d]+)["\u201c\u201d]/g;
  var SNIPPET = 180;

  /* search.words: lower-case word forms, curly quotes folded, apostrophes dropped. */
  function words(text) {
    text = String(text || "").normalize("NFKC").toLowerCase();
    text = text.replace(/[\u2019'\u2018]/g, "").replace(/\u2013/g, "-").replace(/\u2014/g, " ").replace(/\u2212/g, "-");
    text = text.replace(PT, function (m, s1, a, s2, b) {
      return (s1 === "+" ? "p" : s1 === "-" ? "m" : "") + a + "/" + (s2 === "+" ? "p" : s2 === "-" ? "m" : "") + b;
    });
    return text.match(WORD) || [];
  }

  var stems = {};
  /* search.stem: plurals, -ing, -ed, -ly, final e/y. */
  function stem(word) {
    var hit = stems[word];
    if (hit !== undefined) return hit;
    var w = word;
    if (w.length > 3 && /^[a-z]+$/.test(w)) {
      if (/ies$/.test(w) && w.length > 4) w = w.slice(0, -3) + "i";
      else if (/(sses|ches|shes)$/.test(w) || (/es$/.test(w) && "sxz".indexOf(w.charAt(w.length - 3)) >= 0 && w.length > 4)) w = w.slice(0, -2);
      else if (/s$/.test(w) && !/(ss|us|is)$/.test(w)) w = w.slice(0, -1);
      var suffixes = ["ingly", "edly", "ing", "ed"];
      for (var k = 0; k < suffixes.length; k++) {
        var suffix = suffixes[k];
        if (w.slice(-suffix.length) === suffix && w.length - suffix.length >= 3 && /[aeiouy]/.test(w.slice(0, -suffix.length))) {
          w = w.slice(0, -suffix.length);
          if (w.length > 3 && w.charAt(w.length - 1) === w.charAt(w.length - 2) && "lsz".indexOf(w.charAt(w.length - 1)) < 0) w = w.slice(0, -1);
          break;
        }
      }
      if (/ly$/.test(w) && w.length > 5) w = w.slice(0, -2);
      if (/e$/.test(w) && w.length > 3) w = w.slice(0, -1);
      else if (/y$/.test(w) && w.length > 3) w = w.slice(0, -1) + "i";
    }
    stems[word] = w;
    return w;
  }

  /* rulesref.parsing.common.normalize_rule_number, for the shapes judges type. */
  var SUBRULE_LETTERS = "abcdefghijkmnpqrstuvwxyz";
  var PREFIX = /^\s*(?:(?:cr|mtr|ipg|jar|comprehensive\s+rules?)(?![a-z])[\s:#\u00a7.-]*)?(?:(?:rules?|sections?|\u00a7)\s*)?/i;
  function normalizeNumber(raw, doc) {
    var compact = String(raw).normalize("NFKC").replace(PREFIX, "").replace(/\s+/g, "").replace(/\.+$/, "");
    var text = compact.toLowerCase();
    if (!text) return null;
    var m = /^(\d{3})(?:\.(\d+)(?:\.?([a-z]))?)?$/.exec(text);
    if (!m && doc === "cr") m = /^(\d{3})(\d+)([a-z])?$/.exec(text);
    if (m) {
      if (parseInt(m[1], 10) < 100) return null;
      if (m[2] === undefined) return m[3] === undefined ? m[1] : null;
      if (parseInt(m[2], 10) === 0 || (m[3] !== undefined && SUBRULE_LETTERS.indexOf(m[3]) < 0)) return null;
      return m[1] + "." + parseInt(m[2], 10) + (m[3] || "");
    }
    if (/^\d$/.test(text)) return text;
    if (/^\d{1,2}(?:\.\d{1,3})*$/.test(text) && (doc !== "cr" || text.indexOf(".") >= 0)) return text;
    var appendix = /^(?:appendix([a-z])|([A-Z]))$/i.exec(compact);
    if (appendix && doc !== "cr" && (appendix[1] || /^[A-Z]$/.test(compact))) return (appendix[1] || appendix[2]).toUpperCase();
    return null;
  }

  /* search.parent_number: "702.19b" -> "702.19" -> "702"; MTR "4.2" -> "4"; null at the top. */
  function parentNumber(number) {
    if (/^\d+\.\d+[a-z]$/.test(number)) return number.slice(0, -1);
    var dot = number.lastIndexOf(".");
    return dot >= 0 ? number.slice(0, dot) : null;
  }

  function engine(pack) {
    var e = pack.entries, p = pack.params, q = pack.questions;
    var n = e.number.length;
    var stop = {};
    pack.stopwords.forEach(function (w) { stop[w] = true; });
    var byNumber = {}, children = {};
    var parts = e.part || [];
    var policy = {};
    (pack.policy_docs || []).forEach(function (d) { policy[d] = true; });
    var remedyWords = {};
    (pack.remedy || []).forEach(function (w) { remedyWords[w] = true; });
    for (var i = 0; i < n; i++) {
      // A rule is its whole entry; an IPG infraction's parts (definition, philosophy ...) lead to it.
      if (!parts[i] && byNumber[e.doc[i] + " " + e.number[i]] === undefined) byNumber[e.doc[i] + " " + e.number[i]] = i;
    }
    for (i = 0; i < n; i++) {
      if (parts[i]) continue;
      var parent = parentNumber(e.number[i]);
      if (parent !== null && byNumber[e.doc[i] + " " + parent] !== undefined) (children[e.doc[i] + " " + parent] = children[e.doc[i] + " " + parent] || []).push(i);
    }
    var idf = {}, qidf = {}, qn = q.norm.length;
    Object.keys(pack.postings).forEach(function (s) {
      var df = pack.postings[s].length / 2;
      idf[s] = Math.log(1 + (n - df + 0.5) / (df + 0.5));
    });
    Object.keys(q.postings).forEach(function (s) {
      var df = q.postings[s].length / 2;
      qidf[s] = Math.log(1 + (qn - df + 0.5) / (df + 0.5));
    });
    var vocabularyWords = {};
    Object.keys(pack.vocabulary).forEach(function (key) { key.split(" ").forEach(function (s) { vocabularyWords[s] = true; }); });
    var textStems = [];

    function stemsOf(i) {
      if (!textStems[i]) textStems[i] = words(e.title[i] + " " + e.text[i]).map(stem);
      return textStems[i];
    }

    /* Non-overlapping matches of `table`'s keys (stems joined by spaces) in `tokens`, longest first. */
    function findPhrases(tokens, table) {
      var found = [], k = 0;
      while (k < tokens.length) {
        var matched = false;
        for (var size = Math.min(6, tokens.length - k); size > 0; size--) {
          var value = table[tokens.slice(k, k + size).join(" ")];
          if (value !== undefined) { found.push([k, k + size, value]); k += size; matched = true; break; }
        }
        if (!matched) k++;
      }
      return found;
    }

    /* search.people.read_people: "guy", "dude" said of a person read as "player" ("guy keeps
       swearing", "the other guy's graveyard"); said of a creature ("my guy") they stay as typed. */
    var people = pack.people || null;
    var PEOPLE_WORD = /[0-9A-Za-z]+(?:['\u2019][A-Za-z]+)*/g;
    var CLAUSE_END = /[.,;:!?()\[\]"\u201c\u201d]|\s[-\u2013\u2014]\s|\n/;
    var peopleSets = people && {
      owners: setOf(people.owners), kinds: setOf(people.kinds), acts: setOf(people.acts), notPolicy: setOf(people.not_policy),
      adverbs: setOf(people.adverbs), he: setOf(people.he), it: setOf(people.it), numbers: setOf(people.numbers),
      playerNouns: setOf(people.player_nouns), playerVerbs: setOf(people.player_verbs), notNames: setOf(people.not_names),
      numbered: setOf(people.numbered), cardVerbs: setOf(people.card_verbs)
    };

    function setOf(list) { var out = {}; (list || []).forEach(function (w) { out[w] = true; }); return out; }

    function bare(word) {   /* [word without a possessive ending, whether it had one] */
      if (word.length > 2 && word.slice(-2) === "'s") return [word.slice(0, -2), true];
      if (word.length > 2 && word.slice(-2) === "s'") return [word.slice(0, -1), true];
      return [word, false];
    }

    function readPeople(query) {
      query = readNames(query);
      if (!people || !Object.keys(people.words).length) return query;
      var tokens = [], m;
      PEOPLE_WORD.lastIndex = 0;
      while ((m = PEOPLE_WORD.exec(query))) tokens.push([m.index, m.index + m[0].length, m[0].toLowerCase().replace(/\u2019/g, "'")]);
      var forms = tokens.map(function (t) { return t[2]; });
      var bares = forms.map(function (w) { return bare(w)[0]; });
      if (!bares.some(function (w) { return people.words[w] !== undefined; })) return query;
      var flat = bares.map(function (w) { return w.replace(/'/g, ""); });
      var policy = people.policy.some(function (phrase) {
        if (phrase.length === 1 && peopleSets.notPolicy[phrase[0]]) return false;
        for (var k = 0; k + phrase.length <= forms.length; k++) {
          var a = true, b = true;
          for (var j = 0; j < phrase.length; j++) { if (flat[k + j] !== phrase[j]) a = false; if (forms[k + j] !== phrase[j]) b = false; }
          if (a || b) return true;
        }
        return false;
      });
      var clauseStart = function (k) {
        var j = k;
        while (j > 0 && !CLAUSE_END.test(query.slice(tokens[j - 1][1], tokens[j][0]))) j--;
        return j;
      };
      var counts = function (w) { return !!peopleSets.numbers[w] || /[0-9]/.test(w); };
      var isPerson = function (k, possessive) {
        var start = clauseStart(k), before = forms.slice(Math.max(start, k - 3), k);
        if (before.some(function (w) { return peopleSets.owners[w] || peopleSets.kinds[w]; })) return false;
        var after = forms.slice(k + 1, k + 4);
        if (after.length && peopleSets.adverbs[after[0]]) after = after.slice(1);
        for (var n = 1; n <= 3; n++) if (after.length >= n && peopleSets.acts[after.slice(0, n).join(" ")]) return true;
        if (before.some(counts)) return false;
        for (var p = 0; p < people.person_phrases.length; p++) {
          var phrase = people.person_phrases[p], at = phrase.indexOf("*"), s = k - at, all = s >= 0 && s + phrase.length <= bares.length;
          for (var j = 0; all && j < phrase.length; j++) if (phrase[j] !== "*" && phrase[j] !== bares[s + j]) all = false;
          if (all) return true;
        }
        if (possessive) return true;
        if (k === start) {
          for (var r = k + 1; r < forms.length; r++) {
            if (peopleSets.it[forms[r]]) break;
            if (peopleSets.he[forms[r]]) return true;
          }
        }
        return policy;
      };
      var out = "", done = 0;
      tokens.forEach(function (t, k) {
        var b = bare(t[2]), meaning = people.words[b[0]];
        if (meaning === undefined || !isPerson(k, b[1])) return;
        out += query.slice(done, t[0]) + meaning + (b[1] ? (meaning.slice(-1) === "s" ? "'" : "'s") : "");
        done = t[1];
      });
      return out + query.slice(done);
    }

    /* search.people.read_names: names and letters that stand for players read as players ("Player
       A casts" -> "player casts", "AP" -> "active player", "my opponent Sarah casts" -> "my opponent
       casts", "Bob casts ... Bob's deck" -> "player casts ... player's deck"). */
    var NAME = /^[A-Z][a-z]+/;
    function readNames(query) {
      if (!people || !people.player_verbs) return query;
      var tokens = [], m, found = {}, names = {};
      PEOPLE_WORD.lastIndex = 0;
      while ((m = PEOPLE_WORD.exec(query))) tokens.push([m.index, m.index + m[0].length, m[0]]);
      var acts = function (w) { return peopleSets.acts[w] || peopleSets.playerVerbs[w]; };
      var folded = function (w) { return w.toLowerCase().replace(/\u2019/g, "'"); };
      var said = function (k, reading) {
        var possessive = bare(folded(tokens[k][2]))[1];
        return [tokens[k][0], tokens[k][1], reading + (possessive && reading ? "'s" : "")];
      };
      var clauseBreak = function (k) { return k > 0 && CLAUSE_END.test(query.slice(tokens[k - 1][1], tokens[k][0])); };
      var isName = function (w) { return /^[A-Z][a-z]+$/.test(w); };
      /* search.people._appositive: "Bob, her opponent, says": a name set off by a comma and a player's noun */
      var DETERMINERS = setOf("his her their my your our the".split(" "));
      var appositive = function (k) {
        if (k + 1 >= tokens.length || query.slice(tokens[k][1], tokens[k + 1][0]).trim() !== ",") return false;
        var noun = k + 1;
        if (DETERMINERS[tokens[noun][2].toLowerCase()] && noun + 1 < tokens.length) noun += 1;
        var b = bare(folded(tokens[noun][2]));
        if (b[1] || !peopleSets.playerNouns[b[0]] || noun + 1 >= tokens.length) return false;
        return query.slice(tokens[noun][1], tokens[noun + 1][0]).trim() === ",";
      };
      var cased = function (word) { var b = bare(folded(word)); return b[1] ? word.slice(0, b[0].length) : word; };
      tokens.forEach(function (t, k) {
        if (found[k]) return;
        var word = t[2], b = bare(folded(word)), plain = b[0], possessive = b[1], plainCased = cased(word);
        var nxt = k + 1 < tokens.length ? tokens[k + 1][2].toLowerCase() : "", prev = k > 0 ? tokens[k - 1][2] : "";
        if (plain === "player" || plain === "players") {
          if (k + 1 < tokens.length) {
            var letter = bare(folded(tokens[k + 1][2]))[0];
            if ((letter.length === 1 && /[a-z]/.test(letter) && /^[A-Z]/.test(tokens[k + 1][2])) || peopleSets.numbered[letter]) found[k + 1] = said(k + 1, "");
            return;
          }
        }
        if (/^[Pp][1-8]$/.test(plainCased)) found[k] = said(k, "player");
        else if (people.turn_players[plainCased] !== undefined) found[k] = said(k, people.turn_players[plainCased]);
        else if (plainCased.length === 1 && "ABCDEFGH".indexOf(plainCased) >= 0 && (possessive || acts(nxt))) found[k] = said(k, "player");
        else if (isName(plainCased) && !stop[plain] && !peopleSets.notNames[plain]) {
          if (people.words[plain] !== undefined || peopleSets.owners[folded(prev)]) return;  /* "my Bob": a card of someone's */
          var prevBare = bare(folded(prev))[0], afterNoun = !!peopleSets.playerNouns[prevBare];
          var inName = NAME.test(prev) && !stop[prevBare] && !peopleSets.notNames[prevBare] && !afterNoun && !clauseBreak(k);
          if (afterNoun) { names[plainCased] = true; found[k] = said(k, ""); }
          else if (!inName && ((acts(nxt) && !peopleSets.cardVerbs[nxt] && !NAME.test(tokens[k + 1][2])) || appositive(k))) { names[plainCased] = true; found[k] = said(k, "player"); }
        }
      });
      tokens.forEach(function (t, k) { if (!found[k] && names[cased(t[2])]) found[k] = said(k, "player"); });
      var out = "", done = 0;
      Object.keys(found).map(Number).sort(function (a, b) { return a - b; }).forEach(function (k) {
        var f = found[k], before = query.slice(done, f[0]);
        if (!f[2]) before = before.replace(/ +$/, "");
        out += before + f[2];
        done = f[1];
      });
      return out + query.slice(done);
    }

    /* search.asking.pieces: a question told as a story, split into its sentences, with whether
       each asks ("?", "what happens", "can he", ...); [[question, true]] when it has no scene. */
    var OPENERS = setOf(("what whats how hows can could does do did is isnt are arent would should shouldnt " +
      "who why wouldnt cant doesnt didnt").split(" "));
    var ASKS = new RegExp("\\b(what happens|what would happen|how do i rule|how should i rule|how would you rule|" +
      "what is the (?:right |correct )?(?:ruling|penalty|fix|call)|what's the (?:right |correct )?" +
      "(?:ruling|penalty|fix|call)|wonder(?:ing)? (?:if|whether|what|how|why)|my question is|" +
      "the question is|is this|is that|is it|can (?:he|she|they|i|you|we)|" +
      "do (?:i|you|we|they)|does (?:it|he|she|that|this))\\b");
    function asks(sentence) {
      var text = sentence.trim().toLowerCase().replace(/\u2019/g, "'");
      if (text.slice(-1) === "?") return true;
      var first = /[a-z']+/.exec(text);
      if (first && first.index === 0 && OPENERS[first[0].replace(/'/g, "")]) return true;
      return ASKS.test(text);
    }
    function pieces(question) {
      var found = question.trim().replace(/([.!?])\s+/g, "$1\u0000").replace(/\s*\n\s*/g, "\u0000")
        .split("\u0000").filter(function (x) { return x.trim(); });
      if (found.length < 2 || (question.toLowerCase().match(/[a-z']+/g) || []).length < 25) return [[question, true]];
      var asking = found.map(asks);
      if (asking.every(function (a) { return a; })) return [[question, true]];
      if (!asking.some(function (a) { return a; })) asking[asking.length - 1] = true;
      return found.map(function (x, k) { return [x, asking[k]]; });
    }

    function parse(query) {
      query = readPeople(query);
      var phrases = [], m;
      QUOTED.lastIndex = 0;
      while ((m = QUOTED.exec(query))) {
        var phrase = words(m[1]).map(stem);
        if (phrase.length) phrases.push(phrase);
      }
      var sequence = [], isStop = [];
      words(query).forEach(function (form) { sequence.push(stem(form)); isStop.push(!!stop[form]); });
      var tokens = sequence.filter(function (s, k) { return !isStop[k]; });
      // each word's share: the scene's words weigh p.w_scene, those of the asking sentences all
      var scene = [];
      pieces(query).forEach(function (piece) { words(piece[0]).forEach(function () { scene.push(piece[1] ? 1 : p.w_scene); }); });
      if (scene.length !== sequence.length) scene = sequence.map(function () { return 1; });
      var weights = {}, consumed = {};
      var add = function (list, weight) { list.forEach(function (s) { if (!(weights[s] >= weight)) weights[s] = weight; }); };
      var take = function (a, b) { for (var k = a; k < b; k++) consumed[k] = true; };
      var free = function (a, b) { for (var k = a; k < b; k++) if (consumed[k]) return false; return true; };
      // Words that only place the question at Regular REL, when it has other words, weigh p.w_context.
      var places = findPhrases(sequence, pack.regular || {}), at = {}, context = {};
      places.forEach(function (f) { for (var k = f[0]; k < f[1]; k++) at[k] = true; });
      if (sequence.some(function (s, k) { return !at[k] && !isStop[k]; })) context = at;
      var within = function (a, b) { for (var k = a; k < b; k++) if (!context[k]) return false; return true; };
      findPhrases(sequence, pack.cards).forEach(function (f) { take(f[0], f[1]); add(f[2], p.w_card); });
      findPhrases(sequence, pack.vocabulary).forEach(function (f) {
        if (free(f[0], f[1])) {
          take(f[0], f[1]);
          var share = Math.max.apply(null, scene.slice(f[0], f[1]));
          add(f[2], share * (within(f[0], f[1]) ? p.w_context : p.w_expansion));
        }
      });
      var weightAt = function (k) { return context[k] ? Math.min(scene[k], p.w_context) : scene[k]; };
      sequence.forEach(function (s, k) { if (!consumed[k] && !isStop[k]) add([s], weightAt(k)); });
      findPhrases(sequence, pack.obsolete).forEach(function (f) { add(f[2], p.w_obsolete); });
      var cited = [];
      findPhrases(tokens, pack.glossary_refs).forEach(function (f) {
        var df = Infinity;
        tokens.slice(f[0], f[1]).forEach(function (s) { df = Math.min(df, (pack.postings[s] || []).length / 2); });
        if (df <= Math.max(1, p.glossary_max_df * n)) cited.push(f[2]);
      });
      var named = [];
      findPhrases(tokens, pack.names).forEach(function (f) { named = named.concat(f[2]); });
      var asked = {};
      sequence.forEach(function (s, k) {
        if (!isStop[k]) { var w = weightAt(k); if (!(asked[s] >= w)) asked[s] = w; }
      });
      var intent = findPhrases(sequence, pack.intent || {}).map(function (f) { return f[2]; });
      var regular = places.length > 0;
      var competitive = findPhrases(sequence, pack.competitive || {}).length > 0;
      var shown = {};
      if (phrases.length) phrases.forEach(function (ph) { ph.forEach(function (s) { shown[s] = true; }); });
      else { Object.keys(weights).forEach(function (s) { shown[s] = true; }); tokens.forEach(function (s) { shown[s] = true; }); }
      return { weights: weights, phrases: phrases, glossary: cited.slice(0, 3), named: named, asked: asked, shown: shown, intent: intent, regular: regular, competitive: competitive };
    }

    function questionScores(asked) {
      var perQuestion = {}, best = {};
      Object.keys(asked).forEach(function (s) {
        var w = qidf[s];
        if (w === undefined) return;
        var list = q.postings[s];
        for (var k = 0; k < list.length; k += 2) {
          var tf = list[k + 1];
          perQuestion[list[k]] = (perQuestion[list[k]] || 0) + asked[s] * w * tf * (p.k1 + 1) / (tf + q.norm[list[k]]);
        }
      });
      Object.keys(perQuestion).forEach(function (k) {
        var owner = q.owner[k];
        if (perQuestion[k] > (best[owner] || 0)) best[owner] = perQuestion[k];
      });
      return best;
    }

    function contains(seq, phrase) {
      outer: for (var k = 0; k + phrase.length <= seq.length; k++) {
        for (var j = 0; j < phrase.length; j++) if (seq[k + j] !== phrase[j]) continue outer;
        return true;
      }
      return false;
    }

    function scores(parsed, doc) {
      var out = {};
      Object.keys(parsed.weights).forEach(function (s) {
        var w = idf[s];
        if (w === undefined) return;
        var list = pack.postings[s];
        for (var k = 0; k < list.length; k += 2) {
          var i = list[k], tf = list[k + 1];
          out[i] = (out[i] || 0) + parsed.weights[s] * w * tf * (p.k1 + 1) / (tf + e.norm[i]);
        }
      });
      var fromQuestions = questionScores(parsed.asked);
      Object.keys(fromQuestions).forEach(function (i) { out[i] = (out[i] || 0) + p.w_asked * fromQuestions[i]; });
      Object.keys(out).forEach(function (i) {
        if (doc && e.doc[i] !== doc) delete out[i];
        else if (e.heading_only[i]) out[i] *= p.heading_only;
      });
      var top = 0;
      Object.keys(out).forEach(function (i) { if (out[i] > top) top = out[i]; });
      if (parsed.glossary.length && top > 0 && (!doc || doc === "cr")) {
        var lifted = {};
        parsed.glossary.forEach(function (refs) {
          refs.forEach(function (number) {
            var cited = byNumber["cr " + number];
            if (cited === undefined) return;
            var share = p.glossary_cited * (e.heading_only[cited] ? p.heading_only : 1);
            lifted[cited] = Math.max(lifted[cited] || 0, share * top);
            (children["cr " + number] || []).forEach(function (j) {
              if ((out[j] || 0) > 0) lifted[j] = Math.max(lifted[j] || 0, p.glossary_child * top);
            });
          });
        });
        Object.keys(lifted).forEach(function (i) { out[i] = (out[i] || 0) + lifted[i]; });
      }
      if (parsed.named.length && top > 0) {
        parsed.named.forEach(function (i) {
          if ((!doc || e.doc[i] === doc) && !e.heading_only[i]) out[i] = (out[i] || 0) + p.named * top;
        });
      }
      if (parsed.phrases.length) {
        Object.keys(out).forEach(function (i) {
          if (parsed.phrases.every(function (ph) { return contains(stemsOf(i), ph); })) out[i] *= p.phrase_boost;
        });
      }
      return out;
    }

    /* search._snippet: about 180 characters where the query's words are densest. */
    function snippet(i, shown) {
      var text = (e.text[i] || "").split(/\s+/).join(" ").trim() || e.title[i] || (e.examples[i][0] || "");
      if (text.length <= SNIPPET) return text;
      var hits = [], re = /[A-Za-z0-9\u2019'+\/-]+/g, m;
      while ((m = re.exec(text))) {
        if (shown[stem(m[0].toLowerCase().replace(/[\u2019']/g, ""))]) hits.push(m.index);
      }
      var start = 0, best = 0, last = 0;
      for (var k = 0; k < hits.length; k++) {
        while (last < hits.length && hits[last] - hits[k] < Math.floor(SNIPPET * 2 / 3)) last++;
        if (last - k > best) { start = hits[k]; best = last - k; }
      }
      var begin = Math.max(0, start - Math.floor(SNIPPET / 3));
      if (begin > 0) {
        var space = text.indexOf(" ", begin);
        begin = space >= 0 && space < start ? space + 1 : begin;
      }
      var end = Math.min(text.length, begin + SNIPPET);
      if (end < text.length) {
        var back = text.lastIndexOf(" ", end - 1);
        end = back >= begin && back > start ? back : end;
      }
      return (begin > 0 ? "\u2026" : "") + text.slice(begin, end) + (end < text.length ? "\u2026" : "");
    }

    function hit(i, score, shown) {
      return { doc: e.doc[i], number: e.number[i], title: e.title[i] || e.section[i], snippet: snippet(i, shown), score: score, part: parts[i] || "" };
    }

    function descendants(doc, number) {
      var out = [];
      (children[doc + " " + number] || []).forEach(function (j) { out.push(j); out = out.concat(descendants(doc, e.number[j])); });
      return out;
    }

    function numberHits(query, doc) {
      var named = /^\s*(cr|mtr|ipg|jar)(?![a-z])/i.exec(query);   // "mtr 4.2" is the MTR's, not the IPG's 4.2
      var docs = doc ? [doc] : named ? [named[1].toLowerCase()] : DOCS;
      for (var k = 0; k < docs.length; k++) {
        var number = normalizeNumber(query, docs[k]);
        if (number === null) continue;
        var i = byNumber[docs[k] + " " + number];
        if (i !== undefined) return [i].concat(descendants(docs[k], number));
      }
      return [];
    }

    /* A question that names no REL with a JAR section among its first p.counterpart rules and no IPG
       entry above it: the best IPG infraction (an entry with parts) comes right after it, its score
       between its neighbours' (search.ranking._competitive_beside_regular). */
    var infractions = {};   // the IPG's infractions: the numbers that have parts
    parts.forEach(function (part, j) { if (part && e.doc[j] === "ipg") infractions[e.number[j]] = true; });

    function besideRegular(order, found) {
      var seen = {}, count = 0;
      for (var place = 0; place < order.length; place++) {
        var i = order[place], key = e.doc[i] + " " + e.number[i];
        if (count >= p.counterpart) return order;
        if (!seen[key]) { seen[key] = true; count++; }
        if (e.doc[i] !== "jar") continue;
        for (var k = 0; k < place; k++) if (e.doc[order[k]] === "ipg") return order;
        var best = null;
        for (k = place + 1; k < order.length; k++) if (e.doc[order[k]] === "ipg" && infractions[e.number[order[k]]]) { best = order[k]; break; }
        if (best === null) return order;
        var rest = order.slice(place + 1).filter(function (j) { return j !== best; });
        if (rest.length) found[best] = Math.max(found[best], (found[i] + found[rest[0]]) / 2);
        return order.slice(0, place + 1).concat([best], rest);
      }
      return order;
    }

    function search(query, options) {
      options = options || {};
      var doc = options.doc || null, limit = options.limit === undefined ? 10 : options.limit;
      query = String(query || "").trim();
      if (!query || limit <= 0) return [];
      var numbered = numberHits(query, doc);
      if (numbered.length) return numbered.slice(0, limit).map(function (i, rank) { return hit(i, 1000 - rank, {}); });
      var parsed = parse(query);
      var found = scores(parsed, doc);
      if (!doc && (parsed.intent.length || parsed.regular)) {
        // A question in tournament words, no document chosen: the tournament documents gain a share of
        // the best score; one asking for a penalty or a fix lifts the document that gives them a little
        // more: the IPG, or the JAR at Regular REL (search.ranking._lift_policy).
        var top = 0, remedy = null;
        if (parsed.regular || parsed.intent.some(function (w) { return remedyWords[w]; })) remedy = parsed.regular ? "jar" : "ipg";
        Object.keys(found).forEach(function (i) { if (found[i] > top) top = found[i]; });
        Object.keys(found).forEach(function (i) {
          if (policy[e.doc[i]]) found[i] += (p.intent + (e.doc[i] === remedy ? (p.remedy || 0) : 0)) * top;
        });
      }
      if (!doc && parsed.regular !== parsed.competitive) {
        // A question that names one REL: the other REL's document gives way (search.ranking).
        var other = parsed.regular ? "ipg" : "jar", keep = parsed.regular ? p.other_rel_ipg : p.other_rel_jar;
        if (keep !== undefined) Object.keys(found).forEach(function (i) { if (e.doc[i] === other) found[i] *= keep; });
      }
      var ranked = Object.keys(found).map(Number).filter(function (i) { return found[i] > 0; });
      ranked.sort(function (a, b) { return found[b] - found[a] || a - b; });
      if (!doc && !parsed.regular && p.counterpart) ranked = besideRegular(ranked, found);
      var seen = {}, out = [];
      for (var k = 0; k < ranked.length && out.length < limit; k++) {   // each rule once: the best of it and its parts
        var key = e.doc[ranked[k]] + " " + e.number[ranked[k]];
        if (seen[key]) continue;
        seen[key] = true;
        out.push(hit(ranked[k], found[ranked[k]], parsed.shown));
      }
      return out;
    }

    /* What the number box opens: a rule of a current document, an old number's rule where it
       stands now (`was` says where it came from), several choices, or null (then: search). */
    function resolve(query) {
      var m = /^\s*(cr|mtr|ipg|jar)(?![a-z])[\s:.#-]*(.*)$/i.exec(query);
      var docs = m ? [m[1].toLowerCase()] : DOCS, rest = m ? m[2].trim() : String(query).trim();
      var choices = [];
      docs.forEach(function (doc) {
        var number = normalizeNumber(rest, doc);
        if (number === null) return;
        if (byNumber[doc + " " + number] !== undefined) choices.push({ doc: doc, number: number, was: null });
        else if (pack.moved[doc] && pack.moved[doc][number]) {
          var now = pack.moved[doc][number];
          choices.push({ doc: doc, number: now[0], was: { number: number, date: now[1] } });
        }
      });
      if (choices.length === 1) return choices[0];
      if (choices.length > 1) return { choices: choices };
      var lower = rest.toLowerCase();
      for (var i = 0; i < n && lower.length > 1; i++) {
        if (docs.indexOf(e.doc[i]) < 0) continue;
        if ((e.title[i] && e.title[i].toLowerCase() === lower) || e.aliases[i].some(function (a) { return a.toLowerCase() === lower; })) {
          return { doc: e.doc[i], number: e.number[i], was: null };
        }
      }
      return null;
    }

    function rule(doc, number) {
      var i = byNumber[doc + " " + number];
      if (i === undefined) return null;
      return {
        doc: doc, number: number, title: e.title[i], section: e.section[i], text: e.text[i], examples: e.examples[i],
        children: (children[doc + " " + number] || []).map(function (j) { return e.number[j]; }),
        parent: parentNumber(number)
      };
    }

    function documents() { return pack.documents; }
    function outline(doc) {
      var out = [];
      for (var i = 0; i < n; i++) {
        if (e.doc[i] === doc && byNumber[doc + " " + parentNumber(e.number[i])] === undefined) out.push({ number: e.number[i], title: e.title[i] || e.text[i] });
      }
      return out;
    }

    return { search: search, resolve: resolve, rule: rule, readPeople: readPeople, documents: documents, outline: outline, glossary: pack.glossary, version: pack.version };
  }

  /* The pack's card words (search's index.cards) derived here from the card copy this device keeps
     (cards/offline.py) instead of shipped in the pack (pack.card_words === "cards"): what each card does
     (its Oracle text without reminder text; a face under its own name), as cards.services.card_descriptions
     reads it, keyed by the stems of the name and given as the stems of the text without stopwords. Names
     the server leaves out (a one-word name that is an ordinary word) come with the copy. */
  function cardWords(cardsPack, stopwords) {
    var stop = {}, fields = cardsPack.fields || [], at = {};
    (stopwords || []).forEach(function (w) { stop[w] = true; });
    fields.forEach(function (f, i) { at[f] = i; });
    var leftOut = {}, seen = {}, byKey = new Map(), table = {}, tails = cardsPack.search_tails || {};
    (cardsPack.search_left_out || []).forEach(function (n) { leftOut[n] = true; });
    // cards.features.reading: the type line, the Oracle text without reminder text (lines joined
    // with "; "), then the keywords and the rules' words the server sends (search_tails)
    var add = function (name, typeLine, text) {
      if (leftOut[name] || seen[name]) return;
      seen[name] = true;
      var lines = String(text || "").split(/\r\n|[\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029]/).map(function (line) {
        return line.replace(/\s*\([^)]*\)/g, "").trim();
      }).filter(Boolean);
      var tail = tails[name] || ["", ""];
      var parts = [String(typeLine || "").trim(), lines.join("; "), tail[0], tail[1]].filter(Boolean);
      // search.card_source.card_key: lower case, one space, a straight apostrophe
      var key = name.toLowerCase().replace(/\u2019/g, "'").split(/\s+/).filter(Boolean).join(" ");
      if (key) byKey.set(key, parts.map(function (p) { return p.replace(/\.+$/, ""); }).join(". ") + ".");
    };
    (cardsPack.cards || []).forEach(function (row) {
      var name = row[at.name], faces = row[at.faces] || [];
      var whole = row[at.oracle_text] || faces.map(function (f) { return String((f && f.oracle_text) || ""); }).join("\n");
      add(name, row[at.type_line], whole);
      faces.forEach(function (face) {
        if (face && face.name && face.name !== name) add(face.name, face.type_line || "", face.oracle_text || "");
      });
    });
    byKey.forEach(function (text, name) {
      var key = words(name).map(stem);
      if (key.length) table[key.join(" ")] = words(text).filter(function (w) { return !stop[w]; }).map(stem);
    });
    return table;
  }

  return { words: words, stem: stem, normalizeNumber: normalizeNumber, parentNumber: parentNumber, engine: engine, cardWords: cardWords };
});
