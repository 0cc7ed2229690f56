"""Bad places to write: each gives one clear message and leaves the ledger as it was.

Read-only files and folders are made for real.  Tests run as root in CI, and root
ignores file permissions, so there the command runs as an unprivileged user
(``setpriv``/``runuser``), and a second test makes the file immutable
(``chattr +i``), which binds root too.  Where neither is possible the read-only
error is injected instead (the message mapping is then what is tested).

A full disk is SQLite's ``max_page_count`` set on every connection the command
opens; an I/O error is injected by a connection class that fails one statement.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import sqlite3
import stat
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from helpers import ROOT, file_digest
from typer.testing import CliRunner

from ledger.cli.app import app
from ledger.storage.schema import SCHEMA_VERSION

FOUR = ("--players", "Ann,Ben,Cat,Dan")
DEAL = ("deal", "Ann=0", "Ben=3", "Cat=11", "Dan=8")


def bytes_digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def one_clean_line(stderr: str) -> str:
    lines = stderr.strip().splitlines()
    assert len(lines) == 1, stderr
    assert lines[0].startswith("error: ") and "Traceback" not in stderr
    return lines[0]


def bigtwo(*args: str, prefix: list[str] | None = None) -> subprocess.CompletedProcess[str]:
    """``bigtwo`` in a process of its own (``prefix`` runs it as another user), or, without
    a prefix, in this process (quicker; the same code and messages)."""
    if prefix is None:
        result = CliRunner().invoke(app, list(args), catch_exceptions=False)
        return subprocess.CompletedProcess(args, result.exit_code, result.stdout, result.stderr)
    env = {**os.environ, "COLUMNS": "200"}
    env.pop("BIGTWO_DB", None)
    return subprocess.run([*prefix, sys.executable, "-m", "ledger", *args],
                          capture_output=True, text=True, env=env, timeout=120, cwd="/")


def make_ledger(path: Path, deals: int = 2) -> None:
    assert bigtwo("--db", str(path), "session", "start", *FOUR).returncode == 0
    for _ in range(deals):
        assert bigtwo("--db", str(path), *DEAL).returncode == 0


@pytest.fixture
def shared_dir() -> Iterator[Path]:
    """A folder another user can reach (pytest's tmp_path is private to its owner)."""
    folder = Path(tempfile.mkdtemp(prefix="bigtwo-ro-"))
    folder.chmod(0o755)
    yield folder
    subprocess.run(["chattr", "-R", "-i", str(folder)], capture_output=True)
    for p in [folder, *folder.rglob("*")]:
        if p.is_dir():
            p.chmod(0o755)
    shutil.rmtree(folder, ignore_errors=True)


def as_nobody() -> list[str]:
    """How to run a command so that file permissions apply to it: as ``nobody`` when root.

    Skips the test, saying why, when ``nobody`` cannot run ``bigtwo``: the checkout (an
    editable install) lies in a folder only its owner can read, such as a mode-700 home
    folder.  test_read_only_injected covers the message either way."""
    if os.geteuid() != 0:
        return []
    tools = [p for p in (["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"],
                         ["runuser", "-u", "nobody", "--"]) if shutil.which(p[0])]
    if not tools:
        why = "neither setpriv nor runuser is installed, so nothing runs as another user"
        if os.environ.get("CI") == "true":
            pytest.fail(f"CI=true: {why}")
        pytest.skip(why)
    why = ""
    for prefix in tools:
        # What the tests run, from outside the checkout.  (A bare ``import ledger`` is not
        # enough: the wheel's sample_sessions folder makes site-packages/ledger/ an empty
        # namespace package that imports even when the checkout cannot be read.)
        probe = subprocess.run([*prefix, sys.executable, "-m", "ledger", "--help"], capture_output=True,
                               text=True, cwd="/")
        if probe.returncode == 0:
            return prefix
        why = why or (probe.stderr.strip().splitlines() or [f"exit {probe.returncode}"])[-1]
    pytest.skip(f"user nobody cannot run bigtwo from the checkout {ROOT} (a folder on the way "
                f"is readable only by its owner): {why}")


# --- read-only ----------------------------------------------------------------------------


@pytest.mark.parametrize("what", ["file", "folder"])
def test_read_only_file_or_folder(shared_dir, what):
    prefix = as_nobody()
    folder = shared_dir / "evening"
    folder.mkdir()
    ledger = folder / "ledger.db"
    make_ledger(ledger)
    before = file_digest(ledger)
    if what == "file":
        ledger.chmod(0o444)
        folder.chmod(0o777)  # the folder is writable: only the file is read-only
    else:
        ledger.chmod(0o666)
        folder.chmod(0o555)
    if os.geteuid() == 0:  # the file belongs to root: nobody may not write it in either case
        ledger.chmod(ledger.stat().st_mode & ~(stat.S_IWGRP | stat.S_IWOTH) if what == "file"
                     else 0o644)
    for args in (DEAL, ("session", "start", "--players", "Eve,Fay"), ("undo",)):
        result = bigtwo("--db", str(ledger), *args, prefix=prefix)
        assert result.returncode == 1, result
        assert "read-only" in one_clean_line(result.stderr)
    readable = bigtwo("--db", str(ledger), "standings", "--json", prefix=prefix)
    if what == "file":
        assert readable.returncode == 0 and '"deals": 2' in readable.stdout  # reading still works
    else:  # SQLite cannot read a WAL ledger without making its -shm file beside it
        assert readable.returncode == 1 and "read-only" in one_clean_line(readable.stderr)
    folder.chmod(0o755)
    assert file_digest(ledger) == before


def test_new_ledger_in_a_read_only_folder(shared_dir):
    prefix = as_nobody()
    folder = shared_dir / "locked"
    folder.mkdir(mode=0o555)
    folder.chmod(0o555)
    result = bigtwo("--db", str(folder / "ledger.db"), "session", "start", *FOUR, prefix=prefix)
    assert result.returncode == 1
    assert "permission denied, or its folder is read-only" in one_clean_line(result.stderr)
    assert list(folder.iterdir()) == []


def _chattr(path: Path, flag: str) -> bool:
    return subprocess.run(["chattr", flag, str(path)], capture_output=True).returncode == 0


def test_immutable_file_binds_even_root(shared_dir):
    if os.geteuid() != 0 or shutil.which("chattr") is None:
        pytest.skip("chattr +i needs root")
    ledger = shared_dir / "ledger.db"
    make_ledger(ledger)
    before = file_digest(ledger)
    if not _chattr(ledger, "+i"):
        pytest.skip("this filesystem has no immutable flag")
    try:
        result = bigtwo("--db", str(ledger), *DEAL)
        assert result.returncode == 1
        assert "read-only" in one_clean_line(result.stderr)
    finally:
        _chattr(ledger, "-i")
    assert file_digest(ledger) == before


# --- injected faults ------------------------------------------------------------------------


IO_ERROR = ("disk I/O error", "SQLITE_IOERR_WRITE", 778)  # SQLite's text, result code name, code


class Faulty(sqlite3.Connection):
    """A connection whose statements containing ``fail_on`` fail like a bad disk would:
    the error carries SQLite's result code, which is what the ledger reads."""

    fail_on: str | None = None
    error = IO_ERROR

    def execute(self, sql, *args):  # type: ignore[override]
        self._maybe_fail(sql)
        return super().execute(sql, *args)

    def executemany(self, sql, *args):  # type: ignore[override]
        self._maybe_fail(sql)
        return super().executemany(sql, *args)

    def _maybe_fail(self, sql: str) -> None:
        if Faulty.fail_on is not None and Faulty.fail_on in sql:
            text, name, code = Faulty.error
            exc = sqlite3.OperationalError(text)
            exc.sqlite_errorname, exc.sqlite_errorcode = name, code
            raise exc


@pytest.fixture
def faulty(monkeypatch: pytest.MonkeyPatch) -> Iterator[type[Faulty]]:
    real = sqlite3.connect

    def connect(*args, **kwargs):
        kwargs.setdefault("factory", Faulty)
        return real(*args, **kwargs)

    monkeypatch.setattr(sqlite3, "connect", connect)
    yield Faulty
    Faulty.fail_on = None
    Faulty.error = IO_ERROR


@pytest.fixture(scope="module")
def played_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("template") / "ledger.db"
    make_ledger(path, deals=1)
    assert bigtwo("--db", str(path), "deal", "Ann=2", "Ben=0", "Cat=1", "Dan=1").returncode == 0
    return path


@pytest.fixture
def played(played_template, ledger_path, tmp_path) -> Path:
    """A ledger with a session and two deals (a copy of one made once), and a score sheet."""
    shutil.copyfile(played_template, ledger_path)
    sheet = tmp_path / "sheet.txt"
    sheet.write_text("2025-01-03\nAnn Ben Cat Dan\n0 3 11 8\n5 0 2 7\n", "utf-8")
    return sheet


COMMANDS = [
    DEAL,
    ("amend", "1", "Ann=0", "Ben=4", "Cat=11", "Dan=8"),
    ("void", "2"),
    ("undo",),
    ("session", "start", "--players", "Eve,Fay"),
    ("session", "end"),
    ("import", "SHEET"),
]
FAULT_POINTS = ["BEGIN IMMEDIATE", "INSERT INTO entries", "INSERT INTO points", "INSERT INTO audit",
                "INSERT INTO sessions", "UPDATE sessions", "COMMIT"]


@pytest.mark.parametrize("args", COMMANDS, ids=lambda a: " ".join(a[:2]))
@pytest.mark.parametrize("fail_on", FAULT_POINTS)
def test_an_io_error_while_writing_saves_nothing(cli, ledger_path, played, faulty, args, fail_on):
    args = tuple(str(played) if a == "SHEET" else a for a in args)
    before = file_digest(ledger_path)
    faulty.fail_on = fail_on
    result = cli(*args)
    faulty.fail_on = None
    if result.exit_code == 0:
        # This command never runs that statement (e.g. a deal has no UPDATE sessions).
        return
    assert result.exit_code == 1, result.output
    line = one_clean_line(result.stderr)
    assert line.endswith("disk I/O error; nothing was saved"), line
    assert file_digest(ledger_path) == before


def test_each_command_meets_at_least_one_fault(cli, ledger_path, played, faulty):
    """The table above is not vacuous: every command writes, so BEGIN IMMEDIATE fails it."""
    faulty.fail_on = "BEGIN IMMEDIATE"
    for args in COMMANDS:
        args = tuple(str(played) if a == "SHEET" else a for a in args)
        assert cli(*args).exit_code == 1, args
    faulty.fail_on = None
    assert cli.ok("doctor").startswith("ok: 1 session, 2 entries")


@pytest.mark.parametrize("args", [("standings",), ("log",), ("settle", "--json"), ("doctor",)])
def test_an_io_error_while_reading_is_one_clean_line(cli, played, faulty, args):
    faulty.fail_on = "SELECT"
    result = cli(*args)
    assert result.exit_code == 1
    assert "disk I/O error" in one_clean_line(result.stderr)


def test_read_only_injected(cli, ledger_path, played, faulty):
    """Where a real read-only file cannot be made, SQLite's own message is injected."""
    before = file_digest(ledger_path)
    faulty.fail_on = "INSERT INTO entries"
    faulty.error = ("attempt to write a readonly database", "SQLITE_READONLY", 8)
    result = cli(*DEAL)
    assert result.exit_code == 1
    assert "the file or its folder is read-only" in one_clean_line(result.stderr)
    assert file_digest(ledger_path) == before


def test_a_full_disk_saves_nothing(cli, ledger_path, monkeypatch):
    """The disk fills up in the middle of an evening: SQLite's max_page_count stops the
    file from growing, as a full disk would, and the deal that does not fit is refused."""
    cli.ok("session", "start", *FOUR)
    real = sqlite3.connect

    def small_disk(*args, **kwargs):
        conn = real(*args, **kwargs)
        pages = conn.execute("PRAGMA page_count").fetchone()[0]
        conn.execute(f"PRAGMA max_page_count = {max(pages, 1)}")
        return conn

    monkeypatch.setattr(sqlite3, "connect", small_disk)
    recorded = 0
    for _ in range(500):
        before = file_digest(ledger_path)
        result = cli(*DEAL)
        if result.exit_code != 0:
            break
        recorded += 1
    else:
        pytest.fail("the ledger never filled up")
    assert result.exit_code == 1
    assert one_clean_line(result.stderr).endswith("the disk is full; nothing was saved")
    assert file_digest(ledger_path) == before
    monkeypatch.setattr(sqlite3, "connect", real)
    assert cli.ok("doctor").startswith(f"ok: 1 session, {recorded} entries, {recorded} live deals")


# --- files that are not ours --------------------------------------------------------------


def _leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir())


