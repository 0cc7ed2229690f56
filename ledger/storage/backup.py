"""Backup and restore of the ledger file.

Both go through SQLite's online backup API: it copies one consistent snapshot even
while another terminal is writing, where a file copy could catch a transaction
half-way into the WAL.  See docs/reliability.md.
"""

from __future__ import annotations

import errno
import os
import sqlite3
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from ledger.core.errors import LedgerError, Problems, StoreError
from ledger.core.i18n import N_, _, ngettext
from ledger.core.phrase import os_reason
from ledger.storage.codec import new_uuid
from ledger.storage.errors import reason, store_error
from ledger.storage.store import Ledger, open_ledger


@dataclass(frozen=True)
class Restored:
    sessions: int
    entries: int
    previous: Path | None  # where the ledger that was replaced was saved first
    # What that saved copy holds that the restored ledger lacks: table -> rows, counted
    # by uuid over every table that has uuids (entries, payments, seasons, ...).
    only_before: dict[str, int] = field(default_factory=dict)


def backup_ledger(ledger: Ledger, dest: str | os.PathLike[str], *, overwrite: bool = False) -> Path:
    """Write a consistent copy of the open ledger to ``dest``.

    The copy is written to a temporary file beside ``dest``, checked by SQLite and
    renamed into place, so a crash or a full disk never leaves a half-written
    backup (or destroys an older one) under that name.  The backup is one
    self-contained file (rollback journal mode, no ``-wal`` beside it).
    """
    target = Path(dest)
    if _same_file(target, Path(ledger.path)):
        raise StoreError(_("{file} is the ledger itself; give another file for the backup").format(
            file=target))
    if target.is_dir():
        raise StoreError(_("{file} is a folder; give a file name for the backup").format(
            file=target))
    if not target.parent.is_dir():
        raise StoreError(_("cannot write the backup {file}: the folder {folder} does not exist")
                         .format(file=target, folder=target.parent))
    if target.exists() and not overwrite:
        raise StoreError(_("{file} already exists; give a new file name (or --force to replace it)")
                         .format(file=target))
    remove_stale_temp_files(target.parent, target.name)
    _snapshot(ledger.conn, target, N_("the backup {file}"))
    return target


STALE_SECONDS = 60  # a temporary file older than this is an earlier run's, killed half-way


def remove_stale_temp_files(folder: Path, name: str) -> None:
    """Remove the temporary files a killed ``backup`` or ``restore`` left in ``folder``
    (``.NAME.restore-XXXXXXXX.tmp``, ``.NAME.XXXXXXXX.tmp``), if older than a minute so
    that a running one's are left alone."""
    import time

    now = time.time()
    stem = Path(name).stem
    for pattern in (f".{name}.restore-*.tmp*", f".{name}.*.tmp", f".{name}.*.tmp-journal",
                    f".{stem}.before-restore-*.tmp", f".{stem}.before-restore-*.tmp-journal"):
        for leftover in folder.glob(pattern):
            try:
                if now - leftover.stat().st_mtime > STALE_SECONDS:
                    leftover.unlink()
            except OSError:
                pass


