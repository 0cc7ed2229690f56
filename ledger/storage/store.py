"""The open ledger file: a connection, its transactions, the audit log and player ids.

Everything else is a part bound to the connection, the way sqlite-utils binds
``db.table(...)``, built on first use:

- ``ledger.journal``: players, sessions and their append-only entries (journal.py);
- ``ledger.payments``: payments between players, append-only (payments.py);
- ``ledger.pay_ids``: each player's ways to be paid, append-only (pay_ids.py);
- ``ledger.keys``: which table holds a uuid (one key, one action; keyed.py);
- ``ledger.seasons``: named ranges of dates, append-only (seasons.py);
- ``ledger.totals``: standings and settlement sums (totals.py);
- ``ledger.derived``: caches for history and statistics (derived.py);
- ``ledger.inspection``: raw reads for `bigtwo doctor` and the audit log (inspection.py);
- ``ledger.bulk``: the bulk path of `bigtwo import` (bulk.py).

Schema and migrations live in schema.py, backup and restore in backup.py.  Every
user action is one write transaction, taken with ``BEGIN IMMEDIATE`` so two
terminals queue up (``busy_timeout``) instead of failing with "database is locked".
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ledger.core.errors import InputError, LedgerMoved, NotFound, StoreError
from ledger.core.i18n import N_
from ledger.core.text import name_key
from ledger.storage.codec import inserted_id, now, to_json
from ledger.storage.errors import store_error
from ledger.storage.schema import (
    APPLICATION_ID,
    SCHEMA_VERSION,
    check_and_migrate,
    refuse_foreign,
    refuse_newer,
    sqlite_utils_module,
)

if TYPE_CHECKING:
    from sqlite_utils import Database

    from ledger.storage.bulk import BulkImport
    from ledger.storage.derived import Derived
    from ledger.storage.inspection import Inspection
    from ledger.storage.journal import Journal
    from ledger.storage.keyed import Keys
    from ledger.storage.pay_ids import PayIds
    from ledger.storage.payments import Payments
    from ledger.storage.players import Players
    from ledger.storage.seasons import Seasons
    from ledger.storage.totals import Totals

BUSY_TIMEOUT_MS = 30_000


class Ledger:
    """An open ledger file.  Use :func:`open_ledger`."""

    def __init__(self, conn: sqlite3.Connection, path: str) -> None:
        self.conn = conn
        self.path = path
        self.player_cache: dict[str, int] = {}
        self._db: Database | None = None
        self.identity: tuple[int, int] | None = None  # (device, inode) of the file opened
        self.holder = N_("this command")  # who opened it, for LedgerMoved's message (N_)
        self.savepoints = 0  # savepoints taken (nested actions), each named by its count

    @property
    def db(self) -> Database:
        """The sqlite-utils view of the connection, built on first use.

        Recording a deal needs only a few plain statements on ``conn``;
        importing sqlite-utils is left to the paths that use it.
        """
        if self._db is None:
            self._db = sqlite_utils_module().Database(self.conn, strict=True, execute_plugins=False)
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
            raise store_error(exc, self.path) from None

    # -- parts, bound to this connection --

    @cached_property
    def journal(self) -> Journal:
        from ledger.storage.journal import Journal

        return Journal(self)

    @cached_property
    def players(self) -> Players:
        from ledger.storage.players import Players

        return Players(self)

    @cached_property
    def payments(self) -> Payments:
        from ledger.storage.payments import Payments

        return Payments(self)

    @cached_property
    def pay_ids(self) -> PayIds:
        from ledger.storage.pay_ids import PayIds

        return PayIds(self)

    @cached_property
    def keys(self) -> Keys:
        from ledger.storage.keyed import Keys

        return Keys(self)

    @cached_property
    def seasons(self) -> Seasons:
        from ledger.storage.seasons import Seasons

        return Seasons(self)

    @cached_property
    def totals(self) -> Totals:
        from ledger.storage.totals import Totals

        return Totals(self)

    @cached_property
    def derived(self) -> Derived:
        from ledger.storage.derived import Derived

        return Derived(self)

    @cached_property
    def inspection(self) -> Inspection:
        from ledger.storage.inspection import Inspection

        return Inspection(self)

    @cached_property
    def bulk(self) -> BulkImport:
        from ledger.storage.bulk import BulkImport

        return BulkImport(self)

    # -- the file under us --

    def remember_file(self) -> None:
        """Note which file the path names now (:func:`open_ledger` does, once open)."""
        if self.path != ":memory:" and not self.path.startswith("file:"):
            st = os.stat(self.path)
            self.identity = (st.st_dev, st.st_ino)

    def check_same_file(self) -> None:
        """:class:`LedgerMoved` unless the path still names the file this ledger opened.

        A long-running command (``table``, ``import``, ``serve``) whose file is deleted,
        or replaced by a rename as sync tools do, would otherwise go on writing into a
        file nobody will read again.  Checked before every write (:meth:`writing`)."""
        if self.identity is None:
            return
        problem = moved_problem(self.path, self.identity)
        if problem is not None:
            from ledger.core.i18n import _

            raise LedgerMoved(_("the ledger {path} is no longer the file {holder} opened: "
                                "{problem}; stopped, and this last change was not saved").format(
                                    path=self.path, holder=_(self.holder), problem=problem))

    # -- transactions --

    @contextmanager
    def writing(self) -> Iterator[Ledger]:
        """One user action = one transaction, with the write lock taken up front."""
        conn = self.conn
        if conn.in_transaction:  # nested action: a savepoint inside the outer one
            self.savepoints += 1
            name = f"action_{self.savepoints}"
            conn.execute(f"SAVEPOINT {name}")
            try:
                yield self
            except BaseException:
                # An error that ended the whole transaction took the savepoint with it.
                if conn.in_transaction:
                    conn.execute(f"ROLLBACK TO SAVEPOINT {name}")
                    conn.execute(f"RELEASE SAVEPOINT {name}")
                raise
            conn.execute(f"RELEASE SAVEPOINT {name}")
            return
        try:
            conn.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError as exc:
            raise store_error(exc, self.path) from None
        try:
            self.check_same_file()  # under the write lock: nothing is written into a lost file
            yield self
            self.check_same_file()
            conn.execute("COMMIT")
        except sqlite3.OperationalError as exc:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise store_error(exc, self.path) from None
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise

    def audit(self, action: str, detail: dict[str, Any], session_id: int | None = None,
              entry_id: int | None = None) -> None:
        """Append one row to the audit log (inside :meth:`writing`)."""
        self.conn.execute(
            "INSERT INTO audit (at, action, session_id, entry_id, detail) VALUES (?, ?, ?, ?, ?)",
            [now(), action, session_id, entry_id, to_json(detail)],
        )

    # -- players --

    def player_name(self, typed: str) -> str:
        """The name the ledger shows for the player ``typed`` names (same
        :func:`name_key`: ``ann`` finds ``Ann``; a renamed player's old name finds its
        new one, a merged player's the one it was merged into); :class:`NotFound`
        when there is none."""
        found = self.find_player(typed)
        if found is None:
            from ledger.core.names import did_you_mean

            names = [n for (n,) in self.conn.execute("SELECT DISTINCT name FROM player_names")]
            from ledger.core.i18n import _

            raise NotFound(_("no player named {name} in this ledger{hint}").format(
                name=repr(typed), hint=did_you_mean(typed, names)))
        return found

    def _find(self, typed: str) -> tuple[int, str, str] | None:
        """(id, own name, shown name) of the player named ``typed``: its name now or
        the name first typed for it, exactly or by name key."""
        rows = self.conn.execute(
            "SELECT id, own_name, name, typed_name FROM player_names ORDER BY id").fetchall()
        for column in (1, 3):
            for row in rows:
                if row[column] == typed:
                    return row[0], row[1], row[2]
        key = name_key(typed.strip())
        for column in (1, 3):
            for row in rows:
                if name_key(row[column]) == key:
                    return row[0], row[1], row[2]
        return None

    def find_player(self, typed: str) -> str | None:
        """The name shown for the player named ``typed`` (by name key), or None."""
        found = self._find(typed)
        return None if found is None else found[2]

    def player_id(self, name: str, create: bool = False) -> int:
        """The id of the player ``name`` names: the name first typed for it, or its
        name now (after a rename); a new player with ``create``."""
        if name in self.player_cache:
            return self.player_cache[name]
        row = self.conn.execute("SELECT id FROM players WHERE name = ?", [name]).fetchone()
        if row is not None:
            known: int = row[0]
            self.player_cache[name] = known  # a typed name is its player's for good
            return known
        found = self._find(name)
        if found is not None and found[1] == name:
            return found[0]
        if not create:
            from ledger.core.i18n import _

            raise NotFound(_("no player named {name} in this ledger{hint}").format(
                name=repr(name), hint=""))
        if found is not None:  # one player, two spellings: the ledger's is kept
            from ledger.core.i18n import _

            raise InputError(_("player {name!r} is {known!r} in this ledger (the same name); "
                               "write it as {known!r}").format(name=name, known=found[1]))
        pid = inserted_id(self.conn.execute(
            "INSERT INTO players (name, created_at) VALUES (?, ?)", [name, now()]))
        self.audit("player.add", {"name": name})
        self.player_cache[name] = pid
        return pid


def moved_problem(path: str, identity: tuple[int, int]) -> str | None:
    """What became of the file ``identity`` (device, inode) that ``path`` named, or None
    while the path still names it."""
    from ledger.core.i18n import _

    try:
        st = os.stat(path)
    except FileNotFoundError:
        return _("it was deleted or moved away")
    except OSError as exc:
        from ledger.core.phrase import os_reason

        return _("it cannot be read ({reason})").format(reason=os_reason(exc))
    if (st.st_dev, st.st_ino) == identity:
        return None
    return _("another file was put in its place (renamed or replaced)")


def refuse_not_a_ledger(path: str) -> None:
    """:class:`StoreError` when ``path`` exists and is not a regular file (a folder, a FIFO,
    a device; symbolic links followed): never given to SQLite, which would wait on a FIFO
    or write ``NAME-journal`` beside a device (``/dev/null-journal``).  A new name passes."""
    if Path(path).is_dir():
        from ledger.core.i18n import _

        raise StoreError(_("cannot open the ledger {path}: it is a folder, not a file").format(
            path=path))
    from ledger.core.limits import path_kind

    kind = None if path == ":memory:" or path.startswith("file:") else path_kind(path)
    if kind is not None:
        from ledger.core.i18n import _

        raise StoreError(_("cannot open the ledger {path}: it is {kind}, not a file; a ledger "
                           "is a regular file (or a new name)").format(path=path, kind=kind))


def _new_from_script(conn: sqlite3.Connection) -> bool:
    """A file with nothing in it made a ledger from the schema script (fresh.py)."""
    if conn.execute("SELECT 1 FROM sqlite_master LIMIT 1").fetchone() is not None:
        return False
    from ledger.storage.fresh import create_from_script

    return create_from_script(conn)


def open_ledger(path: str | os.PathLike[str], *, create_folder: bool = False,
                create: bool = True) -> Ledger:
    """Open (creating and migrating if new) the ledger at ``path``.

    ``create=False`` opens only a file that exists (SQLite's ``mode=rw``): a server
    whose file was moved away must not leave a new empty ledger in its place."""
    path = os.fspath(path)
    folder = Path(path).parent
    if create_folder:
        folder.mkdir(parents=True, exist_ok=True)
    elif not folder.is_dir():
        from ledger.core.i18n import _

        raise StoreError(_("cannot open the ledger {path}: the folder {folder} does not exist")
                         .format(path=path, folder=folder))
    refuse_not_a_ledger(path)
    try:
        if create or path == ":memory:" or path.startswith("file:"):
            conn = sqlite3.connect(path, timeout=BUSY_TIMEOUT_MS / 1000, isolation_level=None)
        else:
            uri = Path(path).resolve().as_uri() + "?mode=rw"
            conn = sqlite3.connect(uri, timeout=BUSY_TIMEOUT_MS / 1000, isolation_level=None,
                                   uri=True)
    except sqlite3.Error as exc:
        raise store_error(exc, path) from None
    try:
        conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        conn.execute("PRAGMA foreign_keys = ON")
        if conn.execute("PRAGMA application_id").fetchone()[0] != APPLICATION_ID:
            # Before WAL mode is set: it is kept in the file header, so another
            # program's database must be refused while it is still untouched.
            refuse_foreign(conn, path)
        refuse_newer(conn, path)  # likewise: a newer bigtwo's ledger is left untouched
        mode = conn.execute("PRAGMA journal_mode = WAL").fetchone()[0]
        if mode.lower() != "wal" and path != ":memory:":
            from ledger.core.i18n import _

            raise StoreError(_("cannot open the ledger {path} in WAL mode (got {mode})").format(
                path=path, mode=mode))
        conn.execute("PRAGMA synchronous = FULL")
        ledger = Ledger(conn, path)
        app_id = conn.execute("PRAGMA application_id").fetchone()[0]
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        if (app_id, version) != (APPLICATION_ID, SCHEMA_VERSION) and not (
                version == 0 and _new_from_script(conn)):
            check_and_migrate(ledger.db, path)
        ledger.remember_file()
    except sqlite3.Error as exc:
        conn.close()
        raise store_error(exc, path) from None
    except BaseException:
        conn.close()
        raise
    return ledger


