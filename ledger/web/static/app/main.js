// The phone app: one page, screens drawn from the engine's JSON records.
//
// The root element carries the page's state for people's tools and the tests:
// data-engine (loading | ready | failed), data-screen, data-session, data-level
// (keeper | viewer), data-outbox (empty | saving | waiting), data-link (up | down).

import { h, clear } from "./dom.js";
import { openEngine } from "./engine.js";
import { KEY as OUTBOX, Outbox, isPending, pendingTable } from "./model-outbox.js";
import { setWords, t } from "./words.js";
import { boardScreen } from "./board.js";
import { logScreen } from "./log.js";
import { settleScreen } from "./settle.js";
import { historyScreen, playerScreen } from "./history.js";
import { startScreen, tablesScreen } from "./tables.js";
import { ask } from "./ask.js";
import { setPresetTitles, whatText } from "./names.js";
import { addressFromQuery, addressNumber, parseHash, problemScreen } from "./route.js";
import { keep, kept } from "./scope.js";

const root = document.documentElement;
const LAST_TABLE = "bigtwo.table";

const app = {
  engine: null,
  outbox: null,
  level: "viewer",
  screen: null,     // the screen shown: {name, session, refresh(), key(event)}
  languages: {},
  lang: "",
  ask,

  go(hash) {
    if (window.location.hash === hash) route();
    else window.location.hash = hash;
  },

  /** The line above the action bar: what was saved, what waits, what was refused. */
  say(text, tone) {
    const box = document.getElementById("status");
    box.textContent = text;
    box.className = "status " + (tone || "");
  },

  rememberTable(sid) {
    keep(LAST_TABLE, String(sid));
  },

  /** The action bar's buttons for this screen (Record deal, Cancel…), or none. */
  bar(...buttons) {
    clear(document.getElementById("actions"), ...buttons);
    root.dataset.bar = buttons.length ? "actions" : "status";
  },

  keeper() {
    return this.level === "keeper";
  },
};

function onOutbox(state, item, result) {
  root.dataset.outbox = app.outbox ? app.outbox.state() : "empty";
  const what = whatText(item.what);
  if (state === "saving") app.say(t("saving", { what }), "busy");
  else if (state === "waiting") app.say(t("waiting", { what }), "bad");
  else if (state === "refused") {
    app.say(t("refused", { what, reason: result.message || String(result.status) }), "bad");
    if (app.screen && app.screen.refused) app.screen.refused(item, result);
  } else if (state === "saved") {
    if (item.op === "start" && result && result.id !== undefined) {
      app.rememberTable(result.id);
      // The pending table's board, now numbered: the same table at its number.
      if (window.location.hash.startsWith("#/t/" + pendingTable(item.id))) window.location.replace("#/t/" + result.id);
    }
    const done = item.what.kind === "deal" && result && result.deal ? { ...item.what, deal: result.deal } : item.what;
    app.say(t("saved", { what: whatText(done) }), "ok");
    root.dataset.saved = String(Number(root.dataset.saved || 0) + 1);
    if (app.screen && app.screen.saved) app.screen.saved(item, result);
    else if (app.screen && app.screen.refresh) app.screen.refresh();
  }
  if (app.screen && app.screen.pending) app.screen.pending();
}

let routes = 0;

async function route() {
  const ticket = ++routes;
  root.dataset.route = "loading";
  const [first, second, third, fourth] = parseHash();
  // A fresh <main> for each screen: a screen still drawing after it was left (a live
  // update's answer arriving late) draws into the old one, off the page.
  const old = document.getElementById("main");
  const main = old.cloneNode(false);
  old.replaceWith(main);
  app.bar();
  let screen;
  const sid = first === "t" ? addressNumber(second) : null;
  if (first === "t" && isPending(second)) {
    // A table started before the engine answered: its board while the start waits,
    // its number once written (this page's life), else the running table.
    const to = app.outbox.startOf(second) ? null : app.outbox.started[second];
    if (!app.outbox.startOf(second)) { window.location.replace(to ? "#/t/" + to : "#/"); return; }
    screen = boardScreen(app, second, null);
  } else if (first === "t" && sid === null) {
    screen = problemScreen(t("not_session_number", { text: second || "" }), null);
  } else if (first === "t") {
    app.rememberTable(sid);
    const deal = third === "fix" ? addressNumber(fourth) : null;
    if (third === "log") screen = logScreen(app, sid);
    else if (third === "settle") screen = settleScreen(app, sid);
    else if (third === "fix" && deal === null) screen = problemScreen(t("not_deal_number", { text: fourth || "" }), sid);
    else if (third === "fix") screen = boardScreen(app, sid, deal);
    else screen = boardScreen(app, sid, null);
  } else if (first === "start") {
    screen = startScreen(app);
  } else if (first === "history") {
    screen = historyScreen(app);
  } else if (first === "player" && second) {
    screen = playerScreen(app, second);
  } else if (first === "tables") {
    screen = tablesScreen(app);
  } else {
    const last = kept(LAST_TABLE);
    const starting = app.outbox.items.find((i) => i.op === "start");
    if (starting) { window.location.replace("#/t/" + pendingTable(starting.id)); return; }
    // The newest page: a table still open is among them; the one remembered is asked apart
    // only when older sessions exist beyond it (never while a list kept in the phone answers).
    const page = await app.engine.sessions().catch(() => ({ sessions: [], next: null }));
    const sessions = page.sessions;
    const open = sessions.filter((s) => s.open !== false && !s.ended_at);
    const remembered = sessions.find((s) => String(s.id) === last && !s.ended_at)
      || (page.next && /^\d+$/.test(last || "") ? await app.engine.session(Number(last))
        .then((s) => (s.ended_at ? null : s)).catch(() => null) : null);
    const only = open.length === 1 ? open[0] : null;
    const to = remembered || only;
    if (to) { window.location.replace("#/t/" + to.id); return; }
    window.location.replace(sessions.length || !app.keeper() ? "#/tables" : "#/start");
    return;
  }
  app.screen = screen;
  root.dataset.screen = screen.name;
  root.dataset.session = screen.session ? String(screen.session) : "";
  markTabs(screen);
  clear(main, h("p", { class: "meta" }, t("loading")));
  try {
    await screen.show(main);
  } catch (error) {
    clear(main, h("section", { class: "card" }, h("p", { class: "error", role: "alert" },
      error && error.retry ? t("unreachable") : (error && error.message) || String(error))));
  }
  if (ticket !== routes) return; // another screen was asked for meanwhile: it says when it is shown
  main.focus({ preventScroll: true });
  root.dataset.route = "shown";
}

