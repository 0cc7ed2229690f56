// The offline app's service worker: every file of the site in one cache, named by the
// app's scope and the site's version, so after the first visit the app opens with no
// network at all. `bigtwo app build` writes the two lines below (the version is a hash
// of every file).
const VERSION = "unbuilt";
const FILES = [];

// The folder the app is published in. Apps published under one origin (USER.github.io/
// club-a/ and /club-b/) share its caches: each names its own by its scope (a path holds
// no "#"), and on an update deletes only its own older ones (docs/offline.md).
const SCOPE = new URL("./", self.location.href);
const MINE = "bigtwo@" + SCOPE.pathname + "#";
const CACHE = MINE + VERSION;
const BEFORE_SCOPES = "bigtwo-"; // a cache named by version alone, by a build before this one

self.addEventListener("install", (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(CACHE);
    // cache: "reload": the files as the host serves them now, never an older HTTP copy.
    await cache.addAll(FILES.map((f) => new Request(new URL(f, SCOPE), { cache: "reload" })));
    await self.skipWaiting();
  })());
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name.startsWith(MINE) && name !== CACHE) await caches.delete(name);
      else if (name.startsWith(BEFORE_SCOPES)) await forgetOwnFiles(name);
    }
    await self.clients.claim();
  })());
});

// An older build's cache, named by its version alone: its files of this app go, another
// app's stay (that app's own service worker deletes it when it updates); emptied, it goes.
async function forgetOwnFiles(name) {
  const cache = await caches.open(name);
  for (const request of await cache.keys()) {
    if (request.url.startsWith(SCOPE.href)) await cache.delete(request);
  }
  if (!(await cache.keys()).length) await caches.delete(name);
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== SCOPE.origin || !url.href.startsWith(SCOPE.href)) return; // a hub: the network
  event.respondWith((async () => {
    const cache = await caches.open(CACHE);
    const path = url.pathname.endsWith("/") ? new URL("index.html", url).href : url.origin + url.pathname;
    const hit = await cache.match(path);
    if (hit) return hit;
    if (request.mode === "navigate") {
      const page = await cache.match(new URL("index.html", SCOPE).href);
      if (page) return page;
    }
    return fetch(request);
  })());
});
