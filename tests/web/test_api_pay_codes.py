"""Pay codes over the hub (issue 31): the scorekeeper's ``settle`` carries each
payment's code, a viewer's never does (not even when it asks), and the two answers are
kept apart by the live feed's cache."""

from __future__ import annotations

from pathlib import Path

import pytest
from web.test_api import KEEP, VIEW, deal
from web.webhelpers import cli_json

from ledger.book.pay_ids import set_pay_id
from ledger.storage.store import open_ledger


@pytest.fixture
def evening(client, db: Path):
    for line in ["0 3 11 8", "5 0 2 13"]:
        assert deal(client, line).status_code == 200
    with open_ledger(db) as ledger:
        set_pay_id(ledger, "Ben", "fps", "+852 9123 4567")
    return client


def test_the_keeper_gets_pay_codes_and_a_viewer_never(evening, db: Path) -> None:
    keeper = evening.get("/api/settle?session=1", headers=KEEP).json()
    coded = [p for p in keeper["payments"] if "pay_code" in p]
    assert [p["to"] for p in coded] == ["Ben"] and coded[0]["pay_code"]["scheme"] == "fps"
    assert "+852-91234567" in coded[0]["pay_code"]["payload"]
    assert keeper == cli_json(db, "settle", "--session", "1")  # the CLI's own record
    for asked in ("", "&pay_codes=true", "&pay_codes=1"):
        viewer = evening.get(f"/api/settle?session=1{asked}", headers=VIEW)
        assert viewer.status_code == 200
        assert "91234567" not in viewer.text and "pay_code" not in viewer.text
        assert viewer.json()["payments"] == [
            {k: v for k, v in p.items() if k != "pay_code"} for p in keeper["payments"]]
    again = evening.get("/api/settle?session=1", headers=KEEP).json()
    assert again == keeper  # asked after the viewer: not the viewer's cached answer


def test_the_share_text_carries_no_pay_id(evening) -> None:
    text = evening.get("/share/settle.txt?session=1", headers=KEEP)
    assert text.status_code == 200 and "Ben" in text.text
    assert "91234567" not in text.text


def test_the_keeper_sets_a_pay_id_once_and_a_viewer_cannot(client, db: Path) -> None:
    body = {"player": "Cat", "scheme": "paynow", "id": "+65 9123 4567"}
    key = {**KEEP, "idempotency-key": "6f1c3a52-1d7e-4a51-9a0e-3c0b8f0e2d11"}
    first = client.post("/api/set_pay_id", json=body, headers=key)
    assert first.status_code == 200, first.text
    assert first.json() == {"player": "Cat", "scheme": "paynow", "kind": "mobile", "replaced": False}
    assert "9123" not in first.text  # the answer never repeats the id
    again = client.post("/api/set_pay_id", json=body, headers=key)  # a retried request
    assert again.status_code == 200
    with open_ledger(db) as ledger:
        assert len(ledger.pay_ids.current().get("Cat", [])) == 1
        kept = ledger.pay_ids.current()
    refused = client.post("/api/set_pay_id", json={**body, "player": "Dan"},
                          headers={**VIEW, "idempotency-key": "0b6f6b36-3a55-4d53-a0a6-5a4c5b8f9e10"})
    assert refused.status_code == 403
    bad = client.post("/api/set_pay_id", json={**body, "player": "Dan", "id": "12"},
                      headers={**KEEP, "idempotency-key": "1f9a8f70-5b3c-4d1e-8a2b-6e7d3c2b1a00"})
    assert bad.status_code == 400 and bad.json()["message"]
    with open_ledger(db) as ledger:
        assert ledger.pay_ids.current() == kept


def test_the_hub_draws_a_payment_code_for_the_keeper_only(evening) -> None:
    import segno

    payment = next(p for p in evening.get("/api/settle?session=1", headers=KEEP).json()["payments"]
                   if "pay_code" in p)
    payload = payment["pay_code"]["payload"]
    drawn = evening.post("/qr", json={"text": payload}, headers=KEEP)
    assert drawn.status_code == 200
    rows = drawn.json()["rows"]
    qr = segno.make(payload, error="m")
    assert len(rows) == qr.symbol_size(scale=1, border=4)[0] and {len(r) for r in rows} == {len(rows)}
    assert rows == ["".join("1" if m else "0" for m in r) for r in qr.matrix_iter(scale=1, border=4)]
    assert set("".join(rows)) == {"0", "1"} and rows[0] == "0" * len(rows)  # the quiet zone
    assert evening.post("/qr", json={"text": payload}, headers=VIEW).status_code == 403
    assert evening.post(f"/qr?text={payload}", headers=KEEP).status_code == 400  # the body only
    assert evening.post("/qr", json={"text": "x" * 513}, headers=KEEP).status_code == 400


def test_the_offline_engine_draws_the_hubs_code(evening, tmp_path) -> None:
    """The phone's own qr op (segno vendored for Pyodide) answers the hub's POST /qr rows
    for the same payload; bad text is one clear error; the hub has no /api/qr (a read
    would carry the pay id in its address, to a viewer too)."""
    import json

    from ledger.engine.phone import Phone

    payload = next(p for p in evening.get("/api/settle?session=1", headers=KEEP).json()["payments"]
                   if "pay_code" in p)["pay_code"]["payload"]
    phone = Phone(str(tmp_path / "phone" / "bigtwo.db"))
    try:
        answer = json.loads(phone.answer("qr", json.dumps({"text": payload}), "en"))
        assert answer == {"ok": evening.post("/qr", json={"text": payload}, headers=KEEP).json()}
        for bad in ({"text": ""}, {"text": "x" * 513}, {"text": 5}, {}, {"text": "a", "size": 2}):
            refused = json.loads(phone.answer("qr", json.dumps(bad), "en"))
            assert refused["error"]["status"] == 400 and refused["error"]["message"], bad
        said = json.loads(phone.answer("qr", '{"text": ""}', "zh_Hant"))["error"]["message"]
        assert said != json.loads(phone.answer("qr", '{"text": ""}', "en"))["error"]["message"]
    finally:
        phone.ledger.close()
    assert evening.get(f"/api/qr?text={payload}", headers=KEEP).status_code == 404
