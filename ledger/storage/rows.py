"""The records the storage parts return and take: one type per row shape.

Every read returns named tuples, so a caller reads ``row.net``, never ``row[6]``,
and a row cannot be changed (``row._replace(...)`` makes a new one).  Long streams
(the statistics reads, millions of rows over a big ledger) are made with
:func:`typed`, which builds each named tuple in C (no Python call per row).

The rows that only the statistics caches, the self-check and bulk import read are
in :mod:`ledger.storage.cache_rows` and :mod:`ledger.storage.raw_rows`, so that
`bigtwo deal` does not define them.  Named tuples, not dataclasses: `bigtwo deal`
loads this module, and a frozen
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
    start_uuid: str = ""  # the uuid of the session's start entry
    # the seats at the start; ``seats`` adds each player who joined later (``seat join``)
    first_seats: tuple[str, ...] = ()

    @property
    def started_seats(self) -> tuple[str, ...]:
        """The line-up the session started with (``seats`` when not read from a ledger)."""
        return self.first_seats or self.seats

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


class SessionListRow(NamedTuple):
    """A session as a list of sessions shows it (:meth:`SessionReads.session_page
    <ledger.storage.sessions.SessionReads.session_page>`): a :class:`SessionRow` without
    its frozen rules (their name only) and its start's uuid."""

    id: int
    uuid: str
    name: str
    rules_name: str
    stake: str
    currency: str | None
    teams: bool
    started_at: str
    ended_at: str | None
    seats: tuple[str, ...]
    deals: int

    def to_dict(self) -> dict[str, Any]:
        """As :meth:`SessionRow.to_dict` (the rule set's name)."""
        return {
            "id": self.id, "uuid": self.uuid, "name": self.name, "rules": self.rules_name,
            "stake": self.stake, "currency": self.currency, "teams": self.teams,
            "started_at": self.started_at, "ended_at": self.ended_at,
            "players": list(self.seats), "deals": self.deals,
        }


class EntryRow(NamedTuple):
    """One entry.  A session's own action (``start``, ``end``, ``reopen``, ``undo`` of the
    start) has ``seq`` and ``deal_no`` 0: it has none (NULL in the file)."""

    id: int
    uuid: str
    session_id: int
    seq: int
    kind: str
    deal_no: int
    facts: dict[str, Any] | None
    created_at: str
    undoes: str | None = None  # the uuid of the entry an undo took back

    @property
    def is_deal(self) -> bool:
        """Whether it is about a deal (deal, amend, void), not the session itself."""
        return self.seq != 0

    def to_dict(self) -> dict[str, Any]:
        """The entry as JSON-ready data (export, ``log --json``)."""
        if self.kind == "seat":
            return {"uuid": self.uuid, "kind": self.kind, "facts": self.facts,
                    "at": self.created_at, "undoes": self.undoes}
        if not self.is_deal:
            return {"uuid": self.uuid, "kind": self.kind, "at": self.created_at,
                    "undoes": self.undoes}
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
