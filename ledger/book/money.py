"""Money over sessions, as settle counts it: per session, per pair, per currency.

Money per player per session is net points x stake (half of it in teams sessions),
rounded per session exactly as ``bigtwo settle`` does.  Amounts in different
currencies are never added: money is kept per currency (:data:`Money`).
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import Any, NamedTuple

from ledger.book.scope import Scope
from ledger.core.scoring import teams_of
from ledger.core.settlement import format_amount, quantum, round_amount, round_nets
from ledger.storage.rows import SessionRow
from ledger.storage.store import Ledger

Money = dict[str, Decimal]  # amount per currency


def money_text(money: Money, signed: bool = True) -> str:
    if not money:
        return "0"
    parts = []
    for currency, amount in sorted(money.items()):
        text = format_amount(amount)
        if signed and not text.startswith("-") and text != "0":
            text = "+" + text
        parts.append(f"{text} {currency}")
    return ", ".join(parts)


def money_dict(money: Money) -> dict[str, str]:
    return {c: format_amount(v) for c, v in sorted(money.items())}


def add_money(money: Money, currency: str, amount: Decimal) -> None:
    money[currency] = money.get(currency, Decimal(0)) + amount


def session_money(s: SessionRow, nets: dict[str, int]) -> dict[str, Decimal]:
    """Each player's money in one session: net x stake (x 1/2 in teams), rounded as settle."""
    stake = Decimal(s.stake)
    if s.teams:
        stake /= 2
    return round_nets({n: Decimal(v) * stake for n, v in nets.items()}, s.currency or "PTS")


class Sums(NamedTuple):
    """One player's sums over one session's deals."""

    deals: int
    wins: int
    fried: int
    penalty: int
    net: int


ZERO = Sums(0, 0, 0, 0, 0)

Nets = dict[int, dict[str, Sums]]


def session_nets(ledger: Ledger, scope: Scope) -> Nets:
    """The sums per session id and player name."""
    out: Nets = {s.id: {} for s in scope.sessions}
    for t in ledger.totals.by_session(scope.ids):
        if t.session_id in out:
            out[t.session_id][t.player] = Sums(t.deals, t.wins, t.fried, t.penalty, t.net)
    return out


@dataclass(frozen=True)
class Share:
    """Money per net point in a session: the stake, half of it for each partner in teams."""

    currency: str
    amount: Decimal
    exact: bool  # every net x amount is a whole amount of the currency: nothing to round
    rate: float  # the amount as a float, only to rank results (never to compute money)

    @classmethod
    def of(cls, s: SessionRow, cache: dict[tuple[Any, ...], Share]) -> Share:
        key = (s.currency, s.stake, s.teams)
        if key not in cache:
            currency = s.currency or "PTS"
            amount = Decimal(s.stake) / (2 if s.teams else 1)
            q = quantum(currency)
            cache[key] = cls(currency, amount, q is None or amount == amount.quantize(q),
                             float(amount))
        return cache[key]


def head_to_head(
    ledger: Ledger, scope: Scope, nets: Nets
) -> dict[tuple[str, str], Money]:
    """Money each player won from each other player, pair by pair, as settle counts it.

    Pairwise: a pays b the difference of their penalty totals.  Pay the winner:
    each loser's flow with each winner.  Teams: the team flow, each member paying
    a quarter to each member of the other team.  Points are added per currency
    and stake (in SQL) and turned into money once.
    """
    points: dict[tuple[str, Decimal], dict[tuple[str, str], int]] = {}

    def pay(cur: str | None, share: Decimal, payer: str, payee: str, amount: int) -> None:
        if amount and payer != payee:
            a, b = sorted((payer, payee))
            group = points.setdefault((cur or "PTS", share), {})
            group[(a, b)] = group.get((a, b), 0) + (amount if payer == a else -amount)

    for d in ledger.totals.pair_differences(scope.ids):
        pay(d.currency, Decimal(d.stake), d.a, d.b, d.difference)
    for f in ledger.totals.winner_flows(scope.ids):
        pay(f.currency, Decimal(f.stake), f.player, f.winner, -f.net)
    for s in scope.sessions:
        if s.teams:
            penalty = {n: nets[s.id].get(n, ZERO).penalty for n in s.seats}
            (a1, a2), (b1, b2) = teams_of(s.seats)
            diff = penalty[a1] + penalty[a2] - penalty[b1] - penalty[b2]
            for a in (a1, a2):
                for b in (b1, b2):
                    pay(s.currency, Decimal(s.stake) / 4, a, b, diff)
    won: dict[tuple[str, str], Money] = {}
    for (cur, share), group in points.items():
        for (a, b), pts in group.items():
            add_money(won.setdefault((b, a), {}), cur, pts * share)
            add_money(won.setdefault((a, b), {}), cur, -pts * share)
    return {k: {c: round_amount(v, c) for c, v in m.items() if v}
            for k, m in won.items() if any(m.values())}
