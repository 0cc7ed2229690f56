"""``standings --by month|year`` (:class:`League`) and the sessions' history
(:class:`History`) (see :mod:`ledger.book.views`)."""

from decimal import Decimal
from typing import TYPE_CHECKING, Any, NamedTuple

from ledger.core.i18n import _
from ledger.core.settlement import format_amount
from ledger.storage.rows import SessionRow
from ledger.storage.store import Ledger

if TYPE_CHECKING:
    from ledger.book.scope import Scope
    from ledger.book.stats import HistoryRow


class LeagueRow(NamedTuple):
    player: str
    sessions: int  # sessions the player sat in during the period
    deals: int
    wins: int
    net: int
    money: Decimal

    def to_dict(self) -> dict[str, Any]:
        return {"player": self.player, "sessions": self.sessions, "deals": self.deals,
                "wins": self.wins, "net": self.net, "money": format_amount(self.money)}


class LeaguePeriod(NamedTuple):
    period: str  # YYYY-MM or YYYY, local time
    currency: str
    players: list[LeagueRow]  # by money, then net points, then name

    def to_dict(self) -> dict[str, Any]:
        return {"period": self.period, "currency": self.currency,
                "players": [p.to_dict() for p in self.players]}


class League(NamedTuple):
    """``standings --by month|year``: one table per period, players by net money."""

    by: str
    periods: list[LeaguePeriod]

    def to_dict(self) -> list[dict[str, Any]]:  # a JSON array, as ``--by --json`` has been
        return [p.to_dict() for p in self.periods]


LEAGUE_PERIODS = {"month": 7, "year": 4}  # characters of YYYY-MM-DD kept


def league(ledger: Ledger, by: str) -> League:
    from ledger.book.clock import local_day
    from ledger.book.reports import settle, standings
    from ledger.core.errors import InputError

    if by not in LEAGUE_PERIODS:
        raise InputError(_("--by takes month or year, not {value!r}").format(value=by))
    width = LEAGUE_PERIODS[by]
    groups: dict[str, list[SessionRow]] = {}
    for s in ledger.journal.sessions():
        if s.deals:
            groups.setdefault(local_day(s.started_at)[:width], []).append(s)
    if not groups:
        raise InputError(_("no deals recorded yet: nothing to put in a league table"))
    periods = []
    for period, group in groups.items():
        st = standings(ledger, group)
        money = settle(ledger, group)
        rows = [LeagueRow(p.name, sum(p.name in s.seats for s in group), p.deals, p.wins, p.net,
                          money.nets.get(p.name, Decimal(0))) for p in st.players]
        rows.sort(key=lambda r: (-r.money, -r.net, r.player))
        periods.append(LeaguePeriod(period, money.currency, rows))
    return League(by, periods)


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
