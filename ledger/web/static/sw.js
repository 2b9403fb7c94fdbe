// The phone's service worker: it keeps the pages this phone opened, the scripts, the style, the icons and the charts
// it saw, so that a reload, a new tab or a phone woken from sleep shows them while the server cannot be reached (the
// deals tapped meanwhile wait on the phone: waiting.js). The server writes VERSION (a digest of its files), KEPT (what
// to keep at install) and OFFLINE (the page for an address never opened) above this script.
//
// - A page: the server's answer when it comes within PAGE_WAIT_MS, else the copy kept (the answer, when it comes,
//   still replaces the copy); with no server and no copy, the OFFLINE page. A copy in another language than the one
//   the phone last chose with the page's switch is given only when the server cannot be reached at all. Only a
//   page's plain address is kept (`/evenings/3`, not `?recorded=2`), never an answer marked no-store (the write
//   link, the tables' keys), never an error; `/` opens the evening this phone opened last.
// - Scripts, style, icons, manifest: from the cache of this VERSION; a new server is a new worker, which keeps its
//   own files and removes the old caches.
// - Charts and other pictures: the server's, else the copy kept.
// - Never touched: writes (every method but GET), the live feeds, the API, the links that carry a key, the language
//   switch.
"use strict";
var CACHE = "calabresella-" + VERSION;
var PAGE_WAIT_MS = 4000;
var LAST = "/last-evening";
var CHOSEN = "/language-chosen";  // the language the phone chose last with the page's switch, kept beside the pages
var chosenNow = null;  // the same, once heard by this worker (the page it leads to is asked for before it is kept)
var SKIPPED = /^\/(api|write|tables|language)(\/|$)/;

function fresh(path) {  // a request that goes past the browser's own cache
  return new Request(path, { cache: "reload", credentials: "same-origin" });
}

self.addEventListener("install", function (event) {
  event.waitUntil(caches.open(CACHE).then(function (cache) {
    return cache.addAll(KEPT.map(fresh));
  }).then(function () { return self.skipWaiting(); }));
});

self.addEventListener("activate", function (event) {
  event.waitUntil(caches.keys().then(function (names) {
    return Promise.all(names.filter(function (name) {
      return name.indexOf("calabresella-") === 0 && name !== CACHE;
    }).map(function (name) { return caches.delete(name); }));
  }).then(function () { return self.clients.claim(); }));
});

function keepable(url, response) {
  return response.ok && response.type === "basic" && !url.search
    && !/no-store/.test(response.headers.get("Cache-Control") || "");
}

// A page kept under its plain address; an evening's page is also the one `/` opens. The OFFLINE page follows the
// language of the pages opened.
function keep(url, response) {
  return caches.open(CACHE).then(function (cache) {
    var done = [cache.put(url.pathname, response.clone())];
    if (/^\/evenings\/\d+$/.test(url.pathname)) { done.push(cache.put(LAST, new Response(url.pathname))); }
    done.push(cache.match(OFFLINE).then(function (page) {
      var language = response.headers.get("Content-Language");
      if (language && (!page || page.headers.get("Content-Language") !== language)) {
        return fetch(fresh(OFFLINE)).then(function (answer) { return answer.ok && cache.put(OFFLINE, answer); });
      }
    }));
    return Promise.all(done);
  });
}

function copy(url) {  // the page kept for this address, or for `/` the evening opened last
  return caches.open(CACHE).then(function (cache) {
    if (url.pathname !== "/") { return cache.match(url.pathname); }
    return cache.match(LAST).then(function (last) {
      return last && last.text().then(function (path) { return cache.match(path); });
    });
  });
}

function page(event, url) {
  var answer = fetch(event.request).then(function (response) {
    if (keepable(url, response)) { event.waitUntil(keep(url, response.clone())); }
    return response;
  });
  var kept = copy(url);
  var chosen = chosenNow ? Promise.resolve(chosenNow) : caches.match(CHOSEN).then(function (found) {
    return found && found.text();
  });
  var unless = Promise.all([kept, chosen]).then(function (both) {  // for a slow server: the copy, if in that language
    var found = both[0], language = both[1];
    return found && (!language || found.headers.get("Content-Language") === language) ? found : null;
  });
  event.respondWith(new Promise(function (resolve) {
    var given = false;
    function give(response) {
      if (response && !given) { given = true; resolve(response); }
    }
    answer.then(give, function () {
      kept.then(function (found) { return found || caches.match(OFFLINE); }).then(function (found) {
        give(found || Response.error());
      });
    });
    setTimeout(function () { unless.then(give); }, PAGE_WAIT_MS);
  }));
}

function picture(event) {
  event.respondWith(fetch(event.request).then(function (response) {
    if (response.ok) {
      var kept = response.clone();
      event.waitUntil(caches.open(CACHE).then(function (cache) { return cache.put(event.request, kept); }));
    }
    return response;
  }, function () {
    return caches.match(event.request).then(function (found) { return found || Response.error(); });
  }));
}

self.addEventListener("fetch", function (event) {
  var request = event.request, url = new URL(request.url);
  var chosen = request.mode === "navigate" && /^\/language\/([a-z]+)$/.exec(url.pathname);
  if (chosen) {
    chosenNow = chosen[1];
    event.waitUntil(caches.open(CACHE).then(function (cache) { return cache.put(CHOSEN, new Response(chosenNow)); }));
  }
  if (request.method !== "GET" || url.origin !== self.location.origin || SKIPPED.test(url.pathname)
      || url.searchParams.has("key") || (request.headers.get("Accept") || "").indexOf("text/event-stream") >= 0) {
    return;
  }
  if (KEPT.indexOf(url.pathname) >= 0) {
    event.respondWith(caches.match(url.pathname).then(function (found) { return found || fetch(request); }));
  } else if (request.mode === "navigate") {
    page(event, url);
  } else if (request.destination === "image") {
    picture(event);
  }
});

// The page that registered this worker was fetched without it: it asks for its own address to be kept.
self.addEventListener("message", function (event) {
  var url = new URL(event.data && event.data.keep || "/", self.location.origin);
  if (url.origin !== self.location.origin || SKIPPED.test(url.pathname) || url.search) { return; }
  event.waitUntil(fetch(fresh(url.pathname)).then(function (response) {
    return keepable(url, response) && keep(url, response);
  }));
});
