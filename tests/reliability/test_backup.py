"""``bigtwo backup`` (SQLite's online backup API) and ``bigtwo restore`` (refuses a
file that is not a ledger or fails the self-check; saves the ledger it replaces)."""

from __future__ import annotations

import hashlib
import json
import shutil
import sqlite3
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from helpers import DATA, file_digest

from ledger.formats import samples
from ledger.storage.schema import SCHEMA_VERSION
from ledger.storage.store import open_ledger

FOUR = ("--players", "Ann,Ben,Cat,Dan")


def bytes_digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def standings(cli, db: Path | None = None) -> dict:
    args = ("--db", str(db)) if db else ()
    return json.loads(cli.ok(*args, "standings", "--all", "--json"))


@pytest.fixture
def evening(ledger_path: Path) -> Path:
    with open_ledger(ledger_path) as ledger:
        samples.load_file(ledger, samples.samples_dir() / "evening.toml")
    return ledger_path


def siblings(path: Path) -> list[Path]:
    return sorted(path.parent.glob(f"{path.stem}.before-restore-*{path.suffix}"))


# --- backup ----------------------------------------------------------------------------


def test_backup_is_a_complete_self_contained_ledger(cli, evening, tmp_path):
    target = tmp_path / "copies" / "friday.db"
    target.parent.mkdir()
    out = cli.ok("backup", str(target))
    assert out.startswith(f"backed up {evening} to {target}: 1 session, 32 entries")
    assert sorted(p.name for p in target.parent.iterdir()) == ["friday.db"]  # no -wal, no temp
    conn = sqlite3.connect(target)
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "delete"
    conn.close()
    assert standings(cli, target) == standings(cli)
    assert cli.ok("--db", str(target), "doctor").startswith("ok: 1 session, 32 entries")


def test_backup_will_not_overwrite_without_force(cli, evening, tmp_path):
    target = tmp_path / "b.db"
    cli.ok("backup", str(target))
    first = bytes_digest(target)
    assert "already exists" in cli.fails("backup", str(target), code=1)
    assert bytes_digest(target) == first
    cli.ok("deal", "Ann=0", "Ben=1", "Cat=1", "Dan=1")
    cli.ok("backup", str(target), "--force")
    assert cli.ok("--db", str(target), "doctor").startswith("ok: 1 session, 33 entries")


@pytest.mark.parametrize("where", ["itself", "folder", "missing-folder"])
def test_backup_refuses_bad_targets(cli, evening, tmp_path, where):
    target = {"itself": evening, "folder": tmp_path, "missing-folder": tmp_path / "no" / "b.db"}[where]
    before = file_digest(evening)
    # a folder is refused as the command line is read, like every path that is not a file
    stderr = cli.fails("backup", str(target), code=2 if where == "folder" else 1)
    assert stderr.startswith("error: ") and len(stderr.splitlines()) == 1
    assert file_digest(evening) == before


@pytest.mark.no_ledger
def test_backup_of_no_ledger_is_a_clean_error(cli, ledger_path, tmp_path):
    assert "no ledger" in cli.fails("backup", str(tmp_path / "b.db"), code=1)
    assert not ledger_path.exists() and not (tmp_path / "b.db").exists()


WRITER = textwrap.dedent("""
    import sys
    from ledger.book import actions as book
    from ledger.core.scoring import Deal
    from ledger.storage.store import open_ledger
    path, n = sys.argv[1], int(sys.argv[2])
    with open_ledger(path) as ledger:
        s = ledger.journal.session(1)
        print("ready", flush=True)
        for i in range(n):
            r = book.record_deal(ledger, s, Deal(cards={"Ann": 0, "Ben": i % 13 + 1, "Cat": 5, "Dan": 9}))
            print(r.entry.uuid, flush=True)
""")


@pytest.mark.slow
def test_backups_taken_while_another_terminal_writes_are_consistent(cli, evening, tmp_path):
    writer = subprocess.Popen([sys.executable, "-c", WRITER, str(evening), "400"],
                              stdout=subprocess.PIPE, text=True)
    assert writer.stdout.readline().strip() == "ready"
    counts = []
    for i in range(6):
        target = tmp_path / f"b{i}.db"
        cli.ok("backup", str(target))
        report = json.loads(cli.ok("--db", str(target), "doctor", "--json"))
        assert report["ok"], report["findings"][:3]
        counts.append(report["entries"])
        time.sleep(0.05)
    written = [line.strip() for line in writer.stdout]
    assert writer.wait() == 0 and len(written) == 400
    assert counts == sorted(counts) and counts[-1] <= 32 + 400
    assert len(set(counts)) > 1, "every backup was taken before or after the writes"


# --- restore --------------------------------------------------------------------------------


def test_restore_brings_back_the_backup_and_keeps_the_replaced_ledger(cli, evening, tmp_path):
    backup = tmp_path / "friday.db"
    cli.ok("backup", str(backup))
    then = standings(cli)
    cli.ok("deal", "Ann=0", "Ben=13", "Cat=13", "Dan=13")
    cli.ok("void", "3")
    now_ = standings(cli)
    backup_bytes = bytes_digest(backup)

    out = cli.ok("restore", str(backup))
    assert out.startswith(f"restored {evening} from {backup}: 1 session, 32 entries")
    [previous] = siblings(evening)
    assert f"the ledger it replaced was saved as {previous}" in out
    assert standings(cli) == then
    assert standings(cli, previous) == now_  # the replaced ledger, deals and void included
    assert cli.ok("--db", str(previous), "doctor").startswith("ok: 1 session, 34 entries")
    assert bytes_digest(backup) == backup_bytes  # the backup itself is read only
    assert cli.ok("doctor").startswith("ok:")
    cli.ok("deal", "Ann=0", "Ben=1", "Cat=1", "Dan=1")  # and it is a working ledger


