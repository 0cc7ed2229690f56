"""Each player's way to be paid (issue 31): ``bigtwo player pay-id`` and ``player list``,
kept append-only by uuid, personal data (never in a share text, exported only with
``--with-pay-ids``, carried by backup and restore), and the payment code ``settle
--json`` and ``settle --qr`` give each of the fewest payments whose payee has a pay id
fitting the session's currency."""

from __future__ import annotations

import json
import sqlite3
from decimal import Decimal

import pytest
import segno

from ledger.book import pay_ids
from ledger.core.errors import KeyReused
from ledger.storage.store import open_ledger
from tests.core.test_paycode import spec_decode
from tests.helpers import file_digest

NUMERIC = {"HKD": "344", "SGD": "702", "THB": "764", "CNY": "156"}


def _evening(cli, currency: str = "HKD") -> None:
    """The evening of docs/money.md: Cat → Ann 8.50, Dan → Ann 21.00, Dan → Ben 33.50."""
    cli.ok("session", "start", "--players", "Ann,Ben,Cat,Dan", "--stake", "0.5",
           "--currency", currency)
    cli.ok("deal", "0", "3", "11", "8")
    cli.ok("deal", "5", "0", "2", "13")


def _settle(cli, *args: str) -> dict:
    return json.loads(cli.ok("settle", "--json", *args))


def test_pay_id_set_listed_replaced_and_removed(cli) -> None:
    _evening(cli)
    assert cli.ok("player", "pay-id", "ben", "FPS", "+852 9123-4567").strip() == (
        "Ben is paid by fps +85291234567")
    cli.ok("player", "pay-id", "Ann", "text", "https://qr.alipay.com/abc")
    cli.ok("player", "pay-id", "Ben", "fps", "1234567")  # replaces the mobile number
    listed = json.loads(cli.ok("player", "list", "--json"))
    assert listed == [
        {"name": "Ann", "pay_ids": [{"scheme": "text", "kind": "text",
                                     "id": "https://qr.alipay.com/abc"}]},
        {"name": "Ben", "pay_ids": [{"scheme": "fps", "kind": "fps_id", "id": "1234567"}]},
        {"name": "Cat", "pay_ids": []}, {"name": "Dan", "pay_ids": []}]
    text = cli.ok("player", "list")
    assert "fps 1234567" in text and "text https://qr.alipay.com/abc" in text
    assert cli.ok("player", "pay-id", "Ben", "fps", "--remove").strip() == (
        "removed Ben's fps pay id")
    assert json.loads(cli.ok("player", "list", "--json"))[1]["pay_ids"] == []


@pytest.mark.parametrize(("args", "says"), [
    (("Ben", "fps", "12345"), "not a valid fps id"),
    (("Ben", "paynow", "+65 7123 4567"), "starting 8 or 9"),
    (("Ben", "promptpay", "1111111111111"), "check digit"),
    (("Ben", "venmo", "@ben"), "unknown payment scheme"),
    (("Nobody", "fps", "1234567"), "no player named"),
    (("Ben", "fps"), "give the ID to keep, or --remove"),
    (("Ben", "fps", "1234567", "--remove"), "not both"),
    (("Ben", "paynow", "--remove"), "Ben has no paynow pay id"),
])
def test_bad_pay_ids_change_nothing(cli, ledger_path, args, says) -> None:
    _evening(cli)
    before = file_digest(ledger_path)
    err = cli.fails("player", "pay-id", *args)
    assert err.startswith("error: ") and says in err and len(err.strip().splitlines()) <= 2
    assert file_digest(ledger_path) == before


