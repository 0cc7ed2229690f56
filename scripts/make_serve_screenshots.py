"""Screenshots of the ``bigtwo serve`` pages for docs/serve.md, at a phone's size.

    .venv/bin/python scripts/make_serve_screenshots.py   # writes docs/img/serve-*.png

Builds a fresh ledger with an evening of seven deals (Chinese and Latin names),
starts ``bigtwo serve`` on a free port, opens the scorekeeper link in headless
Chromium (Playwright; Debian's /usr/bin/chromium, or $BIGTWO_CHROMIUM) at 390×844,
and saves the scoreboard, the entry page with a deal being tapped in (its points
previewed), the settlement, and the scoreboard in dark mode; then the same pages as a
phone set to Hong Kong Chinese (Accept-Language zh-HK: Traditional) and to Mainland
Chinese (zh-CN: Simplified) gets them.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
IMG = ROOT / "docs" / "img"
CHROMIUM = os.environ.get("BIGTWO_CHROMIUM", "/usr/bin/chromium")
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


# (colour scheme, the phone's language, the files' suffix)
PHONES = [("light", "en-US", ""), ("dark", "en-US", ""), ("light", "zh-HK", "-zh_Hant"),
          ("light", "zh-CN", "-zh_Hans")]
SHOTS = ["scoreboard", "entry", "settle", "scoreboard-dark",
         *(f"{page}-{lang}" for lang in ("zh_Hant", "zh_Hans") for page in ("scoreboard", "entry", "settle"))]


def bigtwo(db: Path, *args: str) -> None:
    subprocess.run([sys.executable, "-m", "ledger", "--db", str(db), *args], check=True,
                   capture_output=True)


def main() -> None:
    from playwright.sync_api import sync_playwright

    folder = Path(tempfile.mkdtemp(prefix="bigtwo-shots-"))
    db = folder / "ledger.db"
    bigtwo(db, "session", "start", "--players", PLAYERS, "--stake", "0.5", "--currency", "HKD",
           "--name", "Friday at 陳's")
    for words in DEALS:
        bigtwo(db, "deal", *words)
    server = subprocess.Popen(
        [sys.executable, "-m", "ledger", "--db", str(db), "serve", "--port", "0"],
        stdout=subprocess.PIPE, text=True, env={**os.environ, "PYTHONUNBUFFERED": "1"})
    assert server.stdout is not None
    keeper = ""
    for line in server.stdout:
        link = (re.findall(r"http://\S+", line) or [""])[-1]
        if "/entry?t=" in link:  # in every language
            keeper = link
            break
    base = keeper.split("/entry")[0]
    IMG.mkdir(parents=True, exist_ok=True)
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(
                executable_path=CHROMIUM,
                args=["--no-sandbox", "--disable-gpu", "--disable-background-networking"])
            for scheme, locale, suffix in PHONES:
                context = browser.new_context(viewport={"width": 390, "height": 844},
                                              device_scale_factor=2, is_mobile=True,
                                              has_touch=True, color_scheme=scheme,
                                              locale=locale,  # Accept-Language
                                              bypass_csp=True)  # for wait_for_function
                page = context.new_page()
                page.goto(keeper)
                page.wait_for_selector("#entry")
                if scheme == "dark":
                    page.goto(base + "/")
                    page.wait_for_selector("#live .standings")
                    page.screenshot(path=str(IMG / "serve-scoreboard-dark.png"))
                    context.close()
                    continue
                page.get_by_role("radio", name="Cat", exact=True).tap()
                for name, count in (("陳大文", 6), ("李小明", 2), ("Dan", 9)):
                    plus = page.locator(f".stepper[data-player='{name}'] [data-step='1']")
                    for _ in range(count):
                        plus.tap()
                page.wait_for_function("!document.getElementById('confirm').disabled")
                page.screenshot(path=str(IMG / f"serve-entry{suffix}.png"), full_page=True)
                page.goto(base + "/")
                page.wait_for_selector("#live .standings")
                page.screenshot(path=str(IMG / f"serve-scoreboard{suffix}.png"), full_page=True)
                page.goto(base + "/settle")
                page.wait_for_selector("#live .plan")
                page.screenshot(path=str(IMG / f"serve-settle{suffix}.png"), full_page=True)
                context.close()
            browser.close()
    finally:
        server.send_signal(signal.SIGINT)
        server.wait(15)
    for name in SHOTS:
        print(IMG / f"serve-{name}.png")


if __name__ == "__main__":
    main()
