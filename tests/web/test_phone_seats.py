"""The table's seats on the phone (board-seats.js) in a real browser against the hub: a
friend joins sitting out, another sits out, the first comes back, a deal is tapped with
the four who play, two swap seats and one leaves; the ledger then equals the same evening
typed on the command line; the seat order set with ↑ and ↓ (once "from deal 2", once from
the next deal) equals `bigtwo seat order` typed. The 6- and 8-player screenshots for docs/seats.md are taken
here (docs/img/phone-*players-*.png), a deal half tapped and the seats open, and the seat
order's (docs/img/phone-seat-order-*.png)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from web.phonekit import LOCALES, LiveServer, Phone, keeper_post, keeper_table, launch
from web.webhelpers import KEY, bigtwo, cli_json

PLAYERS = ["Ann", "Ben", "Cat", "Dan"]
IMG = Path(__file__).resolve().parents[2] / "docs" / "img"


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from launch()


@pytest.fixture(scope="module")
def hub(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    db = tmp_path_factory.mktemp("hub") / "hub.db"
    bigtwo(db, "session", "start", "--players", "Zoe,Yan,Xia,Wes", "--name", "Warm-up")
    served = LiveServer(db)
    served.db = db  # type: ignore[attr-defined]
    yield served
    served.stop()


def seats_open(phone: Phone) -> Any:
    """The board's seats section, unfolded."""
    fold = phone.page.locator("details.seats")
    if fold.get_attribute("open") is None:
        fold.locator(":scope > summary").tap()
    return fold


def tap_seat(phone: Phone, name: str, count: int) -> None:
    """Tap a seat control by its accessible name; wait for the write and the redraw."""
    from playwright.sync_api import expect

    seats_open(phone).get_by_role("button", name=name, exact=True).tap()
    phone.wait_saved(count)
    expect(phone.page.locator("html")).to_have_attribute("data-route", "shown")


def the_ledger(db: Path, sid: int | None) -> dict[str, Any]:
    """What both ledgers must agree on: the log (without ids and times) and the seats."""
    where = ["--session", str(sid)] if sid is not None else []
    log = cli_json(db, "log", *where)
    drop = {"uuid", "at", "created_at", "session", "id", "entry", "deal_uuid", "time"}

    def clean(x: Any) -> Any:
        if isinstance(x, dict):
            return {k: clean(v) for k, v in x.items() if k not in drop}
        if isinstance(x, list):
            return [clean(v) for v in x]
        return x

    return {"log": clean(log), "seats": clean(cli_json(db, "seat", "show", *where)),
            "settle": {k: cli_json(db, "settle", *where)[k] for k in ("nets", "pairwise", "payments")}}


def refusal(hub: LiveServer, sid: int, locale: str, name: str) -> str:
    """The engine's message refusing NAME's join, in ``locale``'s language."""
    import uuid

    import httpx

    answer = httpx.post(f"{hub.base()}/api/seat", json={"session": sid, "action": "join", "players": [name]},
                        headers={"authorization": f"Bearer {KEY}", "idempotency-key": str(uuid.uuid4()),
                                 "accept-language": LOCALES[locale][0]}, timeout=10)
    assert answer.status_code != 200, answer.text
    return str(answer.json()["message"])


