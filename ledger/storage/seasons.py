"""Named seasons as append-only rows (``ledger.seasons``; table from migration m006).

Adding a season is a row of kind ``add`` (its name, and the dates it runs from and to);
adding the same name again gives it new dates, removing it is a row of kind
``remove``.  What a name means now is its latest row, in the one order every device
computes the same: by ``created_at``, then ``uuid``.  Writes go inside
:meth:`Ledger.writing <ledger.storage.store.Ledger.writing>`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NamedTuple

from ledger.core.text import name_key
from ledger.storage.codec import new_uuid, now

if TYPE_CHECKING:
    from ledger.storage.store import Ledger


class SeasonRow(NamedTuple):
    uuid: str
    created_at: str
    kind: str  # add or remove
    name: str
    since: str | None  # YYYY-MM-DD, or None: open at that end
    until: str | None

    def to_dict(self) -> dict[str, Any]:
        return {"uuid": self.uuid, "at": self.created_at, "kind": self.kind, "name": self.name,
                "since": self.since, "until": self.until}


_COLUMNS = "uuid, created_at, kind, name, since, until"


class Seasons:
    """The seasons of one open ledger."""

    def __init__(self, ledger: Ledger) -> None:
        self.conn = ledger.conn

    def rows(self) -> list[SeasonRow]:
        """Every row, oldest first (the export takes them all)."""
        return [SeasonRow(*r) for r in self.conn.execute(
            f"SELECT {_COLUMNS} FROM seasons ORDER BY created_at, uuid")]

    def current(self) -> list[SeasonRow]:
        """Each name's latest row, leaving out the removed, by start date then name."""
        latest: dict[str, SeasonRow] = {}
        for row in self.rows():
            latest[name_key(row.name)] = row
        return sorted((r for r in latest.values() if r.kind == "add"),
                      key=lambda r: (r.since or "", r.until or "9999", name_key(r.name)))

    def find(self, name: str) -> SeasonRow | None:
        row = self.conn.execute(
            f"SELECT {_COLUMNS} FROM seasons WHERE key = ? ORDER BY created_at DESC, uuid DESC "
            "LIMIT 1", (name_key(name),)).fetchone()
        return None if row is None or row[2] != "add" else SeasonRow(*row)

    def by_uuid(self, uuid: str) -> SeasonRow | None:
        row = self.conn.execute(f"SELECT {_COLUMNS} FROM seasons WHERE uuid = ?", (uuid,)).fetchone()
        return None if row is None else SeasonRow(*row)

    def add(self, kind: str, name: str, since: str | None, until: str | None,
            uuid: str | None = None, at: str | None = None) -> SeasonRow:
        row = SeasonRow(uuid or new_uuid(), at or now(), kind, name, since, until)
        self.conn.execute(
            "INSERT INTO seasons (uuid, created_at, kind, name, key, since, until) "
            "VALUES (?, ?, ?, ?, ?, ?, ?)",
            (row.uuid, row.created_at, kind, name, name_key(name), since, until))
        return row
