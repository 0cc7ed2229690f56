"""The line-up of a session now, read from its seat entries (``ledger.book.seats`` writes them).

Kept apart from the write action so that the deal's path (``ledger.book.actions``: the
players a new deal names, who deals next) reads it without importing the action.
"""

from __future__ import annotations

from typing import Any

from ledger.book.writes import session_rules
from ledger.core.dealer import losers
from ledger.core.lineup import Lineup, replay, rotate
from ledger.core.scoring import Deal
from ledger.storage.rows import SessionRow
from ledger.storage.store import Ledger


def lineup(ledger: Ledger, session: SessionRow) -> Lineup:
    """Who is seated now, in which order, and who sits out (under the house rule
    ``sit_out``, chosen again after the deal recorded last, when it came after the last
    seat change).  Both are read in the one order of entries, never by deal number (each
    ledger's own after a sync), so two devices that merged the same entries agree."""
    start = Lineup.starting(session.started_seats)
    entries = ledger.journal.seat_entries(session.id)
    if not entries:
        return start
    shown = _shown_names(ledger, session)
    now = replay(start, (_renamed(e.facts or {}, shown) for e in entries))
    rules = session_rules(session)
    if rules.sit_out == "none" or not now.out:
        return now
    found = ledger.journal.latest_deal(session.id)
    if found is None or found[0].facts is None or found[1] < (entries[-1].created_at,
                                                            entries[-1].uuid):
        return now  # no deal since the last seat change: the seats stand as it said
    deal = Deal.from_dict(found[0].facts)
    played = deal.players if deal.players is not None else session.started_seats
    return rotate(now, rules.sit_out, played, deal.winner, losers(played, rules, deal))


def players_now(ledger: Ledger, session: SessionRow) -> tuple[str, ...]:
    """The default players of the next deal: seated, not sitting out, in seat order."""
    if not ledger.journal.seat_entries(session.id):
        return session.seats
    return lineup(ledger, session).playing


def _shown_names(ledger: Ledger, session: SessionRow) -> dict[str, str]:
    """Stored name -> name shown now, for the players a seat entry may name."""
    names = {n: n for n in session.seats}
    names.update(ledger.journal.renames(session.id))
    return names


def _renamed(facts: dict[str, Any], shown: dict[str, str]) -> dict[str, Any]:
    out = dict(facts)
    for key in ("player",):
        if key in out:
            out[key] = shown.get(out[key], out[key])
    for key in ("players", "order"):
        if key in out:
            out[key] = [shown.get(n, n) for n in out[key]]
    return out
