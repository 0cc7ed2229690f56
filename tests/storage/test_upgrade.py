"""A ledger written by the first release opens, migrates and keeps every deal.

tests/data/ledger_v1.db was made by scripts/make_v1_fixture.py running the first
release's code (schema migration m001_initial only) on sample_sessions/evening.toml;
tests/data/ledger_v1.json holds what that release reported for it.
"""

from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from helpers import DATA

from ledger.storage.schema import APPLICATION_ID, SCHEMA_VERSION
from ledger.storage.schema import migrations as _migrations

FIXTURE = DATA / "ledger_v1.db"
EXPECTED = json.loads((DATA / "ledger_v1.json").read_text("utf-8"))


def contains(actual: Any, expected: Any, where: str = "") -> None:
    """Every value the first release reported is reported the same today
    (fields added since are allowed)."""
    if isinstance(expected, dict):
        assert isinstance(actual, dict), where
        for key, value in expected.items():
            assert key in actual, f"{where}.{key} is gone"
            contains(actual[key], value, f"{where}.{key}")
    elif isinstance(expected, list):
        assert isinstance(actual, list) and len(actual) == len(expected), where
        for i, (a, e) in enumerate(zip(actual, expected, strict=True)):
            contains(a, e, f"{where}[{i}]")
    else:
        assert actual == expected, f"{where}: was {expected!r}, now {actual!r}"


@pytest.fixture
def old_ledger(ledger_path: Path) -> Path:
    shutil.copyfile(FIXTURE, ledger_path)
    return ledger_path


def test_the_fixture_is_the_first_schema():
    conn = sqlite3.connect(f"{FIXTURE.resolve().as_uri()}?mode=ro", uri=True)
    try:
        names = [r[0] for r in conn.execute("SELECT name FROM _sqlite_migrations ORDER BY id")]
        assert names == EXPECTED["schema"] == ["m001_initial"]
        assert conn.execute("PRAGMA user_version").fetchone()[0] == 0
        assert conn.execute("SELECT COUNT(*) FROM entries").fetchone()[0] == len(EXPECTED["entries"])
    finally:
        conn.close()


def test_opening_migrates_to_the_current_schema(cli, old_ledger):
    cli.ok("session", "list")
    conn = sqlite3.connect(old_ledger)
    try:
        names = [r[0] for r in conn.execute("SELECT name FROM _sqlite_migrations ORDER BY id")]
        assert names == [m.name for m in _migrations()._migrations]
        assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        assert conn.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID
    finally:
        conn.close()


def test_every_deal_standing_and_payment_is_kept(cli, old_ledger):
    contains(json.loads(cli.ok("standings", "--json")), EXPECTED["standings"], "standings")
    contains(json.loads(cli.ok("settle", "--json")), EXPECTED["settle"], "settle")
    log = json.loads(cli.ok("log", "--json"))
    assert [(e["uuid"], e["kind"], e["deal"], e["facts"]) for e in log] == [
        (e["uuid"], e["kind"], e["deal"], e["facts"]) for e in EXPECTED["entries"]
    ]
    assert cli.ok("doctor").startswith(f"ok: 1 session, {len(EXPECTED['entries'])} entries")


def test_the_upgraded_ledger_takes_new_deals(cli, old_ledger):
    before = json.loads(cli.ok("standings", "--json"))["players"]
    cli.ok("deal", "Ann=0", "Ben=3", "Cat=11", "Dan=8")
    cli.ok("amend", "31", "Ann=0", "Ben=9", "Cat=6", "Dan=2")
    after = {p["name"]: p for p in json.loads(cli.ok("standings", "--json"))["players"]}
    assert {p["name"]: p["deals"] + 1 for p in before} == {n: p["deals"] for n, p in after.items()}
    assert cli.ok("doctor").startswith("ok:")


def test_the_fixture_itself_is_never_touched(cli, old_ledger):
    digest = FIXTURE.read_bytes()
    cli.ok("deal", "Ann=0", "Ben=3", "Cat=11", "Dan=8")
    assert FIXTURE.read_bytes() == digest
    assert not Path(f"{FIXTURE}-wal").exists()


# --- a ledger of schema 4: its undo marks, ends and reopens were audit rows -------------

FIXTURE_V4 = DATA / "ledger_v4.db"
EXPECTED_V4 = json.loads((DATA / "ledger_v4.json").read_text("utf-8"))


@pytest.fixture
def v4_ledger(ledger_path: Path) -> Path:
    shutil.copyfile(FIXTURE_V4, ledger_path)
    return ledger_path


def test_the_v4_fixture_is_schema_4():
    conn = sqlite3.connect(f"{FIXTURE_V4.resolve().as_uri()}?mode=ro", uri=True)
    try:
        names = [r[0] for r in conn.execute("SELECT name FROM _sqlite_migrations ORDER BY id")]
        assert names == EXPECTED_V4["schema"]
        assert conn.execute("SELECT COUNT(*) FROM audit WHERE action = 'deal.undo'").fetchone()[0] == 4
    finally:
        conn.close()