@pytest.mark.no_ledger
def test_missing_folder_is_not_created(tmp_path):
    target = tmp_path / "no" / "such" / "ledger.db"
    for args in (("session", "start", *FOUR), DEAL, ("standings",), ("doctor",), ("import", "x.txt")):
        result = bigtwo("--db", str(target), *args)
        assert result.returncode in (1, 2)
        line = one_clean_line(result.stderr)
        assert "does not exist" in line or "no ledger" in line or "no such file" in line, line
    assert _leftovers(tmp_path) == []


@pytest.mark.no_ledger
def test_a_folder_where_the_file_should_be(tmp_path):
    (tmp_path / "ledger.db").mkdir()
    result = bigtwo("--db", str(tmp_path / "ledger.db"), "session", "start", *FOUR)
    assert result.returncode == 1
    assert "it is a folder" in one_clean_line(result.stderr)


def _foreign(path: Path, *, wal: bool = False, user_version: int = 0) -> None:
    conn = sqlite3.connect(path)
    if wal:
        conn.execute("PRAGMA journal_mode = WAL")
    conn.execute("CREATE TABLE recipes (id INTEGER PRIMARY KEY, title TEXT)")
    conn.execute("INSERT INTO recipes (title) VALUES ('dumplings')")
    conn.execute(f"PRAGMA user_version = {user_version}")
    conn.commit()
    conn.close()


