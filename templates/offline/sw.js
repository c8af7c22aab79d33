// The service worker (served as /sw.js by scorekeeper/phone/offline.py). It keeps the app's files and
// the pages of the games this phone holds, so that a game opens and can be entered without a
// connection, and it never shows a kept page while the server can answer:
// - the app's files are fetched at install past the browser's HTTP cache ("reload") into a cache
//   named after all their hashes: a changed byte is a new worker and a new cache, and the old
//   cache is deleted when the new worker takes over;
// - a game's page (to edit or read-only) and the list of games are asked of the server first;
//   only when it can't answer (no connection, or no answer within TIMEOUT) is the copy kept from
//   the last visit shown, marked as a saved copy. A page the server no longer has, or a game no
//   longer in this phone's list, is deleted from the copies;
// - everything else goes to the network untouched and is never kept: every POST (the forms, the
//   outbox's taps), the API, game files, PDF sheets, the live board, error pages.
"use strict";

var FILES = "scorekeeper-files-" + {{ version|tojson }};
var PAGES = "scorekeeper-pages";
var PRECACHE = {{ files|tojson }};
var HOME = {{ home|tojson }};
var GAME_PAGES = {{ pages|tojson }};
var STATIC = {{ static|tojson }};
var OFFLINE = {{ offline|tojson }};
var TIMEOUT = 3000;
var TOKEN = /^[A-Za-z0-9_-]+$/;
var KEPT = {};
PRECACHE.forEach(function (file) { KEPT[file.url] = true; });

self.addEventListener("install", function (event) {
  event.waitUntil(caches.open(FILES).then(function (cache) {
    return cache.addAll(PRECACHE.map(function (file) { return new Request(file.url, { cache: "reload" }); }));
  }).then(function () { return self.skipWaiting(); }));
});

self.addEventListener("activate", function (event) {
  event.waitUntil(caches.keys().then(function (names) {
    return Promise.all(names.filter(function (name) {
      return name.indexOf("scorekeeper-files-") === 0 && name !== FILES;
    }).map(function (name) { return caches.delete(name); }));
  }).then(function () { return self.clients.claim(); }));
});

self.addEventListener("fetch", function (event) {
  var request = event.request;
  if (request.method !== "GET") return;
  var url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (KEPT[url.pathname + url.search]) event.respondWith(kept(request));
  else if (url.pathname.indexOf(STATIC) === 0) event.respondWith(staticFile(event));
  else if (request.mode === "navigate" && isPage(url)) event.respondWith(page(event));
  else if (request.mode === "navigate") event.respondWith(fetch(request).catch(offline));
});

// A page asks for its copy to be kept again when a tap changed it on the screen (sw-register.js).
self.addEventListener("message", function (event) {
  if (!event.data || typeof event.data.save !== "string") return;
  var url = new URL(event.data.save, self.location.href);
  url.hash = "";
  if (url.origin !== self.location.origin || !isPage(url)) return;
  event.waitUntil(fetch(url.href, { credentials: "same-origin", cache: "no-store" })
    .then(function (response) { return keep(url.href, response); })
    .catch(function () { /* no connection: the copy stays as it was */ }));
});

function isPage(url) {
  if (url.search) return false;
  if (url.pathname === HOME) return true;
  return GAME_PAGES.some(function (prefix) {
    return url.pathname.indexOf(prefix) === 0 && TOKEN.test(url.pathname.slice(prefix.length));
  });
}

function kept(request) {
  return caches.open(FILES).then(function (cache) { return cache.match(request); })
    .then(function (found) { return found || fetch(request); });
}

// A file of another build, linked by a page newer or older than this worker: the server's (kept,
// since its link names its content), else the one of this build.
function staticFile(event) {
  var request = event.request;
  return fetch(request).then(function (response) {
    if (response.status === 200) {
      var copy = response.clone();
      event.waitUntil(caches.open(FILES).then(function (cache) { return cache.put(request, copy); }));
    }
    return response;
  }, function () {
    return caches.open(FILES).then(function (cache) { return cache.match(request, { ignoreSearch: true }); })
      .then(function (found) { return found || Response.error(); });
  });
}

function page(event) {
  var request = event.request;
  var fresh = fetch(request);
  // Cloned before the page reads the body: this handler is the first to see the response.
  event.waitUntil(fresh.then(function (response) { return keep(request.url, response.clone()); })
    .catch(function () { /* no connection */ }));
  return new Promise(function (resolve) {
    var answered = false;
    function answer(response) {
      if (!answered) { answered = true; resolve(response); }
    }
    function fallBack() {
      saved(request.url).catch(function () { return null; }).then(function (copy) {
        if (copy) answer(copy);
        else fresh.then(answer, function () { answer(offline()); });
      });
    }
    var timer = setTimeout(fallBack, TIMEOUT);
    fresh.then(function (response) { clearTimeout(timer); answer(response); },
               function () { clearTimeout(timer); fallBack(); });
  });
}

function keep(url, response) {
  return caches.open(PAGES).then(function (cache) {
    if (response.status === 404 || response.status === 410) return cache.delete(url);
    if (response.status !== 200 || response.type !== "basic" || response.redirected) return null;
    var stored = cache.put(url, response.clone());
    if (new URL(url).pathname !== HOME) return stored;
    return Promise.all([stored, response.text().then(function (html) { return prune(cache, html); })]);
  });
}

// The list of games names every game this phone holds: the copies of any other game go.
function prune(cache, html) {
  var held = {};
  var link = /href="([^"?#]+)"/g;
  for (var found = link.exec(html); found; found = link.exec(html)) held[new URL(found[1], self.location.href).pathname] = true;
  return cache.keys().then(function (requests) {
    return Promise.all(requests.map(function (request) {
      var path = new URL(request.url).pathname;
      return path === HOME || held[path] ? null : cache.delete(request);
    }));
  });
}

// The kept copy of a page, marked so that its own script shows the "saved copy" banner.
function saved(url) {
  return caches.open(PAGES).then(function (cache) { return cache.match(url, { ignoreVary: true }); })
    .then(function (copy) {
      if (!copy) return null;
      return copy.text().then(function (html) {
        return new Response(html.replace("<html", "<html data-saved-copy"), { headers: headersOf(copy) });
      });
    });
}

function offline() {
  return caches.open(FILES).then(function (cache) { return cache.match(OFFLINE); }).then(function (copy) {
    if (!copy) return Response.error();
    return copy.text().then(function (html) {
      return new Response(html, { status: 503, statusText: "Offline", headers: headersOf(copy) });
    });
  });
}

// A kept response's headers (its security headers included) for a body of another length.
function headersOf(response) {
  var headers = new Headers(response.headers);
  headers.delete("Content-Length");
  return headers;
}