def test_a_v4_ledger_keeps_every_report(cli, v4_ledger):
    assert json.loads(cli.ok("session", "list", "--json")) == EXPECTED_V4["sessions"]
    for sid in ("1", "2"):
        assert json.loads(cli.ok("standings", "--session", sid, "--json")) == \
            EXPECTED_V4["standings"][sid]
        # log --json gained each entry's "status" (amended / voided) after schema 4: the
        # rest is as schema 4 printed it
        log = json.loads(cli.ok("log", "--session", sid, "--json"))
        assert [{k: v for k, v in e.items() if k != "status"} for e in log] == EXPECTED_V4["log"][sid]
    assert cli.ok("doctor").startswith("ok: 2 sessions, 14 entries")


def test_its_audit_history_becomes_entries(v4_ledger):
    from ledger.storage.store import open_ledger

    with open_ledger(v4_ledger) as ledger:
        one = [(e.kind, e.seq, e.undoes is not None) for e in ledger.journal.actions(1)]
        ends = {e.uuid: e for e in ledger.journal.actions(1) if not e.is_deal}
        s1 = ledger.journal.session(1)
    assert one == [("start", 0, False), ("deal", 1, False), ("deal", 2, False), ("deal", 3, False),
                   ("amend", 4, False), ("void", 5, False), ("amend", 6, True), ("amend", 7, True),
                   ("deal", 8, False), ("end", 0, False), ("reopen", 0, True), ("deal", 9, False),
                   ("end", 0, False)]
    reopen = next(e for e in ends.values() if e.kind == "reopen")
    assert ends[reopen.undoes or ""].kind == "end"  # the reopen undid the first end
    assert s1.ended_at == EXPECTED_V4["sessions"][0]["ended_at"]


def test_undo_walks_back_a_migrated_ledger_through_its_old_marks(cli, v4_ledger):
    # Session 2 as schema 4 left it: deal 1 back (its void undone), deal 2 voided by undo.
    # What is left to take back is the end, then deal 1: never the undone void again.
    assert "Kat is called Cat again" in cli.ok("undo")  # the rename came last
    assert "the end of session 2" in cli.ok("undo", "--session", "2")
    assert json.loads(cli.ok("session", "list", "--json"))[1]["ended_at"] is None
    assert "undone: deal 1" in cli.ok("undo", "--session", "2")
    assert "nothing left to undo in session 2" in cli.fails("undo", "--session", "2")


def test_the_upgrade_leaves_no_update_or_delete_possible(v4_ledger):
    from ledger.storage.store import open_ledger

    with open_ledger(v4_ledger) as ledger:
        for sql in ("UPDATE entries SET kind = kind", "DELETE FROM entries",
                    "UPDATE sessions SET name = name", "DELETE FROM seats"):
            with pytest.raises(sqlite3.IntegrityError, match="append-only"):
                ledger.conn.execute(sql)
        assert ledger.inspection.schema_differences() == []


def _indexes(db: Path) -> dict[str, str]:
    conn = sqlite3.connect(db)
    try:
        return dict(conn.execute(
            "SELECT name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL"))
    finally:
        conn.close()


def test_an_upgraded_ledger_has_the_indexes_of_a_new_one(cli, old_ledger, tmp_path):
    """m008: points keep their indexes by entry and by session only; the index of undoes
    holds only the rows that have one, in an upgraded ledger as in a new one; an entry
    is still undone once at most, and found by the entry it undoes through that index."""
    from ledger.storage.store import open_ledger

    cli.ok("session", "list")
    new = tmp_path / "new.db"
    open_ledger(new).close()
    assert _indexes(old_ledger) == _indexes(new)
    assert sorted(n for n in _indexes(new) if n.startswith("idx_points")) == [
        "idx_points_entry_id", "idx_points_session_id"]
    assert _indexes(new)["idx_entries_undoes"].endswith("WHERE undoes IS NOT NULL")
    conn = sqlite3.connect(old_ledger)
    try:
        target, session = conn.execute(
            "SELECT uuid, session_id FROM entries WHERE kind = 'deal' ORDER BY id DESC").fetchone()
        undo = ("INSERT INTO entries (uuid, session_id, kind, created_at, undoes) "
                "VALUES (?, ?, 'undo', '2030-01-01T00:00:00', ?)")
        conn.execute(undo, ["u1", session, target])
        with pytest.raises(sqlite3.IntegrityError, match=r"UNIQUE constraint failed: entries\.undoes"):
            conn.execute(undo, ["u2", session, target])
        plan = conn.execute("EXPLAIN QUERY PLAN SELECT uuid FROM entries WHERE undoes = ?",
                            [target]).fetchall()
        assert "USING INDEX idx_entries_undoes" in plan[0][3]
    finally:
        conn.close()
