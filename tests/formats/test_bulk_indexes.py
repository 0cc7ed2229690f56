"""A large sheet import builds the secondary indexes of entries and points once a
transaction (ledger.storage.bulk), inside it: the ledger keeps exactly the schema it had
(every index and trigger, with the same SQL) whether the import commits, is interrupted
or is killed, and holds the same rows as an import that kept the indexes row by row."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import ROOT, write_sheet

from ledger.book.doctor import check_ledger
from ledger.formats.exchange import import_file
from ledger.storage.bulk import BulkImport
from ledger.storage.store import open_ledger

SECONDARY = {  # the indexes that are built in bulk (the UNIQUE ones stay)
    "idx_entries_deal_order", "idx_entries_order", "idx_entries_session_actions",
    "idx_points_entry_id", "idx_points_player_id", "idx_points_payee_id",
    "idx_points_session_id",
}


def master(db: Path) -> set[tuple[str, str, str, str | None]]:
    """Every row of sqlite_master but its root page: type, name, table and SQL."""
    conn = sqlite3.connect(db)
    try:
        return set(conn.execute("SELECT type, name, tbl_name, sql FROM sqlite_master"))
    finally:
        conn.close()


def fresh_master(tmp_path: Path) -> set[tuple[str, str, str, str | None]]:
    db = tmp_path / "fresh.db"
    open_ledger(db).close()
    return master(db)


def rows(db: Path) -> dict[str, list[tuple[object, ...]]]:
    """What an import writes, in rowid order (the audit log and players' times left out)."""
    conn = sqlite3.connect(db)
    try:
        out = {table: conn.execute(f"SELECT * FROM {table} ORDER BY rowid").fetchall()
               for table in ("sessions", "seats", "entries", "points", "session_totals",
                             "session_flows")}
        out["players"] = conn.execute("SELECT id, name FROM players ORDER BY id").fetchall()
        return out
    finally:
        conn.close()


def whole_sessions(db: Path, per_session: dict[str, int]) -> int:
    with open_ledger(db) as ledger:
        stored = {s.uuid: s.deals for s in ledger.journal.sessions()}
    assert all(per_session[u] == n for u, n in stored.items()), "a session is not whole"
    return sum(stored.values())


def assert_clean(db: Path) -> None:
    with open_ledger(db) as ledger:
        report = check_ledger(ledger)
    assert report.ok, report.problems()[:5]


@pytest.fixture
def bulk_builds(monkeypatch) -> list[bool]:
    """Small imports build their indexes in bulk, a commit every few sessions; the list
    collects what each transaction's first new session decided."""
    monkeypatch.setattr("ledger.formats.merge.INDEX_BUILD_MIN", 100)
    monkeypatch.setattr("ledger.formats.merge.BATCH_ENTRIES", 300)
    decided: list[bool] = []
    real = BulkImport.build_indexes_later

    def spy(self: BulkImport) -> bool:
        found = real(self)
        decided.append(found)
        return found

    monkeypatch.setattr(BulkImport, "build_indexes_later", spy)
    return decided


def test_a_bulk_import_leaves_the_schema_and_rows_of_a_row_by_row_one(
        tmp_path, monkeypatch, bulk_builds) -> None:
    small, grown, other = tmp_path / "small.txt", tmp_path / "grown.txt", tmp_path / "other.txt"
    write_sheet(small, 700)  # the grown sheet's first sessions, its last one shorter
    write_sheet(grown, 4000)
    write_sheet(other, 500, seed=3)
    before = fresh_master(tmp_path)
    assert {name for kind, name, _t, _s in before if kind == "index"} >= SECONDARY

    def imported(db: Path) -> None:
        with open_ledger(db) as ledger:
            for sheet in (other, small, grown):  # into a ledger that holds some of it
                import_file(ledger, sheet)

    imported(tmp_path / "bulk.db")
    assert True in bulk_builds  # some transactions built their indexes in bulk
    assert master(tmp_path / "bulk.db") == before
    assert_clean(tmp_path / "bulk.db")
    with open_ledger(tmp_path / "bulk.db") as ledger:
        assert ledger.inspection.schema_differences() == []

    monkeypatch.setattr("ledger.formats.merge.INDEX_BUILD_MIN", 10**9)  # never in bulk
    bulk_builds.clear()
    imported(tmp_path / "row.db")
    assert bulk_builds == []
    assert rows(tmp_path / "bulk.db") == rows(tmp_path / "row.db")


def test_an_interrupted_bulk_import_keeps_every_index(tmp_path, monkeypatch, bulk_builds) -> None:
    sheet = tmp_path / "club.txt"
    per_session = write_sheet(sheet, 3000)
    db = tmp_path / "l.db"
    before = fresh_master(tmp_path)
    real = BulkImport.import_entries
    calls = {"n": 0}

    def flaky(self: BulkImport, session_id: int, entries: list[object]) -> None:
        calls["n"] += 1
        if calls["n"] == 25:  # in a later transaction, its indexes dropped
            dropped = {n for (n,) in self.conn.execute(
                "SELECT name FROM sqlite_master WHERE type = 'index'")}
            assert not SECONDARY & dropped
            raise KeyboardInterrupt
        real(self, session_id, entries)  # type: ignore[arg-type]

    monkeypatch.setattr(BulkImport, "import_entries", flaky)
    with open_ledger(db) as ledger, pytest.raises(KeyboardInterrupt):
        import_file(ledger, sheet)
    assert bulk_builds.count(True) >= 2
    assert master(db) == before
    assert 0 < whole_sessions(db, per_session) < 3000
    assert_clean(db)
    monkeypatch.setattr(BulkImport, "import_entries", real)
    with open_ledger(db) as ledger:
        import_file(ledger, sheet)
    assert whole_sessions(db, per_session) == 3000
    assert master(db) == before
    assert_clean(db)


KILLED_BEFORE_THE_BUILD = """
import os, signal, sys
from pathlib import Path

import ledger.formats.merge as merge
from ledger.formats.exchange import import_file
from ledger.storage.bulk import BulkImport
from ledger.storage.store import open_ledger

merge.INDEX_BUILD_MIN, merge.BATCH_ENTRIES = 100, 300
real, builds = BulkImport._build_indexes, []

def build(self):
    if self._indexes is not None:
        builds.append(1)
        if len(builds) == 2:  # the second bulk transaction: rows written, indexes dropped
            os.kill(os.getpid(), signal.SIGKILL)
    real(self)

BulkImport._build_indexes = build
import_file(open_ledger(Path(sys.argv[1])), Path(sys.argv[2]))
"""


def test_a_bulk_import_killed_before_its_indexes_are_built(tmp_path) -> None:
    sheet = tmp_path / "club.txt"
    per_session = write_sheet(sheet, 3000)
    db = tmp_path / "killed.db"
    before = fresh_master(tmp_path)
    child = subprocess.run([sys.executable, "-c", KILLED_BEFORE_THE_BUILD, str(db), str(sheet)],
                           cwd=ROOT, capture_output=True, text=True, timeout=300,
                           env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert child.returncode == -signal.SIGKILL, child.stderr
    assert master(db) == before  # read after recovering the killed writer's WAL
    assert 0 < whole_sessions(db, per_session) < 3000
    assert_clean(db)
    subprocess.run([sys.executable, "-m", "ledger", "--db", str(db), "import", str(sheet)],
                   cwd=ROOT, check=True, capture_output=True, timeout=300)
    assert whole_sessions(db, per_session) == 3000
    assert master(db) == before
    assert_clean(db)
