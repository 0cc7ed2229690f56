"""The records the storage parts return and take: one type per row shape.

Every read returns named tuples, so a caller reads ``row.net``, never ``row[6]``,
and a row cannot be changed (``row._replace(...)`` makes a new one).  Long streams
(the statistics reads, millions of rows over a big ledger) are made with
:func:`typed`, which builds each named tuple in C (no Python call per row).

Named tuples, not dataclasses: `bigtwo deal` loads this module, and a frozen
dataclass costs ~0.5 ms to define (its methods are generated and compiled) where a
named tuple costs ~0.1 ms.  For the same reason the annotations are evaluated, not
postponed (``from __future__ import annotations`` would have each field's type
compiled as a forward reference).
"""

from collections.abc import Iterable, Iterator, Sequence
from functools import partial
from typing import Any, NamedTuple, TypeVar

_T = TypeVar("_T", bound=tuple[Any, ...])


def typed(cls: type[_T], rows: Iterable[Sequence[Any]]) -> Iterator[_T]:
    """``rows`` (tuples in ``cls``'s field order, e.g. a cursor) as ``cls`` named tuples."""
    return map(partial(tuple.__new__, cls), rows)


class SessionRow(NamedTuple):
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

    def to_dict(self, full_rules: bool = False) -> dict[str, Any]:
        """The session as JSON-ready data (``session list --json``, ``show``, export):
        the rule set's name, or with ``full_rules`` the frozen rules themselves."""
        return {
            "id": self.id, "uuid": self.uuid, "name": self.name,
            "rules": self.rules if full_rules else self.rules_name,
            "stake": self.stake, "currency": self.currency, "teams": self.teams,
            "started_at": self.started_at, "ended_at": self.ended_at,
            "players": list(self.seats), "deals": self.deals,
        }


class EntryRow(NamedTuple):
    id: int
    uuid: str
    session_id: int
    seq: int
    kind: str
    deal_no: int
    facts: dict[str, Any] | None
    created_at: str

    def to_dict(self) -> dict[str, Any]:
        """The entry as JSON-ready data (export, ``log --json``)."""
        return {"uuid": self.uuid, "seq": self.seq, "kind": self.kind, "deal": self.deal_no,
                "facts": self.facts, "at": self.created_at}


class PointsRow(NamedTuple):
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



# --- totals (ledger.totals) ---


class SessionTotal(NamedTuple):
    """One player's sums over one session's deals."""

    session_id: int
    player: str
    deals: int
    wins: int
    fried: int
    penalty: int
    net: int


class PlayerTotal(NamedTuple):
    """One player's sums over every session."""

    player: str
    deals: int
    wins: int
    fried: int
    penalty: int
    net: int


class MoneyGroup(NamedTuple):
    """A player's net points over the sessions played at one stake (teams or not)."""

    stake: str
    teams: bool
    player: str
    net: int


class PairDifference(NamedTuple):
    """Pairwise settlement: ``a``'s penalty totals minus ``b``'s over the non-team
    pairwise sessions of one currency and stake (``a`` pays ``b`` when positive)."""

    currency: str | None
    stake: str
    a: str
    b: str
    difference: int


class WinnerFlow(NamedTuple):
    """Pay-the-winner settlement: ``player``'s net points with ``winner`` over the
    non-team sessions of one currency and stake (negative: ``player`` pays)."""

    currency: str | None
    stake: str
    player: str
    winner: str
    net: int


class DealNet(NamedTuple):
    """A player's net over a bucket of deals, ending at deal ``deal_no``."""

    deal_no: int
    player: str
    net: int


# --- derived caches (ledger.derived) ---


class Mark(NamedTuple):
    """How far a derived cache has taken in the entries, and by which code version."""

    last_entry_id: int
    version: str


class SessionChange(NamedTuple):
    """A session with new entries, and how many of them are voids or amends."""

    session_id: int
    corrections: int


class LiveDealPoints(NamedTuple):
    """One player's own points in the current version of one deal."""

    session_id: int
    deal_no: int
    player_id: int
    wins: int
    cards: int
    penalty: int
    net: int
    assist: str | None


class DealStatsRow(NamedTuple):
    """The cached deal statistics of one player in one session (``deal_stats``)."""

    session_id: int
    player_id: int
    deals: int
    assists: int
    worst_net: int | None
    worst_deal: int | None
    win_lead: int
    win_tail: int
    win_max: int
    loss_lead: int
    loss_tail: int
    loss_max: int
    cards_hist: str | None  # JSON; None when read without the distributions
    penalty_hist: str | None


class RatingDeal(NamedTuple):
    """One player's result in the current version of one deal, for the ratings."""

    entry_id: int
    player_id: int
    wins: int
    cards: int
    order: str | None  # the finishing order as JSON, when the deal has one


class StoredRating(NamedTuple):
    """A player's cached skill rating."""

    player_id: int
    mu: float
    sigma: float
    deals: int


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


class AuditRow(NamedTuple):
    """One line of the audit log; ``detail`` is JSON."""

    id: int
    at: str
    action: str
    session_id: int | None
    entry_id: int | None
    detail: str


# --- bulk import (ledger.bulk) ---


class StoredEntry(NamedTuple):
    """An entry already in the ledger, as an import compares it (facts as stored JSON)."""

    session_id: int
    kind: str
    deal_no: int
    facts: str | None
