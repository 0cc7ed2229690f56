"""Statistics and history over a choice of sessions, as plain data.

Sums come from the per-session totals the store keeps; what needs the deals one
by one (assists, the worst deal, streaks) comes from the per-session digests
(ledger/book/digest.py); skill from the rating cache (ledger/book/ratings.py).  So a
decade of play costs a pass over a few thousand sessions, not a million deals.

Money per player per session is net points x stake (half of it in teams
sessions), rounded per session exactly as ``bigtwo settle`` does.  Amounts in
different currencies are never added: money is kept per currency.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from ledger.book import digest, ratings
from ledger.book.money import (
    ZERO,
    Money,
    Nets,
    Share,
    add_money,
    head_to_head,
    money_dict,
    session_money,
    session_nets,
)
from ledger.book.scope import Scope, day_of
from ledger.core.errors import InputError
from ledger.core.i18n import _
from ledger.core.settlement import format_amount, quantum, round_amount
from ledger.storage.cache_rows import DealStatsRow
from ledger.storage.rows import SessionRow
from ledger.storage.store import Ledger

REGULAR_SHARE = 4  # a regular plays in at least 1/4 of the deals


# --- history ------------------------------------------------------------------------


@dataclass
class HistoryRow:
    session: SessionRow
    deals: int
    net: dict[str, int]
    money: dict[str, Decimal]

    def to_dict(self) -> dict[str, Any]:
        s = self.session.to_dict()
        return {
            "id": s["id"], "date": day_of(self.session), "started_at": s["started_at"],
            "name": s["name"], "players": s["players"], "rules": s["rules"], "teams": s["teams"],
            "stake": s["stake"], "currency": s["currency"] or "PTS", "deals": self.deals,
            "net": self.net, "money": {n: format_amount(v) for n, v in self.money.items()},
        }


def history(ledger: Ledger, scope: Scope) -> list[HistoryRow]:
    """Each session's deals and every seated player's net points and money."""
    nets = session_nets(ledger, scope)
    rows = []
    for s in scope.sessions:
        net = {name: nets[s.id].get(name, ZERO).net for name in s.seats}
        deals = max((t.deals for t in nets[s.id].values()), default=0)
        rows.append(HistoryRow(s, deals, net, session_money(s, net)))
    return rows


def chart_values(ledger: Ledger, scope: Scope, money: bool) -> list[tuple[SessionRow, dict[str, float]]]:
    """Each session's money (or net points) per player as floats, for charts only.

    Quick: a session whose stake needs no rounding is net x stake straight away.
    """
    nets = session_nets(ledger, scope)
    shares: dict[tuple[Any, ...], Share] = {}
    out = []
    for s in scope.sessions:
        points = {n: nets[s.id].get(n, ZERO).net for n in s.seats}
        share = Share.of(s, shares)
        if not money:
            values = {n: float(v) for n, v in points.items()}
        elif share.exact:
            values = {n: v * share.rate for n, v in points.items()}
        else:
            values = {n: float(v) for n, v in session_money(s, points).items()}
        out.append((s, values))
    return out


# --- statistics -------------------------------------------------------------------------


@dataclass(frozen=True)
class SessionResult:
    """A player's result in one session (best or worst session)."""

    session: int
    date: str
    net: int
    money: Decimal
    currency: str

    def to_dict(self) -> dict[str, Any]:
        return {"session": self.session, "date": self.date, "net": self.net,
                "money": format_amount(self.money), "currency": self.currency}


@dataclass(frozen=True)
class Loss:
    """The biggest single loss: one deal's net points and money."""

    session: int
    deal: int
    date: str
    net: int
    money: Decimal
    currency: str

    def to_dict(self) -> dict[str, Any]:
        return {"session": self.session, "deal": self.deal, "date": self.date, "net": self.net,
                "money": format_amount(self.money), "currency": self.currency}


def _rate(part: int, whole: int) -> float | None:
    return None if whole == 0 else round(part / whole, 4)


