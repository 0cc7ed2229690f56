"""The offline app handed on and kept current (docs/offline.md, "Install, share, update"):
the tables screen offers Share for the app's own address and shows its QR code, and a new build published at
the same address is announced with Reload in the page opened under the old one."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from offline.offline_helpers import (
    SWITCHES,
    StaticServer,
    build_site,
    fresh_dir,
    need_chromium,
    remove,
    shot,
    wait_cached,
    wait_ready,
)

from ledger.core import i18n


def zh(message: str, **values: Any) -> str:
    with i18n.using("zh_Hant"):
        text = i18n._(message)
    return text.format(**values) if values else text


@pytest.fixture
def published() -> Iterator[tuple[StaticServer, Path]]:
    need_chromium()
    folder = fresh_dir("bigtwo-update-")
    server = StaticServer(build_site(folder))
    yield server, folder
    server.close()
    remove(folder)


def test_share_the_app_and_a_new_version_is_announced_with_reload(published, tmp_path):
    from playwright.sync_api import expect, sync_playwright

    server, folder = published
    from ledger.web import offline

    offline.build(folder, url=server.url)  # built for the address it is opened at: a QR code of it
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=need_chromium(), args=SWITCHES)
        try:
            context = browser.new_context(viewport={"width": 390, "height": 844}, locale="zh-HK")
            page = context.new_page()
            page.set_default_timeout(60_000)
            page.goto(server.url + "#/tables")
            wait_cached(page)
            wait_ready(page)
            card = page.get_by_role("region", name=zh("This app"))
            expect(card).to_contain_text(server.url)
            expect(card.get_by_role("button", name=zh("Share this app"))).to_be_visible()
            qr = card.get_by_role("img", name=zh("QR code of {address}", address=server.url))
            expect(qr).to_be_visible()
            assert qr.evaluate("(img) => img.complete && img.naturalWidth > 0")
            expect(card).to_contain_text(zh("Scan to open this app"))
            card.scroll_into_view_if_needed()
            shot(page, "offline-app-card-zh_Hant-390x844.png", tmp_path)
            page.reload()  # now under the service worker
            wait_ready(page)
            assert page.evaluate("!!navigator.serviceWorker.controller")
            assert page.locator("#update-note").count() == 0

            offline.build(folder, {"version.txt": b"2\n"}, url=server.url)  # a new build at the same address
            page.evaluate("navigator.serviceWorker.getRegistration().then((r) => r.update())")
            note = page.locator("#update-note")
            expect(note).to_contain_text(zh("A new version of this app is ready."), timeout=180_000)
            shot(page, "offline-update-zh_Hant-390x844.png", tmp_path)
            note.get_by_role("button", name=zh("Reload")).click()
            wait_ready(page)
            page.wait_for_selector('html[data-route="shown"]', state="attached")
            assert page.locator("#update-note").count() == 0  # the new version, nothing to say
            assert page.evaluate("fetch('version.txt').then((r) => r.text())") == "2\n"
        finally:
            browser.close()
