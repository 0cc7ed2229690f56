// The engine interface (engine.js) inside the phone: the same Python engine as the
// hub (ledger/engine/dispatch.py), run by Pyodide in a module Web Worker
// (engine-worker-thread.js) over a ledger kept in this browser.
//
// The page never waits for Pyodide to draw: while the engine loads, a read is answered
// from the last answer to the same read (kept in localStorage), and writes wait in the
// worker's queue and are recorded, in order, once it is ready. A write's promise
// resolves only when the worker has made it durable, so "saved" means saved.
// On a first open there is no last answer: the words, the presets and each preset's
// deal facts come from static/first.json, which `bigtwo app build` wrote with the same
// engine (ledger/web/offline.py), a ledger never opened has no sessions, and a line
// says what is loading, how much, and that it happens once.
//
// <html data-engine="loading|ready|failed" data-persist="granted|refused|unknown">

import { EngineError, opMethods } from "./engine.js";
import { phoneLedger } from "./engine-worker-ledger.js";
import { keep, kept } from "./scope.js";

// The kept answers, by the shape of the ops' answers: a new shape starts a new key, so an
// answer kept by an older app is never read as a newer one (v2: every answer a view record).
const CACHE = "bigtwo.offline.answers.v2";
const CACHED = new Set(["words", "sessions", "board", "log", "deals", "settle", "history", "presets", "last_setup"]);
const root = document.documentElement;
// Why the worker could not open the ledger, by the error's name: a word of the page.
const FAILURES = { NoModificationAllowedError: "other_tab", TimeoutError: "storage_stuck" };
const SLOW_MS = 45000; // Pyodide starts in 5–15 s on a mid-range phone (docs/performance.md)

/** The app's language for a phone's tag, as ledger/core/i18n.normalize reads it. */
export function langOf(tag) {
  const low = String(tag || "").trim().split(".")[0].replace(/-/g, "_").toLowerCase();
  if (low === "zh" || low.startsWith("zh_")) {
    const parts = low.split("_").slice(1);
    if (parts.includes("hans")) return "zh_Hans"; // the script decides over the region
    return parts.some((p) => ["hant", "tw", "hk", "mo"].includes(p)) ? "zh_Hant" : "zh_Hans";
  }
  return "en";
}

async function loadFirst(url) {
  try {
    const found = await fetch(url);
    return found.ok ? await found.json() : null;
  } catch (e) {
    return null; // the engine answers once it is ready
  }
}

function loadCache() {
  try { return JSON.parse(kept(CACHE) || "{}") || {}; } catch (e) { return {}; }
}

function storeCache(cache) {
  keep(CACHE, JSON.stringify(cache)); // refused (full, private): no last state
}

/** A line at the top of the page for what the engine must say itself (storage refused,
 * the engine failed), in the page's words once they are known. Text, never markup. */
function note(text, tone, id = "offline-note") {
  let box = document.getElementById(id);
  if (!box) {
    box = document.createElement("p");
    box.id = id;
    box.className = "banner " + (tone || "");
    box.setAttribute("role", tone === "bad" ? "alert" : "status");
    document.body.prepend(box);
  }
  box.textContent = text;
}

