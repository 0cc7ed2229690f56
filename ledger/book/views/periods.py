"""The sessions' history (:class:`History`) (see :mod:`ledger.book.views`); the league
table of ``standings --by month|year`` is :mod:`ledger.book.league`."""

from decimal import Decimal
from typing import TYPE_CHECKING, Any, NamedTuple

from ledger.storage.store import Ledger

if TYPE_CHECKING:
    from ledger.book.scope import Scope
    from ledger.book.stats import HistoryRow


class HistoryLine(NamedTuple):
    """One session of the history, with its players' money best first."""

    row: "HistoryRow"
    money: list[tuple[str, Decimal]]

    def to_dict(self) -> dict[str, Any]:
        return self.row.to_dict()


class History(NamedTuple):
    """Sessions, oldest first: date, name, players, rules, deals, money per player."""

    lines: list[HistoryLine]

    def to_dict(self) -> list[dict[str, Any]]:  # a JSON array, as ``history --json`` has been
        return [line.to_dict() for line in self.lines]


def history(ledger: Ledger, scope: "Scope") -> History:
    from ledger.book.stats import history as rows

    return History([HistoryLine(r, sorted(r.money.items(), key=lambda kv: (-kv[1], kv[0])))
                    for r in rows(ledger, scope)])
