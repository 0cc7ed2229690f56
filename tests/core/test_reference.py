"""The reference scorer against docs/scoring.md's worked examples and hand-computed deals.

If these pass, tests/reference_scoring.py can be trusted to cross-check the
real engine in property tests.
"""

from decimal import Decimal
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st
from reference_scoring import (
    PRESETS,
    deals_strategy,
    make_facts,
    ref_deal,
    ref_pairwise_from_totals,
    ref_session_money,
    tiers_from_fry_threshold,
)


def played(cards, **other):
    return make_facts(cards=cards, **other)


def nets_from_payments(payments):
    nets = {}
    for payer, payee, amount in payments:
        nets[payer] = nets.get(payer, 0) - amount
        nets[payee] = nets.get(payee, 0) + amount
    return nets


# §7 worked examples ----------------------------------------------------------


def test_example_1_pairwise_settlement_from_totals():
    totals = {"A": 81, "B": 40, "C": 107, "D": 63}
    payments = ref_pairwise_from_totals(totals)
    assert sorted(payments) == sorted(
        [
            ("A", "B", 41),
            ("A", "D", 18),
            ("C", "A", 26),
            ("C", "B", 67),
            ("C", "D", 44),
            ("D", "B", 23),
        ]
    )
    expected = {"A": -33, "B": 131, "C": -137, "D": 39}
    assert nets_from_payments(payments) == expected
    total = sum(totals.values())
    assert total == 291
    assert {name: total - 4 * s for name, s in totals.items()} == expected


def test_example_2_pay_the_winner():
    seats = ["North", "East", "West", "South"]
    facts = played({"North": 0, "East": 3, "West": 11, "South": 8})
    result = ref_deal(PRESETS["pay-the-winner"], seats, facts)
    assert result["net"] == {"North": 33, "East": -3, "West": -22, "South": -8}
    assert result["winner"] == "North"
    assert result["fried"] == {
        "North": False,
        "East": False,
        "West": True,
        "South": False,
    }


def test_example_3_doubling():
    seats = ["North", "East", "West", "South"]
    facts = played(
        {"North": 0, "East": 3, "West": 9, "South": 8},
        twos={"South": 1},
        bombs={"West": 1},
        finish="two",
    )
    result = ref_deal(PRESETS["doubling"], seats, facts)
    assert result["penalty"] == {"North": 0, "East": 6, "West": 36, "South": 32}
    assert result["net"] == {"North": 74, "East": -6, "West": -36, "South": -32}


@pytest.mark.parametrize("immediate", ["dragon", "four-twos"])
def test_example_4_immediate_win(immediate):
    seats = ["N", "E", "S", "W"]
    facts = make_facts(immediate=immediate, immediate_by="E")
    paid = ref_deal(PRESETS["pay-the-winner"], seats, facts)
    assert paid["penalty"] == {"N": 39, "E": 0, "S": 39, "W": 39}
    assert paid["net"] == {"N": -39, "E": 117, "S": -39, "W": -39}
    assert paid["fried"] == {"N": True, "E": False, "S": True, "W": True}
    # pairwise (classic) happens to give the same nets: 117 - 4 x 39 = -39
    assert ref_deal(PRESETS["classic"], seats, facts)["net"] == paid["net"]


def test_example_5_hong_kong_money():
    seats = ["p", "q", "r", "s"]
    result = ref_deal(PRESETS["hong-kong-online"], seats, played({"p": 0, "q": 1, "r": 8, "s": 12}))
    assert result["penalty"] == {"p": 0, "q": 1, "r": 16, "s": 36}
    money = ref_session_money([result["net"]], Decimal(10))
    assert money == {"p": 530, "q": 490, "r": -110, "s": -910}
    assert sum(money.values()) == 0


def parse_big_two_scorer(lines):
    """One session of the `big-two-scorer` format: names, then card counts; `t`
    marks the player who takes all losses."""
    names = lines[0].split()
    deals = []
    for line in lines[1:]:
        cards, taker = {}, None
        for name, entry in zip(names, line.split(), strict=True):
            if entry.endswith("t"):
                taker, entry = name, entry[:-1]
            cards[name] = int(entry)
        winner = next(name for name in names if cards[name] == 0)
        deals.append(
            played(
                cards,
                assist=taker if taker not in (None, winner) else None,
                missed_call=taker == winner,
            )
        )
    return names, deals


