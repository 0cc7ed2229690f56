"""Sessions already recorded score exactly as recorded: a rule set frozen before the
presets followed their sources (and before the new options existed) keeps its meaning,
and such a ledger passes `doctor --full` with every standing unchanged."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from ledger.book import actions as book
from ledger.core.deal_line import parse_deal_line
from ledger.core.rules import RuleSet
from ledger.storage.store import open_ledger

# Fields a rule set gained with the options of docs/rules.md: a set stored before has none.
NEW_FIELDS = {"round_deals", "opener", "finish_side", "odd_card", "redeal_four_twos"}


def stored(name: str, **values: Any) -> dict[str, Any]:
    """A rule set as the earlier code stored it: every field it had, none of the new."""
    data = {k: v for k, v in RuleSet(name).to_dict().items() if k not in NEW_FIELDS}
    return data | values


# The presets as sessions started before this change froze them.
OLD = {
    "hong-kong": stored("hong-kong", tiers=[[1, 1], [8, 2], [10, 3], [13, 4]], assist=True,
                        next_deal="winner",
                        plays={"flushes": "top-card-first", "straights": "hong-kong"}),
    "doubling": stored("doubling", twos="each", bombs="each", finish_double=True, assist=True,
                       settlement="pay-the-winner", assist_single_only=True),
    "pay-the-winner": stored("pay-the-winner", assist=True, missed_call=True,
                             settlement="pay-the-winner", assist_single_only=True,
                             four_twos="tripled", finish_two="forbidden"),
}
# (rules, seats, teams, deal line, nets as the earlier code gave them, its "next:" line)
EVENING = [
    ("hong-kong", ["A", "B", "C", "D"], False, "A=0 B=8 C=10 D=13",
     {"A": 98, "B": 34, "C": -22, "D": -110}, "next: A deals, A leads"),
    ("doubling", ["Mike", "Lionel", "Dave", "Brendan"], True,
     "Mike=4 Lionel=10 Dave=5 Brendan=0 --finish two",
     {"Mike": 40, "Lionel": -40, "Dave": 40, "Brendan": -40}, "next: Lionel deals, Brendan leads"),
    ("pay-the-winner", ["Ann", "Ben", "Cat", "Dan"], False, "Ann=4 Ben=9 Cat=0 Dan=2",
     {"Ann": -4, "Ben": -9, "Cat": 15, "Dan": -2}, "next: Ben deals, Cat leads"),
]


def test_sessions_frozen_before_score_as_recorded(cli, ledger_path: Path) -> None:
    ledger = open_ledger(ledger_path)
    try:
        for rules, seats, teams, line, nets, turn in EVENING:
            with ledger.writing():
                sid = ledger.journal.add_session(seats=seats, name=rules, rules=OLD[rules],
                                                 stake="1", currency="PTS", teams=teams)
            session = ledger.journal.session(sid)
            assert NEW_FIELDS.isdisjoint(session.rules)  # stored as the earlier code did
            frozen = book.session_rules(session)
            recorded = book.record_deal(ledger, session, parse_deal_line(line, seats, frozen))
            assert recorded.score.net == nets, rules
            from ledger.core.dealer import next_turn_from_facts

            facts = [e.facts for e in ledger.journal.live_deals(sid)]
            assert next_turn_from_facts(seats, frozen, facts).describe() == turn, rules
    finally:
        ledger.close()
    before = {rules: json.loads(cli.ok("standings", "--json", "--session", str(i + 1)))
              for i, (rules, *_rest) in enumerate(EVENING)}
    assert "ok" in cli.ok("doctor", "--full").lower()
    for i, (rules, _seats, teams, _line, nets, _turn) in enumerate(EVENING):
        after = json.loads(cli.ok("standings", "--json", "--session", str(i + 1)))
        assert after == before[rules]
        if not teams:
            assert {p["name"]: p["net"] for p in after["players"]} == nets
