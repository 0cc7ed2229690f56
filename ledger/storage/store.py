"""The ledger file: the one module that talks to SQLite (through sqlite-utils).

Deals are append-only entries.  A correction (void, amend) is a new entry whose
derived points reverse the version it replaces, so every standing is one
``SUM`` over the ``points`` table and nothing recorded is ever updated or
deleted.  Every user action is one write transaction, taken with
``BEGIN IMMEDIATE`` so two terminals queue up (``busy_timeout``) instead of
failing with "database is locked".
"""

from __future__ import annotations

import json
import os
import sqlite3
import sys
import uuid as uuidlib
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from ledger.core.errors import InputError, StoreError
from ledger.core.text import name_key, shown

if TYPE_CHECKING:
    from sqlite_utils import Database
    from sqlite_utils.migrations import Migrations

APP = "bigtwo-ledger"
BUSY_TIMEOUT_MS = 30_000
POINT_COLUMNS = ("deals", "wins", "fried", "cards", "penalty", "net")


def _sqlite_utils() -> Any:
    """Import sqlite_utils without letting it pull in numpy or pandas.

    sqlite-utils imports them (if installed) only to convert their scalar types,
    which this ledger never stores; blocking them saves ~150 ms on every command.
    Anything imported later (matplotlib) still gets the real numpy.
    """
    if "sqlite_utils" in sys.modules:
        return sys.modules["sqlite_utils"]
    blocked = [m for m in ("numpy", "pandas") if m not in sys.modules]
    for name in blocked:
        sys.modules[name] = None  # type: ignore[assignment]
    try:
        import sqlite_utils
    finally:
        for name in blocked:
            del sys.modules[name]
    return sqlite_utils


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="microseconds")


def new_uuid() -> str:
    return str(uuidlib.uuid4())


# --- schema -----------------------------------------------------------------


# PRAGMA user_version holds the number of migrations applied, so opening an
# up-to-date ledger costs one pragma and no sqlite-utils import.  Adding a
# migration below?  Bump this too (a test checks they agree).
SCHEMA_VERSION = 3
APPLICATION_ID = 0x42324C47  # "B2LG": marks the file as a bigtwo ledger


def _migrations() -> Migrations:
    from sqlite_utils.migrations import Migrations

    migrations = Migrations("bigtwo")

    @migrations(name="m001_initial")
    def m001_initial(db: Database) -> None:
        db["players"].create(
            {"id": int, "name": str, "created_at": str}, pk="id", not_null={"name", "created_at"}
        )
        db["players"].create_index(["name"], unique=True)
        db["sessions"].create(
            {
                "id": int, "uuid": str, "name": str, "rules_name": str, "rules": str,
                "stake": str, "currency": str, "teams": int, "started_at": str, "ended_at": str,
            },
            pk="id",
            not_null={"uuid", "name", "rules_name", "rules", "stake", "teams", "started_at"},
        )
        db["sessions"].create_index(["uuid"], unique=True)
        db["seats"].create(
            {"session_id": int, "seat": int, "player_id": int},
            pk=("session_id", "seat"),
            foreign_keys=[("session_id", "sessions", "id"), ("player_id", "players", "id")],
            not_null={"player_id"},
        )
        db["seats"].create_index(["session_id", "player_id"], unique=True)
        db["seats"].create_index(["player_id"])
        db["entries"].create(
            {
                "id": int, "uuid": str, "session_id": int, "seq": int, "kind": str,
                "deal_no": int, "facts": str, "created_at": str,
            },
            pk="id",
            foreign_keys=[("session_id", "sessions", "id")],
            not_null={"uuid", "session_id", "seq", "kind", "deal_no", "created_at"},
        )
        db["entries"].create_index(["uuid"], unique=True)
        db["entries"].create_index(["session_id", "seq"], unique=True)
        db["entries"].create_index(["session_id", "deal_no", "id"])
        db["points"].create(
            {
                "id": int, "entry_id": int, "session_id": int, "player_id": int,
                "deals": int, "wins": int, "fried": int, "cards": int, "penalty": int,
                "net": int, "payee_id": int,
            },
            pk="id",
            foreign_keys=[
                ("entry_id", "entries", "id"),
                ("session_id", "sessions", "id"),
                ("player_id", "players", "id"),
                ("payee_id", "players", "id"),
            ],
            not_null={"entry_id", "session_id", "player_id", *POINT_COLUMNS},
        )
        # Covering index: standings are one aggregate over it.
        db["points"].create_index(
            ["session_id", "player_id", "deals", "wins", "fried", "penalty", "net"]
        )
        db["points"].create_index(["entry_id"])
        db["points"].create_index(["player_id"])
        db["points"].create_index(["payee_id"])
        db["audit"].create(
            {"id": int, "at": str, "action": str, "session_id": int, "entry_id": int,
             "detail": str},
            pk="id",
            not_null={"at", "action", "detail"},
        )
        db["settings"].create({"key": str, "value": str}, pk="key", not_null={"value"})
        for table in ("entries", "points", "audit"):
            for op in ("UPDATE", "DELETE"):
                db.execute(
                    f"CREATE TRIGGER {table}_no_{op.lower()} BEFORE {op} ON {table} "
                    f"BEGIN SELECT RAISE(ABORT, '{table} are append-only'); END"
                )

    @migrations(name="m002_session_totals")
    def m002_session_totals(db: Database) -> None:
        """Per-session sums of the points rows, kept by triggers in the same transaction.

        Standings over a million deals read ~70k summary rows instead of 4M point
        rows.  They are a cache of derived data: `bigtwo doctor` recomputes them
        from `points`.  The covering index they replace is dropped.
        """
        sums = ", ".join(f"{c} INTEGER NOT NULL" for c in POINT_COLUMNS)
        db.execute(
            f"""CREATE TABLE session_totals (
                session_id INTEGER NOT NULL REFERENCES sessions(id),
                player_id INTEGER NOT NULL REFERENCES players(id),
                {sums}, PRIMARY KEY (session_id, player_id)) STRICT"""
        )
        db.execute(
            """CREATE TABLE session_flows (
                session_id INTEGER NOT NULL REFERENCES sessions(id),
                player_id INTEGER NOT NULL REFERENCES players(id),
                payee_id INTEGER NOT NULL REFERENCES players(id),
                net INTEGER NOT NULL, PRIMARY KEY (session_id, player_id, payee_id)) STRICT"""
        )
        cols = ", ".join(POINT_COLUMNS)
        news = ", ".join(f"NEW.{c}" for c in POINT_COLUMNS)
        adds = ", ".join(f"{c} = {c} + excluded.{c}" for c in POINT_COLUMNS)
        db.execute(
            f"""CREATE TRIGGER points_into_totals AFTER INSERT ON points BEGIN
                INSERT INTO session_totals (session_id, player_id, {cols})
                VALUES (NEW.session_id, NEW.player_id, {news})
                ON CONFLICT (session_id, player_id) DO UPDATE SET {adds};
            END"""
        )
        db.execute(
            """CREATE TRIGGER points_into_flows AFTER INSERT ON points
               WHEN NEW.payee_id IS NOT NULL BEGIN
                INSERT INTO session_flows (session_id, player_id, payee_id, net)
                VALUES (NEW.session_id, NEW.player_id, NEW.payee_id, NEW.net)
                ON CONFLICT (session_id, player_id, payee_id) DO UPDATE SET net = net + excluded.net;
            END"""
        )
        sums_sel = ", ".join(f"SUM({c})" for c in POINT_COLUMNS)
        db.execute(
            f"""INSERT INTO session_totals (session_id, player_id, {cols})
                SELECT session_id, player_id, {sums_sel} FROM points
                GROUP BY session_id, player_id"""
        )
        db.execute(
            """INSERT INTO session_flows (session_id, player_id, payee_id, net)
               SELECT session_id, player_id, payee_id, SUM(net) FROM points
               WHERE payee_id IS NOT NULL GROUP BY session_id, player_id, payee_id"""
        )
        db.execute("DROP INDEX IF EXISTS idx_points_session_id_player_id_deals_wins_fried_penalty_net")
        db.execute("CREATE INDEX idx_points_session_id ON points (session_id)")

    @migrations(name="m003_history_stats")
    def m003_history_stats(db: Database) -> None:
        """Caches for `bigtwo stats` / `plot`, derived from entries and points.

        Each cache is marked with the last entry id it has taken in
        (``derived_marks``); ledger/book/digest.py and ledger/book/ratings.py bring it up to
        date from newer entries, or rebuild it when a correction reaches back.
        """
        db.execute(
            """CREATE TABLE derived_marks (name TEXT PRIMARY KEY,
                last_entry_id INTEGER NOT NULL, version TEXT NOT NULL) STRICT"""
        )
        runs = ", ".join(
            f"{k}_{p} INTEGER NOT NULL" for k in ("win", "loss") for p in ("lead", "tail", "max")
        )
        db.execute(
            f"""CREATE TABLE deal_stats (
                session_id INTEGER NOT NULL, player_id INTEGER NOT NULL,
                deals INTEGER NOT NULL, assists INTEGER NOT NULL,
                worst_net INTEGER, worst_deal INTEGER, {runs},
                cards_hist TEXT NOT NULL, penalty_hist TEXT NOT NULL,
                PRIMARY KEY (session_id, player_id)) STRICT"""
        )
        db.execute(
            """CREATE TABLE ratings (player_id INTEGER PRIMARY KEY, mu REAL NOT NULL,
                sigma REAL NOT NULL, deals INTEGER NOT NULL) STRICT"""
        )

    return migrations


