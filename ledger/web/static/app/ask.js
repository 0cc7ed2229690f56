// A question the keeper answers before something is taken back or ended: an in-page
// <dialog> in the page's language (not window.confirm, whose buttons the browser words).

import { h, clear } from "./dom.js";
import { t } from "./words.js";

/** Resolves true when the keeper confirms. */
export function ask(text, yes, danger) {
  let dialog = document.getElementById("ask");
  if (!dialog) {
    dialog = h("dialog", { id: "ask", "aria-labelledby": "ask-text" });
    document.body.append(dialog);
  }
  return new Promise((resolve) => {
    const done = (answer) => { dialog.close(); resolve(answer); };
    clear(dialog,
      h("p", { id: "ask-text" }, text),
      h("div", { class: "row end" },
        h("button", { type: "button", class: "button", on: { click: () => done(false) } }, t("cancel")),
        h("button", { type: "button", class: "button " + (danger ? "danger-fill" : "primary"),
          on: { click: () => done(true) } }, yes)));
    dialog.oncancel = (event) => { event.preventDefault(); done(false); };
    dialog.showModal();
    dialog.querySelector(".primary, .danger-fill").focus();
  });
}
