"""The offline app on a phone set to Hong Kong Chinese, 360×640 (docs/offline.md, "Words
and defaults for the phone's place"): every word in Chinese — the next-turn line, the
presets by their names with a description and a source, the sync card —, the region's
preset and currency preselected, no hub-only sentence, Start on screen, and no element
running past the right edge of its card on any screen (every element measured)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from offline.offline_helpers import SWITCHES, need_chromium, shot, wait_ready

from ledger.core import i18n

# Every element of the screen whose right edge runs past its card's (or the page's).
OVERFLOW = """() => {
  const bad = [];
  const page = document.documentElement.clientWidth;
  for (const el of document.querySelectorAll("main *, #bar *")) {
    const r = el.getBoundingClientRect();
    if (!r.width || !r.height) continue;
    const card = el.closest(".card");
    const limit = card ? card.getBoundingClientRect().right : page;
    if (r.right > limit + 0.5 || r.right > page + 0.5)
      bad.push(el.tagName + "." + el.className + " «" + (el.textContent || "").slice(0, 30) + "» " +
        Math.round(r.right) + " > " + Math.round(limit));
  }
  return bad;
}"""

PLAYERS = ["陳大文", "李小明", "Cat", "Dan"]


def zh(message: str, **values: Any) -> str:
    with i18n.using("zh_Hant"):
        text = i18n._(message)
    return text.format(**values) if values else text


@pytest.fixture
def phone(site: Any) -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=need_chromium(), args=SWITCHES)
        try:
            context = browser.new_context(viewport={"width": 360, "height": 640}, locale="zh-HK",
                                          is_mobile=True, has_touch=True, device_scale_factor=2)
            page = context.new_page()
            page.set_default_timeout(30_000)
            yield page
        finally:
            browser.close()


def fits(page: Any, where: str) -> None:
    assert page.evaluate(OVERFLOW) == [], where


def shown(page: Any) -> None:
    page.wait_for_selector('html[data-route="shown"]', state="attached")


def go(page: Any, hash: str) -> None:
    page.evaluate("(h) => { document.documentElement.dataset.route = 'asked'; location.hash = h; }", hash)
    shown(page)


def test_every_word_in_chinese_and_nothing_overflows_at_360(site, phone, tmp_path):
    from playwright.sync_api import expect

    page = phone
    page.goto(site.url)
    hong_kong = page.locator("input[name=rules][value='hong-kong']")
    hong_kong.wait_for(state="attached")
    # Before the engine: the form in Chinese, the region's preset and currency chosen.
    assert hong_kong.is_checked()
    label = hong_kong.locator("xpath=..").inner_text().split("\n")
    assert label[0] == zh("Hong Kong") and label[0] != "hong-kong"
    assert label[2].startswith(zh("Source: {source}", source="")) and "Andrew White" in label[2]
    classic = page.locator("input[name=rules][value='classic']").locator("xpath=..").inner_text()
    assert classic.startswith(zh("Classic (pairwise)"))
    assert page.get_by_role("textbox", name=zh("Currency"), exact=True).input_value() == "HKD"
    assert zh("One scorekeeper link writes to every table of this server; the "
              "viewer link only reads.")[:8] not in page.inner_text("body")  # the hub's words only
    start = page.get_by_role("button", name=zh("Start"), exact=True)
    box = start.bounding_box()
    assert box and box["y"] + box["height"] <= 640, box  # Start on screen, not below the fold
    shot(page, "offline-first-open-zh_Hant-360x640.png", tmp_path)
    fits(page, "start")

    wait_ready(page)
    shown(page)
    for i, name in enumerate(PLAYERS):
        page.get_by_role("textbox", name=zh("Player {n}", n=i + 1), exact=True).fill(name)
    page.get_by_role("textbox", name=zh("Stake a point"), exact=True).fill("0.5")
    start.tap()
    page.wait_for_url(re.compile(r"#/t/\d+$"))
    shown(page)
    record = page.get_by_role("button", name=zh("Record deal"), exact=True)
    for winner, left in (("陳大文", {"李小明": 13, "Cat": 11, "Dan": 13}),
                         ("Cat", {"陳大文": 12, "李小明": 13, "Dan": 10})):
        page.get_by_role("radio", name=winner, exact=True).tap()
        for name, n in left.items():
            page.get_by_role("button", name=zh("{name}: {n} cards left", name=name, n=n), exact=True).tap()
        record.tap()
        expect(page.locator("html")).to_have_attribute("data-outbox", "empty")
    # Hong Kong rules: the winner deals and leads — said in Chinese, names as written.
    expect(page.locator("#scores .next")).to_have_text(zh(
        "next: {deals}, {leads}", deals=zh("{name} deals", name="Cat"), leads=zh("{name} leads", name="Cat")))
    # The session's rules by the preset's name in Chinese, not its slug.
    expect(page.locator("header.session .meta")).to_contain_text(zh("Hong Kong"))
    fits(page, "board")
    page.evaluate("document.querySelector('#scores .next').scrollIntoView({block: 'center'})")
    page.mouse.click(5, 300)  # no tap highlight left on Record in the picture
    shot(page, "offline-table-zh_Hant-360x640.png", tmp_path)
    # Record, disabled until a deal is tapped, reads as a quiet button, not dimmed red.
    assert record.is_disabled()
    colour = record.evaluate("(b) => getComputedStyle(b).opacity")
    assert colour == "1"

    # Deal 2 undone: the next is deal 3, and the board and the log say where 2 went.
    go(page, "#/t/1/log")
    page.get_by_role("button", name=zh("Undo last action"), exact=True).tap()
    page.locator("#ask").get_by_role("button", name=zh("Undo"), exact=True).tap()
    expect(page.locator("html")).to_have_attribute("data-outbox", "empty")
    expect(page.locator(".log .gone")).to_have_text([zh("Deal {n}: taken back (undone or voided)", n=2)])
    go(page, "#/t/1")
    expect(page.locator("#entry-title")).to_have_text(
        zh("Deal {n} (deal {gone} was taken back)", n=3, gone=2))
    fits(page, "board after an undo")

    for hash in ("#/t/1/log", "#/tables", "#/history"):
        go(page, hash)
        fits(page, hash)
    sync = page.get_by_role("button", name=zh("Sync with the hub"), exact=True)
    sync.wait_for()
    assert zh("Sync with the hub") != "Sync with the hub"
    # The sync card says, before any try and in Chinese, what will work (docs/offline.md).
    reach = page.locator("#hub-reach")
    how = zh("Paste the scorekeeper link of a hub started with a certificate (bigtwo serve --cert) "
             "that allows this app, or move the ledger by file: Export, then bigtwo import on the laptop.")
    expect(reach).to_have_text(how)
    page.get_by_role("textbox", name=zh("The hub's scorekeeper link")).fill("https://hub.example.org/entry?t=abc")
    expect(reach).to_have_text(zh("This app can reach that hub if the hub allows this app's address: "
                                  "bigtwo serve --allow-origin {app}", app=site.url.rstrip("/")))
    page.get_by_role("textbox", name=zh("The hub's scorekeeper link")).fill("")
    fits(page, "#/history with the sync card")
    page.get_by_role("heading", name=zh("This phone's ledger")).scroll_into_view_if_needed()
    shot(page, "offline-history-sync-zh_Hant-360x640.png", tmp_path)

    # No language was chosen: when the phone later says en-US, so does the app (the kept
    # Chinese answers are not taken for English ones).
    context = page.context
    page.close()
    later = context.new_page()
    later.add_init_script("Object.defineProperty(navigator, 'languages', { get: () => ['en-US'] });"
                          "Object.defineProperty(navigator, 'language', { get: () => 'en-US' });")
    later.goto(site.url + "#/tables")
    expect(later.locator("#tabs")).to_contain_text("Tables")
    expect(later.locator("html")).to_have_attribute("lang", "en")