def test_example_6_big_two_scorer_file():
    rules = {**PRESETS["classic"], "tiers": tiers_from_fry_threshold(10)}
    sessions = [
        ["a b c d", "0 11 12 13", "1 1 1 0"],
        ["x b c d", "3t 0 1 2", "0t 1 1 1"],
    ]
    stats = {}
    for lines in sessions:
        seats, deals = parse_big_two_scorer(lines)
        for facts in deals:
            result = ref_deal(rules, seats, facts)
            for name in seats:
                row = stats.setdefault(name, [0, 0, 0, 0, 0])
                row[0] += 1
                row[1] += result["winner"] == name
                row[2] += result["fried"][name]
                row[3] += result["penalty"][name]
                row[4] += result["net"][name]
    assert stats == {
        "a": [2, 1, 0, 1, 84],
        "x": [2, 1, 0, 9, -27],
        "b": [4, 1, 1, 23, 5],
        "c": [4, 0, 1, 25, -3],
        "d": [4, 1, 1, 39, -59],
    }


# Hand-computed deals, one family per mode ----------------------------------------


def test_teams_fewer_cards_wins_even_if_the_other_team_went_out():
    # Wikipedia's example: Mike 4 + Dave 5 = 9 beat Lionel 10 + Brendan 0 = 10.
    seats = ["Mike", "Lionel", "Dave", "Brendan"]
    facts = played({"Mike": 4, "Lionel": 10, "Dave": 5, "Brendan": 0})
    result = ref_deal(PRESETS["classic"], seats, facts, teams=True)
    assert result["pre_penalty"] == {"Mike": 4, "Lionel": 20, "Dave": 5, "Brendan": 0}
    assert result["penalty"] == {"Mike": 0, "Lionel": 20, "Dave": 0, "Brendan": 0}
    assert result["net"] == {"Mike": 10, "Lionel": -10, "Dave": 10, "Brendan": -10}
    assert result["winner"] == "Mike"
    assert result["fried"]["Lionel"]


def test_teams_tie_goes_to_the_shootout_and_halves_stay_exact():
    seats = ["N", "E", "S", "W"]
    facts = played({"N": 0, "E": 3, "S": 5, "W": 2}, shootout="W")
    result = ref_deal(PRESETS["classic"], seats, facts, teams=True)
    assert result["winner"] == "W"
    assert result["penalty"] == {"N": 0, "E": 0, "S": 5, "W": 0}
    half = Fraction(5, 2)
    assert result["net"] == {"N": -half, "E": half, "S": -half, "W": half}
    money = ref_session_money([result["net"]], Decimal("0.10"))
    assert money == {
        "N": Decimal("-0.25"),
        "E": Decimal("0.25"),
        "S": Decimal("-0.25"),
        "W": Decimal("0.25"),
    }


def test_teams_dragon():
    seats = ["N", "E", "S", "W"]
    result = ref_deal(
        PRESETS["classic"],
        seats,
        make_facts(immediate="dragon", immediate_by="S"),
        teams=True,
    )
    # N+S hold 13, E+W hold 26: E and W pay 39 + 39 = 78 as a team, 39 each.
    assert result["penalty"] == {"N": 0, "E": 39, "S": 0, "W": 39}
    # team nets +78 / -78 (sum 78 minus twice the team score), halved per member
    assert result["net"] == {"N": 39, "E": -39, "S": 39, "W": -39}
    assert result["winner"] == "S"


def test_places_pairwise_and_pay_the_winner():
    seats = ["a", "b", "c", "d"]
    facts = make_facts(order=["c", "a", "d", "b"])
    result = ref_deal(PRESETS["places"], seats, facts)
    assert result["penalty"] == {"a": 1, "b": 3, "c": 0, "d": 2}
    assert result["net"] == {"a": 2, "b": -6, "c": 6, "d": -2}
    assert result["winner"] == "c"
    assert not any(result["fried"].values())
    paid = ref_deal({**PRESETS["places"], "settlement": "pay-the-winner"}, seats, facts)
    assert paid["net"] == {"a": -1, "b": -3, "c": 6, "d": -2}


