// The table picker (the sessions of this ledger, a page at a time, with a search:
// tables-list.js; many tables on one server) and the start of a new table: players, a
// preset described in the page's language, or the same players and rules as last time.

import { h, clear } from "./dom.js";
import { t } from "./words.js";
import { rulesTitle, sessionTitle } from "./names.js";
import { pendingTable } from "./model-outbox.js";
import { regionDefaults } from "./region.js";
import { appCard } from "./install.js";
import { tableList } from "./tables-list.js";

export function tablesScreen(app) {
  let drawn = null; // what the screen shows now: a live update that changes nothing redraws nothing
  let card = null; // the screen's card, kept while shown: the search box keeps its focus
  let box = null;
  let keeper = null;
  let main = null; // this screen's <main>: off the page once left (main.js), drawn there unseen
  const list = tableList(app, () => draw());

  function draw() {
    const key = JSON.stringify([list.shown(), app.keeper()]);
    if (key === drawn && card && card.isConnected) return; // the reader keeps their place
    drawn = key;
    if (!card || !card.isConnected || keeper !== app.keeper()) {
      keeper = app.keeper();
      box = h("div", { class: "table-pages" });
      card = h("section", { class: "card" },
        h("h1", {}, t("tables")),
        keeper ? h("p", {}, h("a", { class: "button primary", href: "#/start" }, t("new_table"))) : null,
        h("p", {}, list.search),
        box,
        app.engine.kind === "worker" ? null // the hub's links: words of the hub only
          : h("p", { class: "meta" }, keeper ? t("keeper_note") : t("viewer_note")));
      clear(main, card, app.engine.kind === "worker" ? appCard(app) : null);
    }
    box.replaceChildren(...list.view().filter(Boolean));
  }

  async function show(into) {
    main = into;
    if (await list.first()) draw();
  }
  return { name: "tables", show, refresh: () => show(main || document.getElementById("main")) };
}

export function startScreen(app) {
  let busy = false;

  async function begin(args, button) {
    if (busy) return;
    busy = true;
    if (button) button.disabled = true;
    const item = app.outbox.add("start", args, { kind: "start" });
    // The phone's own engine: the new table's board at once, its start written when the
    // engine is ready (a first open) — deals tapped meanwhile wait behind it.
    if (app.engine.offers) app.go("#/t/" + pendingTable(item.id));
  }

  async function show(main) {
    if (!app.keeper()) {
      clear(main, h("section", { class: "card" }, h("p", {}, t("viewer_cannot_start"))));
      return;
    }
    const [presets, last, sessions] = await Promise.all([app.engine.presets(),
      app.engine.lastSetup().catch(() => null), app.engine.sessions().then((page) => page.sessions).catch(() => [])]);
    const running = sessions.find((s) => !s.ended_at);
    const error = h("p", { class: "error", role: "alert", hidden: true });
    const players = [0, 1, 2, 3].map((i) => h("input", { type: "text", class: "player", maxlength: 200,
      autocomplete: "off", "aria-label": t("player_n", { n: i + 1 }),
      placeholder: i === 0 ? t("player_1_hint") : i === 3 ? t("player_4_hint") : t("player_n", { n: i + 1 }) }));
    if (last) last.players.forEach((n, i) => { if (players[i]) players[i].value = n; });
    // The last rules used here, else the phone's region's (region.js).
    const place = regionDefaults(navigator.languages || [navigator.language]);
    const chosen = (last && presets.some((p) => p.name === last.rules)) ? last.rules
      : presets.some((p) => p.name === place.rules) ? place.rules : "classic";
    const rules = presets.map((p) => h("label", { class: "preset" },
      h("input", { type: "radio", name: "rules", value: p.name, checked: p.name === chosen }),
      h("span", {}, h("strong", {}, p.title || p.name), h("span", { class: "meta" }, p.description),
        p.source ? h("span", { class: "meta source" }, t("preset_source", { source: p.source })) : null)));
    const stake = h("input", { type: "text", inputmode: "decimal", value: last ? last.stake : "1", "aria-label": t("stake") });
    const currency = h("input", { type: "text", maxlength: 8, value: last ? last.currency : place.currency, "aria-label": t("currency") });
    const name = h("input", { type: "text", maxlength: 200, placeholder: t("optional"), "aria-label": t("evening_name") });
    const teams = h("input", { type: "checkbox" });
    // Start sits in the fixed action bar, on screen however long the presets run.
    const startButton = h("button", { type: "submit", form: "start-form", class: "button primary record" }, t("start"));
    const form = h("form", { class: "card", id: "start-form", autocomplete: "off" },
      h("h1", {}, t("new_table")),
      h("fieldset", {}, h("legend", {}, t("players_in_order")), players),
      h("fieldset", {}, h("legend", {}, t("rules")), h("div", { class: "presets" }, rules)),
      h("label", {}, t("stake"), stake),
      h("label", {}, t("currency"), currency),
      h("label", {}, t("evening_name"), name),
      h("label", { class: "toggle" }, teams, " ", t("teams")),
      error,
      app.engine.kind === "worker" ? null : h("p", { class: "meta" }, t("keeper_note")));
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      const seats = players.map((i) => i.value.trim()).filter((v) => v);
      const picked = form.querySelector("input[name=rules]:checked");
      begin({ players: seats, rules: picked ? picked.value : "classic", stake: stake.value.trim(),
        currency: currency.value.trim(), name: name.value.trim(), teams: teams.checked }, startButton);
    });
    const again = last ? h("section", { class: "card" },
      h("h2", {}, t("same_as_last")),
      h("p", { class: "meta" }, last.players.join(" · ")),
      h("p", { class: "meta" }, t("rules_stake", { rules: rulesTitle(last.rules), stake: last.stake, currency: last.currency })),
      h("button", { type: "button", class: "button primary",
        on: { click: async (event) => {
          const button = event.currentTarget;
          // A table is running: one tap must not split the evening over two tables.
          if (running && !(await app.ask(t("start_while_running", { name: sessionTitle(running) }), t("start_same")))) return;
          begin({ players: last.players, rule_set: last.rule_set, stake: last.stake,
            currency: last.currency, teams: last.teams }, button);
        } } }, t("start_same"))) : null;
    clear(main, again, form);
    app.bar(startButton);
    app.startError = error;
  }

  return {
    name: "start",
    show,
    saved(item, result) {
      if (item.op === "start" && result && result.id) app.go("#/t/" + result.id);
    },
    refused(item, error) {
      busy = false;
      for (const b of document.querySelectorAll("#main button, #actions button")) b.disabled = false;
      if (app.startError) { app.startError.textContent = error.message; app.startError.hidden = false; }
    },
  };
}
