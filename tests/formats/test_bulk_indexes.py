"""A large sheet import is one transaction that builds the secondary indexes of entries
and points (and entries' uuid index) once, inside it, and checks the foreign keys once
at its end (ledger.storage.bulk): the ledger keeps exactly the schema it had (every
index and trigger, with the same SQL) whether the import commits, is interrupted or is
killed, and holds the same rows as an import that kept the indexes row by row, and as
one that wrote every points row from Python (import_entries instead of import_scored)."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
from contextlib import contextmanager
from pathlib import Path

import pytest
from helpers import ROOT, write_sheet

from ledger.book.doctor import check_ledger
from ledger.formats.exchange import import_file
from ledger.storage.bulk import BulkImport
from ledger.storage.store import open_ledger

SECONDARY = {  # the indexes that are built in bulk (with idx_entries_uuid)
    "idx_entries_deal_order", "idx_entries_order", "idx_entries_session_actions",
    "idx_points_entry_id", "idx_points_session_id",
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
    """Small imports are large (one transaction, indexes built in bulk) from 100 entries
    on; other imports commit every few sessions; the list collects what each
    transaction's first new session decided."""
    monkeypatch.setattr("ledger.formats.merge.INDEX_BUILD_MIN", 100)
    monkeypatch.setattr("ledger.formats.merge.BATCH_ENTRIES", 300)
    decided: list[bool] = []
    real = BulkImport.build_indexes_later

    def spy(self: BulkImport, lookups: bool = False) -> bool:
        found = real(self, lookups)
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

    # Every points row made in Python (the path of renamed players), not by SQLite.
    from ledger.formats.sheet_import import _SheetRun

    monkeypatch.delattr(_SheetRun, "columns")
    imported(tmp_path / "python.db")
    assert rows(tmp_path / "python.db") == rows(tmp_path / "row.db")


def test_an_undated_sheet_in_bulk_writes_the_rows_of_the_python_path(
        tmp_path, monkeypatch, bulk_builds) -> None:
    """Undated sessions: entry times one after the other, across chunks of a session."""
    from ledger.formats.sheet_import import _SheetRun

    monkeypatch.setattr("ledger.formats.merge.CHUNK", 7)
    dated = tmp_path / "dated.txt"
    write_sheet(dated, 400, seed=11)
    sheet = tmp_path / "undated.txt"
    sheet.write_text("".join(line + "\n" for line in dated.read_text().splitlines()
                             if not line[:4].isdigit() or " " in line))
    for db in ("bulk.db", "python.db"):
        if db == "python.db":
            monkeypatch.delattr(_SheetRun, "columns")
        with open_ledger(tmp_path / db) as ledger:
            import_file(ledger, sheet)
    assert True in bulk_builds
    got, want = rows(tmp_path / "bulk.db"), rows(tmp_path / "python.db")
    strip = [tuple(r[:7]) + tuple(r[8:]) for r in got["entries"]]  # created_at: now
    assert strip == [tuple(r[:7]) + tuple(r[8:]) for r in want["entries"]]
    assert {k: v for k, v in got.items() if k not in ("entries", "sessions")} == {
        k: v for k, v in want.items() if k not in ("entries", "sessions")}
    assert "t" in sheet.read_text()  # games with an assist (a seat takes all losses)
    with open_ledger(tmp_path / "bulk.db") as ledger:
        for s in ledger.journal.sessions():
            times = [e.created_at for e in ledger.journal.entries(s.id)]
            assert times == sorted(times) and len(set(times)) == len(times)
    assert_clean(tmp_path / "bulk.db")


@pytest.mark.parametrize("in_bulk", [True, False])
def test_scored_games_with_payees_write_the_rows_of_python_points(tmp_path, in_bulk) -> None:
    """import_scored, with scores that name payees (pay-the-winner), against
    import_entries with the same points: the same entries, points, totals and flows."""
    from ledger.storage.raw_rows import ImportedEntry

    seats = ["Ann", "Ben", "Cat"]
    scores = {  # (deals, wins, fried, cards, penalty, net, payee seat)
        7: [(1, 1, 0, 0, 0, 5, None), (1, 0, 0, 2, 2, -2, 0), (1, 0, 0, 3, 3, -3, 0)],
        3: [(1, 0, 0, 4, 4, -4, 2), (1, 0, 1, 10, 20, -20, 2), (1, 1, 0, 0, 0, 24, None)],
    }
    games = [(f"00000000-0000-5000-8000-{i:012d}", i + 1, f'{{"n": {i}}}', key)
             for i, key in enumerate([7, 3, 3, 7, 3])]
    at = "2024-05-01T12:00:00.000000+00:00"

    def written(db: Path, scored: bool) -> dict[str, list[tuple[object, ...]]]:
        with open_ledger(db) as ledger:
            bulk = ledger.bulk
            with bulk.tuned(whole=in_bulk), ledger.writing(), bulk.totals_in_bulk():
                if in_bulk:
                    assert bulk.build_indexes_later()
                sid = ledger.journal.add_session(
                    seats=seats, name="s", rules={}, stake="1", currency=None, teams=False,
                    started_at=at, session_uuid="6f1e1c1e-7d5a-4b0e-9b1a-2c3d4e5f6a7b")
                bulk.sum_later(sid)
                if scored:
                    flat = [v for u, n, f, _k in games for v in (u, n, f)]
                    keys = [key for *_g, key in games]
                    bulk.import_scored(sid, flat[:6], keys[:2], at, scores)  # two calls
                    bulk.import_scored(sid, flat[6:], keys[2:], at, scores)
                else:
                    bulk.import_entries(sid, [ImportedEntry(u, "deal", n, f, [
                        (seats[seat], d, w, fr, c, p, net, None if pay is None else seats[pay])
                        for seat, (d, w, fr, c, p, net, pay) in enumerate(scores[key])], at)
                        for u, n, f, key in games])
        return rows(db)

    got = written(tmp_path / "scored.db", True)
    assert got["session_flows"]  # payees
    want = written(tmp_path / "python.db", False)
    assert {k: v for k, v in got.items() if k != "sessions"} == {
        k: v for k, v in want.items() if k != "sessions"}
    assert master(tmp_path / "scored.db") == fresh_master(tmp_path)


