// A table's scoreboard and, for the keeper, deal entry at the speed of a paper sheet:
// tap the winner, then each other player's cards left on a keypad (one tap each, the
// value replaced), Record in the fixed action bar. The deal goes to the engine as a
// deal line in the command line's grammar; the engine scores it.

import { h, clear, signed, signedMoney, tone } from "./dom.js";
import { t } from "./words.js";
import { factLabel, finishLabel, sessionTitle } from "./names.js";

/** Quote a name like a shell would, so names with spaces or quotes survive the grammar. */
export function quote(text) {
  return /^[^\s'"\\#=,-][^\s'"\\#=,]*$/.test(text) ? text : "'" + text.replace(/'/g, "'\"'\"'") + "'";
}

function emptyDraft() {
  return { winner: null, counts: {}, target: null, order: [], immediate: null, extras: {} };
}

/** The draft from a recorded deal's facts (to fix it). */
function draftOf(facts, seats) {
  const d = emptyDraft();
  const cards = facts.cards || {};
  if (facts.order) d.order = facts.order.slice();
  if (facts.immediate) {
    d.immediate = facts.immediate.replace("-", "_");
    d.winner = facts.immediate_by || null;
  } else {
    d.winner = Object.keys(cards).find((n) => cards[n] === 0) || null;
    for (const n of seats) if (n !== d.winner && n in cards) d.counts[n] = cards[n];
  }
  for (const fact of ["twos", "bombs"]) if (facts[fact]) d.extras[fact] = { ...facts[fact] };
  for (const fact of ["finish", "assist", "shootout"]) if (facts[fact]) d.extras[fact] = facts[fact];
  if (facts.missed_call) d.extras.missed_call = true;
  return d;
}

