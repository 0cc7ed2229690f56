"""A new ledger is made from one schema script (ledger/storage/schema_script.py, run by
ledger/storage/fresh.py); the migrations run only on older files.  The script must be
exactly what the migrations make: a migration added without the script written again
(python scripts/make_schema.py) fails here, and so does any difference between a new
ledger and a migrated one, in any table, column, index, trigger, view or pragma."""

from __future__ import annotations

import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from helpers import DATA

from ledger.storage import schema_script
from ledger.storage.fresh import create_from_script, script_current
from ledger.storage.schema import (
    APPLICATION_ID,
    SCHEMA_VERSION,
    check_and_migrate,
    migrations,
    sqlite_utils_module,
)
from ledger.storage.schema_check import schema_differences
from ledger.storage.store import open_ledger

ROOT = Path(__file__).resolve().parents[2]


def _migrated(path: Path) -> None:
    """A new ledger at ``path`` made by every migration, as before the script."""
    conn = sqlite3.connect(path, isolation_level=None)
    try:
        conn.execute("PRAGMA foreign_keys = ON")
        check_and_migrate(sqlite_utils_module().Database(conn, strict=True,
                                                         execute_plugins=False), str(path))
    finally:
        conn.close()


def shape(path: Path) -> dict[str, Any]:
    """Everything of a file's schema SQLite tells: every object's SQL as written, each
    table's columns, indexes and foreign keys, each index's columns, the pragmas, the
    migrations recorded as applied (in order), and the rows of every other table."""
    conn = sqlite3.connect(path)
    try:
        master = sorted(conn.execute("SELECT type, name, tbl_name, sql FROM sqlite_master"),
                        key=lambda r: (r[0], r[1]))
        tables = [name for kind, name, _t, _s in master if kind == "table"]
        indexes = [name for kind, name, _t, _s in master if kind == "index"]
        out: dict[str, Any] = {
            "master": master,
            "user_version": conn.execute("PRAGMA user_version").fetchone()[0],
            "application_id": conn.execute("PRAGMA application_id").fetchone()[0],
            "migrations": conn.execute(
                "SELECT migration_set, name FROM _sqlite_migrations ORDER BY rowid").fetchall(),
        }
        for table in tables:
            quoted = '"' + table + '"'
            out[f"columns {table}"] = conn.execute(f"PRAGMA table_xinfo({quoted})").fetchall()
            out[f"indexes {table}"] = sorted(conn.execute(f"PRAGMA index_list({quoted})"))
            out[f"keys {table}"] = conn.execute(f"PRAGMA foreign_key_list({quoted})").fetchall()
            if table != "_sqlite_migrations":
                out[f"rows {table}"] = conn.execute(f"SELECT * FROM {quoted}").fetchall()
        for index in indexes:
            out[f"index {index}"] = conn.execute(f'PRAGMA index_xinfo("{index}")').fetchall()
        return out
    finally:
        conn.close()


def test_the_script_is_written_from_the_migrations_as_they_are():
    done = subprocess.run([sys.executable, str(ROOT / "scripts" / "make_schema.py"), "--check"],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert script_current()
    assert list(schema_script.MIGRATIONS) == [m.name for m in migrations()._migrations]
    assert schema_script.VERSION == SCHEMA_VERSION


def test_a_new_ledger_is_exactly_a_fully_migrated_one(tmp_path):
    new, old = tmp_path / "new.db", tmp_path / "migrated.db"
    open_ledger(new).close()
    _migrated(old)
    made, migrated = shape(new), shape(old)
    assert made.keys() == migrated.keys()
    for key in made:
        assert made[key] == migrated[key], key
    assert made["user_version"] == SCHEMA_VERSION
    assert made["application_id"] == APPLICATION_ID
    assert len(made["migrations"]) == SCHEMA_VERSION


def test_a_new_ledger_has_nothing_left_to_migrate_and_the_doctor_agrees(tmp_path):
    path = tmp_path / "new.db"
    with open_ledger(path) as ledger:
        assert migrations().pending(ledger.db) == []
        assert schema_differences(ledger.conn) == []
    with open_ledger(path) as again:  # opened again: still nothing to do
        assert again.conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION


@pytest.mark.parametrize("fixture", ["ledger_v1.db", "ledger_v4.db"])
def test_an_upgraded_old_ledger_has_the_schema_of_a_new_one(tmp_path, fixture):
    old, new = tmp_path / fixture, tmp_path / "new.db"
    shutil.copyfile(DATA / fixture, old)
    open_ledger(old).close()
    open_ledger(new).close()
    upgraded, made = shape(old), shape(new)
    for key in ("user_version", "application_id", "migrations"):
        assert upgraded[key] == made[key], key
    assert {k: v for k, v in upgraded.items() if k.startswith(("columns", "keys", "index "))} == \
        {k: v for k, v in made.items() if k.startswith(("columns", "keys", "index "))}
    conn = sqlite3.connect(old)
    try:
        assert schema_differences(conn) == []
    finally:
        conn.close()


def test_a_new_ledger_imports_no_sqlite_utils(tmp_path):
    code = ("import sys; from ledger.storage.store import open_ledger; "
            f"open_ledger({str(tmp_path / 'new.db')!r}).close(); "
            "print('sqlite_utils' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_a_script_behind_the_migrations_is_not_used(tmp_path, monkeypatch):
    """A migration added, the script not written again: a new ledger is still made, by
    the migrations, and is the same."""
    monkeypatch.setattr(schema_script, "VERSION", SCHEMA_VERSION - 1)
    assert not script_current()
    path = tmp_path / "new.db"
    open_ledger(path).close()
    monkeypatch.undo()
    other = tmp_path / "script.db"
    open_ledger(other).close()
    assert shape(path)["master"] == shape(other)["master"]


def test_the_script_writes_nothing_into_a_file_that_is_not_empty(tmp_path):
    path = tmp_path / "other.db"
    conn = sqlite3.connect(path, isolation_level=None)
    try:
        conn.execute("CREATE TABLE notes (x TEXT)")
        assert create_from_script(conn) is False
        assert [r[0] for r in conn.execute("SELECT name FROM sqlite_master")] == ["notes"]
        assert conn.execute("PRAGMA user_version").fetchone()[0] == 0
        assert not conn.in_transaction
    finally:
        conn.close()
