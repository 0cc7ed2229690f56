// A question the keeper answers before something is taken back or ended: an in-page
// <dialog> in the page's language (not window.confirm, whose buttons the browser words).
//
// A double tap is one answer: a second question while one is open is answered "no",
// the taps that follow an answer closely are dropped, so the second tap of a
// double tap on "Void" does not land on the button the dialog covered, and the second
// tap of the double tap that opened the question does not answer it (Cancel may lie
// where "Void" was).

import { h, clear } from "./dom.js";
import { t } from "./words.js";

const QUIET_MS = 450;
let quietUntil = 0;

let openedUntil = 0; // the second tap of the double tap that opened the question

function swallow(event) {
  const now = performance.now();
  if (now < quietUntil || (event.detail > 1 && now < openedUntil)) {
    event.preventDefault();
    event.stopImmediatePropagation();
  }
}
for (const type of ["click", "dblclick", "pointerup", "touchend"]) document.addEventListener(type, swallow, true);

/** Resolves true when the keeper confirms. */
export function ask(text, yes, danger) {
  let dialog = document.getElementById("ask");
  if (!dialog) {
    dialog = h("dialog", { id: "ask", "aria-labelledby": "ask-text" });
    document.body.append(dialog);
  }
  if (dialog.open || performance.now() < quietUntil) return Promise.resolve(false);
  return new Promise((resolve) => {
    let answered = false;
    const done = (answer) => {
      if (answered) return;
      answered = true;
      quietUntil = performance.now() + QUIET_MS;
      dialog.close();
      resolve(answer);
    };
    clear(dialog,
      h("p", { id: "ask-text" }, text),
      h("div", { class: "row end" },
        h("button", { type: "button", class: "button", on: { click: () => done(false) } }, t("cancel")),
        h("button", { type: "button", class: "button " + (danger ? "danger-fill" : "primary"),
          on: { click: () => done(true) } }, yes)));
    dialog.oncancel = (event) => { event.preventDefault(); done(false); };
    dialog.showModal();
    openedUntil = performance.now() + QUIET_MS; // a double tap's second tap answers nothing
    dialog.querySelector(".primary, .danger-fill").focus();
  });
}
