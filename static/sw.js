/* judgeapp service worker: the current rules, their search, every guide and the pages a judge has
   opened stay usable without a network.
   - The offline pack (search/offline): the current CR, MTR, IPG and JAR with a compact search index,
     kept whole in its own cache the first time the site is opened, and replaced when the server says a
     new version was published (checked when a page opens and when the connection returns). Without a
     network, the number box, the live results and every rules page, contents, glossary and search
     page that has no stored copy are answered from it (/offline/, static/judgeapp/offline-reader.js).
   - Network first for pages, guide data and static files alike (a judge must never read a stale rule
     while online); the stored copy answers only when the network does not. Guides are stored whole
     ahead of use: the first time a guide page (or the guide list) is opened, the page asks for
     /guides/, each /guides/<slug>/ and each /api/v1/guides/<slug> (and the files the guide pages use),
     so any guide runs offline once one has been visited; the worker does the same once when it is
     first activated.
   - The pages reachable from the home page (keepHome): the home page (the installed app's start URL,
     /?source=home-screen, is answered by it), each document's "What changed", the shuffle check, the
     event list, each event's page and round clock, kept whenever a page opens online; an event's call
     and player pages as they are opened. A navigation with a query falls back to the page kept without it. */
"use strict";

importScripts("/static/judgeapp/offline-search.js");

var CACHE = "judgeapp-offline-v1";   // the same store as before guides: rules kept offline stay kept
var PACK_CACHE = "judgeapp-pack";     // the offline pack: one version at a time
var READABLE = /^\/(?:$|rules\/|glossary\/|changes\/|static\/|guides\/|search\/|jump\/|offline\/$|manifest\.webmanifest$|cards\/(?!offline\/)|tools\/|check\/shuffle\/$|events\/(?:\d+\/(?:clock\/|report\/|calls\/\d+\/|players\/[^/]+\/)?)?$|api\/v1\/guides(?:$|\/[^/]+$))/;
var SHELL = ["/", "/check/shuffle/", "/offline/", "/static/judgeapp/offline-search.js", "/static/judgeapp/offline-reader.js",
             "/static/judgeapp/app.css", "/static/judgeapp/app.js", "/static/judgeapp/offline.js",
             "/static/judgeapp/compute-queue.js",
             "/static/judgeapp/theme.js", "/manifest.webmanifest", "/tools/deck-check/"];

self.addEventListener("install", function () {
  // Nothing is fetched ahead here: rules pages and static files are kept as they are first used.
  self.skipWaiting();
});

self.addEventListener("activate", function (event) {
  event.waitUntil(caches.keys().then(function (names) {
    return Promise.all(names.filter(function (n) { return n !== CACHE && n !== PACK_CACHE; }).map(function (n) { return caches.delete(n); }));
  }).then(function () { return self.clients.claim(); }).then(function () {
    // Not waited on: pages are answered while the rules and the guides are being stored.
    syncPack().then(function () { return keepGuides([]); });
  }));
});