def test_places_custom_points_three_players():
    rules = {**PRESETS["places"], "place_points": [0, 2, 5]}
    result = ref_deal(rules, ["a", "b", "c"], make_facts(order=["b", "c", "a"]))
    assert result["penalty"] == {"a": 5, "b": 0, "c": 2}
    # sum 7: a 7 - 15, b 7 - 0, c 7 - 6
    assert result["net"] == {"a": -8, "b": 7, "c": 1}


def test_three_player_seventeen_card_hand():
    seats = ["p", "q", "r"]
    rules = PRESETS["three-player"]
    result = ref_deal(rules, seats, played({"p": 11, "q": 0, "r": 12}))
    assert result["penalty"] == {"p": 11, "q": 0, "r": 24}
    assert result["fried"] == {"p": False, "q": False, "r": True}
    assert result["net"] == {"p": -11, "q": 35, "r": -24}
    untouched = ref_deal(rules, seats, played({"p": 0, "q": 16, "r": 17}))
    assert untouched["penalty"] == {"p": 0, "q": 32, "r": 51}
    assert untouched["net"] == {"p": 83, "q": -32, "r": -51}
    dragon = ref_deal(rules, seats, make_facts(immediate="dragon", immediate_by="r"))
    assert dragon["net"] == {"p": -51, "q": -51, "r": 102}


def test_doubling_each_and_once():
    seats = ["w", "x", "y"]
    facts = played({"w": 0, "x": 10, "y": 8}, twos={"x": 2}, bombs={"y": 2}, finish="quads")
    each = ref_deal(PRESETS["doubling"], seats, facts)
    # x: 10 x 2 (tier) x 2^2 (twos) x 2 (finish) ; y: 8 x 1 x 2^2 (bombs) x 2
    assert each["penalty"] == {"w": 0, "x": 160, "y": 64}
    assert each["net"] == {"w": 224, "x": -160, "y": -64}
    once = {**PRESETS["doubling"], "twos": "once", "bombs": "once"}
    assert ref_deal(once, seats, facts)["penalty"] == {"w": 0, "x": 80, "y": 32}
    off = {**PRESETS["doubling"], "twos": "off", "bombs": "off", "finish_double": False}
    assert ref_deal(off, seats, facts)["penalty"] == {"w": 0, "x": 20, "y": 8}


def test_doubling_assist_pays_the_whole_sum():
    seats = ["N", "E", "W", "S"]
    facts = played(
        {"N": 0, "E": 3, "W": 9, "S": 8},
        twos={"S": 1},
        bombs={"W": 1},
        finish="two",
        assist="E",
    )
    result = ref_deal(PRESETS["doubling"], seats, facts)
    assert result["pre_penalty"] == {"N": 0, "E": 6, "W": 36, "S": 32}
    assert result["penalty"] == {"N": 0, "E": 74, "W": 0, "S": 0}
    assert result["net"] == {"N": 74, "E": -74, "W": 0, "S": 0}


def test_missed_call_pay_the_winner_reverses_the_flows():
    seats = ["w", "a", "b", "c"]
    facts = played({"w": 0, "a": 3, "b": 10, "c": 13}, missed_call=True)
    result = ref_deal(PRESETS["pay-the-winner"], seats, facts)
    assert result["pre_penalty"] == {"w": 0, "a": 3, "b": 20, "c": 39}
    assert result["penalty"] == {"w": 62, "a": 0, "b": 0, "c": 0}
    assert result["net"] == {"w": -62, "a": 3, "b": 20, "c": 39}
    pairwise = ref_deal(PRESETS["classic"], seats, facts)
    assert pairwise["net"] == {"w": -186, "a": 62, "b": 62, "c": 62}


def test_hong_kong_online_four_twos_uses_the_thirteen_card_tier():
    seats = ["p", "q", "r", "s"]
    result = ref_deal(PRESETS["hong-kong-online"], seats, make_facts(immediate="four-twos", immediate_by="q"))
    assert result["penalty"] == {"p": 52, "q": 0, "r": 52, "s": 52}
    assert result["net"] == {"p": -52, "q": 156, "r": -52, "s": -52}


