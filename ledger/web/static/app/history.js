// Every session of the ledger, and one player's page: that player's results and chart.

import { h, clear, signed, signedMoney, tone } from "./dom.js";
import { t } from "./words.js";
import { sessionTitle, when } from "./names.js";
import { barChart } from "./charts.js";

export function historyScreen(app) {
  async function show(main) {
    const found = await app.engine.history();
    const items = found.sessions.map((r) => h("li", {},
      h("a", { href: "#/t/" + r.id + "/settle", class: "table-link" },
        h("strong", {}, sessionTitle(r)),
        h("span", { class: "meta" }, when(r.started_at) + " · " + t("deals_count", { n: r.deals }) + " · " + r.rules),
        h("span", { class: "nets" }, ...r.players.map((n) => h("span", { class: tone(r.money[n]) },
          n + " " + signedMoney(r.money[n]) + " " + r.currency))))));
    const players = [...new Set(found.sessions.flatMap((r) => r.players))];
    clear(main,
      h("section", { class: "card" }, h("h1", {}, t("history")),
        items.length ? h("ul", { class: "tables" }, items) : h("p", { class: "meta" }, t("no_tables"))),
      players.length ? h("section", { class: "card" }, h("h2", {}, t("players")),
        h("p", { class: "row" }, players.map((n) => h("a", { class: "button", href: "#/player/" + encodeURIComponent(n) }, n)))) : null);
  }
  return { name: "history", show, refresh: () => show(document.getElementById("main")) };
}

export function playerScreen(app, name) {
  async function show(main) {
    const found = await app.engine.history(name);
    const rows = found.sessions.slice().reverse(); // oldest first, for the chart
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
