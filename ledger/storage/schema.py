"""Schema and migrations of the ledger file.

``PRAGMA user_version`` holds the number of migrations applied, so opening an
up-to-date ledger costs one pragma and no sqlite-utils import; the migrations
themselves (sqlite-utils) run only on a new or older file.
"""

from __future__ import annotations

import contextlib
import sqlite3
import sys
from typing import TYPE_CHECKING, Any

from ledger.core.errors import StoreError

if TYPE_CHECKING:
    from sqlite_utils import Database
    from sqlite_utils.migrations import Migrations

APP = "bigtwo-ledger"
POINT_COLUMNS = ("deals", "wins", "fried", "cards", "penalty", "net")

# Adding a migration below?  Bump this too (a test checks they agree).
SCHEMA_VERSION = 12
APPLICATION_ID = 0x42324C47  # "B2LG": marks the file as a bigtwo ledger


def sqlite_utils_module() -> Any:
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


def migrations() -> Migrations:
    from sqlite_utils.migrations import Migrations

    migrations = Migrations("bigtwo")

    @migrations(name="m001_initial")
    def m001_initial(db: Database) -> None:
        db.table("players").create(
            {"id": int, "name": str, "created_at": str}, pk="id", not_null={"name", "created_at"}
        )
        db.table("players").create_index(["name"], unique=True)
        db.table("sessions").create(
            {
                "id": int, "uuid": str, "name": str, "rules_name": str, "rules": str,
                "stake": str, "currency": str, "teams": int, "started_at": str, "ended_at": str,
            },
            pk="id",
            not_null={"uuid", "name", "rules_name", "rules", "stake", "teams", "started_at"},
        )
        db.table("sessions").create_index(["uuid"], unique=True)
        db.table("seats").create(
            {"session_id": int, "seat": int, "player_id": int},
            pk=("session_id", "seat"),
            foreign_keys=[("session_id", "sessions", "id"), ("player_id", "players", "id")],
            not_null={"player_id"},
        )
        db.table("seats").create_index(["session_id", "player_id"], unique=True)
        db.table("seats").create_index(["player_id"])
        db.table("entries").create(
            {
                "id": int, "uuid": str, "session_id": int, "seq": int, "kind": str,
                "deal_no": int, "facts": str, "created_at": str,
            },
            pk="id",
            foreign_keys=[("session_id", "sessions", "id")],
            not_null={"uuid", "session_id", "seq", "kind", "deal_no", "created_at"},
        )
        db.table("entries").create_index(["uuid"], unique=True)
        db.table("entries").create_index(["session_id", "seq"], unique=True)
        db.table("entries").create_index(["session_id", "deal_no", "id"])
        db.table("points").create(
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
        db.table("points").create_index(
            ["session_id", "player_id", "deals", "wins", "fried", "penalty", "net"]
        )
        db.table("points").create_index(["entry_id"])
        db.table("points").create_index(["player_id"])
        db.table("points").create_index(["payee_id"])
        db.table("audit").create(
            {"id": int, "at": str, "action": str, "session_id": int, "entry_id": int,
             "detail": str},
            pk="id",
            not_null={"at", "action", "detail"},
        )
        db.table("settings").create({"key": str, "value": str}, pk="key", not_null={"value"})
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

    @migrations(name="m004_player_events")
    def m004_player_events(db: Database) -> None:
        """Renames and merges of players, append-only (ledger/storage/players.py).

        The journal's facts keep every name as it was typed; a rename or merge is an
        event here, and ``player_names`` resolves each player id to the id it counts
        as (merges followed, undone events left out) and the name shown for it.
        An undo is a reversal event (kind ``undo``, ``undoes`` the event it takes back).
        """
        db.execute(
            """CREATE TABLE player_events (
                id INTEGER PRIMARY KEY, uuid TEXT NOT NULL UNIQUE, at TEXT NOT NULL,
                kind TEXT NOT NULL CHECK (kind IN ('rename', 'merge', 'undo')),
                player_id INTEGER NOT NULL REFERENCES players(id),
                into_id INTEGER REFERENCES players(id),
                name TEXT,
                undoes INTEGER UNIQUE REFERENCES player_events(id),
                CHECK ((kind = 'rename') = (name IS NOT NULL)),
                CHECK ((kind = 'merge') = (into_id IS NOT NULL)),
                CHECK ((kind = 'undo') = (undoes IS NOT NULL))) STRICT"""
        )
        for op in ("UPDATE", "DELETE"):
            db.execute(
                f"CREATE TRIGGER player_events_no_{op.lower()} BEFORE {op} ON player_events "
                "BEGIN SELECT RAISE(ABORT, 'player_events are append-only'); END"
            )
        db.execute(
            """CREATE VIEW player_names (id, name, canon_id, own_name, typed_name) AS
               WITH RECURSIVE live AS (
                   SELECT e.id, e.kind, e.player_id, e.into_id, e.name FROM player_events e
                   WHERE e.kind != 'undo' AND NOT EXISTS (
                       SELECT 1 FROM player_events u WHERE u.undoes = e.id)),
               own AS (
                   SELECT p.id, p.name AS typed_name, COALESCE((
                       SELECT l.name FROM live l WHERE l.kind = 'rename' AND l.player_id = p.id
                       ORDER BY l.id DESC LIMIT 1), p.name) AS name
                   FROM players p),
               chain (id, canon, depth) AS (
                   SELECT id, id, 0 FROM players
                   UNION ALL
                   SELECT c.id, l.into_id, c.depth + 1 FROM chain c
                   JOIN live l ON l.kind = 'merge' AND l.player_id = c.canon
                   WHERE c.depth < 64),
               canon AS (SELECT id, canon, MAX(depth) FROM chain GROUP BY id)
               SELECT o.id, t.name, c.canon, o.name, o.typed_name
               FROM own o JOIN canon c ON c.id = o.id JOIN own t ON t.id = c.canon"""
        )

    @migrations(name="m005_every_action_an_entry")
    def m005_every_action_an_entry(db: Database) -> None:
        """Every user action an append-only entry (ledger/storage/upgrade.py, history.py).

        ``entries`` is rebuilt (SQLite's twelve steps, foreign keys off: see
        :func:`check_and_migrate`) to take the session's own actions: ``start``, ``end``,
        ``reopen`` and ``undo`` (the undo of a start), which have no deal number and no
        seq; and ``undoes``, the uuid of the entry an undo took back (until now a
        ``deal.undo`` row of the audit log).  ``sessions.ended_at`` goes: ended or open is
        the latest end or reopen entry.  The history of an older ledger becomes entries:
        each session its start, each ``session.end`` and ``session.reopen`` of the audit
        log an entry, the reopen marked as the undo of the end before it.
        """
        from ledger.storage.upgrade import migrate_history

        migrate_history(db.conn)

    @migrations(name="m006_seasons")
    def m006_seasons(db: Database) -> None:
        """Named seasons (``bigtwo season add``), append-only (ledger/storage/seasons.py).

        A season is a name and a range of dates; adding the name again gives it new dates
        from then on, and removing it is a row of kind ``remove``.  The latest row of a
        name (by ``created_at``, then ``uuid``) says what it is now.
        """
        db.execute(
            """CREATE TABLE seasons (
                id INTEGER PRIMARY KEY, uuid TEXT NOT NULL UNIQUE, created_at TEXT NOT NULL,
                kind TEXT NOT NULL CHECK (kind IN ('add', 'remove')),
                name TEXT NOT NULL, key TEXT NOT NULL, since TEXT, until TEXT,
                CHECK (kind = 'remove' OR since IS NOT NULL OR until IS NOT NULL),
                CHECK (since IS NULL OR until IS NULL OR since <= until)) STRICT"""
        )
        db.execute("CREATE INDEX idx_seasons_key ON seasons (key, created_at, uuid)")
        for op in ("UPDATE", "DELETE"):
            db.execute(
                f"CREATE TRIGGER seasons_no_{op.lower()} BEFORE {op} ON seasons "
                "BEGIN SELECT RAISE(ABORT, 'seasons are append-only'); END"
            )

    @migrations(name="m007_payments")
    def m007_payments(db: Database) -> None:
        """Payments between players, append-only (ledger/storage/payments.py).

        A payment is for one session or (``session_id`` null) against the balance as a
        whole; an undo is a row of kind ``undo`` naming the payment's uuid.  The one
        order of rows is ``created_at``, then ``uuid``.
        """
        db.execute(
            """CREATE TABLE payments (
                id INTEGER PRIMARY KEY, uuid TEXT NOT NULL UNIQUE, created_at TEXT NOT NULL,
                kind TEXT NOT NULL CHECK (kind IN ('payment', 'undo')),
                payer_id INTEGER REFERENCES players(id),
                payee_id INTEGER REFERENCES players(id),
                amount TEXT, currency TEXT,
                session_id INTEGER REFERENCES sessions(id),
                note TEXT,
                undoes TEXT UNIQUE REFERENCES payments(uuid),
                CHECK ((kind = 'payment') = (payer_id IS NOT NULL AND payee_id IS NOT NULL
                                             AND amount IS NOT NULL AND currency IS NOT NULL)),
                CHECK (payer_id IS NULL OR payer_id != payee_id),
                CHECK ((kind = 'undo') = (undoes IS NOT NULL))) STRICT"""
        )
        db.execute("CREATE INDEX idx_payments_order ON payments (created_at, uuid)")
        db.execute("CREATE INDEX idx_payments_session ON payments (session_id)")
        for op in ("UPDATE", "DELETE"):
            db.execute(
                f"CREATE TRIGGER payments_no_{op.lower()} BEFORE {op} ON payments "
                "BEGIN SELECT RAISE(ABORT, 'payments are append-only'); END"
            )

    @migrations(name="m008_indexes_looked_up")
    def m008_indexes_looked_up(db: Database) -> None:
        """Only the indexes some lookup uses (docs/performance.md).

        ``points`` is read by its entry (``JOIN points q ON q.entry_id = e.id``) and, by
        the doctor, by its session.  Its indexes of ``player_id`` and ``payee_id``
        served no query and no foreign key check (players are never deleted), while
        every points row wrote into both (a 200,000-deal sheet: 1.6 million keys,
        14 MB), and the one of ``player_id`` misled the planner: the points of one deal
        (the reversal an amend or void writes) were looked up through every points row
        of its players (0.5 s on a ledger of 200,000 deals, against 1 ms by its
        entries).  ``entries.undoes`` is almost always null (only an undo names an
        entry) and looked up by value (``undoes = ?``): its UNIQUE index (an entry is
        undone once at most) holds only the rows that have one."""
        db.execute("DROP INDEX idx_points_player_id")
        db.execute("DROP INDEX idx_points_payee_id")
        db.execute("DROP INDEX idx_entries_undoes")
        db.execute("CREATE UNIQUE INDEX idx_entries_undoes ON entries (undoes) "
                   "WHERE undoes IS NOT NULL")

    @migrations(name="m009_pay_ids")
    def m009_pay_ids(db: Database) -> None:
        """Each player's ways to be paid, append-only (ledger/storage/pay_ids.py)."""
        from ledger.storage.pay_ids import create_table

        create_table(db.conn)

    @migrations(name="m010_imports")
    def m010_imports(db: Database) -> None:
        """The key of each import sent to the hub (``POST /api/import``), append-only
        (ledger/storage/keyed.py): one key names one action, and an import is one.  A
        retry with the same key and text is answered again; the same key for another
        text, or for any other action, is refused.  ``digest`` is the SHA-256 of the
        file's name and text."""
        db.execute(
            """CREATE TABLE imports (
                id INTEGER PRIMARY KEY, uuid TEXT NOT NULL UNIQUE, at TEXT NOT NULL,
                digest TEXT NOT NULL, name TEXT NOT NULL) STRICT"""
        )
        for op in ("UPDATE", "DELETE"):
            db.execute(
                f"CREATE TRIGGER imports_no_{op.lower()} BEFORE {op} ON imports "
                "BEGIN SELECT RAISE(ABORT, 'imports are append-only'); END"
            )

    @migrations(name="m011_seat_entries")
    def m011_seat_entries(db: Database) -> None:
        """Seats that change during the evening (ledger/book/seats.py): a ``seat`` entry's
        facts say who joins, leaves, sits out, comes back, swaps, or the seat order
        (``{"action": "join", "player": "Eve"}``); its undo is a ``seat`` entry
        ``{"action": "undo"}`` naming it in ``undoes``.  The entries table is rebuilt (its
        CHECKs name the kinds) as m005 did (ledger/storage/upgrade.py)."""
        from ledger.storage.upgrade import allow_seat_entries

        allow_seat_entries(db.conn)

    @migrations(name="m012_sessions_by_start")
    def m012_sessions_by_start(db: Database) -> None:
        """The sessions in the order of their starts (then id: the rowid every index
        ends with), for the list of sessions by pages (``sessions`` op, ``bigtwo
        history``): a page is a walk down this index from its cursor, never a sort of
        every session."""
        db.execute("CREATE INDEX idx_sessions_started ON sessions (started_at)")

    return migrations


ENTRY_KINDS = ("deal", "amend", "void", "start", "end", "reopen", "undo", "seat")
DEAL_KINDS = ("deal", "amend", "void")


def refuse_foreign(conn: sqlite3.Connection, path: str) -> None:
    """Refuse an SQLite file that has tables but no bigtwo migrations (reads only)."""
    tables = sorted(r[0] for r in conn.execute(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"))
    if not tables:
        return
    if "_sqlite_migrations" not in tables:
        raise _foreign(path, tables)
    try:
        ours = conn.execute(
            "SELECT 1 FROM _sqlite_migrations WHERE migration_set = 'bigtwo' LIMIT 1"
        ).fetchone()
    except sqlite3.OperationalError:
        ours = None
    if ours is None:
        raise _foreign(path)


def _foreign(path: str, tables: list[str] | None = None) -> StoreError:
    from ledger.core.i18n import _

    if tables:
        return StoreError(_("{path} is an SQLite database of another program (tables: {tables}); "
                            "give a new file for the ledger").format(
                                path=path, tables=", ".join(tables[:5])))
    return StoreError(_("{path} is an SQLite database of another program; give a new file").format(
        path=path))


def _newer(path: str, schema: int, migration: str | None) -> StoreError:
    from ledger.core.i18n import _

    if migration is None:
        return StoreError(_("{path} was made by a newer bigtwo: schema {schema}, this program knows "
                            "{known}; upgrade bigtwo-ledger to open it (the file is left as it is)")
                          .format(path=path, schema=schema, known=SCHEMA_VERSION))
    return StoreError(_("{path} was made by a newer bigtwo: schema {schema}, this program knows "
                        "{known} (unknown migration {migration}); upgrade bigtwo-ledger to open it "
                        "(the file is left as it is)").format(
                            path=path, schema=schema, known=SCHEMA_VERSION, migration=migration))


def refuse_newer(conn: sqlite3.Connection, path: str) -> None:
    """Refuse a ledger written by a newer bigtwo before anything is written to it (not
    even the journal mode, which lives in the file header): it stays byte for byte."""
    version = conn.execute("PRAGMA user_version").fetchone()[0]
    if version == SCHEMA_VERSION:
        return
    names: list[str] = []
    # No migrations table: a new file, or another program's (refused elsewhere).
    with contextlib.suppress(sqlite3.DatabaseError):
        names = [r[0] for r in conn.execute(
            "SELECT name FROM _sqlite_migrations WHERE migration_set = 'bigtwo' ORDER BY name")]
    known = {m.name for m in migrations()._migrations} if names else set()
    newer = [n for n in names if n not in known]
    if version > SCHEMA_VERSION or newer:
        raise _newer(path, max(version, len(names)), newer[-1] if newer else None)


def check_and_migrate(db: Database, path: str) -> None:
    found = migrations()
    tables = set(db.table_names())
    known = {m.name for m in found._migrations}
    if tables and "_sqlite_migrations" not in tables:
        raise _foreign(path, sorted(tables))
    if tables:
        applied = {m.name for m in found.applied(db)}
        if not applied:
            raise _foreign(path)
        newer = applied - known
        if newer:  # refuse_newer has said so already, before anything was written
            raise _newer(path, len(applied), sorted(newer)[-1])

    if len(known) != SCHEMA_VERSION:
        raise AssertionError("SCHEMA_VERSION must equal the number of migrations")
    if found.pending(db) or db.conn.execute("PRAGMA user_version").fetchone()[0] != SCHEMA_VERSION:
        # Foreign keys off while tables are rebuilt (SQLite's documented procedure: the
        # pragma is a no-op inside a transaction, so it is set around it), checked
        # before the commit.
        db.conn.execute("PRAGMA foreign_keys = OFF")
        try:
            db.conn.execute("BEGIN IMMEDIATE")
            broken = len(db.conn.execute("PRAGMA foreign_key_check").fetchall())
            found.apply(db)
            if len(db.conn.execute("PRAGMA foreign_key_check").fetchall()) > broken:
                from ledger.core.i18n import _

                raise StoreError(_("{path} cannot be upgraded: the new schema would leave "
                                   "references that point nowhere; the file is left as it was")
                                 .format(path=path))
            db.conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
            db.conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
            db.conn.execute("COMMIT")
        except BaseException:
            if db.conn.in_transaction:
                db.conn.execute("ROLLBACK")
            raise
        finally:
            db.conn.execute("PRAGMA foreign_keys = ON")


def schema_item(kind: str, name: str) -> str:
    """``trigger entries_no_update``, said in the interface's language when shown."""
    from ledger.core.i18n import N_
    from ledger.core.phrase import Phrase

    words = {"table": N_("table"), "index": N_("index"), "trigger": N_("trigger"),
             "view": N_("view")}
    return Phrase(N_("{kind} {name}"), kind=Phrase(words[kind]) if kind in words else kind,
                  name=name)


