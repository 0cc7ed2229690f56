// Whether this app can reach the hub a scorekeeper link names, said before any try: a
// page on an https address may not call a plain-http hub on the network (the browser
// blocks mixed content; loopback is the one exception), and a hub must list this app's
// address (`bigtwo serve --allow-origin`). Pure: no page, so node --test reads it.

const LOOPBACK = /^(localhost|127\.\d+\.\d+\.\d+|\[::1\])$/;

/** {state, origin, app}: state "none" (no link), "link" (not a scorekeeper link),
 * "blocked" (an http hub from an https app), "ok" (reachable if the hub allows `app`). */
export function hubReach(text, pageHref) {
  const link = String(text || "").trim();
  const page = new URL(pageHref);
  if (!link) return { state: "none", origin: "", app: page.origin };
  let url;
  try { url = new URL(link); } catch (e) { return { state: "link", origin: "", app: page.origin }; }
  const hash = new URLSearchParams(url.hash.replace(/^#/, ""));
  const token = url.searchParams.get("t") || hash.get("t");
  if (!/^https?:$/.test(url.protocol) || !token) return { state: "link", origin: "", app: page.origin };
  const blocked = page.protocol === "https:" && url.protocol === "http:" && !LOOPBACK.test(url.hostname);
  return { state: blocked ? "blocked" : "ok", origin: url.origin, app: page.origin };
}
