"""The file under you stays the file: a ledger deleted or replaced by a rename (as sync
tools do) while `table` or `import` runs stops the command with one `error:` line,
and no deal is reported as recorded that is not in the file at the path."""

from __future__ import annotations

import json
import os
import select
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from ledger.core.errors import LedgerMoved
from ledger.storage.store import open_ledger


def _replace(path: Path, how: str) -> None:
    if how == "deleted":
        for suffix in ("", "-wal", "-shm"):
            Path(f"{path}{suffix}").unlink(missing_ok=True)
    else:  # a sync tool writes a copy beside it and renames it over the ledger
        copy = path.with_name("incoming.db")
        shutil.copyfile(path, copy)
        os.replace(copy, path)


@pytest.mark.parametrize("how", ["deleted", "renamed"])
def test_a_write_after_the_file_was_replaced_is_refused(tmp_path, how):
    path = tmp_path / "ledger.db"
    with open_ledger(path) as ledger:
        with ledger.writing():
            ledger.journal.set_setting("probe", "1")
        _replace(path, how)
        with (pytest.raises(LedgerMoved, match="no longer the file this command opened"),
              ledger.writing()):
            ledger.journal.set_setting("probe", "2")


def _read_until(stream, text: str, timeout: float = 30) -> str:
    seen = ""
    end = time.monotonic() + timeout
    while text not in seen:
        ready, _, _ = select.select([stream], [], [], max(0.0, end - time.monotonic()))
        assert ready, f"timed out waiting for {text!r}; got {seen!r}"
        chunk = os.read(stream.fileno(), 4096).decode()
        assert chunk, f"ended before {text!r}; got {seen!r}"
        seen += chunk
    return seen


@pytest.mark.slow
@pytest.mark.parametrize("how", ["deleted", "renamed"])
def test_table_stops_when_its_ledger_is_replaced(tmp_path, how):
    path = tmp_path / "ledger.db"
    env = {**os.environ, "BIGTWO_DB": str(path), "PYTHONIOENCODING": "utf-8"}
    run = [sys.executable, "-m", "ledger"]
    subprocess.run([*run, "session", "start", "--players", "Ann,Ben,Cat,Dan"], env=env,
                   check=True, capture_output=True)
    proc = subprocess.Popen([*run, "table"], env=env, stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdin is not None and proc.stdout is not None
    _read_until(proc.stdout, "deal 1> ")
    proc.stdin.write(b"0 1 2 3\n")
    proc.stdin.flush()
    _read_until(proc.stdout, "deal 2> ")
    _replace(path, how)
    proc.stdin.write(b"0 3 4 5\n0 1 1 1\n")
    proc.stdin.flush()
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 1
    lines = err.decode().strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: the ledger"), lines
    assert "no longer the file this command opened" in lines[0]
    assert b"deal 2:" not in out  # never reported as recorded
    if how == "renamed":  # the file now at the path has what was there when it was copied
        standings = subprocess.run([*run, "standings", "--json"], env=env, check=True,
                                   capture_output=True, text=True).stdout
        assert max(p["deals"] for p in json.loads(standings)["players"]) <= 1


def test_import_stops_when_its_ledger_is_replaced(cli, tmp_path, ledger_path, monkeypatch):
    from ledger.formats import merge

    cli.ok("session", "start", "--players", "Ann,Ben,Cat,Dan")
    for _ in range(3):
        cli.ok("deal", "0", "1", "2", "3")
    export = tmp_path / "e.json"
    cli.ok("export", "--out", str(export))
    other = tmp_path / "other.db"
    real = merge.Importer._session

    def session_then_replace(self, spec, entries):
        _replace(other, "renamed")
        return real(self, spec, entries)

    monkeypatch.setattr(merge.Importer, "_session", session_then_replace)
    err = cli.fails("--db", str(other), "import", str(export), code=1)
    assert "no longer the file this command opened" in err
    assert len(err.strip().splitlines()) == 1