def test_pay_ids_are_append_only_and_idempotent_by_uuid(cli, ledger_path) -> None:
    _evening(cli)
    key = "0b6a9f9e-4c1b-4a8e-9a57-5f3b1c2d3e4f"
    with open_ledger(ledger_path) as ledger:
        first = pay_ids.set_pay_id(ledger, "Ben", "paynow", "+6591234567", key)
        again = pay_ids.set_pay_id(ledger, "Ben", "paynow", "+6591234567", key)  # a retry
        assert first.pay_id == again.pay_id and ledger.pay_ids.count() == 1
        with pytest.raises(KeyReused):
            pay_ids.set_pay_id(ledger, "Ben", "paynow", "+6598765432", key)
        assert ledger.pay_ids.count() == 1
    conn = sqlite3.connect(ledger_path)
    with pytest.raises(sqlite3.IntegrityError, match="append-only"):
        conn.execute("UPDATE pay_ids SET value = '+6580000000'")
    with pytest.raises(sqlite3.IntegrityError, match="append-only"):
        conn.execute("DELETE FROM pay_ids")
    conn.close()


def test_a_merged_name_is_paid_under_the_player_it_counts_as(cli) -> None:
    cli.ok("session", "start", "--players", "Ann,Ben,Cat,Dan", "--currency", "HKD")
    cli.ok("deal", "0", "3", "11", "8")
    cli.ok("session", "start", "--players", "Anne,Eve,Fay,Gus", "--currency", "HKD")
    cli.ok("player", "pay-id", "Anne", "fps", "7654321")
    cli.ok("player", "merge", "Anne", "--into", "Ann")
    listed = {p["name"]: p["pay_ids"] for p in json.loads(cli.ok("player", "list", "--json"))}
    assert "Anne" not in listed and listed["Ann"][0]["id"] == "7654321"


@pytest.mark.parametrize(("currency", "scheme", "typed", "template", "sub", "proxy"), [
    ("HKD", "fps", "+85291234567", "26", "03", "+852-91234567"),
    ("CNY", "fps", "ann@example.com", "26", "04", "ann@example.com"),
    ("SGD", "paynow", "+65 9123 4567", "26", "02", "+6591234567"),
    ("THB", "promptpay", "0812345678", "29", "01", "0066812345678"),
])
def test_settle_json_carries_codes_an_independent_parser_reads(
        cli, currency, scheme, typed, template, sub, proxy) -> None:
    _evening(cli, currency)
    cli.ok("player", "pay-id", "Ann", scheme, typed)
    cli.ok("player", "pay-id", "Ben", "text", "weixin://pay/ben")
    payments = _settle(cli)["payments"]
    assert [(p["from"], p["to"], p["amount"]) for p in payments] == [
        ("Cat", "Ann", "8.50"), ("Dan", "Ann", "21.00"), ("Dan", "Ben", "33.50")]
    assert payments[2]["pay_code"] == {"scheme": "text", "payload": "weixin://pay/ben"}
    for p in payments[:2]:
        assert p["pay_code"]["scheme"] == scheme
        got = spec_decode(p["pay_code"]["payload"])
        assert got["crc_ok"] == "yes"
        assert spec_decode(got[template] + "63040000")[sub] == proxy
        assert (got["53"], got["54"], got["59"]) == (NUMERIC[currency], p["amount"], "Ann")


def test_codes_only_for_a_fitting_scheme_and_the_outstanding_rounded_amount(cli) -> None:
    _evening(cli, "HKD")
    cli.ok("player", "pay-id", "Ben", "paynow", "91234567")  # SGD only: no code in HKD
    cli.ok("player", "pay-id", "Ann", "fps", "1234567")
    cli.ok("paid", "Dan", "Ann", "20")  # 1.00 of Dan → Ann still outstanding
    st = _settle(cli, "--round", "1")
    payments = st["payments"]
    assert "pay_code" not in payments[2]
    codes = {(p["from"], p["to"]): spec_decode(p["pay_code"]["payload"])["54"]
             for p in payments if "pay_code" in p}
    outstanding = {(p["from"], p["to"]): p["outstanding"] for p in st["progress"]}
    assert codes == {k: outstanding[k] for k in [("Cat", "Ann"), ("Dan", "Ann")]}
    assert codes[("Cat", "Ann")] == "9.00"  # rounded to the coin (largest remainder)
    assert codes[("Dan", "Ann")] == "1.00"


