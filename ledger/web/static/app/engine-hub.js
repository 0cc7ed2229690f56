// The engine interface over HTTP to `bigtwo serve` (the hub): JSON reads, writes with
// an Idempotency-Key, and the live change feed. The keeper's or viewer's token is kept
// in this app's localStorage (scope.js) and travels as an Authorization header.

import { EngineError, opMethods } from "./engine.js";
import { keep, kept } from "./scope.js";

const TOKEN = "bigtwo.token";
const WRITE_TIMEOUT = 12000;

export function token() {
  return kept(TOKEN) || "";
}

/** Keep the token of the link this page was opened with (?t= or #t=), then take it
 * out of the address bar so it is not left in the history or a screenshot. */
export function keepToken() {
  const url = new URL(window.location.href);
  const given = url.searchParams.get("t");
  if (!given) return;
  keep(TOKEN, given); // refused (private mode): this page only
  window.bigtwoToken = given;
  url.searchParams.delete("t");
  history.replaceState(history.state, "", url.pathname + url.search + url.hash);
}

function headers(extra) {
  const out = { accept: "application/json", ...extra };
  const given = token() || window.bigtwoToken;
  if (given) out.authorization = "Bearer " + given;
  return out;
}

let language = "";

async function call(method, path, body, key) {
  if (language) path += (path.includes("?") ? "&" : "?") + "lang=" + encodeURIComponent(language);
  const init = { method, headers: headers(body === undefined ? {} : { "content-type": "application/json" }),
    cache: "no-store", credentials: "omit" };
  if (body !== undefined) init.body = JSON.stringify(body);
  if (key) init.headers["idempotency-key"] = key;
  const abort = new AbortController();
  init.signal = abort.signal;
  const timer = setTimeout(() => abort.abort(), WRITE_TIMEOUT);
  let response;
  try {
    response = await fetch(path, init);
  } catch (e) {
    throw new EngineError("unreachable", { retry: true });
  } finally {
    clearTimeout(timer);
  }
  let data;
  try { data = await response.json(); } catch (e) { data = undefined; } // null: an answer (last_setup)
  if (!response.ok) {
    // 5xx and 408/429: the server could not take it now; anything else is a refusal.
    const retry = response.status >= 500 || response.status === 408 || response.status === 429;
    const message = data && (data.message || data.error) ? (data.message || data.error) : "";
    throw new EngineError(message || String(response.status), { status: response.status, retry });
  }
  if (data === undefined) throw new EngineError("unreadable", { retry: true });
  return data;
}

const q = (params) => {
  const u = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== null && v !== "") u.set(k, String(v));
  const text = u.toString();
  return text ? "?" + text : "";
};

export async function create() {
  keepToken();
  const get = (path, params) => call("GET", path + q(params || {}));
  const post = (path, body, key) => call("POST", path, body, key);

  return {
    kind: "hub",
    useLanguage(code) { language = code || ""; },
    words: () => get("/api/words"),
    access: () => get("/api/access"),
    ...opMethods((op, args) => get("/api/" + op, args), (op, key, args) => post("/api/" + op, args, key)),
    /** The scorekeeper's payment code as a QR module matrix ({rows: ["0110…", …]}), drawn
     * by the hub (ledger/present/qr.py): the payload goes in the body, never the address. */
    qr: (text) => post("/qr", { text }),

    watch(onChange, onLink) {
      let stopped = false;
      let abort = null;
      let quiet = null;
      async function run() {
        while (!stopped) {
          abort = new AbortController();
          const reset = () => { clearTimeout(quiet); quiet = setTimeout(() => abort.abort(), 40000); };
          try {
            reset();
            const response = await fetch("/api/events", { headers: headers({ accept: "text/event-stream" }),
              signal: abort.signal, cache: "no-store", credentials: "omit" });
            if (!response.ok || !response.body) throw new Error(String(response.status));
            onLink(true);
            const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
            let buffer = "";
            for (;;) {
              const { value, done } = await reader.read();
              if (done) break;
              reset();
              buffer += value;
              let end;
              while ((end = buffer.indexOf("\n\n")) >= 0) {
                const block = buffer.slice(0, end);
                buffer = buffer.slice(end + 2);
                const data = block.split("\n").filter((l) => l.startsWith("data:")).map((l) => l.slice(5)).join("\n");
                const event = (block.split("\n").find((l) => l.startsWith("event:")) || "").slice(6).trim();
                if (data && event === "change") {
                  try { onChange(JSON.parse(data)); } catch (e) { /* a line we do not read */ }
                }
              }
            }
          } catch (e) { /* dropped: said below, then tried again */ }
          clearTimeout(quiet);
          if (stopped) return;
          onLink(false);
          await new Promise((r) => setTimeout(r, 1500));
        }
      }
      run();
      return () => { stopped = true; if (abort) abort.abort(); };
    },
  };
}
