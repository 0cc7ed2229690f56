// A table's scoreboard: the standings with each player's money, who deals and leads
// next, the writes still on their way and the last deals.

import { h, signed, signedMoney, tone } from "./dom.js";
import { t } from "./words.js";
import { rulesTitle, sessionTitle, turnText } from "./names.js";
import { gapBefore } from "./model-numbers.js";

/** The next deal's title: its stored number, and the numbers just taken back said, so
 * "Deal 6" after deal 5 was undone reads as no missing deal (model-numbers.js). */
export function nextTitle(board, pending) {
  const next = board.next_deal || board.session.deals + 1;
  const gone = pending ? [] : gapBefore((board.deals || []).map((d) => d.deal), next);
  if (!gone.length) return t("deal_n", { n: next + pending });
  return t(gone.length === 1 ? "deal_after_gap" : "deal_after_gaps", { n: next, gone: gone.join(", ") });
}

/** The session's title and what it plays for. */
export function sessionHead(s) {
  return h("header", { class: "session" },
    h("h1", {}, sessionTitle(s)),
    h("p", { class: "meta" }, s.players.join(" · "), h("br"),
      t("rules_stake", { rules: rulesTitle(s.rules), stake: s.stake, currency: s.currency || "PTS" }),
      s.ended_at ? [" · ", h("strong", {}, t("ended"))] : null));
}

/** The scoreboard of `board` (the engine's board record), `money` (its settle answer,
 * or null) and `pending` (the outbox's items for this session). */
export function scoreboard(board, money, pending) {
  const nets = (money && money.nets) || {};
  const seats = board.session.players;
  const currency = board.session.currency || "PTS";
  const rows = board.standings.players.map((p) => h("tr", { class: tone(p.net) },
    h("th", { scope: "row" }, h("a", { href: "#/player/" + encodeURIComponent(p.name) }, p.name)),
    h("td", { class: "num" }, p.wins),
    h("td", { class: "num big" }, signed(p.net)),
    h("td", { class: "num" }, p.name in nets ? signedMoney(nets[p.name]) : "")));
  const waiting = pending.map((i) => h("li", { class: "pending" },
    t(i.tries ? "pending_waiting" : "pending_saving", { what: i.what.kind === "deal" ? t("what_deal", { n: i.what.deal }) : i.what.kind })));
  const recent = (board.deals || []).slice(0, 3).map((d) => h("li", {},
    h("span", { class: "no" }, t("deal_n", { n: d.deal }) + (d.kind === "amend" ? " *" : "")),
    h("span", { class: "nets" }, ...seats.map((n) => h("span", { class: tone((d.net || {})[n] || 0) },
      n + " " + signed((d.net || {})[n] || 0))))));
  return [
    h("table", { class: "standings" },
      h("thead", {}, h("tr", {},
        h("th", { scope: "col" }, t("player")), h("th", { scope: "col", class: "num" }, t("wins")),
        h("th", { scope: "col", class: "num" }, t("points")), h("th", { scope: "col", class: "num" }, currency))),
      h("tbody", {}, rows)),
    board.next ? h("p", { class: "next" }, turnText(board.next)) : null,
    waiting.length ? h("ul", { class: "pendings", "aria-live": "polite" }, waiting) : null,
    recent.length ? h("ul", { class: "recent", "aria-label": t("last_deals") }, recent) : null,
  ];
}
