"""Shared pieces of the offline app's browser tests: the built site on 127.0.0.1, a
Chromium with a persistent profile that the test can kill, and a small page that
drives the worker engine directly (the app's own screens are tested in tests/web)."""

from __future__ import annotations

import contextlib
import functools
import http.server
import json
import os
import shutil
import signal
import subprocess
import tempfile
import threading
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import headless_chromium
import pytest

CHROMIUM = headless_chromium.PATH
SWITCHES = headless_chromium.SWITCHES
CSP = ("default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; worker-src 'self'; "
       "connect-src 'self' https:; style-src 'self'")
HARNESS_HTML = f"""<!doctype html>
<html lang="en" data-engine="loading">
<head><meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="{CSP}">
<script type="module" src="static/offline/offline.js"></script>
<script type="module" src="harness.js"></script></head>
<body><main id="main"></main></body></html>
"""
# An engine whose worker never says ready (a storage lock never let go of, say).
STUCK_JS = """import { create } from "./static/app/engine-worker.js";
window.engine = await create({ workerUrl: new URL("./stuck-worker.js", location.href), slowMs: 1500 });
"""
HARNESS_JS = """import { create } from "./static/app/engine-worker.js";
window.engine = await create();
document.documentElement.dataset.harness = "ready";
"""
PLAYERS = ["陳大文", "Ben", "Cat", "Dan"]
EVENING = ["陳大文=0 Ben=3 Cat=11 Dan=8", "陳大文=5 Ben=0 Cat=2 Dan=7", "陳大文=9 Ben=4 Cat=0 Dan=1",
           "陳大文=13 Ben=6 Cat=2 Dan=0", "陳大文=0 Ben=10 Cat=1 Dan=12", "陳大文=4 Ben=0 Cat=8 Dan=3",
           "陳大文=2 Ben=7 Cat=0 Dan=5", "陳大文=6 Ben=1 Cat=9 Dan=0"]


def need_chromium() -> str:
    if not os.path.exists(CHROMIUM):
        if os.environ.get("CI"):
            pytest.fail(f"{CHROMIUM} is missing: .ci/run installs chromium")
        pytest.skip("no Chromium here")
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        if os.environ.get("CI"):
            pytest.fail("playwright is missing: it is a test extra")
        pytest.skip("no playwright")
    return CHROMIUM


def key() -> str:
    return str(uuid.uuid4())


def build_site(folder: Path) -> Path:
    from ledger.web import offline

    offline.build(folder, {"harness.html": HARNESS_HTML.encode(), "harness.js": HARNESS_JS.encode(),
                           "stuck.html": HARNESS_HTML.replace("harness.js", "stuck.js").encode(),
                           "stuck.js": STUCK_JS.encode(), "stuck-worker.js": b"// never ready\n"})
    return folder


class Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass


class StaticServer:
    """The built site over plain HTTP on 127.0.0.1 (a secure context: the service worker
    registers), in a thread of the test."""

    def __init__(self, folder: Path) -> None:
        handler = functools.partial(Quiet, directory=str(folder))
        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


class KillableChromium:
    """Headless Chromium on a persistent profile (``--user-data-dir``), started by the
    test so that it can be killed with SIGKILL like a phone's browser swiped away, then
    reached over CDP by Playwright.  Its debugging port is one the system chose
    (``--remote-debugging-port=0``; Chromium writes it to ``DevToolsActivePort`` in the
    profile): no port is guessed free and then taken by another test meanwhile."""

    def __init__(self, playwright: Any, profile: Path) -> None:
        written = profile / "DevToolsActivePort"
        written.unlink(missing_ok=True)  # a killed browser's is stale
        self.proc = subprocess.Popen(
            [need_chromium(), "--headless=new", *SWITCHES, f"--user-data-dir={profile}",
             "--remote-debugging-port=0", "--remote-debugging-address=127.0.0.1",
             "--no-first-run", "--no-default-browser-check", "about:blank"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
        deadline = time.monotonic() + 60
        while True:
            try:
                self.port = int(written.read_text().split()[0])
                self.browser = playwright.chromium.connect_over_cdp(f"http://127.0.0.1:{self.port}")
                break
            except Exception:
                if time.monotonic() > deadline or self.proc.poll() is not None:
                    raise
                time.sleep(0.3)
        self.context = self.browser.contexts[0]

    def kill(self) -> None:
        os.killpg(self.proc.pid, signal.SIGKILL)  # the whole browser: every process it started
        self.proc.wait(timeout=30)


@contextlib.contextmanager
def phone_page(width: int = 390, height: int = 844) -> Iterator[tuple[Any, Any, list[str]]]:
    """Headless Chromium with one page of a phone's size: (its context, the page, the
    page's uncaught errors as they come); the browser closed after."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=need_chromium(), args=SWITCHES)
        try:
            context = browser.new_context(viewport={"width": width, "height": height})
            page = context.new_page()
            errors: list[str] = []
            page.on("pageerror", lambda e: errors.append(str(e)))
            yield context, page, errors
        finally:
            browser.close()


def wait_ready(page: Any, timeout: float = 180_000) -> None:
    """The engine is ready (or failed, which the assertion then shows)."""
    page.wait_for_selector('html:not([data-engine="loading"])', state="attached", timeout=timeout)
    state = page.evaluate("document.documentElement.dataset.engine")
    assert state == "ready", page.inner_text("body")


def wait_cached(page: Any) -> None:
    page.wait_for_selector('html[data-offline="cached"]', state="attached", timeout=180_000)


def call(page: Any, op: str, args: dict[str, Any]) -> Any:
    """One engine op through the worker, as the app sends it (``call``: by its name)."""
    return page.evaluate("([op, args]) => window.engine.call(op, args)", [op, args])


def laptop_evening(tmp: Path, lines: list[str]) -> dict[str, Any]:
    """The same evening through the same engine in this CPython: its board."""
    from ledger.engine import dispatch as engine
    from ledger.storage.store import open_ledger

    with open_ledger(tmp / "laptop.db") as ledger:
        s = engine.call(ledger, "start", start_args())
        for line in lines:
            engine.call(ledger, "record", {"key": key(), "session": s["id"], "line": line})
        return json.loads(json.dumps(engine.call(ledger, "board", {"session": s["id"]}), default=str))


def start_args() -> dict[str, Any]:
    return {"key": key(), "players": ",".join(PLAYERS), "rules": "classic", "stake": "0.5",
            "currency": "HKD", "name": "Friday"}


def fresh_dir(prefix: str) -> Path:
    path = Path(tempfile.mkdtemp(prefix=prefix))
    return path


def remove(path: Path) -> None:
    shutil.rmtree(path, ignore_errors=True)


def shot(page: Any, name: str, tmp: Path) -> None:
    """Screenshots for docs/offline.md: kept in BIGTWO_SHOTS when it names a folder."""
    path = tmp / name
    page.screenshot(path=str(path))
    keep = os.environ.get("BIGTWO_SHOTS")
    if keep:
        shutil.copy(path, Path(keep) / name)
