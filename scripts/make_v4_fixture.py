"""Build tests/data/ledger_v4.db: a ledger of schema 4 with undo marks in the audit log.

tests/storage/test_upgrade.py opens a copy with today's code and checks that migration
m005 turns its history into entries: the audit's undo marks into ``undoes``, each
``session end`` and the reopen an undo made into ``end`` / ``reopen`` entries.  It must
be made by the code of schema 4 (commit a64717f, migrations m001 to m004), so run it
against that source tree::

    mkdir -p /tmp/bigtwo-v4 && git archive a64717f | tar -x -C /tmp/bigtwo-v4
    PYTHONPATH=/tmp/bigtwo-v4 .venv/bin/python scripts/make_v4_fixture.py

It writes tests/data/ledger_v4.json beside it: what that code reported (``standings``,
``session list`` and ``log`` as JSON).  The script refuses newer code.
"""

from __future__ import annotations

import json
import os
import sqlite3
import sys
import time
from pathlib import Path

from typer.testing import CliRunner

import ledger
from ledger.cli.app import app
from ledger.storage.store import open_ledger

SCHEMA = ["m001_initial", "m002_session_totals", "m003_history_stats", "m004_player_events"]
DATA = Path(__file__).resolve().parent.parent / "tests" / "data"

STEPS = [
    # session 1: deals, an amend, a void, undos of each, then ended, undone (reopened),
    # one more deal and ended for good
    "session start --players Ann,Ben,Cat,Dan --name Friday --stake 0.5 --currency HKD",
    "deal Ann=0 Ben=3 Cat=7 Dan=10",
    "deal Ann=5 Ben=0 Cat=2 Dan=9",
    "deal Ann=8 Ben=4 Cat=0 Dan=1",
    "amend 2 Ann=6 Ben=0 Cat=2 Dan=9",
    "void 1",
    "undo",
    "undo",
    "deal Ann=1 Ben=2 Cat=3 Dan=0",
    "session end",
    "undo",
    "deal Ann=0 Ben=11 Cat=4 Dan=2",
    "session end",
    # session 2: the case of the redesign issue, as schema 4 recorded it: end, void,
    # undo, undo (the second took back deal 2 instead of reopening)
    "session start --players Ann,Ben,Cat --name Saturday",
    "deal Ann=0 Ben=3 Cat=7",
    "deal Ann=4 Ben=0 Cat=1",
    "session end",
    "void 1",
    "undo",
    "undo",
    # session 3: started, and taken back whole (schema 4 deleted it)
    "session start --players Eve,Fay --name Sunday",
    "undo",
    # a rename, so the player events travel too
    "player rename Cat Kat",
]


def main() -> int:
    out = DATA / "ledger_v4.db"
    for stale in (out, out.with_name(out.name + "-wal"), out.with_name(out.name + "-shm")):
        stale.unlink(missing_ok=True)
    os.environ["BIGTWO_LANG"] = "en"
    runner = CliRunner()

    def run(*args: str) -> str:
        result = runner.invoke(app, ["--db", str(out), *args])
        if result.exit_code != 0:
            raise SystemExit(f"bigtwo {' '.join(args)} failed:\n{result.output}")
        return result.stdout

    for step in STEPS:
        run(*step.split())
        time.sleep(0.002)  # distinct audit times
    with open_ledger(out) as book:
        applied = [r[0] for r in book.db.execute("SELECT name FROM _sqlite_migrations ORDER BY id")]
        if applied != SCHEMA:
            out.unlink()
            print(f"this code ({ledger.__file__}) has migrations {applied}; run the script "
                  "against schema 4 (see its docstring)", file=sys.stderr)
            return 1
    reports = {
        "schema": SCHEMA,
        "sessions": json.loads(run("session", "list", "--json")),
        "standings": {sid: json.loads(run("standings", "--session", sid, "--json"))
                      for sid in ("1", "2")},
        "log": {sid: json.loads(run("log", "--session", sid, "--json")) for sid in ("1", "2")},
    }
    conn = sqlite3.connect(out, isolation_level=None)
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.execute("PRAGMA journal_mode = DELETE")
    conn.close()
    (DATA / "ledger_v4.json").write_text(
        json.dumps(reports, indent=1, ensure_ascii=False) + "\n", "utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