export async function create(options = {}) {
  root.dataset.engine = "loading";
  const cache = loadCache();
  // Any kept answer means this phone's ledger was opened before (by a version that kept
  // no mark, too): it may hold tables, so none is assumed away.
  if (!cache.opened && Object.keys(cache).length) cache.opened = true;
  const first = await loadFirst(options.firstUrl || new URL("../first.json", import.meta.url));
  let worker = null;
  const pending = new Map();
  const watchers = new Set();
  let language = "";
  // No language chosen on this phone: the phone's own (zh-HK: 繁體), as the hub takes
  // the browser's Accept-Language; the engine reads any tag (ledger.core.i18n.normalize).
  const spoken = () => language || (navigator.languages && navigator.languages[0]) || navigator.language || "";
  let next = 1;
  let state = "loading";
  let failure = "";
  let words = null;
  const shipped = () => (first && (first.langs[langOf(spoken())] || first.langs.en)) || null;
  const waiting = []; // reads with no cached answer, until the engine is ready
  const engine = { kind: "worker", marksState: true, timings: null, last: null };

  function say(key, fallback, tone, params, id) {
    let text = (words && words[key]) || fallback;
    for (const [k, v] of Object.entries(params || {})) text = text.replace("{" + k + "}", v);
    note(text, tone, id);
  }

  function startWorker() {
    if (worker) return;
    worker = new Worker(options.workerUrl || new URL("./engine-worker-thread.js", import.meta.url),
      { type: "module" });
    worker.onmessage = onMessage;
    worker.onerror = onError;
  }
  // The worker starts right after the next frame is painted: the page draws its first
  // screen from the kept answers in the task that called create(), and the worker's
  // start (its modules, Pyodide's WebAssembly compile) would share the phone's cores
  // with that first paint. A read with no kept answer or a write starts it at once
  // (send); the timer, where a hidden page paints no frame.
  requestAnimationFrame(() => setTimeout(startWorker, 0));
  // Never ready on this phone before: the engine's download, said once.
  const firstOpen = !cache.opened;
  if (firstOpen && first) {
    words = shipped().words.words;
    root.dataset.engineLoad = "first";
    say("engine_download", "Loading the scorekeeper: {mb} MB, only this once; then this app works offline.", "",
      { mb: (first.bytes / 1e6).toFixed(1) }, "engine-progress");
  }
  setTimeout(startWorker, 1000);
  // A start that takes far longer than Pyodide ever does (a storage lock the browser has
  // not let go of, say) is said, never left as a silent "loading": the kept state stays
  // on screen and taps stay queued, and a reload is safe.
  let slow = false;
  setTimeout(() => {
    if (state !== "loading") return;
    slow = true;
    root.dataset.engineSlow = "true";
    say("engine_slow", "The scorekeeper is still starting. If this lasts, close this app's other "
      + "tabs and reload: nothing kept is lost.", "");
  }, options.slowMs || SLOW_MS);

  function onMessage(event) {
    const data = event.data;
    if (data.type === "ready") {
      state = "ready";
      if (!cache.opened) { cache.opened = true; storeCache(cache); }
      const progress = document.getElementById("engine-progress");
      if (progress) progress.remove();
      if (slow) {
        const box = document.getElementById("offline-note");
        if (box) box.remove();
        delete root.dataset.engineSlow;
        delete root.dataset.engineLoad;
      }
      engine.timings = data.timings;
      root.dataset.engine = "ready";
      for (const go of waiting.splice(0)) go();
      for (const w of watchers) w.onChange({ engine: "ready" }); // redraw from the real ledger
      return;
    }
    if (data.type === "failed") {
      state = "failed";
      failure = FAILURES[data.name] || data.reason;
      root.dataset.engine = "failed";
      if (failure === "other_tab") say("other_tab", "The ledger is open in another tab of this app.", "bad");
      else if (failure === "storage_stuck") say("storage_stuck", "This browser did not open the ledger. Reload the app: nothing kept is lost.", "bad");
      else say("engine_failed", "The scorekeeper could not start: {reason}", "bad", { reason: failure });
      for (const go of waiting.splice(0)) go();
      return;
    }
    const job = pending.get(data.id);
    if (!job) return;
    pending.delete(data.id);
    if (data.failed) {
      job.reject(new EngineError(data.failed, { status: 503, retry: true }));
      return;
    }
    const reply = JSON.parse(data.answer);
    engine.last = { op: job.op, ms: data.ms, saved: data.saved };
    if (reply.error) {
      job.reject(new EngineError(reply.error.message, { status: reply.error.status, retry: reply.error.status >= 500 }));
      return;
    }
    if (CACHED.has(job.op)) {
      cache[job.cacheKey] = reply.ok;
      storeCache(cache);
    }
    if (job.op === "words") words = reply.ok.words;
    job.resolve(reply.ok);
  }
  function onError(event) {
    state = "failed";
    root.dataset.engine = "failed";
    say("engine_failed", "The scorekeeper could not start: {reason}", "bad", { reason: event.message || "worker" });
    for (const [, job] of pending) job.reject(new EngineError(event.message || "worker", { status: 503, retry: true }));
    pending.clear();
  }


  // Kept answers by the language they were said in: the phone's own until one is chosen.
  const keyOf = (op, args) => op + "|" + langOf(spoken()) + "|" + JSON.stringify(args || {});

  /** The answer shipped with the site for a read, while the engine loads (else undefined). */
  function fromSite(op) {
    const here = shipped();
    if (!here) return undefined;
    if (op === "words") return here.words;
    if (op === "presets") return here.presets;
    if (cache.opened) return undefined; // a ledger this phone has opened may hold anything
    if (op === "sessions") return { sessions: [], total: 0, next: null };
    if (op === "last_setup") return null;
    return undefined;
  }

  function send(op, args) {
    const cacheKey = keyOf(op, args);
    startWorker();
    return new Promise((resolve, reject) => {
      const id = next++;
      pending.set(id, { resolve, reject, op, cacheKey });
      worker.postMessage({ id, op, args: args || {}, lang: spoken() });
    });
  }

  function read(op, args) {
    const cacheKey = keyOf(op, args);
    if (state === "loading" && cacheKey in cache) return Promise.resolve(cache[cacheKey]);
    const site = state === "loading" ? fromSite(op) : undefined;
    if (site !== undefined) return Promise.resolve(site);
    if (state === "failed") return Promise.reject(new EngineError(failure, { status: 503, retry: true }));
    return send(op, args);
  }

  const write = (op) => (key, args) => send(op, { ...args, key });
  const clean = (params) => Object.fromEntries(Object.entries(params).filter(([, v]) => v !== undefined && v !== null && v !== ""));

  // Storage this browser promises to keep (asked once; refusal said on the page).
  if (navigator.storage && navigator.storage.persist) {
    navigator.storage.persist().then(async (granted) => {
      root.dataset.persist = granted ? "granted" : "refused";
      if (!granted) {
        if (!words) await read("words", {}).then((w) => { words = w.words; }).catch(() => {});
        say("storage_refused", "This browser did not promise to keep the ledger.", "");
      }
    }, () => { root.dataset.persist = "unknown"; });
  } else {
    root.dataset.persist = "unknown";
  }

  Object.assign(engine, {
    useLanguage(code) { language = code || ""; },
    ready: () => (state === "loading" ? new Promise((r) => waiting.push(r)) : Promise.resolve()),
    words: async () => {
      const found = await read("words", {});
      words = found.words;
      return found;
    },
    access: async () => ({ level: "keeper" }), // this phone's own ledger
    ...opMethods(read, (op, key, args) => send(op, { ...args, key })),
    // A preset's deal facts as a board offers them ({alone, teams}), from the site's
    // files: a table started before the engine is ready is entered with these.
    offers: async (rules, teams) => {
      const here = shipped();
      const found = here && here.facts[rules];
      return found ? found[teams ? "teams" : "alone"] : null;
    },
    call: (op, args) => send(op, args), // any op of ledger/engine/ops.py by its own name
    // A payment's QR code ({rows}), drawn by this phone's engine with the vendored segno
    // (ledger/engine/phone.py's qr op: the same Python as the hub's POST /qr); never kept.
    qr: (text) => send("qr", { text }),
    // History moves by file: the CLI's JSON export, and import of an export or a score sheet.
    exportLedger: (session) => send("export", clean({ session })),
    importFile: write("import"), // (key, {text, name})
    phoneLedger: null, // below: export, import and sync of this phone's ledger

    watch(onChange, onLink) {
      const w = { onChange };
      watchers.add(w);
      onLink(true); // no link to lose: the ledger is in this phone
      return () => watchers.delete(w);
    },
  });
  engine.phoneLedger = phoneLedger(engine);
  return engine;
}
