"""What ``undo`` needs from the ledger file beyond the journal itself.

An undo is an ordinary correction entry (a void, or an amend that brings back the
version before) written with :meth:`Ledger.add_entry`; this module marks it as an
undo in the append-only ``audit`` table (action ``deal.undo``), so that a second
undo walks further back instead of undoing the first.  It also reopens an ended
session and takes back a session that never got an entry.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from ledger.storage.rows import SessionRow

if TYPE_CHECKING:
    from ledger.storage.store import Ledger

# The actions on a session that an undo can take back, as the audit table names them.
SESSION_EVENTS = ("session.end", "session.reopen", "deal.deal", "deal.void", "deal.amend")


def undo_marks(ledger: Ledger, session_id: int) -> dict[int, int]:
    """Entry id -> the seq of the entry it undid, for the session's entries written by undo."""
    rows = ledger.conn.execute(
        "SELECT entry_id, detail FROM audit WHERE action = 'deal.undo' AND session_id = ?",
        [session_id],
    )
    return {r[0]: json.loads(r[1]).get("undoes", 0) for r in rows if r[0] is not None}


def mark_undo(ledger: Ledger, session_id: int, entry_id: int, undoes_seq: int) -> None:
    """Record that entry ``entry_id`` undoes entry ``undoes_seq`` (inside ``writing``)."""
    ledger.audit("deal.undo", {"undoes": undoes_seq}, session_id, entry_id)


def mark_undo_uuid(ledger: Ledger, session_id: int, entry_uuid: str, undone_uuid: str) -> None:
    """:func:`mark_undo` for imported entries, named by uuid (inside ``writing``)."""
    rows = dict(ledger.conn.execute(
        "SELECT uuid, id FROM entries WHERE uuid IN (?, ?)", [entry_uuid, undone_uuid]).fetchall())
    seq = ledger.conn.execute("SELECT seq FROM entries WHERE uuid = ?", [undone_uuid]).fetchone()
    if entry_uuid in rows and seq is not None:
        mark_undo(ledger, session_id, rows[entry_uuid], seq[0])


def last_session_event(ledger: Ledger, session_id: int) -> str | None:
    """The latest end, reopen or entry of a session, as its audit action."""
    marks = ",".join("?" * len(SESSION_EVENTS))
    row = ledger.conn.execute(
        f"SELECT action FROM audit WHERE session_id = ? AND action IN ({marks}) "
        "ORDER BY id DESC LIMIT 1",
        [session_id, *SESSION_EVENTS],
    ).fetchone()
    return None if row is None else row[0]


def last_audit_id(ledger: Ledger, action: str, session_id: int | None = None,
                  entry_id: int | None = None) -> int:
    """The id of the latest audit row of ``action`` (on that session / entry), or 0."""
    row = ledger.conn.execute(
        "SELECT MAX(id) FROM audit WHERE action = ? AND session_id IS ? AND "
        "(? IS NULL OR entry_id = ?)", [action, session_id, entry_id, entry_id]).fetchone()
    return row[0] or 0


def player_event_mark(ledger: Ledger, event_id: int) -> int:
    """The audit id of player event ``event_id`` (0 when it has none)."""
    row = ledger.conn.execute(
        "SELECT MAX(id) FROM audit WHERE action LIKE 'player.%' "
        "AND json_extract(detail, '$.event') = ?", [event_id]).fetchone()
    return row[0] or 0


def reopen_session(ledger: Ledger, session: SessionRow) -> None:
    """Undo ``session end`` (inside ``writing``): the session takes deals again."""
    ledger.conn.execute("UPDATE sessions SET ended_at = NULL WHERE id = ?", [session.id])
    ledger.audit("session.reopen", {"was_ended_at": session.ended_at}, session.id)


def has_entries(ledger: Ledger, session_id: int) -> bool:
    row = ledger.conn.execute("SELECT 1 FROM entries WHERE session_id = ? LIMIT 1", [session_id])
    return row.fetchone() is not None


def drop_empty_session(ledger: Ledger, session: SessionRow) -> None:
    """Undo ``session start`` of a session that has no entry (inside ``writing``).

    The session and its seats go; the audit keeps everything it was, so nothing said
    at the table is lost.  A session with entries is never dropped."""
    if has_entries(ledger, session.id):
        raise ValueError(f"session {session.id} has entries")
    ledger.audit("session.undo", {
        "uuid": session.uuid, "name": session.name, "seats": list(session.seats),
        "rules": session.rules_name, "stake": session.stake, "currency": session.currency,
        "teams": session.teams, "started_at": session.started_at,
    }, session.id)
    ledger.conn.execute("DELETE FROM seats WHERE session_id = ?", [session.id])
    ledger.conn.execute("DELETE FROM sessions WHERE id = ?", [session.id])


def latest_open_session(ledger: Ledger) -> int | None:
    row = ledger.conn.execute(
        "SELECT id FROM sessions WHERE ended_at IS NULL ORDER BY id DESC LIMIT 1"
    ).fetchone()
    return None if row is None else row[0]


def clear_setting(ledger: Ledger, key: str) -> None:
    ledger.conn.execute("DELETE FROM settings WHERE key = ?", [key])