function markTabs(screen) {
  const sid = screen.session || Number(kept(LAST_TABLE) || 0) || null;
  const tabs = [
    ["board", sid ? "#/t/" + sid : "#/tables", t("tab_table")],
    ["log", sid ? "#/t/" + sid + "/log" : null, t("tab_log")],
    ["settle", sid ? "#/t/" + sid + "/settle" : null, t("tab_settle")],
    ["history", "#/history", t("tab_history")],
    ["tables", "#/tables", t("tab_tables")],
  ];
  clear(document.getElementById("tabs"), ...tabs.filter(([, href]) => href).map(([name, href, label]) =>
    h("a", { href, "aria-current": screen.name === name || (name === "history" && screen.name === "player") ||
      (name === "tables" && screen.name === "start") ? "page" : null }, label)));
}

function languages() {
  const box = document.getElementById("langs");
  box.setAttribute("aria-label", t("language"));
  clear(box, ...Object.entries(app.languages).map(([code, label]) =>
    h("button", { type: "button", class: "lang", lang: code.replace("_", "-"), "aria-pressed": String(code === app.lang),
      on: { click: () => chooseLanguage(code) } }, label)));
}

async function loadWords(lang) {
  const found = await app.engine.words(lang);
  setWords(found.words);
  app.languages = found.languages || {};
  app.lang = found.lang;
  root.lang = found.html_lang || "en";
  document.title = t("title");
  document.getElementById("main").setAttribute("aria-label", t("title"));
  document.getElementById("banner").textContent = t("link_down");
  languages();
  // The presets' names in this language, for the screens that name a session's rules
  // (kept or shipped answers on the phone; one read on the hub), waited for a moment only.
  const titles = app.engine.presets().then(setPresetTitles, () => {});
  await Promise.race([titles, new Promise((done) => setTimeout(done, 1500))]);
}

async function chooseLanguage(code) {
  keep("bigtwo.lang", code);
  if (app.engine.useLanguage) app.engine.useLanguage(code);
  await loadWords(code);
  route();
}

/** A new version is cached (offline.js): say so, with Reload, once. */
function updateNotice() {
  if (document.getElementById("update-note")) return;
  const note = h("p", { id: "update-note", class: "banner", role: "status" }, t("update_ready"), " ",
    h("button", { type: "button", class: "button small", on: { click: () => window.location.reload() } }, t("reload")));
  document.body.prepend(note);
}

function link(up) {
  root.dataset.link = up ? "up" : "down";
  document.getElementById("banner").hidden = up;
}

async function boot() {
  try {
    app.engine = await openEngine();
    let lang = kept("bigtwo.lang") || "";
    const asked = new URL(window.location.href).searchParams.get("lang");
    if (asked) lang = asked;
    if (lang && app.engine.useLanguage) app.engine.useLanguage(lang);
    await loadWords(lang);
    addressFromQuery();
    // Opening the app lands on the running table: an address kept from the start form
    // (a reopened tab, an installed app's last page) is not a wish to start another.
    if (parseHash()[0] === "start") history.replaceState(history.state, "", window.location.pathname + window.location.search + "#/");
    app.level = (await app.engine.access()).level;
  } catch (error) {
    root.dataset.engine = "failed";
    clear(document.getElementById("main"), h("p", { class: "error", role: "alert" },
      error && error.status === 401 || error && error.status === 403
        ? (error.message || "") : t("unreachable") + (error && error.message ? " (" + error.message + ")" : "")));
    return;
  }
  root.dataset.level = app.level;
  // This app's key (scope.js); a private window that refuses storage keeps items in memory.
  const place = { read: () => kept(OUTBOX), write: (text) => keep(OUTBOX, text) };
  app.outbox = new Outbox(app.engine, onOutbox, { keep: place });
  window.addEventListener("online", () => app.outbox.kick(true));
  document.addEventListener("visibilitychange", () => { if (!document.hidden) app.outbox.kick(true); });
  root.dataset.outbox = app.outbox.state();
  root.dataset.saved = "0";
  app.engine.watch(() => { if (app.screen && app.screen.refresh) app.screen.refresh(); }, link);
  window.addEventListener("hashchange", route);
  window.addEventListener("bigtwo-update", updateNotice);
  if (root.dataset.update === "ready") updateNotice();
  document.addEventListener("keydown", (event) => {
    if (app.screen && app.screen.key && !document.querySelector("dialog[open]")) app.screen.key(event);
  });
  if (!app.engine.marksState) root.dataset.engine = "ready"; // the worker engine marks its own (engine-worker.js)
  if (app.outbox.items.length) app.outbox.kick(true);
  await route();
}

boot();
