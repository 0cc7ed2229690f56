"""What an SQLite error means to the user: one ``StoreError`` line, never a traceback."""

from __future__ import annotations

import sqlite3

from ledger.core.errors import StoreError


def store_error(exc: sqlite3.Error, path: str) -> StoreError:
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



def reason(exc: sqlite3.Error) -> str:
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