class BackupReader:
    """A backup file, read-only and trusted in nothing but its rows: what ``restore``
    copies into a fresh ledger (through the import's checks, in ledger.formats.rebuild).

    Opening refuses an empty file, a file that is not SQLite, another program's
    database and a newer bigtwo's ledger, each with one line naming the file."""

    def __init__(self, src: Path) -> None:
        self.src = src
        self.name = str(src)
        self.conn: sqlite3.Connection | None = None
        try:
            size = src.stat().st_size
            with src.open("rb") as f:
                head = f.read(100)
        except OSError as exc:
            raise StoreError(_("cannot read the backup {file}: {reason}").format(
                file=src, reason=os_reason(exc))) from None
        if size == 0:
            raise StoreError(_("{file} is empty (0 bytes), not a bigtwo backup; nothing was "
                               "restored").format(file=src))
        if not head.startswith(b"SQLite format 3\x00"):
            raise StoreError(_("{file} is not a bigtwo ledger (not an SQLite database); nothing "
                               "was restored").format(file=src))
        try:
            self.conn = sqlite3.connect(f"{src.resolve().as_uri()}?mode=ro", uri=True)
            self.conn.execute("PRAGMA trusted_schema = OFF")  # its triggers and views: data only
            self._check_kind(self.conn)
        except sqlite3.Error as exc:
            self.close()
            raise StoreError(_("{file} cannot be read as a bigtwo backup ({reason}); nothing was "
                               "restored").format(file=src, reason=reason(exc))) from None
        except StoreError:
            self.close()
            raise

    def _check_kind(self, conn: sqlite3.Connection) -> None:
        from ledger.storage.schema import APPLICATION_ID, refuse_newer

        app_id = conn.execute("PRAGMA application_id").fetchone()[0]
        tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        names: list[str] = []
        if "_sqlite_migrations" in tables:
            names = [r[0] for r in conn.execute(
                "SELECT name FROM _sqlite_migrations WHERE migration_set = 'bigtwo'")]
        if app_id not in (APPLICATION_ID, 0) or not names:
            message = (N_("{file} is not a bigtwo ledger: an SQLite database of another program "
                          "(tables: {tables}); nothing was restored") if tables else
                       N_("{file} is not a bigtwo ledger: an SQLite database of another program "
                          "(no tables); nothing was restored"))
            raise StoreError(_(message).format(file=self.src, tables=", ".join(sorted(tables)[:5])))
        refuse_newer(conn, str(self.src))  # a newer schema, or a migration this one lacks

    def close(self) -> None:
        if self.conn is not None:
            self.conn.close()
            self.conn = None

    def __enter__(self) -> BackupReader:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _c(self) -> sqlite3.Connection:
        assert self.conn is not None
        return self.conn

    def ledger(self) -> Ledger:
        """The backup as a read-only :class:`Ledger`, for the self-check's data checks."""
        return Ledger(self._c(), self.name)

    def sessions(self) -> list[dict[str, Any]]:
        """Every session as an export header (rules as stored text), by id."""
        seats: dict[int, list[str]] = {}
        for sid, name in self._c().execute(
            "SELECT t.session_id, p.name FROM seats t JOIN players p ON p.id = t.player_id "
            "ORDER BY t.session_id, t.seat"
        ):
            seats.setdefault(sid, []).append(name)
        keys = ("id", "uuid", "name", "rules", "stake", "currency", "teams", "started_at")
        rows = self._c().execute(f"SELECT {', '.join(keys)} FROM sessions ORDER BY id")
        # ended or open comes with the session's end and reopen entries (:meth:`entries`)
        return [dict(zip(keys, r, strict=True)) | {"players": seats.get(r[0], [])} for r in rows]

    def player_events(self) -> list[tuple[Any, ...]]:
        """(uuid, at, kind, player's typed name, into's typed name, name, uuid undone) of
        every rename, merge and undo, oldest first (none in a backup from before m004)."""
        conn = self._c()
        if conn.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' "
                        "AND name = 'player_events'").fetchone() is None:
            return []
        return conn.execute(
            """SELECT e.uuid, e.at, e.kind, p.name, i.name, e.name, u.uuid
               FROM player_events e JOIN players p ON p.id = e.player_id
               LEFT JOIN players i ON i.id = e.into_id
               LEFT JOIN player_events u ON u.id = e.undoes ORDER BY e.id""").fetchall()

    def pay_ids(self) -> list[tuple[Any, ...]]:
        """(uuid, created_at, kind, player's typed name, scheme, id) of every pay id row
        in the one order (none in a backup from before m009)."""
        if not self._has("pay_ids"):
            return []
        return self._c().execute(
            """SELECT q.uuid, q.created_at, q.kind, p.name, q.scheme, q.value
               FROM pay_ids q JOIN players p ON p.id = q.player_id
               ORDER BY q.created_at, q.uuid""").fetchall()

    def _has(self, table: str) -> bool:
        return self._c().execute("SELECT 1 FROM sqlite_master WHERE type = 'table' "
                                 "AND name = ?", [table]).fetchone() is not None

    def payments(self) -> list[dict[str, Any]]:
        """Every payment row as an export holds it (players by the name first typed for
        them, the session by uuid), oldest first (none in a backup from before m007)."""
        if not self._has("payments"):
            return []
        keys = ("uuid", "at", "kind", "from", "to", "amount", "currency", "session", "note",
                "undoes")
        return [dict(zip(keys, r, strict=True)) for r in self._c().execute(
            """SELECT p.uuid, p.created_at, p.kind, a.name, b.name, p.amount, p.currency,
                      s.uuid, p.note, p.undoes
               FROM payments p LEFT JOIN players a ON a.id = p.payer_id
               LEFT JOIN players b ON b.id = p.payee_id LEFT JOIN sessions s ON s.id = p.session_id
               ORDER BY p.id""")]

    def seasons(self) -> list[tuple[Any, ...]]:
        """(uuid, created_at, kind, name, since, until) of every season row, oldest first
        (none in a backup from before m006)."""
        if not self._has("seasons"):
            return []
        return self._c().execute("SELECT uuid, created_at, kind, name, since, until FROM seasons "
                                 "ORDER BY id").fetchall()

    def imports(self) -> list[tuple[Any, ...]]:
        """(uuid, at, digest, name) of every import key kept (none before m010)."""
        if not self._has("imports"):
            return []
        return self._c().execute("SELECT uuid, at, digest, name FROM imports ORDER BY id").fetchall()

    _ENTRY = "e.session_id, e.uuid, e.seq, e.kind, e.deal_no, e.facts, e.created_at"
    # A backup from before m005: what an undo took back was in the audit log.
    _UNDOES_BEFORE_M005 = """(SELECT t.uuid FROM audit a JOIN entries t ON t.session_id = a.session_id
        AND t.seq = json_extract(a.detail, '$.undoes')
        WHERE a.action = 'deal.undo' AND a.entry_id = e.id ORDER BY a.id LIMIT 1)"""

    def _every_action_an_entry(self) -> bool:
        return any(r[1] == "undoes" for r in self._c().execute("PRAGMA table_info(entries)"))

    def _select(self) -> str:
        undoes = "e.undoes" if self._every_action_an_entry() else self._UNDOES_BEFORE_M005
        return f"SELECT {self._ENTRY}, {undoes} FROM entries e"

    def _old_actions(self, session_id: int | None) -> list[tuple[Any, ...]]:
        """The end and reopen entries a backup from before m005 kept in its audit log and
        ``sessions.ended_at``, made as migration m005 makes them."""
        if self._every_action_an_entry():
            return []
        from ledger.storage.upgrade import ends_and_reopens

        conn = self._c()
        where = "" if session_id is None else "WHERE id = ?"
        out = []
        for sid, suuid, ended_at in conn.execute(
                f"SELECT id, uuid, ended_at FROM sessions {where} ORDER BY id",
                [] if session_id is None else [session_id]).fetchall():
            for uuid, _sid, kind, at, undoes in ends_and_reopens(conn, sid, suuid, ended_at):
                out.append((sid, uuid, None, kind, None, None, at, undoes))
        return out

    def entries(self, session_id: int) -> list[tuple[Any, ...]]:
        """(session_id, uuid, seq, kind, deal, facts text, at, uuid undone) of a session:
        its deal entries by seq, its own actions (start, end, reopen, undo) after them."""
        return self._c().execute(
            f"{self._select()} WHERE e.session_id = ? ORDER BY e.seq IS NULL, e.seq, "
            "e.created_at, e.uuid", [session_id]).fetchall() + self._old_actions(session_id)

    def all_entries(self) -> Iterator[tuple[Any, ...]]:
        """The same for every entry but the starts (the sessions are made with theirs), in
        the order they were recorded (by id)."""
        yield from self._c().execute(
            f"{self._select()} WHERE e.kind != 'start' ORDER BY e.id")
        yield from self._old_actions(None)

    def setting(self, key: str) -> Any:
        try:
            row = self._c().execute("SELECT value FROM settings WHERE key = ?", [key]).fetchone()
        except sqlite3.Error:
            return None
        return None if row is None else row[0]


