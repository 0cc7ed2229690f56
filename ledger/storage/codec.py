"""Small shared helpers of the storage parts: timestamps, ids and the JSON text stored."""

from __future__ import annotations

import json
import uuid as uuidlib
from datetime import UTC, datetime
from functools import lru_cache
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import sqlite3


def now() -> str:
    """The current UTC time as stored (ISO 8601, microseconds)."""
    return datetime.now(UTC).isoformat(timespec="microseconds")


def new_uuid() -> str:
    return str(uuidlib.uuid4())


def inserted_id(cursor: sqlite3.Cursor) -> int:
    """The id the INSERT run on ``cursor`` gave its row."""
    rowid = cursor.lastrowid
    if rowid is None:  # SQLite sets it on every INSERT into a rowid table
        raise RuntimeError("an INSERT gave no row id")
    return rowid


_ENCODE = json.JSONEncoder(sort_keys=True, ensure_ascii=False).encode  # made once


def to_json(value: Any) -> str:
    """The JSON text stored for facts, rules and audit details (sorted keys, UTF-8 text):
    ``json.dumps(value, sort_keys=True, ensure_ascii=False)``, by one encoder."""
    return _ENCODE(value)


@lru_cache(maxsize=256)
def rules_dict(text: str) -> dict[str, Any]:
    """Frozen rules JSON, parsed once per distinct text (sessions share them; read-only)."""
    rules: dict[str, Any] = json.loads(text)
    return rules
