// The outbox: every write waits here, kept in this app's localStorage (scope.js) across
// reloads, until the engine has answered it. Writes go one at a time in the order they
// were made, each with the id made when it was made, so a retry after a lost answer is
// the same write (the engine keeps it at most once) and never a second deal.

import { newId } from "./ids.js";
import { keep, kept } from "./scope.js";

const KEY = "bigtwo.outbox";
const WAITS = [1000, 2000, 4000, 8000, 15000];

export class Outbox {
  constructor(engine, onEvent) {
    this.engine = engine;
    this.onEvent = onEvent; // ("saving" | "saved" | "waiting" | "refused", item, result|error)
    this.items = this.load();
    this.busy = false;
    this.timer = null;
    this.failures = 0;
    window.addEventListener("online", () => this.kick(true));
    document.addEventListener("visibilitychange", () => { if (!document.hidden) this.kick(true); });
  }

  load() {
    try {
      const items = JSON.parse(kept(KEY) || "[]");
      return Array.isArray(items) ? items.filter((i) => i && i.id && i.op) : [];
    } catch (e) {
      return [];
    }
  }

  save() {
    keep(KEY, JSON.stringify(this.items)); // refused (full, private): this page only
  }

  /** Queue a write; `what` is how the page names it ({kind, deal}). */
  add(op, args, what) {
    const item = { id: newId(), op, args, what: what || {}, at: Date.now(), tries: 0 };
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
          this.drop(item);
          this.failures = 0;
          this.onEvent("saved", item, result);
        } catch (error) {
          if (error && error.retry) {
            item.tries += 1;
            this.save();
            this.onEvent("waiting", item, error);
            const wait = WAITS[Math.min(this.failures, WAITS.length - 1)];
            this.failures += 1;
            this.timer = setTimeout(() => { this.timer = null; this.pump(); }, wait);
            return;
          }
          this.drop(item);
          this.onEvent("refused", item, error);
        }
      }
    } finally {
      this.busy = false;
    }
  }

  drop(item) {
    this.items = this.items.filter((i) => i.id !== item.id);
    this.save();
  }
}
