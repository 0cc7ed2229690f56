"""The pages in a real browser (headless Chromium driven by Playwright) at a phone's
size, against ``bigtwo serve`` started as a user starts it.

Without Chromium or Playwright these tests skip, except under CI (``CI=true``) where
they fail: a missing install step must not hide them.
"""

from __future__ import annotations

import os
import re
import shutil
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from web.conftest import start
from web.webhelpers import PLAYERS, Server, bigtwo, cli_json

PHONE = {"width": 390, "height": 844}
CHROMIUM = os.environ.get("BIGTWO_CHROMIUM", "/usr/bin/chromium")
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking"]
# A five-deal evening: (winner, cards left of the others, extras) as tapped on the page,
# and the same deal as typed on the command line.
EVENING: list[tuple[str, dict[str, int], dict[str, Any], list[str]]] = [
    ("陳大文", {"Ben": 3, "Cat": 11, "Dan": 8}, {}, ["陳大文=0", "Ben=3", "Cat=11", "Dan=8"]),
    ("Ben", {"陳大文": 5, "Cat": 2, "Dan": 13}, {}, ["陳大文=5", "Ben=0", "Cat=2", "Dan=13"]),
    ("Cat", {"陳大文": 1, "Ben": 7, "Dan": 4}, {"assist": "Dan"},
     ["陳大文=1", "Ben=7", "Cat=0", "Dan=4", "--assist", "Dan"]),
    ("Dan", {"陳大文": 10, "Ben": 6, "Cat": 9}, {"missed": True},
     ["陳大文=10", "Ben=6", "Cat=9", "Dan=0", "--missed-call"]),
    ("陳大文", {"Ben": 12, "Cat": 3, "Dan": 2}, {}, ["0", "12", "3", "2"]),
]


def _need(reason: str) -> None:
    if os.environ.get("CI") == "true":
        pytest.fail(f"browser tests need {reason} (CI installs it: see .ci/run)")
    pytest.skip(f"needs {reason}")


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _need("playwright (pip install -e '.[test]')")
    if not shutil.which(CHROMIUM) and not Path(CHROMIUM).exists():
        _need(f"Chromium at {CHROMIUM} (apt-get install chromium fonts-noto-cjk)")
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


@pytest.fixture
def server(ledger_path: Path) -> Iterator[Server]:
    served = Server(ledger_path)
    yield served
    code, out = served.stop()
    assert code == 0, out


def phone(browser: Any, link: str, dark: bool = False) -> Any:
    # bypass_csp: Playwright's wait_for_function evaluates strings, which the page's
    # Content-Security-Policy (no eval) would refuse; the page's own scripts are unaffected.
    context = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True,
                                  has_touch=True, color_scheme="dark" if dark else "light",
                                  bypass_csp=True)
    page = context.new_page()
    page.set_default_timeout(10_000)
    page.goto(link)
    return page


def not_blank(path: Path) -> None:
    """A screenshot with content: many colours, not one flat fill."""
    from PIL import Image

    with Image.open(path) as image:
        colours = image.convert("RGB").getcolors(maxcolors=1_000_000)
        assert colours is not None and len(colours) > 50, f"{path} looks blank"
        assert max(c for c, _ in colours) < 0.97 * image.width * image.height


def tap_deal(page: Any, winner: str, left: dict[str, int], extras: dict[str, Any]) -> None:
    page.get_by_role("radio", name=winner, exact=True).tap()
    for name, count in left.items():
        plus = page.get_by_role("button", name=f"{name}: one card more", exact=True)
        for _ in range(count):
            plus.tap()
    if "assist" in extras:
        page.locator("#assist").select_option(extras["assist"])
    if extras.get("missed"):
        page.locator("#missed-call").check()
    page.wait_for_function("!document.getElementById('confirm').disabled")
    assert page.locator("#preview table").count() == 1  # the points before confirming
    page.locator("#confirm").tap()
    page.wait_for_function("document.querySelector('#preview .ok') !== null")


