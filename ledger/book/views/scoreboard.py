"""A session's scoreboard, :class:`Board`: the phone's main screen (see
:mod:`ledger.book.views`)."""

from typing import TYPE_CHECKING, Any, NamedTuple

from ledger.book.reports import Settlement, Standings
from ledger.book.views.deal import turn_dict
from ledger.core.dealer import Turn
from ledger.core.settlement import format_amount
from ledger.storage.rows import EntryRow, SessionRow
from ledger.storage.store import Ledger

if TYPE_CHECKING:
    from ledger.core.lineup import Lineup
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


class SessionCard(NamedTuple):
    """A session as the table picker and the board show it: ``session list --json``'s
    item with its frozen rule set (``rule_set``), the hand size, the mode, the kind of
    settlement and whether it still takes deals (``open``)."""

    session: SessionRow
    rules: "RuleSet"

    def to_dict(self) -> dict[str, Any]:
        s = self.session
        return {**s.to_dict(), "rule_set": s.rules, "hand_size": self.rules.hand_size,
                "mode": self.rules.mode, "settlement": self.rules.settlement,
                "open": s.ended_at is None}


def session_card(session: SessionRow) -> SessionCard:
    """The :class:`SessionCard` of ``session`` (as read: no query)."""
    from ledger.book.actions import session_rules

    return SessionCard(session, session_rules(session))


class LastSetup(NamedTuple):
    """The last session's players and rules, to start "the same as last time": the
    stake as typed (per point of a game that counts in half units, like the start's)."""

    session: SessionRow
    stake: str

    def to_dict(self) -> dict[str, Any]:
        s = self.session
        return {"session": s.id, "players": list(s.seats), "rules": s.rules_name,
                "rule_set": s.rules, "stake": self.stake, "currency": s.currency or "PTS",
                "teams": s.teams, "name": s.name}


def last_setup(ledger: Ledger) -> LastSetup | None:
    """The :class:`LastSetup` of the session started last (None: no session yet)."""
    from decimal import Decimal

    from ledger.book.actions import session_rules

    found = ledger.journal.sessions()
    if not found:
        return None
    s = max(found, key=lambda x: (x.started_at, x.id))
    stake = Decimal(s.stake) * session_rules(s).points_per_unit
    return LastSetup(s, format_amount(stake.normalize()))


class DealLine(NamedTuple):
    """A deal as it counts now: its number, its live entry (``uuid``: amend or void it
    by that), the facts as typed (``line``) and stored, and each player's net points."""

    entry: EntryRow
    line: str
    net: dict[str, int]

    def to_dict(self) -> dict[str, Any]:
        e = self.entry
        return {"deal": e.deal_no, "uuid": e.uuid, "kind": e.kind, "line": self.line,
                "facts": e.facts, "net": self.net}


class Deals(NamedTuple):
    """A session's live deals, newest first (the Deals screen: fix or void any)."""

    lines: list[DealLine]

    def to_dict(self) -> list[dict[str, Any]]:  # a JSON array
        return [d.to_dict() for d in self.lines]


BOARD_DEALS = 10  # the board's last deals; the deals op has them all


def deal_lines(ledger: Ledger, session: SessionRow, last: int | None = None) -> Deals:
    """The ``last`` live deals of ``session`` (None: all), newest first."""
    from ledger.core.deal_line import facts_text

    live = ledger.journal.live_deals(session.id)
    out = []
    for e in reversed(live if last is None else live[-last:]):
        net: dict[str, int] = {}
        for p in ledger.journal.deal_points(session.id, e.deal_no):
            net[p.player] = net.get(p.player, 0) + p.net
        out.append(DealLine(e, facts_text(e.facts or {}, session.seats), net))
    return Deals(out)


class Board(NamedTuple):
    """A session's scoreboard: everything the phone's main screen shows — the session's
    card, its rules, standings and money, who deals and leads next, the next deal's
    number, the deal facts these rules score (the registry's offers: name, option word,
    kind, values, label), the last deals and what ``undo`` would take back now."""

    session: SessionRow
    rules: "RuleSet"
    standings: Standings
    money: Settlement
    turn: Turn
    facts: tuple["Offer", ...]  # the deal facts beyond the cards left these rules score
    undo: UndoPreview | None
    points_per_unit: int = 1
    next_deal: int = 1
    deals: Deals = Deals([])
    lineup: "Lineup | None" = None  # who is seated, sits out and plays next

    def to_dict(self) -> dict[str, Any]:
        seats = self.lineup.to_dict() if self.lineup is not None else {
            "seated": list(self.session.seats), "sitting_out": [], "playing": list(self.session.seats)}
        return {
            "session": SessionCard(self.session, self.rules).to_dict(),
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
            "next_deal": self.next_deal,
            "deals": self.deals.to_dict(),
            "seats": seats,
        }


def board(ledger: Ledger, session: SessionRow, session_start: bool = False) -> Board:
    """The :class:`Board` of ``session`` (read fresh: another device may have acted).
    ``session_start``: whether ``undo`` may take back an empty session's start (the
    phone's undo never does)."""
    from ledger.book.actions import next_turn, session_rules
    from ledger.book.lineups import lineup
    from ledger.book.reports import settle, standings
    from ledger.core.registry import offered_facts

    s = ledger.journal.session(session.id)
    rules = session_rules(s)
    return Board(s, rules, standings(ledger, [s]), settle(ledger, [s]), next_turn(ledger, s),
                 offered_facts(rules, s.teams, len(s.seats)), undo_preview(ledger, s, session_start),
                 rules.points_per_unit, ledger.journal.next_deal_no(s.id),
                 deal_lines(ledger, s, BOARD_DEALS), lineup(ledger, s))
