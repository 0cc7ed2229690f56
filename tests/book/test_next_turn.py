"""Who deals and leads next is read from the number of live deals and the last one
(`bigtwo deal`, the table loop and the web page); it must equal the answer over every
live deal's facts, whatever was voided, amended, undone or renamed."""

from __future__ import annotations

from decimal import Decimal

from helpers import to_deal
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from reference_scoring import PRESETS, deals_strategy

from ledger.book import actions as book
from ledger.book import players
from ledger.core.dealer import next_turn_from_facts
from ledger.core.errors import InputError
from ledger.core.rules import load_preset
from ledger.storage.store import open_ledger

SEATS = ["Ann", "Ben", "陳大文", "Dan"]


def by_every_deal(ledger, session_id: int):
    s = ledger.journal.session(session_id)
    return next_turn_from_facts(s.seats, book.session_rules(s),
                                [e.facts for e in ledger.journal.live_deals(session_id)])


@st.composite
def evenings(draw):
    next_deal = draw(st.sampled_from(["rotate", "winner", "loser"]))
    next_lead = draw(st.sampled_from(["winner", "lowest-card"]))
    deals = draw(st.lists(deals_strategy(PRESETS["classic"], SEATS), min_size=0, max_size=6))
    steps = draw(st.lists(st.tuples(st.sampled_from(["void", "amend", "undo", "rename"]),
                                    st.integers(1, 6)), max_size=4))
    return next_deal, next_lead, [to_deal(PRESETS["classic"], d) for d in deals], steps


@settings(max_examples=40, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(evenings())
def test_next_turn_from_the_last_deal_is_the_turn_over_every_deal(tmp_path_factory, evening) -> None:
    next_deal, next_lead, deals, steps = evening
    rules = load_preset("classic")._replace(next_deal=next_deal, next_lead=next_lead)
    with open_ledger(tmp_path_factory.mktemp("turn") / "l.db") as ledger:
        s = book.start_session(ledger, SEATS, rules, Decimal("1"), "HKD", None, False)
        assert book.next_turn(ledger, s) == by_every_deal(ledger, s.id)  # before any deal
        for deal in deals:
            book.record_deal(ledger, s, deal)
        for action, number in steps:
            live = [e.deal_no for e in ledger.journal.live_deals(s.id)]
            try:
                if action == "void" and number in live:
                    book.void_deal(ledger, s, number)
                elif action == "amend" and number <= len(deals):
                    book.amend_deal(ledger, s, number, deals[-number])
                elif action == "undo":
                    book.undo(ledger, s, session_start=False)
                elif action == "rename" and "陳大文" in ledger.journal.session(s.id).seats:
                    players.rename(ledger, "陳大文", "李小明")
            except InputError:  # nothing left to undo: refused, nothing changed
                assert action == "undo"
            now = ledger.journal.session(s.id)
            assert book.next_turn(ledger, now) == by_every_deal(ledger, s.id)
        now = ledger.journal.session(s.id)
        assert book.next_turn(ledger, now) == by_every_deal(ledger, s.id)
