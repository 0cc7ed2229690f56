"""The record ``bigtwo deal`` prints: :class:`AfterDeal` (see :mod:`ledger.book.views`).

On the deal path: only what recording a deal already loads is imported here.
"""

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

from ledger.book.reports import Standings
from ledger.core.dealer import Turn
from ledger.core.scoring import DealScore
from ledger.storage.rows import EntryRow, SessionRow
from ledger.storage.store import Ledger

if TYPE_CHECKING:
    from ledger.book.actions import Recorded
    from ledger.core.scoring import Deal


class PlayerPoints(NamedTuple):
    """One player's result in one deal: cards left, the penalty they count for, net."""

    name: str
    cards: int
    penalty: int
    win: bool
    fried: bool
    net: int

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "cards": self.cards, "win": self.win, "fried": self.fried,
                "penalty": self.penalty, "net": self.net}


def deal_points(seats: Sequence[str], score: DealScore) -> list[PlayerPoints]:
    """A scored deal, player by player in seat order (those who played it: a sit-out
    scores nothing)."""
    order = [*(n for n in seats if n in score.net), *(n for n in score.net if n not in seats)]
    return [PlayerPoints(n, score.cards[n], score.penalty[n], score.wins[n], score.fried[n],
                         score.net[n]) for n in order]


def turn_dict(turn: Turn) -> dict[str, Any]:
    """Who deals and leads next: ``dealers`` (several when tied on most cards), ``leader``
    (None: whoever holds ``opener`` leads), ``leaders`` (players tied on most cards
    when the showdown's winner leads; else empty), ``twin`` (two decks: the holder of
    ``opener`` first after the dealer leads) and ``text``, in English like every value of
    the JSON (a front end says it in its own language from the names)."""
    from ledger.core.i18n import using

    with using("en"):
        text = turn.describe()
    return {"dealers": list(turn.dealers), "leader": turn.leader, "opener": turn.opener,
            "leaders": list(turn.leaders), "twin": turn.twin, "text": text}


class AfterDeal(NamedTuple):
    """What one recorded action on a deal changed: the entry written (a deal, amend, or a
    void or amend written by undo), the deal's points (None when the deal no longer
    counts), the session's standings after it and who deals and leads next."""

    session: SessionRow  # as it stands after the action (its deals counted)
    entry: EntryRow
    points: list[PlayerPoints] | None
    standings: Standings
    turn: Turn

    @property
    def deal_no(self) -> int:
        return self.entry.deal_no

    def to_dict(self) -> dict[str, Any]:
        return {
            "session": self.session.id, "deal": self.entry.deal_no, "entry": self.entry.uuid,
            "seq": self.entry.seq, "kind": self.entry.kind, "facts": self.entry.facts,
            "players": None if self.points is None else [p.to_dict() for p in self.points],
            "standings": self.standings.to_dict(), "next": turn_dict(self.turn),
        }


class DealPreview(NamedTuple):
    """A deal scored and not written: its facts and each player's points (the phone's
    check before it records)."""

    session: SessionRow
    facts: dict[str, Any]
    points: list[PlayerPoints]

    def to_dict(self) -> dict[str, Any]:
        return {"session": self.session.id, "facts": self.facts,
                "players": [p.to_dict() for p in self.points]}


def deal_preview(session: SessionRow, deal: "Deal") -> DealPreview:
    """The :class:`DealPreview` of ``deal`` in ``session`` (nothing is written)."""
    from ledger.book.actions import score

    return DealPreview(session, deal.to_dict(), deal_points(session.seats, score(session, deal)))


def after_deal(ledger: Ledger, session: SessionRow, recorded: "Recorded") -> AfterDeal:
    """The :class:`AfterDeal` of ``recorded`` (read after it was written)."""
    from ledger.book.actions import next_turn
    from ledger.book.reports import standings

    now = ledger.journal.session(session.id)  # with this deal counted
    points = None if recorded.score is None else deal_points(now.seats, recorded.score)
    return AfterDeal(now, recorded.entry, points, standings(ledger, [now]), next_turn(ledger, now))
