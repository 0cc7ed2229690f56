"""Opening the phone's ledger (``Store.open`` of engine-worker-store.js) when the
browser is slow to let go of it or never answers: a real worker in Chromium, the
open patched so that its first tries stall the way Chromium's were seen to (about one
cached open in twenty, right after the previous page closed, stayed pending for good)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from offline.offline_helpers import CSP, SWITCHES, StaticServer, build_site, fresh_dir, need_chromium, remove

PAGE = f"""<!doctype html><html><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="{CSP}">
<script type="module" src="open-test.js"></script></head><body></body></html>
"""
PAGE_JS = """const worker = new Worker(new URL("open-test-worker.js", location.href), { type: "module" });
window.tryOpen = (how) => new Promise((r) => {
  setTimeout(() => r({ ok: false, name: "no answer in 60 s" }), 60000); // never a hung test
  worker.onmessage = (e) => r(e.data);
  worker.postMessage(how);
});
document.documentElement.dataset.ready = "1";
"""
# how.stalls: how many of the first tries never settle ("never") or settle only after
# the open gave them up ("late": the try then really opens the files, which must be
# closed again, or the next try finds them held).
WORKER_JS = """import { Store } from "./static/app/engine-worker-store.js";
const real = Store.openOnce.bind(Store);
self.onmessage = async ({ data: how }) => {
  let calls = 0;
  Store.openOnce = (name) => {
    calls++;
    if (calls > how.stalls) return real(name);
    if (how.mode === "never") return new Promise(() => {});
    return new Promise((r) => setTimeout(r, how.stall + 100)).then(() => real(name));
  };
  try {
    const store = await Store.open(how.folder, { stall: how.stall, stalls: how.limit });
    const page = new Uint8Array(4096).fill(7);
    store.save(page);
    store.close();
    Store.openOnce = real;
    const again = await Store.open(how.folder, { stall: 2000, tries: 5 }); // nothing left holding it
    const kept = again.read();
    again.close();
    self.postMessage({ ok: true, calls, size: kept.length, byte: kept[0] });
  } catch (error) {
    self.postMessage({ ok: false, calls, name: error.name, message: String(error.message) });
  }
};
"""


# The app's engine over a worker that could not open the ledger in time.
FAILING_JS = """import { create } from "./static/app/engine-worker.js";
window.engine = await create({ workerUrl: new URL("./failing-worker.js", location.href) });
"""
FAILING_WORKER = """self.postMessage({ type: "failed", name: "TimeoutError",
  reason: "the browser did not open the ledger within 4000 ms" });
"""


@pytest.fixture(scope="module")
def site() -> Iterator[StaticServer]:
    need_chromium()
    folder = fresh_dir("bigtwo-site-")
    build_site(folder)
    pages = {"open-test.html": PAGE, "open-test.js": PAGE_JS, "open-test-worker.js": WORKER_JS,
             "failing.html": PAGE.replace("open-test.js", "failing.js"), "failing.js": FAILING_JS,
             "failing-worker.js": FAILING_WORKER}
    for name, text in pages.items():
        (Path(folder) / name).write_text(text, encoding="utf-8")
    server = StaticServer(folder)
    yield server
    server.close()
    remove(folder)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=need_chromium(), args=SWITCHES)
        yield chromium
        chromium.close()


def opened(browser: Any, site: StaticServer, page_name: str) -> Any:
    """A page of the site in a context of its own (its own origin storage)."""
    page = browser.new_context().new_page()
    page.goto(site.url + page_name)
    return page


def try_open(browser: Any, site: StaticServer, **how: object) -> dict[str, object]:
    page = opened(browser, site, "open-test.html")
    try:
        page.wait_for_selector("html[data-ready]", state="attached")
        return dict(page.evaluate("(how) => window.tryOpen(how)", how))
    finally:
        page.context.close()


@pytest.mark.parametrize("mode", ["never", "late"])
def test_a_try_the_browser_never_answers_is_made_again_and_the_ledger_opens(browser, site, mode) -> None:
    got = try_open(browser, site, mode=mode, stalls=2, stall=400, limit=3, folder=f"stall-{mode}")
    assert got["ok"], got
    assert got["calls"] >= 3  # two stalled tries, then one that opened
    assert (got["size"], got["byte"]) == (4096, 7)  # what was saved is there on the next open


def test_an_open_that_stalls_every_time_fails_with_its_own_name(browser, site) -> None:
    got = try_open(browser, site, mode="never", stalls=99, stall=300, limit=3, folder="stall-always")
    assert not got["ok"] and got["name"] == "TimeoutError", got
    assert got["calls"] == 3


def test_the_page_says_the_ledger_could_not_be_opened_and_to_reload(browser, site) -> None:
    page = opened(browser, site, "failing.html")
    try:
        page.wait_for_selector('html[data-engine="failed"]', state="attached")
        note = page.inner_text("#offline-note")
        assert "did not open the ledger" in note and "Reload" in note, note
    finally:
        page.context.close()
