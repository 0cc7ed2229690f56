// Every session of the ledger, and one player's page: that player's results and chart.

import { h, clear, signed, signedMoney, tone } from "./dom.js";
import { t } from "./words.js";
import { rulesTitle, sessionTitle, when } from "./names.js";
import { barChart } from "./charts.js";
import { hubReach } from "./reach.js";

/** The offline phone's own ledger: export it, import a file, sync with a hub (the worker
 * engine's `phoneLedger`, engine.js). */
function phoneLedgerCard(app, refresh) {
  const ledger = app.engine.phoneLedger;
  const status = h("p", { class: "meta", role: "status", "aria-live": "polite" });
  const link = h("input", { type: "url", id: "hub-link", name: "hub-link", autocomplete: "off",
    inputmode: "url", placeholder: "https://…/?t=…", value: ledger.keptLink() });
  // What the last export, import or sync said stays when the screen redraws after it.
  const said = (text, tone) => {
    app.phoneLedgerSaid = { text, tone };
    status.textContent = text;
    status.className = tone ? "meta " + tone : "meta";
  };
  if (app.phoneLedgerSaid) said(app.phoneLedgerSaid.text, app.phoneLedgerSaid.tone);
  async function doExport() {
    const found = await ledger.exportFile();
    said(t("exported", { n: found.sessions, name: found.name }), "ok");
  }
  async function doImport(event) {
    const picked = event.target.files && event.target.files[0];
    if (!picked) return;
    try {
      const report = await ledger.importFile(picked);
      said(report.conflict_text || report.summary, report.conflicts && report.conflicts.length ? "bad" : "ok");
      refresh();
    } catch (error) {
      said(error.message || String(error), "bad");
    }
    event.target.value = "";
  }
  async function doSync(button) {
    button.disabled = true;
    said(t("syncing"), "busy");
    try {
      const { pushed, pulled } = await ledger.sync(link.value, app.lang);
      said(t("synced", { sent: pushed.summary, received: pulled.summary }),
        pushed.conflicts.length || pulled.conflicts.length ? "bad" : "ok");
      refresh();
    } catch (error) {
      if (error.code === "link") said(t("sync_link_bad"), "bad");
      else if (error.code === "unreachable") said(t("sync_unreachable"), "bad");
      else said(t("sync_refused", { reason: error.message }), "bad");
    } finally {
      button.disabled = false;
      judge();
    }
  }
  const syncButton = h("button", { type: "button", class: "primary", on: { click: () => doSync(syncButton) } }, t("sync_now"));
  // Before any try: can this app reach the hub the link names? If not, the file way.
  const reach = h("p", { class: "meta", id: "hub-reach", "aria-live": "polite" });
  const byFile = h("button", { type: "button", on: { click: () => doExport().catch((e) => said(e.message || String(e), "bad")) } },
    t("sync_by_file"));
  function judge() {
    const found = hubReach(link.value, window.location.href);
    reach.dataset.reach = found.state;
    reach.textContent = found.state === "blocked" ? t("sync_blocked", { hub: found.origin })
      : found.state === "ok" ? t("sync_reachable", { app: found.app })
        : found.state === "link" ? t("sync_link_bad") : t("sync_how");
    reach.className = found.state === "blocked" || found.state === "link" ? "meta bad" : "meta";
    byFile.hidden = found.state !== "blocked";
    syncButton.disabled = found.state === "blocked" || found.state === "link";
  }
  link.addEventListener("input", judge);
  judge();
  return h("section", { class: "card", "aria-labelledby": "phone-ledger" },
    h("h2", { id: "phone-ledger" }, t("phone_ledger")),
    h("p", { class: "row" },
      h("button", { type: "button", on: { click: () => doExport().catch((e) => said(e.message || String(e), "bad")) } },
        t("export_ledger"))),
    h("p", {}, h("label", { for: "import-file" }, t("import_file")),
      h("input", { type: "file", id: "import-file", accept: ".json,.txt,application/json,text/plain",
        on: { change: doImport } })),
    h("p", {}, h("label", { for: "hub-link" }, t("hub_link")), link),
    reach,
    h("p", { class: "row" }, syncButton, byFile),
    status);
}

export function historyScreen(app) {
  async function show(main) {
    const found = (await app.engine.history()).slice().reverse(); // newest first
    const items = found.map((r) => h("li", {},
      h("a", { href: "#/t/" + r.id + "/settle", class: "table-link" },
        h("strong", {}, sessionTitle(r)),
        h("span", { class: "meta" }, when(r.started_at) + " · " + t("deals_count", { n: r.deals }) + " · " + rulesTitle(r.rules)),
        h("span", { class: "nets" }, ...r.players.map((n) => h("span", { class: tone(r.money[n]) },
          n + " " + signedMoney(r.money[n]) + " " + r.currency))))));
    const players = [...new Set(found.flatMap((r) => r.players))];
    clear(main,
      h("section", { class: "card" }, h("h1", {}, t("history")),
        items.length ? h("ul", { class: "tables" }, items) : h("p", { class: "meta" }, t("no_tables"))),
      players.length ? h("section", { class: "card" }, h("h2", {}, t("players")),
        h("p", { class: "row" }, players.map((n) => h("a", { class: "button", href: "#/player/" + encodeURIComponent(n) }, n)))) : null,
      app.engine.phoneLedger ? phoneLedgerCard(app, () => show(main)) : null);
  }
  return { name: "history", show, refresh: () => show(document.getElementById("main")) };
}

export function playerScreen(app, name) {
  async function show(main) {
    const rows = await app.engine.history(name); // oldest first, for the chart
    const mine = rows.filter((r) => r.players.includes(name));
    const points = mine.map((r) => r.net[name] || 0);
    const total = points.reduce((a, b) => a + b, 0);
    const list = mine.slice().reverse().map((r) => h("li", {},
      h("a", { href: "#/t/" + r.id, class: "table-link" },
        h("strong", {}, sessionTitle(r)),
        h("span", { class: "meta" }, when(r.started_at)),
        h("span", { class: "nets" }, h("span", { class: tone(r.net[name]) }, t("points_n", { n: signed(r.net[name] || 0) })),
          h("span", { class: tone(r.money[name]) }, signedMoney(r.money[name]) + " " + r.currency)))));
    clear(main,
      h("section", { class: "card" },
        h("h1", {}, name),
        h("p", { class: "meta" }, t("player_summary", { n: mine.length, points: signed(total) })),
        mine.length ? barChart(points, { label: t("chart_player", { name }), xLabel: t("sessions_axis") }) : null),
      h("section", { class: "card" }, h("h2", {}, t("sessions")), h("ul", { class: "tables" }, list)));
  }
  return { name: "player", show, refresh: () => show(document.getElementById("main")) };
}
