// The outbox (ledger/web/static/app/model-outbox.js) without a browser: a fake engine
// and a fake keeping place. node --test tests/js
import { test } from "node:test";
import assert from "node:assert/strict";
import { Outbox, isPending, pendingTable } from "../../ledger/web/static/app/model-outbox.js";
import { newId } from "../../ledger/web/static/app/model-ids.js";

function memoryKeep(text = null) {
  return { text, read() { return this.text; }, write(t) { this.text = t; } };
}

/** An engine whose answers the test gives, one per call, in order. */
function fakeEngine(answers) {
  const calls = [];
  const engine = { calls };
  for (const op of ["record", "amend", "void", "undo"]) {
    engine[op] = async (key, args) => {
      calls.push({ op, key, args });
      const next = answers.shift();
      if (next instanceof Error) throw next;
      return next;
    };
  }
  return engine;
}

const retry = () => Object.assign(new Error("link down"), { retry: true });
const refusal = () => Object.assign(new Error("no such player"), { retry: false, status: 400 });
/** Wait, on a busy machine too, until `done()` holds (at most 5 s). */
async function until(done) {
  for (const start = Date.now(); !done(); await new Promise((r) => setTimeout(r, 2))) {
    if (Date.now() - start > 5000) throw new Error("the outbox never got there");
  }
}

test("writes go one at a time, in order, each with the id made when it was made", async () => {
  const engine = fakeEngine([{ deal: 1 }, { deal: 2 }]);
  const events = [];
  const keep = memoryKeep();
  const box = new Outbox(engine, (state, item) => events.push([state, item.args.line]), { keep });
  const a = box.add("record", { session: 1, line: "Ann=0 Ben=1" }, { kind: "deal", deal: 1 });
  const b = box.add("record", { session: 1, line: "Ann=2 Ben=0" }, { kind: "deal", deal: 2 });
  assert.equal(box.state(), "saving");
  await until(() => box.state() === "empty" && !box.busy);
  assert.deepEqual(engine.calls.map((c) => [c.key, c.args.line]), [[a.id, "Ann=0 Ben=1"], [b.id, "Ann=2 Ben=0"]]);
  assert.deepEqual(events.filter(([s]) => s === "saved").map(([, l]) => l), ["Ann=0 Ben=1", "Ann=2 Ben=0"]);
  assert.equal(box.state(), "empty");
  assert.equal(keep.text, "[]");
});

test("a write that could not be sent waits and goes again with the same id; a refusal is dropped", async () => {
  const engine = fakeEngine([retry(), { deal: 1 }, refusal()]);
  const events = [];
  const box = new Outbox(engine, (state, item) => events.push(state), { keep: memoryKeep(), waits: [1] });
  const item = box.add("record", { session: 3, line: "x" }, { kind: "deal", deal: 1 });
  await until(() => events.includes("saved"));
  assert.deepEqual(engine.calls.map((c) => c.key), [item.id, item.id]);
  assert.deepEqual(events, ["saving", "waiting", "saved"]);
  box.add("void", { session: 3, deal: 1 }, { kind: "void" });
  await until(() => events.includes("refused"));
  assert.deepEqual(events.slice(-1), ["refused"]);
  assert.deepEqual(box.pending(3), []);
});

test("the items are kept across a reload, and only this session's are pending", async () => {
  const keep = memoryKeep();
  const engine = fakeEngine([retry()]);
  const first = new Outbox(engine, () => {}, { keep, waits: [60000] });
  const item = first.add("record", { session: 2, line: "Ann=0" }, { kind: "deal" });
  await until(() => first.timer !== null);
  clearTimeout(first.timer);
  const again = new Outbox(fakeEngine([]), () => {}, { keep });
  assert.deepEqual(again.items.map((i) => [i.id, i.tries]), [[item.id, 1]]);
  assert.equal(again.state(), "waiting");
  assert.deepEqual(again.pending(2).map((i) => i.id), [item.id]);
  assert.deepEqual(again.pending(5), []);
  assert.deepEqual(new Outbox(fakeEngine([]), () => {}, { keep: memoryKeep("not json") }).items, []);
  assert.deepEqual(new Outbox(fakeEngine([]), () => {}, { keep: memoryKeep('[{"op": "record"}, 3]') }).items, []);
});

