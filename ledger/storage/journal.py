"""The journal: players, sessions and their append-only entries (``ledger.journal``).

Every user action is one entry with a uuid (:mod:`ledger.storage.history` says which
kinds, and the one order they are read in).  A correction (void, amend) is a new entry
whose points reverse the version it replaces; an undo is a new entry that names what it
took back (``undoes``); ending or reopening a session is an entry too.  Nothing
recorded is ever updated or deleted (triggers refuse it).  This class writes; the
reads are its bases, :class:`~ledger.storage.sessions.SessionReads` and
:class:`~ledger.storage.history.EntryReads`.  Writes go inside
:meth:`Ledger.writing <ledger.storage.store.Ledger.writing>`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

from ledger.core.errors import InputError
from ledger.storage.codec import inserted_id, new_uuid, now, to_json
from ledger.storage.history import EntryReads, entry_row
from ledger.storage.rows import EntryRow, PointsRow

if TYPE_CHECKING:
    from ledger.storage.store import Ledger


class Journal(EntryReads):
    """Players, sessions and entries of one open ledger."""

    def __init__(self, ledger: Ledger) -> None:
        self.ledger = ledger
        self.conn = ledger.conn

    # -- players and settings --

    def player_ids(self) -> dict[str, int]:
        """Every player's id by the name first typed for it (as deal facts are stored;
        ids count up in order of first appearance)."""
        return dict(self.conn.execute("SELECT name, id FROM players ORDER BY id").fetchall())

    def shown_names(self) -> dict[int, str]:
        """Every player id -> the name shown for it now (renames and merges followed:
        the view ``player_names`` is the one place that resolves them)."""
        return dict(self.conn.execute("SELECT id, name FROM player_names").fetchall())

    def shown_ids(self) -> dict[str, int]:
        """The name shown for each player -> the id it counts as (merges followed)."""
        return dict(self.conn.execute(
            "SELECT name, canon_id FROM player_names ORDER BY canon_id").fetchall())

    def get_setting(self, key: str) -> str | None:
        row = self.conn.execute("SELECT value FROM settings WHERE key = ?", [key]).fetchone()
        return None if row is None else row[0]

    def set_setting(self, key: str, value: str) -> None:
        self.conn.execute(
            "INSERT INTO settings (key, value) VALUES (?, ?) "
            "ON CONFLICT (key) DO UPDATE SET value = excluded.value",
            [key, value],
        )

    def clear_setting(self, key: str) -> None:
        self.conn.execute("DELETE FROM settings WHERE key = ?", [key])

    # -- the clock --

    def next_time(self, session_id: int) -> str:
        """The time of a new entry of the session: now, or a microsecond after its latest
        entry when that is not earlier (a fast double action, a clock set back), so the
        session's entries keep the order they were made in."""
        stamp = now()
        last = self.latest_time(session_id)
        if last is not None and last >= stamp:
            from ledger.core.times import just_after  # rare: kept off the deal's start-up

            try:
                return just_after(last)
            except ValueError:  # a damaged time: the order then falls back on uuids
                return stamp
        return stamp

    def latest_time(self, session_id: int) -> str | None:
        """The time of the session's latest entry (its start at least; None: no entry)."""
        row = self.conn.execute("SELECT MAX(created_at) FROM entries WHERE session_id = ?",
                                [session_id]).fetchone()
        return None if row is None else row[0]

    # -- sessions --

    def add_session(
        self,
        *,
        seats: Sequence[str],
        name: str,
        rules: dict[str, Any],
        stake: str,
        currency: str | None,
        teams: bool,
        started_at: str | None = None,
        session_uuid: str | None = None,
        start_uuid: str | None = None,
    ) -> int:
        """Insert a session, its seats and its ``start`` entry (inside ``ledger.writing()``)."""
        started = started_at or now()
        session_uuid = session_uuid or new_uuid()
        sid = inserted_id(self.conn.execute(
            "INSERT INTO sessions (uuid, name, rules_name, rules, stake, currency, teams, "
            "started_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            [session_uuid, name, rules.get("name", ""),
             to_json(rules), stake, currency, int(teams), started],
        ))
        ids = [self.ledger.player_id(n, create=True) for n in seats]
        self._refuse_one_player_twice(seats, ids)
        self.conn.executemany(
            "INSERT INTO seats (session_id, seat, player_id) VALUES (?, ?, ?)",
            [(sid, i + 1, pid) for i, pid in enumerate(ids)],
        )
        from ledger.storage.upgrade import action_uuid

        self.add_action(sid, "start", entry_uuid=start_uuid or action_uuid(session_uuid, "start"),
                        created_at=started)
        self.ledger.audit("session.start", {"name": name, "seats": list(seats), "stake": stake,
                                      "currency": currency, "teams": teams,
                                      "rules": rules.get("name")}, session_id=sid)
        return sid

    def _refuse_one_player_twice(self, seats: Sequence[str], ids: Sequence[int]) -> None:
        """Two seats for one player (two names merged into one) are refused."""
        if not self.ledger.players.mark():
            return
        shown = dict(self.conn.execute(
            f"SELECT id, name FROM player_names WHERE id IN ({','.join('?' * len(ids))})",
            list(ids)).fetchall())
        seen: dict[str, str] = {}
        for typed, pid in zip(seats, ids, strict=True):
            if shown[pid] in seen:
                from ledger.core.i18n import _

                raise InputError(_("{a} and {b} are one player, {name} (merged); each player "
                                   "sits once").format(a=repr(seen[shown[pid]]), b=repr(typed),
                                                       name=repr(shown[pid])))
            seen[shown[pid]] = typed

    def add_action(self, session_id: int, kind: str, *, entry_uuid: str | None = None,
                   created_at: str | None = None, undoes: str | None = None) -> EntryRow:
        """Append one of the session's own actions: ``start``, ``end``, ``reopen`` or
        ``undo`` (of the start), with no deal and no points (inside ``ledger.writing()``)."""
        row = [entry_uuid or new_uuid(), session_id, kind,
               created_at or self.next_time(session_id), undoes]
        entry_id = inserted_id(self.conn.execute(
            "INSERT INTO entries (uuid, session_id, kind, created_at, undoes) "
            "VALUES (?, ?, ?, ?, ?)", row))
        if kind != "start":  # add_session's audit row tells the start
            self.ledger.audit(f"session.{kind}", {"uuid": row[0], "undoes": undoes}, session_id,
                              entry_id)
        return EntryRow(entry_id, str(row[0]), session_id, 0, kind, 0, None, str(row[3]), undoes)

    def add_seat(self, session_id: int, facts: dict[str, Any], *, entry_uuid: str | None = None,
                 created_at: str | None = None, undoes: str | None = None) -> EntryRow:
        """Append a seat entry (``seat join``, ``leave``…, or the undo of one) with its
        facts, no deal and no points (inside ``ledger.writing()``).  Its facts keep the
        names as typed, as a deal's do: a player shown under a new name (a rename, a
        merge) is stored under the name first typed for them, so that renaming a player
        who joined later reaches every entry naming them, as it reaches a seat."""
        row = [entry_uuid or new_uuid(), session_id, to_json(self._typed_seat(session_id, facts)),
               created_at or self.next_time(session_id), undoes]
        entry_id = inserted_id(self.conn.execute(
            "INSERT INTO entries (uuid, session_id, kind, facts, created_at, undoes) "
            "VALUES (?, ?, 'seat', ?, ?, ?)", row))
        self.ledger.audit(f"seat.{facts.get('action')}", {"uuid": row[0], "undoes": undoes},
                          session_id, entry_id)
        return EntryRow(entry_id, str(row[0]), session_id, 0, "seat", 0, dict(facts), str(row[3]),
                        undoes)

    def _typed_seat(self, session_id: int, facts: dict[str, Any]) -> dict[str, Any]:
        """A seat entry's facts under the names first typed for its players."""
        if not self.ledger.players.mark():  # no player renamed or merged: names are as typed
            return facts
        typed = self.renames(session_id, shown=False)
        if facts.get("action") == "join" and isinstance(facts.get("player"), str):
            name = facts["player"]
            try:
                pid = self.ledger.player_id(name)
            except InputError:  # (NotFound too) a player new to the ledger: as given
                pid = None
            if pid is not None:
                typed[name] = self.conn.execute("SELECT name FROM players WHERE id = ?",
                                                [pid]).fetchone()[0]
        if not typed:
            return facts
        from ledger.core.names import rename_facts

        return rename_facts(facts, typed)

    def seat_entries(self, session_id: int) -> list[EntryRow]:
        """The session's seat entries that count (not undone, not undos), in the one order."""
        rows = self.conn.execute(
            """SELECT id, uuid, session_id, seq, kind, deal_no, facts, created_at, undoes
               FROM entries e WHERE e.session_id = ? AND e.seq IS NULL AND e.kind = 'seat'
                 AND e.undoes IS NULL AND NOT EXISTS (SELECT 1 FROM entries u WHERE u.undoes = e.uuid)
               ORDER BY e.created_at, e.uuid""", [session_id]).fetchall()
        return [entry_row(r) for r in rows]

    def end_session(self, session_id: int, at: str | None = None,
                    entry_uuid: str | None = None) -> EntryRow:
        """Append the session's ``end`` (inside ``ledger.writing()``)."""
        return self.add_action(session_id, "end", entry_uuid=entry_uuid, created_at=at)

    # -- entries --

    def add_entry(
        self,
        session_id: int,
        kind: str,
        deal_no: int,
        facts: dict[str, Any] | None,
        points: Iterable[PointsRow],
        *,
        entry_uuid: str | None = None,
        created_at: str | None = None,
        undoes: str | None = None,
    ) -> EntryRow:
        """Append one deal entry and its derived points (inside ``ledger.writing()``)."""
        seq = self.conn.execute(
            "SELECT COALESCE(MAX(seq), 0) + 1 FROM entries WHERE session_id = ?", [session_id]
        ).fetchone()[0]
        seat_ids = {now: pid for _typed, now, pid in self.seat_names(session_id)}
        typed_names = self.renames(session_id, shown=False)
        stored = facts
        if facts is not None and typed_names:  # facts keep the names as typed
            from ledger.core.names import rename_facts

            stored = rename_facts(facts, typed_names)

        def pid(name: str) -> int:
            return seat_ids[name] if name in seat_ids else self.ledger.player_id(name)

        row = {
            "uuid": entry_uuid or new_uuid(), "session_id": session_id, "seq": seq,
            "kind": kind, "deal_no": deal_no,
            "facts": None if stored is None else to_json(stored),
            "created_at": created_at or self.next_time(session_id), "undoes": undoes,
        }
        entry_id = inserted_id(self.conn.execute(
            "INSERT INTO entries (uuid, session_id, seq, kind, deal_no, facts, created_at, "
            "undoes) VALUES (:uuid, :session_id, :seq, :kind, :deal_no, :facts, :created_at, "
            ":undoes)",
            row,
        ))
        self.conn.executemany(
            "INSERT INTO points (entry_id, session_id, player_id, deals, wins, fried, cards, "
            "penalty, net, payee_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [
                (entry_id, session_id, pid(p.player), p.deals, p.wins, p.fried,
                 p.cards, p.penalty, p.net, None if p.payee is None else pid(p.payee))
                for p in points
            ],
        )
        self.ledger.audit(f"deal.{kind}", {"deal": deal_no, "seq": seq}, session_id, entry_id)
        if undoes is not None:  # for the reader of the audit log; the column is what counts
            self.ledger.audit("deal.undo", {"undoes": undoes}, session_id, entry_id)
        return EntryRow(entry_id, row["uuid"], session_id, seq, kind, deal_no, facts,
                        row["created_at"], undoes)
