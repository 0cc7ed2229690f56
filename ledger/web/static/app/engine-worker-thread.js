// The engine worker: this package's Python engine in Pyodide, in a module Web Worker
// (Pyodide 314 refuses classic workers). It owns the ledger: SQLite on Pyodide's
// in-memory file system, every change copied to the origin private file system before
// the answer goes back (engine-worker-store.js), so an answer to a write means saved.
//
// Messages in:  {id, op, args, lang}                 op: an engine op (ledger/engine/dispatch.py) or "words"
// Messages out: {type: "ready", timings}             once the ledger is open
//               {type: "failed", reason, name}       the engine cannot start (e.g. another tab holds the ledger)
//               {id, answer, saved, ms}              answer: JSON text {"ok": …} or {"error": {status, message}}

import { loadPyodide } from "../vendor/pyodide/pyodide.mjs";
import { Store } from "./engine-worker-store.js";
import { LEDGER_FOLDER, OLD_LEDGER_FOLDER } from "./scope.js";

const STATIC = new URL("../", import.meta.url);
const PATH = "/ledger/bigtwo.db";
const timings = {};
const mark = (name, since) => { timings[name] = Math.round(performance.now() - since); };

let pyodide = null;
let phone = null;
let store = null;

async function bytes(path) {
  const response = await fetch(new URL(path, STATIC));
  if (!response.ok) throw new Error(`${path}: HTTP ${response.status}`);
  return new Uint8Array(await response.arrayBuffer());
}

async function boot() {
  const t0 = performance.now();
  const manifest = fetch(new URL("engine.json", STATIC)).then((r) => {
    if (!r.ok) throw new Error(`engine.json: HTTP ${r.status}`);
    return r.json();
  });
  // The files are read while Pyodide starts; a wheel in `whole` (ledger/web/offline.py,
  // WHOLE_WHEELS) is kept as it is and imported from, the others unpacked.
  const files = manifest.then((m) => Promise.all([bytes(m.zip), ...m.wheels.map((w) => bytes(w)),
    ...(m.whole || []).map((w) => bytes(w))]));
  // The standard library with its bytecode (scripts/vendor_pyodide.py): the release's
  // holds sources only, and compiling them took most of a start.
  pyodide = await loadPyodide({ indexURL: new URL("vendor/pyodide/", STATIC).href,
                                stdLibURL: new URL("vendor/compiled/python_stdlib.zip", STATIC).href });
  mark("pyodide", t0);
  const [zip, ...archives] = await files;
  const { wheels: names, whole = [] } = await manifest;
  const site = pyodide.runPython("import site; site.getsitepackages()[0]");
  for (const wheel of archives.slice(0, names.length)) pyodide.unpackArchive(wheel, "wheel", { extractDir: site });
  pyodide.FS.mkdirTree("/wheels");
  const kept = whole.map((name, i) => {
    const path = "/wheels/" + name.split("/").pop();
    pyodide.FS.writeFile(path, archives[names.length + i]);
    return path;
  });
  pyodide.runPython(`import sys; sys.path.extend(${JSON.stringify(kept)})`);
  pyodide.unpackArchive(zip, "zip", { extractDir: "/engine" });
  mark("files", t0);
  // The ledger's files are opened now, with this thread idle: Store.open gives up a try
  // the browser leaves unanswered, by the clock, and Pyodide's start (seconds of this
  // thread's time, during which no answer can be taken in) must not count; and the page
  // this one replaced has long let go of them.
  store = await Store.open(LEDGER_FOLDER);
  let image = store.read();
  if (!image.length) image = await takeOver(store);
  pyodide.FS.mkdirTree("/ledger");
  if (image.length) pyodide.FS.writeFile(PATH, image);
  const t1 = performance.now();
  phone = pyodide.runPython(`
import sys
sys.path.insert(0, "/engine")
from ledger.engine.phone import Phone
Phone(${JSON.stringify(PATH)})
`);
  mark("open", t1);
  store.save(pyodide.FS.readFile(PATH)); // a new ledger's migrations, or nothing
  store.apply();
  mark("ready", t0);
  timings.bytes = image.length;
}

/** A new ledger here (this app's folder, scope.js, is empty): the ledger this browser kept
 * before ledgers were named by their app, in the one folder of the origin, becomes this
 * app's, once. Copied through the store's journal (a browser killed meanwhile leaves this
 * ledger empty, and the next start takes it over again), then the old folder is removed;
 * a page of an older build holding it open leaves it, for that build. */
async function takeOver(store) {
  const root = await navigator.storage.getDirectory();
  try {
    await root.getDirectoryHandle(OLD_LEDGER_FOLDER);
  } catch (error) {
    if (error.name === "NotFoundError") return store.read();
    throw error;
  }
  const old = await Store.open(OLD_LEDGER_FOLDER);
  let bytes;
  try {
    bytes = old.read();
  } finally {
    old.close();
  }
  if (bytes.length) {
    store.save(bytes);
    store.apply();
  }
  try {
    await root.removeEntry(OLD_LEDGER_FOLDER, { recursive: true });
  } catch (error) { /* held open by an older build's page: left to it */ }
  timings.took_over = bytes.length;
  return store.read();
}

const ready = boot();
ready.then(
  () => self.postMessage({ type: "ready", timings }),
  (error) => self.postMessage({ type: "failed", reason: String(error && error.message || error),
    name: error && error.name || "" }),
);

function run({ id, op, args, lang }) {
  const t0 = performance.now();
  let answer;
  try {
    answer = phone.answer(op, JSON.stringify(args || {}), lang || "");
  } catch (error) {
    // A bug, not a refusal: say it, keep the worker.
    answer = JSON.stringify({ error: { status: 500, message: String(error && error.message || error) } });
  }
  const parsed = JSON.parse(answer);
  let saved = null;
  if (parsed.changed) saved = store.save(pyodide.FS.readFile(PATH));
  self.postMessage({ id, answer, saved, ms: performance.now() - t0 });
  if (saved) setTimeout(() => { queue = queue.then(() => store.apply()); }, 0); // step 2, after the answer
}

// One message at a time, in order: taps made while Pyodide loads wait here.
let queue = Promise.resolve();
self.onmessage = (event) => {
  queue = queue.then(async () => {
    try {
      await ready;
    } catch (error) {
      self.postMessage({ id: event.data.id, failed: String(error && error.message || error) });
      return;
    }
    run(event.data);
  });
};
