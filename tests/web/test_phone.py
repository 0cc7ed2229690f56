"""The phone app in a real browser (headless Chromium, Playwright) at a phone's sizes,
in English and in Hong Kong Chinese, against the hub; one browser and one server for
the module, each test on its own table (many tables on one server)."""

from __future__ import annotations

import json
import re
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from web.phonekit import LAN, LiveServer, Phone, launch
from web.webhelpers import KEY, bigtwo, cli_json

from ledger.web.auth import viewer_token

PLAYERS = ["陳大文", "Ben", "Cat", "Dan"]
ASSIST = "Let the winner go out (assist)"
MISSED = "winner did not call “last card”"


def assist(name: str) -> Any:
    return lambda phone: phone.page.get_by_role(
        "button", name=phone.w("{what}: {name}", what=phone.w(ASSIST), name=name), exact=True)


def missed() -> Any:
    return lambda phone: phone.page.get_by_role("button", name=phone.w(MISSED), exact=True)


# Ten deals of a classic evening: (winner, the others' cards left in seat order, extras
# tapped, the same deal as typed on the command line).
EVENING: list[tuple[str, dict[str, int], list[Any], list[str]]] = [
    ("陳大文", {"Ben": 3, "Cat": 11, "Dan": 8}, [], ["陳大文=0", "Ben=3", "Cat=11", "Dan=8"]),
    ("Ben", {"Cat": 2, "Dan": 13, "陳大文": 5}, [], ["陳大文=5", "Ben=0", "Cat=2", "Dan=13"]),
    ("Cat", {"陳大文": 1, "Ben": 7, "Dan": 4}, [assist("Dan")], ["1", "7", "0", "4", "--assist", "Dan"]),
    ("Dan", {"陳大文": 10, "Ben": 6, "Cat": 9}, [missed()], ["10", "6", "9", "0", "--missed-call"]),
    ("陳大文", {"Ben": 12, "Cat": 3, "Dan": 2}, [], ["0", "12", "3", "2"]),
    ("Ben", {"Cat": 1, "Dan": 1, "陳大文": 13}, [], ["13", "0", "1", "1"]),
    ("Cat", {"Dan": 9, "陳大文": 4, "Ben": 10}, [], ["4", "10", "0", "9"]),
    ("Dan", {"陳大文": 6, "Ben": 2, "Cat": 7}, [], ["6", "2", "7", "0"]),
    ("陳大文", {"Ben": 8, "Cat": 5, "Dan": 11}, [], ["0", "8", "5", "11"]),
    ("Cat", {"陳大文": 3, "Ben": 3, "Dan": 12}, [], ["3", "3", "0", "12"]),
]
# The keypad goes to the next player in seat order after each tap, as a paper sheet's
# columns are filled in: tap the counts in seat order.
EVENING = [(w, {n: left[n] for n in PLAYERS if n in left}, x, typed) for w, left, x, typed in EVENING]


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from launch()


