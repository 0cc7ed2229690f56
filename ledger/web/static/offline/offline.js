// The offline app's page-side setup (loaded by the built index.html before the app):
// the service worker that keeps every file for opening with no network, and the web
// manifest in the page's language (one per language: names in en / zh_Hant / zh_Hans).

import { kept } from "../app/scope.js";

const LANGS = ["en", "zh_Hant", "zh_Hans"];

function pageLanguage() {
  const chosen = kept("bigtwo.lang") || "";
  const asked = new URL(window.location.href).searchParams.get("lang");
  const tag = (asked || chosen || navigator.language || "en").replace("-", "_");
  if (LANGS.includes(tag)) return tag;
  if (/^zh_(Hant|TW|HK|MO)/i.test(tag)) return "zh_Hant";
  if (/^zh/i.test(tag)) return "zh_Hans";
  return "en";
}

const manifest = document.querySelector('link[rel="manifest"]');
if (manifest) manifest.href = "manifest." + pageLanguage() + ".webmanifest";

if ("serviceWorker" in navigator && window.isSecureContext) {
  // A new build published at this address takes over at once (sw.js: skipWaiting, claim);
  // a page opened under the old one is told, and the app offers Reload (main.js).
  const before = navigator.serviceWorker.controller;
  navigator.serviceWorker.addEventListener("controllerchange", () => {
    if (!before) return; // the first install: nothing was running before
    document.documentElement.dataset.update = "ready";
    window.dispatchEvent(new Event("bigtwo-update"));
  });
  navigator.serviceWorker.register("sw.js").then(
    (registration) => { document.documentElement.dataset.offline = registration.active ? "cached" : "caching"; },
    () => { document.documentElement.dataset.offline = "none"; },
  );
  navigator.serviceWorker.ready.then(() => { document.documentElement.dataset.offline = "cached"; });
} else {
  document.documentElement.dataset.offline = "none";
}