@dataclass
class PlayerStats:
    name: str
    sessions: int = 0
    deals: int = 0
    wins: int = 0
    fried: int = 0
    penalty: int = 0
    net: int = 0
    assists: int = 0
    money: Money = field(default_factory=dict)
    best: SessionResult | None = None
    worst: SessionResult | None = None
    biggest_loss: Loss | None = None
    runs: digest.Runs = field(default_factory=digest.Runs)
    rating: ratings.Rating | None = None

    @property
    def win_rate(self) -> float | None:
        return _rate(self.wins, self.deals)

    @property
    def fry_rate(self) -> float | None:
        return _rate(self.fried, self.deals)

    @property
    def avg_penalty(self) -> float | None:
        return None if self.deals == 0 else round(self.penalty / self.deals, 2)

    def to_dict(self) -> dict[str, Any]:
        def maybe(x: Any) -> Any:
            return None if x is None else x.to_dict()

        return {
            "name": self.name, "sessions": self.sessions, "deals": self.deals,
            "wins": self.wins, "win_rate": self.win_rate, "fried": self.fried,
            "fry_rate": self.fry_rate, "penalty": self.penalty, "avg_penalty": self.avg_penalty,
            "net": self.net, "assists": self.assists, "money": money_dict(self.money),
            "best_session": maybe(self.best), "worst_session": maybe(self.worst),
            "biggest_loss": maybe(self.biggest_loss),
            "streaks": {"longest_win": self.runs.win_max,
                        "longest_without_win": self.runs.loss_max,
                        "current": self.runs.current},
            "rating": maybe(self.rating),
        }


@dataclass
class Stats:
    scope: Scope
    deals: int
    players: list[PlayerStats]
    regulars: list[str]
    head_to_head: dict[tuple[str, str], Money]  # (a, b): money a won from b

    def to_dict(self) -> dict[str, Any]:
        return {
            "scope": {**self.scope.to_dict(), "deals": self.deals},
            "players": [p.to_dict() for p in self.players],
            "regulars": self.regulars,
            "head_to_head": [
                {"player": a, "opponent": b, "won": money_dict(m)}
                for (a, b), m in sorted(self.head_to_head.items())
            ],
        }


@dataclass
class _Work:
    """One player's running numbers while the sessions are added up."""

    points: dict[Share, int] = field(default_factory=dict)  # net points per exact share
    rounded: Money = field(default_factory=dict)  # money of sessions that needed rounding
    best: tuple[float, SessionRow] | None = None
    worst: tuple[float, SessionRow] | None = None

    def money(self) -> Money:
        out = dict(self.rounded)
        for share, pts in self.points.items():
            q = quantum(share.currency)
            amount = Decimal(pts) * share.amount
            add_money(out, share.currency, amount if q is None else amount.quantize(q))
        return out