def start_by_taps(page: Any, base: str, players: list[str]) -> None:
    page.goto(base + "/start")
    for i, name in enumerate(players):
        page.locator(f"input[name=player{i}]").fill(name)
    page.locator("select[name=rules]").select_option("classic")
    page.locator("input[name=stake]").fill("0.5")
    page.locator("input[name=currency]").fill("HKD")
    page.locator("input[name=name]").fill("Friday")
    page.get_by_role("button", name="Start").tap()
    page.wait_for_url(re.compile(r"/entry$"))


@pytest.mark.slow
def test_an_evening_tapped_equals_the_evening_typed(browser: Any, server: Server, ledger_path: Path,
                                                    tmp_path: Path) -> None:
    page = phone(browser, server.keeper)
    start_by_taps(page, server.base, PLAYERS)
    for winner, left, extras, _ in EVENING:
        tap_deal(page, winner, left, extras)
    typed = tmp_path / "typed.db"
    bigtwo(typed, "session", "start", "--players", ",".join(PLAYERS), "--stake", "0.5",
           "--currency", "HKD", "--name", "Friday")
    for *_, words in EVENING:
        bigtwo(typed, "deal", *words)
    for what in ("standings", "settle"):
        assert cli_json(ledger_path, what) == cli_json(typed, what)
    page.get_by_role("link", name="Settle").tap()
    page.wait_for_selector(".plan li")
    plan = page.locator(".plan").inner_text()
    for payment in cli_json(typed, "settle")["payments"]:
        assert payment["amount"] in plan
    page.context.close()


def test_a_deal_from_one_phone_shows_on_another_within_a_second(
        browser: Any, server: Server, ledger_path: Path) -> None:
    start(ledger_path)
    keeper = phone(browser, server.keeper)
    viewer = phone(browser, server.viewer)
    viewer.wait_for_selector("#live .standings")
    viewer.wait_for_function("document.getElementById('status').textContent.startsWith('live')")
    tap_deal(keeper, "Ben", {"陳大文": 2, "Cat": 4, "Dan": 6}, {})
    viewer.wait_for_function("document.querySelector('#live .deals') !== null", timeout=1000)
    assert "+12" in viewer.locator("#live .standings").inner_text()
    # And a deal typed in the terminal:
    viewer.wait_for_timeout(200)
    bigtwo(ledger_path, "deal", "陳大文=0", "Ben=5", "Cat=5", "Dan=5")
    done = time.monotonic()
    viewer.wait_for_function("document.querySelectorAll('#live .deals tr.deal').length === 2",
                             timeout=1000)
    assert time.monotonic() - done < 1.0
    keeper.wait_for_function("document.querySelectorAll('#live .deals tr.deal').length === 2",
                             timeout=1000)
    keeper.context.close()
    viewer.context.close()


def test_the_viewer_link_cannot_write(browser: Any, server: Server, ledger_path: Path) -> None:
    start(ledger_path)
    viewer = phone(browser, server.viewer)
    assert viewer.get_by_role("link", name="Enter").count() == 0
    answer = viewer.goto(server.base + "/entry")
    assert answer is not None and answer.status == 403
    status = viewer.evaluate("""async () => (await fetch('/api/record', {method: 'POST',
        headers: {'content-type': 'application/json',
                  'idempotency-key': '5f0c1a2b-3c4d-4e5f-8a6b-7c8d9e0f1a2b'},
        body: JSON.stringify({session: 1, line: '0 3 11 8'})})).status""")
    assert status == 403
    assert cli_json(ledger_path, "log") == []
    viewer.context.close()


