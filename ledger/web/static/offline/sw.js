// The offline app's service worker: every file of the site in one cache, named by the
// site's version, so after the first visit the app opens with no network at all.
// `bigtwo app build` writes the two lines below (the version is a hash of every file).
const VERSION = "unbuilt";
const FILES = [];

const CACHE = "bigtwo-" + VERSION;
const SCOPE = new URL("./", self.location.href);

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
      if (name.startsWith("bigtwo-") && name !== CACHE) await caches.delete(name);
    }
    await self.clients.claim();
  })());
});

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
