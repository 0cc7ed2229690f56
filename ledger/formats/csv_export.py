"""CSV for spreadsheets: one row per player per live deal, cells a spreadsheet would run
as formulas neutralised (``bigtwo export --format csv``)."""

from __future__ import annotations

import csv
from collections.abc import Sequence
from decimal import Decimal
from typing import IO

from ledger.book import actions as book
from ledger.core.scoring import Deal
from ledger.core.settlement import format_amount
from ledger.core.text import shown
from ledger.storage.rows import SessionRow
from ledger.storage.store import Ledger

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
CSV_COLUMNS = (
    "session", "date", "name", "rules", "deal", "seat", "player", "cards", "won", "fried",
    "penalty", "net", "stake", "currency", "money",
)


# --- export -------------------------------------------------------------------


def spreadsheet_safe(value: object) -> object:
    """A text cell a spreadsheet would run as a formula gets a leading apostrophe;
    control and format characters are written as visible escapes (``\\x1b``).

    >>> spreadsheet_safe("=HYPERLINK(1)"), spreadsheet_safe("Ann"), spreadsheet_safe(-27)
    ("'=HYPERLINK(1)", 'Ann', -27)
    """
    if isinstance(value, str):
        value = shown(value)  # text from an old ledger: no raw control characters
        if value.startswith(FORMULA_STARTS):
            return "'" + value
    return value


def export_csv(ledger: Ledger, sessions: Sequence[SessionRow], out: IO[str]) -> int:
    """One row per player per live deal; returns the number of rows."""
    writer = csv.writer(out)
    writer.writerow(CSV_COLUMNS)
    rows = 0
    for s in sessions:
        stake = Decimal(s.stake)
        share = Decimal(2) if s.teams else Decimal(1)
        for e in ledger.journal.live_deals(s.id):
            assert e.facts is not None
            score = book.score(s, Deal.from_dict(e.facts))
            for seat, name in enumerate(s.seats, 1):
                net = score.net[name]
                cells = [
                    s.id, s.started_at[:10], s.name, s.rules_name, e.deal_no, seat, name,
                    score.cards[name], int(score.wins[name]), int(score.fried[name]),
                    score.penalty[name], net, stake, s.currency or "PTS",
                    Decimal(format_amount(Decimal(net) * stake / share)),
                ]
                writer.writerow([spreadsheet_safe(c) for c in cells])
                rows += 1
    return rows
