/* judgeapp offline reader: the page the service worker shows, without a network, for a rules page,
   the contents, the glossary, a search or the number box that has no stored copy. It reads the pack
   kept on this device (search/offline) and renders what the address asks for, in the markup of the
   server's pages. window.JudgeOfflineReader.load() -> Promise of the engine. */
(function () {
  "use strict";

  var PACK_CACHE = "judgeapp-pack";
  var root = document.getElementById("offline-reader");

  function el(tag, props, children) {
    var node = document.createElement(tag);
    Object.keys(props || {}).forEach(function (key) {
      if (key === "text") node.textContent = props[key];
      else if (key === "className") node.className = props[key];
      else node.setAttribute(key, props[key]);
    });
    (children || []).forEach(function (child) { if (child) node.appendChild(typeof child === "string" ? document.createTextNode(child) : child); });
    return node;
  }

  var loading = null;
  function load() {
    if (!loading) {
      loading = caches.open(PACK_CACHE).then(function (cache) { return cache.match("/offline/pack.json"); }).then(function (response) {
        if (!response) throw new Error("no copy of the rules is stored on this device yet: open the site once while online");
        return response.json();
      }).then(function (pack) {
        if (pack.card_words !== "cards") return window.JudgeOfflineSearch.engine(pack);
        // The card words are derived here from the card copy kept beside the rules (sw.js).
        return caches.open(PACK_CACHE).then(function (cache) { return cache.match("/offline/cards.json"); })
          .then(function (hit) { return hit ? hit.json() : null; }).then(function (cards) {
            pack.cards = cards ? window.JudgeOfflineSearch.cardWords(cards, pack.stopwords) : {};
            return window.JudgeOfflineSearch.engine(pack);
          });
      });
    }
    return loading;
  }

  function ruleUrl(doc, number) { return "/rules/" + doc + "/" + encodeURIComponent(number) + "/"; }
  /* How rules are named, as rulesref/naming.py names them on the server: the JAR prints no numbers (its
     numbers are keys for addresses only), so a JAR section is named by its heading, its situation. */
  var UNNUMBERED = { jar: true };
  function shownNumber(doc, number) { return UNNUMBERED[doc] ? "" : number; }
  function ruleName(doc, number, title) {
    return UNNUMBERED[doc] ? (title || doc.toUpperCase()) : [doc.toUpperCase(), number, title].filter(Boolean).join(" ");
  }
  function docTitle(engine, doc) {
    var d = engine.documents().filter(function (x) { return x.doc === doc; })[0];
    return d ? d.title + " (" + d.effective_date + ")" : doc.toUpperCase();
  }

  function renderBlock(engine, doc, number, depth, out) {
    var r = engine.rule(doc, number);
    if (!r) return;
    var head = el(depth === 0 ? "h1" : "h3", { className: "rule-head" });
    if (shownNumber(doc, number)) {
      head.appendChild(el("a", { className: "num", href: ruleUrl(doc, number), text: number }));
      if (r.title) { head.appendChild(document.createTextNode(" ")); head.appendChild(el("span", { className: "title", text: r.title })); }
    } else {
      head.appendChild(el("a", { className: "title", href: ruleUrl(doc, number), text: ruleName(doc, number, r.title) }));
    }
    var article = el("article", { className: "rule depth-" + depth, id: "r-" + number }, [head]);
    (r.text || "").split(/\n+/).filter(Boolean).forEach(function (p) { article.appendChild(el("p", { className: "text", text: p })); });
    r.examples.forEach(function (e) { article.appendChild(el("p", { className: "example" }, [el("span", { className: "label", text: "Example:" }), " " + e])); });
    out.appendChild(article);
    r.children.forEach(function (child) { renderBlock(engine, doc, child, depth + 1, out); });
  }

  function renderRule(engine, doc, number, params) {
    var r = engine.rule(doc, number);
    if (!r) {
      var found = engine.resolve(doc + " " + number);
      if (found && found.number && found.doc === doc && found.number !== number) return renderRule(engine, doc, found.number, { was: found.was ? found.was.number : number, from: found.was ? found.was.date : "" });
      root.appendChild(el("h1", { text: doc.toUpperCase() + " " + number }));
      root.appendChild(el("p", { className: "notice", text: "There is no rule " + number + " in the copy of the " + docTitle(engine, doc) + " kept on this device." }));
      return;
    }
    document.title = ruleName(doc, number, r.title) + " · offline · judgeapp";
    var crumbs = el("nav", { className: "crumbs", "aria-label": "Where this rule is" }, [el("a", { href: "/rules/" + doc + "/", text: doc.toUpperCase() })]);
    var chain = [], parent = r.parent;
    while (parent && engine.rule(doc, parent)) { chain.unshift(parent); parent = engine.rule(doc, parent).parent; }
    chain.forEach(function (p) { crumbs.appendChild(document.createTextNode(" › ")); crumbs.appendChild(el("a", { href: ruleUrl(doc, p), text: shownNumber(doc, p) || engine.rule(doc, p).title })); });
    root.appendChild(crumbs);
    if (params.was && shownNumber(doc, number)) root.appendChild(el("p", { className: "notice moved-from", text: doc.toUpperCase() + " " + params.was + (params.from ? " in the version of " + params.from : "") + " is now " + number + "." }));
    var rules = el("div", { className: "rules" });
    renderBlock(engine, doc, number, 0, rules);
    root.appendChild(rules);
  }

  function renderContents(engine, doc) {
    root.appendChild(el("h1", { text: docTitle(engine, doc) }));
    var list = el("ul", { className: "list" });
    engine.outline(doc).forEach(function (item) {
      var row = shownNumber(doc, item.number) ? [el("span", { className: "num", text: item.number }), " ", el("span", { text: item.title })] : [el("span", { text: item.title })];
      list.appendChild(el("li", {}, [el("a", { className: "row", href: ruleUrl(doc, item.number) }, row)]));
    });
    root.appendChild(list);
  }

  function renderHome(engine) {
    root.appendChild(el("h1", { text: "Rules kept on this device" }));
    var list = el("ul", { className: "list" });
    engine.documents().forEach(function (d) {
      list.appendChild(el("li", {}, [el("a", { className: "row", href: "/rules/" + d.doc + "/" }, [el("span", { className: "num", text: d.doc.toUpperCase() }), " ", el("span", { text: d.title + " — " + d.effective_date })])]));
    });
    root.appendChild(list);
  }

  function renderResults(engine, query, doc) {
    root.appendChild(el("h1", { text: "Search" }));
    var hits = engine.search(query, { doc: doc || null, limit: 40 });
    if (!hits.length) { root.appendChild(el("p", { className: "muted", text: "Nothing found for \u201c" + query + "\u201d in the copy kept on this device." })); return; }
    root.appendChild(el("ul", { className: "results" }, hits.map(function (h) {
      return el("li", {}, [el("a", { className: "hit", href: ruleUrl(h.doc, h.number) }, [
        el("span", { className: "where", text: h.doc.toUpperCase() }),
        el("span", { className: "hit-head" }, [shownNumber(h.doc, h.number) ? el("span", { className: "num", text: h.number }) : null,
                                               shownNumber(h.doc, h.number) && h.title ? " " : "", h.title ? el("span", { className: "title", text: h.title }) : null]),
        el("span", { className: "snippet", text: h.snippet })
      ])]);
    })));
  }

  function renderGlossary(engine, term) {
    var entries = engine.glossary;
    if (term) {
      var wanted = decodeURIComponent(term).toLowerCase();
      var hit = entries.filter(function (g) { return g.term.toLowerCase() === wanted; })[0];
      root.appendChild(el("h1", { text: hit ? hit.term : term }));
      if (!hit) { root.appendChild(el("p", { className: "notice", text: "No such glossary entry in the copy kept on this device." })); return; }
      hit.definition.split(/\n+/).forEach(function (p) { root.appendChild(el("p", { className: "definition", text: p })); });
      if (hit.references.length) root.appendChild(el("p", { className: "cites" }, ["See "].concat(hit.references.map(function (n) { return el("a", { className: "ref chip", href: ruleUrl("cr", n), text: n }); }))));
      return;
    }
    root.appendChild(el("h1", { text: "Glossary" }));
    root.appendChild(el("ul", { className: "list" }, entries.map(function (g) {
      return el("li", {}, [el("a", { className: "row", href: "/glossary/" + encodeURIComponent(g.term) + "/", text: g.term })]);
    })));
  }

  function show(engine) {
    var path = location.pathname, params = new URLSearchParams(location.search), m;
    root.innerHTML = "";
    if ((m = /^\/rules\/([a-z]+)\/([^/]+)\/$/.exec(path))) return renderRule(engine, m[1], decodeURIComponent(m[2]), { was: params.get("was"), from: params.get("from") });
    if ((m = /^\/rules\/([a-z]+)\/$/.exec(path))) return renderContents(engine, m[1]);
    if (/^\/jump\/$/.test(path)) {
      var query = (params.get("q") || "").trim().slice(0, 1000), target = engine.resolve(query);
      if (target && target.number) {
        var url = ruleUrl(target.doc, target.number) + (target.was ? "?was=" + encodeURIComponent(target.was.number) + "&from=" + target.was.date : "");
        history.replaceState(null, "", url);
        return show(engine);
      }
      history.replaceState(null, "", "/search/?q=" + encodeURIComponent(query));
      return renderResults(engine, query, null);
    }
    if (/^\/search\/$/.test(path)) return renderResults(engine, (params.get("q") || "").trim().slice(0, 1000), params.get("doc"));
    if ((m = /^\/glossary\/(?:(.+)\/)?$/.exec(path))) return renderGlossary(engine, m[1]);
    return renderHome(engine);
  }

  /* Cards (cards/offline.py): found by name as judges type them, shown with rulings and their rules. */
  var cardsLoading = null;
  function loadCards() {
    if (!cardsLoading) {
      cardsLoading = caches.open(PACK_CACHE).then(function (cache) { return cache.match("/offline/cards.json"); }).then(function (response) {
        if (!response) throw new Error("no cards are stored on this device yet");
        return response.json();
      });
    }
    return cardsLoading;
  }
  function nameKey(name) {
    return String(name).normalize("NFKD").replace(/[\u0300-\u036f]/g, "").toLowerCase().replace(/[\u2019'-]/g, "")
      .replace(/[^a-z0-9 ]+/g, " ").split(/\s+/).filter(Boolean).join(" ");
  }
  function findCards(pack, query) {
    var key = nameKey(query), exact = [], starts = [], contains = [];
    pack.cards.forEach(function (c) {
      var keys = [c[1]].concat(c[2]);
      if (keys.indexOf(key) >= 0) exact.push(c);
      else if (keys.some(function (k) { return k.indexOf(key) === 0; })) starts.push(c);
      else if (key.length > 2 && c[1].indexOf(key) >= 0) contains.push(c);
    });
    return exact.length ? exact : starts.length ? starts : contains;
  }
  function renderCard(c) {
    root.appendChild(el("h1", {}, [c[0] + " ", c[3] ? el("span", { className: "mana", text: c[3] }) : null]));
    var faces = c[6] && c[6].length ? c[6] : [{ name: "", type_line: c[4], oracle_text: c[5] }];
    faces.forEach(function (f) {
      var section = el("section", { className: "card-face" });
      if (f.name) section.appendChild(el("h2", { text: f.name + (f.mana_cost ? " " + f.mana_cost : "") }));
      section.appendChild(el("p", { className: "type-line", text: f.type_line }));
      String(f.oracle_text || "").split("\n").forEach(function (line) { section.appendChild(el("p", { className: "oracle", text: line })); });
      root.appendChild(section);
    });
    if (c[8].length) root.appendChild(el("p", { className: "cites" }, ["Rules: "].concat(c[8].map(function (r) { return el("a", { className: "ref chip", href: ruleUrl("cr", r[0]), text: r[1] + " (" + r[0] + ")" }); }))));
    root.appendChild(el("h2", { text: "Rulings" }));
    if (!c[7].length) root.appendChild(el("p", { className: "muted", text: "No rulings for this card." }));
    else root.appendChild(el("ul", { className: "rulings" }, c[7].map(function (r) { return el("li", {}, [el("time", { datetime: r[0], text: r[0] }), " " + r[1]]); })));
  }
  function showCards(path, params) {
    var m = /^\/cards\/(.+)\/$/.exec(path), query = m ? decodeURIComponent(m[1]) : (params.get("q") || "");
    return loadCards().then(function (pack) {
      root.innerHTML = "";
      var found = query ? findCards(pack, query) : [];
      if (found.length === 1 && m) return renderCard(found[0]);
      root.appendChild(el("h1", { text: "Cards" }));
      if (!found.length) { root.appendChild(el("p", { className: "muted", text: query ? "No card named \u201c" + query + "\u201d in the copy kept on this device." : "Type a card name in the box." })); return; }
      root.appendChild(el("ul", { className: "list" }, found.slice(0, 40).map(function (c) {
        return el("li", {}, [el("a", { className: "row", href: "/cards/" + encodeURIComponent(c[0]) + "/" }, [el("span", { text: c[0] }), " ", el("span", { className: "muted", text: c[4] })])]);
      })));
    });
  }

  window.JudgeOfflineReader = { load: load, loadCards: loadCards };
  if (root && /^\/cards\//.test(location.pathname)) {
    showCards(location.pathname, new URLSearchParams(location.search)).catch(function (error) {
      var status = document.getElementById("offline-reader-status");
      if (status) { status.className = "notice"; status.textContent = "Offline, and " + error.message + "."; }
    });
  } else if (root) {
    load().then(show).catch(function (error) {
      var status = document.getElementById("offline-reader-status");
      if (status) { status.className = "notice"; status.textContent = "Offline, and " + error.message + "."; }
    });
  }
})();
