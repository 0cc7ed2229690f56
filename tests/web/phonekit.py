"""The phone app in a real browser: Chromium driven by Playwright, a server in this
process or as ``bigtwo serve``, and a phone that counts its taps.

Without Chromium or Playwright these tests skip, except under CI (``CI=true``) where
they fail: a missing install step must not hide them.
"""

from __future__ import annotations

import os
import shutil
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import headless_chromium
import pytest
from web.webhelpers import KEY

from ledger.core import i18n
from ledger.web.auth import viewer_token

CHROMIUM = headless_chromium.PATH
LAN = "bigtwo.lan"  # a LAN-like host name: over plain http the page is not a secure context
ARGS = [*headless_chromium.SWITCHES, "--disable-gpu", "--disable-background-networking",
        f"--host-resolver-rules=MAP {LAN} 127.0.0.1"]
SIZES = {"360x640": (360, 640), "390x844": (390, 844), "844x390": (844, 390)}
LOCALES = {"en": ("en-GB", "en"), "zh-HK": ("zh-HK", "zh_Hant"), "zh-CN": ("zh-CN", "zh_Hans")}


def need(reason: str) -> None:
    if os.environ.get("CI") == "true":
        pytest.fail(f"browser tests need {reason} (CI installs it: see .ci/run)")
    pytest.skip(f"needs {reason}")


def launch() -> Iterator[Any]:
    """One Chromium for a test module."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        need("playwright (pip install -e '.[test]')")
    if not shutil.which(CHROMIUM) and not Path(CHROMIUM).exists():
        need(f"Chromium at {CHROMIUM} (apt-get install chromium fonts-noto-cjk)")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield browser
        browser.close()


class LiveServer:
    """The hub (the app ``bigtwo serve`` runs) in a thread of this process, answering to
    127.0.0.1 and to the LAN-like name the browser maps there."""

    def __init__(self, db: Path, wrap: Any = None) -> None:
        """``wrap(app)``, if given, is served instead (a test's look at the requests)."""
        import uvicorn

        from ledger.web.app import create_app
        from ledger.web.auth import Tokens
        from ledger.web.server import bind
        from ledger.web.site import Config

        self.sock = bind("127.0.0.1", 0)
        self.port = self.sock.getsockname()[1]
        hosts = [f"127.0.0.1:{self.port}", f"{LAN}:{self.port}"]
        cfg = Config(db=str(db), tokens=Tokens.from_key(KEY), allowed_hosts=hosts, poll=0.05)
        app = create_app(cfg)
        self.app = app
        from ledger.web.protocol import GuardedHTTP

        # The connection bigtwo serve runs (its protocol and event loop), not uvicorn's pick.
        config = uvicorn.Config(wrap(app) if wrap else app, log_level="warning", access_log=False,
                                lifespan="on", timeout_graceful_shutdown=1, http=GuardedHTTP,
                                loop="asyncio")
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, kwargs={"sockets": [self.sock]},
                                       daemon=True)
        self.thread.start()
        deadline = time.monotonic() + 15
        while not self.server.started:
            assert time.monotonic() < deadline, "the server did not start"
            time.sleep(0.02)

    def base(self, host: str = "127.0.0.1") -> str:
        return f"http://{host}:{self.port}"

    def keeper(self, host: str = "127.0.0.1") -> str:
        return f"{self.base(host)}/entry?t={KEY}"

    def viewer(self, host: str = "127.0.0.1") -> str:
        return f"{self.base(host)}/?t={viewer_token(KEY)}"

    def stop(self) -> None:
        feed = getattr(self.app.starlette.state, "feed", None)
        if feed is not None:
            feed.stop()
        self.server.should_exit = True
        self.thread.join(10)
        self.sock.close()


def words(lang: str) -> Any:
    """``w("Record deal")``: a message as the page shows it in ``lang``."""

    def w(message: str, **values: Any) -> str:
        with i18n.using(lang):
            text = i18n._(message)
        return text.format(**values) if values else text

    return w


