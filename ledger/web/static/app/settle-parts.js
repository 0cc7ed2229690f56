// The parts of the settle screen (settle.js): who pays whom, the working its settlement
// kind uses, and the payments — owed with Mark paid, recorded with Take back.

import { h, signed, tone } from "./dom.js";
import { t } from "./words.js";
import { ask } from "./ask.js";

export function paysParts(p, currency) {
  const text = t("pays", { payer: "\u0000", payee: "\u0001" });
  const out = [];
  for (const part of text.split(/(\u0000|\u0001)/)) {
    if (part === "\u0000") out.push(h("span", { class: "name" }, p.from));
    else if (part === "\u0001") out.push(h("span", { class: "name" }, p.to));
    else if (part.trim()) out.push(h("span", { class: "arrow" }, part.trim()));
  }
  return [...out, h("strong", {}, p.amount + (currency ? " " + currency : ""))];
}

export function pays(p, currency) {
  return h("li", {}, ...paysParts(p, currency));
}

export function working(w, currency) {
  const names = Object.keys(w.totals);
  if (w.method === "pairwise" || w.method === "teams") {
    return [
      h("h2", {}, w.method === "teams" ? t("working_teams") : t("working_pairwise")),
      h("p", { class: "formula" }, t("formula", { sum: w.sum_s, n: w.n })),
      h("p", { class: "meta" }, t(w.method === "teams" ? "working_teams_note" : "working_pairwise_note", { stake: w.stake, currency })),
      h("table", { class: "working" },
        h("thead", {}, h("tr", {}, h("th", { scope: "col" }, w.method === "teams" ? t("team") : t("player")),
          h("th", { scope: "col", class: "num" }, "s"), h("th", { scope: "col", class: "num" }, w.n + "·s"),
          h("th", { scope: "col", class: "num" }, t("net_points")))),
        h("tbody", {}, names.map((n) => h("tr", {}, h("th", { scope: "row" }, n),
          h("td", { class: "num" }, w.totals[n]), h("td", { class: "num" }, w.n * w.totals[n]),
          h("td", { class: "num " + tone(w.net_points[n]) }, signed(w.net_points[n])))))),
    ];
  }
  const heading = w.method === "ranked" ? t("working_ranked") : t("working_winner");
  const note = w.method === "ranked" ? t("working_ranked_note", { stake: w.stake, currency })
    : t("working_winner_note", { stake: w.stake, currency });
  return [
    h("h2", {}, heading),
    h("p", { class: "meta" }, note),
    h("table", { class: "working" },
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("player")),
        h("th", { scope: "col", class: "num" }, t("penalty_s")), h("th", { scope: "col", class: "num" }, t("net_points")))),
      h("tbody", {}, names.map((n) => h("tr", {}, h("th", { scope: "row" }, n),
        h("td", { class: "num" }, w.totals[n]),
        h("td", { class: "num " + tone(w.net_points[n]) }, signed(w.net_points[n])))))),
  ];
}

const paidWords = (p) => t("paid_what", { payer: p.from, payee: p.to, amount: p.amount, currency: p.currency });

/** One of the fewest payments: how much is paid and what is outstanding; for the
 * scorekeeper the amount paid now (the outstanding amount unless changed) and
 * Mark paid, which queues one `pay` write — the button is off from the first tap
 * until the engine has answered, so a double tap writes once. With `openCode` (the
 * payee has a pay id for the session's currency) the payment itself is a button that
 * opens its payment code (paycode.js). */
export function progressItem(app, sid, p, currency, waiting, openCode) {
  const done = Number(p.outstanding) === 0;
  const line = !done && openCode
    ? h("button", { type: "button", class: "pay-line has-code", "aria-label": t("show_pay_code_label", { payer: p.from, payee: p.to }),
      on: { click: openCode } }, ...paysParts(p, currency), h("span", { class: "code-mark", "aria-hidden": "true" }, "▦"))
    : h("div", { class: "pay-line" }, ...paysParts(p, currency));
  const item = h("li", { class: "progress" + (done ? " done" : ""), data: { from: p.from, to: p.to } },
    line,
    h("p", { class: "meta state" }, done ? t("paid_in_full")
      : t("paid_outstanding", { paid: p.paid, outstanding: p.outstanding, currency })));
  if (done || !app.keeper()) return item;
  const amount = h("input", { type: "text", inputmode: "decimal", autocomplete: "off", value: p.outstanding,
    class: "amount", "aria-label": t("amount_paid_label", { payer: p.from, payee: p.to, currency }) });
  const button = h("button", { type: "button", class: "button primary small",
    "aria-label": t("mark_paid_label", { payer: p.from, payee: p.to, currency }) }, t("mark_paid"));
  if (waiting) { button.disabled = true; amount.disabled = true; }
  button.addEventListener("click", () => {
    if (button.disabled) return;
    button.disabled = true;
    amount.disabled = true;
    const given = amount.value.trim();
    app.outbox.add("pay", { session: sid, from: p.from, to: p.to, amount: given },
      { kind: "pay", payer: p.from, payee: p.to, amount: given, currency });
  });
  item.append(h("div", { class: "row pay-row" }, amount, button));
  return item;
}

/** A payment recorded for this session, with Take back for the scorekeeper. */
export function recordedItem(app, sid, p) {
  const item = h("li", {}, h("span", {}, paidWords(p)), p.note ? h("span", { class: "meta" }, p.note) : null);
  if (!app.keeper()) return item;
  item.append(h("button", { type: "button", class: "button small danger",
    "aria-label": t("take_back_label", { what: paidWords(p) }),
    on: { click: async (e) => {
      const button = e.currentTarget;
      if (button.disabled) return;
      button.disabled = true;
      if (await ask(t("take_back_ask", { what: paidWords(p) }), t("take_back"), true)) {
        app.outbox.add("unpay", { session: sid, payment: p.uuid }, { kind: "unpay", what: paidWords(p) });
      } else {
        button.disabled = false;
      }
    } } }, t("take_back")));
  return item;
}
