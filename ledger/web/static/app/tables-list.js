// The table picker's list, page by page: the engine's `sessions` op answers the newest
// sessions with how many there are and a cursor (`next`); More (or scrolling to it)
// asks for the page after, and the search box asks again from the newest. A live update
// reads the newest page again and keeps the pages read after it: a reader deep in the
// list keeps their place.

import { h } from "./dom.js";
import { t } from "./words.js";
import { rulesTitle, sessionTitle, when } from "./names.js";

// Newest first, by start then id, as the engine orders them.
const before = (a, b) => a.started_at < b.started_at || (a.started_at === b.started_at && a.id < b.id);

export function tableList(app, changed) {
  const state = { q: "", items: [], next: null, total: 0, busy: false };
  let typing = null;
  const search = h("input", { type: "search", class: "table-search", maxlength: 200, autocomplete: "off",
    "aria-label": t("search_tables"), placeholder: t("search_tables") });
  search.addEventListener("input", () => {
    clearTimeout(typing);
    typing = setTimeout(async () => {
      state.q = search.value.trim();
      state.items = [];
      if (await first()) changed();
    }, 250);
  });
  const seen = new IntersectionObserver((found) => { if (found.some((e) => e.isIntersecting)) more(); });

  /** The newest page again (false: a newer search overtook it). */
  async function first() {
    const q = state.q;
    const page = await app.engine.sessions(q);
    if (q !== state.q) return false;
    const last = page.sessions[page.sessions.length - 1];
    const kept = page.next && last ? state.items.filter((s) => before(s, last)) : [];
    state.items = [...page.sessions, ...kept];
    state.next = kept.length ? state.next : page.next;
    state.total = page.total;
    return true;
  }

  async function more() {
    if (state.busy || !state.next) return;
    state.busy = true;
    try {
      const q = state.q;
      const page = await app.engine.sessions(q, state.next);
      if (q !== state.q) return;
      state.items.push(...page.sessions);
      state.next = page.next;
      state.total = page.total;
    } finally {
      state.busy = false;
    }
    changed();
  }

  function view() {
    const items = state.items.map((s) => h("li", {},
      h("a", { href: "#/t/" + s.id, class: "table-link" },
        h("strong", {}, sessionTitle(s)),
        h("span", { class: "badge " + (s.ended_at ? "ended" : "open") }, s.ended_at ? t("ended") : t("open")),
        h("span", { class: "meta" }, s.players.join(" · ")),
        h("span", { class: "meta" }, t("deals_count", { n: s.deals }) + " · " + rulesTitle(s.rules) + " · " + when(s.started_at)))));
    if (!items.length) return [h("p", { class: "meta" }, state.q ? t("no_match", { q: state.q }) : t("no_tables"))];
    const button = state.next ? h("button", { type: "button", class: "button more-tables",
      on: { click: () => more() } }, t("more_tables")) : null;
    seen.disconnect();
    if (button) seen.observe(button);
    return [h("ul", { class: "tables" }, items),
      h("p", { class: "meta tables-shown" }, t("tables_shown", { shown: items.length, total: state.total })), button];
  }

  return { search, first, more, view, shown: () => [state.q, state.items, state.next, state.total] };
}
