"""A full disk says so: SQLite can report one as an I/O error (writing the WAL or its
index), which is then checked against the free space where the ledger lives."""

from __future__ import annotations

import errno
import os
import sqlite3
from types import SimpleNamespace

import pytest

from ledger.storage.errors import reason, store_error


def _io_error() -> sqlite3.OperationalError:
    exc = sqlite3.OperationalError("disk I/O error")
    exc.sqlite_errorname = "SQLITE_IOERR_WRITE"  # type: ignore[attr-defined]
    return exc


def _free(monkeypatch, free_bytes: int) -> None:
    monkeypatch.setattr(os, "statvfs", lambda _: SimpleNamespace(f_bavail=free_bytes // 4096,
                                                                 f_frsize=4096))


def test_an_io_error_on_a_full_disk_says_the_disk_is_full(tmp_path, monkeypatch):
    _free(monkeypatch, 0)
    path = str(tmp_path / "ledger.db")
    assert "the disk is full" in str(store_error(_io_error(), path))
    assert reason(_io_error(), path) == "the disk is full"


def test_an_io_error_with_room_left_stays_an_io_error(tmp_path, monkeypatch):
    _free(monkeypatch, 10 << 30)
    path = str(tmp_path / "ledger.db")
    assert "disk I/O error" in str(store_error(_io_error(), path))
    assert reason(_io_error(), path) == "disk I/O error"


def test_a_full_disk_while_exporting_says_so(cli, ledger_path, tmp_path, monkeypatch):
    cli.ok("session", "start", "--players", "Ann,Ben")
    real_fsync = os.fsync

    def no_room(fd):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(os, "fsync", no_room)
    err = cli.fails("export", "--out", str(tmp_path / "e.json"))
    monkeypatch.setattr(os, "fsync", real_fsync)
    assert "the disk is full" in err
    assert not list(tmp_path.glob(".e.json*"))


@pytest.mark.parametrize("errname", ["SQLITE_FULL", "SQLITE_IOERR_SHMSIZE"])
def test_full_or_shm_io_error_on_a_full_disk(tmp_path, monkeypatch, errname):
    _free(monkeypatch, 512)
    exc = sqlite3.OperationalError("x")
    exc.sqlite_errorname = errname  # type: ignore[attr-defined]
    assert "the disk is full" in str(store_error(exc, str(tmp_path / "l.db")))