def restore_ledger(
    path: str | os.PathLike[str],
    source: str | os.PathLike[str],
    *,
    rebuild: Callable[[BackupReader, Ledger], None],
    check: Callable[[Ledger], Sequence[str]],
    check_backup: Callable[[Ledger], Sequence[str]] | None = None,
    create_folder: bool = False,
) -> Restored:
    """Replace the ledger at ``path`` with the backup ``source``, never losing either.

    The backup's schema is never trusted (a crafted trigger or a dropped index would
    come along with a file copy):

    1. ``source`` is opened read-only (:class:`BackupReader`: an empty file, another
       program's database or a newer bigtwo's ledger is refused) and, with
       ``check_backup``, its rows are self-checked as they are stored.
    2. A fresh ledger is made beside the ledger with this program's own schema, and
       ``rebuild`` copies the backup's rows into it through the import's checks (points
       are derived again from the facts, never copied); it is then self-checked with
       ``check``.  Any problem refuses the restore.
    3. The current ledger, if there is one, is locked (other terminals wait) and saved
       first to a timestamped sibling, ``NAME.before-restore-<UTC time>.db``; the
       checked copy is written into it under that same lock, so no deal recorded
       elsewhere can fall between the saved copy and the restored one.

    Temporary files a killed restore or backup left beside the ledger are removed.
    """
    path = os.fspath(path)
    src = Path(source)
    if not src.is_file():
        raise StoreError(_("no backup file {file}").format(file=src))
    if _same_file(src, Path(path)):
        raise StoreError(_("{file} is the ledger itself; give a backup file to restore from").format(
            file=src))
    folder = Path(path).parent
    if create_folder:
        folder.mkdir(parents=True, exist_ok=True)
    elif not folder.is_dir():
        raise StoreError(_("cannot restore into {path}: the folder {folder} does not exist").format(
            path=path, folder=folder))
    remove_stale_temp_files(folder, Path(path).name)
    staged = folder / f".{Path(path).name}.restore-{new_uuid()[:8]}.tmp"

    def refuse(found: Sequence[str]) -> None:
        if found:
            raise StoreError(ngettext(
                "{file} fails the self-check, so nothing was restored ({count} problem; the "
                "first: {first})",
                "{file} fails the self-check, so nothing was restored ({count} problems; the "
                "first: {first})", len(found)).format(file=src, count=len(found), first=found[0]))

    try:
        with BackupReader(src) as reader:
            if check_backup is not None:
                refuse(check_backup(reader.ledger()))
            with open_ledger(staged) as fresh:
                try:
                    rebuild(reader, fresh)
                except StoreError:
                    raise
                except Problems as exc:  # the gate's, one line each
                    raise Problems([_("{file} cannot be restored, so nothing was: {problem}")
                                    .format(file=src, problem=p) for p in exc.problems]) from None
                except LedgerError as exc:
                    raise StoreError(_("{file} cannot be restored, so nothing was: {problem}")
                                     .format(file=src, problem=exc)) from None
        with open_ledger(staged) as checked:
            refuse(check(checked))
            counts = checked.inspection.counts()
            previous = _replace(checked.conn, path, create_folder)
            only_before = {} if previous is None else only_in(previous, checked)
    except sqlite3.Error as exc:
        raise store_error(exc, str(staged)) from None
    finally:
        for suffix in ("", "-wal", "-shm", "-journal"):
            Path(f"{staged}{suffix}").unlink(missing_ok=True)
    return Restored(counts["sessions"], counts["entries"], previous, only_before)


