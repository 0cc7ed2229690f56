"""The offline phone's engine (``ledger/engine/phone.py``, what the Pyodide worker calls)
records a payment with the same ops as the hub: ``pay`` and ``unpay`` through
:func:`ledger.engine.dispatch.call`, written once per key, refused in the page's language."""

from __future__ import annotations

import json
import uuid
from pathlib import Path
from typing import Any

from ledger.engine.phone import Phone


def ask(phone: Phone, op: str, lang: str = "en", **args: Any) -> dict[str, Any]:
    return json.loads(phone.answer(op, json.dumps(args), lang))


def test_the_phone_records_a_payment_once_and_takes_it_back(tmp_path: Path) -> None:
    phone = Phone(str(tmp_path / "bigtwo.db"))
    sid = ask(phone, "start", key=str(uuid.uuid4()), players=["陳大文", "Ben", "Cat", "Dan"],
              stake="0.5", currency="HKD")["ok"]["id"]
    for line in ("0 3 11 8", "5 0 2 13"):
        assert ask(phone, "record", key=str(uuid.uuid4()), session=sid, line=line)["changed"]
    key = str(uuid.uuid4())
    first = ask(phone, "pay", key=key, session=sid, **{"from": "Dan", "to": "Ben", "amount": "33.50"})
    assert first["changed"] and first["ok"]["payment"]["uuid"] == key
    again = ask(phone, "pay", key=key, session=sid, **{"from": "Dan", "to": "Ben", "amount": "33.50"})
    assert "changed" not in again and again["ok"] == first["ok"]
    settle = ask(phone, "settle", session=sid)["ok"]
    assert [(p["from"], p["to"], p["paid"], p["outstanding"]) for p in settle["progress"]] == [
        ("Cat", "陳大文", "0.00", "8.50"), ("Dan", "Ben", "33.50", "0.00"),
        ("Dan", "陳大文", "0.00", "21.00")]
    bad = ask(phone, "pay", "zh_Hant", key=str(uuid.uuid4()), session=sid,
              **{"from": "Dan", "to": "陳大文", "amount": "2.505"})
    assert "changed" not in bad and bad["error"]["status"] == 400
    assert "HKD" in bad["error"]["message"] and "decimal" not in bad["error"]["message"]
    undone = ask(phone, "unpay", key=str(uuid.uuid4()), session=sid, payment=key)
    assert undone["changed"] and undone["ok"]["undone"]["uuid"] == key
    assert ask(phone, "settle", session=sid)["ok"]["recorded"] == []
