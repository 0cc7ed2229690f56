"""Backup and restore of the ledger file.

Both go through SQLite's online backup API: it copies one consistent snapshot even
while another terminal is writing, where a file copy could catch a transaction
half-way into the WAL.  See docs/reliability.md.
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from ledger.core.errors import StoreError
from ledger.storage.codec import new_uuid
from ledger.storage.errors import reason, store_error
from ledger.storage.store import Ledger, open_ledger


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
            counts = checked.inspection.counts()
            previous = _replace(checked.conn, path, create_folder)
    finally:
        for suffix in ("", "-wal", "-shm", "-journal"):
            Path(f"{staged}{suffix}").unlink(missing_ok=True)
    return Restored(counts["sessions"], counts["entries"], previous)


def _stage(src: Path, staged: Path) -> None:
    try:
        reader = sqlite3.connect(f"{src.resolve().as_uri()}?mode=ro", uri=True)
    except sqlite3.Error as exc:
        raise store_error(exc, str(src)) from None
    try:
        writer = sqlite3.connect(staged)
        try:
            reader.backup(writer)
        finally:
            writer.close()
    except sqlite3.Error as exc:
        raise store_error(exc, str(src)) from None
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
            raise store_error(exc, path) from None
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
        raise StoreError(f"cannot write the {what} {target}: {reason(exc)}") from None
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

