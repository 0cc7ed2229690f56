// The engine interface: the only way the app reads or changes the ledger.
//
// Two implementations: engine-hub.js (HTTP to `bigtwo serve`) and the offline
// workstream's engine-worker.js (the same Python engine in a Pyodide Web Worker).
// Every method returns a Promise of plain JSON (the records ledger/book builds, as
// the command line's --json prints them) or rejects with an EngineError.
//
// One method per op of ops.js (written from the engine's declarations in
// ledger/engine/ops.py; docs/serve.md has each op's answer), named in camelCase
// (undo_preview -> undoPreview):
//   a read takes its arguments in the declared order: board(session), settle(session, round),
//     history(player), preview(session, line), sessions(), lastSetup() ...
//   a write takes (key, args), key the entry's uuid made on the phone (model-ids.js):
//     record(key, {session, line}), amend(key, {session, deal, line}), undo(key, {session}) ...
// Beside the ops
//   words()                        -> {lang, html_lang, languages: {code: label}, words: {key: text}}
//   access()                       -> {level: "keeper" | "viewer"}
//   watch(onChange, onLink)        -> stop()   onChange({session}) when the ledger changes,
//                                              onLink(true|false) as the live link comes and goes
// Before the engine is ready (the worker engine only; absent on the hub)
//   offers(rules, teams)           -> [fact] | null        a preset's deal facts as a board's, from the
//                                                          site's static/first.json (a table started
//                                                          before the engine answers, board-pending.js)
// The phone's own ledger (the worker engine only; null or absent on the hub)
//   phoneLedger                    -> {keptLink(), exportFile(), importFile(file), sync(link, lang)}
//                                     (engine-worker-ledger.js)
//
// Screens use this interface and the model (model-*.js) only: never an engine's files.

import { OPS } from "./ops.js";

export { OPS };

export const camel = (name) => name.replace(/_(\w)/g, (_, c) => c.toUpperCase());
export const READS = ["words", "access", ...OPS.filter((op) => !op.write).map((op) => camel(op.name))];
export const WRITES = OPS.filter((op) => op.write).map((op) => camel(op.name));

/** Every op as a method: `read(op, args)` and `write(op, key, args)` are the engine's own
 * transport (HTTP to the hub, messages to the worker). Arguments left out are not sent. */
export function opMethods(read, write) {
  const out = {};
  for (const op of OPS) {
    const names = op.args.map((a) => a.name);
    out[camel(op.name)] = op.write
      ? (key, args) => write(op.name, key, args || {})
      : (...values) => read(op.name, Object.fromEntries(names.map((n, i) => [n, values[i]])
        .filter(([, v]) => v !== undefined && v !== null && v !== "")));
  }
  return out;
}

/** A refusal (retry: false; status 4xx, message in the page's language) or a write
 * that could not be sent or answered (retry: true: the outbox keeps it). */
export class EngineError extends Error {
  constructor(message, { status = 0, retry = false } = {}) {
    super(message);
    this.status = status;
    this.retry = retry;
  }
}

/** The engine this page uses: `data-engine-kind` on <html> (hub by default). */
export async function openEngine(kind) {
  const chosen = kind || document.documentElement.dataset.engineKind || "hub";
  const module = chosen === "worker" ? await import("./engine-worker.js") : await import("./engine-hub.js");
  const engine = await module.create();
  for (const op of [...READS, ...WRITES, "watch"]) {
    if (typeof engine[op] !== "function") throw new Error(`engine ${chosen} lacks ${op}`);
  }
  return engine;
}