def only_in(copy: Path, ledger: Ledger) -> dict[str, int]:
    """Rows of the ledger file ``copy`` whose uuid ``ledger`` does not hold, counted per
    table (every table with uuids, :mod:`ledger.storage.keyed`); an entry counts when it
    is a deal, an amend or a void, or a session's own action."""
    out: dict[str, int] = {}
    try:
        conn = sqlite3.connect(f"{copy.resolve().as_uri()}?mode=ro", uri=True)
    except sqlite3.Error:
        return out
    try:
        conn.execute("PRAGMA trusted_schema = OFF")
        theirs = {r[0] for r in conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table'")}
        for table in ledger.keys.tables:
            if table not in theirs:
                continue
            mine = {r[0] for r in ledger.conn.execute(f'SELECT uuid FROM "{table}"')}
            extra = sum(1 for (u,) in conn.execute(f'SELECT uuid FROM "{table}"') if u not in mine)
            if extra:
                out[table] = extra
    except sqlite3.Error:
        return out
    finally:
        conn.close()
    return out


def _replace(checked: sqlite3.Connection, path: str, create_folder: bool) -> Path | None:
    """Write ``checked`` into the ledger at ``path``, saving the current one first."""
    existed = Path(path).exists()
    try:
        current = open_ledger(path, create_folder=create_folder)
    except StoreError as exc:
        raise StoreError(_("{problem}; move that file away, then restore").format(
            problem=exc)) from None
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
                _snapshot(conn, previous, N_("the copy of the current ledger {file}"))
            checked.backup(conn)
        except sqlite3.Error as exc:
            raise store_error(exc, path) from None
        finally:
            conn.execute("PRAGMA locking_mode = NORMAL")
            conn.execute("SELECT 1 FROM sqlite_master LIMIT 1").fetchall()  # lets the lock go
    return previous


def _snapshot(source: sqlite3.Connection, target: Path, what: str) -> None:
    """A consistent, checked copy of ``source`` at ``target`` (temporary file + rename);
    ``what`` names it in a message (``N_``, with ``{file}``)."""
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
            raise StoreError(_("{what} failed SQLite's check ({verdict}); not written").format(
                what=_(what).format(file=target), verdict=verdict))
        os.replace(tmp, target)
        _fsync_folder(target.parent)
    except sqlite3.Error as exc:
        raise StoreError(_("cannot write {what}: {reason}").format(
            what=_(what).format(file=target), reason=reason(exc, str(target)))) from None
    except OSError as exc:
        why = _("the disk is full") if exc.errno == errno.ENOSPC else os_reason(exc)
        raise StoreError(_("cannot write {what}: {reason}").format(
            what=_(what).format(file=target), reason=why)) from None

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