@pytest.mark.parametrize("locale", ["en", "zh-HK"])
def test_seat_changes_tapped_equal_the_same_typed(browser: Any, hub: LiveServer, tmp_path: Path,
                                                  locale: str) -> None:
    from playwright.sync_api import expect

    sid = keeper_post(hub, "start", {"players": PLAYERS, "stake": "1", "currency": "HKD",
                                     "name": f"Seats {locale}"})["id"]
    keeper_post(hub, "record", {"session": sid, "line": "Ann=0 Ben=3 Cat=5 Dan=8"})
    phone = Phone(browser, hub.keeper() + f"#/t/{sid}", "360x640", locale)
    w, page = phone.w, phone.page
    try:
        fold = seats_open(phone)
        assert fold.locator(":scope > summary").inner_text() == w("Seats: {seated} seated, {playing} play",
                                                         seated=4, playing=4)
        fold.get_by_role("textbox", name=w("Who joins"), exact=True).fill("Eve")
        fold.get_by_role("checkbox", name=w("joins sitting out"), exact=True).check()
        fold.get_by_role("button", name=w("Join"), exact=True).tap()
        phone.wait_saved(1)
        tap_seat(phone, w("{name} sits out", name="Dan"), 2)
        tap_seat(phone, w("{name} is back", name="Eve"), 3)
        # The keypad follows the seats: Eve plays, Dan sits out.
        expect(phone.winner("Eve")).to_be_visible()
        expect(phone.winner("Dan")).to_have_count(0)
        phone.deal("Ben", {"Ann": 4, "Cat": 2, "Eve": 6})
        phone.wait_saved(4)
        fold = seats_open(phone)
        fold.get_by_role("combobox", name=w("Swap seats: who"), exact=True).select_option("Ann")
        fold.get_by_role("combobox", name=w("Swap seats: with"), exact=True).select_option("Cat")
        fold.get_by_role("button", name=w("Swap"), exact=True).tap()
        phone.wait_saved(5)
        tap_seat(phone, w("{name} leaves", name="Dan"), 6)
        # The panel drawn again from the engine after the save, before anything is typed in it.
        expect(seats_open(phone).locator("ol.seat-list li .who")).to_have_text(["Cat", "Ben", "Ann", "Eve"])
        # A refusal is the engine's own message, in the page's language: a fifth who cannot
        # be dealt (one deck, four play) joins only sitting out.
        fold = seats_open(phone)
        fold.get_by_role("textbox", name=w("Who joins"), exact=True).fill("Fay")
        fold.get_by_role("button", name=w("Join"), exact=True).tap()
        expect(page.locator("html")).to_have_attribute("data-outbox", "empty")
        expect(page.locator("#status")).to_contain_text(refusal(hub, sid, locale, "Fay"), timeout=20_000)
        items = fold.locator("ol.seat-list li .who")
        expect(items).to_have_text(["Cat", "Ben", "Ann", "Eve"])
        assert phone.errors == [] and phone.dialogs == [] and phone.csp_violations() == []
        if locale == "zh-HK":
            assert w("Sit out") != "Sit out" and w("Seats") != "Seats"  # the catalog's words
            expect(fold.get_by_role("button", name=w("Swap"), exact=True)).to_be_visible()
        # The Deals screen's undo names the seat change it would take back, not a deal.
        phone.show(f"#/t/{sid}/log")
        expect(page.locator("main")).to_contain_text(w(
            "Undo the seat change ({action})? The seats go back as they were.", action="seat leave Dan"))
    finally:
        phone.close()
    typed = tmp_path / "typed.db"
    bigtwo(typed, "session", "start", "--players", ",".join(PLAYERS), "--stake", "1", "--currency", "HKD",
           "--name", f"Seats {locale}")
    for args in (["deal", "Ann=0", "Ben=3", "Cat=5", "Dan=8"], ["seat", "join", "Eve", "--sit-out"],
                 ["seat", "sit-out", "Dan"], ["seat", "back", "Eve"],
                 ["deal", "Ann=4", "Ben=0", "Cat=2", "Eve=6"], ["seat", "swap", "Ann", "Cat"],
                 ["seat", "leave", "Dan"]):
        bigtwo(typed, *args)
    assert the_ledger(hub.db, sid) == the_ledger(typed, None)


SHOTS = [(6, "360x640", "en"), (6, "390x844", "zh-HK"), (8, "360x640", "zh-HK"), (8, "390x844", "en")]
NAMES = ["Ann", "Ben", "陳大文", "Dan", "Eve", "Fay", "Gus", "黃小美"]


