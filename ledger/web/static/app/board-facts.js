// The deal facts beside the keypad, drawn from the offers the engine sends with the
// board (model-draft.js keeps their values). One control per offer kind, never per
// option word: a fact the registry gains shows here with no edit.

import { h } from "./dom.js";
import { t } from "./words.js";
import { factLabel, valueLabel } from "./names.js";

function toggleButton(pressed, label, click, name) {
  return h("button", { type: "button", class: "toggle-button", "aria-pressed": String(pressed),
    "aria-label": name || null, on: { click } }, label);
}

/** A counted fact: a row of 0…most for each loser. */
function counts(draft, o, label, changed) {
  const rows = draft.losers.map((n) => {
    const held = draft.countOf(o.name, n);
    const buttons = [];
    for (let k = 0; k <= draft.most(); k++) {
      buttons.push(h("button", { type: "button", class: "mini", "aria-pressed": String(held === k),
        "aria-label": t("extra_count", { name: n, what: label, n: k }),
        on: { click: () => { draft.setCount(o.name, n, k); changed(); } } }, String(k)));
    }
    return h("div", { class: "mini-row" }, h("span", { class: "who" }, n), h("span", { class: "minis" }, buttons));
  });
  return rows.length ? h("fieldset", {}, h("legend", {}, label), rows) : null;
}

/** One control for each offered fact, once the winner is known. */
export function factControls(draft, changed) {
  if (!draft.winner) return [];
  const toggle = (name, value) => () => { draft.toggle(name, value); changed(); };
  return draft.extras.map((o) => {
    const label = factLabel(o);
    const value = draft.facts[o.name];
    switch (o.kind) {
      case "counts":
        return counts(draft, o, label, changed);
      case "choice":
        return h("fieldset", {}, h("legend", {}, label), h("div", { class: "toggles" },
          ...(o.values || []).map((v) => toggleButton(value === v, valueLabel(v), toggle(o.name, v)))));
      case "flag":
        return h("div", { class: "toggles" }, toggleButton(!!value, label, toggle(o.name, true)));
      case "win":
        return h("div", { class: "toggles" },
          toggleButton(!!value, t("immediate_by", { what: label, name: draft.winner }), toggle(o.name, true)));
      case "player":
      case "loser":
        return h("fieldset", {}, h("legend", {}, label), h("div", { class: "toggles" },
          ...draft.named(o).map((n) => toggleButton(value === n, n, toggle(o.name, n),
            t("extra_player", { what: label, name: n })))));
      default:
        return null;
    }
  });
}
