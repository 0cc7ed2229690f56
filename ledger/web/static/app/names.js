// How the page names things the engine names by id: a session, a deal fact, a choice's value.

import { t } from "./words.js";

let presetTitles = {};

/** The presets' names in the page's language (the presets answer's `title`s). */
export function setPresetTitles(presets) {
  presetTitles = Object.fromEntries((presets || []).map((p) => [p.name, p.title || p.name]));
}

/** A session's rules as players say them: a preset's title, else the rule set's own name. */
export function rulesTitle(name) {
  return presetTitles[name] || name;
}

export function sessionTitle(s) {
  return s.name ? s.name : t("session_n", { id: s.id });
}

/** Who deals and leads next (the engine's `next`: {dealers, leader, opener, leaders, twin}),
 * in the page's words — the record's `text` is English, as every value of the JSON. */
export function turnText(next) {
  const dealers = next.dealers || [];
  const leader = next.leader !== null && next.leader !== undefined ? next.leader : next.opener;
  if (!dealers.length || leader === undefined || leader === null) return next.text || "";
  const deals = dealers.length === 1 ? t("turn_deals", { name: dealers[0] })
    : t("turn_deals_tied", { names: t("turn_or", { names: dealers.slice(0, -1).join(", "), last: dealers[dealers.length - 1] }) });
  const leads = (next.leaders || []).length > 1 ? t("turn_showdown_leads")
    : next.twin && next.leader === null && dealers.length === 1
      ? t("turn_twin_leads", { card: next.opener, dealer: dealers[0] })  // two decks, two 3♦
      : t("turn_leads", { name: leader });
  return t("turn_next", { deals, leads });
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
    case "seat": return t("what_seat_" + String(what.action).replace("-", "_") + (what.deal ? "_from" : ""),
      { a: what.names[0], b: what.names[1], n: what.deal });
    default: return what.kind || "";
  }
}