def build(
    ledger: Ledger, scope: Scope, player: str | None = None,
    notice: Callable[[str], None] | None = None,
) -> Stats:
    """Every statistic of ``scope``; ``player`` narrows the players shown.

    Money is added as net points per (currency, stake) and multiplied once, which
    gives settle's session-by-session money exactly whenever no session needs
    rounding; the sessions that do are rounded one by one, as settle does.
    """
    if player is not None:  # the ledger's spelling; an unknown name is an InputError
        player = ledger.player_name(player)
    one_currency = len(scope.currencies) == 1
    nets = session_nets(ledger, scope)
    shares: dict[tuple[Any, ...], Share] = {}
    lines: dict[str, PlayerStats] = {}
    work: dict[str, _Work] = {}
    total_deals = 0
    for s in scope.sessions:
        share = Share.of(s, shares)
        rows = nets[s.id]
        total_deals += max((t.deals for t in rows.values()), default=0)
        money = None
        if not share.exact:
            money = session_money(s, {n: rows.get(n, ZERO).net for n in s.seats})
        for name in s.seats:
            line = lines.get(name)
            if line is None:
                line, work[name] = lines.setdefault(name, PlayerStats(name)), _Work()
            w = work[name]
            deals, wins, fried, penalty, points = rows.get(name, ZERO)
            line.sessions += 1
            line.deals += deals
            line.wins += wins
            line.fried += fried
            line.penalty += penalty
            line.net += points
            if money is None:
                w.points[share] = w.points.get(share, 0) + points
            else:
                add_money(w.rounded, share.currency, money[name])
            if deals:
                key = points * share.rate if one_currency else points
                if w.best is None or key > w.best[0]:
                    w.best = (key, s)
                if w.worst is None or key < w.worst[0]:
                    w.worst = (key, s)
    for name, line in lines.items():
        w = work[name]
        line.money = w.money()
        line.best = w.best and _result(w.best[1], name, nets)
        line.worst = w.worst and _result(w.worst[1], name, nets)
    _add_digests(ledger, scope, lines, shares, one_currency)
    for name, rating in _ratings(ledger, notice).items():
        if name in lines:
            lines[name].rating = rating
    regulars = sorted(n for n, p in lines.items()
                      if total_deals and p.deals * REGULAR_SHARE >= total_deals)
    h2h = head_to_head(ledger, scope, nets)
    if player is not None:
        if player not in lines:
            raise InputError(_("{player} did not play in {scope}").format(
                player=player, scope=scope.describe()))
        lines = {player: lines[player]}
        h2h = {k: v for k, v in h2h.items() if k[0] == player}
    order = sorted(lines.values(), key=lambda p: (-_total(p, one_currency), p.name))
    return Stats(scope, total_deals, order, regulars, h2h)


def _result(s: SessionRow, name: str, nets: Nets) -> SessionResult:
    points = {n: nets[s.id].get(n, ZERO).net for n in s.seats}
    return SessionResult(s.id, day_of(s), points[name], session_money(s, points)[name],
                         s.currency or "PTS")


def _total(p: PlayerStats, one_currency: bool) -> Decimal | int:
    return sum(p.money.values(), Decimal(0)) if one_currency else p.net


def _ratings(ledger: Ledger, notice: Callable[[str], None] | None) -> dict[str, ratings.Rating]:
    names = ledger.journal.shown_names()
    return {names[pid]: r for pid, r in ratings.current(ledger, notice).items() if pid in names}


def _add_digests(ledger: Ledger, scope: Scope, lines: dict[str, PlayerStats],
                 shares: dict[tuple[Any, ...], Share], one_currency: bool) -> None:
    """Assists, the biggest loss and streaks (runs folded in session order)."""
    names = ledger.journal.shown_names()
    per_session: dict[int, list[DealStatsRow]] = {}
    for row in digest.session_rows(ledger, scope.ids):
        per_session.setdefault(row.session_id, []).append(row)
    runs: dict[str, digest.RunsTuple] = {}
    worst: dict[str, tuple[float, SessionRow, int, int]] = {}
    for s in scope.sessions:
        share = Share.of(s, shares)
        for r in per_session.get(s.id, ()):
            name = names.get(r.player_id, "")
            line = lines.get(name)
            if line is None:
                continue
            line.assists += r.assists
            session_runs = (r.deals, r.win_lead, r.win_tail, r.win_max, r.loss_lead, r.loss_tail,
                            r.loss_max)
            runs[name] = digest.merge_runs(runs.get(name, digest.NO_RUNS), session_runs)
            if r.worst_net is not None and r.worst_net < 0 and r.worst_deal is not None:
                key = r.worst_net * share.rate if one_currency else r.worst_net
                if name not in worst or key < worst[name][0]:
                    worst[name] = (key, s, r.worst_net, r.worst_deal)
    for name, folded in runs.items():
        lines[name].runs = digest.Runs(*folded)
    for name, (_key, s, net, deal_no) in worst.items():
        share = Share.of(s, shares)
        money = round_amount(net * share.amount, share.currency)
        lines[name].biggest_loss = Loss(s.id, deal_no, day_of(s), net, money, share.currency)
