"""The ledger file: schema migrations, PRAGMAs, STRICT tables, append-only
triggers, refusing files that are not ours, and the audit log."""

from __future__ import annotations

import hashlib
import sqlite3
from pathlib import Path

import pytest
from helpers import file_digest

from ledger.book import actions as book
from ledger.core.errors import StoreError
from ledger.core.rules import load_preset
from ledger.core.scoring import Deal
from ledger.storage.schema import APPLICATION_ID, SCHEMA_VERSION
from ledger.storage.schema import migrations as store_migrations
from ledger.storage.store import open_ledger

TABLES = {"players", "sessions", "seats", "entries", "points", "audit", "settings"}
APPEND_ONLY = ("entries", "points", "audit")
SEATS = ["Ann", "Ben", "Cat", "Dan"]


def _bytes_digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _migrations(path: Path) -> list[tuple]:
    conn = sqlite3.connect(path)
    try:
        return conn.execute(
            "SELECT migration_set, name, applied_at FROM _sqlite_migrations ORDER BY id"
        ).fetchall()
    finally:
        conn.close()


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "store.db"


@pytest.fixture
def played(db: Path) -> Path:
    """A ledger with one session, two deals, a void and an amendment."""
    with open_ledger(db) as ledger:
        s = book.start_session(ledger, SEATS, load_preset("classic"), 1, "PTS", "", False)
        book.record_deal(ledger, s, Deal(cards={"Ann": 0, "Ben": 3, "Cat": 11, "Dan": 8}))
        book.record_deal(ledger, s, Deal(cards={"Ann": 2, "Ben": 0, "Cat": 1, "Dan": 1}))
        book.void_deal(ledger, s, 2)
        book.amend_deal(ledger, s, 1, Deal(cards={"Ann": 0, "Ben": 4, "Cat": 11, "Dan": 8}))
    return db


# --- migrations -----------------------------------------------------------------


def test_migrations_create_the_tables_and_are_recorded(db):
    assert not db.exists()
    with open_ledger(db) as ledger:
        assert set(ledger.db.table_names()) >= TABLES | {"_sqlite_migrations"}
    applied = _migrations(db)
    known = [m.name for m in store_migrations()._migrations]
    assert known[0] == "m001_initial"
    assert [(m[0], m[1]) for m in applied] == [("bigtwo", name) for name in known]
    assert len(applied) == SCHEMA_VERSION
    conn = sqlite3.connect(db)
    try:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        assert conn.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID
    finally:
        conn.close()


def test_an_empty_file_is_migrated(db):
    db.write_bytes(b"")
    with open_ledger(db) as ledger:
        assert set(ledger.db.table_names()) >= TABLES


def test_opening_twice_does_not_reapply(db):
    open_ledger(db).close()
    first = _migrations(db)
    digest = file_digest(db)
    with open_ledger(db) as ledger:
        assert ledger.journal.sessions() == []
    assert _migrations(db) == first  # same row, same applied_at
    assert file_digest(db) == digest


def test_data_survives_reopening(played):
    with open_ledger(played) as ledger:
        (s,) = ledger.journal.sessions()
        assert s.seats == tuple(SEATS) and s.deals == 1
        assert [e.kind for e in ledger.journal.entries(s.id)] == ["deal", "deal", "void", "amend"]


# --- connection and schema ----------------------------------------------------------


def test_pragmas(db):
    with open_ledger(db) as ledger:
        conn = ledger.db.conn
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert conn.execute("PRAGMA foreign_keys").fetchone()[0] == 1
        assert conn.execute("PRAGMA busy_timeout").fetchone()[0] > 0
    # WAL is stored in the file: another connection sees it too.
    conn = sqlite3.connect(db)
    try:
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    finally:
        conn.close()


def test_tables_are_strict(db):
    open_ledger(db).close()
    conn = sqlite3.connect(db)
    try:
        rows = dict(conn.execute("SELECT name, sql FROM sqlite_master WHERE type = 'table'").fetchall())
    finally:
        conn.close()
    assert set(rows) >= TABLES
    for table, sql in rows.items():  # every table, including later migrations'
        assert "STRICT" in sql, table


def test_strict_tables_refuse_wrong_types(played):
    with open_ledger(played) as ledger, pytest.raises(sqlite3.DatabaseError):
        ledger.db.execute("INSERT INTO settings (key, value) VALUES ('x', ?)", [b"\x00"])


def test_foreign_keys_are_enforced(played):
    with open_ledger(played) as ledger, pytest.raises(sqlite3.IntegrityError):
        ledger.db.execute(
            "INSERT INTO points (entry_id, session_id, player_id, deals, wins, fried, cards, "
            "penalty, net) VALUES (999, 1, 1, 1, 0, 0, 0, 0, 0)"
        )


