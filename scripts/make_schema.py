"""Write ledger/storage/schema_script.py: the schema a new ledger is made from, in plain SQL.

A new ledger is made by running that script (ledger/storage/fresh.py), in one
transaction and without sqlite-utils; the migrations of ledger/storage/schema.py run
only on a ledger written by an older bigtwo.  The script is what the migrations make of
an empty database, read back from ``sqlite_master``, so the two cannot differ:

    python scripts/make_schema.py          # rewrite it, after adding a migration
    python scripts/make_schema.py --check  # exit 1 if it is out of date

tests/storage/test_schema_script.py fails while it is stale, and compares a new ledger
made from it with one made by every migration, table by table and pragma by pragma.
"""

from __future__ import annotations

import sqlite3
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TARGET = ROOT / "ledger" / "storage" / "schema_script.py"

sys.path.insert(0, str(ROOT))

HEAD = '''"""The schema of a new ledger, in plain SQL: written by scripts/make_schema.py from what
the migrations (ledger/storage/schema.py) make of an empty database; do not edit (a test
fails when it is stale).  ledger/storage/fresh.py runs it."""
'''
# Objects in the order they can be made: a table before its indexes and triggers, every
# table before a view (its SELECT is checked when it is made).
ORDER = {"table": 0, "index": 1, "trigger": 2, "view": 3}


def migrated() -> sqlite3.Connection:
    """An empty database in memory with every migration applied."""
    from ledger.storage.schema import check_and_migrate, sqlite_utils_module

    conn = sqlite3.connect(":memory:", isolation_level=None)
    conn.execute("PRAGMA foreign_keys = ON")
    db = sqlite_utils_module().Database(conn, strict=True, execute_plugins=False)
    check_and_migrate(db, ":memory:")
    return conn


def script_text() -> str:
    from ledger.storage.schema import SCHEMA_VERSION

    conn = migrated()
    try:
        rows = conn.execute(
            "SELECT type, name, sql FROM sqlite_master WHERE sql IS NOT NULL "
            "AND name NOT LIKE 'sqlite_%' ORDER BY rowid").fetchall()
        tables = [name for kind, name, _sql in rows if kind == "table"]
        for table in tables:  # the migrations write no rows but the record of themselves
            if table != "_sqlite_migrations":
                assert conn.execute(f'SELECT COUNT(*) FROM "{table}"').fetchone()[0] == 0, table
        names = [n for (n,) in conn.execute(
            "SELECT name FROM _sqlite_migrations WHERE migration_set = 'bigtwo' ORDER BY rowid")]
    finally:
        conn.close()
    rows.sort(key=lambda row: ORDER[row[0]])  # stable: the migrations' order within a type
    lines = [HEAD, f"VERSION = {SCHEMA_VERSION}", "",
             "# The migrations this schema is the result of, in order (_sqlite_migrations).",
             "MIGRATIONS = ("]
    lines += [f'    "{name}",' for name in names]
    lines += [")", "", "STATEMENTS = ("]
    for _kind, _name, sql in rows:
        lines.append('    """' + sql.replace("\\", "\\\\").replace('"""', '\\"\\"\\"') + '""",')
    lines.append(")")
    return "\n".join(lines) + "\n"


def main() -> int:
    text = script_text()
    if "--check" in sys.argv[1:]:
        if not TARGET.is_file() or TARGET.read_text("utf-8") != text:
            print(f"{TARGET.relative_to(ROOT)} is out of date: run python scripts/make_schema.py",
                  file=sys.stderr)
            return 1
        return 0
    TARGET.write_text(text, "utf-8")
    print(f"wrote {TARGET.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
