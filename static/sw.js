/* judgeapp service worker: rules pages a judge has opened stay readable without a network.
   Network first for pages and static files alike (a judge must never read a stale rule while
   online); the stored copy answers only when the network does not. */
"use strict";

var CACHE = "judgeapp-offline-v1";
var READABLE = /^\/(?:$|rules\/|glossary\/|changes\/|static\/)/;

self.addEventListener("install", function () {
  // Nothing is fetched ahead: pages and static files are kept as they are first used.
  self.skipWaiting();
});

self.addEventListener("activate", function (event) {
  event.waitUntil(caches.keys().then(function (names) {
    return Promise.all(names.filter(function (n) { return n !== CACHE; }).map(function (n) { return caches.delete(n); }));
  }).then(function () { return self.clients.claim(); }));
});

function offlinePage() {
  return new Response(
    "<!doctype html><meta name=viewport content='width=device-width, initial-scale=1'>" +
    "<link rel=stylesheet href='/static/judgeapp/app.css'><main><h1>Offline</h1>" +
    "<p class=notice>This page has not been opened on this device before, so there is no copy to show without a network.</p>" +
    "<p><a class=button href='/'>Home</a></p></main>",
    { status: 503, headers: { "Content-Type": "text/html; charset=utf-8" } });
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
      return cache.match(request).then(function (hit) {
        return hit || (request.mode === "navigate" ? offlinePage() : Response.error());
      });
    });
  }));
});
