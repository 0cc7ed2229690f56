// An app's storage is its own (docs/offline.md, "Several apps on one origin"). Builds
// published under one origin (USER.github.io/club-a/ and /club-b/, or the hub's page at
// / and its offline site at /app/) share that origin's localStorage, caches and private
// file system, so each names what it keeps by its scope, the folder it is published in
// (the service worker, sw.js, names its cache the same way). Before, the names were
// bare ("bigtwo.outbox", the folder "bigtwo-ledger"), one set for every app of the
// origin: the first app of the origin to read one after the update takes it over
// (moves it to its own name), once; afterwards no app reads the bare names again.

/** The folder the app is published in, as a path: "/club-a/" (this file is in static/app/). */
export const SCOPE = new URL("../../", import.meta.url).pathname;

/** The localStorage key of this app for `name`: "bigtwo.outbox@/club-a/". */
export function scoped(name) {
  return `${name}@${SCOPE}`;
}

/** The value this app keeps under `name`, or null; a value kept before names were
 * scoped (the bare `name`) becomes this app's, once. Never throws (private mode). */
export function kept(name) {
  try {
    const own = localStorage.getItem(scoped(name));
    if (own !== null) return own;
    const old = localStorage.getItem(name);
    if (old !== null) {
      localStorage.setItem(scoped(name), old);
      localStorage.removeItem(name);
    }
    return old;
  } catch (e) {
    return null;
  }
}

/** Keep `value` under this app's `name`; false when the browser refuses (full, private). */
export function keep(name, value) {
  try {
    localStorage.setItem(scoped(name), value);
    return true;
  } catch (e) {
    return false;
  }
}

/** The folder of this app's ledger in the origin private file system (a name holds no "/"). */
export const LEDGER_FOLDER = `bigtwo-ledger@${encodeURIComponent(SCOPE)}`;
/** The one folder every app of the origin used before (engine-worker-thread.js takes it over). */
export const OLD_LEDGER_FOLDER = "bigtwo-ledger";
