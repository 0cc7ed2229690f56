"""Screenshots of the phone app that ``bigtwo serve`` serves, for docs/serve.md, at
three phone sizes.

    .venv/bin/python scripts/make_serve_screenshots.py   # writes docs/img/phone-*.png

Builds a fresh ledger with an evening of seven deals (Chinese and Latin names),
starts ``bigtwo serve`` on a free port, opens the scorekeeper link in headless
Chromium (Playwright; Debian's /usr/bin/chromium, or $BIGTWO_CHROMIUM) and saves, at
360×640, 390×844 and 844×390: the table with a deal half tapped in (the keypad on the
next player), the deals with the evening's chart, and the settlement; at 390×844 also
the start screen, a player's page, the table in dark mode, and the table and the
settlement as a phone set to Hong Kong Chinese (Accept-Language zh-HK) and to
Mainland Chinese (zh-CN) gets them. Only the part a phone shows (no full-page
pictures): what is on screen is what the keeper sees.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import tempfile
from pathlib import Path

from headless_chromium import PATH as CHROMIUM
from headless_chromium import SWITCHES

ROOT = Path(__file__).resolve().parent.parent
IMG = ROOT / "docs" / "img"
PLAYERS = "陳大文,李小明,Cat,Dan"
DEALS = [
    ["陳大文=0", "李小明=3", "Cat=11", "Dan=8"],
    ["陳大文=5", "李小明=0", "Cat=2", "Dan=13"],
    ["陳大文=1", "李小明=7", "Cat=0", "Dan=4", "--assist", "Dan"],
    ["陳大文=10", "李小明=6", "Cat=9", "Dan=0", "--missed-call"],
    ["0", "12", "3", "2"],
    ["4", "0", "6", "1"],
    ["2", "9", "5", "0"],
]
SIZES = {"360x640": (360, 640), "390x844": (390, 844), "844x390": (844, 390)}


def bigtwo(db: Path, *args: str) -> None:
    subprocess.run([sys.executable, "-m", "ledger", "--db", str(db), *args], check=True,
                   capture_output=True)


def ready(page: object) -> None:
    from playwright.sync_api import expect

    html = page.locator("html")  # type: ignore[attr-defined]
    expect(html).to_have_attribute("data-engine", "ready")
    expect(html).to_have_attribute("data-route", "shown")
    page.wait_for_timeout(300)  # type: ignore[attr-defined]  # the preview's answer


def show(page: object, hash_: str) -> None:
    page.evaluate("(h) => { document.documentElement.dataset.route = 'asked'; location.hash = h; }",  # type: ignore[attr-defined]
                  hash_)
    ready(page)


def half_a_deal(page: object, words: dict[str, str]) -> None:
    """The winner tapped and one count: the keypad waits for the next player's."""
    page.get_by_role("radio", name="Cat", exact=True).tap()  # type: ignore[attr-defined]
    page.get_by_role("button", name=words["key"].format(name="陳大文", n=4), exact=True).tap()  # type: ignore[attr-defined]
    page.evaluate("window.scrollTo(0, 0)")  # type: ignore[attr-defined]
    page.wait_for_timeout(200)  # type: ignore[attr-defined]


def main() -> None:
    from playwright.sync_api import sync_playwright

    from ledger.core import i18n

    def key_words(lang: str) -> dict[str, str]:
        with i18n.using(lang):
            return {"key": i18n._("{name}: {n} cards left")}

    folder = Path(tempfile.mkdtemp(prefix="bigtwo-shots-"))
    db = folder / "ledger.db"
    bigtwo(db, "session", "start", "--players", PLAYERS, "--stake", "0.5", "--currency", "HKD",
           "--name", "Friday at 陳's")
    for words in DEALS:
        bigtwo(db, "deal", *words)
    server = subprocess.Popen(
        [sys.executable, "-m", "ledger", "--db", str(db), "serve", "--port", "0",
         "--token", "screenshot-token-0123456789"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1", "COLUMNS": "200"})
    keeper = ""
    assert server.stdout is not None
    for line in server.stdout:
        found = re.findall(r"http://\S+/entry\?t=\S+", line)
        if found:
            keeper = found[-1]
        if line.startswith("Ctrl-C"):
            break
    base = keeper.split("/entry")[0]
    written: list[str] = []
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=[*SWITCHES, "--disable-gpu"])

            def phone(size: str, locale: str = "en-US", dark: bool = False) -> object:
                width, height = SIZES[size]
                context = browser.new_context(viewport={"width": width, "height": height},
                                              device_scale_factor=2, is_mobile=True, has_touch=True,
                                              locale=locale, color_scheme="dark" if dark else "light")
                page = context.new_page()
                page.goto(keeper)
                ready(page)
                return page

            def shot(page: object, name: str) -> None:
                page.screenshot(path=str(IMG / f"phone-{name}.png"))  # type: ignore[attr-defined]
                written.append(f"phone-{name}.png")

            for size in SIZES:
                page = phone(size)
                half_a_deal(page, key_words("en"))
                shot(page, f"table-{size}")
                show(page, "#/t/1/log")
                shot(page, f"deals-{size}")
                show(page, "#/t/1/settle")
                shot(page, f"settle-{size}")
                page.context.close()  # type: ignore[attr-defined]
            page = phone("390x844")
            show(page, "#/start")
            shot(page, "start-390x844")
            show(page, "#/player/%E9%99%B3%E5%A4%A7%E6%96%87")
            shot(page, "player-390x844")
            page.context.close()  # type: ignore[attr-defined]
            page = phone("390x844", dark=True)
            half_a_deal(page, key_words("en"))
            shot(page, "table-dark-390x844")
            page.context.close()  # type: ignore[attr-defined]
            for locale, lang in (("zh-HK", "zh_Hant"), ("zh-CN", "zh_Hans")):
                page = phone("390x844", locale)
                half_a_deal(page, key_words(lang))
                shot(page, f"table-{lang}-390x844")
                show(page, "#/t/1/settle")
                shot(page, f"settle-{lang}-390x844")
                page.context.close()  # type: ignore[attr-defined]
            browser.close()
    finally:
        server.send_signal(signal.SIGINT)
        server.communicate(timeout=15)
    print(f"wrote {len(written)} screenshots to {IMG} (served at {base}): " + ", ".join(written))


if __name__ == "__main__":
    main()