/* Store the guide list, every guide page and every guide's JSON, and the files the page named. */
function precacheGuides(assets) {
  return caches.open(CACHE).then(function (cache) {
    var keep = function (url) {
      return fetch(url, { credentials: "same-origin" }).then(function (response) {
        if (response.ok) return cache.put(url, response);
      }).catch(function () { /* offline now: kept the next time */ });
    };
    // One request at a time: a tablet on hall Wi-Fi, and a small server, are not flooded.
    var inTurn = function (urls) {
      return urls.reduce(function (chain, url) { return chain.then(function () { return keep(url); }); }, Promise.resolve());
    };
    var same = (assets || []).filter(function (a) { return typeof a === "string" && new URL(a, self.location.href).origin === self.location.origin; });
    return inTurn(same).then(function () {
      return fetch("/guides/", { credentials: "same-origin" });
    }).then(function (response) {
      if (!response.ok) return null;
      return cache.put("/guides/", response.clone()).then(function () { return response.text(); });
    }).then(function (html) {
      // The stylesheets and scripts the guide pages use (hashed names in production).
      var files = [], pattern = /(?:src|href)="(\/static\/[^"]+)"/g, match;
      while (html && (match = pattern.exec(html))) if (files.indexOf(match[1]) < 0) files.push(match[1]);
      return inTurn(files);
    }).then(function () {
      return fetch("/api/v1/guides", { credentials: "same-origin" });
    }).then(function (response) {
      if (!response.ok) return null;
      var copy = response.clone();
      return cache.put("/api/v1/guides", copy).then(function () { return response.json(); });
    }).then(function (guides) {
      if (!Array.isArray(guides)) guides = (guides && guides.results) || [];
      var urls = [];
      guides.forEach(function (g) { urls.push("/guides/" + g.slug + "/", "/api/v1/guides/" + g.slug); });
      return inTurn(urls).then(function () {
        // The files a guide page uses beyond the list's (the player picker, the penalty preview).
        return guides.length ? cache.match("/guides/" + guides[0].slug + "/") : null;
      }).then(function (hit) { return hit ? hit.text() : ""; }).then(function (html) {
        var files = [], pattern = /(?:src|href)="(\/static\/[^"]+)"/g, match;
        while (html && (match = pattern.exec(html))) if (files.indexOf(match[1]) < 0) files.push(match[1]);
        return inTurn(files);
      });
    }).catch(function () { /* the guide list is not reachable: each guide is kept as it is opened */ });
  });
}

var precaching = null;
function keepGuides(assets) {
  if (!precaching) precaching = precacheGuides(assets).finally(function () { precaching = null; });
  return precaching;
}

self.addEventListener("message", function (event) {
  var message = event.data || {};
  if (message.type === "sync-pack") {
    event.waitUntil(syncPack().then(function () { return keepHome(); }));
    return;
  }
  if (message.type !== "precache-guides") return;
  event.waitUntil(keepGuides(message.assets).then(function () {
    if (event.source) event.source.postMessage({ type: "guides-precached" });
  }));
});

/* ------------------------------------------------------------------ the pages reachable from home */

/* Every page a judge reaches from the home page, kept whenever a page opens online (at most every five
   minutes): the home page itself (the start URL of the installed app), its "What changed" pages, the
   shuffle check, the event list and each event's page and round clock linked from it, and the files they
   use (contents and glossary are read from the pack). A page that is not answered (signed out: the
   sign-in page) is not kept. The call and player pages of an event are kept
   as they are opened. */
var HOME_PAGES = ["/", "/check/shuffle/", "/events/"];
var EVENT_LINK = /href="(\/events\/\d+\/(?:clock\/)?)"/g;
// The home page's "What changed" of each current document (its first page; the rest as it is opened).
var CHANGES_LINK = /href="(\/changes\/[a-z]+\/\d{4}-\d{2}-\d{2}\/)"/g;
var keptHomeAt = 0, keepingHome = null;

function keepHome() {
  if (keepingHome) return keepingHome;
  if (Date.now() - keptHomeAt < 5 * 60 * 1000) return Promise.resolve();
  keepingHome = caches.open(CACHE).then(function (cache) {
    var files = [];
    var keepPage = function (url) {
      return fetch(url, { credentials: "same-origin" }).then(function (response) {
        if (!response.ok || response.redirected) return "";
        return cache.put(url, response.clone()).then(function () { return response.text(); });
      }).then(function (html) {
        var pattern = /(?:src|href)="(\/static\/[^"]+)"/g, match;
        while ((match = pattern.exec(html))) if (files.indexOf(match[1]) < 0) files.push(match[1]);
        return html;
      }, function () { return ""; });
    };
    var inTurn = function (urls) {
      return urls.reduce(function (chain, url) { return chain.then(function () { return keepPage(url); }); }, Promise.resolve(""));
    };
    var events = [], changes = [];
    return HOME_PAGES.reduce(function (chain, url) {
      return chain.then(function () { return keepPage(url); }).then(function (html) {
        var match;
        if (url === "/events/") while ((match = EVENT_LINK.exec(html))) if (events.indexOf(match[1]) < 0) events.push(match[1]);
        if (url === "/") while ((match = CHANGES_LINK.exec(html))) if (changes.indexOf(match[1]) < 0) changes.push(match[1]);
      });
    }, Promise.resolve()).then(function () {
      events.forEach(function (page) {
        var clock = page.replace(/clock\/$/, "") + "clock/";
        if (events.indexOf(clock) < 0) events.push(clock);
      });
      return inTurn(changes.concat(events.slice(0, 40)));
    }).then(function () {
      return Promise.all(files.map(function (file) {
        return cache.match(file).then(function (hit) {
          if (hit) return null;
          return fetch(file, { credentials: "same-origin" }).then(function (r) { if (r.ok) return cache.put(file, r); }).catch(function () {});
        });
      }));
    }).then(function () { keptHomeAt = Date.now(); });
  }).catch(function () { /* offline: kept the next time */ }).finally(function () { keepingHome = null; });
  return keepingHome;
}

