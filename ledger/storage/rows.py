"""The records the storage parts return and take: sessions, entries, points rows."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple


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


# A points row as a plain tuple, in PointsRow's field order (the bulk path makes millions).
PointsTuple = tuple[str, int, int, int, int, int, int, "str | None"]


class ImportedEntry(NamedTuple):
    """An entry for ``ledger.bulk.import_entries``: its identity, facts and derived points.

    ``facts`` may also be given as the JSON text ``ledger.journal.add_entry`` would write.
    """

    uuid: str
    kind: str
    deal_no: int
    facts: dict[str, Any] | str | None
    points: Sequence[PointsTuple]
    created_at: str | None = None

