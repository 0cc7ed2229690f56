// What the deal being entered scores, asked of the engine as the keeper taps (nothing
// is written): the newest answer wins, an older one arriving late is dropped.

import { h, clear, signed, tone } from "./dom.js";
import { t } from "./words.js";

function table(found) {
  return h("table", { class: "preview-table" },
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("player")), h("th", { scope: "col", class: "num" }, t("cards")),
      h("th", { scope: "col", class: "num" }, t("penalty")), h("th", { scope: "col", class: "num" }, t("points")))),
    h("tbody", {}, found.players.map((p) => h("tr", {},
      h("th", { scope: "row" }, p.name + (p.win ? " ★" : "") + (p.fried ? " " + t("fried") : "")),
      h("td", { class: "num" }, p.cards), h("td", { class: "num" }, p.penalty),
      h("td", { class: "num " + tone(p.net) }, signed(p.net))))));
}

/** A previewer drawing into `box`: show(draft) asks for the draft's line once the taps
 * pause, or says what to tap next. */
export function previewer(engine, sid, box) {
  let asked = 0;
  let timer = null;
  return function show(draft) {
    clearTimeout(timer);
    const ticket = ++asked;
    if (!draft.ready()) {
      clear(box, h("p", { class: "meta" }, t(draft.hint())));
      return;
    }
    const text = draft.line();
    if (typeof sid !== "number") { // a table still waiting for its start: the engine has none yet
      clear(box, h("p", { class: "meta" }, t("preview_later")));
      return;
    }
    timer = setTimeout(async () => {
      try {
        const found = await engine.preview(sid, text);
        if (ticket === asked) clear(box, table(found));
      } catch (error) {
        if (ticket !== asked) return;
        clear(box, error.retry ? h("p", { class: "meta" }, t("preview_later"))
          : h("p", { class: "error", role: "alert" }, error.message));
      }
    }, 120);
  };
}
