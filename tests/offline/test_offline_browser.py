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