@lru_cache(maxsize=256)
def _rules_dict(text: str) -> dict[str, Any]:
    """Frozen rules JSON, parsed once per distinct text (sessions share them; read-only)."""
    return json.loads(text)


# --- records ----------------------------------------------------------------


@dataclass(frozen=True)
class SessionRow:
    id: int
    uuid: str
    name: str
    rules_name: str
    rules: dict[str, Any]
    stake: str
    currency: str | None
    teams: bool
    started_at: str
    ended_at: str | None
    seats: tuple[str, ...]
    deals: int


@dataclass(frozen=True)
class EntryRow:
    id: int
    uuid: str
    session_id: int
    seq: int
    kind: str
    deal_no: int
    facts: dict[str, Any] | None
    created_at: str


@dataclass(frozen=True)
class PointsRow:
    player: str
    deals: int
    wins: int
    fried: int
    cards: int
    penalty: int
    net: int
    payee: str | None = None


# A points row as a plain tuple, in PointsRow's field order (the bulk path makes millions).
PointsTuple = tuple[str, int, int, int, int, int, int, "str | None"]


class ImportedEntry(NamedTuple):
    """An entry for :meth:`Ledger.import_entries`: its identity, facts and derived points.

    ``facts`` may also be given as the JSON text :meth:`Ledger.add_entry` would write.
    """

    uuid: str
    kind: str
    deal_no: int
    facts: dict[str, Any] | str | None
    points: Sequence[PointsTuple]
    created_at: str | None = None


# --- the ledger -----------------------------------------------------------------


