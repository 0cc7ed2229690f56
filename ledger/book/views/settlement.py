"""A settlement with each session's own working, :class:`SettleView` (see
:mod:`ledger.book.views`)."""

from decimal import Decimal
from typing import TYPE_CHECKING, Any, NamedTuple

from ledger.book.reports import Settlement, Working
from ledger.core.settlement import format_amount
from ledger.storage.rows import SessionRow

if TYPE_CHECKING:
    from ledger.book.payments import Paid
    from ledger.core.paycode import PayCode, PayId


class WorkingRow(NamedTuple):
    """One line of a session's working: a player (a team in teams mode), their penalty
    total ``s``, ``n·s`` (pairwise and teams only) and their net points."""

    name: str
    s: int
    n_s: int | None
    net_points: int

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"name": self.name, "s": self.s, "net_points": self.net_points}
        if self.n_s is not None:
            out["n_s"] = self.n_s
        return out


class SessionWorking(NamedTuple):
    """One session's settlement arithmetic, as its kind works it: ``pairwise`` and
    ``teams`` net = Σs − n·s; ``pay-the-winner`` each loser pays the winner their
    penalty; ``ranked`` losers pay the winner by rank of cards left (a point is
    1/``points_per_unit`` of a unit)."""

    working: Working
    points_per_unit: int
    rows: list[WorkingRow]

    @property
    def method(self) -> str:
        return self.working.method

    @property
    def session(self) -> SessionRow:
        return self.working.session

    @property
    def tables(self) -> list["SessionWorking"]:
        """Where the seats changed: the working of each line-up, over the deals it played."""
        return [session_working(t) for t in self.working.tables]

    def to_dict(self) -> dict[str, Any]:
        out = {**self.working.to_dict(), "points_per_unit": self.points_per_unit,
               "rows": [r.to_dict() for r in self.rows]}
        if self.working.tables:
            out["tables"] = [t.to_dict() for t in self.tables]
        return out


def session_working(w: Working) -> SessionWorking:
    from ledger.book.reports import WINNER_PAID

    per_unit = 1
    if w.method == "ranked":
        from ledger.core.rules import rules_from_dict

        per_unit = rules_from_dict(w.session.rules).points_per_unit
    if w.method in WINNER_PAID or w.tables:
        rows = [WorkingRow(k, v, None, w.net_points[k]) for k, v in w.totals.items()]
    else:
        rows = [WorkingRow(k, v, w.n * v, w.sum_s - w.n * v) for k, v in w.totals.items()]
    return SessionWorking(w, per_unit, rows)


class PaymentProgress(NamedTuple):
    """One of the fewest payments, with how much of it is paid and what is outstanding."""

    payer: str
    payee: str
    amount: Decimal
    paid: Decimal
    outstanding: Decimal

    def to_dict(self) -> dict[str, Any]:
        return {"from": self.payer, "to": self.payee, "amount": format_amount(self.amount),
                "paid": format_amount(self.paid), "outstanding": format_amount(self.outstanding)}


def progress(st: Settlement) -> list[PaymentProgress]:
    """How much of each of the fewest payments is paid: what each payer has paid out and
    each payee received (the settlement's ``paid``: a session's own payments and the
    share of payments against the whole balance that reached it) is given to the
    payments in their order, as much as both allow; the outstanding amounts then add up
    to what the players still owe (``still to pay``) when every payment went from one
    who owed to one who was owed."""
    paid = st.paid or {}
    out_of = {k: v for k, v in paid.items() if v > 0}  # paid out
    into = {k: -v for k, v in paid.items() if v < 0}  # received
    rows = []
    for p in st.payments:
        take = max(Decimal(0), min(p.amount, out_of.get(p.payer, Decimal(0)),
                                   into.get(p.payee, Decimal(0))))
        if take:
            out_of[p.payer] -= take
            into[p.payee] -= take
        zero = p.amount * 0  # 0.00: the amount's own decimal places, for paid too
        rows.append(PaymentProgress(p.payer, p.payee, p.amount, take + zero, p.amount - take))
    return rows


class SettleView(NamedTuple):
    """A settlement (:class:`ledger.book.reports.Settlement`: nets, pair by pair, the
    fewest payments, coins) with each session's working worked out, how much of each
    of the fewest payments is paid (``progress``) and the payments recorded for its
    sessions (``recorded``, oldest first); for the scorekeeper, each payment's code
    (``pay_codes``, in the payments' order: None where the payee has no pay id that fits,
    :func:`ledger.book.pay_ids.pay_codes`)."""

    settlement: Settlement
    working: list[SessionWorking]
    recorded: tuple["Paid", ...] = ()
    pay_codes: tuple["PayCode | None", ...] = ()

    @property
    def progress(self) -> list[PaymentProgress]:
        return progress(self.settlement)

    @property
    def currency(self) -> str:
        return self.settlement.currency

    def remainder(self) -> dict[str, Decimal]:
        return self.settlement.remainder()

    def to_dict(self) -> dict[str, Any]:
        data = {**self.settlement.to_dict(), "sessions": self.settlement.session_count,
                "working": [w.to_dict() for w in self.working],
                "progress": [p.to_dict() for p in self.progress],
                "recorded": [p.to_dict() for p in self.recorded]}
        for payment, code in zip(data["payments"], self.pay_codes, strict=False):
            if code is not None:
                payment["pay_code"] = code.to_dict()
        return data


def settle_view(settlement: Settlement, recorded: "tuple[Paid, ...] | list[Paid]" = (),
                pay_ids: "dict[str, list[PayId]] | None" = None) -> SettleView:
    """The :class:`SettleView` of a settlement (rounded to coins or not) and the
    payments recorded for its sessions (:func:`ledger.book.owed.recorded_for`); with
    the players' ``pay_ids`` (the scorekeeper's own view only), each payment's code."""
    view = SettleView(settlement, [session_working(w) for w in settlement.working],
                      tuple(recorded))
    if not pay_ids:
        return view
    from ledger.book.pay_ids import pay_codes

    codes = pay_codes(settlement, pay_ids, [p.outstanding for p in view.progress])
    return view._replace(pay_codes=tuple(codes))
