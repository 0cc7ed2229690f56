"""`settle --all` and `standings --all` take a summed-in-SQL path; it must equal the
session-by-session path exactly."""

from __future__ import annotations

from decimal import Decimal

from helpers import to_deal
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from reference_scoring import PRESETS, deals_strategy

from ledger.book import actions as book
from ledger.book.reports import settle, settle_all, standings, standings_all
from ledger.core.rules import load_preset
from ledger.storage.store import open_ledger

SEATS = ["Ann", "Ben", "Cat", "Dan"]


@st.composite
def sessions_st(draw):
    out = []
    for _ in range(draw(st.integers(1, 5))):
        preset = draw(st.sampled_from(["classic", "pay-the-winner", "hong-kong", "doubling"]))
        teams = draw(st.booleans())
        seats = draw(st.permutations(SEATS))
        stake = draw(st.sampled_from(["1", "0.25", "0.125", "0.005", "2"]))
        deals = draw(st.lists(deals_strategy(PRESETS[preset], seats, teams), min_size=1, max_size=5))
        out.append((preset, teams, seats, stake, [to_deal(PRESETS[preset], d) for d in deals]))
    return out


@settings(max_examples=40, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(sessions_st())
def test_all_paths_agree(tmp_path_factory, sessions) -> None:
    path = tmp_path_factory.mktemp("all") / "l.db"
    with open_ledger(path) as ledger:
        for preset, teams, seats, stake, deals in sessions:
            s = book.start_session(ledger, seats, load_preset(preset), Decimal(stake), "USD",
                                   None, teams)
            for deal in deals:
                book.record_deal(ledger, s, deal)
            book.undo(ledger, s)  # reversal rows must cancel in both paths
        every = ledger.journal.sessions()
        slow, fast = settle(ledger, every), settle_all(ledger, working_limit=0)
        assert fast.nets == slow.nets
        assert fast.pairwise == slow.pairwise
        assert fast.payments == slow.payments
        assert standings_all(ledger).players == standings(ledger, every).players
