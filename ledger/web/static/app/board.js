// A table's screen: the scoreboard and, for the keeper, deal entry (board-entry.js) over
// a deal draft (model-draft.js) with Record in the fixed action bar. The deal goes to
// the engine as a deal line the draft writes from the facts the engine offers; the
// engine parses and scores it. `#/t/ID/fix/N` is the same screen amending deal N.

import { h, clear } from "./dom.js";
import { t } from "./words.js";
import { sessionTitle } from "./names.js";
import { DealDraft } from "./model-draft.js";
import { entryForm } from "./board-entry.js";
import { previewer } from "./board-preview.js";
import { nextTitle, scoreboard, sessionHead } from "./board-scores.js";
import { pendingBoard } from "./board-pending.js";
import { seatsPanel } from "./board-seats.js";
import { isPending } from "./model-outbox.js";

export function boardScreen(app, sid, fixing) {
  let board = null, money = null;
  let fixed = null;   // the deal being fixed (every deal of the session, not only the board's last)
  let draft = null, entry = null, preview = null, scoresBox = null, sent = false;
  const fold = { open: false }; // the seats section stays open across redraws

  const open = () => !board.session.ended_at;
  const canEnter = () => app.keeper() && (open() || fixing !== null);
  const pendingDeals = () => app.outbox.pending(sid).filter((i) => i.op === "record");
  const nextNo = () => (board.next_deal || board.session.deals + 1) + pendingDeals().length;
  const title = () => (fixing !== null ? t("fix_deal", { n: fixing }) : nextTitle(board, pendingDeals().length));
  // The next deal's players: the seated who do not sit out (a fix keeps its deal's own).
  const playing = () => (fixed && fixed.facts && fixed.facts.players) || (board.seats ? board.seats.playing : board.session.players);
  const shape = () => ({ seats: playing(), handSize: board.session.hand_size, offers: board.facts || [] });

  /** After every tap: Record's state and the preview. */
  function changed() {
    const button = document.getElementById("record");
    if (button) {
      button.disabled = !draft.ready();
      button.textContent = fixing !== null ? t("save_deal", { n: fixing }) : t("record");
    }
    preview(draft);
  }

  function record() {
    if (!entry || !draft.ready()) return;
    const line = draft.line();
    if (fixing !== null) {
      if (sent) return; // a double tap on Save: the fix is on its way once
      sent = true;
      const args = fixed && fixed.uuid ? { session: sid, deal_uuid: fixed.uuid, line } : { session: sid, deal: fixing, line };
      app.outbox.add("amend", args, { kind: "amend", deal: fixing });
      app.go("#/t/" + sid + "/log");
      return;
    }
    app.outbox.add("record", { session: sid, line }, { kind: "deal", deal: nextNo() });
    draft.clear();
    entry.paint();
    changed();
    paintScores();
  }

  function paintScores() {
    if (scoresBox) clear(scoresBox, ...scoreboard(board, money, app.outbox.pending(sid)));
    if (entry) entry.title(title());
  }

  async function load() {
    if (isPending(sid)) { // started before the engine answered: no number yet
      board = await pendingBoard(app, sid);
      if (!board) throw new Error(t("engine_loading"));
      return;
    }
    const [b, m, all] = await Promise.all([app.engine.board(sid), app.engine.settle(sid).catch(() => null),
      fixing !== null ? app.engine.deals(sid) : null]);
    board = b;
    money = m;
    if (all) fixed = all.find((d) => d.deal === fixing) || null;
  }

  async function show(main) {
    await load();
    if (app.screen !== self) return; // left while loading: the action bar is another screen's now
    if (fixing !== null && !fixed) {
      // Never a new deal in place of the fix that was asked for: say so, and offer the log.
      clear(main, h("section", { class: "card" },
        h("p", { class: "error", role: "alert" }, t("no_such_deal", { n: fixing })),
        h("a", { class: "button", href: "#/t/" + sid + "/log" }, t("tab_log"))));
      return;
    }
    sent = false;
    draft = fixing !== null ? DealDraft.fromFacts(fixed.facts || {}, shape()) : new DealDraft(shape());
    scoresBox = h("div", { id: "scores" });
    const ended = !open() && fixing === null ? h("section", { class: "card" },
      h("p", {}, t("session_ended")),
      app.keeper() ? h("div", { class: "row" },
        h("button", { type: "button", class: "button", on: { click: reopen } }, t("reopen")),
        h("a", { class: "button primary", href: "#/start" }, t("new_session"))) : null) : null;
    const card = h("section", { class: "card" }, sessionHead(board.session), scoresBox);
    entry = canEnter() ? entryForm(draft, changed) : null;
    // The keeper's entry comes first: it is what the phone is for during a deal.
    const seats = fixing === null && board.seats ? seatsPanel(app, sid, board, fold) : null;
    clear(main, ended, entry ? [entry.node, card] : card, seats);
    paintScores();
    if (entry) {
      preview = previewer(app.engine, sid, entry.preview);
      const cancel = fixing !== null ? h("button", { type: "button", class: "button",
        on: { click: () => app.go("#/t/" + sid + "/log") } }, t("cancel")) : null;
      app.bar(cancel, h("button", { type: "button", id: "record", class: "button primary record", on: { click: record } }));
      entry.paint();
      changed();
    }
  }

  async function reopen() {
    if (!(await app.ask(t("reopen_ask", { name: sessionTitle(board.session) }), t("reopen")))) return;
    app.outbox.add("reopen", { session: sid }, { kind: "reopen" });
  }

  let refreshing = null;
  async function refresh() {
    if (refreshing) return refreshing;
    refreshing = (async () => {
      try {
        const was = board && [open(), JSON.stringify(board.seats)].join();
        await load(); // a seat change or an end redraws the screen: the keypad's players follow
        if (app.screen !== self) return;
        if (board && was !== [open(), JSON.stringify(board.seats)].join() && fixing === null) { await show(document.getElementById("main")); return; }
        paintScores();
      } catch (e) { /* the banner says the link is down */ }
    })();
    try { await refreshing; } finally { refreshing = null; }
  }

  const self = {
    name: "board",
    session: sid,
    show,
    refresh,
    pending: paintScores,
    saved: () => refresh(),
    refused: () => refresh(),
    key(event) {
      if (event.key !== "Enter" || !entry) return;
      const tag = (event.target && event.target.tagName) || "";
      if (tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT") return;
      if (!draft.ready()) return; // Enter on a key still taps that key
      event.preventDefault();
      record();
    },
  };
  return self;
}
