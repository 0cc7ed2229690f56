"""The journal's session reads: sessions, their seats and their state (``ledger.journal``).

Whether a session is open or ended, and whether its start was taken back, is never a
column that changes: it is the latest of the session's own actions (``end``,
``reopen``, ``undo`` of the start) in the one order of entries (by ``created_at``, then
``uuid``: :mod:`ledger.storage.history`).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ledger.core.errors import NotFound
from ledger.storage.codec import rules_dict
from ledger.storage.rows import EntryRow, SessionListRow, SessionRow

if TYPE_CHECKING:
    import sqlite3

    from ledger.storage.store import Ledger

# The latest of a session's own actions after its start ('end', 'reopen' or 'undo'),
# with its time: read from the partial index of those actions, never its deals (nor its
# seat entries, which leave it open or ended as it was).
LAST_ACTION = """(SELECT a.kind || ' ' || a.created_at FROM entries a
    WHERE a.session_id = s.id AND a.seq IS NULL AND a.kind NOT IN ('start', 'seat')
    ORDER BY a.created_at DESC, a.uuid DESC LIMIT 1)"""
START_UUID = """(SELECT a.uuid FROM entries a
    WHERE a.session_id = s.id AND a.seq IS NULL AND a.kind = 'start' LIMIT 1)"""
# A seat entry ``e`` that is a join and counts (not undone).
LIVE_JOIN = """e.seq IS NULL AND e.kind = 'seat' AND json_extract(e.facts, '$.action') = 'join'
      AND NOT EXISTS (SELECT 1 FROM entries u WHERE u.undoes = e.uuid)"""
# The players who joined a session after its start (``seat join`` entries not undone),
# each with the session and the first time: they are players of the session after its seats.
JOINED = """SELECT e.session_id, p.name, MIN(e.created_at) AS at FROM entries e
    JOIN players t ON t.name = json_extract(e.facts, '$.player') JOIN {names} p ON p.id = t.id
    WHERE """ + LIVE_JOIN + """ {where}
    GROUP BY e.session_id, p.name ORDER BY e.session_id, at, p.name"""
# The same for one session, each joiner's name as typed, name shown now and player id.
JOINED_NAMES = """SELECT t.name, p.name, t.id FROM entries e
    JOIN players t ON t.name = json_extract(e.facts, '$.player') JOIN {names} p ON p.id = t.id
    WHERE e.session_id = ? AND """ + LIVE_JOIN + """
    GROUP BY t.id ORDER BY MIN(e.created_at), t.name"""
# The ids of a session's players: its seats and each player a seat join (not undone) brought.
MEMBERS = """(SELECT t.player_id FROM seats t WHERE t.session_id = s.id
    UNION SELECT j.id FROM entries e JOIN players j ON j.name = json_extract(e.facts, '$.player')
    WHERE e.session_id = s.id AND """ + LIVE_JOIN + """)"""
# The number of deals that count: the most any player played, read from the totals;
# where the seats changed (a seat entry) no player may have played them all, and the
# deals are counted.
DEAL_COUNT = """(CASE WHEN EXISTS (SELECT 1 FROM entries a
    WHERE a.session_id = s.id AND a.seq IS NULL AND a.kind = 'seat')
  THEN (SELECT COUNT(*) FROM entries e WHERE e.session_id = s.id AND e.seq IS NOT NULL
    AND e.kind != 'void' AND NOT EXISTS (SELECT 1 FROM entries n WHERE n.session_id = e.session_id
      AND n.deal_no = e.deal_no AND (n.created_at, n.uuid) > (e.created_at, e.uuid)))
  ELSE (SELECT COALESCE(MAX(deals), 0) FROM session_totals q WHERE q.session_id = s.id) END)"""
# A session whose start was undone is no session of the ledger any more.
NOT_TAKEN_BACK = """NOT EXISTS (SELECT 1 FROM entries a
    WHERE a.session_id = s.id AND a.seq IS NULL AND a.kind = 'undo')"""


def like(text: str) -> str:
    """``text`` anywhere, as a LIKE pattern (``ESCAPE '\\'``): its ``%`` and ``_`` as typed."""
    return "%" + text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"


def ended_at(last: str | None) -> str | None:
    """The end time a session's :data:`LAST_ACTION` says (None: open)."""
    if last is None or not last.startswith("end "):
        return None
    return last[4:]