@pytest.mark.parametrize("table", APPEND_ONLY)
@pytest.mark.parametrize("sql", ["UPDATE {t} SET id = id", "DELETE FROM {t}",
                                 "DELETE FROM {t} WHERE id = (SELECT MAX(id) FROM {t})"])
def test_append_only_tables_refuse_update_and_delete(played, table, sql):
    before = file_digest(played)
    with open_ledger(played) as ledger:
        assert ledger.db.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0] > 0
        with pytest.raises(sqlite3.IntegrityError, match="append-only"):
            ledger.db.execute(sql.format(t=table))
    assert file_digest(played) == before


def test_triggers_exist_for_every_append_only_table(db):
    with open_ledger(db) as ledger:
        triggers = {r[0] for r in ledger.db.execute(
            "SELECT name FROM sqlite_master WHERE type = 'trigger'")}
    assert triggers >= {f"{t}_no_{op}" for t in APPEND_ONLY for op in ("update", "delete")}


# --- files that are not ours ------------------------------------------------------------


@pytest.mark.no_ledger
def test_a_file_that_is_not_sqlite_is_refused_and_left_alone(tmp_path):
    path = tmp_path / "notes.db"
    path.write_text("shopping list: eggs, milk\n" * 50, "utf-8")
    before = _bytes_digest(path)
    with pytest.raises(StoreError, match="not an SQLite database"):
        open_ledger(path)
    assert _bytes_digest(path) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.db"]


def _foreign_db(path: Path) -> None:
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE recipes (id INTEGER PRIMARY KEY, title TEXT)")
    conn.execute("INSERT INTO recipes (title) VALUES ('dumplings')")
    conn.commit()
    conn.close()


@pytest.mark.no_ledger
def test_another_programs_database_is_refused(tmp_path):
    path = tmp_path / "recipes.db"
    _foreign_db(path)
    before = file_digest(path)
    with pytest.raises(StoreError, match="another program") as info:
        open_ledger(path)
    assert "recipes" in str(info.value)
    assert file_digest(path) == before  # no table added, no row changed
    assert sorted(p.name for p in tmp_path.iterdir()) == ["recipes.db"]


def test_another_programs_database_is_not_modified_at_all(tmp_path):
    path = tmp_path / "recipes.db"
    _foreign_db(path)
    before = _bytes_digest(path)
    with pytest.raises(StoreError):
        open_ledger(path)
    assert _bytes_digest(path) == before


def test_another_migration_set_is_refused(tmp_path):
    path = tmp_path / "app.db"
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE _sqlite_migrations (id INTEGER PRIMARY KEY, migration_set TEXT, "
                 "name TEXT, applied_at TEXT)")
    conn.execute("INSERT INTO _sqlite_migrations (migration_set, name, applied_at) "
                 "VALUES ('otherapp', 'm001', '2024-01-01')")
    conn.execute("CREATE TABLE things (x)")
    conn.commit()
    conn.close()
    before = file_digest(path)
    with pytest.raises(StoreError, match="another program"):
        open_ledger(path)
    assert file_digest(path) == before


def test_a_newer_schema_is_refused(db):
    open_ledger(db).close()
    conn = sqlite3.connect(db)
    conn.execute("INSERT INTO _sqlite_migrations (migration_set, name, applied_at) "
                 "VALUES ('bigtwo', 'm999_future', '2030-01-01')")
    conn.commit()
    conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")  # as a newer bigtwo leaves it
    conn.close()
    before = file_digest(db)
    with pytest.raises(StoreError, match="made by a newer bigtwo"):
        open_ledger(db)
    assert file_digest(db) == before


def test_cli_refuses_a_foreign_database(cli, tmp_path):
    path = tmp_path / "recipes.db"
    _foreign_db(path)
    before = file_digest(path)
    stderr = cli.fails("--db", str(path), "session", "start", *("--players", "Ann,Ben"), code=1)
    assert stderr.startswith("error: ") and len(stderr.splitlines()) == 1
    assert file_digest(path) == before


# --- audit ----------------------------------------------------------------------------


