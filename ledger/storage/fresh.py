"""A new ledger made from the schema script (:mod:`ledger.storage.schema_script`): its
statements in one transaction, the migrations it stands for recorded as applied, then
the schema version and the application id, as the migrations would leave them.

Plain ``sqlite3``: a new ledger costs a few dozen statements, not the import of
sqlite-utils and ten migrations.  Those run only on a ledger written by an older bigtwo
(:func:`ledger.storage.schema.check_and_migrate`), and on a new one whenever the script
does not stand for this program's migrations (its version differs: a migration was
added and ``python scripts/make_schema.py`` not run yet, which a test refuses).
"""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime

from ledger.storage import schema_script
from ledger.storage.schema import APPLICATION_ID, SCHEMA_VERSION


def script_current() -> bool:
    """Whether the script stands for every migration of this program."""
    return schema_script.VERSION == SCHEMA_VERSION == len(schema_script.MIGRATIONS)


def create_from_script(conn: sqlite3.Connection) -> bool:
    """Make the schema in the empty file ``conn`` opened, in one ``BEGIN IMMEDIATE``
    transaction; False, with nothing written, when the file is not empty once the write
    lock is held (another process made it first: it is then migrated as any other) or
    the script is not current."""
    if not script_current():
        return False
    conn.execute("BEGIN IMMEDIATE")
    try:
        if conn.execute("SELECT 1 FROM sqlite_master LIMIT 1").fetchone() is not None:
            conn.execute("ROLLBACK")
            return False
        for sql in schema_script.STATEMENTS:
            conn.execute(sql)
        at = str(datetime.now(UTC))  # as sqlite-utils records a migration applied
        conn.executemany(
            "INSERT INTO _sqlite_migrations (migration_set, name, applied_at) VALUES (?, ?, ?)",
            [("bigtwo", name, at) for name in schema_script.MIGRATIONS])
        conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise
    return True
