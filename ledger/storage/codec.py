"""Small shared helpers of the storage parts: timestamps, ids and the JSON text stored."""

from __future__ import annotations

import json
import uuid as uuidlib
from datetime import UTC, datetime
from functools import lru_cache
from typing import Any


def now() -> str:
    """The current UTC time as stored (ISO 8601, microseconds)."""
    return datetime.now(UTC).isoformat(timespec="microseconds")


def new_uuid() -> str:
    return str(uuidlib.uuid4())


def to_json(value: Any) -> str:
    """The JSON text stored for facts, rules and audit details (sorted keys, UTF-8 text)."""
    return json.dumps(value, sort_keys=True, ensure_ascii=False)


@lru_cache(maxsize=256)
def rules_dict(text: str) -> dict[str, Any]:
    """Frozen rules JSON, parsed once per distinct text (sessions share them; read-only)."""
    return json.loads(text)  # type: ignore[no-any-return]