WRITERS = [("session", "start", *FOUR), DEAL, ("standings",), ("doctor",), ("backup", "BACKUP")]


@pytest.mark.no_ledger
@pytest.mark.parametrize("kind", ["text", "empty-sqlite-header", "other-program", "other-program-wal",
                                  "other-program-our-version"])
def test_a_file_that_is_not_a_ledger_is_left_byte_for_byte(tmp_path, kind):
    path = tmp_path / "data.db"
    if kind == "text":
        path.write_text("Ann 0 Ben 3\nthis is a score sheet, not a database\n", "utf-8")
        expect = "not an SQLite database"
    elif kind == "empty-sqlite-header":
        path.write_bytes(b"SQLite format 3\x00" + b"\xff" * 200)
        expect = "not"
    else:
        _foreign(path, wal=kind.endswith("wal"),
                 user_version=SCHEMA_VERSION if kind.endswith("version") else 0)
        expect = "another program"
    before = bytes_digest(path)
    for args in WRITERS:
        args = tuple(str(tmp_path / "b.db") if a == "BACKUP" else a for a in args)
        result = bigtwo("--db", str(path), *args)
        assert result.returncode == 1, (args, result)
        assert expect in one_clean_line(result.stderr)
    assert bytes_digest(path) == before
    assert _leftovers(tmp_path) == ["data.db"]


def test_a_ledger_from_a_newer_version_is_refused(tmp_path):
    path = tmp_path / "ledger.db"
    make_ledger(path)
    conn = sqlite3.connect(path)
    conn.execute("INSERT INTO _sqlite_migrations (migration_set, name, applied_at) "
                 "VALUES ('bigtwo', 'm999_from_the_future', '2031-01-01')")
    conn.commit()
    conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()
    before = file_digest(path)
    for args in WRITERS:
        args = tuple(str(tmp_path / "b.db") if a == "BACKUP" else a for a in args)
        result = bigtwo("--db", str(path), *args)
        assert result.returncode == 1
        line = one_clean_line(result.stderr)
        assert (f"made by a newer bigtwo: schema {SCHEMA_VERSION + 1}, this program knows "
                f"{SCHEMA_VERSION}") in line
        assert "m999_from_the_future" in line
    assert file_digest(path) == before
    assert not (tmp_path / "b.db").exists()
