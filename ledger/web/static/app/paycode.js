// A payment's code filling the screen (settle.js opens it by a tap on the payment):
// the payee's EMVCo payload (FPS, PayNow, PromptPay; ledger/core/paycode.py) drawn as a
// QR code on a canvas from the module matrix the engine makes (engine.qr: the hub's POST
// /qr, or the offline app's own engine with the vendored segno — the same Python,
// ledger/present/qr.py; nothing loaded from elsewhere), or a `text` receive code written out with the amount beside
// it; a brightness hint; then Mark paid — the engine's pay op for the outstanding
// amount, with the id made when this screen opened, so a double tap and a retried
// request are the one write.

import { h, clear } from "./dom.js";
import { t } from "./words.js";
import { newId } from "./model-ids.js";

/** The matrix ({rows: ["0110…"]}) drawn on a canvas, `px` pixels a module. */
export function drawQr(rows, px = 8) {
  const n = rows.length;
  const canvas = h("canvas", { class: "qr", width: n * px, height: n * px, role: "img", "aria-label": t("pay_code_label") });
  const g = canvas.getContext("2d");
  g.fillStyle = "#fff";
  g.fillRect(0, 0, n * px, n * px);
  g.fillStyle = "#000";
  rows.forEach((row, y) => { for (let x = 0; x < row.length; x += 1) if (row[x] === "1") g.fillRect(x * px, y * px, px, px); });
  return canvas;
}

export function payCodeScreen(app, sid, p, code, currency, onClose) {
  const key = newId(); // the payment's id, made as the code opened
  let state = "open"; // open | sending | paid
  const amount = p.outstanding;
  const holder = h("div", { class: "qr-holder" }, h("p", { class: "meta" }, t("pay_code_drawing")));
  const status = h("p", { class: "meta pay-state", role: "status" });
  const markPaid = h("button", { type: "button", class: "button primary big", id: "code-mark-paid" }, t("mark_paid"));
  const close = h("button", { type: "button", class: "button", id: "code-close" }, t("close"));
  const title = h("h1", {}, t("pays", { payer: p.from, payee: p.to }));
  const layer = h("div", { class: "paycode", role: "dialog", "aria-modal": "true", "aria-label": t("pay_code_label"),
    data: { scheme: code.scheme } },
  title, h("p", { class: "amount-big" }, amount + " " + currency), holder,
  h("p", { class: "meta" }, t("brightness_hint")), status, h("div", { class: "row" }, markPaid, close));
  document.body.append(layer);
  document.documentElement.dataset.paycode = "open";

  if (code.scheme === "text") {
    clear(holder, h("p", { class: "receive-code" }, code.payload),
      h("p", { class: "meta" }, t("text_code_note", { amount, currency })));
  }
  app.engine.qr(code.payload).then((answer) => {
    holder.prepend(drawQr(answer.rows));
    const wait = holder.querySelector(".meta");
    if (code.scheme !== "text" && wait) wait.remove();
  }, (e) => { if (code.scheme !== "text") clear(holder, h("p", { class: "error" }, e.message)); });

  markPaid.addEventListener("click", () => {
    if (state !== "open") return;
    state = "sending";
    markPaid.disabled = true;
    status.textContent = t("pay_code_sending");
    app.outbox.add("pay", { session: sid, from: p.from, to: p.to, amount },
      { kind: "pay", payer: p.from, payee: p.to, amount, currency }, key);
  });
  function shut() {
    layer.remove();
    delete document.documentElement.dataset.paycode;
    window.removeEventListener("hashchange", shut);
    onClose();
  }
  close.addEventListener("click", shut);
  window.addEventListener("hashchange", shut);
  markPaid.focus();

  return {
    close: shut,
    update() {},
    saved(item) {
      if (item.id !== key) return;
      state = "paid";
      status.textContent = t("paid_what", { payer: p.from, payee: p.to, amount, currency });
      layer.dataset.paid = "1";
    },
    refused(item, result) {
      if (item.id !== key) return;
      state = "open";
      markPaid.disabled = false;
      status.textContent = (result && result.message) || "";
    },
  };
}
