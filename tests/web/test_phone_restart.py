"""The phone app and ``bigtwo serve`` restarted in the middle of a deal: nothing the
keeper tapped is lost, and the same link goes on working (no QR code to scan again)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from web.phonekit import Phone, launch
from web.webhelpers import KEY, Server, bigtwo, cli_json


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from launch()


def test_the_server_restarted_mid_entry_loses_nothing(browser: Any, ledger_path: Path) -> None:
    from playwright.sync_api import expect

    bigtwo(ledger_path, "session", "start", "--players", "陳大文,Ben,Cat,Dan", "--stake", "0.5",
           "--currency", "HKD", "--name", "Friday")
    server = Server(ledger_path, KEY)  # on a port the system chose; it starts again on that one
    port = urlsplit(server.base).port
    phone = Phone(browser, server.keeper, "390x844")
    try:
        page = phone.page
        phone.tap(phone.winner("Ben"))
        phone.tap(phone.key("陳大文", 5))
        code, out = server.stop()  # the laptop's server stops mid-entry …
        assert code == 0, out
        expect(page.locator("#banner")).to_be_visible()  # … the page says its numbers may be stale
        assert phone.state("link") == "down"
        phone.tap(phone.key("Cat", 2))
        phone.tap(phone.key("Dan", 13))
        phone.tap(phone.record_button())
        expect(page.locator("#status")).to_have_text("Deal 1: not saved yet — will retry")
        server = Server(ledger_path, KEY, "--port", str(port))  # … and starts again
        phone.wait_saved(1)
        expect(page.locator("#banner")).to_be_hidden(timeout=10_000)
        assert page.url.startswith(f"http://127.0.0.1:{port}/entry")  # the same page, no rescan
        assert [e["facts"]["cards"] for e in cli_json(ledger_path, "log")] == [
            {"陳大文": 5, "Ben": 0, "Cat": 2, "Dan": 13}]
        phone.deal("Cat", {"陳大文": 1, "Ben": 7, "Dan": 4})
        phone.wait_saved(2)
        assert len(cli_json(ledger_path, "log")) == 2
    finally:
        phone.close()
        server.stop()