def test_restore_into_an_empty_place_needs_no_safety_copy(cli, evening, tmp_path):
    backup = tmp_path / "b.db"
    cli.ok("backup", str(backup))
    fresh = tmp_path / "elsewhere" / "ledger.db"
    fresh.parent.mkdir()
    out = cli.ok("--db", str(fresh), "restore", str(backup))
    assert "saved as" not in out
    assert standings(cli, fresh) == standings(cli)
    assert sorted(p.name for p in fresh.parent.iterdir() if not p.name.endswith(("-wal", "-shm"))) == [
        "ledger.db"]


def test_restore_of_a_first_release_backup_migrates_it(cli, evening, tmp_path):
    backup = tmp_path / "v1.db"
    shutil.copyfile(DATA / "ledger_v1.db", backup)
    before = bytes_digest(backup)
    cli.ok("restore", str(backup))
    assert bytes_digest(backup) == before
    conn = sqlite3.connect(evening)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    conn.close()
    assert cli.ok("doctor").startswith("ok: 1 session, 32 entries")


def _not_sqlite(path: Path) -> str:
    path.write_text("not a database\n", "utf-8")
    return "not an SQLite database"


def _other_program(path: Path) -> str:
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE recipes (title TEXT)")
    conn.commit()
    conn.close()
    return "another program"


def _newer(path: Path) -> str:
    with open_ledger(path):
        pass
    conn = sqlite3.connect(path)
    conn.execute("INSERT INTO _sqlite_migrations (migration_set, name, applied_at) "
                 "VALUES ('bigtwo', 'm999_future', '2031-01-01')")
    conn.commit()
    conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    conn.execute("PRAGMA journal_mode = DELETE")
    conn.close()
    return "made by a newer bigtwo"


def _fails_doctor(path: Path) -> str:
    with open_ledger(path) as ledger:
        samples.load_file(ledger, samples.samples_dir() / "evening.toml")
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("DROP TRIGGER points_no_update")
    conn.execute("UPDATE points SET net = net + 5 WHERE id = 7")
    conn.execute("CREATE TRIGGER points_no_update BEFORE UPDATE ON points "
                 "BEGIN SELECT RAISE(ABORT, 'points are append-only'); END")
    conn.execute("PRAGMA journal_mode = DELETE")
    conn.close()
    return "fails the self-check"


def _missing(path: Path) -> str:
    return "no backup file"


@pytest.mark.parametrize("make", [_not_sqlite, _other_program, _newer, _fails_doctor, _missing])
def test_restore_refuses_and_changes_nothing(cli, evening, tmp_path, make):
    backup = tmp_path / "bad" / "backup.db"
    backup.parent.mkdir()
    expect = make(backup)
    before_backup = bytes_digest(backup) if backup.exists() else None
    before = file_digest(evening)
    stderr = cli.fails("restore", str(backup), code=1)
    assert stderr.startswith("error: ") and len(stderr.splitlines()) == 1
    assert expect in stderr and str(backup) in stderr
    if make is _fails_doctor:
        assert "net" in stderr and "expected" in stderr  # the first finding is named
    assert file_digest(evening) == before
    assert siblings(evening) == []
    assert sorted(p.name for p in evening.parent.iterdir() if p.name.startswith(".")) == []
    if before_backup is not None:
        assert bytes_digest(backup) == before_backup


WRITER_UUIDS = textwrap.dedent("""
    import sys
    from ledger.book import actions as book
    from ledger.core.errors import StoreError
    from ledger.core.scoring import Deal
    from ledger.storage.store import open_ledger
    path, n = sys.argv[1], int(sys.argv[2])
    print("ready", flush=True)
    for i in range(n):
        with open_ledger(path) as ledger:
            s = ledger.journal.session(1)
            r = book.record_deal(ledger, s, Deal(cards={"Ann": 0, "Ben": i % 13 + 1, "Cat": 5, "Dan": 9}))
            print(r.entry.uuid, flush=True)
""")


def _uuids(path: Path) -> set[str]:
    conn = sqlite3.connect(path)
    try:
        return {r[0] for r in conn.execute("SELECT uuid FROM entries")}
    finally:
        conn.close()


@pytest.mark.slow
def test_a_deal_recorded_during_a_restore_is_never_lost(cli, evening, tmp_path):
    """Each deal another terminal records lands either in the saved copy of the replaced
    ledger or in the restored one: the restore holds the write lock from the copy on."""
    backup = tmp_path / "b.db"
    cli.ok("backup", str(backup))
    writer = subprocess.Popen([sys.executable, "-c", WRITER_UUIDS, str(evening), "150"],
                              stdout=subprocess.PIPE, text=True)
    assert writer.stdout.readline().strip() == "ready"
    time.sleep(0.5)
    for _ in range(3):
        cli.ok("restore", str(backup))
        time.sleep(0.3)
    recorded = {line.strip() for line in writer.stdout}
    assert writer.wait() == 0 and len(recorded) == 150
    kept = _uuids(evening).union(*(_uuids(p) for p in siblings(evening)))
    assert recorded <= kept, f"{len(recorded - kept)} recorded deals are in no file"
    assert len(siblings(evening)) == 3
    for path in [evening, *siblings(evening)]:
        assert cli.ok("--db", str(path), "doctor").startswith("ok:")
