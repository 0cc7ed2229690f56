"""SQLite errors are classified once, by result code; storage's not-found errors are plain."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from ledger.book import actions as book
from ledger.core.errors import NotFound
from ledger.core.rules import load_preset
from ledger.storage.errors import Failure, classify, reason, store_error
from ledger.storage.store import open_ledger


def _coded(text: str, name: str, code: int) -> sqlite3.OperationalError:
    exc = sqlite3.OperationalError(text)
    exc.sqlite_errorname = name
    exc.sqlite_errorcode = code
    return exc


def _raised(action) -> sqlite3.Error:
    with pytest.raises(sqlite3.Error) as info:
        action()
    return info.value


def test_real_sqlite_errors_are_classified_by_their_code(tmp_path: Path) -> None:
    db = tmp_path / "a.db"
    holder = sqlite3.connect(db, isolation_level=None)
    holder.execute("CREATE TABLE t (x)")
    holder.execute("BEGIN IMMEDIATE")
    other = sqlite3.connect(db, timeout=0, isolation_level=None)
    busy = _raised(lambda: other.execute("BEGIN IMMEDIATE"))
    holder.execute("ROLLBACK")
    assert classify(busy) is Failure.BUSY

    ro = sqlite3.connect(f"{db.as_uri()}?mode=ro", uri=True)
    assert classify(_raised(lambda: ro.execute("INSERT INTO t VALUES (1)"))) is Failure.READONLY

    holder.execute("PRAGMA max_page_count = 2")
    big = _raised(lambda: holder.execute("INSERT INTO t VALUES (zeroblob(100000))"))
    assert classify(big) is Failure.FULL

    cannot = _raised(lambda: sqlite3.connect(tmp_path / "no such folder" / "x.db"))
    assert classify(cannot) is Failure.CANNOT_OPEN

    text = tmp_path / "notes.txt"
    text.write_text("not a database, just notes\n" * 100)
    notes = sqlite3.connect(text)
    assert classify(_raised(lambda: notes.execute("SELECT * FROM sqlite_master"))) is Failure.NOT_A_DATABASE
    for conn in (holder, other, ro, notes):
        conn.close()


@pytest.mark.parametrize(
    ("name", "code", "failure", "says"),
    [
        ("SQLITE_BUSY", 5, Failure.BUSY, "is busy"),
        ("SQLITE_BUSY_SNAPSHOT", 517, Failure.BUSY, "is busy"),
        ("SQLITE_LOCKED", 6, Failure.BUSY, "is busy"),
        ("SQLITE_READONLY_DIRECTORY", 1544, Failure.READONLY, "read-only"),
        ("SQLITE_FULL", 13, Failure.FULL, "the disk is full"),
        ("SQLITE_IOERR_WRITE", 778, Failure.IO, "disk I/O error"),
        ("SQLITE_IOERR_SHORT_READ", 522, Failure.IO, "disk I/O error"),
        ("SQLITE_CANTOPEN_ISDIR", 526, Failure.CANNOT_OPEN, "cannot open the ledger"),
        ("SQLITE_NOTADB", 26, Failure.NOT_A_DATABASE, "not an SQLite database"),
        ("SQLITE_CORRUPT", 11, Failure.DAMAGED, "is damaged"),
    ],
)
def test_the_code_decides_not_the_message_text(name: str, code: int, failure: Failure,
                                               says: str) -> None:
    # The text names another failure on purpose: only the code may count.
    exc = _coded("database is locked; disk is full; unable to open", name, code)
    assert classify(exc) is failure
    message = str(store_error(exc, "club.db"))
    assert "club.db" in message and says in message


def test_errors_without_a_known_code_keep_sqlites_words() -> None:
    trigger = _coded("entries are append-only (disk is full)", "SQLITE_CONSTRAINT_TRIGGER", 1811)
    assert classify(trigger) is Failure.OTHER
    assert str(store_error(trigger, "club.db")) == "ledger club.db: entries are append-only (disk is full)"
    closed = sqlite3.connect(":memory:")
    closed.close()
    uncoded = _raised(lambda: closed.execute("SELECT 1"))
    assert classify(uncoded) is Failure.OTHER
    assert reason(uncoded) == str(uncoded)
    assert reason(_coded("whatever", "SQLITE_FULL", 13)) == "the disk is full"


def test_storage_says_what_is_missing_and_the_action_layer_where_to_look(tmp_path: Path) -> None:
    with open_ledger(tmp_path / "l.db") as ledger:
        with pytest.raises(NotFound) as plain:
            ledger.journal.session(7)
        assert str(plain.value) == "no session 7 in this ledger"
        with pytest.raises(NotFound) as player:
            ledger.player_id("陳大文")
        assert str(player.value) == "no player named '陳大文' in this ledger"
        with pytest.raises(NotFound) as hinted:
            book.current_session(ledger, 7)
        assert str(hinted.value) == "no session 7 in this ledger"  # a whole sentence alone
        assert hinted.value.advice == "see: bigtwo session list"  # said by the command line only
        assert hinted.value.status == 404
        s = book.start_session(ledger, ["陳大文", "李小明"], load_preset("classic"), 1, "PTS", "", False)
        assert book.current_session(ledger, s.id).seats == ("陳大文", "李小明")
