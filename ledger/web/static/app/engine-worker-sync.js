// Sync the phone's ledger with a hub (`bigtwo serve --cert … --allow-origin <this app>`):
// push this phone's export to the hub's `import`, then import the hub's `export` here.
// Both halves merge by entry uuid in the one Python engine (ledger/formats), so a sync
// sent twice, or cut off halfway and sent again, writes every entry exactly once. The
// players' pay ids ride along (export's pay_ids, as `bigtwo export --with-pay-ids`): a
// sync is between the scorekeeper's own devices, and the hub gives them to the
// scorekeeper's token alone. This
// file only carries the texts; it never reads a score.

import { newId } from "./model-ids.js";
import { keep, kept } from "./scope.js";

const LINK = "bigtwo.offline.hub";
const TIMEOUT = 60000;

export class SyncError extends Error {
  constructor(code, detail) {
    super(detail || code);
    this.code = code; // "link" (not a hub link), "unreachable", "refused" (the hub's message)
  }
}

export function keptLink() {
  return kept(LINK) || "";
}

/** The hub's origin and keeper token from the scorekeeper link `bigtwo serve` prints. */
export function parseLink(text) {
  let url;
  try { url = new URL(String(text || "").trim()); } catch (e) { throw new SyncError("link"); }
  const hash = new URLSearchParams(url.hash.replace(/^#/, ""));
  const token = url.searchParams.get("t") || hash.get("t") || "";
  if (!/^https?:$/.test(url.protocol) || !token) throw new SyncError("link");
  return { origin: url.origin, token };
}

async function hub(method, url, token, body) {
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), TIMEOUT);
  const headers = { accept: "application/json", authorization: "Bearer " + token };
  if (body !== undefined) {
    headers["content-type"] = "application/json";
    headers["idempotency-key"] = newId();
  }
  let response;
  try {
    response = await fetch(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body),
      cache: "no-store", credentials: "omit", signal: abort.signal });
  } catch (e) {
    throw new SyncError("unreachable");
  } finally {
    clearTimeout(timer);
  }
  let data = null;
  try { data = await response.json(); } catch (e) { data = null; }
  if (!response.ok) throw new SyncError("refused", (data && data.message) || String(response.status));
  if (data === null) throw new SyncError("unreachable");
  return data;
}

/** Push, then pull: `{pushed, pulled}`, each the import's report (summary, renumbered…). */
export async function syncWithHub(engine, link, lang) {
  const { origin, token } = parseLink(link);
  keep(LINK, link.trim()); // refused (private mode): asked again
  const q = lang ? "?lang=" + encodeURIComponent(lang) : "";
  // The pay ids go both ways: the link is the scorekeeper's (a viewer's token gets none).
  const mine = await engine.call("export", { pay_ids: true });
  const pushed = await hub("POST", origin + "/api/import" + q, token, { text: mine.text, name: "phone.json" });
  const theirs = await hub("GET", origin + "/api/export" + (q ? q + "&" : "?") + "pay_ids=true", token);
  const pulled = await engine.importFile(newId(), { text: theirs.text, name: "hub.json" });
  return { pushed, pulled };
}