def test_pay_ids_stay_out_of_shares_and_exports_unless_asked(cli, tmp_path) -> None:
    _evening(cli)
    cli.ok("player", "pay-id", "Ann", "fps", "+85291234567")
    for fmt in ("text", "markdown", "table"):
        assert "91234567" not in cli.ok("settle", "--format", fmt)
    plain = cli.ok("export", "--all")
    assert "91234567" not in plain and "pay_ids" not in json.loads(plain)
    full = json.loads(cli.ok("export", "--all", "--with-pay-ids"))
    assert [(r["kind"], r["player"], r["scheme"], r["id"]) for r in full["pay_ids"]] == [
        ("set", "Ann", "fps", "+85291234567")]
    assert "with-pay-ids is for --format json" in cli.fails(
        "export", "--all", "--format", "csv", "--with-pay-ids")


def test_backup_and_restore_carry_pay_ids(cli, tmp_path) -> None:
    _evening(cli)
    cli.ok("player", "pay-id", "Ann", "promptpay", "1101700207366")
    copy = tmp_path / "copy.db"
    cli.ok("backup", str(copy))
    cli.ok("player", "pay-id", "Ann", "promptpay", "--remove")
    cli.ok("restore", str(copy))
    assert json.loads(cli.ok("player", "list", "--json"))[0]["pay_ids"] == [
        {"scheme": "promptpay", "kind": "national_id", "id": "1101700207366"}]


def _modules(lines: list[str]) -> list[list[bool]]:
    top = {"█": (1, 1), "▀": (1, 0), "▄": (0, 1), " ": (0, 0)}
    rows: list[list[bool]] = []
    for line in lines:
        pairs = [top[c] for c in line]
        rows += [[bool(a) for a, _ in pairs], [bool(b) for _, b in pairs]]
    return rows


def test_settle_qr_draws_each_code_in_80_columns(cli) -> None:
    _evening(cli, "HKD")
    cli.ok("player", "pay-id", "Ann", "fps", "ann.long.address@example.com.hk")
    out = cli.ok("settle", "--qr")
    payload = _settle(cli)["payments"][0]["pay_code"]["payload"]
    lines = out.splitlines()
    assert lines[0] == "Cat pays Ann 8.50 HKD · FPS (Hong Kong)"
    assert max(len(x) for x in lines) <= 80
    drawn = lines[1:lines.index("", 1)]
    expected = [[bool(m) for m in r] for r in
                segno.make(payload, error="m").matrix_iter(scale=1, border=2)]
    assert _modules(drawn)[:len(expected)] == expected
    assert "Dan pays Ben 33.50 HKD" in out and "no pay id of Ben for HKD" in out
    assert "--qr draws the codes on its own" in cli.fails("settle", "--qr", "--json")


def test_a_payment_code_amount_is_never_zero(cli) -> None:
    _evening(cli)
    cli.ok("player", "pay-id", "Ann", "fps", "1234567")
    cli.ok("paid", "Cat", "Ann", "8.50")
    payments = _settle(cli)["payments"]
    assert "pay_code" not in payments[0] and "pay_code" in payments[1]
    assert Decimal(spec_decode(payments[1]["pay_code"]["payload"])["54"]) == Decimal("21.00")


def test_the_longest_receive_code_fits_80_columns_and_a_narrow_terminal_is_told(
        cli, monkeypatch) -> None:
    _evening(cli)
    longest = "https://pay.example/" + "x" * 280  # TEXT_MAX bytes
    cli.ok("player", "pay-id", "Ann", "text", longest)
    assert "at most 300 characters" in cli.fails("player", "pay-id", "Ben", "text", longest + "y")
    assert "at most 300 characters" in cli.fails("player", "pay-id", "Ben", "text", "付" * 101)
    out = cli.ok("settle", "--qr")
    drawn = [x for x in out.splitlines() if x.strip() and set(x) <= set(" █▀▄")]
    assert drawn and max(len(x) for x in drawn) <= 80
    monkeypatch.setenv("COLUMNS", "60")
    narrow = cli.ok("settle", "--qr")
    assert "█" not in narrow and "(the code needs a terminal 73 columns wide)" in narrow


