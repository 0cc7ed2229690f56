"""Each player's ways to be paid, as append-only rows (``ledger.pay_ids``; migration m009).

A row of kind ``set`` gives a player (by id) a pay id in one scheme (``fps``,
``paynow``, ``promptpay`` or ``text``; the id in its written form,
:func:`ledger.core.paycode.check_pay_id`); a row of kind ``remove`` takes the scheme's
id away.  What a player's id in a scheme is now is the latest row of the player (as
counted now: merges followed) and scheme, in the one order every device computes the
same: ``created_at``, then ``uuid``.  Every row has a uuid made where the action was
taken.  Pay ids are personal data: only the scorekeeper's own reads take them
(docs/money.md, "Pay ids").  Writes go inside
:meth:`Ledger.writing <ledger.storage.store.Ledger.writing>`.
"""

from __future__ import annotations

import sqlite3
from typing import TYPE_CHECKING, Any, NamedTuple

from ledger.storage.codec import new_uuid, now

if TYPE_CHECKING:
    from ledger.storage.store import Ledger

SCHEMES = ("fps", "paynow", "promptpay", "text")


def create_table(conn: sqlite3.Connection) -> None:
    """Migration m009: the table, its order index and the append-only triggers."""
    schemes = ", ".join(f"'{s}'" for s in SCHEMES)
    conn.execute(
        f"""CREATE TABLE pay_ids (
            id INTEGER PRIMARY KEY, uuid TEXT NOT NULL UNIQUE, created_at TEXT NOT NULL,
            kind TEXT NOT NULL CHECK (kind IN ('set', 'remove')),
            player_id INTEGER NOT NULL REFERENCES players(id),
            scheme TEXT NOT NULL CHECK (scheme IN ({schemes})),
            value TEXT CHECK (value IS NULL OR length(value) BETWEEN 1 AND 500),
            CHECK ((kind = 'set') = (value IS NOT NULL))) STRICT""")
    conn.execute("CREATE INDEX idx_pay_ids_player ON pay_ids (player_id, scheme, created_at, uuid)")
    for op in ("UPDATE", "DELETE"):
        conn.execute(
            f"CREATE TRIGGER pay_ids_no_{op.lower()} BEFORE {op} ON pay_ids "
            "BEGIN SELECT RAISE(ABORT, 'pay_ids are append-only'); END")


class PayIdRow(NamedTuple):
    uuid: str
    created_at: str
    kind: str  # set or remove
    player: str  # the name first typed for the player (as the sessions hold it)
    scheme: str
    value: str | None  # None: a remove

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"uuid": self.uuid, "at": self.created_at, "kind": self.kind,
                               "player": self.player, "scheme": self.scheme}
        if self.value is not None:
            out["id"] = self.value
        return out


class PayIds:
    """The pay ids of one open ledger."""

    def __init__(self, ledger: Ledger) -> None:
        self.conn = ledger.conn

    def rows(self, session_ids: list[int] | None = None) -> list[PayIdRow]:
        """Every row, sets and removes, in the one order; with ``session_ids``, only the
        rows of players (as counted now) seated in those sessions (an export's)."""
        import json

        return [PayIdRow(*r) for r in self.conn.execute(
            """SELECT q.uuid, q.created_at, q.kind, n.typed_name, q.scheme, q.value
               FROM pay_ids q JOIN player_names n ON n.id = q.player_id
               WHERE ?1 IS NULL OR n.canon_id IN (
                   SELECT m.canon_id FROM seats t JOIN player_names m ON m.id = t.player_id
                   WHERE t.session_id IN (SELECT value FROM json_each(?1)))
               ORDER BY q.created_at, q.uuid""",
            (None if session_ids is None else json.dumps(session_ids),))]

    def current(self) -> dict[str, list[tuple[str, str]]]:
        """Each player's pay ids now, by the name shown for it: [(scheme, id)] in the
        order of :data:`SCHEMES`."""
        out: dict[str, list[tuple[str, str]]] = {}
        for name, scheme, value in self.conn.execute(
                """SELECT name, scheme, value FROM (
                       SELECT n.name, q.scheme, q.kind, q.value, ROW_NUMBER() OVER (
                           PARTITION BY n.canon_id, q.scheme
                           ORDER BY q.created_at DESC, q.uuid DESC) AS latest
                       FROM pay_ids q JOIN player_names n ON n.id = q.player_id)
                   WHERE latest = 1 AND kind = 'set'"""):
            out.setdefault(name, []).append((scheme, value))
        for found in out.values():
            found.sort(key=lambda sv: SCHEMES.index(sv[0]))
        return out

    def by_uuid(self, uuid: str) -> PayIdRow | None:
        row = self.conn.execute(
            """SELECT q.uuid, q.created_at, q.kind, n.typed_name, q.scheme, q.value
               FROM pay_ids q JOIN player_names n ON n.id = q.player_id WHERE q.uuid = ?""",
            (uuid,)).fetchone()
        return None if row is None else PayIdRow(*row)

    def add(self, kind: str, player_id: int, scheme: str, value: str | None,
            uuid: str | None = None, at: str | None = None) -> str:
        uuid = uuid or new_uuid()
        self.conn.execute(
            "INSERT INTO pay_ids (uuid, created_at, kind, player_id, scheme, value) "
            "VALUES (?, ?, ?, ?, ?, ?)", (uuid, at or now(), kind, player_id, scheme, value))
        return uuid

    def count(self) -> int:
        return int(self.conn.execute("SELECT COUNT(*) FROM pay_ids").fetchone()[0])