def test_da_lao_er_tiers():
    seats = ["p", "q", "r", "s"]
    result = ref_deal(PRESETS["da-lao-er"], seats, played({"p": 0, "q": 10, "r": 11, "s": 13}))
    assert result["penalty"] == {"p": 0, "q": 10, "r": 22, "s": 26}
    assert result["fried"] == {"p": False, "q": False, "r": True, "s": True}


def test_fry_threshold_shorthand():
    assert tiers_from_fry_threshold(10) == PRESETS["classic"]["tiers"]
    rules = {**PRESETS["classic"], "tiers": tiers_from_fry_threshold(12)}
    result = ref_deal(rules, ["a", "b", "c"], played({"a": 0, "b": 11, "c": 12}))
    assert result["penalty"] == {"a": 0, "b": 11, "c": 24}


def test_money_across_sessions_with_different_stakes():
    first = ref_session_money([{"a": 3, "b": -3}, {"a": -1, "b": 1}], Decimal("0.25"))
    second = ref_session_money([{"a": -5, "b": 5}], Decimal("1.5"))
    assert first == {"a": Decimal("0.50"), "b": Decimal("-0.50")}
    assert {name: first[name] + second[name] for name in first} == {
        "a": Decimal(-7),
        "b": Decimal(7),
    }


# The strategies produce valid deals, and every deal is zero-sum ------------------


SEATINGS = [["a", "b"], ["a", "b", "c"], ["a", "b", "c", "d"]]


@st.composite
def scored_deals(draw):
    name = draw(st.sampled_from(sorted(PRESETS)))
    rules = PRESETS[name]
    if name == "three-player":
        return (
            rules,
            ["a", "b", "c"],
            draw(deals_strategy(rules, ["a", "b", "c"])),
            False,
        )
    teams = name != "places" and draw(st.booleans())
    seats = ["a", "b", "c", "d"] if teams else draw(st.sampled_from(SEATINGS))
    facts = draw(deals_strategy(rules, seats, teams=teams))
    return rules, seats, facts, teams


def assert_valid(rules, seats, facts, teams):
    if rules["mode"] == "places":
        assert sorted(facts["order"]) == sorted(seats) and facts["cards"] == {}
        return
    if facts["immediate"] is not None:
        assert facts["immediate"] in rules["immediate_wins"] and facts["cards"] == {}
        assert facts["assist"] is None and not facts["missed_call"]
        return
    cards = facts["cards"]
    assert sorted(cards) == sorted(seats)
    assert [cards[name] for name in seats].count(0) == 1
    assert all(0 <= cards[name] <= rules["hand_size"] for name in seats)
    assert all(facts["twos"][name] <= cards[name] for name in facts["twos"])
    assert sum(facts["twos"].values()) <= (3 if facts["finish"] == "two" else 4)
    assert all(4 * facts["bombs"][name] <= cards[name] for name in facts["bombs"])
    assert not (facts["assist"] and facts["missed_call"])
    assert facts["assist"] is None or (rules["assist"] and cards[facts["assist"]] > 0)
    assert not facts["missed_call"] or rules["missed_call"]
    if teams:
        tied = cards[seats[0]] + cards[seats[2]] == cards[seats[1]] + cards[seats[3]]
        assert (facts["shootout"] in seats) == tied


@given(scored_deals())
def test_generated_deals_are_valid_and_zero_sum(deal):
    rules, seats, facts, teams = deal
    assert_valid(rules, seats, facts, teams)
    result = ref_deal(rules, seats, facts, teams=teams)
    assert sum(result["net"].values()) == 0
    assert all(p >= 0 for p in result["penalty"].values())
    assert result["winner"] in seats


@given(st.dictionaries(st.sampled_from("ABCDE"), st.integers(0, 500), min_size=2))
def test_pair_table_adds_up_to_the_shortcut(totals):
    total = sum(totals.values())
    nets = nets_from_payments(ref_pairwise_from_totals(totals))
    for name, score in totals.items():
        assert nets.get(name, 0) == total - len(totals) * score