@pytest.fixture(scope="module")
def hub(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    db = tmp_path_factory.mktemp("hub") / "hub.db"
    bigtwo(db, "session", "start", "--players", ",".join(PLAYERS), "--stake", "0.5",
           "--currency", "HKD", "--name", "Warm-up")
    served = LiveServer(db)
    served.db = db
    yield served
    served.stop()


def api(hub: LiveServer, op: str, body: dict[str, Any] | None = None, token: str = KEY,
        params: dict[str, Any] | None = None) -> Any:
    import httpx

    headers = {"authorization": f"Bearer {token}"}
    if body is None:
        return httpx.get(f"{hub.base()}/api/{op}", params=params, headers=headers, timeout=10)
    return httpx.post(f"{hub.base()}/api/{op}", json=body, timeout=10,
                      headers={**headers, "idempotency-key": str(uuid.uuid4())})


def new_table(hub: LiveServer, name: str, rules: str = "classic", players: list[str] = PLAYERS,
              stake: str = "0.5") -> int:
    answer = api(hub, "start", {"players": players, "rules": rules, "stake": stake, "currency": "HKD",
                                "name": name})
    assert answer.status_code == 200, answer.text
    return answer.json()["id"]


def start_by_taps(phone: Phone, name: str) -> int:
    """The Start screen: players, the classic preset (described), stake, currency, name."""
    page = phone.page
    phone.show("#/start")
    for i, player in enumerate(PLAYERS):
        page.get_by_role("textbox", name=phone.w("Player {n}", n=i + 1), exact=True).fill(player)
    classic = page.locator("input[name=rules][value=classic]")
    classic.check()
    described = classic.locator("xpath=..").inner_text().split("\n")
    # Each preset by its name in the phone's language (the hub answers each request in its
    # own), described, with its source.
    assert described[0] == phone.w("Classic (pairwise)") and len(described[1]) > 20
    assert described[2].startswith(phone.w("Source: {source}", source="")) and "pagat.com" in described[2]
    page.get_by_role("textbox", name=phone.w("Stake a point"), exact=True).fill("0.5")
    page.get_by_role("textbox", name=phone.w("Currency"), exact=True).fill("HKD")
    page.get_by_role("textbox", name=phone.w("Name of the evening"), exact=True).fill(name)
    page.get_by_role("button", name=phone.w("Start"), exact=True).tap()
    page.wait_for_url(re.compile(r"#/t/\d+$"))
    from playwright.sync_api import expect

    expect(page.locator("html")).to_have_attribute("data-screen", "board")
    phone.ready()
    return int(page.url.rsplit("/", 1)[1])


def cli_evening(tmp_path: Path, name: str) -> Path:
    """The same evening typed on the command line, into a ledger of its own."""
    db = tmp_path / "typed.db"
    bigtwo(db, "session", "start", "--players", ",".join(PLAYERS), "--stake", "0.5",
           "--currency", "HKD", "--name", name)
    for *_tapped, typed in EVENING:
        bigtwo(db, "deal", *typed)
    return db


def same_as_cli(served: Path, sid: int, typed: Path) -> None:
    got = cli_json(served, "standings", "--session", str(sid))
    want = cli_json(typed, "standings")
    assert got["players"] == want["players"]
    got, want = cli_json(served, "settle", "--session", str(sid)), cli_json(typed, "settle")
    for key in ("nets", "pairwise", "payments"):
        assert got[key] == want[key], key
    assert [{k: v for k, v in w.items() if k != "session"} for w in got["working"]] == \
        [{k: v for k, v in w.items() if k != "session"} for w in want["working"]]


@pytest.mark.parametrize(("size", "locale", "host"), [
    ("390x844", "en", LAN),  # a LAN address over http: not a secure context
    # The quick tests tap at 360x640 and 844x390 in zh-HK too (the two keepers, offline);
    # the whole evening at those sizes runs with --runslow (CI).
    pytest.param("360x640", "zh-HK", "127.0.0.1", marks=pytest.mark.slow),
    pytest.param("844x390", "zh-HK", LAN, marks=pytest.mark.slow),
])
def test_an_evening_tapped_equals_the_evening_typed(browser: Any, hub: LiveServer, tmp_path: Path,
                                                    size: str, locale: str, host: str) -> None:
    phone = Phone(browser, hub.keeper(host), size, locale)
    try:
        secure = phone.page.evaluate("window.isSecureContext")
        assert secure is (host != LAN)
        name = f"Friday {size} {locale}"
        sid = start_by_taps(phone, name)
        assert phone.state("session") == str(sid)
        for i, (winner, left, extras, _typed) in enumerate(EVENING, start=1):
            taps = phone.deal(winner, left, extras)
            assert taps <= 5 + len(extras), (i, taps)
            if not extras:
                assert taps <= 5  # a plain four-player deal
            phone.wait_saved(i + 1)  # the start, then each deal
            phone.record_on_screen()
        assert phone.errors == [] and phone.dialogs == [] and phone.csp_violations() == []
        same_as_cli(hub.db, sid, cli_evening(tmp_path, name))
        # The standings on screen are the engine's.
        from playwright.sync_api import expect

        scores = phone.page.locator("table.standings tbody tr")
        standings = cli_json(hub.db, "standings", "--session", str(sid))["players"]
        expect(scores).to_have_count(4)
        first = scores.nth(0).inner_text()
        assert standings[0]["name"] in first and f"+{standings[0]['net']}" in first
        if locale == "zh-HK":
            assert phone.record_button().inner_text() == "記低呢鋪"  # the catalog's words
    finally:
        phone.close()


def test_record_works_on_the_first_tap_and_on_enter(browser: Any, hub: LiveServer) -> None:
    sid = new_table(hub, "Enter")
    phone = Phone(browser, hub.keeper() + f"#/t/{sid}", "360x640")
    try:
        page = phone.page
        assert phone.record_button().is_disabled()
        assert page.locator("[role=alert]").count() == 0  # no error before the counts are in
        phone.tap(phone.winner("Ben"))
        assert page.locator("[role=alert]").count() == 0
        for name, n in (("陳大文", 5), ("Cat", 2), ("Dan", 13)):
            phone.tap(phone.key(name, n))
        page.keyboard.press("Enter")
        phone.wait_saved(1)
        phone.deal("Cat", {"陳大文": 1, "Ben": 7, "Dan": 4})
        phone.wait_saved(2)
        log = cli_json(hub.db, "log", "--session", str(sid))
        assert [e["facts"]["cards"] for e in log] == [
            {"陳大文": 5, "Ben": 0, "Cat": 2, "Dan": 13}, {"陳大文": 1, "Ben": 7, "Cat": 0, "Dan": 4}]
        # A count tapped again is replaced, never appended.
        phone.tap(phone.winner("陳大文"))
        phone.tap(phone.key("Ben", 1))
        chip = page.get_by_role("button", name=re.compile(r"^Cards left of Ben"))
        chip.tap()
        phone.tap(phone.key("Ben", 2))
        assert chip.get_attribute("aria-label") == "Cards left of Ben: 2"
    finally:
        phone.close()


def test_an_answer_lost_after_the_commit_is_retried_into_one_deal(browser: Any, hub: LiveServer) -> None:
    sid = new_table(hub, "Lost answer")
    phone = Phone(browser, hub.keeper() + f"#/t/{sid}", "390x844")
    try:
        page = phone.page
        dropped: list[str] = []

        def drop_the_answer(route: Any) -> None:
            route.fetch()  # the server writes the deal …
            dropped.append(route.request.headers["idempotency-key"])
            route.abort("connectionreset")  # … and the answer never reaches the phone
            page.unroute("**/api/record", drop_the_answer)

        page.route("**/api/record", drop_the_answer)
        phone.deal("陳大文", {"Ben": 3, "Cat": 11, "Dan": 8})
        phone.wait_saved(1)  # retried with the same key
        assert len(dropped) == 1
        assert len(cli_json(hub.db, "log", "--session", str(sid))) == 1
        assert phone.state("outbox") == "empty"
        uuid4 = r"[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}"
        assert re.fullmatch(uuid4, dropped[0])  # made on the phone, without crypto.randomUUID
    finally:
        phone.close()


def test_offline_taps_wait_in_the_outbox_across_a_reload(browser: Any, hub: LiveServer) -> None:
    from playwright.sync_api import expect

    sid = new_table(hub, "Offline")
    phone = Phone(browser, hub.keeper() + f"#/t/{sid}", "844x390", "zh-HK")
    try:
        page = phone.page
        phone.context.set_offline(True)
        phone.deal("陳大文", {"Ben": 3, "Cat": 11, "Dan": 8})
        expect(page.locator("#status")).to_have_text(phone.w("{what}: not saved yet — will retry",
                                                             what=phone.w("Deal {n}", n=1)))
        assert "Failed to fetch" not in page.locator("body").inner_text()
        assert phone.state("outbox") == "waiting"
        assert len(json.loads(page.evaluate("localStorage.getItem('bigtwo.outbox@/')"))) == 1
        # Still no network to the ledger, but the page reloads: the deal is still waiting.
        page.route("**/api/record", lambda route: route.abort("internetdisconnected"))
        phone.context.set_offline(False)
        page.reload()
        phone.ready()
        assert len(json.loads(page.evaluate("localStorage.getItem('bigtwo.outbox@/')"))) == 1
        assert cli_json(hub.db, "log", "--session", str(sid)) == []
        page.unroute("**/api/record")
        phone.wait_saved(1)
        assert len(cli_json(hub.db, "log", "--session", str(sid))) == 1
    finally:
        phone.close()


def test_the_viewer_cannot_write(browser: Any, hub: LiveServer) -> None:
    sid = new_table(hub, "Viewed")
    assert api(hub, "record", {"session": sid, "line": "陳大文=0 Ben=3 Cat=11 Dan=8"}).status_code == 200
    phone = Phone(browser, hub.viewer() + f"#/t/{sid}", "390x844")
    try:
        page = phone.page
        assert phone.state("level") == "viewer"
        assert phone.record_button().count() == 0
        assert page.get_by_role("radio").count() == 0
        phone.show(f"#/t/{sid}/log")
        assert page.get_by_role("button", name="Void deal 1").count() == 0
        assert page.get_by_role("link", name="Fix deal 1").count() == 0
        answer = api(hub, "record", {"session": sid, "line": "陳大文=0 Ben=3 Cat=11 Dan=8"},
                     token=viewer_token(KEY))
        assert answer.status_code == 403
        assert len(cli_json(hub.db, "log", "--session", str(sid))) == 1
    finally:
        phone.close()


def test_two_keepers_on_two_tables(browser: Any, hub: LiveServer) -> None:
    one = new_table(hub, "Table one")
    first = Phone(browser, hub.keeper() + f"#/t/{one}", "390x844")
    second = Phone(browser, hub.keeper(LAN), "360x640", "zh-HK")
    try:
        first.tap(first.winner("Ben"))  # half a deal entered …
        first.tap(first.key("陳大文", 5))
        two = start_by_taps(second, "Table two")  # … while another keeper starts a table
        assert two != one
        second.deal("Dan", {"陳大文": 6, "Ben": 2, "Cat": 7})
        second.wait_saved(2)  # the start and the deal
        first.page.wait_for_timeout(300)  # the live feed has told every page
        assert first.state("session") == str(one)
        first.tap(first.key("Cat", 2))
        first.tap(first.key("Dan", 13))
        first.tap(first.record_button())
        first.wait_saved(1)
        assert [e["facts"]["cards"]["Ben"] for e in cli_json(hub.db, "log", "--session", str(one))] == [0]
        assert [e["facts"]["cards"]["Dan"] for e in cli_json(hub.db, "log", "--session", str(two))] == [0]
    finally:
        first.close()
        second.close()


def test_the_taiwan_settle_page_equals_the_cli(browser: Any, hub: LiveServer) -> None:
    sid = new_table(hub, "Taipei", rules="taiwan", stake="1")
    for line in ("陳大文=0 Ben=3 Cat=11 Dan=8", "陳大文=5 Ben=0 Cat=2 Dan=13", "陳大文=9 Ben=1 Cat=0 Dan=4"):
        assert api(hub, "record", {"session": sid, "line": line}).status_code == 200
    want = cli_json(hub.db, "settle", "--session", str(sid))
    phone = Phone(browser, hub.keeper() + f"#/t/{sid}/settle", "360x640")
    try:
        page = phone.page
        working = want["working"][0]
        assert working["method"] == "ranked"
        # The money first: the working is folded under the payments, one tap away.
        summary = page.locator("details.working-fold summary")
        summary.evaluate("(el) => el.scrollIntoView({block: 'center'})")
        summary.click()
        page.locator("details.working-fold[open] table.working").wait_for(state="visible")
        rows = page.locator("table.working tbody tr")
        shown = {rows.nth(i).locator("th").inner_text(): rows.nth(i).locator("td").all_inner_texts()
                 for i in range(rows.count())}
        assert shown == {n: [str(s), f"{working['net_points'][n]:+d}".replace("-", "−")]
                         for n, s in working["totals"].items()}
        assert "Σs" not in page.locator("#main").inner_text()  # not the pairwise working
        money = page.locator("table.money tbody tr")
        assert {money.nth(i).locator("th").inner_text(): money.nth(i).locator("td").first.inner_text()
                for i in range(money.count())} == {
            n: (("+" + v) if not v.startswith("-") and v != "0.00" else v.replace("-", "−"))
            for n, v in want["nets"].items()}
        page.get_by_role("combobox", name="Round to coins of").select_option("5")
        phone.page.wait_for_selector("text=Rounded to coins of 5 HKD")
        rounded = cli_json(hub.db, "settle", "--session", str(sid), "--round", "5")
        text = page.locator("#share-text").inner_text()
        for p in rounded["payments"]:
            assert f"{p['from']} pays {p['to']}  {p['amount']} HKD" in text
    finally:
        phone.close()


def test_names_are_text_on_every_screen(browser: Any, hub: LiveServer) -> None:
    hostile = "<img src=x onerror=alert(1)>"
    player = "<script>alert(2)</script>"
    sid = new_table(hub, hostile, players=["陳大文", "Ben", "Cat", player])
    for line in (f"陳大文=0 Ben=3 Cat=11 '{player}'=8", f"陳大文=5 Ben=0 Cat=2 '{player}'=13"):
        assert api(hub, "record", {"session": sid, "line": line}).status_code == 200
    phone = Phone(browser, hub.keeper(LAN) + f"#/t/{sid}", "360x640")
    try:
        page = phone.page
        for screen in (f"#/t/{sid}", f"#/t/{sid}/log", f"#/t/{sid}/settle", "#/tables", "#/history",
                       "#/player/" + player.replace("<", "%3C").replace(">", "%3E").replace("/", "%2F")):
            phone.show(screen)
            text = page.locator("#main").inner_text()
            assert hostile in text or player in text, screen
            assert page.locator("#main img, #main script").count() == 0, screen
        # The charts and the share card draw the names as text too.
        phone.show(f"#/t/{sid}/log")
        assert player in page.locator("svg.chart").first.text_content()
        phone.show(f"#/t/{sid}/settle")
        assert hostile in page.locator("#share-text").inner_text()
        assert page.locator("canvas.card-image").count() == 1
        assert phone.dialogs == [] and phone.errors == [] and phone.csp_violations() == []
        csp = page.request.get(hub.base() + "/").headers["content-security-policy"]
        assert "script-src 'self'" in csp and "unsafe-inline" not in csp
    finally:
        phone.close()
