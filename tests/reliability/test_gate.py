"""One gate for every way an action enters (issue 30): a payment, a correction and a key
are refused alike from the command line, a file, a sync and a restore; a restore keeps
every payment and season; a bad value an older version let in still reports."""

from __future__ import annotations

import json
import sqlite3
import uuid
from pathlib import Path

import pytest

from ledger.storage.store import open_ledger

DEALS = ("Ann=0 Ben=3 Cat=5 Dan=8", "Ann=2 Ben=0 Cat=1 Dan=5")


@pytest.fixture
def two(cli, ledger_path: Path) -> Path:
    """Session 1 (USD: Ann Ben Cat Dan) and session 2 (HKD: Ann Ben Cat Eve), a deal each,
    Cat paid Ann 2.00 in session 1, and a season."""
    cli.ok("session", "start", "--players", "Ann,Ben,Cat,Dan", "--currency", "USD")
    cli.ok("deal", *DEALS[0].split())
    cli.ok("paid", "Cat", "Ann", "2", "--session", "1")
    cli.ok("session", "start", "--players", "Ann,Ben,Cat,Eve", "--currency", "HKD")
    cli.ok("deal", *DEALS[1].replace("Dan", "Eve").split())
    cli.ok("season", "add", "winter", "--since", "2024-01-01")
    return ledger_path


def owed(cli) -> dict:
    return json.loads(cli.ok("owed", "--json"))


def payments(cli) -> list:
    return json.loads(cli.ok("payments", "list", "--json"))


def export(cli, path: Path) -> dict:
    cli.ok("export", "--all", "--out", str(path))
    return json.loads(path.read_text(encoding="utf-8"))


