"""What the write actions share: the setting that names the current session, a
session's frozen rules and a deal scored under them, the points rows an entry stores
(and the rows that cancel a deal's live version), and what an action returns.

The actions (:mod:`ledger.book.actions`: record, void, amend, sessions) and
:mod:`ledger.book.undo` both write entries with these; neither imports the other's
internals.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from ledger.core.rules import RuleSet, rules_from_dict
from ledger.core.scoring import Deal, DealScore, score_deal
from ledger.storage.rows import EntryRow, PointsRow, SessionRow
from ledger.storage.store import Ledger

CURRENT_KEY = "current_session"


class Recorded(NamedTuple):
    """What one action did: the entry written and the deal's points (None for a void)."""

    entry: EntryRow
    score: DealScore | None


def session_rules(session: SessionRow) -> RuleSet:
    return rules_from_dict(session.rules)


def deal_players(session: SessionRow, deal: Deal) -> tuple[str, ...]:
    """Who played ``deal``: its own list, or (none recorded) the session's starting seats."""
    return deal.players if deal.players is not None else session.started_seats


def score(session: SessionRow, deal: Deal) -> DealScore:
    return score_deal(session_rules(session), deal_players(session, deal), deal, session.teams)


def points_rows(seats: Sequence[str], score: DealScore, sign: int = 1) -> list[PointsRow]:
    """One row for each of ``seats`` who played the deal (a sit-out scores nothing)."""
    return [
        PointsRow(
            player=n,
            deals=sign,
            wins=sign * int(score.wins[n]),
            fried=sign * int(score.fried[n]),
            cards=sign * score.cards[n],
            penalty=sign * score.penalty[n],
            net=sign * score.net[n],
            payee=score.payee[n],
        )
        for n in [*(n for n in seats if n in score.net), *(n for n in score.net if n not in seats)]
    ]


def reversal(ledger: Ledger, entry: EntryRow) -> list[PointsRow]:
    """Points that cancel the live version ``entry`` of a deal exactly.

    That is everything stored for the deal so far, negated: an amend entry holds
    the reversal of the version before it as well as its own points, so negating
    that one entry alone would bring the older version back.
    """
    return [
        PointsRow(p.player, -p.deals, -p.wins, -p.fried, -p.cards, -p.penalty, -p.net, p.payee)
        for p in ledger.journal.deal_points(entry.session_id, entry.deal_no)
    ]


def rebuilt(session: SessionRow, entry: EntryRow) -> Recorded:
    """What the action that wrote ``entry`` returned (a repeat returns it again)."""
    return Recorded(entry, None if entry.facts is None else score(session,
                                                                  Deal.from_dict(entry.facts)))
