"""The app on a first open (docs/offline.md, "The first open"): fresh profile, a zh-HK
phone of 390×844, the engine's download held back by the server — the start form is
drawn from the files shipped with the site, a line says what loads and how much, and a
table started and a deal tapped before the engine is ready are written once when it is.
Reopening after the start form lands on the running table."""

from __future__ import annotations

import functools
import http.server
import re
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from offline.offline_helpers import (
    SWITCHES,
    Quiet,
    build_site,
    call,
    fresh_dir,
    need_chromium,
    remove,
    shot,
    wait_ready,
)

from ledger.core import i18n

HELD = ("pyodide.asm.wasm",)  # the engine's biggest file: Pyodide cannot start without it


class GatedServer:
    """The built site on 127.0.0.1 that holds the engine's files until ``release()``."""

    def __init__(self, folder: Path) -> None:
        self.gate = threading.Event()
        gate = self.gate

        class Handler(Quiet):
            def do_GET(self) -> None:
                if self.path.split("?")[0].endswith(HELD):
                    gate.wait(600)
                super().do_GET()

        self.httpd = http.server.ThreadingHTTPServer(
            ("127.0.0.1", 0), functools.partial(Handler, directory=str(folder)))
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def release(self) -> None:
        self.gate.set()

    def close(self) -> None:
        self.gate.set()
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.fixture
def gated() -> Iterator[GatedServer]:
    need_chromium()
    folder = fresh_dir("bigtwo-first-")
    server = GatedServer(build_site(folder))
    yield server
    server.close()
    remove(folder)


def zh(message: str, **values: Any) -> str:
    with i18n.using("zh_Hant"):
        text = i18n._(message)
    return text.format(**values) if values else text


@pytest.fixture
def phone() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=need_chromium(), args=SWITCHES)
        try:
            context = browser.new_context(viewport={"width": 390, "height": 844}, locale="zh-HK",
                                          is_mobile=True, has_touch=True)
            yield context
        finally:
            browser.close()


PLAYERS = ["陳大文", "Ben", "Cat", "Dan"]


def test_a_first_open_is_usable_before_the_engine_and_its_taps_are_written_once(gated, phone, tmp_path):
    from playwright.sync_api import expect

    page = phone.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.set_default_timeout(30_000)
    page.goto(gated.url)
    # The start form, in Chinese, with the engine still held back.
    page.get_by_role("textbox", name=zh("Player {n}", n=1)).wait_for()
    assert page.evaluate("document.documentElement.dataset.engine") == "loading"
    note = page.locator("#engine-progress")
    assert "MB" in note.inner_text() and zh("Loading the scorekeeper: {mb} MB, only this once; "
                                           "then this app works offline.", mb="")[:6] in note.inner_text()
    shot(page, "offline-first-open-zh_Hant-390x844.png", tmp_path)
    for i, name in enumerate(PLAYERS):
        page.get_by_role("textbox", name=zh("Player {n}", n=i + 1)).fill(name)
    page.get_by_role("button", name=zh("Start"), exact=True).tap()
    # The new table's board at once, from the preset's facts shipped with the site.
    page.wait_for_url(re.compile(r"#/t/new-"))
    page.get_by_role("radio", name="陳大文", exact=True).tap()
    for name, n in (("Ben", 3), ("Cat", 11), ("Dan", 8)):
        page.get_by_role("button", name=zh("{name}: {n} cards left", name=name, n=n), exact=True).tap()
    page.get_by_role("button", name=zh("Record deal"), exact=True).tap()
    assert page.evaluate("document.documentElement.dataset.engine") == "loading"
    expect(page.locator("#scores .pendings li")).to_have_count(1)  # the deal, behind its table's start
    shot(page, "offline-first-table-zh_Hant-390x844.png", tmp_path)
    # A reload meanwhile keeps both, and lands on the table being started.
    page.reload()
    page.wait_for_url(re.compile(r"#/t/new-"))
    page.get_by_role("radio", name="陳大文", exact=True).wait_for()
    expect(page.locator("#scores .pendings li")).to_have_count(1)

    gated.release()
    wait_ready(page)
    page.wait_for_url(re.compile(r"#/t/\d+$"), timeout=120_000)
    page.wait_for_selector('html[data-outbox="empty"]', state="attached", timeout=60_000)
    expect(page.locator("#scores .recent li")).to_have_count(1)
    sid = int(page.evaluate("location.hash.split('/')[2]"))

    # Reopened at the start form's address: the running table, never a second form.
    page.close()
    page = phone.new_page()
    page.goto(gated.url + "#/start")
    page.wait_for_url(re.compile(f"#/t/{sid}$"))
    page.get_by_role("radio", name="陳大文", exact=True).wait_for()
    page.close()

    harness = phone.new_page()  # the phone's ledger, asked directly: one table, one deal
    harness.goto(gated.url + "harness.html")
    wait_ready(harness)
    sessions = call(harness, "sessions", {})["sessions"]
    assert [(s["players"], s["deals"]) for s in sessions] == [(PLAYERS, 1)]
    assert errors == []
