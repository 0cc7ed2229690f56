"""Mark paid on the phone's settle screen, in a real browser against the hub: a double
tap writes one payment, a part payment leaves the rest outstanding, a bad amount is
refused in the page's language with nothing written, and Take back undoes one; the
command line's ``bigtwo payments list`` sees the same payments."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from web.phonekit import LiveServer, Phone, keeper_post, keeper_table, launch, recorded_payments
from web.webhelpers import bigtwo

PLAYERS = ["陳大文", "Ben", "Cat", "Dan"]
DEALS = ["0 3 11 8", "5 0 2 13"]  # fewest payments: Cat → 陳大文 8.50, Dan → Ben 33.50,
#                                   Dan → 陳大文 21.00 (HKD, stake 0.5)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from launch()


@pytest.fixture(scope="module")
def hub(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    db = tmp_path_factory.mktemp("hub") / "hub.db"
    bigtwo(db, "session", "start", "--players", ",".join(PLAYERS), "--stake", "0.5",
           "--currency", "HKD", "--name", "Warm-up")
    served = LiveServer(db)
    served.db = db  # type: ignore[attr-defined]
    yield served
    served.stop()


post = keeper_post
payments = recorded_payments


def table(hub: LiveServer, name: str) -> int:
    return keeper_table(hub, name, PLAYERS, DEALS)


def line(phone: Phone, payer: str, payee: str) -> Any:
    return phone.page.locator(f'li.progress[data-from="{payer}"][data-to="{payee}"]')


def mark(phone: Phone, payer: str, payee: str) -> Any:
    return phone.page.get_by_role("button", name=phone.w("Mark paid: {payer} pays {payee}",
                                                         payer=payer, payee=payee), exact=True)


def amount(phone: Phone, payer: str, payee: str) -> Any:
    return phone.page.get_by_role("textbox", name=phone.w(
        "Amount {payer} pays {payee} now ({currency})", payer=payer, payee=payee, currency="HKD"),
        exact=True)


def state(phone: Phone, paid: str, outstanding: str) -> str:
    return phone.w("paid {paid} · outstanding {outstanding} {currency}", paid=paid,
                   outstanding=outstanding, currency="HKD")


@pytest.mark.parametrize("locale", ["en", "zh-HK"])
def test_mark_paid_then_take_back(browser: Any, hub: LiveServer, locale: str) -> None:
    from playwright.sync_api import expect

    sid = table(hub, f"Paid up {locale}")
    phone = Phone(browser, hub.keeper() + f"#/t/{sid}/settle", "360x640", locale=locale)
    try:
        page = phone.page
        expect(line(phone, "Dan", "陳大文").locator(".state")).to_have_text(state(phone, "0.00", "21.00"))
        expect(amount(phone, "Dan", "陳大文")).to_have_value("21.00")
        # A double tap on Mark paid: one payment.
        mark(phone, "Dan", "陳大文").dblclick()
        phone.wait_saved(1)
        expect(line(phone, "Dan", "陳大文").locator(".state")).to_have_text(phone.w("Paid."))
        expect(mark(phone, "Dan", "陳大文")).to_have_count(0)
        assert payments(hub.db, sid) == [("Dan", "陳大文", "21.00")]  # type: ignore[attr-defined]
        # A part payment: the rest stays outstanding.
        amount(phone, "Dan", "Ben").fill("10")
        mark(phone, "Dan", "Ben").tap()
        phone.wait_saved(2)
        expect(line(phone, "Dan", "Ben").locator(".state")).to_have_text(state(phone, "10.00", "23.50"))
        # The share text says what is paid (the card is drawn from the same words).
        pays = lambda payer, payee, amount: (  # noqa: E731
            phone.w("{payer} pays {payee}", payer=payer, payee=payee) + f"  {amount} HKD")
        shared = page.locator("#share-text")
        expect(shared).to_contain_text(pays("Dan", "陳大文", "21.00") + " · " + phone.w("Paid."))
        expect(shared).to_contain_text(pays("Dan", "Ben", "33.50") + " · " + state(phone, "10.00", "23.50"))
        assert pays("Cat", "陳大文", "8.50") + "\n" in shared.inner_text() + "\n"  # nothing paid: no note
        # A bad amount: one message in the page's language, nothing written.
        for bad, reason in (
                ("1.234", phone.w("bad amount {text!r}: {currency} has {places} decimal places",
                                  text="1.234", currency="HKD", places=2)),
                ("0", phone.w("bad amount {text!r}: an amount paid is a positive number such as "
                              "20 or 12.50", text="0"))):
            amount(phone, "Cat", "陳大文").fill(bad)
            mark(phone, "Cat", "陳大文").tap()
            expect(page.locator("#status")).to_contain_text(reason)
            expect(page.locator("html")).to_have_attribute("data-outbox", "empty")
            expect(line(phone, "Cat", "陳大文").locator(".state")).to_have_text(state(phone, "0.00", "8.50"))
        assert payments(hub.db, sid) == [("Dan", "陳大文", "21.00"), ("Dan", "Ben", "10.00")]  # type: ignore[attr-defined]
        # Take back the first: it is outstanding again.
        what = phone.w("{payer} paid {payee} {amount} {currency}", payer="Dan", payee="陳大文",
                       amount="21.00", currency="HKD")
        page.get_by_role("button", name=phone.w("Take back: {what}", what=what), exact=True).tap()
        page.locator("dialog[open]").get_by_role("button", name=phone.w("Take back"), exact=True).tap()
        phone.wait_saved(3)
        expect(line(phone, "Dan", "陳大文").locator(".state")).to_have_text(state(phone, "0.00", "21.00"))
        assert payments(hub.db, sid) == [("Dan", "Ben", "10.00")]  # type: ignore[attr-defined]
        assert phone.errors == [] and phone.csp_violations() == []
    finally:
        phone.close()


def test_the_viewer_sees_what_is_paid_but_cannot_mark_it(browser: Any, hub: LiveServer) -> None:
    from playwright.sync_api import expect

    sid = table(hub, "Viewer")
    post(hub, "pay", {"session": sid, "from": "Cat", "to": "陳大文", "amount": "8.50"})
    phone = Phone(browser, hub.viewer() + f"#/t/{sid}/settle", "360x640")
    try:
        expect(line(phone, "Cat", "陳大文").locator(".state")).to_have_text(phone.w("Paid."))
        expect(line(phone, "Dan", "Ben").locator(".state")).to_have_text(state(phone, "0.00", "33.50"))
        expect(phone.page.get_by_role("button", name=phone.w("Mark paid"))).to_have_count(0)
        expect(phone.page.get_by_role("button", name=phone.w("Take back"))).to_have_count(0)
    finally:
        phone.close()
