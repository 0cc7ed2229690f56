"""What the pages and the API show, as plain data built from the book.

The JSON of the ``standings`` and ``settle`` ops (ledger/web/engine.py) is exactly what ``bigtwo standings
--json`` and ``bigtwo settle --json`` print for one session: both call
:func:`ledger.book.reports.standings` / :func:`~ledger.book.reports.settle` and their
``to_dict``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from ledger.book import actions as book
from ledger.book import reports
from ledger.core.deal_line import facts_text
from ledger.core.dealer import Turn
from ledger.core.rules import RuleSet
from ledger.core.scoring import DealScore
from ledger.core.settlement import format_amount
from ledger.present.text import signed
from ledger.storage.rows import SessionRow
from ledger.storage.store import Ledger

LAST_DEALS = 6


def standings_json(ledger: Ledger, session: SessionRow) -> dict[str, Any]:
    """``bigtwo standings --json --session ID``."""
    return reports.standings(ledger, [session]).to_dict()


def settle_json(ledger: Ledger, session: SessionRow) -> dict[str, Any]:
    """``bigtwo settle --json --session ID``."""
    from ledger.book.views import settle_view

    return settle_view(reports.settle(ledger, [session])).to_dict()


def score_dict(seats: list[str], score: DealScore) -> dict[str, Any]:
    """A scored deal, player by player (for the preview and a recorded deal)."""
    return {
        "players": [
            {"name": n, "cards": score.cards[n], "win": score.wins[n], "fried": score.fried[n],
             "penalty": score.penalty[n], "net": score.net[n]}
            for n in seats
        ]
    }


def turn_dict(turn: Turn) -> dict[str, Any]:
    """Who deals and leads next, as the API gives it: ``text`` in English in every
    language, like every value of the API."""
    from ledger.core.i18n import using

    with using("en"):
        text = turn.describe()
    return {"dealers": list(turn.dealers), "leader": turn.leader, "text": text}


def next_turn(ledger: Ledger, session: SessionRow) -> Turn:
    """Who deals and leads next: the same answer as ``bigtwo deal`` prints, from the
    count of live deals and the last one (not every deal of a long evening)."""
    return book.next_turn(ledger, ledger.journal.session(session.id))


@dataclass
class DealLine:
    """One live deal on the scoreboard: its number, facts as typed and net points."""

    no: int
    kind: str
    text: str
    facts: dict[str, Any]
    net: dict[str, int]
    winner: str | None

    def cells(self, seats: list[str]) -> list[str]:
        return [signed(self.net.get(n, 0)) for n in seats]


@dataclass
class Board:
    """Everything the scoreboard, entry and settle pages show for one session."""

    session: SessionRow
    rules: RuleSet
    standings: reports.Standings
    settlement: reports.Settlement
    deals: list[DealLine]
    turn: Turn
    money: dict[str, Decimal] = field(default_factory=dict)

    @property
    def currency(self) -> str:
        return self.session.currency or "PTS"

    def money_text(self, name: str) -> str:
        return signed(self.money.get(name, Decimal(0)))

    def settle_text(self) -> str:
        """The settlement as ``bigtwo settle --format text`` gives it for a group chat."""
        from ledger.present.share import chat_text

        return chat_text(self.settlement)


def deal_lines(ledger: Ledger, session: SessionRow, last: int | None = LAST_DEALS) -> list[DealLine]:
    """The live deals, newest first, with each one's net points (what is stored for it)."""
    live = ledger.journal.live_deals(session.id)
    if last is not None:
        live = live[-last:]
    out = []
    for e in reversed(live):
        net: dict[str, int] = {}
        for p in ledger.journal.deal_points(session.id, e.deal_no):
            net[p.player] = net.get(p.player, 0) + p.net
        facts = e.facts or {}
        winner = facts.get("immediate_by") or next(
            (n for n, c in facts.get("cards", {}).items() if c == 0), None
        ) or (facts.get("order") or [None])[0]
        out.append(DealLine(e.deal_no, e.kind, facts_text(facts), facts, net, winner))
    return out


def board(ledger: Ledger, session: SessionRow, last: int | None = LAST_DEALS) -> Board:
    standings = reports.standings(ledger, [session])
    settlement = reports.settle(ledger, [session])
    return Board(
        session=session,
        rules=book.session_rules(session),
        standings=standings,
        settlement=settlement,
        deals=deal_lines(ledger, session, last),
        turn=next_turn(ledger, session),
        money=dict(settlement.nets),
    )


def session_json(ledger: Ledger, session: SessionRow) -> dict[str, Any]:
    """The served session: ``session list --json`` fields, its rules, and who is next."""
    return {
        **session.to_dict(),
        "rule_set": session.rules,
        "next": turn_dict(next_turn(ledger, session)),
        "last_entry_id": ledger.derived.last_entry_id(),
    }


def amount(value: Decimal) -> str:
    return format_amount(value)
