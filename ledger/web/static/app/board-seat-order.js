// The seat order, folded inside the Seats section (board-seats.js): the keeper moves a
// player up or down until the list is the order round the table, and saves it as one
// `seat` write with action `order` (every seated player) — `bigtwo seat order A,B,C`.
// "From deal" (blank: from the next deal) says the order was entered wrong and has been
// this one since deal N (`--from-deal N`); the engine checks the number and the names.

import { h, clear } from "./dom.js";
import { t } from "./words.js";

/** The fold with the order being set; `seated` the engine's seat order, `last` the
 * highest deal "from deal" may name (the next deal), `state.orderOpen` keeps it open. */
export function orderForm(seated, last, send, state) {
  let order = [...seated];
  const list = h("ol", { class: "seat-order-list", "aria-label": t("seat_order") });
  const from = h("input", { type: "number", inputmode: "numeric", min: 1, max: last, step: 1 });
  const save = h("button", { type: "button", class: "button primary", on: { click: saveOrder } },
    t("seat_order_save"));

  const deal = () => {
    const n = from.value.trim();
    return n === "" ? null : Number(n);
  };
  const moved = () => order.some((n, i) => n !== seated[i]);
  const button = (text, cls, label, disabled, click) => h("button", { type: "button",
    class: "button small " + cls, "aria-label": label, disabled, on: { click } }, text);

  function move(i, by) {
    const j = i + by;
    [order[i], order[j]] = [order[j], order[i]];
    paint();
    const again = list.querySelectorAll("li")[j];
    const same = again && again.querySelector(by < 0 ? ".move-up" : ".move-down");
    (same && !same.disabled ? same : again && again.querySelector("button:not(:disabled)"))?.focus();
  }

  function paint() {
    clear(list, order.map((n, i) => h("li", { class: "seat" },
      h("span", { class: "n" }, String(i + 1)), h("span", { class: "who" }, n),
      h("span", { class: "row" },
        button("↑", "move-up", t("seat_order_up", { name: n }), i === 0, () => move(i, -1)),
        button("↓", "move-down", t("seat_order_down", { name: n }), i === order.length - 1, () => move(i, 1))))));
    save.disabled = !moved() && deal() === null;
  }

  function saveOrder() {
    const n = deal();
    if (n !== null && !Number.isInteger(n)) { from.focus(); return; }
    if (!moved() && n === null) return;
    send("order", [...order], n === null ? null : { from_deal: n });
  }

  from.addEventListener("input", paint);
  paint();
  const fold = h("details", { class: "seat-order", open: !!state.orderOpen,
    on: { toggle: () => { state.orderOpen = fold.open; } } },
  h("summary", {}, t("seat_order")),
  list,
  // Before the first deal the order counts from deal 1 anyway: no "from deal".
  last > 1 ? [h("label", {}, t("seat_order_from"), from), h("p", { class: "meta" }, t("seat_order_from_hint", { last }))] : null,
  h("div", { class: "row" }, save));
  return fold;
}
