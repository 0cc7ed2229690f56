"""Raw reads for `bigtwo doctor` (ledger/book/doctor.py) and the audit log (``ledger.inspection``).

Stored text (rules, facts) comes back as it is, so a damaged row becomes a finding,
not an exception.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Collection, Iterable, Iterator, Sequence
from itertools import groupby
from operator import itemgetter
from typing import TYPE_CHECKING, Any

from ledger.storage.raw_rows import (
    AuditRow,
    CachedFlow,
    CachedTotal,
    CachedTotals,
    Orphan,
    RawEntry,
    RawPoints,
    RawSession,
    SessionRows,
)
from ledger.storage.rows import PointsRow, typed
from ledger.storage.sessions import NOT_TAKEN_BACK

if TYPE_CHECKING:
    from ledger.storage.store import Ledger


class Inspection:
    """Reads of one open ledger that trust nothing stored in it."""

    def __init__(self, ledger: Ledger) -> None:
        self.ledger = ledger
        self.conn = ledger.conn

    def integrity(self, full: bool = False) -> list[str]:
        """SQLite's own check of the file: ``["ok"]`` when every page and index is sound."""
        pragma = "integrity_check" if full else "quick_check"
        return [str(r[0]) for r in self.conn.execute(f"PRAGMA {pragma}")]

    def has_table(self, name: str) -> bool:
        return self.conn.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?",
                                 [name]).fetchone() is not None

    def session_money(self, ids: Collection[int] | None = None) -> dict[int, tuple[str | None, list[str]]]:
        """Every session's currency and its players' names now (what a payment for it is
        checked against), from the tables alone; only the sessions ``ids``, when given."""
        out: dict[int, tuple[str | None, list[str]]] = {
            sid: (currency, []) for sid, currency in self.conn.execute(
                "SELECT id, currency FROM sessions") if ids is None or sid in ids}
        for sid, name in self.conn.execute(
                "SELECT t.session_id, n.name FROM seats t JOIN player_names n "
                "ON n.id = t.player_id ORDER BY t.session_id, t.seat"):
            if sid in out:
                out[sid][1].append(name)
        return out

    def counts(self) -> dict[str, int]:
        """Rows per table of the ledger (sessions, players, seats, entries, points, audit)."""
        tables = ("sessions", "players", "seats", "entries", "points", "audit")
        # the deal entries (a session's own actions are counted as "actions"), the
        # sessions whose start is not undone
        where = {"entries": " WHERE seq IS NOT NULL", "sessions": f" s WHERE {NOT_TAKEN_BACK}"}
        row = self.conn.execute(
            "SELECT " + ", ".join(f"(SELECT COUNT(*) FROM {t}{where.get(t, '')})" for t in tables)
            + ", (SELECT COUNT(*) FROM entries WHERE seq IS NULL)"
        ).fetchone()
        return dict(zip((*tables, "actions"), row, strict=True))

    def schema_differences(self) -> list[tuple[str, str]]:
        """Each table, index, trigger or view that differs from this program's schema
        (compared by SQL, so a guard trigger replaced by a no-op of the same name shows)."""
        from ledger.storage.schema_check import schema_differences

        return schema_differences(self.ledger.conn)

    def missing_guards(self) -> list[str]:
        """The append-only triggers (made by m001, m004) that are no longer in the file."""
        have = {r[0] for r in self.conn.execute("SELECT name FROM sqlite_master WHERE type = 'trigger'")}
        tables = {r[0] for r in self.conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        guarded = ["entries", "points", "audit"] + (["player_events"] if "player_events" in tables else [])
        if self.conn.execute("SELECT 1 FROM _sqlite_migrations WHERE name = "
                             "'m005_every_action_an_entry'").fetchone() is not None:
            guarded += ["sessions", "seats"]
        wanted = [f"{t}_no_{op}" for t in guarded for op in ("update", "delete")]
        return [name for name in wanted if name not in have]

    def orphans(self) -> list[Orphan]:
        """Rows that belong to nothing, and what each points to that is missing."""
        from ledger.core.i18n import N_
        from ledger.core.phrase import Phrase

        points_row, entry, seat = (N_("points row {id}"), N_("entry {id}"),
                                   N_("seat {seat} of session {session}"))
        # (the row's message, the problem's message, the query giving both their values)
        queries = (
            (points_row, N_("its entry {entry} does not exist"),
             """SELECT q.id, q.entry_id FROM points q LEFT JOIN entries e ON e.id = q.entry_id
                WHERE e.id IS NULL"""),
            (points_row, N_("it is filed under session {filed} but its entry {entry} is in "
                            "session {session}"),
             """SELECT q.id, q.session_id, e.id, e.session_id
                FROM points q JOIN entries e ON e.id = q.entry_id
                WHERE q.session_id != e.session_id"""),
            (points_row, N_("its player {player} does not exist"),
             """SELECT q.id, q.player_id FROM points q LEFT JOIN players p ON p.id = q.player_id
                WHERE p.id IS NULL"""),
            (entry, N_("its session {session} does not exist"),
             """SELECT e.id, e.session_id FROM entries e
                LEFT JOIN sessions s ON s.id = e.session_id WHERE s.id IS NULL"""),
            (seat, N_("its session does not exist"),
             """SELECT t.seat, t.session_id FROM seats t
                LEFT JOIN sessions s ON s.id = t.session_id WHERE s.id IS NULL"""),
            (seat, N_("its player {player} does not exist"),
             """SELECT t.seat, t.session_id, t.player_id FROM seats t
                LEFT JOIN players p ON p.id = t.player_id WHERE p.id IS NULL"""),
        )
        payment = N_("payment {id}")
        # An undo and what it takes back: the entry it names is there, in its session, taken
        # back by the kind that takes back its kind (ledger/book/undo.py), for the same deal
        # (once: a unique index); a payment's taking back names a payment, not another
        # taking back.
        undo_queries = (
            (entry, N_("it undoes {undoes}, which is no entry"),
             """SELECT e.id, e.undoes FROM entries e LEFT JOIN entries t ON t.uuid = e.undoes
                WHERE e.undoes IS NOT NULL AND t.id IS NULL"""),
            (entry, N_("it undoes entry {target}, of session {session}: another session's"),
             """SELECT e.id, t.id, t.session_id FROM entries e JOIN entries t ON t.uuid = e.undoes
                WHERE e.session_id != t.session_id"""),
            (entry, N_("a {kind} entry cannot take back entry {target}, a {target_kind}"),
             """SELECT e.id, e.kind, t.id, t.kind FROM entries e JOIN entries t ON t.uuid = e.undoes
                WHERE NOT ((t.kind IN ('deal', 'amend', 'void') AND e.kind IN ('amend', 'void'))
                           OR (t.kind = 'end' AND e.kind = 'reopen')
                           OR (t.kind = 'reopen' AND e.kind = 'end')
                           OR (t.kind = 'start' AND e.kind = 'undo')
                           OR (t.kind = 'seat' AND e.kind = 'seat'
                               AND json_extract(t.facts, '$.action') != 'undo'
                               AND json_extract(e.facts, '$.action') = 'undo'))"""),
            (entry, N_("it undoes entry {target}, of deal {target_deal}, not of its own deal {deal}"),
             """SELECT e.id, t.id, t.deal_no, e.deal_no FROM entries e JOIN entries t ON t.uuid = e.undoes
                WHERE t.kind IN ('deal', 'amend', 'void') AND e.kind IN ('amend', 'void')
                AND t.deal_no != e.deal_no"""),
            (payment, N_("it takes back {undoes}, which is no payment"),
             """SELECT p.id, p.undoes FROM payments p LEFT JOIN payments t ON t.uuid = p.undoes
                WHERE p.undoes IS NOT NULL AND t.id IS NULL"""),
            (payment, N_("it takes back payment {target}, itself a taking back"),
             """SELECT p.id, t.id FROM payments p JOIN payments t ON t.uuid = p.undoes
                WHERE t.kind = 'undo'"""),
        )
        names = {  # the values each query gives, by the names its messages use
            0: ("id", "entry"), 1: ("id", "filed", "entry", "session"), 2: ("id", "player"),
            3: ("id", "session"), 4: ("seat", "session"), 5: ("seat", "session", "player"),
            6: ("id", "undoes"), 7: ("id", "target", "session"),
            8: ("id", "kind", "target", "target_kind"), 9: ("id", "target", "target_deal", "deal"),
            10: ("id", "undoes"), 11: ("id", "target"),
        }
        found = []
        points_hold = self._points_hold()
        for i, (row, problem, sql) in enumerate(queries + undo_queries):
            if i < 3 and points_hold:  # the three queries over points would find nothing
                continue
            try:
                rows = self.conn.execute(sql).fetchall()
            except sqlite3.OperationalError:  # an older schema (no undoes, no payments):
                continue  # the schema check names what it lacks
            for values in rows:
                given = dict(zip(names[i], values, strict=True))
                found.append(Orphan(Phrase(row, **given), Phrase(problem, **given)))

        checked = [] if self._keys_hold() else self._foreign_key_check()
        found += [
            Orphan(Phrase(N_("{table} row {id}"), table=table, id=rowid),
                   Phrase(N_("its reference to {parent} points nowhere"), parent=parent))
            for table, rowid, parent, _fk in checked
            if table not in ("points", "entries", "seats")  # named more precisely above
        ]
        return found


    def _points_hold(self) -> bool:
        """Whether every points row's entry and player exist, its entry in its session:
        one pass over points (the ledger's largest table) proves what the three queries
        that name each such row would find, when they would find nothing."""
        try:
            return bool(self.conn.execute(
                """SELECT NOT EXISTS (SELECT 1 FROM points q
                   LEFT JOIN entries e ON e.id = q.entry_id LEFT JOIN players p ON p.id = q.player_id
                   WHERE e.id IS NULL OR q.session_id != e.session_id OR p.id IS NULL)""").fetchone()[0] == 1)
        except sqlite3.OperationalError:
            return False

    def _keys_hold(self) -> bool:
        """Whether no table but points, entries and seats (whose references the queries
        above name more precisely) has a reference that points nowhere: checked table by
        table, so those three, the ledger's largest, are not read for it again."""
        try:
            others = [r[0] for r in self.conn.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table' "
                "AND name NOT IN ('points', 'entries', 'seats')")]
            return not any(self.conn.execute(
                "PRAGMA foreign_key_check(" + _quoted(name) + ")").fetchone() for name in others)
        except sqlite3.OperationalError:
            return False

    def _foreign_key_check(self) -> list[Any]:
        """Every reference that points nowhere, in SQLite's order."""
        try:
            return self.conn.execute("PRAGMA foreign_key_check").fetchall()
        except sqlite3.OperationalError:  # a damaged schema (a parent key's index gone),
            return []  # which the schema check names

    def raw_sessions(self) -> list[RawSession]:
        """Every session as stored, with its seated players in seat order."""
        seats: dict[int, list[str]] = {}
        for sid, name in self.conn.execute(
            """SELECT t.session_id, COALESCE(p.name, '#' || t.player_id) FROM seats t
               LEFT JOIN players p ON p.id = t.player_id ORDER BY t.session_id, t.seat"""
        ):
            seats.setdefault(sid, []).append(name)
        return [
            RawSession(sid, rules, bool(teams), tuple(seats.get(sid, ())))
            for sid, rules, teams in self.conn.execute("SELECT id, rules, teams FROM sessions ORDER BY id")
        ]

    def raw_entries(self, session_id: int) -> list[RawEntry]:
        """A session's entries as stored, by seq."""
        return list(typed(RawEntry, self.conn.execute(
            "SELECT id, seq, kind, deal_no, facts, created_at, uuid FROM entries WHERE session_id = ? "
            "AND seq IS NOT NULL ORDER BY seq",
            [session_id],
        )))

    def raw_points(self, session_id: int) -> list[RawPoints]:
        """Every points row filed under a session, with its entry id."""
        rows = self.conn.execute(
            """SELECT q.entry_id, COALESCE(p.name, '#' || q.player_id), q.deals, q.wins,
                      q.fried, q.cards, q.penalty, q.net, y.name
               FROM points q LEFT JOIN players p ON p.id = q.player_id
               LEFT JOIN players y ON y.id = q.payee_id
               WHERE q.session_id = ? ORDER BY q.id""",
            [session_id],
        ).fetchall()
        return [RawPoints(entry_id, PointsRow(*points)) for entry_id, *points in rows]

    def session_rows(self) -> Iterator[SessionRows]:
        """Every session's rows, one session at a time, in one pass over each table.

        Five cursors run side by side, each in session order straight from an index
        (sessions by id, seats by their key, entries by (session, seq), points by
        session and id, the cached totals and flows by their keys), so only one
        session's rows are held at a time, whatever the ledger's size.  Entries and
        points filed under a session that does not exist are passed over (the orphan
        checks name them); cached totals and flows of one come with ``session`` None.
        """
        names = _Names(self.conn.execute("SELECT id, name FROM players").fetchall())
        name = names.__getitem__

        seats = _Groups(self.conn.execute(
            "SELECT session_id, player_id FROM seats ORDER BY session_id, seat"))
        sessions = _Groups(self.conn.execute("SELECT id, rules, teams FROM sessions ORDER BY id"))
        entries = _Groups(self.conn.execute(
            "SELECT session_id, id, seq, kind, deal_no, facts, created_at, uuid FROM entries "
            "WHERE seq IS NOT NULL ORDER BY session_id, seq"))
        points = _Groups(self.conn.execute(
            "SELECT session_id, entry_id, player_id, deals, wins, fried, cards, penalty, net, payee_id "
            "FROM points ORDER BY session_id, id"))
        cached = self.cached_tables()
        totals = _Groups(self.conn.execute(
            "SELECT session_id, player_id, deals, wins, fried, cards, penalty, net FROM session_totals "
            "ORDER BY session_id, player_id") if cached else ())
        flows = _Groups(self.conn.execute(
            "SELECT session_id, player_id, payee_id, net FROM session_flows "
            "ORDER BY session_id, player_id, payee_id") if cached else ())
        new_entry, new_points = tuple.__new__, PointsRow.__new__
        known = dict(names)  # a payee who is missing is None, as stored
        while True:
            heads = [g.head for g in (sessions, totals, flows) if g.head is not None]
            if not heads:
                return
            sid = min(heads)
            found = sessions.take(sid)
            session = None
            if found:
                _sid, rules, teams = found[0]
                session = RawSession(sid, rules, bool(teams),
                                     tuple(name(r[1]) for r in seats.take(sid)))
            else:
                seats.take(sid)
            their_entries = entries.take(sid)
            their_points = points.take(sid)
            yield SessionRows(
                sid, session,
                [new_entry(RawEntry, r[1:]) for r in their_entries] if session else [],
                [new_entry(RawPoints, (r[1], new_points(
                    PointsRow, names[r[2]], r[3], r[4], r[5], r[6], r[7], r[8],
                    None if r[9] is None else known.get(r[9])))) for r in their_points] if session else [],
                [CachedTotal(sid, name(r[1]), *r[2:]) for r in totals.take(sid)],
                [CachedFlow(sid, name(r[1]), name(r[2]), r[3]) for r in flows.take(sid)],
            )

    def cached_tables(self) -> bool:
        """Whether this schema keeps the session_totals / session_flows caches."""
        have = {r[0] for r in self.conn.execute(
            "SELECT name FROM sqlite_master WHERE name IN ('session_totals', 'session_flows')")}
        return have == {"session_totals", "session_flows"}

    def cached_totals(self) -> CachedTotals | None:
        """What the session_totals / session_flows caches hold, if this schema keeps them;
        the doctor compares them with ``points``."""
        have = {r[0] for r in self.conn.execute(
            "SELECT name FROM sqlite_master WHERE name IN ('session_totals', 'session_flows')")}
        if have != {"session_totals", "session_flows"}:
            return None
        totals = list(typed(CachedTotal, self.conn.execute(
            """SELECT t.session_id, COALESCE(p.name, '#' || t.player_id), t.deals, t.wins,
                      t.fried, t.cards, t.penalty, t.net
               FROM session_totals t LEFT JOIN players p ON p.id = t.player_id""")))
        flows = list(typed(CachedFlow, self.conn.execute(
            """SELECT f.session_id, COALESCE(p.name, '#' || f.player_id),
                      COALESCE(y.name, '#' || f.payee_id), f.net
               FROM session_flows f LEFT JOIN players p ON p.id = f.player_id
               LEFT JOIN players y ON y.id = f.payee_id""")))
        return CachedTotals(totals, flows)

    def audit_rows(self, session_id: int | None = None) -> list[AuditRow]:
        """The audit log (of one session, when given), oldest first."""
        where = "" if session_id is None else "WHERE session_id = ?"
        return list(typed(AuditRow, self.conn.execute(
            f"SELECT id, at, action, session_id, entry_id, detail FROM audit {where} ORDER BY id",
            [] if session_id is None else [session_id],
        )))



def _quoted(name: str) -> str:
    """A table's name as SQL names it."""
    return '"' + name.replace('"', '""') + '"'


class _Names(dict[int, str]):
    """Players' names by id; a missing player as ``#id``."""

    def __missing__(self, player_id: int) -> str:
        return f"#{player_id}"


class _Groups:
    """Rows in session order (the first column), one session's at a time, as a merge
    takes them: ``head`` is the next session's id, ``take`` its rows (passing over
    sessions before it)."""

    def __init__(self, rows: Iterable[Sequence[Any]]) -> None:
        self.groups = groupby(rows, key=itemgetter(0))
        self.head: int | None = None
        self.rows: list[Sequence[Any]] = []
        self.advance()

    def advance(self) -> None:
        nxt = next(self.groups, None)
        self.head, self.rows = (None, []) if nxt is None else (nxt[0], list(nxt[1]))

    def take(self, session_id: int) -> list[Sequence[Any]]:
        while self.head is not None and self.head < session_id:
            self.advance()
        if self.head != session_id:
            return []
        rows = self.rows
        self.advance()
        return rows