def test_an_export_with_pay_ids_imports_them_once(cli, tmp_path) -> None:
    _evening(cli)
    cli.ok("session", "start", "--players", "Eve,Fay,Gus,Hal", "--currency", "SGD")
    cli.ok("player", "pay-id", "Ann", "fps", "1234567")
    cli.ok("player", "pay-id", "Ann", "text", "weixin://ann")
    cli.ok("player", "pay-id", "Ann", "text", "--remove")
    cli.ok("player", "pay-id", "Eve", "paynow", "91234567")
    full, first = tmp_path / "full.json", tmp_path / "first.json"
    cli.ok("export", "--all", "--with-pay-ids", "--out", str(full))
    cli.ok("export", "--session", "1", "--with-pay-ids", "--out", str(first))
    assert {r["player"] for r in json.loads(first.read_text())["pay_ids"]} == {"Ann"}
    other = tmp_path / "other.db"
    said = cli.ok("--db", str(other), "import", str(full))
    assert "4 pay ids added" in said
    listed = {p["name"]: p["pay_ids"] for p in
              json.loads(cli.ok("--db", str(other), "player", "list", "--json"))}
    assert listed["Ann"] == [{"scheme": "fps", "kind": "fps_id", "id": "1234567"}]
    assert listed["Eve"] == [{"scheme": "paynow", "kind": "mobile", "id": "+6591234567"}]
    before = file_digest(other)
    assert "pay ids added" not in cli.ok("--db", str(other), "import", str(full))
    assert file_digest(other) == before


@pytest.mark.parametrize(("change", "says"), [
    (lambda r: r.update(id="12"), "not a valid fps id"),
    (lambda r: r.update(scheme="venmo"), "scheme must be one of"),
    (lambda r: r.update(player="Zed"), "is for player 'Zed', who is neither in the file"),
])
def test_a_bad_pay_id_in_a_file_imports_nothing(cli, tmp_path, change, says) -> None:
    _evening(cli)
    cli.ok("player", "pay-id", "Ann", "fps", "1234567")
    data = json.loads(cli.ok("export", "--all", "--with-pay-ids"))
    change(data["pay_ids"][0])
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    other = tmp_path / "other.db"
    assert says in cli.fails("--db", str(other), "import", str(path))
    assert not other.exists() or json.loads(
        cli.ok("--db", str(other), "player", "list", "--json")) == []


def test_a_pay_id_uuid_with_other_facts_is_refused(cli, tmp_path, ledger_path) -> None:
    _evening(cli)
    cli.ok("player", "pay-id", "Ann", "fps", "1234567")
    data = json.loads(cli.ok("export", "--all", "--with-pay-ids"))
    data["pay_ids"][0]["id"] = "7654321"
    path = tmp_path / "changed.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    before = file_digest(ledger_path)
    assert "with other facts; nothing was imported" in cli.fails("import", str(path))
    assert file_digest(ledger_path) == before


def test_a_backup_with_a_damaged_pay_id_is_not_restored(cli, tmp_path, ledger_path) -> None:
    _evening(cli)
    cli.ok("player", "pay-id", "Ann", "fps", "1234567")
    copy = tmp_path / "copy.db"
    cli.ok("backup", str(copy))
    conn = sqlite3.connect(copy)
    conn.execute("DROP TRIGGER pay_ids_no_update")
    conn.execute("UPDATE pay_ids SET value = '12'")  # no FPS id
    conn.commit()
    conn.close()
    before = file_digest(ledger_path)
    err = cli.fails("restore", str(copy))
    assert "pay id" in err and "is damaged" in err and "nothing was" in err
    assert file_digest(ledger_path) == before
