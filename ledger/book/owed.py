"""What is still owed after payments, across sessions, per currency, exactly.

Each session's money is its settle nets (net points x stake, rounded to the currency
per session exactly as ``bigtwo settle`` rounds it: :func:`ledger.book.money.session_money`).
A payment from A to B of x moves A's balance up by x and B's down by x, so every
currency's balances still add up to zero and :func:`~ledger.core.settlement.payment_plan`
finds the fewest payments that clear them.

``owed`` adds the sessions of a range (by their start date) and the payments of the
range (by their own date).  ``settle`` shows what of each session is paid: a payment
for a session counts there; a payment against the balance as a whole is applied to
the payer's oldest debt first (the oldest session where the payer still owes and the
payee is still owed, as much as both allow, then the next), and what is left over
stays on account: in no session, so ``settle`` counts it only over every session or
a range of dates (the payments dated in it), where it agrees with ``owed``.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any, NamedTuple

from ledger.book.money import ZERO, session_money, session_nets
from ledger.book.payments import Paid, live_payments
from ledger.book.scope import Range, Scope
from ledger.core.settlement import (
    Payment,
    format_amount,
    payment_plan,
    round_to_coin,
)
from ledger.storage.rows import SessionRow
from ledger.storage.store import Ledger

Balances = dict[str, Decimal]


def session_balances(ledger: Ledger, sessions: list[SessionRow]) -> dict[int, Balances]:
    """Each session's settle nets, by session id."""
    nets = session_nets(ledger, Scope(sessions, False))
    return {s.id: session_money(s, {n: nets[s.id].get(n, ZERO).net for n in s.seats})
            for s in sessions}


class OwedBlock(NamedTuple):
    """One currency's outstanding balances and the fewest payments that clear them."""

    currency: str
    sessions: int
    payments: int  # payments of the range counted in
    paid: Balances  # what payments moved: + paid out, - received
    balances: Balances  # outstanding: + is owed money, - owes money
    plan: list[Payment]
    coin: Decimal | None = None
    exact: Balances | None = None  # with --round: the exact balances behind ``balances``

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "currency": self.currency, "sessions": self.sessions, "payments": self.payments,
            "paid": {k: format_amount(v) for k, v in self.paid.items()},
            "balances": {k: format_amount(v) for k, v in self.balances.items()},
            "plan": [p.to_dict() for p in self.plan],
        }
        if self.coin is not None and self.exact is not None:
            out["round"] = format_amount(self.coin)
            out["exact"] = {k: format_amount(v) for k, v in self.exact.items()}
            out["remainder"] = {k: format_amount(self.exact[k] - v) for k, v in self.balances.items()}
        return out


class Owed(NamedTuple):
    range: Range
    blocks: list[OwedBlock]

    def to_dict(self) -> dict[str, Any]:
        return {"range": self.range.to_dict(), "currencies": [b.to_dict() for b in self.blocks]}


def _ordered(balances: Balances) -> Balances:
    return dict(sorted(balances.items(), key=lambda kv: (-kv[1], kv[0])))


def owed(ledger: Ledger, sessions: list[SessionRow], within: Range,
         coin: Decimal | None = None) -> Owed:
    """Every player's outstanding balance over ``sessions`` and the payments dated
    ``within``, per currency, with the fewest payments to clear it."""
    totals: dict[str, Balances] = {}
    count: dict[str, int] = {}
    for s in sessions:
        count[s.currency or "PTS"] = count.get(s.currency or "PTS", 0) + 1
    by_id = {s.id: s for s in sessions}
    for sid, money in session_balances(ledger, sessions).items():
        cur = by_id[sid].currency or "PTS"
        block = totals.setdefault(cur, {})
        for name, amount in money.items():
            block[name] = block.get(name, Decimal(0)) + amount
    paid: dict[str, Balances] = {}
    counted: dict[str, int] = {}
    for p in live_payments(ledger, within):
        moved = paid.setdefault(p.currency, {})
        moved[p.payer] = moved.get(p.payer, Decimal(0)) + p.amount
        moved[p.payee] = moved.get(p.payee, Decimal(0)) - p.amount
        counted[p.currency] = counted.get(p.currency, 0) + 1
    blocks = []
    for cur in sorted(set(totals) | set(paid)):
        balances = dict(totals.get(cur, {}))
        for name, amount in paid.get(cur, {}).items():
            balances[name] = balances.get(name, Decimal(0)) + amount
        exact = _ordered(balances)
        shown = exact
        if coin is not None:
            shown = _ordered(round_to_coin(exact, coin))
        nonzero = {k: v for k, v in shown.items() if v}
        blocks.append(OwedBlock(cur, count.get(cur, 0), counted.get(cur, 0),
                                dict(sorted(paid.get(cur, {}).items())), shown,
                                payment_plan(nonzero), coin, exact if coin is not None else None))
    return Owed(within, blocks)


