"""``standings --by month|year``: a league table per period and currency, as plain data.

Sessions are grouped by the month (or year) of their start date and by currency: money
in two currencies is never added, so a period with HKD and USD sessions has a block
for each.  ``--min-deals N`` marks who played at least N deals in the block
(qualified); the qualified are ranked first, the others after them, each by money,
then net points.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any, NamedTuple

from ledger.book import reports
from ledger.book.scope import Scope, day_of
from ledger.core.errors import InputError
from ledger.core.i18n import _
from ledger.core.settlement import format_amount
from ledger.storage.store import Ledger

PERIODS = {"month": 7, "year": 4}  # the length of the date's prefix that names a period


class LeagueRow(NamedTuple):
    player: str
    sessions: int  # attendance: sessions of the block the player sat in
    deals: int
    wins: int
    net: int
    money: Decimal
    qualified: bool | None  # None without --min-deals

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"player": self.player, "sessions": self.sessions,
                               "deals": self.deals, "wins": self.wins, "net": self.net,
                               "money": format_amount(self.money)}
        if self.qualified is not None:
            out["qualified"] = self.qualified
        return out


class LeagueBlock(NamedTuple):
    period: str  # 2024-03 or 2024
    currency: str
    players: list[LeagueRow]

    def to_dict(self) -> dict[str, Any]:
        return {"period": self.period, "currency": self.currency,
                "players": [p.to_dict() for p in self.players]}


class League(NamedTuple):
    by: str
    min_deals: int | None
    blocks: list[LeagueBlock]

    def to_dict(self) -> list[dict[str, Any]]:
        return [b.to_dict() for b in self.blocks]


def league(ledger: Ledger, scope: Scope, by: str, min_deals: int | None = None) -> League:
    if by not in PERIODS:
        raise InputError(_("--by takes month or year, not {value!r}").format(value=by))
    width = PERIODS[by]
    groups: dict[tuple[str, str], list[Any]] = {}
    for s in scope.sessions:
        if s.deals:
            groups.setdefault((day_of(s)[:width], s.currency or "PTS"), []).append(s)
    if not groups:
        raise InputError(_("no deals recorded yet: nothing to put in a league table"))
    blocks = []
    for (period, currency), group in sorted(groups.items()):
        st = reports.standings(ledger, group)
        money = reports.settle(ledger, group)
        rows = [LeagueRow(p.name, sum(p.name in s.seats for s in group), p.deals, p.wins, p.net,
                          money.nets.get(p.name, Decimal(0)),
                          None if min_deals is None else p.deals >= min_deals)
                for p in st.players]
        rows.sort(key=lambda r: (r.qualified is False, -r.money, -r.net, r.player))
        blocks.append(LeagueBlock(period, currency, rows))
    return League(by, min_deals, blocks)
