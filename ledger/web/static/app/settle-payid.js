// The scorekeeper's form on the settle screen (settle.js): a player's way to be paid —
// an FPS id or Hong Kong mobile or e-mail, a PayNow mobile or UEN, a PromptPay mobile or
// national id, or any other receive code as text — written by the engine's set_pay_id
// op (checked per scheme there; the id is never shown back, money.md).

import { h } from "./dom.js";
import { t } from "./words.js";

const SCHEMES = ["fps", "paynow", "promptpay", "text"];

export function payIdForm(app, s) {
  const player = h("select", { id: "payid-player", "aria-label": t("player") },
    ...s.players.map((n) => h("option", { value: n }, n)));
  const scheme = h("select", { id: "payid-scheme", "aria-label": t("pay_scheme") },
    ...SCHEMES.map((c) => h("option", { value: c }, t("scheme_" + c))));
  const id = h("input", { type: "text", id: "payid-id", autocomplete: "off", "aria-label": t("pay_id"),
    placeholder: t("pay_id_hint") });
  const save = h("button", { type: "button", class: "button", id: "payid-save" }, t("save_pay_id"));
  save.addEventListener("click", () => {
    const typed = id.value.trim();
    if (!typed || save.disabled) return;
    save.disabled = true;
    app.outbox.add("setPayId", { player: player.value, scheme: scheme.value, id: typed },
      { kind: "set_pay_id", player: player.value });
  });
  return h("section", { class: "card payid" },
    h("details", {},
      h("summary", {}, t("pay_ids_title")),
      h("p", { class: "meta" }, t("pay_ids_note")),
      h("div", { class: "row" }, player, scheme),
      h("div", { class: "row" }, id, save)));
}
