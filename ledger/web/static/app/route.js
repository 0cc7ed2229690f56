// The page's address: `#/t/2/fix/5` read into its parts (full-width digits too), a
// link made elsewhere (`?session=2&deal=5`) turned into one, and the screen that says
// what is wrong with an address. main.js routes with these.

import { h, clear } from "./dom.js";
import { t } from "./words.js";

/** A number of the page's address as a person types it: ASCII digits or the full-width
 * digits ０–９ of a Chinese keyboard (as ledger/core/numbers.py reads them), else null. */
export function addressNumber(text) {
  const ascii = String(text || "").trim().replace(/[\uFF10-\uFF19]/g, (d) => String(d.charCodeAt(0) - 0xFF10));
  return /^[0-9]{1,15}$/.test(ascii) ? Number(ascii) : null;
}

/** A screen that only says what is wrong with the address (a deal that is not there…). */
export function problemScreen(text, sid) {
  return {
    name: "problem",
    session: sid || null,
    show(main) {
      clear(main, h("section", { class: "card" }, h("p", { class: "error", role: "alert" }, text),
        sid ? h("a", { class: "button", href: "#/t/" + sid + "/log" }, t("tab_log"))
          : h("a", { class: "button", href: "#/tables" }, t("tab_tables"))));
    },
  };
}

/** `?session=2&deal=5` (a link made elsewhere) is the app's `#/t/2/fix/5`; `?session=2`
 * alone its table. The numbers are read by the router, full-width digits too. */
export function addressFromQuery() {
  const url = new URL(window.location.href);
  const session = url.searchParams.get("session");
  if (session === null) return;
  const deal = url.searchParams.get("deal");
  url.searchParams.delete("session");
  url.searchParams.delete("deal");
  const part = (text) => { const n = addressNumber(text); return n === null ? encodeURIComponent(text) : String(n); };
  const hash = "#/t/" + part(session) + (deal !== null ? "/fix/" + part(deal) : "");
  history.replaceState(history.state, "", url.pathname + url.search + hash);
}

export function parseHash() {
  const parts = window.location.hash.replace(/^#\/?/, "").split("/").map((p) => decodeURIComponent(p));
  return parts.filter((p, i) => p !== "" || i === 0);
}
