// The offline app handed on and kept: the browser's install prompt where it has one
// (beforeinstallprompt, kept until the keeper taps Install), a short guide where it has
// none (iOS Safari: Share, then Add to Home Screen), and Share for the app's own address
// (the share sheet, or the address copied). Shown on the tables screen of the offline app.

import { h } from "./dom.js";
import { t } from "./words.js";

let deferred = null; // the browser's install prompt, until used
window.addEventListener("beforeinstallprompt", (event) => {
  event.preventDefault();
  deferred = event;
  document.documentElement.dataset.installable = "true";
});
window.addEventListener("appinstalled", () => { deferred = null; delete document.documentElement.dataset.installable; });

const installed = () => (window.matchMedia && window.matchMedia("(display-mode: standalone)").matches) || navigator.standalone === true;
const ios = () => /iPad|iPhone|iPod/.test(navigator.userAgent) || (navigator.platform === "MacIntel" && navigator.maxTouchPoints > 1);

/** The app's own address: no screen, no token — what opens this app on another phone. */
export function appAddress() {
  return window.location.origin + window.location.pathname;
}

/** A QR code of this app's address ("scan to open this app"), where the site was built
 * for the address it is opened at (`bigtwo app build --url`, static/app-address.json). */
async function qrCode(box, address) {
  try {
    const found = await (await fetch(new URL("static/app-address.json", address))).json();
    if (found.url !== address) return; // built for another address: a code of it would mislead
    box.replaceChildren(h("img", { src: new URL("static/" + found.qr, address).href, width: 132, height: 132,
      alt: t("app_qr_alt", { address }) }), h("span", { class: "meta" }, t("app_qr")));
    box.hidden = false;
  } catch (e) { /* built with no address: Share is the way */ }
}

/** The card: install (or how to), Share this app's address, and its QR code. */
export function appCard(app) {
  const address = appAddress();
  const qr = h("figure", { class: "app-qr", hidden: true });
  qrCode(qr, address);
  async function share() {
    try {
      if (navigator.share) await navigator.share({ title: document.title, url: address });
      else { await navigator.clipboard.writeText(address); app.say(t("app_link_copied", { address }), "ok"); }
    } catch (e) { /* the share sheet closed: nothing to say */ }
  }
  let install = null;
  if (!installed() && deferred) {
    install = h("button", { type: "button", class: "button primary", on: { click: async (event) => {
      const used = deferred;
      deferred = null;
      event.currentTarget.hidden = true;
      if (used) await used.prompt();
    } } }, t("install_app"));
  } else if (!installed() && ios()) {
    install = h("p", { class: "guide" }, t("install_ios"));
  }
  return h("section", { class: "card", "aria-labelledby": "this-app" },
    h("h2", { id: "this-app" }, t("this_app")),
    h("p", { class: "meta address" }, address),
    qr,
    h("p", { class: "row" }, install && install.tagName === "BUTTON" ? install : null,
      h("button", { type: "button", class: "button", on: { click: share } }, t("share_app"))),
    install && install.tagName !== "BUTTON" ? install : null);
}