@pytest.mark.parametrize(("count", "size", "locale"), SHOTS)
def test_six_and_eight_at_a_phone_width(browser: Any, hub: LiveServer, count: int, size: str,
                                        locale: str) -> None:
    """Nothing wider than the screen with 6 or 8 seated (one sitting out), a deal half
    tapped and the seats open; BIGTWO_SCREENSHOTS=1 saves the pictures docs/seats.md shows."""
    names = NAMES[:count]
    sid = keeper_post(hub, "start", {"players": names, "house": {"decks": 2}, "stake": "1",
                                     "currency": "HKD", "name": f"{count} at {size}"})["id"]
    keeper_post(hub, "seat", {"session": sid, "action": "sit-out", "players": [names[-1]]})
    phone = Phone(browser, hub.keeper() + f"#/t/{sid}", size, locale)
    try:
        fold = seats_open(phone)
        phone.tap(phone.winner(names[1]))
        phone.tap(phone.key(names[0], 5))
        phone.tap(phone.key(names[2], 9))
        width = phone.size[0]
        assert phone.page.evaluate("document.documentElement.scrollWidth") <= width
        for button in fold.get_by_role("button").all() + phone.page.locator(".keypad button, .choice").all():
            box = button.bounding_box()
            assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width, box
        if os.environ.get("BIGTWO_SCREENSHOTS") == "1":
            # The whole page at the phone's width: a viewport as tall as the page, so the
            # action bar sits at its foot as on the phone, not over the middle of the picture.
            tall = phone.page.evaluate("document.documentElement.scrollHeight")
            phone.page.set_viewport_size({"width": width, "height": max(tall, phone.size[1])})
            phone.page.screenshot(path=str(IMG / f"phone-{count}players-{size}.png"))
    finally:
        phone.close()


def order_open(phone: Phone) -> Any:
    """The seat order's fold inside the seats section, unfolded."""
    fold = seats_open(phone).locator("details.seat-order")
    if fold.get_attribute("open") is None:
        fold.locator(":scope > summary").tap()
    return fold


@pytest.mark.parametrize("locale", ["en", "zh-HK"])
def test_seat_order_tapped_equals_the_same_typed(browser: Any, hub: LiveServer, tmp_path: Path,
                                                 locale: str) -> None:
    """Ann, Ben, Cat, Dan were entered but sit Cat, Ann, Ben, Dan since deal 2: the keeper
    moves Cat up and Ann down and saves from deal 2; after a deal Dan moves up (from the
    next deal). The hub's seats, log and settlement equal the same typed."""
    from playwright.sync_api import expect

    sid = keeper_table(hub, f"Order {locale}", PLAYERS,
                       ["Ann=0 Ben=3 Cat=5 Dan=8", "Ann=2 Ben=0 Cat=7 Dan=1"])
    phone = Phone(browser, hub.keeper() + f"#/t/{sid}", "360x640", locale)
    w, page = phone.w, phone.page
    try:
        fold = order_open(phone)
        rows = fold.locator("ol.seat-order-list li .who")
        expect(rows).to_have_text(PLAYERS)
        save = fold.get_by_role("button", name=w("Save seat order"), exact=True)
        expect(save).to_be_disabled()  # nothing changed yet: nothing to write
        expect(fold.get_by_role("button", name=w("Move {name} up", name="Ann"), exact=True)).to_be_disabled()
        fold.get_by_role("button", name=w("Move {name} up", name="Cat"), exact=True).tap()
        fold.get_by_role("button", name=w("Move {name} down", name="Ann"), exact=True).tap()
        expect(rows).to_have_text(["Cat", "Ann", "Ben", "Dan"])
        expect(seats_open(phone).locator("ol.seat-list li .who")).to_have_text(PLAYERS)
        # A deal not yet played is refused by the engine, in the page's language; the
        # order being set stays.
        deal_no = fold.get_by_role("spinbutton", name=w("From deal"), exact=True)
        deal_no.fill("9")
        save.tap()
        expect(page.locator("#status")).to_contain_text(
            w("--from-deal {deal}: give a deal from 1 to {last}", deal=9, last=3), timeout=20_000)
        expect(page.locator("html")).to_have_attribute("data-outbox", "empty")
        expect(rows).to_have_text(["Cat", "Ann", "Ben", "Dan"])
        deal_no.fill("2")
        save.tap()
        phone.wait_saved(1)
        expect(page.locator("#status")).to_contain_text(w("The seat order from deal {n}", n=2))
        expect(seats_open(phone).locator("ol.seat-list li .who")).to_have_text(
            ["Cat", "Ann", "Ben", "Dan"])
        phone.deal("Ben", {"Cat": 4, "Ann": 6, "Dan": 2})
        phone.wait_saved(2)
        fold = order_open(phone)
        fold.get_by_role("button", name=w("Move {name} up", name="Dan"), exact=True).tap()
        fold.get_by_role("button", name=w("Save seat order"), exact=True).tap()
        phone.wait_saved(3)
        expect(page.locator("#status")).to_contain_text(w("The new seat order"))
        expect(order_open(phone).locator("ol.seat-order-list li .who")).to_have_text(
            ["Cat", "Ann", "Dan", "Ben"])
        assert phone.errors == [] and phone.dialogs == [] and phone.csp_violations() == []
    finally:
        phone.close()
    typed = tmp_path / "typed.db"
    bigtwo(typed, "session", "start", "--players", ",".join(PLAYERS), "--stake", "0.5", "--currency", "HKD",
           "--name", f"Order {locale}")
    for args in (["deal", "Ann=0", "Ben=3", "Cat=5", "Dan=8"], ["deal", "Ann=2", "Ben=0", "Cat=7", "Dan=1"],
                 ["seat", "order", "Cat,Ann,Ben,Dan", "--from-deal", "2"],
                 ["deal", "Cat=4", "Ann=6", "Ben=0", "Dan=2"], ["seat", "order", "Cat,Ann,Dan,Ben"]):
        bigtwo(typed, *args)
    assert the_ledger(hub.db, sid) == the_ledger(typed, None)
    assert cli_json(hub.db, "seat", "show", "--session", str(sid))["seated"] == ["Cat", "Ann", "Dan", "Ben"]


