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
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ledger.errors import InputError, StoreError

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
SCHEMA_VERSION = 1
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

    return migrations


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

    def __exit__(self, *exc: object) -> None:
        self.close()

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

    def player_id(self, name: str, create: bool = False) -> int:
        if name in self._player_ids:
            return self._player_ids[name]
        row = self.conn.execute("SELECT id FROM players WHERE name = ?", [name]).fetchone()
        if row is None:
            if not create:
                raise InputError(f"no player named {name!r} in this ledger")
            pid = self.conn.execute(
                "INSERT INTO players (name, created_at) VALUES (?, ?)", [name, now()]
            ).lastrowid
            self._audit("player.add", {"name": name})
            row = (pid,)
        self._player_ids[name] = row[0]
        return row[0]

    def player_names(self) -> list[str]:
        return [r[0] for r in self.conn.execute("SELECT name FROM players ORDER BY name")]

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
        sql = f"""
            SELECT s.id, s.uuid, s.name, s.rules_name, s.rules, s.stake, s.currency, s.teams,
                   s.started_at, s.ended_at,
                   (SELECT group_concat(name, char(31)) FROM
                      (SELECT p.name FROM seats t JOIN players p ON p.id = t.player_id
                       WHERE t.session_id = s.id ORDER BY t.seat)) AS seat_names,
                   (SELECT COALESCE(SUM(deals), 0) FROM points q
                     WHERE q.session_id = s.id
                       AND q.player_id = (SELECT player_id FROM seats
                                          WHERE session_id = s.id AND seat = 1)) AS deals
            FROM sessions s {where} ORDER BY s.id
        """
        out = []
        for r in self.conn.execute(sql, params).fetchall():
            out.append(
                SessionRow(
                    id=r[0], uuid=r[1], name=r[2], rules_name=r[3], rules=json.loads(r[4]),
                    stake=r[5], currency=r[6], teams=bool(r[7]), started_at=r[8],
                    ended_at=r[9], seats=tuple((r[10] or "").split("\x1f")), deals=r[11],
                )
            )
        return out

    def sessions(self) -> list[SessionRow]:
        return self._session_rows("", [])

    def session(self, session_id: int) -> SessionRow:
        rows = self._session_rows("WHERE s.id = ?", [session_id])
        if not rows:
            raise InputError(f"no session {session_id} in this ledger; see: bigtwo session list")
        return rows[0]

    def session_by_uuid(self, session_uuid: str) -> SessionRow | None:
        rows = self._session_rows("WHERE s.uuid = ?", [session_uuid])
        return rows[0] if rows else None

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

    def entry_by_uuid(self, entry_uuid: str) -> EntryRow | None:
        r = self.conn.execute(
            f"SELECT {self._ENTRY_COLS} FROM entries WHERE uuid = ?", [entry_uuid]
        ).fetchone()
        return None if r is None else self._entry(r)

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

    def entry_points(self, entry_id: int) -> list[PointsRow]:
        rows = self.conn.execute(
            """SELECT p.name, q.deals, q.wins, q.fried, q.cards, q.penalty, q.net, y.name
               FROM points q JOIN players p ON p.id = q.player_id
               LEFT JOIN players y ON y.id = q.payee_id
               WHERE q.entry_id = ?""",
            [entry_id],
        ).fetchall()
        return [PointsRow(*r) for r in rows]

    # -- aggregates --

    def totals(self, session_ids: Sequence[int] | None = None) -> list[tuple[Any, ...]]:
        """(session_id, player, deals, wins, fried, penalty, net) summed per session and player."""
        where, params = "", []
        if session_ids is not None:
            where = f"WHERE q.session_id IN ({','.join('?' * len(session_ids))})"
            params = list(session_ids)
        return self.conn.execute(
            f"""SELECT q.session_id, p.name, SUM(q.deals), SUM(q.wins), SUM(q.fried),
                       SUM(q.penalty), SUM(q.net)
                FROM points q JOIN players p ON p.id = q.player_id {where}
                GROUP BY q.session_id, q.player_id""",
            params,
        ).fetchall()

    def payee_flows(self, session_id: int) -> list[tuple[str, str, int]]:
        """Pay-the-winner flows: (player, winner, net of player with that winner)."""
        return self.conn.execute(
            """SELECT p.name, y.name, SUM(q.net) FROM points q
               JOIN players p ON p.id = q.player_id JOIN players y ON y.id = q.payee_id
               WHERE q.session_id = ? GROUP BY q.player_id, q.payee_id""",
            [session_id],
        ).fetchall()

    def audit_rows(self, session_id: int | None = None) -> list[tuple[Any, ...]]:
        where = "" if session_id is None else "WHERE session_id = ?"
        return self.conn.execute(
            f"SELECT id, at, action, session_id, entry_id, detail FROM audit {where} ORDER BY id",
            [] if session_id is None else [session_id],
        ).fetchall()


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
