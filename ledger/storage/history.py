"""The journal's entry reads, in the one order of entries (``ledger.journal``).

Every user action is an append-only entry: a session's ``start``, its deals
(``deal``, ``amend``, ``void``: they have a deal number and a seq, the order in which
this ledger wrote them), its ``end`` and ``reopen``, and ``undo`` (the undo of a
start).  An entry written by undo names the entry it took back in ``undoes``.

**The one order.**  Any device that holds the same entries orders them the same: by
``created_at``, then ``uuid``.  One device makes ``created_at`` strictly increasing in
a session (:meth:`Journal.next_time <ledger.storage.journal.Journal.next_time>`), so
two quick actions cannot swap.  The current version of a deal (its latest entry), the
undo stack (:meth:`EntryReads.undo_target`) and open or ended
(:mod:`ledger.storage.sessions`) are read in that order; ``seq`` only numbers a
session's deal entries as they were written here (the log and the export list them by
it).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from ledger.storage.rows import EntryRow, PointsRow
from ledger.storage.sessions import SessionReads

_ENTRY_COLS = "id, uuid, session_id, seq, kind, deal_no, facts, created_at, undoes"
# no later entry of the same deal, in the one order
_LATEST = """NOT EXISTS (SELECT 1 FROM entries n WHERE n.session_id = e.session_id
    AND n.deal_no = e.deal_no AND (n.created_at, n.uuid) > (e.created_at, e.uuid))"""


def entry_row(row: Sequence[Any]) -> EntryRow:
    """An entry read in ``_ENTRY_COLS`` order, its facts decoded (a session's own action
    has deal number and seq 0: it has none)."""
    entry_id, uuid, session_id, seq, kind, deal_no, facts, created_at, undoes = row
    return EntryRow(entry_id, uuid, session_id, seq or 0, kind, deal_no or 0,
                    None if facts is None else json.loads(facts), created_at, undoes)


class EntryReads(SessionReads):
    """A session's entries: its deals as they stand, and its actions in the one order."""

    def next_deal_no(self, session_id: int) -> int:
        return int(self.conn.execute(
            "SELECT COALESCE(MAX(deal_no), 0) + 1 FROM entries WHERE session_id = ?",
            [session_id],
        ).fetchone()[0])

    def entries(self, session_id: int) -> list[EntryRow]:
        """The session's deal entries (deal, amend, void) by seq."""
        rows = self.conn.execute(
            f"SELECT {_ENTRY_COLS} FROM entries WHERE session_id = ? AND seq IS NOT NULL "
            "ORDER BY seq", [session_id]).fetchall()
        return self._shown([entry_row(r) for r in rows])

    def actions(self, session_id: int) -> list[EntryRow]:
        """Every entry of the session, its own actions too, in the one order."""
        rows = self.conn.execute(
            f"SELECT {_ENTRY_COLS} FROM entries WHERE session_id = ? "
            "ORDER BY created_at, uuid", [session_id]).fetchall()
        return self._shown([entry_row(r) for r in rows])

    def entry_by_uuid(self, entry_uuid: str) -> EntryRow | None:
        r = self.conn.execute(f"SELECT {_ENTRY_COLS} FROM entries WHERE uuid = ?",
                              [entry_uuid]).fetchone()
        return None if r is None else self._shown([entry_row(r)])[0]

    def undo_marks(self, session_id: int) -> dict[int, int]:
        """Entry id -> the seq of the deal entry it undid, for the deal entries undo wrote."""
        return dict(self.conn.execute(
            """SELECT e.id, t.seq FROM entries e JOIN entries t ON t.uuid = e.undoes
               WHERE e.session_id = ? AND e.seq IS NOT NULL AND t.seq IS NOT NULL""",
            [session_id]).fetchall())

    def undo_target(self, session_id: int) -> EntryRow | None:
        """The action ``undo`` takes back now: the latest entry, in the one order, that
        an undo did not write and no undo took back yet; the start comes last of all
        (None: the start is taken back already)."""
        r = self.conn.execute(
            f"""SELECT {_ENTRY_COLS} FROM entries e
               WHERE e.session_id = ? AND e.undoes IS NULL AND e.kind != 'start'
                 AND NOT EXISTS (SELECT 1 FROM entries u WHERE u.undoes = e.uuid)
               ORDER BY e.created_at DESC, e.uuid DESC LIMIT 1""", [session_id]).fetchone()
        if r is None:
            r = self.conn.execute(
                f"""SELECT {_ENTRY_COLS} FROM entries e
                   WHERE e.session_id = ? AND e.kind = 'start' AND e.seq IS NULL
                     AND NOT EXISTS (SELECT 1 FROM entries u WHERE u.undoes = e.uuid)""",
                [session_id]).fetchone()
        return None if r is None else self._shown([entry_row(r)])[0]

    def version_before(self, entry: EntryRow) -> EntryRow | None:
        """The entry of the same deal just before ``entry`` in the one order."""
        r = self.conn.execute(
            f"""SELECT {_ENTRY_COLS} FROM entries WHERE session_id = ? AND deal_no = ?
                 AND (created_at, uuid) < (?, ?) ORDER BY created_at DESC, uuid DESC LIMIT 1""",
            [entry.session_id, entry.deal_no, entry.created_at, entry.uuid]).fetchone()
        return None if r is None else self._shown([entry_row(r)])[0]

    def current_version(self, session_id: int, deal_no: int) -> EntryRow | None:
        """The latest entry about deal ``deal_no`` (a void means the deal is gone)."""
        r = self.conn.execute(
            f"SELECT {_ENTRY_COLS} FROM entries WHERE session_id = ? AND deal_no = ? "
            "ORDER BY created_at DESC, uuid DESC LIMIT 1",
            [session_id, deal_no],
        ).fetchone()
        return None if r is None else self._shown([entry_row(r)])[0]

    def last_live_entry(self, session_id: int) -> EntryRow | None:
        """The current version of the last deal not voided (None before any), one row
        read however long the evening: who deals next needs no more."""
        r = self.conn.execute(
            f"""SELECT {_ENTRY_COLS} FROM entries e
               WHERE e.session_id = ? AND e.seq IS NOT NULL AND e.kind != 'void' AND {_LATEST}
               ORDER BY e.deal_no DESC LIMIT 1""",
            [session_id],
        ).fetchone()
        return None if r is None else self._shown([entry_row(r)])[0]

    def latest_deal(self, session_id: int) -> tuple[EntryRow, tuple[str, str]] | None:
        """The live deal recorded last in the one order (by its ``deal`` entry's time,
        then uuid: never by its number, which is each ledger's own after a sync), as
        its current version, with that entry's (time, uuid) (None before any).  The
        deals are walked newest first, each one's current version read by its index:
        the first not voided ends the walk (one step, unless the last ones were voided)."""
        for deal_no, at, uuid in self.conn.execute(
                """SELECT deal_no, created_at, uuid FROM entries WHERE session_id = ?
                   AND seq IS NOT NULL AND kind = 'deal' ORDER BY created_at DESC, uuid DESC""",
                [session_id]):
            current = self.current_version(session_id, deal_no)
            if current is not None and current.kind != "void":
                return current, (at, uuid)
        return None

    def live_deals(self, session_id: int) -> list[EntryRow]:
        """The current version of every deal not voided, in deal order."""
        rows = self.conn.execute(
            f"""SELECT {_ENTRY_COLS} FROM entries e
               WHERE e.session_id = ? AND e.seq IS NOT NULL AND e.kind != 'void' AND {_LATEST}
               ORDER BY e.deal_no""",
            [session_id],
        ).fetchall()
        return self._shown([entry_row(r) for r in rows])

    def deal_points(self, session_id: int, deal_no: int) -> list[PointsRow]:
        """What deal ``deal_no`` adds up to now: its entries' points summed per player and
        payee (rows that cancel out left off).  Negated, it is the exact reversal of the
        live version, however many amendments came before it."""
        rows = self.conn.execute(
            """SELECT p.name, SUM(q.deals), SUM(q.wins), SUM(q.fried), SUM(q.cards),
                      SUM(q.penalty), SUM(q.net), y.name
               FROM entries e JOIN points q ON q.entry_id = e.id
               JOIN player_names p ON p.id = q.player_id
               LEFT JOIN player_names y ON y.id = q.payee_id
               WHERE e.session_id = ? AND e.deal_no = ?
               GROUP BY q.player_id, q.payee_id ORDER BY MIN(q.id)""",
            [session_id, deal_no],
        ).fetchall()
        return [PointsRow(*r) for r in rows if any(r[1:7])]
