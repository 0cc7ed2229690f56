"""Payments between players as append-only rows (``ledger.payments``; migration m007).

A payment is a row of kind ``payment``: who paid whom, how much (decimal text), in
which currency, for one session (``session_id``) or against the balance as a whole
(null), with a note.  Undoing it appends a row of kind ``undo`` naming it
(``undoes``, its uuid).  Every row has a uuid made where the action was taken, and the
one order every device computes the same is ``created_at``, then ``uuid``.  Players
are stored by id and read back under the name shown now (renames and merges
followed).  Writes go inside :meth:`Ledger.writing <ledger.storage.store.Ledger.writing>`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NamedTuple

from ledger.storage.codec import new_uuid, now

if TYPE_CHECKING:
    from ledger.storage.store import Ledger


class PaymentRow(NamedTuple):
    uuid: str
    created_at: str
    kind: str  # payment or undo
    payer: str | None  # the names shown now
    payee: str | None
    amount: str | None  # decimal text
    currency: str | None
    session_id: int | None  # None: against the balance as a whole
    session_uuid: str | None
    note: str | None
    undoes: str | None  # an undo: the uuid of the payment it takes back


_SELECT = """SELECT p.uuid, p.created_at, p.kind, a.name, b.name, p.amount, p.currency,
    p.session_id, s.uuid, p.note, p.undoes
    FROM payments p LEFT JOIN player_names a ON a.id = p.payer_id
    LEFT JOIN player_names b ON b.id = p.payee_id LEFT JOIN sessions s ON s.id = p.session_id"""


class Payments:
    """The payments of one open ledger."""

    def __init__(self, ledger: Ledger) -> None:
        self.ledger = ledger
        self.conn = ledger.conn

    def rows(self) -> list[PaymentRow]:
        """Every row, payments and undos, in the one order (created_at, then uuid)."""
        return [PaymentRow(*r) for r in self.conn.execute(
            f"{_SELECT} ORDER BY p.created_at, p.uuid")]

    def live(self) -> list[PaymentRow]:
        """The payments no undo took back, in the one order."""
        return [PaymentRow(*r) for r in self.conn.execute(
            f"{_SELECT} WHERE p.kind = 'payment' AND NOT EXISTS "
            "(SELECT 1 FROM payments u WHERE u.undoes = p.uuid) ORDER BY p.created_at, p.uuid")]

    def by_uuid(self, uuid: str) -> PaymentRow | None:
        row = self.conn.execute(f"{_SELECT} WHERE p.uuid = ?", (uuid,)).fetchone()
        return None if row is None else PaymentRow(*row)

    def undo_of(self, uuid: str) -> PaymentRow | None:
        row = self.conn.execute(f"{_SELECT} WHERE p.undoes = ?", (uuid,)).fetchone()
        return None if row is None else PaymentRow(*row)

    def add(self, payer_id: int, payee_id: int, amount: str, currency: str,
            session_id: int | None, note: str | None, uuid: str | None = None,
            at: str | None = None) -> str:
        uuid = uuid or new_uuid()
        self.conn.execute(
            "INSERT INTO payments (uuid, created_at, kind, payer_id, payee_id, amount, currency, "
            "session_id, note) VALUES (?, ?, 'payment', ?, ?, ?, ?, ?, ?)",
            (uuid, at or now(), payer_id, payee_id, amount, currency, session_id, note))
        return uuid

    def add_undo(self, undoes: str, uuid: str | None = None, at: str | None = None) -> str:
        uuid = uuid or new_uuid()
        self.conn.execute(
            "INSERT INTO payments (uuid, created_at, kind, undoes) VALUES (?, ?, 'undo', ?)",
            (uuid, at or now(), undoes))
        return uuid

    def count(self) -> int:
        return int(self.conn.execute("SELECT COUNT(*) FROM payments").fetchone()[0])


def payment_dict(row: PaymentRow) -> dict[str, Any]:
    """A row as exported (players by name, the session by uuid)."""
    out: dict[str, Any] = {"uuid": row.uuid, "at": row.created_at, "kind": row.kind}
    if row.kind == "undo":
        out["undoes"] = row.undoes
        return out
    out.update({"from": row.payer, "to": row.payee, "amount": row.amount,
                "currency": row.currency, "session": row.session_uuid, "note": row.note})
    return out
