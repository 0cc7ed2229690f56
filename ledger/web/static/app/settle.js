// Settle a table: the working its settlement kind really uses (pairwise, pay the
// winner, ranked, teams — as the command line prints it), the money, rounded to coins
// on request, what of each of the fewest payments is paid and what is outstanding
// (the scorekeeper marks a payment paid, in part or whole, and takes one back: the
// engine's pay and unpay ops, which check every amount), and the share: the phone's
// share sheet with a PNG card drawn here where the page is a secure context, copy and
// download everywhere else.

import { h, clear, signed, signedMoney, tone } from "./dom.js";
import { t } from "./words.js";
import { sessionTitle, when } from "./names.js";
import { drawCard, paidNote } from "./card.js";
import { ask } from "./ask.js";
import { keep, kept } from "./scope.js";

const COINS = ["", "0.1", "0.5", "1", "5", "10"];

function paysParts(p, currency) {
  const text = t("pays", { payer: "\u0000", payee: "\u0001" });
  const out = [];
  for (const part of text.split(/(\u0000|\u0001)/)) {
    if (part === "\u0000") out.push(h("span", { class: "name" }, p.from));
    else if (part === "\u0001") out.push(h("span", { class: "name" }, p.to));
    else if (part.trim()) out.push(h("span", { class: "arrow" }, part.trim()));
  }
  return [...out, h("strong", {}, p.amount + (currency ? " " + currency : ""))];
}

function pays(p, currency) {
  return h("li", {}, ...paysParts(p, currency));
}

function working(w, currency) {
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
 * until the engine has answered, so a double tap writes once. */
function progressItem(app, sid, p, currency, waiting) {
  const done = Number(p.outstanding) === 0;
  const item = h("li", { class: "progress" + (done ? " done" : ""), data: { from: p.from, to: p.to } },
    h("div", { class: "pay-line" }, ...paysParts(p, currency)),
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
function recordedItem(app, sid, p) {
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

/** The settlement as text for a group chat, in the page's language. */
export function shareText(s, st) {
  const currency = st.currency;
  const lines = [sessionTitle(s) + " · " + when(s.started_at), ""];
  for (const [n, v] of Object.entries(st.nets)) lines.push(n + "  " + signedMoney(v) + " " + currency);
  lines.push("");
  if (st.payments.length) {
    st.payments.forEach((p, i) => {
      const note = paidNote(st, i);
      lines.push(t("pays", { payer: p.from, payee: p.to }) + "  " + p.amount + " " + currency + (note ? " · " + note : ""));
    });
  } else {
    lines.push(t("all_square"));
  }
  if (st.round) lines.push("", t("rounded_to", { coin: st.round, currency }));
  return lines.join("\n");
}

export function settleScreen(app, sid) {
  let coin = kept("bigtwo.coin") || "";

  async function show(main) {
    const [board, st] = await Promise.all([app.engine.board(sid), app.engine.settle(sid, coin || undefined)]);
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
    const money = h("table", { class: "money" },
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("player")),
        h("th", { scope: "col", class: "num" }, currency),
        rounded ? [h("th", { scope: "col", class: "num" }, t("exact")), h("th", { scope: "col", class: "num" }, t("rounding"))] : null)),
      h("tbody", {}, Object.entries(st.nets).map(([n, v]) => h("tr", { class: tone(v) },
        h("th", { scope: "row" }, n), h("td", { class: "num big" }, signedMoney(v)),
        rounded ? [h("td", { class: "num" }, signedMoney(st.exact_nets[n])), h("td", { class: "num" }, signedMoney(st.rounding[n]))] : null))));
    const text = shareText(s, st);
    const canvas = drawCard(s, st);
    canvas.setAttribute("role", "img");
    canvas.setAttribute("aria-label", t("card_label"));
    const secure = window.isSecureContext && typeof navigator.share === "function";
    const textBox = h("pre", { class: "share", id: "share-text" }, text);
    const shareButtons = h("div", { class: "row" });
    if (secure) {
      shareButtons.append(h("button", { type: "button", class: "button primary", on: { click: () => share(canvas, text) } }, t("share")));
    }
    shareButtons.append(
      h("button", { type: "button", class: "button", on: { click: (e) => copy(text, textBox, e.currentTarget) } }, t("copy_text")),
      h("button", { type: "button", class: "button", on: { click: () => download(canvas) } }, t("download_image")));
    clear(main,
      h("section", { class: "card" },
        h("h1", {}, t("settle_of", { name: sessionTitle(s) })),
        ...st.working.flatMap((w) => working(w, currency))),
      h("section", { class: "card" },
        h("h2", {}, t("money", { currency })),
        h("label", { class: "inline" }, t("coins"), " ", coinSelect),
        rounded ? h("p", { class: "meta" }, t("rounded_to", { coin: st.round, currency })) : null,
        money,
        h("h2", {}, t("pair_by_pair")),
        st.pairwise.length ? h("ul", { class: "pays" }, st.pairwise.map((p) => pays(p, ""))) : h("p", { class: "meta" }, t("nobody_owes")),
        h("h2", {}, t("fewest_payments", { count: st.payments.length })),
        st.payments.length ? h("ul", { class: "pays plan" }, (st.progress || []).map((p) => progressItem(app, sid,
          p, currency, waiting.has(p.from + "\u0000" + p.to)))) : h("p", { class: "meta" }, t("all_square")),
        h("h2", {}, t("payments_recorded")),
        st.recorded && st.recorded.length ? h("ul", { class: "pays recorded" }, st.recorded.map((p) => recordedItem(app, sid, p)))
          : h("p", { class: "meta" }, t("no_payments"))),
      h("section", { class: "card" },
        h("h2", {}, t("share")),
        secure ? null : h("p", { class: "meta" }, t("no_share_sheet")),
        shareButtons, canvas, textBox));
  }

  async function share(canvas, text) {
    const blob = await new Promise((r) => canvas.toBlob(r, "image/png"));
    const file = new File([blob], "bigtwo-settle.png", { type: "image/png" });
    const data = navigator.canShare && navigator.canShare({ files: [file] }) ? { text, files: [file] } : { text };
    try { await navigator.share(data); } catch (e) { /* the keeper closed the sheet */ }
  }

  async function copy(text, box, button) {
    try {
      await navigator.clipboard.writeText(text);
    } catch (e) {
      const range = document.createRange();
      range.selectNodeContents(box);
      const sel = window.getSelection();
      sel.removeAllRanges();
      sel.addRange(range);
      try { document.execCommand("copy"); } catch (e2) { /* selected: the keeper copies by hand */ }
    }
    button.textContent = t("copied");
  }

  function download(canvas) {
    canvas.toBlob((blob) => {
      const url = URL.createObjectURL(blob);
      const a = h("a", { href: url, download: "bigtwo-settle.png" });
      document.body.append(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(url), 5000);
    }, "image/png");
  }

  const refresh = () => show(document.getElementById("main"));
  return { name: "settle", session: sid, show, refresh, saved: refresh, refused: refresh };
}
