"""Rows as stored: the raw reads of the self-check and the audit log
(``ledger.inspection``) and the entries of bulk import (``ledger.bulk``).  Kept out of
:mod:`ledger.storage.rows`, which every command loads; named tuples with evaluated
annotations, as there.
"""

from collections.abc import Sequence
from typing import Any, NamedTuple

from ledger.storage.rows import PointsRow, PointsTuple

# --- raw reads for the self-check and the audit log (ledger.inspection) ---


class Orphan(NamedTuple):
    """A row that belongs to nothing, and what it points to that is missing."""

    row: str
    problem: str


class RawSession(NamedTuple):
    """A session as stored: its rules JSON unparsed, its seated players in seat order."""

    id: int
    rules: str
    teams: bool
    seats: tuple[str, ...]


class RawEntry(NamedTuple):
    """An entry as stored: its facts JSON unparsed."""

    id: int
    seq: int
    kind: str
    deal_no: int
    facts: str | None
    created_at: str = ""  # with uuid, its place in the one order of entries
    uuid: str = ""


class RawPoints(NamedTuple):
    """A points row filed under a session, with the entry it belongs to."""

    entry_id: int
    points: PointsRow


class CachedTotal(NamedTuple):
    """What ``session_totals`` holds for one player in one session."""

    session_id: int
    player: str
    deals: int
    wins: int
    fried: int
    cards: int
    penalty: int
    net: int


class CachedFlow(NamedTuple):
    """What ``session_flows`` holds for one player and winner in one session."""

    session_id: int
    player: str
    payee: str
    net: int


class CachedTotals(NamedTuple):
    totals: list[CachedTotal]
    flows: list[CachedFlow]


class SessionRows(NamedTuple):
    """One session's rows as the self-check reads them in one pass (``session`` None: a
    session that does not exist, whose cached totals or flows are still there)."""

    session_id: int
    session: RawSession | None
    entries: list[RawEntry]
    points: list[RawPoints]
    totals: list[CachedTotal]
    flows: list[CachedFlow]


class AuditRow(NamedTuple):
    """One line of the audit log; ``detail`` is JSON."""

    id: int
    at: str
    action: str
    session_id: int | None
    entry_id: int | None
    detail: str


# --- bulk import (ledger.bulk) ---


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
    undoes: str | None = None  # the uuid of the entry the undo that wrote it took back



class StoredEntry(NamedTuple):
    """An entry already in the ledger, as an import compares it (facts as stored JSON)."""

    session_id: int
    kind: str
    deal_no: int
    facts: str | None
