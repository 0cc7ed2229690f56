// How the page names things the engine names by id: a session, a deal fact, a choice's value.

import { t } from "./words.js";

export function sessionTitle(s) {
  return s.name ? s.name : t("session_n", { id: s.id });
}

const FACTS = {
  twos: "fact_twos", bombs: "fact_bombs", finish: "fact_finish", assist: "fact_assist",
  missed_call: "fact_missed_call", shootout: "fact_shootout", dragon: "fact_dragon",
  four_twos: "fact_four_twos",
};

/** A deal fact the engine offers ({name, label}), named in the page's words: the
 * page's own short label where it has one, else the offer's label from the engine. */
export function factLabel(offer) {
  return FACTS[offer.name] ? t(FACTS[offer.name]) : offer.label || offer.name;
}

// The values of a choice fact the page has words for (the last play's kinds).
const VALUES = { two: "finish_two", quads: "finish_quads", "straight-flush": "finish_straight_flush" };

export function valueLabel(value) {
  return VALUES[value] ? t(VALUES[value]) : value;
}

/** A stored UTC time as a date (and time) in the viewer's zone and the page's language. */
export function when(stamp, withTime) {
  if (!stamp) return "";
  const d = new Date(stamp);
  if (Number.isNaN(d.getTime())) return stamp;
  const lang = document.documentElement.lang || undefined;
  try {
    return new Intl.DateTimeFormat(lang, withTime ? { dateStyle: "medium", timeStyle: "short" } : { dateStyle: "medium" }).format(d);
  } catch (e) {
    return d.toISOString().slice(0, 10);
  }
}

/** A write waiting in the outbox ({kind, deal…}), as the status line names it. */
export function whatText(what) {
  switch (what.kind) {
    case "deal": return t("what_deal", { n: what.deal });
    case "amend": return t("what_amend", { n: what.deal });
    case "void": return t("what_void", { n: what.deal });
    case "undo": return t("what_undo");
    case "start": return t("what_start");
    case "end": return t("what_end");
    case "reopen": return t("what_reopen");
    case "pay": return t("paid_what", { payer: what.payer, payee: what.payee, amount: what.amount, currency: what.currency });
    case "unpay": return t("what_unpay", { what: what.what });
    case "set_pay_id": return t("what_set_pay_id", { player: what.player });
    default: return what.kind || "";
  }
}
