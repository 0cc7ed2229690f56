"""A small ledger with hand-computed statistics, shared by the stats, history and plot tests.

Session 1 (2024-03-01, classic pairwise, 0.50 USD a point), Ann Ben Cat Dan:
    1  Ann=0 Ben=3 Cat=5 Dan=10            penalties 0 3 5 20 (Dan fried)   nets +28 +16 +8 -52
    2  Ann=0 Ben=1 Cat=2 Dan=4             penalties 0 1 2 4                nets  +7  +3 -1  -9
    3  Ann=2 Ben=0 Cat=1 Dan=13            penalties 2 0 1 39 (Dan fried)   nets +34 +42 +38 -114
    4  Ann=0 Ben=6 Cat=6 Dan=1 --assist Dan  Dan takes 13                   nets +13 +13 +13 -39
    totals s = 2 4 8 76, nets +82 +74 +58 -214, money +41 +37 +29 -107.
Session 2 (2024-03-08, stake 1 USD), Ann Ben Cat:
    1  Ann=0 Ben=2 Cat=3, amended to Ann=0 Ben=2 Cat=4   nets +6 0 -6
    2  Ann=0 Ben=11 Cat=1                  Ben fried 22                     nets +23 -43 +20
    3  Ann=4 Ben=0 Cat=2, voided
    4  Ann=1 Ben=0 Cat=5                                                     nets +3 +6 -9
    totals s = 1 24 10, nets +32 -37 +5, money +32 -37 +5.
Session 3 (2024-04-02, stake 1 USD), Ann Eve:  Ann=0 Eve=5   nets +5 -5.
"""

from __future__ import annotations

from collections.abc import Sequence

from ledger.book import actions as book
from ledger.core.rules import load_preset
from ledger.formats import samples
from ledger.storage.rows import SessionRow
from ledger.storage.store import Ledger


def add_session(
    ledger: Ledger, players: Sequence[str], lines: Sequence[str], started: str, *,
    stake: str = "1", currency: str = "USD", rules: str = "classic", teams: bool = False,
    name: str = "",
) -> SessionRow:
    """A session that started at ``started`` (YYYY-MM-DD), its deal lines replayed."""
    with ledger.writing():
        sid = ledger.journal.add_session(
            seats=list(players), name=name, rules=load_preset(rules).to_dict(), stake=stake,
            currency=currency, teams=teams, started_at=f"{started}T19:00:00.000000+00:00",
        )
        ledger.journal.set_setting(book.CURRENT_KEY, str(sid))
    session = ledger.journal.session(sid)
    for line in lines:
        samples.apply_line(ledger, session, line)
    return ledger.journal.session(sid)


def build(ledger: Ledger) -> list[SessionRow]:
    s1 = add_session(
        ledger, ["Ann", "Ben", "Cat", "Dan"],
        ["Ann=0 Ben=3 Cat=5 Dan=10", "Ann=0 Ben=1 Cat=2 Dan=4", "Ann=2 Ben=0 Cat=1 Dan=13",
         "Ann=0 Ben=6 Cat=6 Dan=1 --assist Dan"],
        "2024-03-01", stake="0.5", name="first",
    )
    s2 = add_session(
        ledger, ["Ann", "Ben", "Cat"],
        ["Ann=0 Ben=2 Cat=3", "Ann=0 Ben=11 Cat=1", "Ann=4 Ben=0 Cat=2", "void 3",
         "Ann=1 Ben=0 Cat=5", "amend 1 Ann=0 Ben=2 Cat=4"],
        "2024-03-08", name="second",
    )
    s3 = add_session(ledger, ["Ann", "Eve"], ["Ann=0 Eve=5"], "2024-04-02", name="third")
    return [s1, s2, s3]
