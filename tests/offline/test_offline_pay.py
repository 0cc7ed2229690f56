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


def test_payment_code_drawn_offline_is_segnos(site):
    """A payment's QR code, drawn by the phone's own engine (segno vendored for Pyodide,
    the same Python as the hub's POST /qr): the canvas's modules are segno's for the
    payload the settle op gives, with no request leaving the site."""
    import segno
    from playwright.sync_api import expect

    with phone_page(360, 640) as (context, page, errors):
        outside: list[str] = []
        context.on("request", lambda r: None if r.url.startswith(site.url) else outside.append(r.url))
        page.goto(site.url + "harness.html")
        wait_ready(page)
        sid = call(page, "start", start_args())["id"]
        for line in ("0 3 11 8", "5 0 2 13"):  # Dan pays Ben among the fewest payments
            call(page, "record", {"key": key(), "session": sid, "line": line})
        call(page, "set_pay_id", {"key": key(), "player": "Ben", "scheme": "fps", "id": "+852 9123 4567"})
        codes = call(page, "settle", {"session": sid, "pay_codes": True})["payments"]
        (payload,) = [p["pay_code"]["payload"] for p in codes if p["to"] == "Ben" and p.get("pay_code")]
        page.goto(site.url + f"#/t/{sid}/settle")
        wait_ready(page)
        page.get_by_role("button", name="Payment code: Dan pays Ben", exact=True).click()
        canvas = page.locator(".paycode canvas.qr")
        expect(canvas).to_be_visible(timeout=60_000)
        drawn = page.evaluate("""() => {
          const c = document.querySelector(".paycode canvas.qr");
          const px = 8, n = c.width / px, g = c.getContext("2d");
          const rows = [];
          for (let y = 0; y < n; y++) {
            let row = "";
            for (let x = 0; x < n; x++) {
              row += g.getImageData(x * px + 4, y * px + 4, 1, 1).data[0] < 128 ? "1" : "0";
            }
            rows.push(row);
          }
          return rows;
        }""")
        expected = ["".join("1" if m else "0" for m in row)
                    for row in segno.make(payload, error="m").matrix_iter(scale=1, border=4)]
        assert drawn == expected
        assert page.get_by_role("button", name="Mark paid", exact=True).is_visible()
        assert outside == [] and errors == []
