"""Build tests/data/ledger_v1.db: a ledger written by the first released schema.

tests/test_upgrade.py opens a copy of that file with today's code and checks that
it migrates and keeps every deal, standing and payment.  The file must be made
by the first release's code, not today's, so run this script against that
source tree (commit 57e8a15, schema migration ``m001_initial`` only)::

    mkdir -p /tmp/bigtwo-v1 && git archive 57e8a15 | tar -x -C /tmp/bigtwo-v1
    PYTHONPATH=/tmp/bigtwo-v1 .venv/bin/python scripts/make_v1_fixture.py

It records sample_sessions/evening.toml (deals, an undo and an amend) and writes
tests/data/ledger_v1.json beside the ledger: what that release reported for
``standings --json`` and ``settle --json``, and every entry (uuid, kind, deal
number, facts).  Regenerating it with a newer release defeats its purpose; the
script refuses when the code it runs has more than the first migration.
"""

from __future__ import annotations

import json
import sqlite3
import sys
from pathlib import Path

from typer.testing import CliRunner

import ledger
from ledger.cli.app import app
from ledger.formats import samples
from ledger.storage.store import open_ledger

FIRST_SCHEMA = ["m001_initial"]
DATA = Path(__file__).resolve().parent.parent / "tests" / "data"


def main() -> int:
    out = DATA / "ledger_v1.db"
    for stale in (out, out.with_name(out.name + "-wal"), out.with_name(out.name + "-shm")):
        stale.unlink(missing_ok=True)
    with open_ledger(out) as book:
        sessions = samples.load_file(book, samples.samples_dir() / "evening.toml")
        applied = [r[0] for r in book.db.execute("SELECT name FROM _sqlite_migrations ORDER BY id")]
        if applied != FIRST_SCHEMA:
            out.unlink()
            print(f"this code ({ledger.__file__}) has migrations {applied}; run the script "
                  "against the first release (see its docstring)", file=sys.stderr)
            return 1
        entries = [
            {"uuid": e.uuid, "kind": e.kind, "deal": e.deal_no, "facts": e.facts}
            for s in sessions for e in book.journal.entries(s.id)
        ]
    runner = CliRunner()
    reports = {}
    for command in ("standings", "settle"):
        result = runner.invoke(app, ["--db", str(out), command, "--json"])
        if result.exit_code != 0:
            print(result.output, file=sys.stderr)
            return 1
        reports[command] = json.loads(result.stdout)
    # One self-contained file: fold the WAL back in and leave rollback-journal mode.
    conn = sqlite3.connect(out)
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.execute("PRAGMA journal_mode = DELETE")
    conn.execute("VACUUM")
    conn.close()
    expected = {"schema": applied, "entries": entries, **reports}
    (DATA / "ledger_v1.json").write_text(json.dumps(expected, indent=1, ensure_ascii=False) + "\n",
                                         "utf-8")
    print(f"wrote {out} ({out.stat().st_size} bytes, {len(entries)} entries)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
