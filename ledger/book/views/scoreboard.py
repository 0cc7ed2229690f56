"""A session's scoreboard, :class:`Board`: the phone's main screen (see
:mod:`ledger.book.views`)."""

from typing import TYPE_CHECKING, Any, NamedTuple

from ledger.book.reports import Settlement, Standings
from ledger.book.views.deal import turn_dict
from ledger.core.dealer import Turn
from ledger.core.settlement import format_amount
from ledger.storage.rows import SessionRow
from ledger.storage.store import Ledger

if TYPE_CHECKING:
    from ledger.core.registry import Offer
    from ledger.core.rules import RuleSet


class UndoPreview(NamedTuple):
    """What ``undo`` would take back now: ``action`` (deal, amend, void, session end,
    session reopen or session start), the uuid of the entry it would take back
    (``target``), the deal and its facts as typed (``line``), and what the deal goes back
    to (``back``; None: it would not count)."""

    action: str
    deal_no: int | None = None
    line: str | None = None
    back: str | None = None
    target: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"action": self.action, "deal": self.deal_no, "line": self.line, "back": self.back,
                "target": self.target}


def undo_preview(ledger: Ledger, session: SessionRow, session_start: bool = True) -> UndoPreview | None:
    """What :func:`ledger.book.actions.undo` would take back in ``session`` now (None:
    nothing), as :func:`ledger.book.undo.undo_preview` finds it, with the facts written
    as typed.  Player renames and merges (undone first when they came last, by
    ``bigtwo undo``) are not shown here."""
    from ledger.book.undo import undo_preview as plan
    from ledger.core.deal_line import facts_text

    found = plan(ledger, session, session_start=session_start)
    if found is None:
        return None
    seats = session.seats
    return UndoPreview(found.action, found.deal_no,
                       facts_text(found.facts, seats) if found.facts else None,
                       facts_text(found.restored, seats) if found.restored else None,
                       found.target)


class Board(NamedTuple):
    """A session's scoreboard: everything the phone's main screen shows."""

    session: SessionRow
    rules: "RuleSet"
    standings: Standings
    money: Settlement
    turn: Turn
    facts: tuple["Offer", ...]  # the deal facts beyond the cards left these rules score
    undo: UndoPreview | None
    points_per_unit: int = 1

    def to_dict(self) -> dict[str, Any]:
        return {
            "session": self.session.to_dict(),
            "rules": {"name": self.rules.name, "description": self.rules.description,
                      "mode": self.rules.mode, "settlement": self.rules.settlement},
            "hand_size": self.rules.hand_size,
            "points_per_unit": self.points_per_unit,
            "standings": self.standings.to_dict(),
            "money": {"currency": self.money.currency,
                      "nets": {k: format_amount(v) for k, v in self.money.nets.items()}},
            "next": turn_dict(self.turn),
            "facts": [f.to_dict() for f in self.facts],
            "undo": None if self.undo is None else self.undo.to_dict(),
        }


def board(ledger: Ledger, session: SessionRow, session_start: bool = False) -> Board:
    """The :class:`Board` of ``session`` (read fresh: another device may have acted).
    ``session_start``: whether ``undo`` may take back an empty session's start (the
    phone's undo never does)."""
    from ledger.book.actions import next_turn, session_rules
    from ledger.book.reports import settle, standings
    from ledger.core.registry import offered_facts

    s = ledger.journal.session(session.id)
    rules = session_rules(s)
    return Board(s, rules, standings(ledger, [s]), settle(ledger, [s]), next_turn(ledger, s),
                 offered_facts(rules, s.teams), undo_preview(ledger, s, session_start),
                 rules.points_per_unit)