class Ledger:
    """An open ledger file.  Use :func:`open_ledger`."""

    def __init__(self, conn: sqlite3.Connection, path: str) -> None:
        self.conn = conn
        self.path = path
        self._player_ids: dict[str, int] = {}
        self._db: Database | None = None

    @property
    def db(self) -> Database:
        """The sqlite-utils view of the connection, built on first use.

        Recording a deal needs only a few plain statements on ``conn``;
        importing sqlite-utils is left to the paths that use it.
        """
        if self._db is None:
            self._db = _sqlite_utils().Database(self.conn, strict=True, execute_plugins=False)
        return self._db

    def close(self) -> None:
        self.conn.close()

    def __enter__(self) -> Ledger:
        return self

    def __exit__(self, exc_type: object, exc: BaseException | None, tb: object) -> None:
        self.close()
        if isinstance(exc, sqlite3.Error):
            # A read or write that failed after opening (disk I/O error, full disk, a
            # damaged page): the command shows one clear message, never a traceback.
            raise _store_error(exc, self.path) from None

    # -- transactions --

    @contextmanager
    def writing(self) -> Iterator[Ledger]:
        """One user action = one transaction, with the write lock taken up front."""
        conn = self.conn
        if conn.in_transaction:  # nested action: a savepoint inside the outer one
            with self.db.atomic():
                yield self
            return
        try:
            conn.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError as exc:
            raise _store_error(exc, self.path) from None
        try:
            yield self
            conn.execute("COMMIT")
        except sqlite3.OperationalError as exc:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise _store_error(exc, self.path) from None
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise

    def _audit(self, action: str, detail: dict[str, Any], session_id: int | None = None,
               entry_id: int | None = None) -> None:
        self.conn.execute(
            "INSERT INTO audit (at, action, session_id, entry_id, detail) VALUES (?, ?, ?, ?, ?)",
            [now(), action, session_id, entry_id,
             json.dumps(detail, sort_keys=True, ensure_ascii=False)],
        )

    # -- players --

    def player_name(self, typed: str) -> str:
        """The ledger's spelling of the player ``typed`` names (same :func:`name_key`:
        ``ann`` finds ``Ann``); :class:`InputError` when there is none."""
        found = self.find_player(typed)
        if found is None:
            raise InputError(f"no player named {shown(typed)!r} in this ledger")
        return found

    def find_player(self, typed: str) -> str | None:
        """The ledger's spelling of the player named ``typed`` (by name key), or None."""
        row = self.conn.execute("SELECT name FROM players WHERE name = ?", [typed]).fetchone()
        if row is not None:
            return row[0]
        key = name_key(typed.strip())
        for (name,) in self.conn.execute("SELECT name FROM players"):
            if name_key(name) == key:
                return name
        return None

    def player_id(self, name: str, create: bool = False) -> int:
        if name in self._player_ids:
            return self._player_ids[name]
        row = self.conn.execute("SELECT id FROM players WHERE name = ?", [name]).fetchone()
        if row is None:
            if not create:
                raise InputError(f"no player named {shown(name)!r} in this ledger")
            known = self.find_player(name)
            if known is not None:  # one player, two spellings: the ledger's is kept
                raise InputError(f"player {shown(name)!r} is {shown(known)!r} in this ledger "
                                 f"(the same name); write it as {shown(known)!r}")
            pid = self.conn.execute(
                "INSERT INTO players (name, created_at) VALUES (?, ?)", [name, now()]
            ).lastrowid
            self._audit("player.add", {"name": name})
            row = (pid,)
        self._player_ids[name] = row[0]
        return row[0]

    # -- settings --

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
        """Insert a session with its seats (inside :meth:`writing`)."""
        sid = self.conn.execute(
            "INSERT INTO sessions (uuid, name, rules_name, rules, stake, currency, teams, "
            "started_at, ended_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, NULL)",
            [session_uuid or new_uuid(), name, rules.get("name", ""),
             json.dumps(rules, sort_keys=True, ensure_ascii=False), stake, currency,
             int(teams), started_at or now()],
        ).lastrowid
        self.conn.executemany(
            "INSERT INTO seats (session_id, seat, player_id) VALUES (?, ?, ?)",
            [(sid, i + 1, self.player_id(n, create=True)) for i, n in enumerate(seats)],
        )
        self._audit("session.start", {"name": name, "seats": list(seats), "stake": stake,
                                      "currency": currency, "teams": teams,
                                      "rules": rules.get("name")}, session_id=sid)
        return sid

    def end_session(self, session_id: int, at: str | None = None) -> None:
        # Ending is the one update the ledger makes: it closes the session, it
        # touches no deal.  The audit log keeps when and that it happened.
        self.conn.execute(
            "UPDATE sessions SET ended_at = ? WHERE id = ?", [at or now(), session_id]
        )
        self._audit("session.end", {}, session_id=session_id)

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
        if len(rows) <= 500:
            ids = [r[0] for r in rows]
            seat_rows = self.conn.execute(
                "SELECT t.session_id, p.name FROM seats t JOIN players p ON p.id = t.player_id "
                f"WHERE t.session_id IN ({','.join('?' * len(ids))}) ORDER BY t.session_id, t.seat",
                ids,
            ).fetchall()
        else:
            seat_rows = self.conn.execute(
                "SELECT t.session_id, p.name FROM seats t JOIN players p ON p.id = t.player_id "
                "ORDER BY t.session_id, t.seat"
            ).fetchall()
        seats: dict[int, list[str]] = {}
        for sid, name in seat_rows:
            seats.setdefault(sid, []).append(name)
        return [
            SessionRow(
                id=r[0], uuid=r[1], name=r[2], rules_name=r[3], rules=_rules_dict(r[4]),
                stake=r[5], currency=r[6], teams=bool(r[7]), started_at=r[8],
                ended_at=r[9], seats=tuple(seats.get(r[0], ())), deals=r[10],
            )
            for r in rows
        ]

    def sessions(self) -> list[SessionRow]:
        return self._session_rows("", [])

    def session(self, session_id: int) -> SessionRow:
        rows = self._session_rows("WHERE s.id = ?", [session_id])
        if not rows:
            raise InputError(f"no session {session_id} in this ledger; see: bigtwo session list")
        return rows[0]

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
        """Append one entry and its derived points (inside :meth:`writing`)."""
        seq = self.conn.execute(
            "SELECT COALESCE(MAX(seq), 0) + 1 FROM entries WHERE session_id = ?", [session_id]
        ).fetchone()[0]
        row = {
            "uuid": entry_uuid or new_uuid(), "session_id": session_id, "seq": seq,
            "kind": kind, "deal_no": deal_no,
            "facts": None if facts is None else json.dumps(facts, sort_keys=True,
                                                            ensure_ascii=False),
            "created_at": created_at or now(),
        }
        entry_id = self.conn.execute(
            "INSERT INTO entries (uuid, session_id, seq, kind, deal_no, facts, created_at) "
            "VALUES (:uuid, :session_id, :seq, :kind, :deal_no, :facts, :created_at)",
            row,
        ).lastrowid
        self.conn.executemany(
            "INSERT INTO points (entry_id, session_id, player_id, deals, wins, fried, cards, "
            "penalty, net, payee_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [
                (entry_id, session_id, self.player_id(p.player), p.deals, p.wins, p.fried,
                 p.cards, p.penalty, p.net,
                 None if p.payee is None else self.player_id(p.payee))
                for p in points
            ],
        )
        self._audit(f"deal.{kind}", {"deal": deal_no, "seq": seq}, session_id, entry_id)
        return EntryRow(entry_id, row["uuid"], session_id, seq, kind, deal_no, facts,
                        row["created_at"])

    def next_deal_no(self, session_id: int) -> int:
        return self.conn.execute(
            "SELECT COALESCE(MAX(deal_no), 0) + 1 FROM entries WHERE session_id = ?",
            [session_id],
        ).fetchone()[0]

    def _entry(self, r: Sequence[Any]) -> EntryRow:
        return EntryRow(r[0], r[1], r[2], r[3], r[4], r[5],
                        None if r[6] is None else json.loads(r[6]), r[7])

    _ENTRY_COLS = "id, uuid, session_id, seq, kind, deal_no, facts, created_at"

    def entries(self, session_id: int) -> list[EntryRow]:
        rows = self.conn.execute(
            f"SELECT {self._ENTRY_COLS} FROM entries WHERE session_id = ? ORDER BY seq",
            [session_id],
        ).fetchall()
        return [self._entry(r) for r in rows]

    def current_version(self, session_id: int, deal_no: int) -> EntryRow | None:
        """The latest entry about deal ``deal_no`` (a void means the deal is gone)."""
        r = self.conn.execute(
            f"SELECT {self._ENTRY_COLS} FROM entries WHERE session_id = ? AND deal_no = ? "
            "ORDER BY id DESC LIMIT 1",
            [session_id, deal_no],
        ).fetchone()
        return None if r is None else self._entry(r)

    def last_live_deal(self, session_id: int) -> int | None:
        r = self.conn.execute(
            """SELECT e.deal_no FROM entries e
               WHERE e.session_id = ? AND e.kind != 'void'
                 AND e.id = (SELECT MAX(id) FROM entries
                             WHERE session_id = e.session_id AND deal_no = e.deal_no)
               ORDER BY e.deal_no DESC LIMIT 1""",
            [session_id],
        ).fetchone()
        return None if r is None else r[0]

    def live_deals(self, session_id: int) -> list[EntryRow]:
        """The current version of every deal not voided, in deal order."""
        rows = self.conn.execute(
            f"""SELECT {self._ENTRY_COLS} FROM entries e
               WHERE e.session_id = ? AND e.kind != 'void'
                 AND e.id = (SELECT MAX(id) FROM entries
                             WHERE session_id = e.session_id AND deal_no = e.deal_no)
               ORDER BY e.deal_no""",
            [session_id],
        ).fetchall()
        return [self._entry(r) for r in rows]

    def deal_points(self, session_id: int, deal_no: int) -> list[PointsRow]:
        """What deal ``deal_no`` adds up to now: its entries' points summed per player and
        payee (rows that cancel out left off).  Negated, it is the exact reversal of the
        live version, however many amendments came before it."""
        rows = self.conn.execute(
            """SELECT p.name, SUM(q.deals), SUM(q.wins), SUM(q.fried), SUM(q.cards),
                      SUM(q.penalty), SUM(q.net), y.name
               FROM entries e JOIN points q ON q.entry_id = e.id
               JOIN players p ON p.id = q.player_id LEFT JOIN players y ON y.id = q.payee_id
               WHERE e.session_id = ? AND e.deal_no = ?
               GROUP BY q.player_id, q.payee_id ORDER BY MIN(q.id)""",
            [session_id, deal_no],
        ).fetchall()
        return [PointsRow(*r) for r in rows if any(r[1:7])]

    # -- aggregates --

    def totals(self, session_ids: Sequence[int] | None = None) -> list[tuple[Any, ...]]:
        """(session_id, player, deals, wins, fried, penalty, net) per session and player.

        Read from the trigger-kept ``session_totals`` (all sessions when ``None``).
        """
        sql = """SELECT q.session_id, p.name, q.deals, q.wins, q.fried, q.penalty, q.net
                 FROM session_totals q JOIN players p ON p.id = q.player_id"""
        if session_ids is None:
            return self.conn.execute(sql).fetchall()
        if len(session_ids) == 1:
            return self.conn.execute(sql + " WHERE q.session_id = ?", list(session_ids)).fetchall()
        wanted = set(session_ids)
        return [r for r in self.conn.execute(sql).fetchall() if r[0] in wanted]

    def session_ids(self) -> list[int]:
        return [r[0] for r in self.conn.execute("SELECT id FROM sessions ORDER BY id")]

    def player_totals(self) -> list[tuple[Any, ...]]:
        """(player, deals, wins, fried, penalty, net) over every session, summed in SQL."""
        return self.conn.execute(
            """SELECT p.name, SUM(q.deals), SUM(q.wins), SUM(q.fried), SUM(q.penalty), SUM(q.net)
               FROM session_totals q JOIN players p ON p.id = q.player_id
               GROUP BY q.player_id"""
        ).fetchall()

    # Settling every session at once: sums per (stake, currency, kind), so a
    # decade of sessions costs a few grouped scans instead of a loop per session.

    # The settlement kind lives in each session's frozen rules; extract it once per
    # session (MATERIALIZED) rather than once per joined row.
    _KINDS = (
        "WITH k AS MATERIALIZED (SELECT id, stake, teams, "
        "json_extract(rules, '$.settlement') AS kind FROM sessions) "
    )

    def currencies(self) -> list[str]:
        return [r[0] or "PTS" for r in self.conn.execute("SELECT DISTINCT currency FROM sessions")]

    def money_groups(self) -> list[tuple[Any, ...]]:
        """(stake, teams, kind, player, net points) summed per stake group and player."""
        return self.conn.execute(
            self._KINDS
            + """SELECT k.stake, k.teams, k.kind, p.name, SUM(q.net)
                FROM session_totals q JOIN k ON k.id = q.session_id
                JOIN players p ON p.id = q.player_id
                GROUP BY k.stake, k.teams, k.kind, q.player_id"""
        ).fetchall()

    def pair_penalty_groups(self) -> list[tuple[Any, ...]]:
        """Pairwise non-team sessions: (stake, a, b, sum of a's minus b's penalty totals)."""
        return self.conn.execute(
            self._KINDS
            + """SELECT k.stake, pa.name, pb.name, SUM(a.penalty - b.penalty)
                FROM k JOIN session_totals a ON a.session_id = k.id
                JOIN session_totals b ON b.session_id = a.session_id AND b.player_id > a.player_id
                JOIN players pa ON pa.id = a.player_id JOIN players pb ON pb.id = b.player_id
                WHERE k.teams = 0 AND k.kind = 'pairwise'
                GROUP BY k.stake, a.player_id, b.player_id"""
        ).fetchall()

    def flow_groups(self) -> list[tuple[Any, ...]]:
        """Pay-the-winner non-team sessions: (stake, player, winner, net) per stake group."""
        return self.conn.execute(
            """SELECT s.stake, p.name, y.name, SUM(f.net)
               FROM session_flows f JOIN sessions s ON s.id = f.session_id
               JOIN players p ON p.id = f.player_id JOIN players y ON y.id = f.payee_id
               WHERE s.teams = 0 GROUP BY s.stake, f.player_id, f.payee_id"""
        ).fetchall()

    def sessions_where_stake_in(self, stakes: Sequence[str], teams: bool) -> list[SessionRow]:
        marks = ",".join("?" * len(stakes))
        cond = "s.teams = 1" if teams else f"s.teams = 0 AND s.stake IN ({marks})"
        return self._session_rows(f"WHERE {cond}", [] if teams else list(stakes))

    def payee_flows(self, session_id: int) -> list[tuple[str, str, int]]:
        """Pay-the-winner flows: (player, winner, net of player with that winner)."""
        return self.conn.execute(
            """SELECT p.name, y.name, q.net FROM session_flows q
               JOIN players p ON p.id = q.player_id JOIN players y ON y.id = q.payee_id
               WHERE q.session_id = ?""",
            [session_id],
        ).fetchall()

    def audit_rows(self, session_id: int | None = None) -> list[tuple[Any, ...]]:
        where = "" if session_id is None else "WHERE session_id = ?"
        return self.conn.execute(
            f"SELECT id, at, action, session_id, entry_id, detail FROM audit {where} ORDER BY id",
            [] if session_id is None else [session_id],
        ).fetchall()

    # -- history and statistics --
    # Reads for ledger/book/stats.py, ledger/book/digest.py and ledger/book/ratings.py.  A deal's
    # current version is its latest entry up to ``upto`` (a snapshot entry id, so
    # every query of one refresh sees the same ledger); its own points are the rows
    # with deals = 1 (an amend also holds the reversal of the version it replaces).

    _LIVE_UPTO = (
        "e.id <= :upto AND e.kind != 'void' AND q.deals = 1 AND NOT EXISTS ("
        "SELECT 1 FROM entries x WHERE x.session_id = e.session_id "
        "AND x.deal_no = e.deal_no AND x.id > e.id AND x.id <= :upto)"
    )

    def player_ids(self) -> dict[str, int]:
        """Every player's id by name (ids count up in order of first appearance)."""
        return dict(self.conn.execute("SELECT name, id FROM players ORDER BY id").fetchall())

    def last_entry_id(self) -> int:
        return self.conn.execute("SELECT COALESCE(MAX(id), 0) FROM entries").fetchone()[0]

    def derived_mark(self, name: str) -> tuple[int, str] | None:
        """(last entry id taken in, version) of the derived cache ``name``."""
        row = self.conn.execute(
            "SELECT last_entry_id, version FROM derived_marks WHERE name = ?", [name]
        ).fetchone()
        return None if row is None else (row[0], row[1])

    def set_derived_mark(self, name: str, last_entry_id: int, version: str) -> None:
        self.conn.execute(
            "INSERT INTO derived_marks (name, last_entry_id, version) VALUES (?, ?, ?) "
            "ON CONFLICT (name) DO UPDATE SET last_entry_id = excluded.last_entry_id, "
            "version = excluded.version",
            [name, last_entry_id, version],
        )

    def sessions_changed(self, after: int, upto: int) -> list[tuple[int, int]]:
        """(session id, number of voids and amends) of each session with entries in (after, upto]."""
        return self.conn.execute(
            "SELECT session_id, SUM(kind != 'deal') FROM entries WHERE id > ? AND id <= ? "
            "GROUP BY session_id",
            [after, upto],
        ).fetchall()

    def corrections_reach_back(self, after: int, upto: int) -> bool:
        """Whether a void or amend in (after, upto] corrects a deal recorded at or before ``after``."""
        row = self.conn.execute(
            """SELECT 1 FROM entries n WHERE n.id > :after AND n.id <= :upto AND n.kind != 'deal'
                 AND EXISTS (SELECT 1 FROM entries o WHERE o.session_id = n.session_id
                             AND o.deal_no = n.deal_no AND o.id <= :after) LIMIT 1""",
            {"after": after, "upto": upto},
        ).fetchone()
        return row is not None

    def live_deal_points(
        self, session_ids: Sequence[int] | None, after: int, upto: int
    ) -> Iterator[tuple[Any, ...]]:
        """(session_id, deal_no, player_id, wins, cards, penalty, net, assist name) of the
        current version of every deal recorded in (after, upto], by session and deal."""
        where = "" if session_ids is None else "e.session_id IN (SELECT value FROM json_each(:ids)) AND"
        return self.conn.execute(
            f"""SELECT e.session_id, e.deal_no, q.player_id, q.wins, q.cards, q.penalty, q.net,
                       CASE WHEN instr(e.facts, '"assist"') THEN json_extract(e.facts, '$.assist') END
                FROM entries e JOIN points q ON q.entry_id = e.id
                WHERE {where} e.id > :after AND {self._LIVE_UPTO}
                ORDER BY e.session_id, e.deal_no""",
            {"ids": json.dumps(list(session_ids or [])), "after": after, "upto": upto},
        )

    _DEAL_STATS_COLS = (
        "session_id, player_id, deals, assists, worst_net, worst_deal, win_lead, win_tail, "
        "win_max, loss_lead, loss_tail, loss_max, cards_hist, penalty_hist"
    )

    def deal_stats(
        self, session_ids: Sequence[int] | None = None, hists: bool = True
    ) -> list[tuple[Any, ...]]:
        """The cached per-session deal statistics (see ledger/book/digest.py), in column order;
        without the two distribution columns unless ``hists``."""
        cols = self._DEAL_STATS_COLS if hists else self._DEAL_STATS_COLS.rsplit(",", 2)[0]
        where = "" if session_ids is None else "WHERE session_id IN (SELECT value FROM json_each(?))"
        return self.conn.execute(
            f"SELECT {cols} FROM deal_stats {where}",
            [] if session_ids is None else [json.dumps(list(session_ids))],
        ).fetchall()

    def save_deal_stats(
        self, session_ids: Sequence[int] | None, rows: Iterable[Sequence[Any]]
    ) -> None:
        """Replace the cached rows of ``session_ids`` (all when None) (inside :meth:`writing`)."""
        if session_ids is None:
            self.conn.execute("DELETE FROM deal_stats")
        else:
            self.conn.execute(
                "DELETE FROM deal_stats WHERE session_id IN (SELECT value FROM json_each(?))",
                [json.dumps(list(session_ids))],
            )
        marks = ", ".join("?" * len(self._DEAL_STATS_COLS.split(",")))
        self.conn.executemany(
            f"INSERT INTO deal_stats ({self._DEAL_STATS_COLS}) VALUES ({marks})", rows
        )

    def rating_deals(self, after: int, upto: int) -> Iterator[tuple[Any, ...]]:
        """(entry_id, player_id, wins, cards, finishing order JSON or None) of the current
        version of every deal recorded in (after, upto], in the order they were recorded."""
        return self.conn.execute(
            f"""SELECT e.id, q.player_id, q.wins, q.cards,
                       CASE WHEN instr(e.facts, '"order"') THEN json_extract(e.facts, '$.order') END
                FROM entries e JOIN points q ON q.entry_id = e.id
                WHERE e.id > :after AND {self._LIVE_UPTO}
                ORDER BY e.id""",
            {"after": after, "upto": upto},
        )

    def ratings(self) -> list[tuple[int, float, float, int]]:
        """(player_id, mu, sigma, deals) of the cached skill ratings."""
        return self.conn.execute("SELECT player_id, mu, sigma, deals FROM ratings").fetchall()

    def save_ratings(self, rows: Iterable[Sequence[Any]]) -> None:
        """Replace every cached rating (inside :meth:`writing`)."""
        self.conn.execute("DELETE FROM ratings")
        self.conn.executemany(
            "INSERT INTO ratings (player_id, mu, sigma, deals) VALUES (?, ?, ?, ?)", rows
        )

    def _scoped(self, column: str, session_ids: Sequence[int] | None) -> tuple[str, list[str]]:
        if session_ids is None:
            return "", []
        return f"AND {column} IN (SELECT value FROM json_each(?))", [json.dumps(list(session_ids))]

    def pair_differences(self, session_ids: Sequence[int] | None) -> list[tuple[Any, ...]]:
        """Pairwise non-team sessions: (currency, stake, a, b, a's penalty totals minus b's),
        summed per currency and stake."""
        scope, params = self._scoped("s.id", session_ids)
        rows = self.conn.execute(
            f"""WITH k AS MATERIALIZED (
                    SELECT id, currency, stake FROM sessions s WHERE s.teams = 0
                    AND COALESCE(json_extract(s.rules, '$.settlement'), 'pairwise') = 'pairwise'
                    {scope})
                SELECT k.currency, k.stake, a.player_id, b.player_id, SUM(a.penalty - b.penalty)
                FROM k JOIN session_totals a ON a.session_id = k.id
                JOIN session_totals b ON b.session_id = k.id AND b.player_id > a.player_id
                GROUP BY k.currency, k.stake, a.player_id, b.player_id""",
            params,
        ).fetchall()
        names = dict(self.conn.execute("SELECT id, name FROM players").fetchall())
        return [(c, s, names[a], names[b], d) for c, s, a, b, d in rows]

    def winner_flows(self, session_ids: Sequence[int] | None) -> list[tuple[Any, ...]]:
        """Pay-the-winner non-team sessions: (currency, stake, player, winner, net),
        summed per currency and stake."""
        scope, params = self._scoped("f.session_id", session_ids)
        return self.conn.execute(
            f"""SELECT s.currency, s.stake, p.name, y.name, SUM(f.net) FROM session_flows f
                JOIN sessions s ON s.id = f.session_id
                JOIN players p ON p.id = f.player_id JOIN players y ON y.id = f.payee_id
                WHERE s.teams = 0 {scope}
                GROUP BY s.currency, s.stake, f.player_id, f.payee_id""",
            params,
        ).fetchall()

    def deal_nets(self, session_id: int, bucket: int) -> list[tuple[int, str, int]]:
        """(last deal number, player, net) of a session's live deals, ``bucket`` deals at a time."""
        return self.conn.execute(
            f"""SELECT MAX(e.deal_no), p.name, SUM(q.net)
                FROM entries e JOIN points q ON q.entry_id = e.id
                JOIN players p ON p.id = q.player_id
                WHERE e.session_id = :sid AND {self._LIVE_UPTO}
                GROUP BY (e.deal_no - 1) / :bucket, q.player_id ORDER BY 1""",
            {"sid": session_id, "bucket": bucket, "upto": self.last_entry_id()},
        ).fetchall()

    # -- self-check --
    # Raw reads for `bigtwo doctor` (ledger/book/doctor.py).  Stored text (rules, facts)
    # comes back as it is, so a damaged row becomes a finding, not an exception.

    def integrity(self, full: bool = False) -> list[str]:
        """SQLite's own check of the file: ``["ok"]`` when every page and index is sound."""
        pragma = "integrity_check" if full else "quick_check"
        return [str(r[0]) for r in self.conn.execute(f"PRAGMA {pragma}")]

    def counts(self) -> dict[str, int]:
        """Rows per table of the ledger (sessions, players, seats, entries, points, audit)."""
        tables = ("sessions", "players", "seats", "entries", "points", "audit")
        row = self.conn.execute(
            "SELECT " + ", ".join(f"(SELECT COUNT(*) FROM {t})" for t in tables)
        ).fetchone()
        return dict(zip(tables, row, strict=True))

    def missing_guards(self) -> list[str]:
        """The append-only triggers (made by m001) that are no longer in the file."""
        have = {r[0] for r in self.conn.execute("SELECT name FROM sqlite_master WHERE type = 'trigger'")}
        wanted = [f"{t}_no_{op}" for t in ("entries", "points", "audit") for op in ("update", "delete")]
        return [name for name in wanted if name not in have]

    def orphans(self) -> list[tuple[str, str]]:
        """Rows that belong to nothing: (which row, what it points to that is missing)."""
        queries = (
            """SELECT 'points row ' || q.id, 'its entry ' || q.entry_id || ' does not exist'
               FROM points q LEFT JOIN entries e ON e.id = q.entry_id WHERE e.id IS NULL""",
            """SELECT 'points row ' || q.id, 'it is filed under session ' || q.session_id
                      || ' but its entry ' || e.id || ' is in session ' || e.session_id
               FROM points q JOIN entries e ON e.id = q.entry_id
               WHERE q.session_id != e.session_id""",
            """SELECT 'points row ' || q.id, 'its player ' || q.player_id || ' does not exist'
               FROM points q LEFT JOIN players p ON p.id = q.player_id WHERE p.id IS NULL""",
            """SELECT 'entry ' || e.id, 'its session ' || e.session_id || ' does not exist'
               FROM entries e LEFT JOIN sessions s ON s.id = e.session_id WHERE s.id IS NULL""",
            """SELECT 'seat ' || t.seat || ' of session ' || t.session_id,
                      'its session does not exist'
               FROM seats t LEFT JOIN sessions s ON s.id = t.session_id WHERE s.id IS NULL""",
            """SELECT 'seat ' || t.seat || ' of session ' || t.session_id,
                      'its player ' || t.player_id || ' does not exist'
               FROM seats t LEFT JOIN players p ON p.id = t.player_id WHERE p.id IS NULL""",
        )
        found = [(r[0], r[1]) for sql in queries for r in self.conn.execute(sql)]
        found += [
            (f"{r[0]} row {r[1]}", f"its reference to {r[2]} points nowhere")
            for r in self.conn.execute("PRAGMA foreign_key_check")
            if r[0] not in ("points", "entries", "seats")  # named more precisely above
        ]
        return found

    def raw_sessions(self) -> list[tuple[int, str, bool, tuple[str, ...]]]:
        """(id, stored rules JSON, teams, seated players in seat order) of every session."""
        seats: dict[int, list[str]] = {}
        for sid, name in self.conn.execute(
            """SELECT t.session_id, COALESCE(p.name, '#' || t.player_id) FROM seats t
               LEFT JOIN players p ON p.id = t.player_id ORDER BY t.session_id, t.seat"""
        ):
            seats.setdefault(sid, []).append(name)
        return [
            (r[0], r[1], bool(r[2]), tuple(seats.get(r[0], ())))
            for r in self.conn.execute("SELECT id, rules, teams FROM sessions ORDER BY id")
        ]

    def raw_entries(self, session_id: int) -> list[tuple[int, int, str, int, str | None]]:
        """(id, seq, kind, deal number, stored facts JSON) of a session's entries, by seq."""
        return self.conn.execute(
            "SELECT id, seq, kind, deal_no, facts FROM entries WHERE session_id = ? ORDER BY seq",
            [session_id],
        ).fetchall()

    def raw_points(self, session_id: int) -> list[tuple[int, PointsRow]]:
        """(entry id, points) of every points row filed under a session."""
        rows = self.conn.execute(
            """SELECT q.entry_id, COALESCE(p.name, '#' || q.player_id), q.deals, q.wins,
                      q.fried, q.cards, q.penalty, q.net, y.name
               FROM points q LEFT JOIN players p ON p.id = q.player_id
               LEFT JOIN players y ON y.id = q.payee_id
               WHERE q.session_id = ? ORDER BY q.id""",
            [session_id],
        ).fetchall()
        return [(r[0], PointsRow(*r[1:])) for r in rows]

    def cached_totals(self) -> tuple[list[tuple[Any, ...]], list[tuple[Any, ...]]] | None:
        """What the session_totals / session_flows caches hold, if this schema keeps them:
        (session_id, player, deals, wins, fried, cards, penalty, net) and
        (session_id, player, payee, net); the doctor compares them with ``points``."""
        have = {r[0] for r in self.conn.execute(
            "SELECT name FROM sqlite_master WHERE name IN ('session_totals', 'session_flows')")}
        if have != {"session_totals", "session_flows"}:
            return None
        totals = self.conn.execute(
            """SELECT t.session_id, COALESCE(p.name, '#' || t.player_id), t.deals, t.wins,
                      t.fried, t.cards, t.penalty, t.net
               FROM session_totals t LEFT JOIN players p ON p.id = t.player_id"""
        ).fetchall()
        flows = self.conn.execute(
            """SELECT f.session_id, COALESCE(p.name, '#' || f.player_id),
                      COALESCE(y.name, '#' || f.payee_id), f.net
               FROM session_flows f LEFT JOIN players p ON p.id = f.player_id
               LEFT JOIN players y ON y.id = f.payee_id"""
        ).fetchall()
        return totals, flows

    # -- import --

    @contextmanager
    def bulk(self, cache_mib: int = 64) -> Iterator[Ledger]:
        """Settings for a long import on this connection: a page cache big enough that
        a transaction's inserts need not spill to disk before it commits, and fewer WAL
        checkpoints.  Durability is unchanged (``synchronous = FULL``)."""
        conn = self.conn
        cache = conn.execute("PRAGMA cache_size").fetchone()[0]
        checkpoint = conn.execute("PRAGMA wal_autocheckpoint").fetchone()[0]
        temp = conn.execute("PRAGMA temp_store").fetchone()[0]
        conn.execute(f"PRAGMA cache_size = {-1024 * cache_mib}")
        conn.execute("PRAGMA wal_autocheckpoint = 10000")
        # Savepoints and statements that fire triggers keep a sub-journal: in a file,
        # that is a write per changed page, millions over a long import.
        conn.execute("PRAGMA temp_store = MEMORY")
        try:
            yield self
        finally:
            conn.execute(f"PRAGMA cache_size = {cache}")
            conn.execute(f"PRAGMA wal_autocheckpoint = {checkpoint}")
            conn.execute(f"PRAGMA temp_store = {temp}")

    def session_id_by_uuid(self, session_uuid: str) -> int | None:
        row = self.conn.execute("SELECT id FROM sessions WHERE uuid = ?", [session_uuid]).fetchone()
        return None if row is None else row[0]

    def entry_texts(self, uuids: Sequence[str]) -> dict[str, tuple[int, str, int, str | None]]:
        """(session_id, kind, deal_no, facts as stored JSON) of the entries among ``uuids``
        already in the ledger: what an import compares, without decoding every entry."""
        out: dict[str, tuple[int, str, int, str | None]] = {}
        for start in range(0, len(uuids), 500):
            chunk = list(uuids[start:start + 500])
            rows = self.conn.execute(
                "SELECT uuid, session_id, kind, deal_no, facts FROM entries "
                f"WHERE uuid IN ({','.join('?' * len(chunk))})",
                chunk,
            )
            out.update((r[0], r[1:]) for r in rows)
        return out

    def deal_numbers(self, session_id: int) -> set[int]:
        """Every deal number a session's entries refer to (voided ones included)."""
        rows = self.conn.execute(
            "SELECT DISTINCT deal_no FROM entries WHERE session_id = ?", [session_id]
        )
        return {r[0] for r in rows}

    def import_entries(self, session_id: int, entries: Sequence[ImportedEntry]) -> None:
        """Append many entries and their points at once (inside :meth:`writing`).

        The bulk path of ``bigtwo import``: entries get the next ids and seqs in order,
        and no audit row each (the importer writes one per session, :meth:`note_import`).
        Rows go in as multi-row ``INSERT ... VALUES`` statements: one statement per few
        hundred rows instead of one per row, which is what costs with triggers on
        ``points`` (each statement that fires one keeps its own journal).
        """
        if not entries:
            return
        conn = self.conn
        first_id = conn.execute("SELECT COALESCE(MAX(id), 0) + 1 FROM entries").fetchone()[0]
        first_seq = conn.execute(
            "SELECT COALESCE(MAX(seq), 0) + 1 FROM entries WHERE session_id = ?", [session_id]
        ).fetchone()[0]
        stamp = now()
        values: list[Any] = []
        for i, e in enumerate(entries):
            facts = e.facts
            if facts is not None and not isinstance(facts, str):
                facts = json.dumps(facts, sort_keys=True, ensure_ascii=False)
            values += (first_id + i, e.uuid, session_id, first_seq + i, e.kind, e.deal_no, facts,
                       e.created_at or stamp)
        _insert_rows(conn, "entries (id, uuid, session_id, seq, kind, deal_no, facts, created_at)",
                     8, values)
        ids = self._player_ids
        values = []
        for i, e in enumerate(entries):
            for player, deals, wins, fried, cards, penalty, net, payee in e.points:
                pid = ids.get(player) or self.player_id(player)
                payee_id = None if payee is None else ids.get(payee) or self.player_id(payee)
                values += (first_id + i, session_id, pid, deals, wins, fried, cards, penalty, net,
                           payee_id)
        _insert_rows(conn, "points (entry_id, session_id, player_id, deals, wins, fried, cards, "
                     "penalty, net, payee_id)", 10, values)

    def note_import(self, session_id: int, detail: dict[str, Any]) -> None:
        """The one audit row of a session's import (inside :meth:`writing`)."""
        self._audit("session.import", detail, session_id=session_id)