@pytest.mark.slow
def test_amend_void_undo_and_screenshots(browser: Any, server: Server, ledger_path: Path,
                                         tmp_path: Path) -> None:
    start(ledger_path)
    page = phone(browser, server.keeper)
    for winner, left, extras, _ in EVENING[:3]:
        tap_deal(page, winner, left, extras)
    page.on("dialog", lambda dialog: dialog.accept())
    page.locator("[data-amend='1']").tap()
    page.wait_for_function("document.getElementById('confirm').textContent === 'Save deal 1'")
    page.get_by_role("button", name="Ben: one card more", exact=True).tap()  # Ben 3 -> 4
    page.wait_for_function("!document.getElementById('confirm').disabled")
    page.locator("#confirm").tap()
    page.wait_for_function("document.querySelector('#preview .ok') !== null")
    page.locator("[data-void='2']").tap()
    page.wait_for_function("document.querySelectorAll('#live .deals tr.deal').length === 2")
    page.locator("#undo").tap()  # undo takes back the last action: the void of deal 2
    page.wait_for_function("document.querySelectorAll('#live .deals tr.deal').length === 3")
    log = cli_json(ledger_path, "log")
    assert [(e["deal"], e["kind"], e["live"], e.get("undoes")) for e in log] == [
        (1, "deal", False, None), (2, "deal", False, None), (3, "deal", True, None),
        (1, "amend", True, None), (2, "void", False, None), (2, "amend", True, 5)]
    assert log[3]["facts"]["cards"]["Ben"] == 4
    for name, path in (("scoreboard", "/"), ("entry", "/entry"), ("settle", "/settle")):
        page.goto(server.base + path)
        page.wait_for_selector("#live .card")
        shot = tmp_path / f"{name}.png"
        page.screenshot(path=str(shot), full_page=True)
        not_blank(shot)
    page.context.close()


@pytest.mark.slow
def test_places_and_teams_sessions_show_only_their_controls(browser: Any, server: Server,
                                                             ledger_path: Path) -> None:
    bigtwo(ledger_path, "session", "start", "--players", "陳大文,Ben,Cat", "--rules", "places")
    page = phone(browser, server.keeper)
    page.wait_for_selector("#order")
    assert page.locator("#cards-left, #assist, #missed-call, [data-immediate]").count() == 0
    for name in ("Ben", "陳大文", "Cat"):  # the finishing order, first out first
        page.locator(f"[data-order='{name}']").tap()
    page.wait_for_function("!document.getElementById('confirm').disabled")
    page.locator("#confirm").tap()
    page.wait_for_function("document.querySelector('#preview .ok') !== null")
    assert cli_json(ledger_path, "log")[0]["facts"] == {"order": ["Ben", "陳大文", "Cat"]}
    bigtwo(ledger_path, "session", "start", "--players", "陳大文,Ben,Cat,Dan", "--teams",
           "--rules", "doubling")
    page.wait_for_selector("#shootout")  # the page reloads itself for the new session
    assert page.locator("[data-twos]").count() == 4 and page.locator("#finish").count() == 1
    tap_deal(page, "Cat", {"陳大文": 2, "Ben": 5, "Dan": 3}, {})
    page.locator("[data-amend='1']").wait_for()
    assert cli_json(ledger_path, "standings") == cli_json(ledger_path, "standings", "--session", "2")
    page.context.close()


PHONES = [{"width": 360, "height": 780}, {"width": 390, "height": 844}]
WIDE_NAMES = ["陳大文", "李小明", "Catherine", "Dan"]