@pytest.mark.parametrize(("size", "locale", "dark"), [("360x640", "en", False), ("390x844", "zh-HK", True),
                                                      ("360x640", "zh-HK", True)])
def test_seat_order_at_a_phone_width(browser: Any, hub: LiveServer, size: str, locale: str,
                                     dark: bool) -> None:
    """The seat order open with six seated, one moved: nothing wider than the screen;
    BIGTWO_SCREENSHOTS=1 saves docs/img/phone-seat-order-SIZE.png (the first two)."""
    names = NAMES[:6]
    sid = keeper_table(hub, f"Order at {size}", names[:4],
                       [" ".join(f"{n}={left}" for n, left in zip(names[:4], (0, 3, 5, 8), strict=True))])
    for name in names[4:]:
        keeper_post(hub, "seat", {"session": sid, "action": "join", "players": [name], "sit_out": True})
    phone = Phone(browser, hub.keeper() + f"#/t/{sid}", size, locale, dark=dark)
    try:
        fold = order_open(phone)
        fold.get_by_role("button", name=phone.w("Move {name} up", name="陳大文"), exact=True).tap()
        fold.get_by_role("spinbutton", name=phone.w("From deal"), exact=True).fill("2")
        width = phone.size[0]
        assert phone.page.evaluate("document.documentElement.scrollWidth") <= width
        for part in fold.locator("button, input, summary, li, p").all():
            box = part.bounding_box()
            assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width, box
        if os.environ.get("BIGTWO_SCREENSHOTS") == "1" and (size, dark) != ("360x640", True):
            fold.scroll_into_view_if_needed()
            tall = phone.page.evaluate("document.documentElement.scrollHeight")
            phone.page.set_viewport_size({"width": width, "height": max(tall, phone.size[1])})
            phone.page.screenshot(path=str(IMG / f"phone-seat-order-{size}.png"))
    finally:
        phone.close()
