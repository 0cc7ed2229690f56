"""A settlement with each session's own working, :class:`SettleView` (see
:mod:`ledger.book.views`)."""

from decimal import Decimal
from typing import Any, NamedTuple

from ledger.book.reports import Settlement, Working
from ledger.storage.rows import SessionRow


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

    def to_dict(self) -> dict[str, Any]:
        return {**self.working.to_dict(), "points_per_unit": self.points_per_unit,
                "rows": [r.to_dict() for r in self.rows]}


def session_working(w: Working) -> SessionWorking:
    from ledger.book.reports import WINNER_PAID

    per_unit = 1
    if w.method == "ranked":
        from ledger.core.rules import rules_from_dict

        per_unit = rules_from_dict(w.session.rules).points_per_unit
    if w.method in WINNER_PAID:
        rows = [WorkingRow(k, v, None, w.net_points[k]) for k, v in w.totals.items()]
    else:
        rows = [WorkingRow(k, v, w.n * v, w.sum_s - w.n * v) for k, v in w.totals.items()]
    return SessionWorking(w, per_unit, rows)


class SettleView(NamedTuple):
    """A settlement (:class:`ledger.book.reports.Settlement`: nets, pair by pair, the
    fewest payments, coins) with each session's working worked out."""

    settlement: Settlement
    working: list[SessionWorking]

    @property
    def currency(self) -> str:
        return self.settlement.currency

    def remainder(self) -> dict[str, Decimal]:
        return self.settlement.remainder()

    def to_dict(self) -> dict[str, Any]:
        return {**self.settlement.to_dict(), "sessions": self.settlement.session_count,
                "working": [w.to_dict() for w in self.working]}


def settle_view(settlement: Settlement) -> SettleView:
    """The :class:`SettleView` of a settlement (rounded to coins or not)."""
    return SettleView(settlement, [session_working(w) for w in settlement.working])
