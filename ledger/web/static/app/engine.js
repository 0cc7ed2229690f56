// The engine interface: the only way the app reads or changes the ledger.
//
// Two implementations: engine-hub.js (HTTP to `bigtwo serve`) and the offline
// workstream's engine-worker.js (the same Python engine in a Pyodide Web Worker).
// Every method returns a Promise of plain JSON (the records ledger/book builds, as
// the command line's --json prints them) or rejects with an EngineError.
//
// Reads
//   words()                        -> {lang, html_lang, languages: {code: label}, words: {key: text}}
//   access()                       -> {level: "keeper" | "viewer"}
//   sessions()                     -> [session]            (bigtwo session list --json)
//   board(session)                 -> {session, rules, standings, money, next, facts, deals, undo}
//   log(session)                   -> [entry]              (bigtwo log --json)
//   deals(session)                 -> [deal]               every live deal, newest first, as board's deals
//   settle(session, round)         -> settlement            (bigtwo settle --json [--round])
//   history(player)                -> {sessions: [...], player?}
//   presets()                      -> [{name, description, ...}]
//   lastSetup()                    -> {players, rules, stake, currency, teams} | null
//   preview(session, line)         -> {players: [{name, cards, penalty, net, win, fried}]}
//   undoPreview(session)           -> {action, deal, line, ...} | null
// Writes: (key, args) with key the entry's uuid made on the phone (model-ids.js)
//   record {session, line}  amend {session, deal, line}  void {session, deal}
//   undo {session}  start {players, rules, stake, currency, name, teams}
//   end {session}  reopen {session}
//   pay {session, from, to, amount ("12.50": text, never a number)}  unpay {session, payment (its uuid)}
// Live
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

export const READS = ["words", "access", "sessions", "board", "log", "deals", "settle", "history", "presets",
  "lastSetup", "preview", "undoPreview"];
export const WRITES = ["record", "amend", "void", "undo", "start", "end", "reopen", "pay", "unpay"];

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
