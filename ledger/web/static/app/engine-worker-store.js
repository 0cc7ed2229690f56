// The ledger file's durable copy in the origin private file system (OPFS), for the
// engine worker (engine-worker-thread.js; docs/offline.md, "Durability").
//
// SQLite runs on Pyodide's in-memory file system; after each write (checkpointed into
// the main file) the worker hands the file's bytes to save(), which writes only the
// 4 KiB pages that changed, in two steps that a killed browser cannot tear:
//   1. the changed pages, the new length and a checksum go to ledger.journal; flush —
//      the write is durable here, and its answer (saved) goes back;
//   2. the pages are written into ledger.db at their places; flush — right after the
//      answer, off its path (and always before the next save replaces the journal).
// If the browser dies during step 1, the journal's checksum fails and it is ignored
// (ledger.db holds the previous write; this one was never said saved); during or
// before step 2, the next open applies the whole journal. Cost per write: comparing
// the file in memory (linear in its size, about 1 ms per MB) plus the changed pages
// (a deal: a dozen or so) and one flush before the answer, one after.

const PAGE = 4096;
const MAGIC = 0x42324a31; // "B2J1"

function fnv1a(bytes, end) {
  let h = 0x811c9dc5;
  for (let i = 0; i < end; i++) {
    h ^= bytes[i];
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

function samePage(a, b, offset) {
  const n = Math.min(PAGE, a.length - offset, b.length - offset);
  if (n !== PAGE) {
    for (let i = 0; i < PAGE; i++) if (a[offset + i] !== b[offset + i]) return false;
    return true;
  }
  const x = new Int32Array(a.buffer, a.byteOffset + offset, PAGE / 4);
  const y = new Int32Array(b.buffer, b.byteOffset + offset, PAGE / 4);
  for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return false;
  return true;
}

export class Store {
  /** Open (creating) the folder `name` of this origin's private file system. Only one
   * tab can hold it: a second gets a NoModificationAllowedError — after a few tries,
   * since a page just reloaded or closed lets go of it a moment later. A try that the
   * browser never answers (seen about once in twenty opens made right after the previous
   * page closed: the open stays pending for good) is given up after `stall` ms and made
   * again; what it opens if it is answered later is closed at once. */
  static async open(name, { tries = 20, stall = 4000, stalls = 3 } = {}) {
    let held = 0;
    let stalled = 0;
    for (;;) {
      try {
        return await Store.openWithin(name, stall);
      } catch (error) {
        if (error.name === "NoModificationAllowedError") held++;
        else if (error.name === "TimeoutError") stalled++;
        else throw error;
        if (held >= tries || stalled >= stalls) throw error;
        await new Promise((r) => setTimeout(r, 150));
      }
    }
  }

  static openWithin(name, stall) {
    const attempt = Store.openOnce(name);
    return new Promise((resolve, reject) => {
      let gaveUp = false;
      const timer = setTimeout(() => {
        gaveUp = true;
        attempt.then((store) => store.close(), () => {});
        reject(new DOMException(`the browser did not open the ledger within ${stall} ms`, "TimeoutError"));
      }, stall);
      attempt.then((store) => {
        if (gaveUp) return;
        clearTimeout(timer);
        resolve(store);
      }, (error) => {
        if (gaveUp) return;
        clearTimeout(timer);
        reject(error);
      });
    });
  }

  static async openOnce(name) {
    const root = await navigator.storage.getDirectory();
    const dir = await root.getDirectoryHandle(name, { create: true });
    const handle = async (file) => (await dir.getFileHandle(file, { create: true })).createSyncAccessHandle();
    const db = await handle("ledger.db");
    let journal;
    try {
      journal = await handle("ledger.journal");
    } catch (error) {
      db.close();
      throw error;
    }
    const store = new Store(db, journal);
    store.recover();
    return store;
  }

  constructor(db, journal) {
    this.db = db;
    this.journal = journal;
    this.image = new Uint8Array(0);
    this.pending = null;
  }

  /** Apply a whole journal left by a write the browser did not finish; drop a torn one. */
  recover() {
    const size = this.journal.getSize();
    if (size >= 16) {
      const bytes = new Uint8Array(size);
      this.journal.read(bytes, { at: 0 });
      const view = new DataView(bytes.buffer);
      const count = view.getUint32(4, true);
      const length = view.getUint32(8, true);
      const end = 12 + count * (4 + PAGE);
      if (view.getUint32(0, true) === MAGIC && end + 4 <= size && view.getUint32(end, true) === fnv1a(bytes, end)) {
        for (let i = 0; i < count; i++) {
          const at = 12 + i * (4 + PAGE);
          this.db.write(bytes.subarray(at + 4, at + 4 + PAGE), { at: view.getUint32(at, true) * PAGE });
        }
        this.db.truncate(length);
        this.db.flush();
      }
    }
    if (size) {
      this.journal.truncate(0);
      this.journal.flush();
    }
  }

  /** The ledger file as last saved (empty for a new phone). */
  read() {
    const bytes = new Uint8Array(this.db.getSize());
    this.db.read(bytes, { at: 0 });
    this.image = bytes;
    return bytes.slice();
  }

  /** Make `bytes` (the whole ledger file) durable: the changed pages in the flushed
   * journal (step 1). Returns what it wrote; apply() (step 2) follows before the next
   * save, off the answer's path. */
  save(bytes) {
    const started = performance.now();
    this.apply(); // the previous write's pages into ledger.db before its journal is replaced
    const applied = performance.now();
    const old = this.image;
    const changed = [];
    for (let offset = 0; offset < bytes.length; offset += PAGE) {
      if (offset >= old.length || !samePage(bytes, old, offset)) changed.push(offset / PAGE);
    }
    if (!changed.length && bytes.length === old.length) return { pages: 0, bytes: 0, ms: 0, compare_ms: 0, write_ms: 0 };
    const end = 12 + changed.length * (4 + PAGE);
    const journal = new Uint8Array(end + 4);
    const view = new DataView(journal.buffer);
    view.setUint32(0, MAGIC, true);
    view.setUint32(4, changed.length, true);
    view.setUint32(8, bytes.length, true);
    changed.forEach((page, i) => {
      const at = 12 + i * (4 + PAGE);
      view.setUint32(at, page, true);
      journal.set(bytes.subarray(page * PAGE, page * PAGE + PAGE), at + 4);
    });
    view.setUint32(end, fnv1a(journal, end), true);
    const compared = performance.now();
    this.journal.truncate(0);
    this.journal.write(journal, { at: 0 });
    this.journal.flush(); // the commit point: from here the write survives a killed browser
    this.pending = { bytes, changed };
    this.image = bytes;
    const done = performance.now();
    return { pages: changed.length, bytes: changed.length * PAGE, ms: done - started,
      apply_ms: applied - started, compare_ms: compared - applied, write_ms: done - compared };
  }

  /** Step 2: the last saved pages into ledger.db, flushed (the journal stays until the
   * next save replaces it; opening applies a whole journal again, which changes nothing). */
  apply() {
    if (!this.pending) return;
    const { bytes, changed } = this.pending;
    for (const page of changed) {
      this.db.write(bytes.subarray(page * PAGE, page * PAGE + PAGE), { at: page * PAGE });
    }
    this.db.truncate(bytes.length);
    this.db.flush();
    this.pending = null;
  }

  close() {
    this.apply();
    this.db.close();
    this.journal.close();
  }
}
