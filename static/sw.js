/* judgeapp service worker: rules pages a judge has opened, and every guide, stay usable without a network.
   Network first for pages, guide data and static files alike (a judge must never read a stale rule while
   online); the stored copy answers only when the network does not. Guides are stored whole ahead of use:
   the first time a guide page (or the guide list) is opened, the page asks for /guides/, each
   /guides/<slug>/ and each /api/v1/guides/<slug> (and the files the guide pages use), so any guide runs
   offline once one has been visited; the worker does the same once when it is first activated. */
"use strict";

var CACHE = "judgeapp-offline-v1";   // the same store as before guides: rules kept offline stay kept
var READABLE = /^\/(?:$|rules\/|glossary\/|changes\/|static\/|guides\/|api\/v1\/guides(?:$|\/[^/]+$))/;

self.addEventListener("install", function () {
  // Nothing is fetched ahead here: rules pages and static files are kept as they are first used.
  self.skipWaiting();
});

self.addEventListener("activate", function (event) {
  event.waitUntil(caches.keys().then(function (names) {
    return Promise.all(names.filter(function (n) { return n !== CACHE; }).map(function (n) { return caches.delete(n); }));
  }).then(function () { return self.clients.claim(); }).then(function () {
    // Not waited on: pages are answered while the guides are being stored.
    keepGuides([]);
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
      return inTurn(urls);
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
  if (message.type !== "precache-guides") return;
  event.waitUntil(keepGuides(message.assets).then(function () {
    if (event.source) event.source.postMessage({ type: "guides-precached" });
  }));
});

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
    if (url.search && /^\/guides\//.test(url.pathname)) return cache.match(url.origin + url.pathname);
    return undefined;
  });
}

self.addEventListener("fetch", function (event) {
  var request = event.request;
  var url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin || !READABLE.test(url.pathname)) return;
  event.respondWith(fetch(request).then(function (response) {
    if (response.ok) {
      var copy = response.clone();
      caches.open(CACHE).then(function (cache) { cache.put(request, copy); });
    }
    return response;
  }).catch(function () {
    return caches.open(CACHE).then(function (cache) {
      return stored(cache, request).then(function (hit) {
        return hit || (request.mode === "navigate" ? offlinePage() : Response.error());
      });
    });
  }));
});