/* ------------------------------------------------------------------ the offline pack */

var syncing = null;
var engineFor = { version: null, engine: null };

function tellClients(message) {
  return self.clients.matchAll({ includeUncontrolled: true }).then(function (clients) {
    clients.forEach(function (client) { client.postMessage(message); });
  });
}

/* Ask the server which pack is current; fetch it when this device's copy is older, then the page
   that reads it. One pass at a time; offline it changes nothing. */
function syncPack() {
  if (syncing) return syncing;
  var started = Date.now();
  syncing = Promise.all([fetch("/offline/manifest.json", { cache: "no-store", credentials: "same-origin" }), caches.open(PACK_CACHE)])
    .then(function (both) {
      var response = both[0], cache = both[1];
      if (!response.ok) return null;
      return response.json().then(function (manifest) {
        return cache.match("/offline/manifest.json").then(function (stored) {
          return stored ? stored.json() : null;
        }).then(function (have) {
          if (have && have.version === manifest.version) return cache.match("/offline/pack.json").then(function (hit) { return hit ? have : fetchPack(cache, manifest); });
          return fetchPack(cache, manifest);
        }).then(function (kept) {
          if (kept) tellClients({ type: "pack-ready", version: kept.version, documents: kept.documents, synced_at: kept.synced_at, took_ms: Date.now() - started });
          return syncCards(cache).then(function () { return kept; });
        });
      });
    })
    .catch(function () { return null; /* offline: the copy kept stays */ })
    .finally(function () { syncing = null; });
  return syncing;
}

function fetchPack(cache, manifest) {
  return fetch(manifest.url, { credentials: "same-origin" }).then(function (response) {
    if (!response.ok) return null;
    return response.arrayBuffer().then(function (body) {
      var kept = Object.assign({}, manifest, { synced_at: new Date().toISOString(), stored_bytes: body.byteLength });
      var json = { headers: { "Content-Type": "application/json" } };
      // The pack first, then the note of its version: a pass cut short leaves the old note, so it is fetched again.
      return cache.put("/offline/pack.json", new Response(body, json))
        .then(function () { return keepShell(); })
        .then(function () { return cache.put("/offline/manifest.json", new Response(JSON.stringify(kept), json)); })
        .then(function () { engineFor.version = null; engineFor.engine = null; return kept; });
    });
  });
}

/* The cards (cards/offline.py): kept beside the rules, replaced when an import or a new CR changes them. */
function syncCards(cache) {
  return fetch("/cards/offline/manifest.json", { cache: "no-store", credentials: "same-origin" }).then(function (response) {
    if (!response.ok) return null;
    return response.json().then(function (manifest) {
      return cache.match("/offline/cards-manifest.json").then(function (stored) { return stored ? stored.json() : null; }).then(function (have) {
        if (have && have.version === manifest.version) return have;
        return fetch(manifest.url, { credentials: "same-origin" }).then(function (pack) {
          if (!pack.ok) return null;
          return pack.arrayBuffer().then(function (body) {
            var json = { headers: { "Content-Type": "application/json" } };
            return cache.put("/offline/cards.json", new Response(body, json)).then(function () {
              return cache.put("/offline/cards-manifest.json", new Response(JSON.stringify(manifest), json));
            }).then(function () { tellClients({ type: "cards-ready", version: manifest.version, count: manifest.count }); return manifest; });
          });
        });
      });
    });
  }).catch(function () { return null; });
}