test("ids are version 4 uuids, a new one each time", () => {
  const ids = new Set(Array.from({ length: 200 }, newId));
  assert.equal(ids.size, 200);
  for (const id of ids) assert.match(id, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
});

test("a write added twice with the id its screen made is one write (the payment code's Mark paid)", async () => {
  const engine = fakeEngine([retry(), { payment: 1 }]);
  const events = [];
  const box = new Outbox(engine, (state) => events.push(state), { keep: memoryKeep(), waits: [1] });
  const id = newId();
  const a = box.add("record", { session: 4, line: "paid" }, { kind: "pay" }, id);
  const b = box.add("record", { session: 4, line: "paid" }, { kind: "pay" }, id); // a second tap
  assert.equal(a, b);
  assert.equal(box.pending(4).length, 1);
  await until(() => events.includes("saved"));
  // The lost answer's retry carries the same id: the engine keeps it once.
  assert.deepEqual(engine.calls.map((c) => c.key), [id, id]);
  assert.deepEqual(events, ["saving", "waiting", "saved"]);
});

test("a table started before the engine answers: its deals wait, then go to its number, once", async () => {
  const engine = fakeEngine([]);
  engine.start = async (key, args) => { engine.calls.push({ op: "start", key, args }); return { id: 7 }; };
  engine.record = async (key, args) => { engine.calls.push({ op: "record", key, args }); return { deal: 1 }; };
  const keep = memoryKeep();
  let hold = true;
  const realStart = engine.start;
  engine.start = async (key, args) => { while (hold) await new Promise((r) => setTimeout(r, 2)); return realStart(key, args); };
  const box = new Outbox(engine, () => {}, { keep });
  const start = box.add("start", { players: ["Ann", "Ben", "Cat", "Dan"] }, { kind: "start" });
  const table = pendingTable(start.id);
  assert.ok(isPending(table));
  assert.equal(box.startOf(table), start);
  box.add("record", { session: table, line: "0 3 11 8" }, { kind: "deal", deal: 1 });
  assert.equal(box.pending(table).length, 1);
  // Kept as made: a reload before the engine answers keeps both, the deal still named by the start.
  const kept = JSON.parse(keep.text);
  assert.deepEqual(kept.map((i) => i.op), ["start", "record"]);
  assert.equal(kept[1].args.session, table);
  hold = false;
  await until(() => box.items.length === 0);
  assert.deepEqual(engine.calls.map((c) => [c.op, c.args.session]), [["start", undefined], ["record", 7]]);
  assert.equal(box.started[table], 7);
  assert.equal(box.startOf(table), null);
});

test("a refused start takes the writes for its table with it", async () => {
  const engine = fakeEngine([]);
  engine.start = async () => { throw refusal(); };
  engine.record = async () => { throw new Error("never sent"); };
  const events = [];
  const box = new Outbox(engine, (state, item) => events.push([state, item.op]), { keep: memoryKeep() });
  let hold = true;
  const refuse = engine.start;
  engine.start = async (k, a) => { while (hold) await new Promise((r) => setTimeout(r, 2)); return refuse(k, a); };
  const start = box.add("start", { players: ["Ann"] }, { kind: "start" });
  box.add("record", { session: pendingTable(start.id), line: "0 3" }, { kind: "deal", deal: 1 });
  hold = false;
  await until(() => box.items.length === 0);
  assert.deepEqual(events.filter(([s]) => s === "refused"), [["refused", "start"], ["refused", "record"]]);
});
