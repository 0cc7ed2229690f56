// The board of a table started before the engine could answer (a first open while
// Pyodide loads): drawn from the start waiting in the outbox and the preset's deal facts
// shipped with the site (engine.offers), so deals can be tapped at once; they wait in
// the outbox under the table's pending name until the start is written (model-outbox.js).

import { t } from "./words.js";

const sorted = (value) => JSON.stringify(value, (k, v) => (v && typeof v === "object" && !Array.isArray(v)
  ? Object.fromEntries(Object.keys(v).sort().map((key) => [key, v[key]])) : v));

/** The board record of pending table `table`, as the engine's board would be before its
 * first deal; null when its rules are not a preset the site carries (the board then
 * waits for the engine). */
export async function pendingBoard(app, table) {
  const start = app.outbox.startOf(table);
  if (!start || !app.engine.offers) return null;
  const args = start.args;
  const presets = await app.engine.presets();
  const preset = args.rule_set
    ? presets.find((p) => sorted(p.rule_set) === sorted(args.rule_set))
    : presets.find((p) => p.name === (args.rules || "classic"));
  const facts = preset ? await app.engine.offers(preset.name, !!args.teams) : null;
  if (!facts) return null;
  const players = args.players.map((p) => p.trim()).filter((p) => p);
  return {
    session: { id: table, name: args.name || t("new_table"), players, deals: 0, ended_at: null, open: true,
      rules: preset.name, stake: args.stake || "1", currency: args.currency || "PTS", teams: !!args.teams,
      hand_size: preset.hand_size, mode: preset.mode, settlement: preset.settlement },
    standings: { players: players.map((name) => ({ name, wins: 0, net: 0 })) },
    next: null, next_deal: 1, facts, deals: [], undo: null,
  };
}