def _insert_rows(conn: sqlite3.Connection, into: str, width: int, values: list[Any],
                 rows_per_statement: int = 500) -> None:
    """INSERT flat ``values`` (``width`` a row) as multi-row VALUES statements."""
    one = "(" + ", ".join("?" * width) + ")"
    step = rows_per_statement * width
    for start in range(0, len(values), step):
        part = values[start:start + step]
        conn.execute(f"INSERT INTO {into} VALUES " + ", ".join([one] * (len(part) // width)), part)


# --- opening --------------------------------------------------------------------


def _store_error(exc: sqlite3.Error, path: str) -> StoreError:
    text = str(exc)
    if "locked" in text or "busy" in text:
        return StoreError(f"the ledger {path} is busy (another program holds it); try again")
    if "readonly" in text or "read-only" in text:
        return StoreError(f"cannot write to the ledger {path}: the file or its folder is read-only")
    if "disk is full" in text or "database or disk is full" in text:
        return StoreError(f"cannot write to the ledger {path}: the disk is full; nothing was saved")
    if "not a database" in text:
        return StoreError(f"{path} is not a bigtwo ledger (not an SQLite database)")
    if "disk I/O" in text:
        return StoreError(f"cannot write to the ledger {path}: disk I/O error; nothing was saved")
    if "unable to open" in text:
        return StoreError(
            f"cannot open the ledger {path}: permission denied, or its folder is read-only"
        )
    if "malformed" in text:
        return StoreError(f"the ledger {path} is damaged ({text}); see: bigtwo doctor, "
                          "and bigtwo restore FILE to go back to a backup")
    return StoreError(f"ledger {path}: {text}")


def open_ledger(path: str | os.PathLike[str], *, create_folder: bool = False) -> Ledger:
    """Open (creating and migrating if new) the ledger at ``path``."""
    path = os.fspath(path)
    folder = Path(path).parent
    if create_folder:
        folder.mkdir(parents=True, exist_ok=True)
    elif not folder.is_dir():
        raise StoreError(f"cannot open the ledger {path}: the folder {folder} does not exist")
    if Path(path).is_dir():
        raise StoreError(f"cannot open the ledger {path}: it is a folder, not a file")
    try:
        conn = sqlite3.connect(path, timeout=BUSY_TIMEOUT_MS / 1000, isolation_level=None)
    except sqlite3.Error as exc:
        raise _store_error(exc, path) from None
    try:
        conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        conn.execute("PRAGMA foreign_keys = ON")
        if conn.execute("PRAGMA application_id").fetchone()[0] != APPLICATION_ID:
            # Before WAL mode is set: it is kept in the file header, so another
            # program's database must be refused while it is still untouched.
            _refuse_foreign(conn, path)
        mode = conn.execute("PRAGMA journal_mode = WAL").fetchone()[0]
        if mode.lower() != "wal" and path != ":memory:":
            raise StoreError(f"cannot open the ledger {path} in WAL mode (got {mode})")
        conn.execute("PRAGMA synchronous = FULL")
        ledger = Ledger(conn, path)
        app_id = conn.execute("PRAGMA application_id").fetchone()[0]
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        if (app_id, version) != (APPLICATION_ID, SCHEMA_VERSION):
            _check_and_migrate(ledger.db, path)
    except sqlite3.Error as exc:
        conn.close()
        raise _store_error(exc, path) from None
    except BaseException:
        conn.close()
        raise
    return ledger


def _refuse_foreign(conn: sqlite3.Connection, path: str) -> None:
    """Refuse an SQLite file that has tables but no bigtwo migrations (reads only)."""
    tables = sorted(r[0] for r in conn.execute(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"))
    if not tables:
        return
    if "_sqlite_migrations" not in tables:
        raise StoreError(
            f"{path} is an SQLite database of another program (tables: "
            f"{', '.join(tables[:5])}); give a new file for the ledger"
        )
    try:
        ours = conn.execute(
            "SELECT 1 FROM _sqlite_migrations WHERE migration_set = 'bigtwo' LIMIT 1"
        ).fetchone()
    except sqlite3.OperationalError:
        ours = None
    if ours is None:
        raise StoreError(f"{path} is an SQLite database of another program; give a new file")


def _check_and_migrate(db: Database, path: str) -> None:
    migrations = _migrations()
    tables = set(db.table_names())
    known = {m.name for m in migrations._migrations}
    if tables and "_sqlite_migrations" not in tables:
        raise StoreError(
            f"{path} is an SQLite database of another program (tables: "
            f"{', '.join(sorted(tables)[:5])}); give a new file for the ledger"
        )
    if tables:
        applied = {m.name for m in migrations.applied(db)}
        if not applied:
            raise StoreError(f"{path} is an SQLite database of another program; give a new file")
        newer = applied - known
        if newer:
            raise StoreError(
                f"{path} was written by a newer version of {APP} (schema {sorted(newer)[-1]}); "
                "upgrade bigtwo-ledger to open it"
            )
    if len(known) != SCHEMA_VERSION:
        raise AssertionError("SCHEMA_VERSION must equal the number of migrations")
    if migrations.pending(db) or db.conn.execute("PRAGMA user_version").fetchone()[0] != SCHEMA_VERSION:
        try:
            db.conn.execute("BEGIN IMMEDIATE")
            migrations.apply(db)
            db.conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
            db.conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
            db.conn.execute("COMMIT")
        except BaseException:
            if db.conn.in_transaction:
                db.conn.execute("ROLLBACK")
            raise


# --- backup and restore ---------------------------------------------------------------
# Both go through SQLite's online backup API: it copies one consistent snapshot even
# while another terminal is writing, where a file copy could catch a transaction
# half-way into the WAL.  See docs/reliability.md.


@dataclass(frozen=True)
class Restored:
    sessions: int
    entries: int
    previous: Path | None  # where the ledger that was replaced was saved first


def backup_ledger(ledger: Ledger, dest: str | os.PathLike[str], *, overwrite: bool = False) -> Path:
    """Write a consistent copy of the open ledger to ``dest``.

    The copy is written to a temporary file beside ``dest``, checked by SQLite and
    renamed into place, so a crash or a full disk never leaves a half-written
    backup (or destroys an older one) under that name.  The backup is one
    self-contained file (rollback journal mode, no ``-wal`` beside it).
    """
    target = Path(dest)
    if _same_file(target, Path(ledger.path)):
        raise StoreError(f"{target} is the ledger itself; give another file for the backup")
    if target.is_dir():
        raise StoreError(f"{target} is a folder; give a file name for the backup")
    if not target.parent.is_dir():
        raise StoreError(f"cannot write the backup {target}: the folder {target.parent} "
                         "does not exist")
    if target.exists() and not overwrite:
        raise StoreError(f"{target} already exists; give a new file name (or --force to replace it)")
    _snapshot(ledger.conn, target, "backup")
    return target


def restore_ledger(
    path: str | os.PathLike[str],
    source: str | os.PathLike[str],
    *,
    check: Callable[[Ledger], Sequence[str]],
    create_folder: bool = False,
) -> Restored:
    """Replace the ledger at ``path`` with the backup ``source``, never losing either.

    1. ``source`` is read (read-only: the backup itself is never changed) into a
       staging file beside the ledger, opened there as a ledger (which refuses a
       file that is not SQLite, another program's database or a newer schema, and
       migrates an older one) and self-checked with ``check``: any problem refuses
       the restore.
    2. The current ledger, if there is one, is locked (other terminals wait) and
       saved first to a timestamped sibling, ``NAME.before-restore-<UTC time>.db``.
    3. The checked copy is written into the ledger under that same lock, so no deal
       recorded elsewhere can fall between the saved copy and the restored one.
    """
    path = os.fspath(path)
    src = Path(source)
    if not src.is_file():
        raise StoreError(f"no backup file {src}")
    if _same_file(src, Path(path)):
        raise StoreError(f"{src} is the ledger itself; give a backup file to restore from")
    folder = Path(path).parent
    if create_folder:
        folder.mkdir(parents=True, exist_ok=True)
    elif not folder.is_dir():
        raise StoreError(f"cannot restore into {path}: the folder {folder} does not exist")
    staged = folder / f".{Path(path).name}.restore-{new_uuid()[:8]}.tmp"
    try:
        _stage(src, staged)
        try:
            checked = open_ledger(staged)
        except StoreError as exc:
            raise StoreError(str(exc).replace(str(staged), str(src))) from None
        with checked:
            found = check(checked)
            if found:
                raise StoreError(
                    f"{src} fails the self-check, so nothing was restored "
                    f"({len(found)} problem{'s' if len(found) != 1 else ''}; the first: {found[0]})"
                )
            counts = checked.counts()
            previous = _replace(checked.conn, path, create_folder)
    finally:
        for suffix in ("", "-wal", "-shm", "-journal"):
            Path(f"{staged}{suffix}").unlink(missing_ok=True)
    return Restored(counts["sessions"], counts["entries"], previous)


def _stage(src: Path, staged: Path) -> None:
    try:
        reader = sqlite3.connect(f"{src.resolve().as_uri()}?mode=ro", uri=True)
    except sqlite3.Error as exc:
        raise _store_error(exc, str(src)) from None
    try:
        writer = sqlite3.connect(staged)
        try:
            reader.backup(writer)
        finally:
            writer.close()
    except sqlite3.Error as exc:
        raise _store_error(exc, str(src)) from None
    finally:
        reader.close()


def _replace(checked: sqlite3.Connection, path: str, create_folder: bool) -> Path | None:
    """Write ``checked`` into the ledger at ``path``, saving the current one first."""
    existed = Path(path).exists()
    try:
        current = open_ledger(path, create_folder=create_folder)
    except StoreError as exc:
        raise StoreError(f"{exc}; move that file away, then restore") from None
    with current:
        conn = current.conn
        previous = None
        try:
            # EXCLUSIVE locking mode keeps the write lock from here to the end:
            # other terminals wait (busy timeout) instead of writing in between.
            conn.execute("PRAGMA locking_mode = EXCLUSIVE")
            conn.execute("BEGIN IMMEDIATE")
            conn.execute("COMMIT")
            if existed:
                previous = _sibling(Path(path), "before-restore")
                _snapshot(conn, previous, "copy of the current ledger")
            checked.backup(conn)
        except sqlite3.Error as exc:
            raise _store_error(exc, path) from None
        finally:
            conn.execute("PRAGMA locking_mode = NORMAL")
            conn.execute("SELECT 1 FROM sqlite_master LIMIT 1").fetchall()  # lets the lock go
    return previous


def _snapshot(source: sqlite3.Connection, target: Path, what: str) -> None:
    """A consistent, checked copy of ``source`` at ``target`` (temporary file + rename)."""
    tmp = target.with_name(f".{target.name}.{new_uuid()[:8]}.tmp")
    try:
        out = sqlite3.connect(tmp, isolation_level=None)
        try:
            source.backup(out)
            out.execute("PRAGMA journal_mode = DELETE")
            verdict = out.execute("PRAGMA quick_check").fetchone()[0]
        finally:
            out.close()
        if verdict != "ok":
            raise StoreError(f"the {what} {target} failed SQLite's check ({verdict}); not written")
        os.replace(tmp, target)
        _fsync_folder(target.parent)
    except sqlite3.Error as exc:
        raise StoreError(f"cannot write the {what} {target}: {_reason(exc)}") from None
    except OSError as exc:
        raise StoreError(f"cannot write the {what} {target}: {exc.strerror or exc}") from None
    finally:
        for leftover in (tmp, Path(f"{tmp}-journal")):
            leftover.unlink(missing_ok=True)


def _sibling(path: Path, label: str) -> Path:
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
    suffix = path.suffix or ".db"
    candidate = path.with_name(f"{path.stem}.{label}-{stamp}{suffix}")
    n = 1
    while candidate.exists():
        n += 1
        candidate = path.with_name(f"{path.stem}.{label}-{stamp}-{n}{suffix}")
    return candidate


def _same_file(a: Path, b: Path) -> bool:
    try:
        return a.exists() and b.exists() and a.samefile(b)
    except OSError:
        return False


def _fsync_folder(folder: Path) -> None:
    """Make a rename durable (POSIX); a no-op where folders cannot be opened."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _reason(exc: sqlite3.Error) -> str:
    text = str(exc)
    for needle, reason in (
        ("full", "the disk is full"),
        ("readonly", "the file or its folder is read-only"),
        ("unable to open", "the file cannot be created there (is the folder writable?)"),
        ("disk I/O", "disk I/O error"),
    ):
        if needle in text:
            return reason
    return text