/* The reader page and the files it needs (hashed names in production, read from the page), so that a
   page never opened can be shown offline. */
function keepShell() {
  return caches.open(CACHE).then(function (cache) {
    var keep = function (url) {
      return fetch(url, { credentials: "same-origin" }).then(function (response) {
        if (response.ok) return cache.put(url, response);
      }).catch(function () {});
    };
    // Pages first, then every static file they name (hashed names in production).
    var pages = SHELL.filter(function (url) { return !/^\/static\//.test(url) && !/\.webmanifest$/.test(url); });
    return Promise.all(pages.map(function (page) {
      return fetch(page, { credentials: "same-origin" }).then(function (response) {
        if (!response.ok) return [];
        return cache.put(page, response.clone()).then(function () { return response.text(); }).then(function (html) {
          var files = [], pattern = /(?:src|href)="(\/static\/[^"]+)"/g, match;
          while ((match = pattern.exec(html))) files.push(match[1]);
          return files;
        });
      }).catch(function () { return []; });
    })).then(function (lists) {
      var files = SHELL.filter(function (url) { return pages.indexOf(url) < 0; });
      lists.forEach(function (list) { list.forEach(function (f) { if (files.indexOf(f) < 0) files.push(f); }); });
      return Promise.all(files.map(keep));
    });
  });
}

/* The search engine of the stored pack; a pack whose card words are derived here reads them from the
   stored card copy (JudgeOfflineSearch.cardWords), and is built again when that copy changes. */
function offlineEngine() {
  return caches.open(PACK_CACHE).then(function (cache) {
    return Promise.all([cache.match("/offline/manifest.json"), cache.match("/offline/pack.json"),
                        cache.match("/offline/cards-manifest.json"), cache]);
  }).then(function (found) {
    if (!found[0] || !found[1]) return null;
    return Promise.all([found[0].json(), found[2] ? found[2].json() : null]).then(function (notes) {
      var kept = notes[0], cardsVersion = notes[1] ? notes[1].version : null;
      if (engineFor.engine && engineFor.version === kept.version && engineFor.cards === cardsVersion) return engineFor;
      return found[1].json().then(function (pack) {
        if (pack.card_words !== "cards") return pack;
        return found[3].match("/offline/cards.json").then(function (hit) { return hit ? hit.json() : null; }).then(function (cards) {
          pack.cards = cards ? JudgeOfflineSearch.cardWords(cards, pack.stopwords) : {};
          return pack;
        });
      }).then(function (pack) {
        engineFor = { version: kept.version, cards: cardsVersion, engine: JudgeOfflineSearch.engine(pack), kept: kept };
        return engineFor;
      });
    });
  });
}

function escapeHtml(text) {
  return String(text).replace(/[&<>"']/g, function (c) { return { "&": "&amp;", "<": "&lt;", ">": "&gt;", "\"": "&quot;", "'": "&#39;" }[c]; });
}

function copyDate(kept) {
  return (kept.documents || []).map(function (d) { return d.doc.toUpperCase() + " " + d.effective_date; }).join(", ");
}

