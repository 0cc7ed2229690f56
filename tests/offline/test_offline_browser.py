"""The offline app in headless Chromium, served from 127.0.0.1 by a plain static server:
it opens with no network after the first visit, an evening is recorded with no network,
and a browser killed right after the last "saved" finds every deal there exactly once."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from offline.offline_helpers import (
    EVENING,
    SWITCHES,
    KillableChromium,
    call,
    key,
    laptop_evening,
    need_chromium,
    phone_page,
    start_args,
    wait_cached,
    wait_ready,
)


def comparable(board):
    """What two devices must agree on: the standings and each deal's facts and points."""
    return {"standings": board["standings"],
            "deals": [(d.get("deal"), d.get("line"), d.get("players")) for d in board["deals"]]}


def test_first_visit_then_no_network_then_reload_opens_the_app_with_the_engine_ready(site):
    with phone_page() as (context, page, errors):
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

    from ledger.engine import dispatch as engine
    from ledger.storage.store import open_ledger

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=need_chromium(), args=SWITCHES)
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


def show(page, hash_):
    """Go to one of the app's screens and wait until it is drawn."""
    from playwright.sync_api import expect

    page.evaluate("(h) => { document.documentElement.dataset.route = 'asked'; location.hash = h; }", hash_)
    expect(page.locator("html")).to_have_attribute("data-route", "shown")


def json_roundtrip(value):
    import json

    return json.loads(json.dumps(value, default=str))


def test_a_phone_and_a_hub_that_both_recorded_while_apart_sync_to_the_same_standings(site, tmp_path):
    """The installed app and `bigtwo serve --cert … --allow-origin <the app>`: the keeper
    pastes the hub's scorekeeper link and taps Sync; the phone goes offline, both record;
    a sync while the network is gone says so and loses nothing; back online, one tap and
    both have every deal once, with the same standings."""
    import re
    import shutil
    import ssl
    import subprocess
    from urllib.parse import urlsplit

    from playwright.sync_api import expect, sync_playwright
    from web.webhelpers import KEY, Server, bigtwo

    from ledger.engine import dispatch as engine
    from ledger.storage.store import open_ledger

    if shutil.which("openssl") is None:
        raise AssertionError("this test makes its certificate with openssl (apt-get install openssl)")
    cert, pem_key = tmp_path / "cert.pem", tmp_path / "key.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
                    "-keyout", str(pem_key), "-out", str(cert), "-subj", "/CN=localhost",
                    "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1"], check=True, capture_output=True)
    db = tmp_path / "hub.db"
    bigtwo(db, "session", "start", "--players", "陳大文,李小明,José,Dan", "--name", "Friday")
    bigtwo(db, "deal", "陳大文=0", "李小明=3", "José=11", "Dan=8")
    bigtwo(db, "player", "pay-id", "李小明", "fps", "+852 9123 4567")  # synced to the keeper's phone
    parts = urlsplit(site.url)
    server = Server(db, KEY, "--cert", str(cert), "--key", str(pem_key),
                    "--allow-origin", f"{parts.scheme}://{parts.netloc}",
                    verify=ssl.create_default_context(cafile=str(cert)))
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=need_chromium(), args=SWITCHES)
            try:
                context = browser.new_context(ignore_https_errors=True,
                                              viewport={"width": 390, "height": 844})
                page = context.new_page()
                page.goto(site.url + "#/history")
                wait_ready(page)
                link = page.get_by_label("The hub's scorekeeper link")
                link.fill(server.keeper)
                sync = page.get_by_role("button", name="Sync with the hub")
                sync.click()
                status = page.get_by_role("status").filter(has_text="Sync")
                expect(status).to_contain_text("Synced", timeout=60_000)
                # The hub's session is on the phone now: its table, from the history list.
                page.reload()
                wait_ready(page)
                href = page.get_by_role("link", name=re.compile("Friday")).first.get_attribute("href")
                sid = int(re.match(r"#/t/(\d+)", href).group(1))
                # Apart: the phone, offline, records two deals on its keypad; the hub one.
                context.set_offline(True)
                show(page, f"#/t/{sid}")
                saved = int(page.locator("html").get_attribute("data-saved") or 0)
                for winner, left in (("陳大文", {"李小明": 7, "José": 1, "Dan": 1}),
                                     ("José", {"陳大文": 3, "李小明": 3, "Dan": 9})):
                    page.get_by_role("radio", name=winner, exact=True).click()
                    for name, n in left.items():
                        page.get_by_role("button", name=f"{name}: {n} cards left", exact=True).click()
                    page.get_by_role("button", name="Record deal", exact=True).click()
                    saved += 1
                    expect(page.locator("html")).to_have_attribute("data-saved", str(saved))
                bigtwo(db, "deal", "--session", "1", "陳大文=2", "李小明=0", "José=5", "Dan=6")
                show(page, "#/history")
                sync = page.get_by_role("button", name="Sync with the hub")
                sync.click()  # the network is gone: said, and nothing lost
                refused = page.get_by_role("status").filter(has_text="did not answer")
                expect(refused).to_be_visible(timeout=60_000)
                context.set_offline(False)
                sync.click()
                status = page.get_by_role("status").filter(has_text="Synced")
                expect(status).to_contain_text("numbered anew", timeout=60_000)
                sync.click()  # again: nothing new either way
                expect(status).to_contain_text("nothing new", timeout=60_000)
                # The phone's ledger, read by the same engine once the app lets it go.
                page.close()
                harness = context.new_page()
                harness.goto(site.url + "harness.html")
                wait_ready(harness)
                phone = call(harness, "board", {"session": sid})
                phone_ids = json.loads(call(harness, "export", {"pay_ids": True})["text"])["pay_ids"]
            finally:
                browser.close()
    finally:
        code, out = server.stop()
    assert code == 0 and "Traceback" not in out, out
    with open_ledger(db) as ledger:
        hub = json_roundtrip(engine.call(ledger, "board", {"session": 1}))
    assert json_roundtrip(phone["standings"]) == hub["standings"]
    assert len(phone["deals"]) == len(hub["deals"]) == 4
    assert [(r["player"], r["scheme"], r["id"]) for r in phone_ids] == [("李小明", "fps", "+85291234567")]


@pytest.mark.parametrize(("locale", "heading"), [("zh-HK", "呢部手機嘅記分簿"), ("zh-CN", "这部手机的账本"),
                                                 ("en-US", "This phone's ledger")])
def test_the_offline_app_speaks_the_phones_language_until_one_is_chosen(site, locale, heading):
    from playwright.sync_api import expect, sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=need_chromium(), args=SWITCHES)
        try:
            page = browser.new_context(locale=locale, viewport={"width": 360, "height": 640}).new_page()
            page.goto(site.url + "#/history")
            wait_ready(page)
            expect(page.get_by_role("heading", name=heading)).to_be_visible(timeout=60_000)
            link = page.locator("#hub-link").bounding_box()
            assert link is not None and link["width"] >= 360 * 0.75  # the link box spans the card
        finally:
            browser.close()


def test_an_engine_that_never_starts_is_said_not_left_loading(site):
    from playwright.sync_api import expect, sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=need_chromium(), args=SWITCHES)
        try:
            page = browser.new_context().new_page()
            page.goto(site.url + "stuck.html")
            note = page.locator("#offline-note")
            expect(note).to_contain_text("still starting", timeout=30_000)
            expect(note).to_contain_text("reload")
            assert page.evaluate("document.documentElement.dataset.engine") == "loading"
        finally:
            browser.close()