def test_audit_gets_a_row_per_action(db):
    with open_ledger(db) as ledger:
        s = book.start_session(ledger, SEATS, load_preset("classic"), 1, "PTS", "", False)
        assert [r.action for r in ledger.inspection.audit_rows()] == ["player.add"] * 4 + ["session.start"]
        book.record_deal(ledger, s, Deal(cards={"Ann": 0, "Ben": 3, "Cat": 11, "Dan": 8}))
        book.record_deal(ledger, s, Deal(cards={"Ann": 2, "Ben": 0, "Cat": 1, "Dan": 1}))
        book.void_deal(ledger, s, 2)
        book.amend_deal(ledger, s, 1, Deal(cards={"Ann": 0, "Ben": 4, "Cat": 11, "Dan": 8}))
        book.undo(ledger, s)  # takes the amend back: an amend marked as an undo
        book.end_session(ledger, ledger.journal.session(s.id))
        rows = ledger.inspection.audit_rows()
        # A second session with the same players adds no player rows.
        book.start_session(ledger, SEATS[:2], load_preset("classic"), 1, "PTS", "", False)
        later = ledger.inspection.audit_rows()[len(rows):]
    actions = [r.action for r in rows]
    assert actions == ["player.add"] * 4 + ["session.start", "deal.deal", "deal.deal", "deal.void",
                                             "deal.amend", "deal.amend", "deal.undo", "session.end"]
    assert [r.action for r in later] == ["session.start"]
    entries_audited = [r.entry_id for r in rows if r.action.startswith("deal.")]
    assert entries_audited == sorted(entries_audited) and None not in entries_audited
    assert all(r.session_id == s.id for r in rows[4:])
    assert all(r.at for r in rows)  # every row is timestamped


def test_a_rejected_action_writes_no_audit_row(db):
    with open_ledger(db) as ledger:
        s = book.start_session(ledger, SEATS, load_preset("classic"), 1, "PTS", "", False)
        count = len(ledger.inspection.audit_rows())
        with pytest.raises(Exception, match="exactly one player"):
            book.record_deal(ledger, s, Deal(cards={"Ann": 0, "Ben": 0, "Cat": 1, "Dan": 1}))
        assert len(ledger.inspection.audit_rows()) == count


def test_cli_actions_are_audited(cli, ledger_path):
    cli.ok("session", "start", *("--players", "Ann,Ben"))
    cli.ok("deal", "Ann=0", "Ben=3")
    cli.ok("undo")
    cli.ok("session", "end")
    with open_ledger(ledger_path) as ledger:
        actions = [r.action for r in ledger.inspection.audit_rows()]
    assert actions[-5:] == ["session.start", "deal.deal", "deal.void", "deal.undo", "session.end"]


@pytest.mark.no_ledger
@pytest.mark.parametrize("args", [
    ("standings",), ("session", "list"), ("log",), ("deal", "0", "1", "2", "3"), ("doctor",),
    ("export",), ("import", "IMPORT"), ("session", "start", "--players", "Ann,Ben"),
])
def test_a_newer_ledger_is_left_byte_identical(cli, tmp_path, args):
    """user_version above ours, no migration this program does not know of, rollback
    journal: any command refuses it before setting WAL mode or rewriting the version."""
    db = tmp_path / "newer.db"
    with open_ledger(db) as ledger:
        from ledger.book import actions as book
        from ledger.core.rules import load_preset

        book.start_session(ledger, ["Ann", "Ben", "Cat", "Dan"], load_preset("classic"),
                           __import__("decimal").Decimal(1), "PTS", None, False)
    conn = sqlite3.connect(db)
    conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    conn.execute("PRAGMA journal_mode = DELETE")
    conn.close()
    export = tmp_path / "e.json"
    export.write_text('{"format": "bigtwo-ledger", "version": 1, "sessions": []}')
    before = db.read_bytes()
    args = tuple(str(export) if a == "IMPORT" else a for a in args)
    err = cli.fails("--db", str(db), *args)
    assert f"made by a newer bigtwo: schema {SCHEMA_VERSION + 1}, this program knows " \
           f"{SCHEMA_VERSION}" in err
    assert db.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["e.json", "newer.db"]


def test_a_deals_points_are_looked_up_by_its_entries_not_its_players(played):
    """The points of one deal (what an amend or void reverses, what the hub's board
    shows) are found through the session's entries and their points' entry ids, not
    through every points row of the deal's players (m008 dropped the index of
    points.player_id that led the planner there: 0.5 s a deal on a ledger of 200,000)."""
    with open_ledger(played) as ledger:
        said: list[str] = []
        ledger.conn.set_trace_callback(said.append)
        assert ledger.journal.deal_points(1, 1)
        ledger.conn.set_trace_callback(None)
        sql = next(s for s in said if "JOIN points q" in s)
        plan = [row[3] for row in ledger.conn.execute("EXPLAIN QUERY PLAN " + sql)]
    assert any(step.startswith("SEARCH e USING COVERING INDEX idx_entries_deal_order")
               for step in plan), plan
    assert "SEARCH q USING INDEX idx_points_entry_id (entry_id=?)" in plan, plan
    assert not any(step.startswith(("SCAN q", "SEARCH q USING INDEX idx_points_player"))
                   for step in plan), plan