def test_every_button_fits_a_narrow_phone(browser: Any, server: Server, ledger_path: Path,
                                          tmp_path: Path) -> None:
    """At 360 and 390 px wide no button sits off-screen (the last deals' Fix and Void
    used to need sideways scrolling) and nothing scrolls sideways."""
    start(ledger_path, players=WIDE_NAMES)
    for words in (["陳大文=0", "李小明=13", "Catherine=11", "Dan=8"], ["10", "0", "12", "9"],
                  ["1", "7", "0", "13", "--assist", "Dan"], ["13", "6", "9", "0"],
                  ["0", "12", "3", "2"], ["4", "0", "6", "1"], ["2", "9", "5", "0"]):
        bigtwo(ledger_path, "deal", *words)
    for size in PHONES:
        context = browser.new_context(viewport=size, device_scale_factor=2, is_mobile=True,
                                      has_touch=True, bypass_csp=True)
        page = context.new_page()
        page.set_default_timeout(10_000)
        page.goto(server.keeper)
        for path in ("/entry", "/", "/settle"):
            page.goto(server.base + path)
            page.wait_for_selector("#live .card")
            if path == "/entry":
                assert page.locator("#live [data-void]").count() == 6
            shot = tmp_path / f"{path.strip('/') or 'scoreboard'}-{size['width']}.png"
            page.screenshot(path=str(shot), full_page=True)
            not_blank(shot)
            width = size["width"]
            assert page.evaluate("document.documentElement.scrollWidth") <= width, (path, width)
            boxes = page.evaluate("""() => [...document.querySelectorAll('button, .button, a')]
                .filter((b) => b.offsetParent !== null)
                .map((b) => { const r = b.getBoundingClientRect();
                              return [b.textContent.trim(), r.left, r.right]; })""")
            assert boxes, path
            outside = [(text, left, right) for text, left, right in boxes if left < 0 or right > width]
            assert not outside, (path, width, outside)
        context.close()


CJK_NAMES = ["陳大文", "李小明", "Cat", "Dan"]
ZH_HK = {"locale": "zh-HK", "extra_http_headers": {"Accept-Language": "zh-HK,zh;q=0.9,en;q=0.5"}}


def english_words(text: str) -> set[str]:
    """Latin words on the page that are not players, money or the switcher's 'English'."""
    data = {*CJK_NAMES, "HKD", "PTS", "English", "bigtwo", "PNG", "classic"}
    return {w for w in re.findall(r"[A-Za-z][A-Za-z']+", text) if w not in data}


def buttons_on_screen(page: Any, width: int, where: str) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= width, (where, width)
    boxes = page.evaluate("""() => [...document.querySelectorAll('button, .button, a, select, input')]
        .filter((b) => b.offsetParent !== null)
        .map((b) => { const r = b.getBoundingClientRect();
                      return [b.textContent.trim() || b.name || b.type, r.left, r.right]; })""")
    assert boxes, where
    outside = [(text, left, right) for text, left, right in boxes if left < 0 or right > width]
    assert not outside, (where, width, outside)