class SessionReads:
    """Sessions, their seats and the names shown for them."""

    ledger: Ledger
    conn: sqlite3.Connection

    def _names(self) -> str:
        """Where the names shown are read: the view ``player_names``, or while no player
        was ever renamed or merged the ``players`` table it then equals (a deal is
        recorded without resolving every player)."""
        return self.ledger.players.source()

    def seat_names(self, session_id: int) -> list[tuple[str, str, int]]:
        """(name as typed, name shown now, player id) of each player of the session: each
        seat in seat order, then each player a ``seat join`` brought, in the order they
        first joined (a rename or a merge reaches a later joiner as it does a seat)."""
        names = self._names()
        rows = [(r[0], r[1], r[2]) for r in self.conn.execute(
            f"""SELECT p.name, n.name, t.player_id FROM seats t
               JOIN players p ON p.id = t.player_id JOIN {names} n ON n.id = t.player_id
               WHERE t.session_id = ? ORDER BY t.seat""", [session_id])]
        seated = {pid for _t, _n, pid in rows}
        for typed, now, pid in self.conn.execute(JOINED_NAMES.format(names=names), [session_id]):
            if pid not in seated:
                seated.add(pid)
                rows.append((typed, now, pid))
        return rows

    def renames(self, session_id: int, shown: bool = True) -> dict[str, str]:
        """Typed -> shown names of a session's players (:meth:`seat_names`), or the
        reverse, those that differ."""
        pairs = [(typed, now) for typed, now, _ in self.seat_names(session_id) if typed != now]
        return dict(pairs) if shown else {now: typed for typed, now in pairs}

    def _shown(self, entries: list[EntryRow]) -> list[EntryRow]:
        """Entries with their facts under the players' names now (stored as typed)."""
        if not entries:
            return entries
        names = self.renames(entries[0].session_id)
        if not names:
            return entries
        from ledger.core.names import rename_facts

        return [e if e.facts is None else e._replace(facts=rename_facts(e.facts, names))
                for e in entries]

    def _session_rows(self, where: str, params: Sequence[Any]) -> list[SessionRow]:
        rows = self.conn.execute(
            f"""SELECT s.id, s.uuid, s.name, s.rules_name, s.rules, s.stake, s.currency, s.teams,
                       s.started_at, {LAST_ACTION},
                       {DEAL_COUNT} AS deals, {START_UUID}
                FROM sessions s {where} ORDER BY s.id""",
            params,
        ).fetchall()
        rows = [r for r in rows if r[9] is None or not r[9].startswith("undo ")]
        if not rows:
            return []
        names = self._names()
        if len(rows) <= 500:
            ids = [r[0] for r in rows]
            seat_rows = self.conn.execute(
                f"SELECT t.session_id, p.name FROM seats t JOIN {names} p ON p.id = t.player_id "
                f"WHERE t.session_id IN ({','.join('?' * len(ids))}) ORDER BY t.session_id, t.seat",
                ids,
            ).fetchall()
        else:
            seat_rows = self.conn.execute(
                f"SELECT t.session_id, p.name FROM seats t JOIN {names} p ON p.id = t.player_id "
                "ORDER BY t.session_id, t.seat"
            ).fetchall()
        seats: dict[int, list[str]] = {}
        for sid, name in seat_rows:
            seats.setdefault(sid, []).append(name)
        first = {sid: tuple(names) for sid, names in seats.items()}
        if len(rows) <= 500:
            joined = self.conn.execute(JOINED.format(
                names=names, where=f"AND e.session_id IN ({','.join('?' * len(ids))})"), ids)
        else:
            joined = self.conn.execute(JOINED.format(names=names, where=""))
        for sid, name, _at in joined:
            if name not in seats.setdefault(sid, []):
                seats[sid].append(name)
        return [
            SessionRow(
                id=sid, uuid=uuid, name=name, rules_name=rules_name, rules=rules_dict(rules),
                stake=stake, currency=currency, teams=bool(teams), started_at=started_at,
                ended_at=ended_at(last), seats=tuple(seats.get(sid, ())), deals=deals,
                start_uuid=start or "", first_seats=first.get(sid, ()),
            )
            for sid, uuid, name, rules_name, rules, stake, currency, teams, started_at, last, deals,
            start in rows
        ]

    def sessions(self) -> list[SessionRow]:
        return self._session_rows("", [])

    def session_page(self, before: tuple[str, int] | None, limit: int, q: str | None = None,
                     player: str | None = None) -> tuple[list[SessionListRow], int]:
        """Up to ``limit`` sessions, newest first (by start, then id), those after ``before``
        (the start and id of the last session of the page before; None: from the newest),
        and how many sessions match in all.  ``q``: a text in the session's name or in a
        player's name (as typed or shown now: a seat, or one who joined later), or the
        session's number; ``player``: a player of the session, by the name shown now.
        A keyset page: the index of the sessions' starts, never an offset, so a session
        added meanwhile moves no page.  No rule set is read (its name only)."""
        names = self._names()
        cond = [NOT_TAKEN_BACK]
        if q:
            cond.append(f"""(s.name LIKE :like ESCAPE '\\' OR CAST(s.id AS TEXT) = :q OR EXISTS (
                SELECT 1 FROM players p JOIN {names} n ON n.id = p.id WHERE p.id IN {MEMBERS}
                AND (p.name LIKE :like ESCAPE '\\' OR n.name LIKE :like ESCAPE '\\')))""")
        if player is not None:
            cond.append(f"""EXISTS (SELECT 1 FROM {names} n
                WHERE n.id IN {MEMBERS} AND n.name = :player)""")
        params = {"like": like(q) if q else None, "q": q, "player": player, "limit": limit,
                  "started": before and before[0], "id": before and before[1]}
        where = " AND ".join(cond)
        if q or player is not None:
            total = self.conn.execute(f"SELECT COUNT(*) FROM sessions s WHERE {where}",
                                      params).fetchone()[0]
        else:
            # every session less those whose start was undone: an undo always names what it
            # took back, so its partial index holds them all (a count, no scan of sessions)
            total = self.conn.execute(
                """SELECT (SELECT COUNT(*) FROM sessions) - (SELECT COUNT(DISTINCT session_id)
                   FROM entries WHERE undoes IS NOT NULL AND seq IS NULL AND kind = 'undo')"""
            ).fetchone()[0]
        if before is not None:
            where += " AND (s.started_at, s.id) < (:started, :id)"
        rows = self.conn.execute(
            f"""SELECT s.id, s.uuid, s.name, s.rules_name, s.stake, s.currency, s.teams,
                       s.started_at,
                       (SELECT COALESCE(MAX(deals), 0) FROM session_totals q
                         WHERE q.session_id = s.id)
                FROM sessions s WHERE {where}
                ORDER BY s.started_at DESC, s.id DESC LIMIT :limit""",
            params).fetchall()
        ids = json.dumps([r[0] for r in rows])
        # Each session's own actions by (session_id, seq) with no seq: never its deals.
        last: dict[int, tuple[str, str, str]] = {}
        for sid, kind, at, uuid in self.conn.execute(
                """SELECT session_id, kind, created_at, uuid FROM entries
                   WHERE session_id IN (SELECT value FROM json_each(?)) AND seq IS NULL
                   AND kind != 'start'""", [ids]):
            if sid not in last or (at, uuid) > last[sid][1:]:
                last[sid] = (kind, at, uuid)
        seats: dict[int, list[str]] = {}
        for sid, name in self.conn.execute(
                f"SELECT t.session_id, p.name FROM seats t JOIN {names} p ON p.id = t.player_id "
                "WHERE t.session_id IN (SELECT value FROM json_each(?)) ORDER BY t.session_id, t.seat",
                [ids]):
            seats.setdefault(sid, []).append(name)
        return [SessionListRow(id=sid, uuid=uuid, name=name, rules_name=rules_name, stake=stake,
                               currency=currency, teams=bool(teams), started_at=started_at,
                               ended_at=last[sid][1] if last.get(sid, ("",))[0] == "end" else None,
                               seats=tuple(seats.get(sid, ())), deals=deals)
                for sid, uuid, name, rules_name, stake, currency, teams, started_at, deals
                in rows], total

    def session(self, session_id: int) -> SessionRow:
        rows = self._session_rows("WHERE s.id = ?", [session_id])
        if not rows:
            from ledger.core.i18n import _

            raise NotFound(_("no session {id} in this ledger").format(id=session_id))

        return rows[0]

    def sessions_of(self, session_ids: Sequence[int]) -> list[SessionRow]:
        """The sessions of ``session_ids`` in that order, read at once (an import's
        thousands); :class:`NotFound` as :meth:`session` for one that is not there."""
        import json

        found = {r.id: r for r in self._session_rows(
            "WHERE s.id IN (SELECT value FROM json_each(?))", [json.dumps(list(session_ids))])}
        return [found[i] if i in found else self.session(i) for i in session_ids]

    def session_by_uuid(self, session_uuid: str) -> SessionRow | None:
        """The session of that uuid (None when there is none, or its start was undone)."""
        rows = self._session_rows("WHERE s.uuid = ?", [session_uuid])
        return rows[0] if rows else None

    def session_ids(self) -> list[int]:
        return [r[0] for r in self.conn.execute(
            f"SELECT id FROM sessions s WHERE {NOT_TAKEN_BACK} ORDER BY id")]

    def sessions_where_stake_in(self, stakes: Sequence[str], teams: bool) -> list[SessionRow]:
        marks = ",".join("?" * len(stakes))
        cond = "s.teams = 1" if teams else f"s.teams = 0 AND s.stake IN ({marks})"
        return self._session_rows(f"WHERE {cond}", [] if teams else list(stakes))

    def latest_open_session(self) -> int | None:
        """The open session started last (None when every session is ended)."""
        for sid, last in self.conn.execute(
                f"SELECT s.id, {LAST_ACTION} FROM sessions s ORDER BY s.id DESC"):
            if last is None or last.startswith("reopen "):
                return int(sid)
        return None
