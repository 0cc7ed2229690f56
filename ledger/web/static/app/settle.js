// Settle a table, the money first: the fewest payments at the top, each with its
// amount in the session's coins, what is paid and outstanding, and Mark paid (the
// engine's pay op; a payment whose payee has a pay id opens its payment code, paycode.js);
// then the payments recorded (Take back), the share card, and — one tap away, folded —
// the working its settlement kind really uses (pairwise Σs − n·s, pay the winner,
// ranked, teams — as the command line prints it), the nets and pair by pair. Ending a
// session opens this screen (log.js).

import { h, clear, signedMoney, tone } from "./dom.js";
import { t } from "./words.js";
import { sessionTitle } from "./names.js";
import { pays, progressItem, recordedItem, working } from "./settle-parts.js";
import { shareSection } from "./settle-share.js";
import { payCodeScreen } from "./paycode.js";
import { payIdForm } from "./settle-payid.js";
import { keep, kept } from "./scope.js";

export { shareText } from "./settle-share.js";

const COINS = ["", "0.1", "0.5", "1", "5", "10"];

export function settleScreen(app, sid) {
  let coin = kept("bigtwo.coin") || "";
  let opened = null; // the payment code on screen: it stays over the refreshed settlement

  async function show(main) {
    const [board, st] = await Promise.all([app.engine.board(sid), app.engine.settle(sid, coin || undefined, true)]);
    const s = board.session;
    const currency = st.currency;
    // Payments still in the outbox: their Mark paid stays off until they are answered.
    const waiting = new Set(app.outbox.pending(sid).filter((i) => i.op === "pay")
      .map((i) => i.args.from + "\u0000" + i.args.to));
    const coinSelect = h("select", { "aria-label": t("coins") },
      ...COINS.map((c) => h("option", { value: c, selected: c === coin }, c ? c + " " + currency : t("exact"))));
    coinSelect.addEventListener("change", () => {
      coin = coinSelect.value;
      keep("bigtwo.coin", coin);
      show(main);
    });
    const rounded = !!st.round;
    const codes = st.payments.map((p) => p.pay_code || null); // the keeper's alone (the hub decides)
    const open = (i) => {
      opened = payCodeScreen(app, sid, st.progress[i], codes[i], currency, () => { opened = null; });
    };
    const plan = (st.progress || []).map((p, i) => progressItem(app, sid, p, currency,
      waiting.has(p.from + "\u0000" + p.to), codes[i] ? () => open(i) : null));
    const money = h("table", { class: "money" },
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("player")),
        h("th", { scope: "col", class: "num" }, currency),
        rounded ? [h("th", { scope: "col", class: "num" }, t("exact")), h("th", { scope: "col", class: "num" }, t("rounding"))] : null)),
      h("tbody", {}, Object.entries(st.nets).map(([n, v]) => h("tr", { class: tone(v) },
        h("th", { scope: "row" }, n), h("td", { class: "num big" }, signedMoney(v)),
        rounded ? [h("td", { class: "num" }, signedMoney(st.exact_nets[n])), h("td", { class: "num" }, signedMoney(st.rounding[n]))] : null))));
    // The working, once opened, stays open as the screen redraws (a change, the live feed).
    const shown = main.querySelector("details.working-fold");
    const unfolded = !!(shown && shown.open);
    clear(main,
      h("section", { class: "card money-first", id: "payments" },
        h("h1", {}, t("settle_of", { name: sessionTitle(s) })),
        h("h2", {}, t("fewest_payments", { count: st.payments.length })),
        st.payments.length ? h("ul", { class: "pays plan" }, plan) : h("p", { class: "meta" }, t("all_square")),
        h("label", { class: "inline" }, t("coins"), " ", coinSelect),
        rounded ? h("p", { class: "meta" }, t("rounded_to", { coin: st.round, currency })) : null),
      h("section", { class: "card" },
        h("details", { class: "working-fold", open: unfolded },
          h("summary", {}, t("show_working")),
          ...st.working.flatMap((w) => working(w, currency)),
          h("h2", {}, t("money", { currency })),
          money,
          h("h2", {}, t("pair_by_pair")),
          st.pairwise.length ? h("ul", { class: "pays" }, st.pairwise.map((p) => pays(p, ""))) : h("p", { class: "meta" }, t("nobody_owes")))),
      h("section", { class: "card" },
        h("h2", {}, t("payments_recorded")),
        st.recorded && st.recorded.length ? h("ul", { class: "pays recorded" }, st.recorded.map((p) => recordedItem(app, sid, p)))
          : h("p", { class: "meta" }, t("no_payments"))),
      app.keeper() ? payIdForm(app, s) : null,
      shareSection(s, st));
    if (opened) opened.update(st);
  }

  const refresh = () => show(document.getElementById("main"));
  return {
    name: "settle", session: sid, show, refresh,
    saved: (item, result) => { if (opened) opened.saved(item, result); refresh(); },
    refused: (item, result) => { if (opened) opened.refused(item, result); refresh(); },
  };
}
