// The outbox: every write waits here, kept (localStorage on the phone) across reloads,
// until the engine has answered it. Writes go one at a time in the order they were
// made, each with the id made when it was made, so a retry after a lost answer is the
// same write (the engine keeps it at most once) and never a second deal.
//
// Part of the model: no DOM. The page gives it a place to keep its items (`keep`:
// {read() -> text, write(text)}) and calls kick(true) when the phone comes back online
// or into view; tests/js/outbox.test.mjs drives it with a fake engine and store.
//
// A table started before the engine could answer has no number yet: writes for it name
// it `new-` + the start's id (pendingTable), and once the start is written they are
// rewritten, in the outbox and in its keeping place, to the number the engine gave.

import { newId } from "./model-ids.js";

export const KEY = "bigtwo.outbox";
const WAITS = [1000, 2000, 4000, 8000, 15000];
export const PENDING = "new-";

/** The name of the table a start in the outbox will make, until it has its number. */
export function pendingTable(startId) {
  return PENDING + startId;
}

/** Whether `session` names a table still waiting for its start to be written. */
export function isPending(session) {
  return typeof session === "string" && session.startsWith(PENDING);
}

/** A keeping place over localStorage (or none, in a private window: items stay in memory). */
export function localKeep(storage, key = KEY) {
  return {
    read() { try { return storage.getItem(key); } catch (e) { return null; } },
    write(text) { try { storage.setItem(key, text); } catch (e) { /* full or private */ } },
  };
}

export class Outbox {
  constructor(engine, onEvent, { keep = null, makeId = newId, waits = WAITS } = {}) {
    this.engine = engine;
    this.onEvent = onEvent; // ("saving" | "saved" | "waiting" | "refused", item, result|error)
    this.keep = keep;
    this.makeId = makeId;
    this.waits = waits;
    this.items = this.load();
    this.busy = false;
    this.timer = null;
    this.failures = 0;
    this.started = {}; // pendingTable(id) -> the number its start was given (this page's life)
  }

  /** The start item of a pending table, or null once it is written (or never was). */
  startOf(table) {
    return this.items.find((i) => i.op === "start" && pendingTable(i.id) === table) || null;
  }

  load() {
    try {
      const kept = JSON.parse((this.keep && this.keep.read()) || "[]");
      return Array.isArray(kept) ? kept.filter((i) => i && i.id && i.op) : [];
    } catch (e) {
      return [];
    }
  }

  save() {
    if (this.keep) this.keep.write(JSON.stringify(this.items));
  }

  /** Queue a write; `what` is how the page names it ({kind, deal}). `id`: the write's
   * id when the screen made it already (the payment code's Mark paid, made when the code
   * opened): a second add with an id still queued is that same write, not another. */
  add(op, args, what, id) {
    const queued = id ? this.items.find((i) => i.id === id) : null;
    if (queued) return queued;
    const item = { id: id || this.makeId(), op, args, what: what || {}, at: Date.now(), tries: 0 };
    this.items.push(item);
    this.save();
    this.onEvent("saving", item);
    this.kick(true);
    return item;
  }

  pending(session) {
    return this.items.filter((i) => session === undefined || i.args.session === session);
  }

  state() {
    if (!this.items.length) return "empty";
    return this.items.some((i) => i.tries > 0) ? "waiting" : "saving";
  }

  kick(now) {
    if (now) { clearTimeout(this.timer); this.timer = null; }
    if (!this.busy && !this.timer) this.pump();
  }

  async pump() {
    if (this.busy) return;
    this.busy = true;
    try {
      while (this.items.length) {
        const item = this.items[0];
        try {
          const result = await this.engine[item.op](item.id, item.args);
          this.numbered(item, result);
          this.drop(item);
          this.failures = 0;
          this.onEvent("saved", item, result);
        } catch (error) {
          if (error && error.retry) {
            item.tries += 1;
            this.save();
            this.onEvent("waiting", item, error);
            const wait = this.waits[Math.min(this.failures, this.waits.length - 1)];
            this.failures += 1;
            this.timer = setTimeout(() => { this.timer = null; this.pump(); }, wait);
            return;
          }
          this.drop(item);
          this.onEvent("refused", item, error);
          if (item.op === "start") { // nothing can be written to a table never started
            for (const orphan of this.pending(pendingTable(item.id))) {
              this.drop(orphan);
              this.onEvent("refused", orphan, error);
            }
          }
        }
      }
    } finally {
      this.busy = false;
    }
  }

  /** A start written: the writes waiting for its table now name its number. */
  numbered(item, result) {
    if (item.op !== "start" || !result || result.id === undefined) return;
    const table = pendingTable(item.id);
    this.started[table] = result.id;
    for (const i of this.items) if (i.args && i.args.session === table) i.args = { ...i.args, session: result.id };
  }

  drop(item) {
    this.items = this.items.filter((i) => i.id !== item.id);
    this.save();
  }
}
