// A table's deals, every one of them (ended sessions too), with Fix and Void for the
// keeper; undo says what it will take back and asks first; end and reopen.

import { takenBack } from "./model-numbers.js";
import { h, clear, signed, tone } from "./dom.js";
import { t } from "./words.js";
import { sessionTitle } from "./names.js";
import { lineChart } from "./charts.js";

/** Each player's running total after deal 0, 1, 2… (the deals come newest first). */
function evening(players, deals) {
  const series = players.map((name) => ({ name, values: [0] }));
  for (const d of deals.slice().reverse()) {
    for (const x of series) x.values.push(x.values[x.values.length - 1] + ((d.net || {})[x.name] || 0));
  }
  return series;
}

export function undoText(u) {
  if (!u) return t("undo_nothing");
  if (u.action === "session end") return t("undo_ask_end");
  if (u.action === "session reopen") return t("undo_ask_reopen");
  if (u.action === "amend") return t("undo_ask_amend", { n: u.deal, line: u.line || "", back: u.back || "" });
  if (u.action === "void") return t("undo_ask_void", { n: u.deal, back: u.back || "" });
  if (u.deal == null) return t("undo_ask_seat", { action: u.action }); // a seat change: no deal
  return t("undo_ask_deal", { n: u.deal, line: u.line || "" });
}

export function logScreen(app, sid) {
  let board = null;
  let deals = [];
  let asking = false;

  /** One question at a time: a double tap on a button asks once. */
  async function once(work) {
    if (asking) return;
    asking = true;
    try { await work(); } finally { asking = false; }
  }

  async function undo() {
    // What undo takes back is the ledger's last action: with a write still on its way
    // the answer would be out of date, so it waits for the outbox first.
    if (app.outbox.pending(sid).length) { app.say(t("undo_wait"), "bad"); return; }
    const u = await app.engine.undoPreview(sid);
    if (!u) { app.say(t("undo_nothing")); return; }
    if (!(await app.ask(undoText(u), t("undo"), true))) return;
    if (app.outbox.pending(sid).length) { app.say(t("undo_wait"), "bad"); return; }
    app.outbox.add("undo", { session: sid }, { kind: "undo" });
  }

  async function voidDeal(d) {
    if (!(await app.ask(t("void_ask", { n: d.deal, line: d.line }), t("void"), true))) return;
    app.outbox.add("void", { session: sid, deal_uuid: d.uuid }, { kind: "void", deal: d.deal });
  }

  async function end() {
    if (!(await app.ask(t("end_ask"), t("end_session"), true))) return;
    app.outbox.add("end", { session: sid }, { kind: "end" });
  }

  async function reopen() {
    if (!(await app.ask(t("reopen_ask", { name: sessionTitle(board.session) }), t("reopen")))) return;
    app.outbox.add("reopen", { session: sid }, { kind: "reopen" });
  }

  async function show(main) {
    [board, deals] = await Promise.all([app.engine.board(sid), app.engine.deals(sid)]);
    const s = board.session;
    const keeper = app.keeper();
    const row = (d) => h("li", { class: "deal" },
      h("div", { class: "deal-head" },
        h("strong", {}, t("deal_n", { n: d.deal })),
        d.kind === "amend" ? h("span", { class: "badge" }, t("amended")) : null,
        keeper ? h("span", { class: "fix-row" },
          h("a", { class: "button small", href: "#/t/" + sid + "/fix/" + d.deal, "aria-label": t("fix_deal", { n: d.deal }) }, t("fix")),
          h("button", { type: "button", class: "button small danger", "aria-label": t("void_deal", { n: d.deal }),
            on: { click: () => once(() => voidDeal(d)) } }, t("void"))) : null),
      h("code", { class: "line" }, d.line),
      h("span", { class: "nets" }, ...s.players.map((n) => h("span", { class: tone((d.net || {})[n] || 0) },
        n + " " + signed((d.net || {})[n] || 0)))));
    // Taken-back numbers keep their place: "Deal 5: taken back", never renumbered (model-numbers.js).
    const gone = new Set(takenBack(deals.map((d) => d.deal), board.next_deal || 1));
    const rows = deals.flatMap((d, i) => {
      const above = i ? deals[i - 1].deal : board.next_deal || 1; // the newer deal's number
      const gaps = [];
      for (let n = above - 1; n > d.deal; n--) if (gone.has(n)) gaps.push(h("li", { class: "deal gone meta" }, t("deal_taken_back", { n })));
      return [...gaps, row(d)];
    });
    const oldest = deals.length ? deals[deals.length - 1].deal : board.next_deal || 1;
    for (let n = oldest - 1; n >= 1; n--) rows.push(h("li", { class: "deal gone meta" }, t("deal_taken_back", { n })));
    const u = board.undo;
    clear(main,
      h("section", { class: "card" },
        h("h1", {}, t("log_of", { name: sessionTitle(s) })),
        rows.length ? lineChart(evening(s.players, deals), { label: t("chart_evening"), xLabel: t("deal_axis") }) : null,
        rows.length ? h("ul", { class: "log" }, rows) : h("p", { class: "meta" }, t("no_deals"))),
      keeper ? h("section", { class: "card" },
        h("h2", {}, t("corrections")),
        h("p", { class: "meta" }, u ? undoText(u) : t("undo_nothing")),
        h("div", { class: "row" },
          h("button", { type: "button", class: "button", disabled: !u, on: { click: () => once(undo) } }, t("undo_last")),
          s.ended_at
            ? h("button", { type: "button", class: "button", on: { click: () => once(reopen) } }, t("reopen"))
            : h("button", { type: "button", class: "button danger", on: { click: () => once(end) } }, t("end_session")))) : null);
  }

  const refresh = () => show(document.getElementById("main"));
  // Ending the session shows the money first: the settle screen, the fewest payments on top.
  const saved = (item) => (item.op === "end" && item.args.session === sid ? app.go("#/t/" + sid + "/settle") : refresh());
  return { name: "log", session: sid, show, refresh, saved };
}