def write(path: Path, data: dict) -> Path:
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def ledger_rows(db: Path) -> dict[str, int]:
    conn = sqlite3.connect(db)
    try:
        names = [r[0] for r in conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")]
        return {n: conn.execute(f'SELECT COUNT(*) FROM "{n}"').fetchone()[0] for n in names}
    finally:
        conn.close()


# --- restore carries everything ------------------------------------------------------------


def test_a_restore_keeps_every_payment_and_season_and_owed_agrees(cli, two, tmp_path):
    before_owed, before_paid = owed(cli), payments(cli)
    seasons = cli.ok("season", "list")
    assert len(before_paid) == 1
    cli.ok("backup", str(tmp_path / "b.db"))
    cli.ok("restore", str(tmp_path / "b.db"))
    assert payments(cli) == before_paid
    assert owed(cli) == before_owed
    assert cli.ok("season", "list") == seasons


# Tables whose rows a restore derives again (from the facts), or that belong to this file
# and not to what it records: everything else is the ledger's record, carried row for row.
DERIVED = {"points", "session_totals", "session_flows", "derived_marks", "deal_stats",
           "ratings", "audit", "_sqlite_migrations", "settings"}


def test_every_table_of_the_schema_is_carried_by_backup_and_restore(cli, two, tmp_path):
    """Generic over the schema: a table a later migration adds fails here until a
    restore carries it (or it is listed above as derived, with its reason)."""
    cli.ok("player", "rename", "Eve", "Eva")
    cli.ok("payments", "undo")
    cli.ok("paid", "Ben", "Dan", "1.50", "--session", "1")
    cli.ok("player", "pay-id", "Ann", "fps", "1234567")
    from ledger.engine import dispatch

    with open_ledger(two) as ledger:  # a sync's import keeps its key
        text = dispatch.call(ledger, "export", {})["text"]
        dispatch.call(ledger, "import", {"text": text, "name": "a.json", "key": str(uuid.uuid4())})
    original = ledger_rows(two)
    cli.ok("backup", str(tmp_path / "b.db"))
    assert ledger_rows(tmp_path / "b.db") == original  # the backup is a copy, every table
    cli.ok("restore", str(tmp_path / "b.db"))
    restored = ledger_rows(two)
    assert set(restored) == set(original)
    for table in sorted(set(original) - DERIVED):
        assert original[table] > 0, f"fill {table} in this test"
        assert restored[table] == original[table], f"restore does not carry {table}"


def test_a_restore_over_a_newer_ledger_lists_what_the_kept_copy_has_more(cli, two, tmp_path):
    cli.ok("backup", str(tmp_path / "b.db"))
    cli.ok("paid", "Dan", "Ann", "3", "--session", "1")
    cli.ok("deal", *DEALS[1].replace("Dan", "Eve").split())
    out = cli.ok("restore", str(tmp_path / "b.db"))
    assert "before-restore-" in out
    assert "1 payment" in out and "1 entry" in out, out
    assert len(payments(cli)) == 1


def test_a_restore_runs_the_full_check(cli, two, tmp_path, monkeypatch):
    """doctor --full's check (SQLite's integrity_check), whatever the plain doctor does."""
    from ledger.book import doctor

    asked: list[bool] = []
    real = doctor.check_ledger

    def spy(ledger, full=False, schema=True, derive_all=None):
        asked.append(full)
        return real(ledger, full, schema, derive_all)

    monkeypatch.setattr(doctor, "check_ledger", spy)
    cli.ok("backup", str(tmp_path / "b.db"))
    cli.ok("restore", str(tmp_path / "b.db"))
    assert asked[-1] is True  # the restored ledger, checked in full before it replaces


def test_an_import_of_a_backup_merges_it_after_the_full_check(cli, two, tmp_path, monkeypatch):
    from ledger.book import doctor

    cli.ok("backup", str(tmp_path / "b.db"))
    other = str(tmp_path / "other.db")
    asked: list[bool] = []
    real = doctor.check_ledger

    def spy(ledger, full=False, schema=True, derive_all=None):
        asked.append(full)
        return real(ledger, full, schema, derive_all)

    monkeypatch.setattr(doctor, "check_ledger", spy)
    out = cli.ok("--db", other, "import", str(tmp_path / "b.db"))
    assert "1 payment added" in out and True in asked
    assert json.loads(cli.ok("--db", other, "payments", "list", "--json")) == payments(cli)
    assert "nothing new" in cli.ok("--db", other, "import", str(tmp_path / "b.db"))


def test_a_backup_holding_a_bad_payment_is_neither_restored_nor_imported(cli, two, tmp_path):
    with open_ledger(two) as ledger, ledger.writing():
        ids = ledger.journal.shown_ids()
        ledger.payments.add(ids["Dan"], ids["Ann"], "4.00", "USD", 1, None, str(uuid.uuid4()),
                            "not a date")
    cli.ok("backup", str(tmp_path / "b.db"))
    other = tmp_path / "other.db"
    err = cli.fails("--db", str(other), "restore", str(tmp_path / "b.db"))
    assert "not an ISO date" in err and not other.exists()
    err = cli.fails("--db", str(other), "import", str(tmp_path / "b.db"))
    assert "not an ISO date" in err and "Traceback" not in err


# --- payments at the gate --------------------------------------------------------------------


def crafted(cli, two: Path, tmp_path: Path) -> tuple[dict, list[str]]:
    """An export of ``two`` with one bad payment of each kind added, and their uuids."""
    data = export(cli, tmp_path / "all.json")
    s1, s2 = data["sessions"][0]["uuid"], data["sessions"][1]["uuid"]
    deal_uuid = next(e["uuid"] for e in data["sessions"][0]["entries"] if e["kind"] == "deal")
    base = {"kind": "payment", "at": "2026-01-02T03:04:05+00:00", "note": None}
    bad = [
        {"from": "Eve", "to": "Ann", "amount": "1.00", "currency": "USD", "session": s1},  # not seated
        {"from": "Cat", "to": "Ann", "amount": "1.00", "currency": "HKD", "session": s1},  # currency
        {"from": "Cat", "to": "Ann", "amount": "1" + "0" * 30, "currency": "USD", "session": s1},
        {"from": "Cat", "to": "Ann", "amount": "0.0001", "currency": "USD", "session": s1},
        {"from": "Cat", "to": "Cat", "amount": "1.00", "currency": "USD", "session": s1},  # oneself
        {"from": "Cat", "to": "Ann", "amount": "1.00", "currency": "USD", "session": s1,
         "uuid": deal_uuid},  # a deal's uuid
        {"from": "Cat", "to": "Ann", "amount": "1.00", "currency": "USD", "session": s1,
         "at": "not a date"},
        {"from": "Cat", "to": "Ann", "amount": "1.00", "currency": "USD", "session": s2,
         "at": "9999-12-31T23:59:59+00:00"},
    ]
    rows = [{"uuid": str(uuid.uuid4()), **base, **b} for b in bad]
    data["payments"] += rows
    return data, [r["uuid"] for r in rows]


def test_a_crafted_file_of_bad_payments_is_refused_whole_one_line_each(cli, two, tmp_path):
    data, uuids = crafted(cli, two, tmp_path)
    before = ledger_rows(two)
    err = cli.fails("import", str(write(tmp_path / "bad.json", data)))
    lines = err.strip().split("\n")
    assert len(lines) == len(uuids), err
    assert all(line.startswith("error: bad.json: payments[") for line in lines), err
    assert "Traceback" not in err and "CHECK" not in err and "constraint" not in err
    for needle in ("did not play in session", "is played in USD, not HKD", "bad amount",
                   "decimal places", "the same player", "one uuid names one action",
                   "not an ISO date", "outside the dates"):
        assert needle in err, needle
    assert ledger_rows(two) == before
    assert "ok" in cli.ok("doctor", "--full")


@pytest.mark.parametrize("amount", ["1" + "0" * 30, "0.0001", "1e3"])
def test_paid_refuses_what_the_import_refuses(cli, two, amount):
    assert "bad amount" in cli.fails("paid", "Cat", "Ann", amount, "--session", "1")


def test_a_payment_time_an_older_version_let_in_still_reports(cli, two, tmp_path):
    """Written past the gate (as an older version did): every report still runs, the
    doctor names it, and the documented reversal (payments undo) makes it harmless."""
    with open_ledger(two) as ledger, ledger.writing():
        ids = ledger.journal.shown_ids()
        bad = ledger.payments.add(ids["Dan"], ids["Ann"], "4.00", "USD", 1, None,
                                  str(uuid.uuid4()), "not a date")
    assert any(p["uuid"] == bad and p["date"] == "?" for p in payments(cli))
    cli.ok("payments", "list")
    cli.ok("owed", "--since", "2024-01-01")
    cli.ok("owed", "--json")
    doctor = cli("doctor", "--full")
    assert doctor.exit_code == 1 and bad in doctor.stdout and "not an ISO date" in doctor.stdout
    cli.ok("payments", "undo", bad)
    assert "ok" in cli.ok("doctor", "--full")
    data = export(cli, tmp_path / "again.json")  # its own export imports again
    assert bad not in json.dumps(data["payments"])


@pytest.mark.parametrize(("payer", "payee", "amount", "currency", "found"), [
    ("Dan", "Ann", "0.0001", "USD", "decimal places"),
    ("Dan", "Ann", "1" + "0" * 30 + ".00", "USD", "bad amount"),
    ("Eve", "Ann", "1.00", "USD", "did not play in session 1"),
    ("Dan", "Ann", "1.00", "HKD", "is played in USD, not HKD"),
])
def test_a_payment_an_older_version_let_in_is_named_and_undone(cli, two, payer, payee, amount,
                                                               currency, found):
    with open_ledger(two) as ledger, ledger.writing():
        ids = ledger.journal.shown_ids()
        bad = ledger.payments.add(ids[payer], ids[payee], amount, currency, 1, None,
                                  str(uuid.uuid4()), "2026-01-02T03:04:05+00:00")
    for report in (("payments", "list"), ("payments", "list", "--json"), ("owed",),
                   ("owed", "--since", "2024-01-01"), ("settle", "--session", "1", "--json")):
        cli.ok(*report)
    doctor = cli("doctor", "--full")
    assert doctor.exit_code == 1 and found in doctor.stdout and bad in doctor.stdout
    assert f"bigtwo payments undo {bad}" in doctor.stdout
    cli.ok("payments", "undo", bad)
    assert "ok" in cli.ok("doctor", "--full")


# --- corrections and keys ----------------------------------------------------------------------


def test_a_correction_naming_another_sessions_deal_is_refused(cli, two, tmp_path):
    data = export(cli, tmp_path / "all.json")
    first = next(e for e in data["sessions"][0]["entries"] if e["kind"] == "deal")
    data["sessions"][1]["entries"].append({
        "uuid": str(uuid.uuid4()), "kind": "void", "deal": 1, "facts": None, "seq": 99,
        "at": "2026-12-31T00:00:00+00:00", "deal_uuid": first["uuid"]})
    before = ledger_rows(two)
    err = cli.fails("import", str(write(tmp_path / "bad.json", data)))
    assert "another session" in err and "sessions[1].entries[" in err, err
    assert ledger_rows(two) == before


@pytest.mark.parametrize("into", ["the ledger", "a new ledger"])
def test_a_files_session_or_entry_uuid_that_names_another_kind_is_refused(cli, two, tmp_path, into):
    """Into a new ledger no uuid is looked up (every one the ledger will hold is the
    file's own, compared in memory: Gate's one_transaction): refused all the same."""
    data = export(cli, tmp_path / "all.json")
    pay = data["payments"][0]["uuid"]
    data["sessions"][0]["entries"][1]["uuid"] = pay  # a deal under a payment's uuid
    new = dict(data["sessions"][1], uuid=data["sessions"][0]["entries"][0]["uuid"],
               entries=[])  # a session under an entry's uuid
    data["sessions"].append(new)
    db = ["--db", str(tmp_path / "new.db")] if into == "a new ledger" else []
    err = cli.fails(*db, "import", str(write(tmp_path / "bad.json", data)))
    assert err.count("one uuid names one action") >= 2, err
    if db:
        assert cli.ok(*db, "session", "list", "--json").strip() == "[]"  # nothing written


def test_every_kind_of_action_has_its_gate(ledger_path):
    """One registry: every table with uuids (a kind of action) names the checks its rows
    pass; a table a migration adds fails here until its checks are declared."""
    import importlib

    from ledger.book.gate import GATES

    with open_ledger(ledger_path) as ledger:
        assert set(GATES) == set(ledger.keys.tables)
    for checks in GATES.values():
        assert checks
        for path in checks:
            module, name = path.rsplit(".", 1)
            assert callable(getattr(importlib.import_module(module), name)), path


def test_a_pay_id_under_another_actions_uuid_is_refused(cli, two, tmp_path):
    """One uuid, one action: a file's pay id row may not take a deal's uuid."""
    cli.ok("player", "pay-id", "Ann", "fps", "1234567")
    data = export(cli, tmp_path / "e.json")
    cli.ok("export", "--all", "--with-pay-ids", "--out", str(tmp_path / "p.json"))
    data = json.loads((tmp_path / "p.json").read_text(encoding="utf-8"))
    deal_uuid = data["sessions"][0]["entries"][0]["uuid"]
    data["pay_ids"][0]["uuid"] = deal_uuid
    before = ledger_rows(two)
    err = cli.fails("import", str(write(tmp_path / "bad.json", data)))
    assert deal_uuid in err and "error:" in err
    assert ledger_rows(two) == before