/* Results as you type, from the copy on this device (the markup of rulesref/_results.html). */
function offlineFragment(url) {
  // a question up to 1,000 characters, as the server reads it (rulesref.pages.views.MAX_QUERY)
  var query = (url.searchParams.get("q") || "").trim().slice(0, 1000), doc = url.searchParams.get("doc") || null;
  return offlineEngine().then(function (found) {
    if (!found) return new Response("<p class=\"notice offline-note\">Offline, and no copy of the rules is stored on this device yet.</p>", { headers: { "Content-Type": "text/html; charset=utf-8" } });
    var html = "<p class=\"offline-note muted\">Offline: searching the copy from " + escapeHtml(copyDate(found.kept)) + "</p>";
    var target = found.engine.resolve(query);
    if (target && target.number) {
      var href = "/rules/" + target.doc + "/" + encodeURIComponent(target.number) + "/" + (target.was ? "?was=" + encodeURIComponent(target.was.number) + "&from=" + target.was.date : "");
      html += "<ul class=\"results jumps\"><li><a class=\"hit jump-hit\" href=\"" + href + "\"><span class=\"where\">Go to</span> <span class=\"num\">" +
        escapeHtml(target.doc.toUpperCase() + " " + target.number) + "</span>" + (target.was ? " (was " + escapeHtml(target.was.number) + " in " + target.was.date + ")" : "") + "</a></li></ul>";
    }
    var hits = found.engine.search(query, { doc: doc, limit: 8 });
    if (hits.length) {
      html += "<ul class=\"results\">" + hits.map(function (h) {
        return "<li><a class=\"hit\" href=\"/rules/" + h.doc + "/" + encodeURIComponent(h.number) + "/\"><span class=\"where\">" + h.doc.toUpperCase() +
          "</span><span class=\"hit-head\"><span class=\"num\">" + escapeHtml(h.number) + "</span>" + (h.title ? " <span class=\"title\">" + escapeHtml(h.title) + "</span>" : "") +
          "</span><span class=\"snippet\">" + escapeHtml(h.snippet) + "</span></a></li>";
      }).join("") + "</ul>";
    } else if (!target) {
      html += "<p class=\"muted\">Nothing found for \u201c" + escapeHtml(query) + "\u201d.</p>";
    }
    return new Response(html, { headers: { "Content-Type": "text/html; charset=utf-8", "X-Judgeapp-Offline": "1" } });
  });
}

function offlinePage() {
  return new Response(
    "<!doctype html><meta name=viewport content='width=device-width, initial-scale=1'>" +
    "<link rel=stylesheet href='/static/judgeapp/app.css'><main><h1>Offline</h1>" +
    "<p class=notice>This page has not been opened on this device before, so there is no copy to show without a network.</p>" +
    "<p><a class=button href='/'>Home</a> <a class=button href='/guides/'>Guides</a></p></main>",
    { status: 503, headers: { "Content-Type": "text/html; charset=utf-8" } });
}

/* A guide page opened with answers (?rel=...&a=...) falls back to the stored page without them: the
   script in the page walks the answers from the URL. */
function stored(cache, request) {
  return cache.match(request).then(function (hit) {
    if (hit) return hit;
    var url = new URL(request.url);
    // The home screen's start URL (/?source=home-screen) and any page opened with a query: the page.
    if (url.search && (request.mode === "navigate" || /^\/(guides|rules)\//.test(url.pathname))) return cache.match(url.origin + url.pathname);
    return undefined;
  });
}

/* Pages the reader can show from the pack: rules, contents, glossary, search and the number box. */
var FROM_PACK = /^\/(?:$|rules\/[a-z]+\/(?:[^/]+\/)?$|glossary\/|search\/$|jump\/$|cards\/(?:.+\/)?$)/;

self.addEventListener("fetch", function (event) {
  var request = event.request;
  var url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin) return;
  if (url.pathname === "/search/fragment/") {
    event.respondWith(fetch(request).catch(function () { return offlineFragment(url); }));
    return;
  }
  if (!READABLE.test(url.pathname)) return;
  event.respondWith(fetch(request).then(function (response) {
    if (response.ok && !/^\/(?:search|jump)\/$/.test(url.pathname)) {
      var copy = response.clone();
      caches.open(CACHE).then(function (cache) { cache.put(request, copy); });
    }
    return response;
  }).catch(function () {
    return caches.open(CACHE).then(function (cache) {
      // The number box and search always read the pack offline; other pages their stored copy first.
      var lookup = /^\/(?:search|jump)\/$/.test(url.pathname) ? Promise.resolve(undefined) : stored(cache, request);
      return lookup.then(function (hit) {
        if (hit) return hit;
        if (request.mode === "navigate" && FROM_PACK.test(url.pathname)) {
          return cache.match("/offline/").then(function (shell) { return shell || offlinePage(); });
        }
        return request.mode === "navigate" ? offlinePage() : Response.error();
      });
    });
  }));
});
