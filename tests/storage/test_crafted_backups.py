"""Crafted backups: `restore` never takes over a backup's schema (it rebuilds the
ledger from the rows, through the import's checks), refuses what is not a bigtwo
ledger, and `doctor` compares the whole schema by its SQL."""

from __future__ import annotations

import json
import os
import sqlite3
import time
from pathlib import Path

import pytest

from tests.helpers import file_digest

MONEY_TRIGGER = ("CREATE TRIGGER steal AFTER INSERT ON entries BEGIN "
                 "UPDATE sessions SET stake = '1000'; END")


@pytest.fixture
def played(cli, ledger_path):
    cli.ok("session", "start", "--players", "陳大文,李小明,Cat,Dan", "--stake", "0.5",
           "--currency", "HKD")
    for line in (("0", "3", "5", "9"), ("4", "0", "2", "11")):
        cli.ok("deal", *line)
    cli.ok("void", "1")
    cli.ok("amend", "2", "5", "0", "2", "11")
    return ledger_path


def _backup(cli, tmp_path, *sql: str, journal: str = "DELETE") -> Path:
    backup = tmp_path / "crafted.db"
    cli.ok("backup", str(backup))
    conn = sqlite3.connect(backup, isolation_level=None)
    for statement in sql:
        conn.execute(statement)
    conn.execute(f"PRAGMA journal_mode = {journal}")
    conn.close()
    return backup


def _schema(path: Path) -> set[tuple[str, str]]:
    conn = sqlite3.connect(path)
    try:
        return {(r[0], r[1]) for r in conn.execute("SELECT type, name FROM sqlite_master")}
    finally:
        conn.close()


def test_a_backup_with_a_money_trigger_restores_without_it(cli, played, tmp_path):
    before = cli.ok("standings", "--json")
    backup = _backup(cli, tmp_path, MONEY_TRIGGER)
    cli.ok("restore", str(backup))
    assert ("trigger", "steal") not in _schema(played)
    cli.ok("deal", "0", "1", "1", "1")
    [session] = json.loads(cli.ok("session", "list", "--json"))
    assert session["stake"] == "0.5"
    assert cli.ok("doctor", "--full").startswith("ok:")
    assert json.loads(before)["players"] != json.loads(cli.ok("standings", "--json"))["players"]


def test_a_restore_keeps_every_entry_and_standing(cli, played, tmp_path):
    log, standings = cli.ok("log", "--json"), cli.ok("standings", "--json")
    backup = _backup(cli, tmp_path)
    cli.ok("deal", "0", "1", "1", "1")  # after the backup: gone again once restored
    cli.ok("restore", str(backup))
    assert cli.ok("log", "--json") == log
    assert cli.ok("standings", "--json") == standings
    assert cli.ok("doctor", "--full").startswith("ok:")


@pytest.mark.parametrize("sql", [
    ("DROP TABLE session_totals",),
    ("DROP INDEX idx_entries_uuid",),
    ("DROP TRIGGER points_into_totals",),
    ("CREATE VIEW sessions_v AS SELECT * FROM sessions",),
])
def test_a_backup_with_a_damaged_schema_restores_to_a_working_ledger(cli, played, tmp_path, sql):
    standings = cli.ok("standings", "--json")
    backup = _backup(cli, tmp_path, *sql)
    cli.ok("restore", str(backup))
    assert cli.ok("standings", "--json") == standings
    cli.ok("deal", "0", "1", "1", "1")
    assert cli.ok("doctor", "--full").startswith("ok:")


@pytest.mark.parametrize(("make", "fragment"), [
    (lambda p: p.write_bytes(b""), "is empty (0 bytes)"),
    (lambda p: p.write_text("hello"), "not an SQLite database"),
    (lambda p: sqlite3.connect(p).execute("CREATE TABLE t (x)").connection.commit(),
     "another program"),
    (lambda p: sqlite3.connect(p).execute("PRAGMA user_version = 1").connection.commit(),
     "another program"),
])
def test_what_is_not_a_bigtwo_ledger_is_refused(cli, played, tmp_path, make, fragment):
    backup = tmp_path / "x.db"
    make(backup)
    before, backup_before = file_digest(played), backup.read_bytes()
    err = cli.fails("restore", str(backup), code=1)
    assert len(err.strip().splitlines()) == 1 and fragment in err and str(backup) in err
    assert file_digest(played) == before
    assert backup.read_bytes() == backup_before
    assert not [p for p in played.parent.iterdir() if p.name.startswith(".")]


def test_a_backup_whose_rows_do_not_pass_the_import_checks_is_refused(cli, played, tmp_path):
    backup = _backup(cli, tmp_path, "DROP TRIGGER entries_no_update",
                     "UPDATE entries SET facts = '{\"cards\": {\"陳大文\": 0, \"李小明\": 3, "
                     "\"Cat\": 5, \"Dan\": 9}, \"missed_call\": \"false\"}' WHERE seq = 1")
    before = file_digest(played)
    err = cli.fails("restore", str(backup), code=1)
    assert "missed_call must be true or false" in err or "self-check" in err
    assert file_digest(played) == before


def test_stale_temporary_files_of_killed_runs_are_removed(cli, played, tmp_path):
    folder = played.parent
    stale = [folder / f".{played.name}.restore-deadbeef.tmp",
             folder / f".{played.name}.restore-deadbeef.tmp-wal",
             folder / f".{played.stem}.before-restore-20250101T000000Z.db.cafe0123.tmp",
             tmp_path / ".b.db.0badf00d.tmp"]
    fresh = folder / f".{played.name}.restore-0000beef.tmp"  # a running restore's: kept
    old = time.time() - 3600
    for path in [*stale, fresh]:
        path.write_bytes(b"x" * 4096)
    for path in stale:
        os.utime(path, (old, old))
    backup = tmp_path / "b.db"
    cli.ok("backup", str(backup))
    cli.ok("restore", str(backup))
    assert [p for p in stale if p.exists()] == []
    assert fresh.exists()


# --- doctor: the whole schema ---------------------------------------------------------


def _doctor(cli) -> str:
    result = cli("doctor")
    assert result.exit_code == 1, result.output
    return result.stdout + result.stderr


def _alter(path: Path, *sql: str) -> None:
    conn = sqlite3.connect(path, isolation_level=None)
    for statement in sql:
        conn.execute(statement)
    conn.close()


def test_doctor_finds_a_guard_replaced_by_a_no_op_of_the_same_name(cli, played):
    _alter(played, "DROP TRIGGER points_no_update",
           "CREATE TRIGGER points_no_update BEFORE UPDATE ON points BEGIN SELECT 1; END")
    out = _doctor(cli)
    assert "trigger points_no_update" in out and "differs" in out


@pytest.mark.parametrize(("sql", "named"), [
    ((MONEY_TRIGGER,), "trigger steal"),
    (("DROP INDEX idx_entries_uuid",), "index idx_entries_uuid"),
    (("CREATE VIEW v AS SELECT 1",), "view v"),
    (("DROP TABLE ratings",), "table ratings"),
])
def test_doctor_names_each_schema_difference(cli, played, sql, named):
    _alter(played, *sql)
    assert named in _doctor(cli)
