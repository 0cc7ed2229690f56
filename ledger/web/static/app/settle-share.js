// The settle screen's share card (settle.js): the phone's share sheet with a PNG card
// drawn here where the browser has Web Share, copy and download everywhere — and, where
// it has none, the real reason why (no Web Share at all, or a page that is not secure).

import { h, signedMoney } from "./dom.js";
import { t } from "./words.js";
import { sessionTitle, when } from "./names.js";
import { drawCard, paidNote } from "./card.js";

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

/** Why the share sheet is not offered, or "" when it is: a browser without Web Share
 * (`navigator.share` undefined, as in most desktop browsers even at a secure address)
 * is told so; only a browser that has it but withholds it from a page that is not a
 * secure context is told about https. */
export function noShareReason(win = window) {
  const hasShare = typeof win.navigator.share === "function";
  if (hasShare && win.isSecureContext) return "";
  if (!win.isSecureContext) return t("no_share_insecure");
  return t("no_share_sheet");
}

/** The share section: the buttons, the card and the text. */
export function shareSection(s, st) {
  const text = shareText(s, st);
  const canvas = drawCard(s, st);
  canvas.setAttribute("role", "img");
  canvas.setAttribute("aria-label", t("card_label"));
  const reason = noShareReason();
  const textBox = h("pre", { class: "share", id: "share-text" }, text);
  const buttons = h("div", { class: "row" });
  if (!reason) {
    buttons.append(h("button", { type: "button", class: "button primary", on: { click: () => share(canvas, text) } }, t("share")));
  }
  buttons.append(
    h("button", { type: "button", class: "button", on: { click: (e) => copy(text, textBox, e.currentTarget) } }, t("copy_text")),
    h("button", { type: "button", class: "button", on: { click: () => download(canvas) } }, t("download_image")));
  return h("section", { class: "card share-card" },
    h("h2", {}, t("share")),
    reason ? h("p", { class: "meta", id: "no-share" }, reason) : null,
    buttons, canvas, textBox);
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