def test_an_interrupted_bulk_import_keeps_every_index(tmp_path, monkeypatch, bulk_builds) -> None:
    first, sheet = tmp_path / "first.txt", tmp_path / "club.txt"
    per_first = write_sheet(first, 150, seed=2)
    per_session = write_sheet(sheet, 3000)
    assert not per_first.keys() & per_session.keys()
    db = tmp_path / "l.db"
    before = fresh_master(tmp_path)
    with open_ledger(db) as ledger:
        import_file(ledger, first)  # a first bulk import, committed
    kept = rows(db)
    real = BulkImport.import_scored
    calls = {"n": 0}

    def flaky(self: BulkImport, *args: object) -> None:
        calls["n"] += 1
        if calls["n"] == 25:  # its indexes dropped, its foreign keys not checked yet
            dropped = {n for (n,) in self.conn.execute(
                "SELECT name FROM sqlite_master WHERE type = 'index'")}
            assert not (SECONDARY | {"idx_entries_uuid"}) & dropped
            raise KeyboardInterrupt
        real(self, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(BulkImport, "import_scored", flaky)
    with open_ledger(db) as ledger, pytest.raises(KeyboardInterrupt):
        import_file(ledger, sheet)
    assert bulk_builds == [True, True]  # one transaction each
    assert master(db) == before
    assert rows(db) == kept  # nothing of the interrupted import: one transaction
    assert_clean(db)
    with open_ledger(db) as ledger:  # foreign keys are checked row by row again
        assert ledger.conn.execute("PRAGMA foreign_keys").fetchone()[0] == 1
    monkeypatch.setattr(BulkImport, "import_scored", real)
    with open_ledger(db) as ledger:
        import_file(ledger, sheet)
    assert whole_sessions(db, {**per_first, **per_session}) == 3150
    assert master(db) == before
    assert_clean(db)


@contextmanager
def one_bulk_transaction(ledger):
    """A whole import's transaction: foreign keys checked at its end, indexes dropped."""
    bulk = ledger.bulk
    with bulk.tuned(whole=True), ledger.writing(), bulk.totals_in_bulk():
        assert bulk.build_indexes_later()
        yield bulk


def test_a_bulk_import_that_names_what_is_not_there_writes_nothing(tmp_path) -> None:
    """The foreign keys, checked once at the end of the transaction, fail it as a row
    would fail row by row: an IntegrityError, nothing written, every index kept."""
    db = tmp_path / "l.db"
    before = fresh_master(tmp_path)
    with open_ledger(db) as ledger:
        with pytest.raises(sqlite3.IntegrityError, match=r"FOREIGN KEY.*points"), \
                one_bulk_transaction(ledger):
            ledger.conn.execute(
                "INSERT INTO points (entry_id, session_id, player_id, deals, wins, fried, cards, "
                "penalty, net) VALUES (12345, 678, 9, 1, 0, 0, 3, 3, 3)")
        assert ledger.conn.execute("SELECT COUNT(*) FROM points").fetchone()[0] == 0
        assert ledger.conn.execute("PRAGMA foreign_keys").fetchone()[0] == 1
    assert master(db) == before


def test_a_uuid_written_twice_in_bulk_fails_when_its_index_is_built(tmp_path) -> None:
    from ledger.storage.raw_rows import ImportedEntry

    db = tmp_path / "l.db"
    before = fresh_master(tmp_path)
    with open_ledger(db) as ledger:
        with pytest.raises(sqlite3.IntegrityError, match=r"UNIQUE.*entries\.uuid"), \
                one_bulk_transaction(ledger) as bulk:
            sid = ledger.journal.add_session(seats=["Ann", "Ben"], name="x", rules={},
                                             stake="1", currency=None, teams=False)
            twice = ImportedEntry("5f0c7a52-2b1e-4d8e-9a57-1f2a3b4c5d6e", "deal", 1,
                                  '{"cards": {"Ann": 0, "Ben": 3}}', ())
            bulk.import_entries(sid, [twice, twice._replace(deal_no=2)])
        assert ledger.journal.sessions() == []
    assert master(db) == before


KILLED_BEFORE_THE_BUILD = """
import os, signal, sys
from pathlib import Path

import ledger.formats.merge as merge
from ledger.formats.exchange import import_file
from ledger.storage.bulk import BulkImport
from ledger.storage.store import open_ledger

merge.INDEX_BUILD_MIN, merge.BATCH_ENTRIES = 100, 300
real = BulkImport._build_indexes

def build(self):
    if self._indexes is not None:  # every row written, the indexes dropped
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
    assert whole_sessions(db, per_session) == 0  # one transaction
    assert_clean(db)
    subprocess.run([sys.executable, "-m", "ledger", "--db", str(db), "import", str(sheet)],
                   cwd=ROOT, check=True, capture_output=True, timeout=300)
    assert whole_sessions(db, per_session) == 3000
    assert master(db) == before
    assert_clean(db)
