"""Screenshots of the offline app's card for this phone's ledger (export, import, sync
with a hub), for docs/offline.md, at three phone sizes.

    .venv/bin/python scripts/make_offline_screenshots.py   # writes docs/img/offline-*.png

Builds the site as ``bigtwo app build`` does into a temporary folder, serves it on
127.0.0.1 (a secure context, so the service worker and OPFS work), opens its History
screen in headless Chromium (Playwright; Debian's /usr/bin/chromium, or
$BIGTWO_CHROMIUM) once the engine in the page is ready, and saves what is on screen:
360×640 in English, 390×844 as a phone set to Hong Kong Chinese, 844×390 as a phone
set to Mainland Chinese in dark mode.  Then, built for the address it is served at
(``bigtwo app build --url``, so the tables screen shows the app's QR code), the tables
screen as an iPhone shows it (the install guide: Share, then Add to Home Screen) and the
notice of a new version (as the service worker announces it: the ``bigtwo-update``
event), at 360×640 and 390×844, as a phone set to Hong Kong Chinese.
"""

from __future__ import annotations

import functools
import http.server
import sys
import tempfile
import threading
from pathlib import Path

from headless_chromium import PATH as CHROMIUM
from headless_chromium import SWITCHES

ROOT = Path(__file__).resolve().parent.parent
IMG = ROOT / "docs" / "img"
IPHONE = ("Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 "
          "(KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1")
INSTALL_SIZES = ((360, 640), (390, 844))
SHOTS = [("en-US", 360, 640, False, "offline-history-360x640.png"),
         ("zh-HK", 390, 844, False, "offline-history-zh_Hant-390x844.png"),
         ("zh-CN", 844, 390, True, "offline-history-zh_Hans-dark-844x390.png")]


class Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        pass


def main() -> None:
    sys.path.insert(0, str(ROOT))
    from playwright.sync_api import sync_playwright

    from ledger.web import offline

    with tempfile.TemporaryDirectory(prefix="bigtwo-site-") as folder:
        offline.build(Path(folder))
        httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=folder))
        threading.Thread(target=httpd.serve_forever, daemon=True).start()
        url = f"http://127.0.0.1:{httpd.server_address[1]}/#/history"
        try:
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=CHROMIUM, args=SWITCHES)
                for locale, width, height, dark, name in SHOTS:
                    context = browser.new_context(viewport={"width": width, "height": height},
                                                  device_scale_factor=2, locale=locale,
                                                  color_scheme="dark" if dark else "light")
                    page = context.new_page()
                    page.goto(url)
                    page.wait_for_selector('html[data-engine="ready"]', state="attached", timeout=180_000)
                    page.wait_for_selector('html[data-route="shown"]', state="attached", timeout=60_000)
                    page.locator("#hub-link").scroll_into_view_if_needed()
                    page.screenshot(path=str(IMG / name))
                    print(f"docs/img/{name}")
                    context.close()
                offline.build(Path(folder), url=url.split("#")[0])  # the QR code of this address
                for width, height in INSTALL_SIZES:
                    context = browser.new_context(viewport={"width": width, "height": height},
                                                  device_scale_factor=2, locale="zh-HK", user_agent=IPHONE,
                                                  is_mobile=True, has_touch=True)
                    page = context.new_page()
                    page.goto(url.replace("#/history", "#/tables"))
                    page.wait_for_selector('html[data-engine="ready"]', state="attached", timeout=180_000)
                    page.wait_for_selector('html[data-route="shown"]', state="attached", timeout=60_000)
                    page.locator("section[aria-labelledby=this-app] img").wait_for(timeout=30_000)
                    page.locator("section[aria-labelledby=this-app] .guide").wait_for()
                    page.evaluate("window.scrollTo(0, document.body.scrollHeight)")  # the guide above the bar
                    name = f"offline-install-zh_Hant-{width}x{height}.png"
                    page.screenshot(path=str(IMG / name))
                    print(f"docs/img/{name}")
                    page.evaluate("window.scrollTo(0, 0); window.dispatchEvent(new Event('bigtwo-update'))")
                    page.locator("#update-note").wait_for()
                    name = f"offline-update-zh_Hant-{width}x{height}.png"
                    page.screenshot(path=str(IMG / name))
                    print(f"docs/img/{name}")
                    context.close()
                browser.close()
        finally:
            httpd.shutdown()


if __name__ == "__main__":
    main()
