"""What kind of file an import is given, checked before the ledger is opened: a
backup (an SQLite file, :func:`is_backup`), a JSON export or a score sheet
(:func:`detect_format`), refused when it is no file or holds nothing
(:func:`check_importable`) or when ``--fry`` does not fit it (:func:`check_fry`); and a
file written whole or not at all (:func:`write_file`).  Split from
:mod:`ledger.formats.exchange`, which reads and writes what is inside.
"""

from __future__ import annotations

import errno
import os
from collections.abc import Callable
from pathlib import Path
from typing import IO

from ledger.core.errors import InputError
from ledger.core.i18n import _
from ledger.core.phrase import os_reason

SQLITE_HEADER = b"SQLite format 3\x00"


def is_backup(path: Path) -> bool:
    """Whether ``path`` is an SQLite file (a bigtwo backup, or refused as another's):
    :mod:`ledger.formats.backup_import` imports it, and is loaded only then."""
    try:
        with path.open("rb") as f:
            return f.read(len(SQLITE_HEADER)) == SQLITE_HEADER
    except OSError:
        return False


def detect_format(path: Path) -> str:
    """``json`` if the file starts with ``{`` (after blanks), else ``sheet``."""
    with path.open("rb") as f:
        head = f.read(4096)
    text = head.lstrip(b"\xef\xbb\xbf \t\r\n")
    return "json" if text.startswith(b"{") else "sheet"


def check_importable(path: Path) -> None:
    """Refuse a missing file, a folder, or a file with nothing in it (0 bytes, or only
    blanks): none of them is an export or a score sheet.  Reads until the first
    character that is not a blank (a few bytes for any real file)."""
    from ledger.core.limits import path_kind

    if not path.is_file():
        kind = None if path.is_dir() else path_kind(path)
        if kind is not None:  # a FIFO, a device, a socket: exists, but is no file to import
            raise InputError(_("cannot import {path}: it is {kind}, not a file; give an export "
                               "or a score sheet").format(path=path, kind=kind))
        raise InputError((_("cannot import {path}: it is a folder") if path.is_dir()
                          else _("cannot import {path}: no such file")).format(path=path))
    from ledger.formats.samples import refuse_sample

    refuse_sample(path)
    try:
        with path.open("rb") as f:
            first = True
            while chunk := f.read(1 << 16):
                if first:
                    chunk = chunk.removeprefix(b"\xef\xbb\xbf")  # a UTF-8 byte-order mark
                    first = False
                if chunk.strip(b" \t\r\n\f\v"):
                    return
    except OSError as exc:
        raise InputError(_("cannot read {path}: {reason}").format(
            path=path, reason=os_reason(exc))) from None
    raise InputError(_("{name} is empty: not a bigtwo export or score sheet").format(name=path.name))


def check_fry(path: Path, fmt: str | None, fry: int) -> None:
    """Refuse ``import --fry N`` for a file it does not fit, before the ledger is opened."""
    from ledger.formats.sheet_import import sheet_format

    if (fmt or detect_format(path)) == "json":
        raise InputError(_("--fry is for big-two-stats sheets, not a JSON export"))
    sheet_format(path, path.name, fry)



def write_file(path: Path, write: Callable[[IO[str]], int]) -> int:
    """Write through a temporary file renamed into place: never half a file at ``path``."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        with tmp.open("w", encoding="utf-8", newline="") as f:
            count = write(f)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except OSError as exc:
        tmp.unlink(missing_ok=True)
        why = _("the disk is full") if exc.errno == errno.ENOSPC else os_reason(exc)
        raise InputError(_("cannot write {path}: {reason}").format(path=path, reason=why)) from None

    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    return count
