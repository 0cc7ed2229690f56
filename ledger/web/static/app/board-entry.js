// The keeper's deal entry at the speed of a paper sheet: tap the winner, then each other
// player's cards left on a keypad (one tap each, the value replaced); in places mode,
// tap the players in finishing order. It draws a DealDraft (model-draft.js) and changes
// it only through the draft's methods; the DOM is built once and updated in place.

import { h, clear } from "./dom.js";
import { t } from "./words.js";
import { factControls } from "./board-facts.js";

/** The entry over `draft`; `changed()` runs after every tap. */
export function entryForm(draft, changed) {
  const places = draft.byOrder;
  const after = () => { paint(); changed(); };
  const title = h("h2", { id: "entry-title" });
  const who = h("div", { class: "choices", role: places ? "group" : "radiogroup", "aria-labelledby": "who-legend" });
  const keyLegend = h("p", { class: "legend" }, t("cards_left"));
  const chips = h("div", { class: "chips" });
  const keypad = h("div", { class: "keypad", role: "group", "aria-label": t("cards_left") });
  const extras = h("div", { class: "extras" });
  const preview = h("div", { class: "preview", "aria-live": "polite" });

  for (const n of draft.seats) {
    const attrs = places ? { "aria-pressed": "false" } : { role: "radio", "aria-checked": "false" };
    who.append(h("button", { type: "button", class: "choice", ...attrs, data: { player: n },
      on: { click: () => { draft.tapPlayer(n); after(); } } }, n));
  }
  if (!places) {
    for (let k = 0; k <= draft.handSize; k++) {
      keypad.append(h("button", { type: "button", class: "key", data: { n: k },
        on: { click: () => { draft.tapKey(k); after(); } } }, String(k)));
    }
  }
  const node = h("section", { class: "card entry", "aria-labelledby": "entry-title" },
    title, h("p", { class: "legend", id: "who-legend" }, places ? t("tap_order") : t("who_won")), who,
    places ? null : [keyLegend, chips, keypad], extras, preview);

  function paintWho() {
    for (const b of who.querySelectorAll("button")) {
      const n = b.dataset.player;
      if (places) {
        const at = draft.order.indexOf(n);
        b.setAttribute("aria-pressed", String(at >= 0));
        b.dataset.place = at >= 0 ? String(at + 1) : "";
      } else {
        b.setAttribute("aria-checked", String(n === draft.winner));
      }
    }
  }

  function paintKeypad() {
    const typing = !!draft.winner && !draft.win;
    clear(chips, ...(typing ? draft.losers : []).map((n) => {
      const has = Number.isInteger(draft.counts[n]);
      return h("button", { type: "button", class: "chip" + (n === draft.target ? " target" : ""),
        "aria-pressed": String(n === draft.target),
        "aria-label": has ? t("chip", { name: n, n: draft.counts[n] }) : t("chip_unset", { name: n }),
        on: { click: () => { draft.aim(n); after(); } } },
      h("span", { class: "who" }, n), h("span", { class: "count" }, has ? String(draft.counts[n]) : "–"));
    }));
    keypad.hidden = !typing;
    keyLegend.hidden = !typing;
    keyLegend.textContent = draft.target ? t("cards_left_of", { name: draft.target }) : t("cards_left");
    for (const key of keypad.querySelectorAll("button")) {
      const k = Number(key.dataset.n);
      key.disabled = !draft.target;
      key.setAttribute("aria-label", draft.target ? t("key", { name: draft.target, n: k }) : String(k));
      key.setAttribute("aria-pressed", String(!!draft.target && draft.counts[draft.target] === k));
    }
  }

  function paint() {
    paintWho();
    if (!places) paintKeypad();
    clear(extras, ...factControls(draft, after));
  }

  return { node, preview, paint, title: (text) => { title.textContent = text; } };
}
