// The table's seats, folded under the scoreboard: who is seated (in seat order) and who
// sits out, and for the keeper the changes `bigtwo seat …` makes (docs/seats.md): a
// join, a sit-out or back, a leave, a swap, the seat order (board-seat-order.js). Each goes through the outbox as one `seat`
// write with the id made at the tap, so a retry writes it once; the engine checks it
// (a refusal is its own message) and the board redraws from its answer.

import { h } from "./dom.js";
import { t } from "./words.js";
import { orderForm } from "./board-seat-order.js";

/** The seats section of `board` (the engine's board record); `state.open` keeps the
 * fold open across redraws. */
export function seatsPanel(app, sid, board, state) {
  const seats = board.seats || { seated: board.session.players, sitting_out: [], playing: board.session.players };
  const out = new Set(seats.sitting_out);
  // `more`: the op's other arguments (`{sit_out: true}`, `{from_deal: 3}`), or null.
  const send = (action, players, more) => {
    const args = { session: sid, action, players, ...(more || {}) };
    app.outbox.add("seat", args, { kind: "seat", action, names: players, deal: args.from_deal });
  };
  const button = (text, label, click) => h("button", { type: "button", class: "button", "aria-label": label,
    on: { click } }, text);

  const rows = seats.seated.map((n) => h("li", { class: "seat" + (out.has(n) ? " out" : "") },
    h("span", { class: "who" }, n), out.has(n) ? h("span", { class: "badge" }, t("sits_out")) : null,
    app.keeper() ? h("span", { class: "row" },
      out.has(n) ? button(t("seat_back"), t("seat_back_of", { name: n }), () => send("back", [n]))
        : button(t("seat_sit_out"), t("seat_sit_out_of", { name: n }), () => send("sit-out", [n])),
      button(t("seat_leave"), t("seat_leave_of", { name: n }), () => send("leave", [n]))) : null));
  const fold = h("details", { class: "card seats", open: !!state.open,
    on: { toggle: () => { state.open = fold.open; } } },
  h("summary", {}, t("seats_summary", { seated: seats.seated.length, playing: seats.playing.length })),
  h("ol", { class: "seat-list", "aria-label": t("seats") }, rows),
  app.keeper() && !board.session.ended_at ? [joinForm(send), swapForm(seats.seated, send),
    orderForm(seats.seated, board.next_deal || board.session.deals + 1, send, state)] : null);
  return fold;
}

function joinForm(send) {
  const name = h("input", { type: "text", autocomplete: "off", maxlength: 40 });
  const out = h("input", { type: "checkbox" });
  const join = () => {
    const typed = name.value.normalize("NFC").trim();
    if (!typed) { name.focus(); return; }
    send("join", [typed], out.checked ? { sit_out: true } : null);
    name.value = "";
    out.checked = false;
  };
  return h("div", { class: "seat-join" },
    h("label", {}, t("seat_join_name"), name),
    h("label", { class: "inline" }, out, " ", t("seat_join_out")),
    h("button", { type: "button", class: "button", on: { click: join } }, t("seat_join")));
}

function swapForm(seated, send) {
  const pick = (label, at) => h("select", { "aria-label": label },
    seated.map((n, i) => h("option", { value: n, selected: i === at }, n)));
  const a = pick(t("seat_swap_a"), 0);
  const b = pick(t("seat_swap_b"), Math.min(1, seated.length - 1));
  const swap = () => { if (a.value !== b.value) send("swap", [a.value, b.value]); };
  return h("div", { class: "row seat-swap" }, a, b,
    h("button", { type: "button", class: "button", on: { click: swap } }, t("seat_swap")));
}
