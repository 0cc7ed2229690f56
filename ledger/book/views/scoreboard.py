"""A session's scoreboard, :class:`Board`: the phone's main screen (see
:mod:`ledger.book.views`)."""

from typing import TYPE_CHECKING, Any, NamedTuple

from ledger.book.reports import Settlement, Standings
from ledger.book.views.deal import turn_dict
from ledger.core.dealer import Turn
from ledger.core.i18n import N_, _
from ledger.core.settlement import format_amount
from ledger.storage.rows import SessionRow
from ledger.storage.store import Ledger

if TYPE_CHECKING:
    from ledger.core.rules import RuleSet


class DealFact(NamedTuple):
    """A fact these rules score, as a deal line says it and a form asks for it.

    ``kind``: ``count`` (a number per player, ``low`` to ``high``), ``order`` (every
    player once, first out first), ``choice`` (one of ``values``), ``player`` (one
    seated player's name), ``flag`` (said or not).  ``option`` is the word of the deal
    grammar (``ledger/core/deal_line.py``); ``label`` is in the interface language.
    """

    name: str
    kind: str
    option: str
    label: str
    values: tuple[str, ...] = ()
    low: int | None = None
    high: int | None = None

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"name": self.name, "kind": self.kind, "option": self.option,
                               "label": self.label}
        if self.values:
            out["values"] = list(self.values)
        if self.low is not None:
            out["min"], out["max"] = self.low, self.high
        return out


TWOS_IN_PACK = 4


def deal_facts(rules: "RuleSet", teams: bool) -> list[DealFact]:
    """The facts a deal under ``rules`` can carry, in the order a form asks for them.

    Derived from the rule set's fields as ``ledger/core/scoring.py`` validates them;
    the rule-option registry (issue 18, item 1) is to become their one source.
    """
    from ledger.core.scoring import FINISHES

    if rules.mode == "places":
        return [DealFact("order", "order", "--order", _("finishing order, first out first"))]
    facts = [DealFact("cards", "count", "NAME=CARDS", _("cards left"), low=0, high=rules.hand_size)]
    if rules.twos != "off":
        facts.append(DealFact("twos", "count", "--twos", _("unplayed twos"), low=0,
                              high=TWOS_IN_PACK))
    if rules.bombs != "off":
        facts.append(DealFact("bombs", "count", "--bombs", _("unplayed bombs"), low=0,
                              high=rules.hand_size // 4))
    if rules.finish_double:
        finishes = tuple(f for f in FINISHES if f != "two" or rules.finish_two != "forbidden")
        facts.append(DealFact("finish", "choice", "--finish", _("the winner's last play"),
                              values=finishes))
    if rules.assist:
        facts.append(DealFact("assist", "player", "--assist",
                              _("the loser who let the winner go out")))
    if rules.missed_call:
        facts.append(DealFact("missed_call", "flag", "--missed-call",
                              _("the winner did not call last card")))
    labels = {"dragon": N_("dealt a dragon (one card of every rank, 3 to 2)"),
              "four-twos": N_("dealt all four twos")}
    for kind in rules.immediate_wins:
        facts.append(DealFact(kind, "player", f"--{kind}", _(labels[kind])))
    if teams:
        facts.append(DealFact("shootout", "player", "--shootout",
                              _("teams tied on cards: a member of the team that won the tie")))
    return facts


class UndoPreview(NamedTuple):
    """What ``undo`` would take back now: ``action`` (deal, amend, void, session end or
    session start), the deal and its facts as typed (``line``), and what the deal goes
    back to (``back``; None: it would not count)."""

    action: str
    deal_no: int | None = None
    line: str | None = None
    back: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"action": self.action, "deal": self.deal_no, "line": self.line, "back": self.back}


def undo_preview(ledger: Ledger, session: SessionRow, session_start: bool = True) -> UndoPreview | None:
    """What :func:`ledger.book.actions.undo` would take back in ``session`` now (None:
    nothing), found the way it finds it, without writing.  Player renames and merges
    (undone first when they came last, by ``bigtwo undo``) are not shown here."""
    from ledger.book.actions import _undo_stack
    from ledger.core.deal_line import facts_text
    from ledger.storage import undo as marks

    s = session
    if s.ended_at is not None and marks.last_session_event(ledger, s.id) == "session.end":
        return UndoPreview("session end")
    entries = ledger.journal.entries(s.id)
    stack = _undo_stack(ledger, s.id, entries)
    if not stack:
        return UndoPreview("session start") if not entries and session_start else None
    target = stack[-1]
    earlier = [e for e in entries if e.deal_no == target.deal_no and e.seq < target.seq]
    before = earlier[-1].facts if earlier else None
    return UndoPreview(target.kind, target.deal_no,
                       facts_text(target.facts, s.seats) if target.facts else None,
                       facts_text(before, s.seats) if before else None)


class Board(NamedTuple):
    """A session's scoreboard: everything the phone's main screen shows."""

    session: SessionRow
    rules: "RuleSet"
    standings: Standings
    money: Settlement
    turn: Turn
    facts: list[DealFact]
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

    s = ledger.journal.session(session.id)
    rules = session_rules(s)
    return Board(s, rules, standings(ledger, [s]), settle(ledger, [s]), next_turn(ledger, s),
                 deal_facts(rules, s.teams), undo_preview(ledger, s, session_start),
                 rules.points_per_unit)