export function boardScreen(app, sid, fixNo) {
  let board = null;
  let money = null;
  let draft = emptyDraft();
  let fixing = fixNo;
  let fixed = null;   // the deal being fixed (every deal of the session, not only the board's last)
  let sent = false;
  let entry = null;   // the entry's DOM, built once per screen and updated in place
  let parts = {};
  let scoresBox = null;
  let asked = 0;
  let previewTimer = null;

  const seats = () => board.session.players;
  const hand = () => board.session.hand_size;
  const mode = () => board.session.mode;
  const facts = () => board.facts || [];
  const fact = (name) => facts().find((f) => f.name === name);
  const open = () => !board.session.ended_at;
  const canEnter = () => app.keeper() && (open() || fixing !== null);
  const losers = () => seats().filter((n) => n !== draft.winner);
  const pendingDeals = () => app.outbox.pending(sid).filter((i) => i.op === "record");
  const nextNo = () => (board.next_deal || board.session.deals + 1) + pendingDeals().length;

  function ready() {
    if (mode() === "places") return draft.order.length === seats().length;
    if (!draft.winner) return false;
    if (draft.immediate) return true;
    return losers().every((n) => Number.isInteger(draft.counts[n]));
  }

  function line() {
    const words = [];
    if (mode() === "places") return "--order " + draft.order.map(quote).join(",");
    if (draft.immediate) return fact(draft.immediate).word + " " + quote(draft.winner);
    for (const n of seats()) words.push(quote(n) + "=" + (n === draft.winner ? 0 : draft.counts[n]));
    for (const name of ["twos", "bombs"]) {
      for (const [n, k] of Object.entries(draft.extras[name] || {})) {
        if (k > 0 && n !== draft.winner) words.push(fact(name).word, quote(n) + "=" + k);
      }
    }
    const ex = draft.extras;
    if (ex.finish && fact("finish")) words.push("--finish", ex.finish);
    if (ex.assist && fact("assist") && ex.assist !== draft.winner) words.push("--assist", quote(ex.assist));
    if (ex.missed_call && fact("missed_call")) words.push("--missed-call");
    if (ex.shootout && fact("shootout")) words.push("--shootout", quote(ex.shootout));
    return words.join(" ");
  }

  // --- the scoreboard ---------------------------------------------------------------

  function scores() {
    const nets = (money && money.nets) || {};
    const currency = board.session.currency || "PTS";
    const rows = board.standings.players.map((p) => h("tr", { class: tone(p.net) },
      h("th", { scope: "row" }, h("a", { href: "#/player/" + encodeURIComponent(p.name) }, p.name)),
      h("td", { class: "num" }, p.wins),
      h("td", { class: "num big" }, signed(p.net)),
      h("td", { class: "num" }, p.name in nets ? signedMoney(nets[p.name]) : "")));
    const pending = app.outbox.pending(sid).map((i) => h("li", { class: "pending" },
      t(i.tries ? "pending_waiting" : "pending_saving", { what: i.what.kind === "deal" ? t("what_deal", { n: i.what.deal }) : i.what.kind })));
    const recent = (board.deals || []).slice(0, 3).map((d) => h("li", {},
      h("span", { class: "no" }, t("deal_n", { n: d.deal }) + (d.kind === "amend" ? " *" : "")),
      h("span", { class: "nets" }, ...seats().map((n) => h("span", { class: tone((d.net || {})[n] || 0) },
        n + " " + signed((d.net || {})[n] || 0))))));
    return [
      h("table", { class: "standings" },
        h("thead", {}, h("tr", {},
          h("th", { scope: "col" }, t("player")), h("th", { scope: "col", class: "num" }, t("wins")),
          h("th", { scope: "col", class: "num" }, t("points")), h("th", { scope: "col", class: "num" }, currency))),
        h("tbody", {}, rows)),
      board.next ? h("p", { class: "next" }, board.next.text) : null,
      pending.length ? h("ul", { class: "pendings", "aria-live": "polite" }, pending) : null,
      recent.length ? h("ul", { class: "recent", "aria-label": t("last_deals") }, recent) : null,
    ];
  }

  // --- entry --------------------------------------------------------------------------

  function buildEntry() {
    parts = {
      title: h("h2", { id: "entry-title" }),
      who: h("div", { class: "choices", role: mode() === "places" ? "group" : "radiogroup", "aria-labelledby": "who-legend" }),
      chips: h("div", { class: "chips" }),
      keypad: h("div", { class: "keypad", role: "group", "aria-label": t("cards_left") }),
      extras: h("div", { class: "extras" }),
      preview: h("div", { class: "preview", "aria-live": "polite" }),
    };
    const legend = h("p", { class: "legend", id: "who-legend" }, mode() === "places" ? t("tap_order") : t("who_won"));
    for (const n of seats()) {
      const button = mode() === "places"
        ? h("button", { type: "button", class: "choice", "aria-pressed": "false", data: { player: n } }, n)
        : h("button", { type: "button", class: "choice", role: "radio", "aria-checked": "false", data: { player: n } }, n);
      button.addEventListener("click", () => tapPlayer(n));
      parts.who.append(button);
    }
    if (mode() !== "places") {
      for (let k = 0; k <= hand(); k++) {
        const key = h("button", { type: "button", class: "key", data: { n: k } }, String(k));
        key.addEventListener("click", () => tapKey(k));
        parts.keypad.append(key);
      }
    }
    entry = h("section", { class: "card entry", "aria-labelledby": "entry-title" },
      parts.title, legend, parts.who,
      mode() === "places" ? null : [h("p", { class: "legend" }, t("cards_left")), parts.chips, parts.keypad],
      parts.extras, parts.preview);
    return entry;
  }

  function tapPlayer(n) {
    if (mode() === "places") {
      draft.order = draft.order.includes(n) ? draft.order.filter((x) => x !== n) : draft.order.concat([n]);
    } else {
      draft.winner = n;
      delete draft.counts[n];
      draft.target = losers().find((x) => !Number.isInteger(draft.counts[x])) || null;
    }
    update();
  }

  function tapKey(k) {
    if (!draft.target) return;
    draft.counts[draft.target] = k;
    const order = losers();
    const at = order.indexOf(draft.target);
    const rest = order.slice(at + 1).concat(order.slice(0, at));
    draft.target = rest.find((x) => !Number.isInteger(draft.counts[x])) || null;
    update();
  }

  function toggleExtra(name, value) {
    draft.extras[name] = draft.extras[name] === value ? "" : value;
    update();
  }

  function extrasBox() {
    const out = [];
    if (!draft.winner) return out;
    for (const f of facts()) {
      if (f.kind === "players") continue;
      const label = factLabel(f.name);
      if (f.kind === "counts") {
        const rows = losers().filter(() => draft.winner).map((n) => {
          const held = (draft.extras[f.name] || {})[n] || 0;
          const buttons = [];
          for (let k = 0; k <= (f.max || 4); k++) {
            buttons.push(h("button", { type: "button", class: "mini", "aria-pressed": String(held === k),
              "aria-label": t("extra_count", { name: n, what: label, n: k }),
              on: { click: () => { draft.extras[f.name] = { ...(draft.extras[f.name] || {}), [n]: k }; update(); } } },
            String(k)));
          }
          return h("div", { class: "mini-row" }, h("span", { class: "who" }, n), h("span", { class: "minis" }, buttons));
        });
        if (rows.length) out.push(h("fieldset", {}, h("legend", {}, label), rows));
      } else if (f.kind === "choice") {
        out.push(h("fieldset", {}, h("legend", {}, label), h("div", { class: "toggles" },
          ...(f.values || []).map((v) => h("button", { type: "button", class: "toggle-button",
            "aria-pressed": String(draft.extras[f.name] === v), on: { click: () => toggleExtra(f.name, v) } },
          finishLabel(v))))));
      } else if (f.kind === "flag") {
        out.push(h("div", { class: "toggles" }, h("button", { type: "button", class: "toggle-button",
          "aria-pressed": String(!!draft.extras[f.name]),
          on: { click: () => { draft.extras[f.name] = !draft.extras[f.name]; update(); } } }, label)));
      } else if (f.word === "--dragon" || f.word === "--four-twos") {
        if (draft.winner) {
          out.push(h("div", { class: "toggles" }, h("button", { type: "button", class: "toggle-button",
            "aria-pressed": String(draft.immediate === f.name),
            on: { click: () => { draft.immediate = draft.immediate === f.name ? null : f.name; update(); } } },
          t("immediate_by", { what: label, name: draft.winner }))));
        }
      } else if (f.kind === "player") {
        const who = f.name === "assist" ? losers().filter(() => draft.winner) : seats();
        if (who.length) {
          out.push(h("fieldset", {}, h("legend", {}, label), h("div", { class: "toggles" },
            ...who.map((n) => h("button", { type: "button", class: "toggle-button",
              "aria-pressed": String(draft.extras[f.name] === n), "aria-label": t("extra_player", { what: label, name: n }),
              on: { click: () => toggleExtra(f.name, n) } }, n)))));
        }
      }
    }
    return out;
  }

  function update() {
    if (!entry) return;
    const immediate = !!draft.immediate;
    parts.title.textContent = fixing !== null ? t("fix_deal", { n: fixing }) : t("deal_n", { n: nextNo() });
    for (const b of parts.who.querySelectorAll("button")) {
      const n = b.dataset.player;
      if (mode() === "places") {
        const at = draft.order.indexOf(n);
        b.setAttribute("aria-pressed", String(at >= 0));
        b.dataset.place = at >= 0 ? String(at + 1) : "";
      } else {
        b.setAttribute("aria-checked", String(n === draft.winner));
      }
    }
    if (mode() !== "places") {
      clear(parts.chips, ...(draft.winner && !immediate ? losers() : []).map((n) => {
        const has = Number.isInteger(draft.counts[n]);
        return h("button", { type: "button", class: "chip" + (n === draft.target ? " target" : ""),
          "aria-pressed": String(n === draft.target),
          "aria-label": has ? t("chip", { name: n, n: draft.counts[n] }) : t("chip_unset", { name: n }),
          on: { click: () => { draft.target = n; update(); } } },
        h("span", { class: "who" }, n), h("span", { class: "count" }, has ? String(draft.counts[n]) : "–"));
      }));
      parts.keypad.hidden = !draft.winner || immediate;
      for (const key of parts.keypad.querySelectorAll("button")) {
        const k = Number(key.dataset.n);
        key.disabled = !draft.target;
        key.setAttribute("aria-label", draft.target ? t("key", { name: draft.target, n: k }) : String(k));
        key.setAttribute("aria-pressed", String(!!draft.target && draft.counts[draft.target] === k));
      }
      const keyLegend = parts.keypad.previousElementSibling.previousElementSibling;
      keyLegend.textContent = draft.target ? t("cards_left_of", { name: draft.target }) : t("cards_left");
      keyLegend.hidden = !draft.winner || immediate;
    }
    clear(parts.extras, ...extrasBox());
    const record = document.getElementById("record");
    if (record) {
      record.disabled = !ready();
      record.textContent = fixing !== null ? t("save_deal", { n: fixing }) : t("record");
    }
    preview();
  }

  function preview() {
    clearTimeout(previewTimer);
    if (!ready()) {
      clear(parts.preview, h("p", { class: "meta" }, mode() === "places" ? t("tap_order")
        : !draft.winner ? t("tap_winner") : t("tap_counts")));
      return;
    }
    const ticket = ++asked;
    const text = line();
    previewTimer = setTimeout(async () => {
      try {
        const found = await app.engine.preview(sid, text);
        if (ticket !== asked) return;
        const table = h("table", { class: "preview-table" },
          h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("player")), h("th", { scope: "col", class: "num" }, t("cards")),
            h("th", { scope: "col", class: "num" }, t("penalty")), h("th", { scope: "col", class: "num" }, t("points")))),
          h("tbody", {}, found.players.map((p) => h("tr", {},
            h("th", { scope: "row" }, p.name + (p.win ? " ★" : "") + (p.fried ? " " + t("fried") : "")),
            h("td", { class: "num" }, p.cards), h("td", { class: "num" }, p.penalty),
            h("td", { class: "num " + tone(p.net) }, signed(p.net))))));
        clear(parts.preview, table);
      } catch (error) {
        if (ticket !== asked) return;
        clear(parts.preview, error.retry ? h("p", { class: "meta" }, t("preview_later"))
          : h("p", { class: "error", role: "alert" }, error.message));
      }
    }, 120);
  }

  function record() {
    if (!entry || !ready()) return;
    const text = line();
    if (fixing !== null) {
      if (sent) return; // a double tap on Save: the fix is on its way once
      sent = true;
      const d = fixed;
      const args = d && d.uuid ? { session: sid, deal_uuid: d.uuid, line: text } : { session: sid, deal: fixing, line: text };
      app.outbox.add("amend", args, { kind: "amend", deal: fixing });
      app.go("#/t/" + sid + "/log");
      return;
    }
    app.outbox.add("record", { session: sid, line: text }, { kind: "deal", deal: nextNo() });
    draft = emptyDraft();
    update();
    paintScores();
  }

  function paintScores() {
    if (scoresBox) clear(scoresBox, ...scores());
    if (entry) parts.title.textContent = fixing !== null ? t("fix_deal", { n: fixing }) : t("deal_n", { n: nextNo() });
  }

  async function load() {
    const [b, m, all] = await Promise.all([app.engine.board(sid), app.engine.settle(sid).catch(() => null),
      fixing !== null ? app.engine.deals(sid) : null]);
    board = b;
    money = m;
    if (all) fixed = all.find((d) => d.deal === fixing) || null;
  }

  async function show(main) {
    await load();
    if (app.screen !== self) return; // left while loading: the action bar is another screen's now
    const s = board.session;
    if (fixing !== null && !fixed) {
      // Never a new deal in place of the fix that was asked for: say so, and offer the log.
      clear(main, h("section", { class: "card" },
        h("p", { class: "error", role: "alert" }, t("no_such_deal", { n: fixing })),
        h("a", { class: "button", href: "#/t/" + sid + "/log" }, t("tab_log"))));
      return;
    }
    sent = false;
    if (fixing !== null) draft = draftOf(fixed.facts || {}, s.players);
    scoresBox = h("div", { id: "scores" });
    const head = h("header", { class: "session" },
      h("h1", {}, sessionTitle(s)),
      h("p", { class: "meta" }, s.players.join(" · "), h("br"),
        t("rules_stake", { rules: s.rules, stake: s.stake, currency: s.currency || "PTS" }),
        s.ended_at ? [" · ", h("strong", {}, t("ended"))] : null));
    const ended = !open() && fixing === null ? h("section", { class: "card" },
      h("p", {}, t("session_ended")),
      app.keeper() ? h("div", { class: "row" },
        h("button", { type: "button", class: "button", on: { click: reopen } }, t("reopen")),
        h("a", { class: "button primary", href: "#/start" }, t("new_session"))) : null) : null;
    // The keeper's entry comes first: it is what the phone is for during a deal.
    const board_ = h("section", { class: "card" }, head, scoresBox);
    clear(main, ended, canEnter() ? [buildEntry(), board_] : board_);
    paintScores();
    if (canEnter()) {
      const record = h("button", { type: "button", id: "record", class: "button primary record", on: { click: record_ } });
      const cancel = fixing !== null ? h("button", { type: "button", class: "button",
        on: { click: () => app.go("#/t/" + sid + "/log") } }, t("cancel")) : null;
      app.bar(cancel, record);
      update();
    }
  }
  function record_() { record(); }

  async function reopen() {
    if (!(await app.ask(t("reopen_ask", { name: sessionTitle(board.session) }), t("reopen")))) return;
    app.outbox.add("reopen", { session: sid }, { kind: "reopen" });
  }

  let refreshing = null;
  async function refresh() {
    if (refreshing) return refreshing;
    refreshing = (async () => {
      try {
        const wasOpen = board && open();
        await load();
        if (app.screen !== self) return;
        if (board && wasOpen !== open() && fixing === null) { await show(document.getElementById("main")); return; }
        paintScores();
      } catch (e) { /* the banner says the link is down */ }
    })();
    try { await refreshing; } finally { refreshing = null; }
  }

  const self = {
    name: "board",
    session: sid,
    show,
    refresh,
    pending: paintScores,
    saved: () => refresh(),
    refused: () => refresh(),
    key(event) {
      if (event.key !== "Enter" || !entry) return;
      const tag = (event.target && event.target.tagName) || "";
      if (tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT") return;
      if (!ready()) return; // Enter on a key still taps that key
      event.preventDefault();
      record();
    },
  };
  return self;
}
