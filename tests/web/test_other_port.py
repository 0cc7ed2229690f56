"""A second local web app on another port of the same host cannot write to the hub, nor
read its answers (issue 19: "the keeper's cookie reaches every other port on the host").

Cookies are not kept apart by port, so a cookie the keeper's browser holds for
127.0.0.1 goes with every request a page of 127.0.0.1:<other port> makes to the hub.
The hub grants nothing to a cookie (only ``Authorization: Bearer``, which another
origin's page cannot read from the app's storage nor send without a CORS preflight the
hub does not grant), so such a page's writes are refused and nothing is written.
Headless Chromium (Playwright), as the other browser tests."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import httpx
import pytest
from web.phonekit import LiveServer, launch
from web.webhelpers import KEY, bearer, ledger_bytes

from ledger.web.auth import viewer_token

LINE = "陳大文=0 Ben=3 Cat=11 Dan=8"

# The other app's script: every way a page can send the hub a write or a read.
OTHER_JS = """
const hub = new URL(location.href).searchParams.get("hub");
// The key in the body: a write that needs no custom header, so no preflight either.
const body = JSON.stringify({session: 1, line: %s, key: crypto.randomUUID()});
async function attempt(name, path, init) {
  try {
    const r = await fetch(hub + path, init);
    let text = "";
    try { text = await r.text(); } catch (e) { text = "unreadable"; }
    return [name, "read", r.type, r.status, text];
  } catch (e) {
    return [name, "refused", String(e)];
  }
}
(async () => {
  const out = [];
  out.push(["storage", localStorage.getItem("bigtwo.token@/")]);
  // A simple request (no preflight): it reaches the hub, with the cookies.
  out.push(await attempt("plain post", "/api/record", {method: "POST", credentials: "include",
    headers: {"content-type": "text/plain"}, body}));
  // The same, opaque: the page never sees an answer, but the request is sent.
  out.push(await attempt("no-cors post", "/api/record", {method: "POST", mode: "no-cors",
    credentials: "include", headers: {"content-type": "text/plain"}, body}));
  // As the app sends it (JSON, an Idempotency-Key): needs a preflight.
  out.push(await attempt("app-like post", "/api/record", {method: "POST", credentials: "include",
    headers: {"content-type": "application/json", "idempotency-key": crypto.randomUUID()}, body}));
  // With the viewer token guessed right: still a preflight the hub does not grant.
  out.push(await attempt("bearer post", "/api/record", {method: "POST",
    headers: {"authorization": "Bearer %s", "idempotency-key": "9d2e0f5c-8c36-4f4b-9d58-3b0c8e6e1f00",
              "content-type": "application/json"}, body}));
  // Reads: the answer is not the other page's to read.
  out.push(await attempt("read board", "/api/board?session=1", {credentials: "include"}));
  out.push(await attempt("read access", "/api/access", {credentials: "include"}));
  window.results = out;
})();
"""


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from launch()


SEEN: list[dict[bytes, bytes]] = []  # the headers of each POST as the hub received it


@pytest.fixture
def hub(db: Path) -> Iterator[LiveServer]:
    def watched(app: Any) -> Any:
        async def asgi(scope: Any, receive: Any, send: Any) -> None:
            if scope["type"] == "http" and scope["path"] == "/api/record" and scope["method"] == "POST":
                SEEN.append(dict(scope["headers"]))
            await app(scope, receive, send)
        return asgi

    SEEN.clear()
    server = LiveServer(db, wrap=watched)
    yield server
    server.stop()


@pytest.fixture
def other_app(tmp_path: Path) -> Iterator[str]:
    """Another local web app: a plain static server on another port of 127.0.0.1."""
    site = tmp_path / "other"
    site.mkdir()
    (site / "index.html").write_text('<!doctype html><title>other</title><script src="other.js"></script>')
    (site / "other.js").write_text(OTHER_JS % (json.dumps(LINE), viewer_token(KEY)))

    class Quiet(SimpleHTTPRequestHandler):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, directory=str(site), **kwargs)

        def log_message(self, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Quiet)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


@pytest.mark.parametrize("cookie", ["bigtwo_token", "token"])
def test_a_page_on_another_port_cannot_write_or_read(browser, hub: LiveServer, other_app: str,
                                                     db: Path, cookie: str) -> None:
    context = browser.new_context()
    try:
        # The keeper's browser: the app opened with the keeper's link (its token in the
        # hub's origin storage), and a cookie for the host holding the keeper token.
        app = context.new_page()
        app.goto(hub.keeper())
        app.wait_for_function("() => localStorage.getItem('bigtwo.token@/') !== null")
        assert app.evaluate("() => localStorage.getItem('bigtwo.token@/')") == KEY  # the app at /
        context.add_cookies([{"name": cookie, "value": KEY, "domain": "127.0.0.1", "path": "/"}])
        before = ledger_bytes(db)

        page = context.new_page()
        page.goto(f"{other_app}/index.html?hub={hub.base()}")
        page.wait_for_function("() => window.results !== undefined", timeout=20000)
        results = {r[0]: r[1:] for r in page.evaluate("() => window.results")}
    finally:
        context.close()

    assert results["storage"] == [None]  # the app's token is not this origin's to read
    # The cookie went with the simple requests (so the hub was asked), and nothing was written.
    asked = [h for h in SEEN if h.get(b"origin") == other_app.encode()]
    assert len(asked) == 2, asked  # the two simple posts reached it; no preflight was granted
    assert all(f"{cookie}={KEY}".encode() in h.get(b"cookie", b"") for h in asked), asked
    for name in ("plain post", "app-like post", "bearer post", "read board", "read access"):
        assert results[name][0] == "refused", (name, results[name])  # CORS: nothing to read
    assert results["no-cors post"][:3] == ["read", "opaque", 0]  # sent, its answer hidden
    assert ledger_bytes(db) == before
    board = httpx.get(hub.base() + "/api/board?session=1", headers=bearer(KEY)).json()
    assert board["deals"] == [] and board["next_deal"] == 1
    # The hub's own answer to such a request, as the other page's browser got it: 401.
    refused = httpx.post(hub.base() + "/api/record", content=json.dumps({"session": 1, "line": LINE}),
                         headers={"content-type": "text/plain", "origin": other_app,
                                  "cookie": f"{cookie}={KEY}"})
    assert refused.status_code == 401 and "access-control-allow-origin" not in refused.headers
    # And the hub does take the same write with the token as a header (the test's control).
    taken = httpx.post(hub.base() + "/api/record", json={"session": 1, "line": LINE},
                       headers={**bearer(KEY), "idempotency-key": "0f5c9d2e-8c36-4f4b-9d58-3b0c8e6e1f00"})
    assert taken.status_code == 200 and taken.json()["deal"] == 1
