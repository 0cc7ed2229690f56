"""Every correction tapped on the phone as a keeper does it — undo the last deal, fix a
deal, void a deal, end the session, fix a deal of the ended session, reopen it — each
tapped twice in a row (a double tap), each written once; what the screen shows and
what the ledger holds afterwards (the command line's log and standings). Also: a deal
addressed in the page's address by full-width digits, and the chart's type at 360 px."""

from __future__ import annotations

import re
import sqlite3
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from web.phonekit import LiveServer, Phone, launch
from web.webhelpers import KEY, bigtwo, cli_json

PLAYERS = ["陳大文", "李小明", "Cat", "Dan"]
TWO_DEALS = ["陳大文=0 李小明=3 Cat=11 Dan=8", "陳大文=5 李小明=0 Cat=2 Dan=13"]


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from launch()


@pytest.fixture(scope="module")
def hub(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    db = tmp_path_factory.mktemp("hub") / "hub.db"
    bigtwo(db, "session", "start", "--players", ",".join(PLAYERS), "--stake", "1", "--currency", "HKD")
    served = LiveServer(db)
    served.db = db
    yield served
    served.stop()


def post(hub: LiveServer, op: str, body: dict[str, Any]) -> Any:
    import httpx

    answer = httpx.post(f"{hub.base()}/api/{op}", json=body, timeout=10,
                        headers={"authorization": f"Bearer {KEY}", "idempotency-key": str(uuid.uuid4())})
    assert answer.status_code == 200, answer.text
    return answer.json()


def new_table(hub: LiveServer, name: str, lines: list[str]) -> int:
    sid = post(hub, "start", {"players": PLAYERS, "rules": "classic", "stake": "1", "currency": "HKD",
                              "name": name})["id"]
    for line in lines:
        post(hub, "record", {"session": sid, "line": line})
    return int(sid)


def kinds(db: Path, sid: int) -> list[str]:
    """The session's entries, oldest first, by kind: what the taps wrote ("undo" for an
    entry that takes another back, whatever kind the ledger gives it)."""
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as c:
        return ["undo" if undoes else kind for kind, undoes in c.execute(
            "SELECT kind, undoes FROM entries WHERE session_id = ? ORDER BY created_at, uuid", (sid,))]


def live_cards(db: Path, sid: int) -> dict[int, dict[str, int]]:
    """Deal number → cards left, of the deals that count now (``bigtwo log``)."""
    return {e["deal"]: e["facts"]["cards"] for e in cli_json(db, "log", "--session", str(sid))
            if e["live"] and e["kind"] in ("deal", "amend")}


def double_tap(locator: Any) -> None:
    """Two taps as fast as a finger makes them, on the same spot."""
    locator.dblclick()


def confirm(phone: Phone, yes: str, asks: str) -> None:
    """The question in the page's language, answered yes with a double tap."""
    from playwright.sync_api import expect

    dialog = phone.page.get_by_role("dialog")
    expect(dialog).to_be_visible()
    expect(dialog).to_contain_text(asks)
    double_tap(dialog.get_by_role("button", name=yes, exact=True))
    expect(dialog).to_be_hidden()


def settled(phone: Phone, count: int) -> None:
    """``count`` writes saved since the page opened, nothing waiting, the screen drawn."""
    from playwright.sync_api import expect

    phone.wait_saved(count)
    phone.page.wait_for_timeout(400)  # a second (wrong) write would be sent by now
    expect(phone.page.locator("html")).to_have_attribute("data-outbox", "empty")
    expect(phone.page.locator("html")).to_have_attribute("data-route", "shown")


CASES = [
    ("390x844", "en", False),
    pytest.param("360x640", "zh-HK", True, marks=pytest.mark.slow),
    pytest.param("844x390", "zh-CN", False, marks=pytest.mark.slow),
]


@pytest.mark.parametrize(("size", "locale", "dark"), CASES)
def test_every_correction_by_taps_writes_once(browser: Any, hub: LiveServer, tmp_path: Path, size: str,
                                              locale: str, dark: bool) -> None:
    from playwright.sync_api import expect

    sid = new_table(hub, f"Fixes {size} {locale}", ["陳大文=0 李小明=3 Cat=11 Dan=8",
                                                    "陳大文=5 李小明=0 Cat=2 Dan=13"])
    phone = Phone(browser, hub.keeper() + f"#/t/{sid}", size, locale, dark=dark)
    page, w, db = phone.page, phone.w, hub.db
    try:
        # A third deal tapped in, then taken back from the Deals screen.
        phone.deal("Cat", {"陳大文": 1, "李小明": 7, "Dan": 4})
        settled(phone, 1)
        phone.show(f"#/t/{sid}/log")
        main = page.locator("#main")
        expect(main).to_contain_text(w("Deal {n}", n=3))
        double_tap(page.get_by_role("button", name=w("Undo last action"), exact=True))
        confirm(phone, w("Undo"), w("Undo deal {n} ({line})? It will not count.", n=3,
                                    line="陳大文=1 李小明=7 Cat=0 Dan=4"))
        settled(phone, 2)
        assert kinds(db, sid) == ["start", "deal", "deal", "deal", "undo"]
        assert sorted(live_cards(db, sid)) == [1, 2]
        expect(page.get_by_role("button", name=w("Void deal {n}", n=3), exact=True)).to_have_count(0)
        expect(main.get_by_text(w("Deal {n}", n=3), exact=True)).to_have_count(0)
        # The number keeps its place, said as taken back (docs/offline.md, "Deal numbers after an undo").
        expect(main.locator(".log .gone")).to_have_text([w("Deal {n}: taken back (undone or voided)", n=3)])

        # Fix deal 1: its facts come back on the keypad; one count changed, saved twice.
        page.get_by_role("link", name=w("Fix deal {n}", n=1), exact=True).tap()
        expect(page.locator("html")).to_have_attribute("data-screen", "board")
        phone.ready()
        save = page.get_by_role("button", name=w("Save deal {n}", n=1), exact=True)
        expect(page.get_by_role("radio", name="陳大文", exact=True)).to_have_attribute("aria-checked", "true")
        expect(page.get_by_role("button", name=w("Cards left of {name}: {n}", name="Cat", n=11),
                                exact=True)).to_be_visible()
        page.get_by_role("button", name=w("Cards left of {name}: {n}", name="李小明", n=3), exact=True).tap()
        page.get_by_role("button", name=w("{name}: {n} cards left", name="李小明", n=9), exact=True).tap()
        double_tap(save)
        expect(page.locator("html")).to_have_attribute("data-screen", "log")
        settled(phone, 3)
        assert kinds(db, sid)[-1:] == ["amend"] and kinds(db, sid).count("amend") == 1
        assert live_cards(db, sid)[1] == {"陳大文": 0, "李小明": 9, "Cat": 11, "Dan": 8}
        expect(main).to_contain_text("陳大文=0 李小明=9 Cat=11 Dan=8")
        expect(main).to_contain_text(w("amended"))

        # Void deal 2.
        double_tap(page.get_by_role("button", name=w("Void deal {n}", n=2), exact=True))
        confirm(phone, w("Void"), w("Void deal {n} ({line})? It stays in the log, marked void.", n=2,
                                    line="陳大文=5 李小明=0 Cat=2 Dan=13"))
        settled(phone, 4)
        assert kinds(db, sid).count("void") == 1 and sorted(live_cards(db, sid)) == [1]
        expect(page.get_by_role("button", name=w("Void deal {n}", n=2), exact=True)).to_have_count(0)

        # End the session.
        double_tap(page.get_by_role("button", name=w("End session"), exact=True))
        confirm(phone, w("End session"), w("End this session? No more deals can be added (fixes still can)."))
        settled(phone, 5)
        assert kinds(db, sid).count("end") == 1
        ended = next(s for s in cli_json(db, "session", "list") if s["id"] == sid)
        assert ended["ended_at"]
        # The money first: ending the session opens its settlement; the Deals screen has Reopen.
        expect(page.locator("html")).to_have_attribute("data-screen", "settle")
        phone.show(f"#/t/{sid}/log")
        reopen = page.get_by_role("button", name=w("Reopen"), exact=True)
        expect(reopen).to_be_visible()
        expect(page.get_by_role("button", name=w("End session"), exact=True)).to_have_count(0)

        # A deal of the ended session can still be fixed.
        page.get_by_role("link", name=w("Fix deal {n}", n=1), exact=True).tap()
        expect(page.locator("html")).to_have_attribute("data-screen", "board")
        phone.ready()
        page.get_by_role("button", name=w("Cards left of {name}: {n}", name="Dan", n=8), exact=True).tap()
        page.get_by_role("button", name=w("{name}: {n} cards left", name="Dan", n=6), exact=True).tap()
        double_tap(page.get_by_role("button", name=w("Save deal {n}", n=1), exact=True))
        expect(page.locator("html")).to_have_attribute("data-screen", "log")
        settled(phone, 6)
        assert kinds(db, sid).count("amend") == 2
        assert live_cards(db, sid)[1] == {"陳大文": 0, "李小明": 9, "Cat": 11, "Dan": 6}

        # Reopen it: the table takes deals again.
        double_tap(page.get_by_role("button", name=w("Reopen"), exact=True))
        confirm(phone, w("Reopen"), w("Reopen {name}? It takes deals again.", name=f"Fixes {size} {locale}"))
        settled(phone, 7)
        assert kinds(db, sid) == ["start", "deal", "deal", "deal", "undo", "amend", "void", "end",
                                  "amend", "reopen"]
        assert not next(s for s in cli_json(db, "session", "list") if s["id"] == sid)["ended_at"]
        expect(page.get_by_role("button", name=w("End session"), exact=True)).to_be_visible()

        # The standings on the table screen are the command line's.
        phone.show(f"#/t/{sid}")
        standings = cli_json(db, "standings", "--session", str(sid))["players"]
        typed = tmp_path / "typed.db"  # the one deal that counts now, typed on the command line
        bigtwo(typed, "session", "start", "--players", ",".join(PLAYERS), "--stake", "1")
        bigtwo(typed, "deal", "0", "9", "11", "6")
        assert standings == cli_json(typed, "standings")["players"]
        rows = page.locator("table.standings tbody tr")
        expect(rows).to_have_count(4)
        for i, p in enumerate(standings):
            assert rows.nth(i).locator("th").inner_text() == p["name"]
            assert rows.nth(i).locator("td").nth(1).inner_text() == f"{p['net']:+d}".replace("-", "−")
        phone.record_on_screen()
        assert phone.errors == [] and phone.dialogs == [] and phone.csp_violations() == []
    finally:
        phone.close()


def test_every_deal_of_a_long_evening_can_be_fixed_from_the_log(browser: Any, hub: LiveServer) -> None:
    """Not only the last ten: the log lists every deal, and the first one opens to fix."""
    from playwright.sync_api import expect

    lines = [f"陳大文=0 李小明={k % 13 + 1} Cat=2 Dan=3" for k in range(12)]
    sid = new_table(hub, "Long", lines)
    phone = Phone(browser, hub.keeper() + f"#/t/{sid}/log", "360x640")
    page, w = phone.page, phone.w
    try:
        for n in (1, 12):
            expect(page.get_by_role("link", name=w("Fix deal {n}", n=n), exact=True)).to_have_count(1)
            expect(page.get_by_role("button", name=w("Void deal {n}", n=n), exact=True)).to_have_count(1)
        page.get_by_role("link", name=w("Fix deal {n}", n=1), exact=True).tap()
        phone.ready()
        expect(page.get_by_role("button", name=w("Save deal {n}", n=1), exact=True)).to_be_visible()
        expect(page.get_by_role("button", name=w("Cards left of {name}: {n}", name="李小明", n=1),
                                exact=True)).to_be_visible()
    finally:
        phone.close()


@pytest.mark.parametrize("locale", ["en", "zh-HK", "zh-CN"])
def test_a_deal_addressed_in_full_width_digits(browser: Any, hub: LiveServer, locale: str) -> None:
    """``#/t/２/fix/１`` and ``?session=２&deal=１`` (a Chinese keyboard's digits) open the
    fix of that deal as the ASCII numbers would; a deal that is not there, or a number
    that is not one, says so plainly and offers no entry at all."""
    from playwright.sync_api import expect

    sid = new_table(hub, f"Wide {locale}", TWO_DEALS)
    wide = "".join(chr(0xFF10 + int(d)) for d in str(sid))
    phone = Phone(browser, hub.keeper() + f"#/t/{sid}", "390x844", locale)
    page, w = phone.page, phone.w
    try:
        for address in (f"#/t/{sid}/fix/２", f"#/t/{wide}/fix/２"):
            phone.show(address)
            expect(page.locator("html")).to_have_attribute("data-session", str(sid))
            expect(page.get_by_role("button", name=w("Save deal {n}", n=2), exact=True)).to_be_visible()
            winner = page.get_by_role("radio", name="李小明", exact=True)
            expect(winner).to_have_attribute("aria-checked", "true")
        page.goto(f"{hub.base()}/entry?session={wide}&deal=１")
        phone.ready()
        assert re.search(rf"#/t/{sid}/fix/1$", page.url), page.url
        expect(page.get_by_role("button", name=w("Save deal {n}", n=1), exact=True)).to_be_visible()
        for address, message in ((f"#/t/{sid}/fix/９", w("There is no deal {n} in this session.", n=9)),
                                 (f"#/t/{sid}/fix/²", w("{text} is not a deal number (write it with the "
                                                        "digits 0-9).", text="²"))):
            phone.show(address)
            expect(page.get_by_role("alert")).to_have_text(message)
            # Never a new deal in place of the fix: no Save, no Record, no keypad.
            expect(page.locator("#actions button")).to_have_count(0)
            expect(page.get_by_role("radio")).to_have_count(0)
        assert post(hub, "record", {"session": sid, "line": "陳大文=0 李小明=1 Cat=1 Dan=1"})["deal"] == 3
        assert phone.errors == []
    finally:
        phone.close()


@pytest.mark.parametrize("locale", ["en", "zh-HK"])
def test_the_charts_type_is_readable_at_360_px(browser: Any, hub: LiveServer, locale: str) -> None:
    """Every text of the evening's chart and of a player's chart is 12 CSS px or more as
    drawn on a 360 px wide screen (the SVG is scaled to fit: its font-size is not what
    shows), and each legend's name is drawn whole, inside the chart."""
    from playwright.sync_api import expect

    sid = new_table(hub, f"Chart {locale}", [*TWO_DEALS, "陳大文=13 李小明=12 Cat=0 Dan=13"])
    phone = Phone(browser, hub.keeper() + f"#/t/{sid}/log", "360x640", locale)
    page = phone.page
    try:
        for screen in (f"#/t/{sid}/log", "#/player/%E9%99%B3%E5%A4%A7%E6%96%87"):
            phone.show(screen)
            chart = page.locator("svg.chart").first
            expect(chart).to_be_visible()
            # a live redraw may replace the chart between two reads: measure it once laid out
            page.wait_for_function("""() => { const svg = document.querySelector('svg.chart');
                return svg && svg.isConnected && [...svg.querySelectorAll('text')].every(
                    (t) => t.getBoundingClientRect().height > 0); }""")
            drawn = chart.evaluate("""(svg) => {
                const box = svg.getBoundingClientRect();
                const scale = box.width / svg.viewBox.baseVal.width;
                return {box: [box.left, box.right], texts: [...svg.querySelectorAll('text')].map((t) => {
                  const r = t.getBoundingClientRect();
                  return {text: t.textContent, left: r.left, right: r.right, height: r.height,
                          px: parseFloat(getComputedStyle(t).fontSize) * scale};
                })};
            }""")
            assert drawn["texts"], screen
            assert drawn["box"][1] <= 360
            for t in drawn["texts"]:
                assert t["px"] >= 12, (screen, t)
                assert t["height"] >= 12, (screen, t)
                assert t["left"] >= drawn["box"][0] - 0.5 and t["right"] <= drawn["box"][1] + 0.5, (screen, t)
            if screen.endswith("/log"):
                legends = [t["text"] for t in drawn["texts"]]
                assert any(x.startswith("陳大文 ") for x in legends), legends
    finally:
        phone.close()


def test_a_screen_left_while_loading_does_not_draw_over_the_next(browser: Any, hub: LiveServer) -> None:
    """Deals asked for, then Fix before the deals came: the fix stays on screen when
    the late answer arrives (it drew the log over the fix, and marked it shown)."""
    from playwright.sync_api import expect

    sid = new_table(hub, "Late answer", TWO_DEALS)
    phone = Phone(browser, hub.keeper() + f"#/t/{sid}", "390x844")
    page, w = phone.page, phone.w
    try:
        page.evaluate("""() => {
            const real = window.fetch;
            let first = true;
            window.fetch = (url, init) => {
              if (first && String(url).includes('/api/log')) {
                first = false;
                return new Promise((r) => setTimeout(r, 1500)).then(() => real(url, init));
              }
              return real(url, init);
            };
        }""")
        page.evaluate(f"""() => {{ document.documentElement.dataset.route = 'asked';
            location.hash = '#/t/{sid}/log';
            setTimeout(() => {{ location.hash = '#/t/{sid}/fix/1'; }}, 50); }}""")
        expect(page.get_by_role("button", name=w("Save deal {n}", n=1), exact=True)).to_be_visible()
        page.wait_for_timeout(2000)  # the late answer to the Deals screen has come by now
        main = page.locator("#main")
        expect(main.get_by_role("heading", name=w("Fix deal {n}", n=1), exact=True)).to_be_visible()
        expect(main.get_by_role("button", name=w("Undo last action"), exact=True)).to_have_count(0)
        assert phone.state("screen") == "board"
    finally:
        phone.close()
