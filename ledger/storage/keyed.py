"""One key, one action: which table holds a uuid, over every table that has one
(``ledger.keys``).

Every action is written with the uuid made where it was taken: a deal or a
correction (``entries``), a session (``sessions``), a payment or its undo
(``payments``), a season (``seasons``), a rename or merge (``player_events``), an
import sent to the hub (``imports``).  One uuid names one action, whichever table
holds it.  The tables are read from the schema itself (every table with a ``uuid``
column), so a table a later migration adds is covered the day it is made.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cached_property
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ledger.storage.store import Ledger

CHUNK = 500  # uuids looked up in one query (SQLite's limit of variables is far above)


class Keys:
    """The uuids of one open ledger, across its tables."""

    def __init__(self, ledger: Ledger) -> None:
        self.conn = ledger.conn

    @cached_property
    def tables(self) -> tuple[str, ...]:
        """Every table with a ``uuid`` column, by name."""
        names = [r[0] for r in self.conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' "
            "ORDER BY name")]
        return tuple(n for n in names if any(
            c[1] == "uuid" for c in self.conn.execute(f'PRAGMA table_info("{n}")')))

    def holders(self, uuids: Iterable[str]) -> dict[str, str]:
        """uuid -> the table that holds it, for those of ``uuids`` some table holds
        (one query per table for each :data:`CHUNK` of them)."""
        found: dict[str, str] = {}
        wanted = list(dict.fromkeys(uuids))
        for start in range(0, len(wanted), CHUNK):
            chunk = wanted[start:start + CHUNK]
            marks = ",".join("?" * len(chunk))
            for table in self.tables:
                for (uuid,) in self.conn.execute(
                        f'SELECT uuid FROM "{table}" WHERE uuid IN ({marks})', chunk):
                    found.setdefault(uuid, table)
        return found

    def none_held(self) -> bool:
        """Whether no table holds any uuid (a new ledger, or one emptied)."""
        return not any(self.conn.execute(f'SELECT 1 FROM "{table}" LIMIT 1').fetchone()
                       for table in self.tables)

    def held_elsewhere(self, uuids: dict[str, str]) -> dict[str, str]:
        """``uuids`` (uuid -> the table it is for) -> the other table that holds it, for
        those another table holds: each table is asked only about the uuids not its own
        (an import's entries are not looked up among entries, where merging finds them)."""
        found: dict[str, str] = {}
        for table in self.tables:
            wanted = [u for u, own in uuids.items() if own != table]
            for start in range(0, len(wanted), CHUNK):
                chunk = wanted[start:start + CHUNK]
                for (uuid,) in self.conn.execute(
                        f'SELECT uuid FROM "{table}" WHERE uuid IN ({",".join("?" * len(chunk))})',
                        chunk):
                    found.setdefault(uuid, table)
        return found

    def holder(self, uuid: str) -> str | None:
        """The table that holds ``uuid``, or None."""
        return self.holders([uuid]).get(uuid)

    def shared(self) -> list[tuple[str, tuple[str, ...]]]:
        """Every uuid that two tables hold, with those tables (the self-check's)."""
        union = " UNION ALL ".join(f"SELECT uuid, '{t}' AS t FROM \"{t}\"" for t in self.tables)
        if not union:
            return []
        return [(u, tuple(sorted(ts.split(",")))) for u, ts in self.conn.execute(
            f"SELECT uuid, group_concat(t) FROM ({union}) GROUP BY uuid HAVING COUNT(*) > 1 "
            "ORDER BY uuid")]

    # -- the keys of imports sent to the hub (table ``imports``, migration m010) --

    def import_digest(self, uuid: str) -> str | None:
        """The digest of the import ``uuid`` keyed, or None."""
        row = self.conn.execute("SELECT digest FROM imports WHERE uuid = ?", [uuid]).fetchone()
        return None if row is None else str(row[0])

    def add_import(self, uuid: str, digest: str, name: str, at: str | None = None) -> None:
        """Keep an import's key (inside ``ledger.writing()``)."""
        from ledger.storage.codec import now

        self.conn.execute("INSERT INTO imports (uuid, at, digest, name) VALUES (?, ?, ?, ?)",
                          [uuid, at or now(), digest, name])

    def imports(self) -> list[tuple[str, str, str, str]]:
        """(uuid, at, digest, name) of every import kept, oldest first."""
        return [(str(r[0]), str(r[1]), str(r[2]), str(r[3])) for r in self.conn.execute(
            "SELECT uuid, at, digest, name FROM imports ORDER BY id")]
