"""Payments over the hub's API: ``pay`` and ``unpay`` (each written once per key),
``settle`` with what of each of the fewest payments is paid, and bad input refused
with one message in the request's language and nothing written."""

from __future__ import annotations

import uuid
from pathlib import Path

import pytest
from web.test_api import KEEP, VIEW, deal, write
from web.webhelpers import cli_json, ledger_bytes

# The evening of docs/money.md, 陳大文 in Ann's seat: the fewest payments are
# Cat → 陳大文 8.50, Dan → Ben 33.50, Dan → 陳大文 21.00 (HKD, stake 0.5).
DEALS = ["0 3 11 8", "5 0 2 13"]
PLAN = [("Cat", "陳大文", "8.50"), ("Dan", "Ben", "33.50"), ("Dan", "陳大文", "21.00")]


@pytest.fixture
def evening(client, db: Path):
    for line in DEALS:
        assert deal(client, line).status_code == 200
    return client


def progress(client) -> list[tuple[str, str, str, str, str]]:
    st = client.get("/api/settle?session=1", headers=VIEW).json()
    return [(p["from"], p["to"], p["amount"], p["paid"], p["outstanding"]) for p in st["progress"]]


def pay(client, payer: str, payee: str, amount, key: str | None = None, **extra):
    return write(client, "pay", {"session": 1, "from": payer, "to": payee, "amount": amount, **extra},
                 key=key)


def test_settle_says_every_payment_is_outstanding_before_any_is_paid(evening) -> None:
    assert progress(evening) == [(a, b, x, "0.00", x) for a, b, x in PLAN]
    assert evening.get("/api/settle?session=1", headers=VIEW).json()["recorded"] == []


def test_a_payment_is_written_once_per_key_and_settle_shows_it_paid(evening, db: Path) -> None:
    key = str(uuid.uuid4())
    first = pay(evening, "Dan", "陳大文", "21", key, note="cash")
    assert first.status_code == 200, first.text
    assert first.json()["payment"] == {**first.json()["payment"], "uuid": key, "from": "Dan",
                                       "to": "陳大文", "amount": "21.00", "currency": "HKD",
                                       "session": 1, "note": "cash"}
    again = pay(evening, "Dan", "陳大文", "21", key, note="cash")  # the answer was lost: a retry
    assert again.status_code == 200 and again.json() == first.json()
    listed = cli_json(db, "payments", "list")
    assert [(p["uuid"], p["from"], p["to"], p["amount"]) for p in listed] == [
        (key, "Dan", "陳大文", "21.00")]
    assert progress(evening) == [("Cat", "陳大文", "8.50", "0.00", "8.50"),
                                 ("Dan", "Ben", "33.50", "0.00", "33.50"),
                                 ("Dan", "陳大文", "21.00", "21.00", "0.00")]
    served = evening.get("/api/settle?session=1", headers=VIEW).json()
    assert served == cli_json(db, "settle", "--session", "1")  # the CLI's record, payments too
    assert served["outstanding"]["Dan"] == "-33.50" and served["paid"]["Dan"] == "21.00"
    assert [p["uuid"] for p in served["recorded"]] == [key]
    # The same key for another payment: 422, and nothing written.
    before = ledger_bytes(db)
    other = pay(evening, "Dan", "陳大文", "20", key)
    assert other.status_code == 422 and "used already" in other.json()["message"]
    assert ledger_bytes(db) == before


def test_a_part_payment_leaves_the_rest_outstanding_exactly(evening) -> None:
    assert pay(evening, "Dan", "Ben", "10.25").status_code == 200
    assert progress(evening)[1] == ("Dan", "Ben", "33.50", "10.25", "23.25")


BAD = [
    ({"from": "Zed"}, 404, "no player named 'Zed' in this ledger"),
    ({"amount": "0"}, 400, "bad amount '0': an amount paid is a positive number such as 20 or 12.50"),
    ({"amount": "-5"}, 400, "bad amount '-5': an amount paid is a positive number such as 20 or 12.50"),
    ({"amount": "ten"}, 400, "bad amount 'ten': an amount paid is a positive number such as 20 or 12.50"),
    ({"amount": "1.234"}, 400, "bad amount '1.234': HKD has 2 decimal places"),
    ({"amount": 5.5}, 400, '"amount" must be a string'),
    ({"to": "Dan"}, 400, "Dan cannot pay Dan: the same player"),
    ({"currency": "TWD"}, 400, "session 1 is played in HKD, not TWD"),
    ({"tip": "1"}, 400, None),
]


@pytest.mark.parametrize(("change", "status", "message"), BAD)
def test_bad_payments_get_one_message_in_the_pages_language_and_write_nothing(
        evening, db: Path, change: dict, status: int, message: str | None) -> None:
    before = ledger_bytes(db)
    body = {"session": 1, "from": "Dan", "to": "陳大文", "amount": "5", **change}
    for lang in ("en", "zh_Hant", "zh_Hans"):
        answer = evening.post(f"/api/pay?lang={lang}", json=body,
                              headers={**KEEP, "Idempotency-Key": str(uuid.uuid4())})
        assert answer.status_code == status, answer.text
        said = answer.json()["message"]
        assert said and "\n" not in said and "bigtwo" not in said
        if lang == "en":
            assert message is None or said == message
        else:  # in the page's language
            assert any("\u3400" <= ch <= "\u9fff" for ch in said), said
    assert ledger_bytes(db) == before
    assert cli_json(db, "payments", "list") == []


def test_unpay_takes_a_payment_back_once(evening, db: Path) -> None:
    paid = pay(evening, "Cat", "陳大文", "8.50").json()["payment"]
    key = str(uuid.uuid4())
    body = {"session": 1, "payment": paid["uuid"]}
    first = write(evening, "unpay", body, key=key)
    assert first.status_code == 200, first.text
    assert first.json()["undone"]["uuid"] == paid["uuid"]
    again = write(evening, "unpay", body, key=key)
    assert again.status_code == 200 and again.json() == first.json()
    assert cli_json(db, "payments", "list") == []
    assert progress(evening) == [(a, b, x, "0.00", x) for a, b, x in PLAN]
    before = ledger_bytes(db)
    assert write(evening, "unpay", body).status_code == 404  # taken back already: a new key
    assert write(evening, "unpay", {"session": 1, "payment": "nope"}).status_code == 404
    assert ledger_bytes(db) == before


def test_the_viewer_cannot_pay(evening, db: Path) -> None:
    before = ledger_bytes(db)
    answer = write(evening, "pay", {"session": 1, "from": "Dan", "to": "Ben", "amount": "1"},
                   headers=VIEW)
    assert answer.status_code == 403
    assert ledger_bytes(db) == before
