"""The offline app in headless Chromium, served from 127.0.0.1 by a plain static server:
it opens with no network after the first visit, an evening is recorded with no network,
and a browser killed right after the last "saved" finds every deal there exactly once."""

from __future__ import annotations

from pathlib import Path

import pytest
from offline.offline_helpers import (
    EVENING,
    KillableChromium,
    StaticServer,
    build_site,
    call,
    fresh_dir,
    key,
    laptop_evening,
    need_chromium,
    remove,
    start_args,
    wait_cached,
    wait_ready,
)


@pytest.fixture(scope="module")
def site():
    need_chromium()
    folder = fresh_dir("bigtwo-site-")
    server = StaticServer(build_site(folder))
    yield server
    server.close()
    remove(folder)


def comparable(board):
    """What two devices must agree on: the standings and each deal's facts and points."""
    return {"standings": board["standings"],
            "deals": [(d.get("deal"), d.get("line"), d.get("players")) for d in board["deals"]]}


def test_first_visit_then_no_network_then_reload_opens_the_app_with_the_engine_ready(site):
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=need_chromium(), args=["--no-sandbox"])
        try:
            context = browser.new_context(viewport={"width": 390, "height": 844})
            page = context.new_page()
            errors: list[str] = []
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.goto(site.url)
            wait_ready(page)
            wait_cached(page)
            context.set_offline(True)
            page.reload()
            wait_ready(page)
            assert page.evaluate("document.documentElement.dataset.engineKind") == "worker"
            # The app drew a screen from the engine's answers, with no network at all.
            page.wait_for_selector("html[data-screen]", state="attached", timeout=60_000)
            assert page.locator("#main").inner_text().strip()
            assert errors == []
        finally:
            browser.close()


def test_an_evening_offline_then_the_browser_killed_after_saved_keeps_every_deal_once(site, tmp_path):
    from playwright.sync_api import sync_playwright

    profile = tmp_path / "profile"
    harness = site.url + "harness.html"
    with sync_playwright() as p:
        chromium = KillableChromium(p, profile)
        try:
            page = chromium.context.new_page()
            page.goto(harness)
            wait_ready(page)
            wait_cached(page)
            chromium.context.set_offline(True)
            page.reload()
            wait_ready(page)
            session = call(page, "start", start_args())["id"]
            for line in EVENING:
                answer = call(page, "record", {"key": key(), "session": session, "line": line})
                assert answer["deal"] >= 1  # answered: durable (the promise resolves after the save)
        finally:
            chromium.kill()  # right after the last "saved", no goodbye
        reopened = KillableChromium(p, profile)
        try:
            reopened.context.set_offline(True)
            page = reopened.context.new_page()
            page.goto(harness)
            wait_ready(page)
            board = call(page, "board", {"session": session})
            sessions = call(page, "sessions", {})["sessions"]
        finally:
            reopened.kill()
    assert len(sessions) == 1
    assert sorted(d["deal"] for d in board["deals"]) == list(range(1, len(EVENING) + 1))
    assert comparable(board) == comparable(laptop_evening(Path(tmp_path), EVENING))


def test_the_phones_export_imported_by_bigtwo_import_gives_the_same_standings_and_settlement(site, tmp_path):
    import subprocess
    import sys

    from playwright.sync_api import sync_playwright

    from ledger.storage.store import open_ledger
    from ledger.web import engine

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=need_chromium(), args=["--no-sandbox"])
        try:
            page = browser.new_context().new_page()
            page.goto(site.url + "harness.html")
            wait_ready(page)
            session = call(page, "start", start_args())["id"]
            for line in EVENING:
                call(page, "record", {"key": key(), "session": session, "line": line})
            call(page, "void", {"key": key(), "session": session, "deal": 2})
            phone_board = call(page, "board", {"session": session})
            phone_settle = call(page, "settle", {"session": session, "round": "0.5"})
            exported = page.evaluate("(s) => window.engine.exportLedger(s)", session)
            again = page.evaluate("([k, f]) => window.engine.importFile(k, f)",
                                  [key(), {"text": exported["text"], "name": exported["name"]}])
        finally:
            browser.close()
    assert again["entries_added"] == 0  # its own export: everything already there
    file = tmp_path / exported["name"]
    file.write_text(exported["text"], encoding="utf-8")
    laptop = tmp_path / "laptop.db"
    for _ in range(2):  # the second import adds nothing: merged by uuid
        subprocess.run([sys.executable, "-m", "ledger", "--db", str(laptop), "import", str(file)],
                       check=True, capture_output=True, text=True)
    with open_ledger(laptop) as ledger:
        sid = engine.call(ledger, "sessions", {})["sessions"][0]["id"]
        laptop_board = engine.call(ledger, "board", {"session": sid})
        laptop_settle = engine.call(ledger, "settle", {"session": sid, "round": "0.5"})
    assert laptop_board["standings"] == phone_board["standings"]
    assert len(laptop_board["deals"]) == len(phone_board["deals"])
    for key_ in ("session",):
        laptop_settle.pop(key_, None)
        phone_settle.pop(key_, None)
    assert json_roundtrip(laptop_settle) == json_roundtrip(phone_settle)


def json_roundtrip(value):
    import json

    return json.loads(json.dumps(value, default=str))
