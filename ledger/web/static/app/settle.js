// Settle a table: the working its settlement kind really uses (pairwise, pay the
// winner, ranked, teams — as the command line prints it), the money, rounded to coins
// on request, what of each of the fewest payments is paid and what is outstanding
// (the scorekeeper marks a payment paid, in part or whole, and takes one back: the
// engine's pay and unpay ops, which check every amount), and the share: the phone's
// share sheet with a PNG card drawn here where the page is a secure context, copy and
// download everywhere else.

import { h, clear, signedMoney, tone } from "./dom.js";
import { t } from "./words.js";
import { sessionTitle, when } from "./names.js";
import { drawCard, paidNote } from "./card.js";
import { pays, progressItem, recordedItem, working } from "./settle-parts.js";
import { keep, kept } from "./scope.js";

const COINS = ["", "0.1", "0.5", "1", "5", "10"];

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
