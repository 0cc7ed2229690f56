"""Typing a loser's cards instead of a count (docs/plays.md, "Reading a loser's hand")."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers import file_digest

FOUR = ("--players", "Ann,Ben,Cat,Dan")


def start(cli, rules: str = "classic") -> None:
    cli.ok("session", "start", *FOUR, "--rules", rules)


def last_facts(cli) -> dict:
    return json.loads(cli.ok("log", "--json"))[-1]["facts"]


def penalties(cli) -> dict[str, int]:
    return {p["name"]: p["penalty"] for p in json.loads(cli.ok("standings", "--json"))["players"]}


def rule_file(tmp_path: Path, text: str) -> str:
    path = tmp_path / "house.toml"
    path.write_text(text, "utf-8")
    return str(path)


def test_the_count_comes_from_the_cards(cli) -> None:
    start(cli)
    out = cli.ok("deal", "Ann=0", "Ben=2S 2H 5D", "Cat=11", "Dan=8")
    assert "Ben 3 " in out
    facts = last_facts(cli)
    assert facts["cards"] == {"Ann": 0, "Ben": 3, "Cat": 11, "Dan": 8}
    assert facts["hands"] == {"Ben": "2S 2H 5D"}  # kept as typed
    assert "twos" not in facts  # classic does not score twos
    assert penalties(cli)["Ben"] == 3


def test_hands_as_typed_in_any_notation(cli) -> None:
    start(cli)
    cli.ok("deal", "Ann=0", "Ben=♥10, TS,qd", "Cat=9♠9♦", "Dan=1")
    facts = last_facts(cli)
    assert facts["cards"] == {"Ann": 0, "Ben": 3, "Cat": 2, "Dan": 1}
    assert facts["hands"] == {"Ben": "♥10, TS,qd", "Cat": "9♠9♦"}
    assert 'Ben="♥10, TS,qd"' in cli.ok("log")


def test_twos_and_bombs_are_derived_when_the_rules_score_them(cli) -> None:
    start(cli, "doubling")  # pay the winner; twos each, bombs each
    cli.ok("deal", "Ann=0", "Ben=2S 2H 5D", "Cat=3S 3H 3C 3D 9S 9H", "Dan=4")
    facts = last_facts(cli)
    assert facts["twos"] == {"Ben": 2}
    assert facts["bombs"] == {"Cat": 1}
    assert penalties(cli) == {"Ann": 0, "Ben": 3 * 4, "Cat": 6 * 2, "Dan": 4}


def test_four_twos_in_one_hand_are_four_twos_and_a_bomb(cli) -> None:
    start(cli, "doubling")
    cli.ok("deal", "Ann=0", "Ben=2S 2H 2C 2D 5D", "Cat=1", "Dan=1")
    facts = last_facts(cli)
    assert (facts["twos"], facts["bombs"]) == ({"Ben": 4}, {"Ben": 1})
    assert penalties(cli)["Ben"] == 5 * 16 * 2


def test_the_most_disjoint_bombs_are_counted(cli) -> None:
    start(cli, "doubling")
    # 4♠..8♠ and 9♠..K♠ are two straight flushes; the fours of 5 and 9 would share cards
    cli.ok("deal", "Ann=0", "Ben=4S 5S 6S 7S 8S 9S 10S JS QS KS", "Cat=1", "Dan=1")
    assert last_facts(cli)["bombs"] == {"Ben": 2}
    assert penalties(cli)["Ben"] == 10 * 2 * 4


def test_twos_are_dropped_but_bombs_kept_when_only_bombs_score(cli, tmp_path) -> None:
    start(cli, rule_file(tmp_path, 'bombs = "once"\n'))
    cli.ok("deal", "Ann=0", "Ben=2S 2H 2C 2D 5D", "Cat=1", "Dan=1")
    facts = last_facts(cli)
    assert "twos" not in facts
    assert facts["bombs"] == {"Ben": 1}
    assert penalties(cli)["Ben"] == 5 * 2


@pytest.mark.parametrize("rules", ["classic", "hong-kong", "da-lao-er"])
def test_hands_work_under_rules_without_twos_or_bombs(cli, rules: str) -> None:
    start(cli, rules)
    cli.ok("deal", "Ann=0", "Ben=2S 2H 2C 2D 5D", "Cat=3H 4H 5H 6H 7H", "Dan=2")
    facts = last_facts(cli)
    assert "twos" not in facts and "bombs" not in facts
    assert facts["cards"]["Ben"] == 5 and facts["cards"]["Cat"] == 5


# --- straight-flush bombs follow the session's straights ------------------------------------


@pytest.mark.parametrize(
    ("straights", "hand", "bombs"),
    [
        ("pagat", "AS 2S 3S 4S 5S 9D", 1),
        ("ace-low-excluded", "AS 2S 3S 4S 5S 9D", 0),
        ("no-wrap", "AS 2S 3S 4S 5S 9D", 0),
        ("hong-kong", "AS 2S 3S 4S 5S 9D", 1),
        ("pagat", "JS QS KS AS 2S 9D", 0),
        ("no-wrap", "JS QS KS AS 2S 9D", 1),
    ],
)
def test_straight_flush_bombs_follow_the_straights_option(cli, tmp_path, straights, hand, bombs) -> None:
    start(cli, rule_file(tmp_path, f'base = "doubling"\n[plays]\nstraights = "{straights}"\n'))
    cli.ok("deal", "Ann=0", f"Ben={hand}", "Cat=1", "Dan=1")
    facts = last_facts(cli)
    assert facts.get("bombs", {}).get("Ben", 0) == bombs
    assert penalties(cli)["Ben"] == 6 * 2 * 2**bombs  # one two in the hand


def test_amend_reads_hands_with_the_session_rules(cli, tmp_path) -> None:
    start(cli, rule_file(tmp_path, 'base = "doubling"\n[plays]\nstraights = "no-wrap"\n'))
    cli.ok("deal", "0", "3", "3", "3")
    cli.ok("amend", "1", "Ann=0", "Ben=JS QS KS AS 2S 9D", "Cat=1", "Dan=1")
    assert last_facts(cli)["bombs"] == {"Ben": 1}


def test_table_line_reads_hands_with_the_session_rules(cli) -> None:
    start(cli, "doubling")
    cli.ok("table", input='Ann=0 Ben="2S 2H 5D" Cat=3 Dan=4\n')
    facts = last_facts(cli)
    assert facts["twos"] == {"Ben": 2}
    assert facts["hands"] == {"Ben": "2S 2H 5D"}


# --- agreement with --twos/--bombs and impossible hands ----------------------------------------


def test_twos_and_bombs_given_with_cards_must_agree(cli) -> None:
    start(cli, "doubling")
    cli.ok("deal", "Ann=0", "Ben=2S 2H 5D", "Cat=1", "Dan=1", "--twos", "Ben=2")
    err = cli.fails("deal", "Ann=0", "Ben=2S 2H 5D", "Cat=1", "Dan=1", "--twos", "Ben=1", code=2)
    assert "--twos Ben=1 disagrees with the cards typed (2)" in err
    err = cli.fails("deal", "Ann=0", "Ben=2S 2H 5D", "Cat=1", "Dan=1", "--bombs", "Ben=1", code=2)
    assert "--bombs Ben=1 disagrees with the cards typed (0)" in err


def test_a_card_held_twice_in_one_deal_is_rejected(cli, ledger_path) -> None:
    start(cli, "doubling")
    before = file_digest(ledger_path)
    err = cli.fails("deal", "Ann=0", "Ben=2S 2H 5D", "Cat=9C 2s", "Dan=1", code=2)
    assert "a card is held twice in one deal: 2S is typed for Ben and for Cat" in err
    assert file_digest(ledger_path) == before


@pytest.mark.parametrize(
    ("hand", "message"),
    [
        ("2S 2S 5D", "card 2S is named twice"),
        ("2S 1H", "unknown card '1H'"),
        ("3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AS 2S 3D", "Ben=14: cards left must be a whole number"),
    ],
)
def test_impossible_hands_are_rejected(cli, ledger_path, hand: str, message: str) -> None:
    start(cli)
    before = file_digest(ledger_path)
    err = cli.fails("deal", "Ann=0", f"Ben={hand}", "Cat=1", "Dan=1", code=2)
    assert message in err
    assert file_digest(ledger_path) == before


def test_four_twos_among_the_losers_after_a_two_finish_are_impossible(cli) -> None:
    start(cli, "doubling")
    err = cli.fails("deal", "Ann=0", "Ben=2S 2H", "Cat=2C 2D", "Dan=1", "--finish", "two", code=2)
    assert "the losers can hold at most 3" in err


def test_entry_without_rules_keeps_the_old_reading() -> None:
    """build_deal without a rule set (sample files) derives everything with pagat straights."""
    from ledger.core.deal_line import parse_deal_line
    from ledger.core.rules import load_preset

    seats = ["Ann", "Ben", "Cat", "Dan"]
    line = 'Ann=0 Ben="2S 2H 5D" Cat="AC 2C 3C 4C 5C" Dan=1'
    plain = parse_deal_line(line, seats)
    assert (dict(plain.twos), dict(plain.bombs)) == ({"Ben": 2, "Cat": 1}, {"Cat": 1})
    classic = parse_deal_line(line, seats, load_preset("classic"))
    assert (dict(classic.twos), dict(classic.bombs)) == ({}, {})
    assert dict(classic.hands) == {"Ben": "2S 2H 5D", "Cat": "AC 2C 3C 4C 5C"}
