"""The self-check's comparison of a ledger's schema with this program's: every table,
index, trigger and view of the file against those the migrations
(:mod:`ledger.storage.schema`) make on an empty database (``bigtwo doctor``, through
``ledger.inspection``).
"""

from __future__ import annotations

import sqlite3

from ledger.storage.schema import check_and_migrate, schema_item, sqlite_utils_module

SchemaRow = tuple[str, str, str]  # (type, name, SQL with its white space collapsed)


def schema_rows(conn: sqlite3.Connection) -> dict[tuple[str, str], str]:
    """Every table, index, trigger and view of a file by (type, name): its SQL, white
    space collapsed (indexes SQLite makes itself, which have none, as "(automatic)")."""
    return {
        (kind, name): " ".join(sql.split()) if sql else "(automatic)"
        for kind, name, sql in conn.execute(
            "SELECT type, name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_stat%'")
    }


_EXPECTED: dict[tuple[str, str], str] = {}


def expected_schema() -> dict[tuple[str, str], str]:
    """:func:`schema_rows` of a new ledger, made here on an empty database in memory as
    opening a new ledger makes it: from the schema script (fresh.py), or by this
    program's migrations while the script is not current."""
    if not _EXPECTED:
        from ledger.storage.fresh import create_from_script

        conn = sqlite3.connect(":memory:", isolation_level=None)
        try:
            conn.execute("PRAGMA foreign_keys = ON")
            if not create_from_script(conn):
                db = sqlite_utils_module().Database(conn, strict=True, execute_plugins=False)
                check_and_migrate(db, ":memory:")
            _EXPECTED.update(schema_rows(conn))
        finally:
            conn.close()
    return dict(_EXPECTED)


def schema_differences(conn: sqlite3.Connection) -> list[tuple[str, str]]:
    """(what, how it differs) for every table, index, trigger or view that is missing,
    extra or written differently from this program's own schema."""
    from ledger.core.i18n import N_
    from ledger.core.phrase import Phrase

    have, want = schema_rows(conn), expected_schema()
    out: list[tuple[str, str]] = []
    for key in sorted(set(want) | set(have)):
        kind, name = key
        if key not in have:
            how = Phrase(N_("is missing (expected: {sql})"), sql=want[key])
        elif key not in want:
            how = Phrase(N_("is not part of this program's schema: {sql}"), sql=have[key])
        elif have[key] != want[key]:
            how = Phrase(N_("differs: expected {expected}, found {found}"),
                         expected=want[key], found=have[key])
        else:
            continue
        out.append((schema_item(kind, name), how))
    return out
