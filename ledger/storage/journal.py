"""The journal: players, sessions and their append-only entries (``ledger.journal``).

Deals are entries.  A correction (void, amend) is a new entry whose derived points
reverse the version it replaces, so nothing recorded is ever updated or deleted.
Writes go inside :meth:`Ledger.writing <ledger.storage.store.Ledger.writing>`.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

from ledger.core.errors import InputError, NotFound
from ledger.storage.codec import inserted_id, new_uuid, now, rules_dict, to_json
from ledger.storage.rows import EntryRow, PointsRow, SessionRow

if TYPE_CHECKING:
    from ledger.storage.store import Ledger

_ENTRY_COLS = "id, uuid, session_id, seq, kind, deal_no, facts, created_at"


def _entry(row: Sequence[Any]) -> EntryRow:
    """An entry read in ``_ENTRY_COLS`` order, its facts decoded."""
    entry_id, uuid, session_id, seq, kind, deal_no, facts, created_at = row
    return EntryRow(entry_id, uuid, session_id, seq, kind, deal_no,
                    None if facts is None else json.loads(facts), created_at)


class Journal:
    """Players, sessions and entries of one open ledger."""

    def __init__(self, ledger: Ledger) -> None:
        self.ledger = ledger
        self.conn = ledger.conn

    # -- players and settings --

    def player_ids(self) -> dict[str, int]:
        """Every player's id by the name first typed for it (as deal facts are stored;
        ids count up in order of first appearance)."""
        return dict(self.conn.execute("SELECT name, id FROM players ORDER BY id").fetchall())

    def _names(self) -> str:
        """Where the names shown are read: the view ``player_names``, or while no player
        was ever renamed or merged the ``players`` table it then equals (a deal is
        recorded without resolving every player)."""
        return self.ledger.players.source()

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
    ) -> int:
        """Insert a session with its seats (inside ``ledger.writing()``)."""
        sid = inserted_id(self.conn.execute(
            "INSERT INTO sessions (uuid, name, rules_name, rules, stake, currency, teams, "
            "started_at, ended_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, NULL)",
            [session_uuid or new_uuid(), name, rules.get("name", ""),
             to_json(rules), stake, currency, int(teams), started_at or now()],
        ))
        ids = [self.ledger.player_id(n, create=True) for n in seats]
        self._refuse_one_player_twice(seats, ids)
        self.conn.executemany(
            "INSERT INTO seats (session_id, seat, player_id) VALUES (?, ?, ?)",
            [(sid, i + 1, pid) for i, pid in enumerate(ids)],
        )
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

    def seat_names(self, session_id: int) -> list[tuple[str, str, int]]:
        """(name as typed, name shown now, player id) of each seat, in seat order."""
        return [(r[0], r[1], r[2]) for r in self.conn.execute(
            f"""SELECT p.name, n.name, t.player_id FROM seats t
               JOIN players p ON p.id = t.player_id JOIN {self._names()} n ON n.id = t.player_id
               WHERE t.session_id = ? ORDER BY t.seat""", [session_id])]

    def renames(self, session_id: int, shown: bool = True) -> dict[str, str]:
        """Typed -> shown seat names of a session (or the reverse), those that differ."""
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

    def end_session(self, session_id: int, at: str | None = None) -> None:
        # Ending is the one update the ledger makes: it closes the session, it
        # touches no deal.  The audit log keeps when and that it happened.
        self.conn.execute(
            "UPDATE sessions SET ended_at = ? WHERE id = ?", [at or now(), session_id]
        )
        self.ledger.audit("session.end", {}, session_id=session_id)

    def _session_rows(self, where: str, params: Sequence[Any]) -> list[SessionRow]:
        rows = self.conn.execute(
            f"""SELECT s.id, s.uuid, s.name, s.rules_name, s.rules, s.stake, s.currency, s.teams,
                       s.started_at, s.ended_at,
                       (SELECT COALESCE(MAX(deals), 0) FROM session_totals q
                         WHERE q.session_id = s.id) AS deals
                FROM sessions s {where} ORDER BY s.id""",
            params,
        ).fetchall()
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
        return [
            SessionRow(
                id=sid, uuid=uuid, name=name, rules_name=rules_name, rules=rules_dict(rules),
                stake=stake, currency=currency, teams=bool(teams), started_at=started_at,
                ended_at=ended_at, seats=tuple(seats.get(sid, ())), deals=deals,
            )
            for sid, uuid, name, rules_name, rules, stake, currency, teams, started_at, ended_at, deals
            in rows
        ]

    def sessions(self) -> list[SessionRow]:
        return self._session_rows("", [])

    def session(self, session_id: int) -> SessionRow:
        rows = self._session_rows("WHERE s.id = ?", [session_id])
        if not rows:
            from ledger.core.i18n import _

            raise NotFound(_("no session {id} in this ledger").format(id=session_id))

        return rows[0]

    def session_ids(self) -> list[int]:
        return [r[0] for r in self.conn.execute("SELECT id FROM sessions ORDER BY id")]

    def sessions_where_stake_in(self, stakes: Sequence[str], teams: bool) -> list[SessionRow]:
        marks = ",".join("?" * len(stakes))
        cond = "s.teams = 1" if teams else f"s.teams = 0 AND s.stake IN ({marks})"
        return self._session_rows(f"WHERE {cond}", [] if teams else list(stakes))

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
    ) -> EntryRow:
        """Append one entry and its derived points (inside ``ledger.writing()``)."""
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
            "created_at": created_at or now(),
        }
        entry_id = inserted_id(self.conn.execute(
            "INSERT INTO entries (uuid, session_id, seq, kind, deal_no, facts, created_at) "
            "VALUES (:uuid, :session_id, :seq, :kind, :deal_no, :facts, :created_at)",
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
        return EntryRow(entry_id, row["uuid"], session_id, seq, kind, deal_no, facts,
                        row["created_at"])

    def next_deal_no(self, session_id: int) -> int:
        return int(self.conn.execute(
            "SELECT COALESCE(MAX(deal_no), 0) + 1 FROM entries WHERE session_id = ?",
            [session_id],
        ).fetchone()[0])


    def entries(self, session_id: int) -> list[EntryRow]:
        rows = self.conn.execute(
            f"SELECT {_ENTRY_COLS} FROM entries WHERE session_id = ? ORDER BY seq",
            [session_id],
        ).fetchall()
        return self._shown([_entry(r) for r in rows])

    def current_version(self, session_id: int, deal_no: int) -> EntryRow | None:
        """The latest entry about deal ``deal_no`` (a void means the deal is gone)."""
        r = self.conn.execute(
            f"SELECT {_ENTRY_COLS} FROM entries WHERE session_id = ? AND deal_no = ? "
            "ORDER BY id DESC LIMIT 1",
            [session_id, deal_no],
        ).fetchone()
        return None if r is None else self._shown([_entry(r)])[0]

    def last_live_entry(self, session_id: int) -> EntryRow | None:
        """The current version of the last deal not voided (None before any), one row
        read however long the evening: who deals next needs no more."""
        r = self.conn.execute(
            f"""SELECT {_ENTRY_COLS} FROM entries e
               WHERE e.session_id = ? AND e.kind != 'void'
                 AND e.id = (SELECT MAX(id) FROM entries
                             WHERE session_id = e.session_id AND deal_no = e.deal_no)
               ORDER BY e.deal_no DESC LIMIT 1""",
            [session_id],
        ).fetchone()
        return None if r is None else self._shown([_entry(r)])[0]

    def live_deals(self, session_id: int) -> list[EntryRow]:
        """The current version of every deal not voided, in deal order."""
        rows = self.conn.execute(
            f"""SELECT {_ENTRY_COLS} FROM entries e
               WHERE e.session_id = ? AND e.kind != 'void'
                 AND e.id = (SELECT MAX(id) FROM entries
                             WHERE session_id = e.session_id AND deal_no = e.deal_no)
               ORDER BY e.deal_no""",
            [session_id],
        ).fetchall()
        return self._shown([_entry(r) for r in rows])

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