class Phone:
    """A page at a phone's size that counts the keeper's taps and checks, after every
    tap, that Record is on screen."""

    def __init__(self, browser: Any, link: str, size: str = "390x844", locale: str = "en",
                 dark: bool = False) -> None:
        width, height = SIZES[size]
        accept, self.lang = LOCALES[locale]
        self.context = browser.new_context(viewport={"width": width, "height": height},
                                           device_scale_factor=2, is_mobile=True, has_touch=True,
                                           locale=accept, color_scheme="dark" if dark else "light")
        self.page = self.context.new_page()
        self.page.set_default_timeout(10_000)
        self.errors: list[str] = []
        self.dialogs: list[str] = []
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.on("dialog", lambda d: (self.dialogs.append(d.message), d.dismiss()))
        self.page.add_init_script(
            "window.__csp = []; document.addEventListener('securitypolicyviolation',"
            " (e) => window.__csp.push(e.violatedDirective + ' ' + e.blockedURI));")
        self.w = words(self.lang)
        self.taps = 0
        self.size = (width, height)
        self.page.goto(link)
        self.ready()

    def ready(self) -> None:
        from playwright.sync_api import expect

        html = self.page.locator("html")
        expect(html).to_have_attribute("data-engine", "ready")
        expect(html).to_have_attribute("data-route", "shown")

    def show(self, hash: str) -> None:
        """Go to one of the app's screens (``#/t/3/settle``) and wait until it is drawn."""
        from playwright.sync_api import expect

        self.page.evaluate("(h) => { if (location.hash !== h) {"
                           " document.documentElement.dataset.route = 'asked'; location.hash = h; } }",
                           hash)
        expect(self.page.locator("html")).to_have_attribute("data-route", "shown")

    def state(self, name: str) -> str:
        return self.page.locator("html").get_attribute("data-" + name) or ""

    def record_button(self) -> Any:
        return self.page.get_by_role("button", name=self.w("Record deal"), exact=True)

    def record_on_screen(self) -> None:
        button = self.record_button()
        box = None
        for _ in range(3):  # a live-feed update may redraw the bar between the two looks
            try:
                button.wait_for(state="visible", timeout=5000)
            except Exception:
                shown = self.page.locator("body").inner_text()
                raise AssertionError("Record is not shown: " + shown) from None
            box = button.bounding_box()
            if box is not None:
                break
        assert box is not None, "Record is not shown"
        width, height = self.size
        assert box["y"] >= 0 and box["y"] + box["height"] <= height, (box, self.size)
        assert box["x"] >= 0 and box["x"] + box["width"] <= width, (box, self.size)

    def tap(self, locator: Any) -> None:
        locator.tap()
        self.taps += 1
        self.record_on_screen()

    def winner(self, name: str) -> Any:
        return self.page.get_by_role("radio", name=name, exact=True)

    def key(self, name: str, n: int) -> Any:
        return self.page.get_by_role("button", name=self.w("{name}: {n} cards left", name=name, n=n),
                                     exact=True)

    def wait_saved(self, count: int) -> None:
        from playwright.sync_api import expect

        expect(self.page.locator("html")).to_have_attribute("data-saved", str(count))
        expect(self.page.locator("html")).to_have_attribute("data-outbox", "empty")

    def deal(self, winner: str, left: dict[str, int], extras: list[Any] = ()) -> int:
        """Tap one deal in; the taps it took."""
        before = self.taps
        self.record_on_screen()
        self.tap(self.winner(winner))
        for name, n in left.items():
            self.tap(self.key(name, n))
        for locator in extras:
            self.tap(locator(self))
        self.tap(self.record_button())
        return self.taps - before

    def csp_violations(self) -> list[str]:
        return self.page.evaluate("window.__csp")

    def close(self) -> None:
        self.context.close()


# --- the scorekeeper's writes over HTTP, for tests that set a table up before the phone ---


def keeper_post(hub: LiveServer, op: str, body: dict[str, Any]) -> Any:
    """``POST /api/<op>`` with the keeper's token and a fresh key: the answer (200 only)."""
    import uuid

    import httpx

    answer = httpx.post(f"{hub.base()}/api/{op}", json=body, timeout=10,
                        headers={"authorization": f"Bearer {KEY}",
                                 "idempotency-key": str(uuid.uuid4())})
    assert answer.status_code == 200, answer.text
    return answer.json()


def keeper_table(hub: LiveServer, name: str, players: list[str], deals: list[str]) -> int:
    """A table started at 0.5 HKD a point with ``deals`` recorded: its session number."""
    sid = keeper_post(hub, "start", {"players": players, "stake": "0.5", "currency": "HKD",
                                     "name": name})["id"]
    for line in deals:
        keeper_post(hub, "record", {"session": sid, "line": line})
    return int(sid)


def recorded_payments(db: Path, sid: int) -> list[tuple[str, str, str]]:
    """(from, to, amount) of the session's payments, as ``bigtwo payments list`` has them."""
    from web.webhelpers import cli_json

    return [(p["from"], p["to"], p["amount"]) for p in cli_json(db, "payments", "list")
            if p["session"] == sid]
