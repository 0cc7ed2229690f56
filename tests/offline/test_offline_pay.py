"""Mark paid in the offline app (the engine in a Pyodide worker, no hub): the settle
screen's button writes one payment through the same Python ops as the hub."""

from __future__ import annotations

from offline.offline_helpers import (
    call,
    key,
    phone_page,
    start_args,
    wait_ready,
)


def test_mark_paid_offline_writes_one_payment(site):
    from playwright.sync_api import expect

    with phone_page(360, 640) as (_context, page, errors):
        page.goto(site.url + "harness.html")
        wait_ready(page)
        sid = call(page, "start", start_args())["id"]
        for line in ("0 3 11 8", "5 0 2 13"):  # Dan pays Ben 33.50 among the fewest payments
            call(page, "record", {"key": key(), "session": sid, "line": line})
        page.goto(site.url + f"#/t/{sid}/settle")
        wait_ready(page)
        assert page.evaluate("document.documentElement.dataset.engineKind") == "worker"
        button = page.get_by_role("button", name="Mark paid: Dan pays Ben", exact=True)
        button.dblclick()
        expect(page.locator("html")).to_have_attribute("data-saved", "1", timeout=60_000)
        row = page.locator('li.progress[data-from="Dan"][data-to="Ben"] .state')
        expect(row).to_have_text("Paid.", timeout=60_000)
        page.goto(site.url + "harness.html")
        wait_ready(page)
        settle = call(page, "settle", {"session": sid})
        recorded = [(r["from"], r["to"], r["amount"]) for r in settle["recorded"]]
        assert recorded == [("Dan", "Ben", "33.50")]  # a double tap: one payment
        assert errors == []
