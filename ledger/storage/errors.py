"""What an SQLite error means to the user: one ``StoreError`` line, never a traceback.

SQLite errors are classified here and nowhere else, by SQLite's result code
(``exc.sqlite_errorname``, e.g. ``SQLITE_BUSY`` or the extended
``SQLITE_IOERR_WRITE``), never by matching the message text, which SQLite does
not promise to keep.
"""

from __future__ import annotations

import os
import sqlite3
from enum import StrEnum

from ledger.core.errors import StoreError
from ledger.core.i18n import N_, _


class Failure(StrEnum):
    """What went wrong, as far as the user is concerned."""

    BUSY = "busy"  # another connection holds the lock past the busy timeout
    READONLY = "readonly"  # the file or its folder cannot be written
    FULL = "full"  # no room left on the disk (or the file reached its size limit)
    NOT_A_DATABASE = "notadb"  # the file is not SQLite at all
    IO = "io"  # the operating system failed a read or write
    CANNOT_OPEN = "cantopen"  # the file cannot be opened or created there
    DAMAGED = "damaged"  # SQLite found a damaged page or index
    OTHER = "other"


# SQLite's primary result codes (the part of the name after SQLITE_, before any
# extended suffix) and what each means here.  See https://sqlite.org/rescode.html.
_PRIMARY = {
    "BUSY": Failure.BUSY,
    "LOCKED": Failure.BUSY,
    "READONLY": Failure.READONLY,
    "FULL": Failure.FULL,
    "NOTADB": Failure.NOT_A_DATABASE,
    "IOERR": Failure.IO,
    "CANTOPEN": Failure.CANNOT_OPEN,
    "PERM": Failure.CANNOT_OPEN,
    "CORRUPT": Failure.DAMAGED,
}


def classify(exc: sqlite3.Error) -> Failure:
    """The :class:`Failure` an SQLite error stands for, from its result code.

    Errors raised by Python's sqlite3 module itself (a closed connection, a bad
    parameter) carry no code and are ``OTHER``.
    """
    name = getattr(exc, "sqlite_errorname", None)
    if not isinstance(name, str) or not name.startswith("SQLITE_"):
        return Failure.OTHER
    primary = name.removeprefix("SQLITE_").split("_", 1)[0]
    return _PRIMARY.get(primary, Failure.OTHER)


def store_error(exc: sqlite3.Error, path: str) -> StoreError:
    """The error to show for ``exc``, raised while using the ledger at ``path``."""
    failure = classify(exc)
    if failure is Failure.IO and disk_full(path):  # a full disk can reach SQLite as an I/O
        failure = Failure.FULL                      # error (WAL, -shm)
    message = _MESSAGES.get(failure, N_("ledger {path}: {error}"))
    advice = _ADVICE.get(failure)
    return StoreError(_(message).format(path=path, error=exc),
                      advice=None if advice is None else _(advice))


_MESSAGES = {
    Failure.BUSY: N_("the ledger {path} is busy (another program holds it); try again"),
    Failure.READONLY: N_("cannot write to the ledger {path}: the file or its folder is read-only"),
    Failure.FULL: N_("cannot write to the ledger {path}: the disk is full; nothing was saved"),
    Failure.NOT_A_DATABASE: N_("{path} is not a bigtwo ledger (not an SQLite database)"),
    Failure.IO: N_("cannot write to the ledger {path}: disk I/O error; nothing was saved"),
    Failure.CANNOT_OPEN: N_("cannot open the ledger {path}: permission denied, or its folder is "
                            "read-only"),
    Failure.DAMAGED: N_("the ledger {path} is damaged ({error})"),
}

_ADVICE = {  # said by the command line only, after the message
    Failure.DAMAGED: N_("see: bigtwo doctor, and bigtwo restore FILE to go back to a backup"),
}

_REASONS = {
    Failure.BUSY: N_("another program holds the file"),
    Failure.READONLY: N_("the file or its folder is read-only"),
    Failure.FULL: N_("the disk is full"),
    Failure.NOT_A_DATABASE: N_("it is not an SQLite database"),
    Failure.IO: N_("disk I/O error"),
    Failure.CANNOT_OPEN: N_("the file cannot be created there (is the folder writable?)"),
    Failure.DAMAGED: N_("SQLite found it damaged"),
}


def reason(exc: sqlite3.Error, path: str | None = None) -> str:
    """Why writing a copy (a backup) to ``path`` failed, in a few words."""
    failure = classify(exc)
    if failure is Failure.IO and path is not None and disk_full(path):
        failure = Failure.FULL
    known = _REASONS.get(failure)
    return str(exc) if known is None else _(known)



def disk_full(path: str, room: int = 1 << 20) -> bool:
    """Is there less than ``room`` bytes free on the disk where ``path`` is (or would be)?"""
    folder = os.path.dirname(os.path.abspath(path)) or "."
    try:
        st = os.statvfs(folder)
    except (OSError, AttributeError):  # no such folder, or no statvfs (Windows)
        return False
    return st.f_bavail * st.f_frsize < room
