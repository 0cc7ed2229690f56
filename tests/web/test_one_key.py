"""One key, one action, whatever the kind (issue 30): an ``Idempotency-Key`` a deal, a
session, a payment or an import took already is refused 422 for any other action, as
docs/serve.md promises; and a crafted export is refused by ``POST /api/import`` as by
``bigtwo import``: every problem named, in the request's language, nothing written."""

from __future__ import annotations

import json
import uuid
from pathlib import Path

from web.test_api import KEEP, VIEW, deal, write
from web.webhelpers import ledger_bytes

START = {"players": ["Ann", "Ben", "Cat", "Dan"], "stake": "1", "currency": "USD"}


def test_a_deals_key_cannot_start_a_session(client, db: Path) -> None:
    key = str(uuid.uuid4())
    assert deal(client, "0 3 11 8", key=key).status_code == 200
    before = ledger_bytes(db)
    again = write(client, "start", START, key=key)
    assert again.status_code == 422, again.text
    assert "used already" in again.json()["message"]
    assert ledger_bytes(db) == before


def test_a_sessions_uuid_cannot_key_a_deal(client, db: Path) -> None:
    session = client.get("/api/session?session=1", headers=VIEW).json()["uuid"]
    before = ledger_bytes(db)
    again = deal(client, "0 3 11 8", key=session)
    assert again.status_code == 422, again.text
    assert ledger_bytes(db) == before


def test_a_payments_key_cannot_start_a_session_nor_record(client, db: Path) -> None:
    assert deal(client, "0 3 11 8").status_code == 200
    key = str(uuid.uuid4())
    paid = write(client, "pay", {"session": 1, "from": "Cat", "to": "Ben", "amount": "1.00"},
                 key=key)
    assert paid.status_code == 200, paid.text
    for op, body in (("start", START), ("record", {"session": 1, "line": "0 3 11 8"}),
                     ("end", {"session": 1})):
        assert write(client, op, body, key=key).status_code == 422, op


def export_text(client) -> str:
    return client.get("/api/export", headers=VIEW).json()["text"]


def test_an_import_key_is_one_import(client, db: Path) -> None:
    assert deal(client, "0 3 11 8").status_code == 200
    text = export_text(client)
    key = str(uuid.uuid4())
    first = write(client, "import", {"text": text, "name": "a.json"}, key=key)
    assert first.status_code == 200, first.text
    again = write(client, "import", {"text": text, "name": "a.json"}, key=key)
    assert again.status_code == 200 and again.json() == first.json()  # a retry, answered again
    other = json.loads(text)
    other["sessions"][0]["name"] = "another text"
    before = ledger_bytes(db)
    refused = write(client, "import", {"text": json.dumps(other), "name": "a.json"}, key=key)
    assert refused.status_code == 422, refused.text
    assert deal(client, "5 0 2 13", key=key).status_code == 422  # nor for a deal
    assert ledger_bytes(db) == before
    assert write(client, "import", {"text": text, "name": "a.json"},
                 key=client.get("/api/session?session=1", headers=VIEW).json()["uuid"]
                 ).status_code == 422  # nor a session's uuid for an import


def test_a_crafted_export_is_refused_whole_by_the_hub_in_its_language(client, db: Path) -> None:
    assert deal(client, "0 3 11 8").status_code == 200
    data = json.loads(export_text(client))
    s1 = data["sessions"][0]["uuid"]
    deal_uuid = next(e["uuid"] for e in data["sessions"][0]["entries"] if e["kind"] == "deal")
    base = {"kind": "payment", "at": "2026-01-02T03:04:05+00:00", "note": None, "session": s1,
            "currency": "HKD", "amount": "1.00", "from": "Cat", "to": "Ben"}
    data["payments"] = [{**base, "uuid": str(uuid.uuid4()), **bad} for bad in (
        {"from": "Zed"}, {"currency": "USD"}, {"amount": "0.001"}, {"to": "Cat"},
        {"at": "not a date"})] + [{**base, "uuid": deal_uuid}]
    before = ledger_bytes(db)
    headers = {**KEEP, "Accept-Language": "zh-HK"}
    answer = write(client, "import", {"text": json.dumps(data), "name": "bad.json"}, headers)
    assert answer.status_code == 400, answer.text
    lines = answer.json()["message"].split("\n")
    assert len(lines) == 6 and all(line.startswith("bad.json: payments[") for line in lines), lines
    assert "檔案同帳簿都冇叫 Zed 嘅玩家" in lines[0] and "一個 uuid 只可以標示一個動作" in lines[5]
    assert "CHECK" not in answer.text and "Traceback" not in answer.text
    assert ledger_bytes(db) == before


def test_one_crafted_export_is_refused_alike_by_import_and_the_hub(client, db: Path, cli,
                                                                 tmp_path: Path) -> None:
    """Every kind of bad payment, a date out of range, a correction of another session's
    deal and a key of another kind, in one file: refused whole, one message per problem,
    by ``bigtwo import`` and ``POST /api/import`` alike; ``doctor --full`` clean after."""
    assert deal(client, "0 3 11 8").status_code == 200
    second = write(client, "start", {**START, "currency": "HKD"})
    assert second.status_code == 200, second.text
    assert deal(client, "5 0 2 13", session=2).status_code == 200
    assert write(client, "pay", {"session": 1, "from": "Cat", "to": "Ben",
                                 "amount": "1.00"}).status_code == 200
    data = json.loads(export_text(client))
    s1 = data["sessions"][0]
    first_deal = next(e["uuid"] for e in s1["entries"] if e["kind"] == "deal")
    paid = data["payments"][0]["uuid"]
    base = {"kind": "payment", "at": "2026-01-02T03:04:05+00:00", "note": None,
            "session": s1["uuid"], "currency": "HKD", "amount": "1.00", "from": "Cat", "to": "Ben"}
    data["payments"] += [{**base, "uuid": str(uuid.uuid4()), **bad} for bad in (
        {"from": "Ann"}, {"currency": "USD"}, {"amount": "0.001"}, {"amount": "1" + "0" * 30},
        {"to": "Cat"}, {"at": "not a date"}, {"at": "9999-12-31T23:59:59+00:00"})]
    data["payments"].append({**base, "uuid": first_deal})  # a deal's uuid
    s1["entries"].append({"uuid": str(uuid.uuid4()), "kind": "void", "deal": 1, "facts": None,
                          "seq": 50, "at": "9999-12-31T23:59:59+00:00"})  # out of range
    data["sessions"][1]["entries"].append({  # a correction of session 1's deal, in session 2
        "uuid": str(uuid.uuid4()), "kind": "void", "deal": 1, "facts": None, "seq": 51,
        "at": "2026-12-31T00:00:00+00:00", "deal_uuid": first_deal})
    data["sessions"].append({**data["sessions"][1], "uuid": paid, "entries": []})  # a payment's
    text = json.dumps(data)
    before = ledger_bytes(db)
    path = tmp_path / "bad.json"
    path.write_text(text, encoding="utf-8")
    lines = cli.fails("--db", str(db), "import", str(path)).strip().split("\n")
    assert len(lines) == 11 and all(line.startswith("error: bad.json: ") for line in lines), lines
    answer = write(client, "import", {"text": text, "name": "bad.json"})
    assert answer.status_code == 400, answer.text
    said = answer.json()["message"].split("\n")
    assert ["error: " + line for line in said] == lines
    assert ledger_bytes(db) == before
    assert cli.ok("--db", str(db), "doctor", "--full").startswith("ok")