def test_a_phone_in_hong_kong_gets_the_page_in_chinese(browser: Any, server: Server, ledger_path: Path,
                                                       tmp_path: Path) -> None:
    """Accept-Language zh-HK at 390×844 and 360×780: Traditional Chinese labels, a deal
    with Chinese names tapped in and undone, every button on screen, no English words."""
    start(ledger_path, name="星期五", players=CJK_NAMES)
    for no, size in ((1, {"width": 390, "height": 844}), (2, {"width": 360, "height": 780})):
        width = size["width"]  # deal 1 is recorded and undone at 390 px, then deal 2 at 360
        context = browser.new_context(viewport=size, device_scale_factor=2, is_mobile=True,
                                      has_touch=True, bypass_csp=True, **ZH_HK)
        page = context.new_page()
        page.set_default_timeout(10_000)
        page.goto(server.keeper)  # the scorekeeper's link opens the entry page
        page.wait_for_selector("#entry")
        assert page.locator("html").get_attribute("lang") == "zh-Hant-HK"
        assert page.title() == "入牌 · bigtwo"
        nav = page.locator("nav.tabs").inner_text()
        assert all(word in nav for word in ("計分", "入牌", "埋數", "紀錄"))
        assert page.locator("#entry legend").first.inner_text() == "邊個出完牌？"
        assert page.locator("#undo").inner_text() == "撤回上一步"
        page.wait_for_function("document.getElementById('status').textContent.startsWith('即時')")
        buttons_on_screen(page, width, "/entry")
        page.get_by_role("radio", name="陳大文", exact=True).tap()
        for name, count in (("李小明", 3), ("Cat", 11), ("Dan", 8)):
            plus = page.get_by_role("button", name=f"{name}：多一張", exact=True)
            for _ in range(count):
                plus.tap()
        page.wait_for_function("!document.getElementById('confirm').disabled")
        assert page.locator("#preview th").all_inner_texts()[1:] == ["剩牌", "罰分", "分"]
        assert page.locator("#confirm").inner_text() == "記低呢鋪"
        page.locator("#confirm").tap()
        page.wait_for_function("document.querySelector('#preview .ok') !== null")
        assert page.locator("#preview .ok").inner_text() == f"已記低第 {no} 鋪。"
        page.wait_for_function("document.querySelectorAll('#live .deals tr.deal').length === 1")
        page.wait_for_function(f"document.getElementById('entry-title').textContent === '第 {no + 1} 鋪'")
        assert cli_json(ledger_path, "log")[-1]["facts"]["cards"] == {
            "陳大文": 0, "李小明": 3, "Cat": 11, "Dan": 8}
        text = page.locator("body").inner_text()
        assert "下一鋪" in text and not english_words(text), english_words(text)
        buttons_on_screen(page, width, "/entry after a deal")
        shot = tmp_path / f"entry-zh-{width}.png"
        page.screenshot(path=str(shot), full_page=True)
        not_blank(shot)
        for path, word in (("/", "最近幾鋪"), ("/settle", "最少轉數")):
            page.goto(server.base + path)
            page.wait_for_selector("#live .card")
            text = page.locator("body").inner_text()
            assert word in text and not english_words(text), (path, english_words(text))
            buttons_on_screen(page, width, path)
        page.goto(server.base + "/entry")
        page.wait_for_selector("#entry")
        page.locator("#undo").tap()  # takes back the deal just recorded, and says so
        page.wait_for_function("document.querySelector('#preview .ok') !== null")
        assert page.locator("#preview .ok").inner_text() == (
            f"已撤回：第 {no} 鋪（陳大文=0 李小明=3 Cat=11 Dan=8）；而家唔再計。")
        page.wait_for_function("document.querySelectorAll('#live .deals tr.deal').length === 0")
        assert [e["live"] for e in cli_json(ledger_path, "log")][-2:] == [False, False]
        context.close()


def test_undoing_the_end_of_a_session_says_so_and_dates_are_local(browser: Any, server: Server,
                                                                  ledger_path: Path) -> None:
    """Undo on an ended session's page reopens it (the page reloads) and still says what
    it took back; the history dates the session in the viewer's zone and language."""
    start(ledger_path, name="星期五", players=CJK_NAMES)
    bigtwo(ledger_path, "deal", "陳大文=0", "李小明=3", "Cat=11", "Dan=8")
    bigtwo(ledger_path, "session", "end")
    context = browser.new_context(viewport={"width": 360, "height": 780}, is_mobile=True,
                                  has_touch=True, bypass_csp=True, locale="zh-CN",
                                  timezone_id="America/Los_Angeles")
    page = context.new_page()
    page.set_default_timeout(10_000)
    page.goto(server.keeper)
    page.wait_for_selector("#undo")
    assert page.locator("#entry").count() == 0 and "第 1 场已结束" in page.locator("main").inner_text()
    page.locator("#undo").tap()
    page.wait_for_selector("#entry")  # reopened: the form is back
    page.wait_for_selector("#preview .ok")
    assert page.locator("#preview .ok").inner_text() == "已撤回：结束第 1 场；这场重新开放。"
    assert cli_json(ledger_path, "session", "list")[0]["ended_at"] is None
    page.goto(server.base + "/history")
    stamp = page.locator("time").first
    started = stamp.get_attribute("datetime")
    assert started is not None
    from datetime import datetime
    from zoneinfo import ZoneInfo

    local = datetime.fromisoformat(started).astimezone(ZoneInfo("America/Los_Angeles"))
    assert stamp.inner_text() == f"{local.year}年{local.month}月{local.day}日"
    context.close()