class Applied(NamedTuple):
    """What payments did to some sessions of one currency."""

    paid: Balances  # + paid out, - received, within those sessions
    on_account: Balances  # payments against the whole balance that no debt took


def applied(ledger: Ledger, sessions: list[SessionRow], currency: str,
            account_within: Range | None) -> Applied:
    """The payments that count in ``sessions`` (one currency): a session's own, and
    the share of each payment against the whole balance that reaches them (oldest
    debt first, over every session of the ledger in that currency); with
    ``account_within`` also what no debt took of the payments dated in that range
    (an empty range: all of them)."""
    payments = [p for p in live_payments(ledger) if p.currency == currency]
    if not payments:
        return Applied({}, {})
    every = sorted((s for s in ledger.journal.sessions() if (s.currency or "PTS") == currency),
                   key=lambda s: (s.started_at, s.id))
    outstanding = session_balances(ledger, every)
    moved: dict[int, Balances] = {s.id: {} for s in every}
    account: Balances = {}
    counted: Balances = {}  # the part of ``account`` from payments dated in account_within

    def move(sid: int, p: Paid, amount: Decimal) -> None:
        for name, sign in ((p.payer, 1), (p.payee, -1)):
            outstanding[sid][name] = outstanding[sid].get(name, Decimal(0)) + sign * amount
            moved[sid][name] = moved[sid].get(name, Decimal(0)) + sign * amount

    for p in payments:
        if p.session_id is not None and p.session_id in moved:
            move(p.session_id, p, p.amount)
    for p in payments:
        if p.session_id is not None:
            continue
        left = p.amount
        for s in every:
            if not left:
                break
            owes = -outstanding[s.id].get(p.payer, Decimal(0))
            due = outstanding[s.id].get(p.payee, Decimal(0))
            take = min(left, owes, due)
            if take > 0:
                move(s.id, p, take)
                left -= take
        if left:
            inside = account_within is not None and (not account_within
                                                     or (p.dated and account_within.holds(p.day)))
            for book in (account, counted) if inside else (account,):
                book[p.payer] = book.get(p.payer, Decimal(0)) + left
                book[p.payee] = book.get(p.payee, Decimal(0)) - left
    wanted = {s.id for s in sessions}
    paid: Balances = {}
    for sid in wanted & set(moved):
        for name, amount in moved[sid].items():
            paid[name] = paid.get(name, Decimal(0)) + amount
    for name, amount in counted.items():
        paid[name] = paid.get(name, Decimal(0)) + amount
    return Applied({k: v for k, v in paid.items() if v}, {k: v for k, v in account.items() if v})


def with_payments(ledger: Ledger, st: Any, scope: Scope) -> Any:
    """``settle``'s :class:`~ledger.book.reports.Settlement` with what is paid of it
    (unchanged when the ledger holds no payment in its currency)."""
    within = scope.range if (scope.everything or scope.range) else None
    done = applied(ledger, scope.sessions, st.currency, within)
    if not done.paid and not any(p.currency == st.currency for p in live_payments(ledger)):
        return st
    return st._replace(paid=done.paid)


def recorded_for(ledger: Ledger, sessions: list[SessionRow]) -> list[Paid]:
    """The live payments recorded for these sessions (``--session ID``), oldest first;
    payments against the whole balance are for no session and not among them."""
    ids = {s.id for s in sessions}
    return [p for p in live_payments(ledger) if p.session_id in ids]
