"""Every house-rule variant of issue 14, each from its source's own words and numbers.

Play variants quote pagat.com (John McLeod's Big Two page), the Wikipedia and Russian
Wikipedia Big Two articles and the French rules page; scoring variants quote Wikipedia
and the Russian article; the ranked settlement is the Taiwanese house rule with its
three worked examples (stake 1).
"""

from __future__ import annotations

from fractions import Fraction
from itertools import pairwise

import pytest

from ledger.core.cards import parse_cards, straight_runs
from ledger.core.errors import InputError, RuleError
from ledger.core.plays import PlayRules, classify, compare
from ledger.core.rules import RuleSet, load_preset, rules_from_mapping
from ledger.core.scoring import Deal, score_deal

SEATS = ["North", "East", "West", "South"]


def judge(a: str, b: str, **options: object) -> bool:
    house = PlayRules.from_mapping(options)
    return compare(classify(parse_cards(a), house), classify(parse_cards(b), house), house).beats


def is_play(cards: str, **options: object) -> bool:
    try:
        classify(parse_cards(cards), PlayRules.from_mapping(options))
    except InputError:
        return False
    return True


def chain(plays: list[str], **options: object) -> None:
    """Each play beats the next one, and never the other way round."""
    for higher, lower in pairwise(plays):
        assert judge(higher, lower, **options), (higher, lower)
        assert not judge(lower, higher, **options), (lower, higher)


# --- straights --------------------------------------------------------------------------

STRAIGHT_CHAINS = [
    # pagat: "Some allow twos to rank high in these combinations, so that 2-A-K-Q-J is
    # valid and is the highest type of straight or straight flush and 6-5-4-3-2 is lowest."
    ("twos-high", ["J♠Q♥K♠A♠2♠", "10♠J♥Q♠K♠A♠", "3♦4♣5♣6♣7♣", "2♠3♥4♠5♠6♠"]),
    # pagat: "Yet others count 6-5-4-3-2 as second highest, between 2-A-K-Q-J and
    # A-K-Q-J-10 ... 2AKQJ beats 26543 because ace beats 6, and 26543 beats AKQJT
    # because 2 beats ace."
    ("descending", ["J♦Q♥K♠A♠2♣", "2♠3♥4♠5♠6♠", "10♠J♥Q♠K♠A♠", "9♠10♥J♠Q♠K♠", "3♦4♣5♣6♣7♣"]),
    # pagat: "In Indonesia, straights containing a two (A-2-3-4-5 and 2-3-4-5-6) beat all
    # other straights, and between each other they are ranked according to the suit of
    # the two (A-2-3-4-5 beats 2-3-4-5-6, which beats A-2-3-4-5)."
    ("indonesian", ["A♥2♠3♥4♥5♥", "2♥3♠4♠5♠6♦", "A♦2♣3♦4♦5♦", "10♠J♥Q♠K♠A♠"]),
]


@pytest.mark.parametrize(("style", "plays"), STRAIGHT_CHAINS)
def test_straight_variants_rank_as_pagat_says(style: str, plays: list[str]) -> None:
    chain(plays, straights=style)


@pytest.mark.parametrize(
    ("style", "cards", "valid"),
    [
        ("twos-high", "A♠2♥3♠4♠5♠", False),  # twos rank high: no 5-4-3-2-A
        ("twos-high", "J♠Q♥K♠A♠2♠", True),
        ("descending", "A♠2♥3♠4♠5♠", False),  # 6-5-4-3-2 is second highest: no 5-4-3-2-A
        ("descending", "2♠3♥4♠5♠6♠", True),
        ("indonesian", "J♠Q♥K♠A♠2♠", False),
        ("indonesian", "A♠2♥3♠4♠5♠", True),
    ],
)
def test_which_runs_are_straights(style: str, cards: str, valid: bool) -> None:
    assert is_play(cards, straights=style) is valid


def test_indonesian_two_straights_share_one_level_the_two_decides() -> None:
    levels = {str(run): run.level for run in straight_runs("indonesian")}
    assert levels["A-2-3-4-5"] == levels["2-3-4-5-6"] > levels["10-J-Q-K-A"]
    # same two: neither beats the other (one deck cannot hold both, but the rule is clear)
    assert not judge("A♥2♠3♥4♥5♥", "2♠3♦4♦5♦6♦", straights="indonesian")


# --- five-card order --------------------------------------------------------------------


def test_only_a_royal_flush_beats_four_of_a_kind() -> None:
    """pagat: "only a Royal Flush (A-K-Q-J-10) can beat a four of a kind. Any four of a
    kind beats any other straight flush. So A-K-Q-J-10 beats 2-2-2-2-6, which beats
    3-3-3-3-8, which beats K-Q-J-10-9." """
    chain(["10♥J♥Q♥K♥A♥", "2♠2♥2♣2♦6♠", "3♠3♥3♣3♦8♠", "9♥10♥J♥Q♥K♥"],
          five_card_order="royal-over-quads")
    # the standard order: every straight flush beats every four of a kind
    chain(["9♥10♥J♥Q♥K♥", "2♠2♥2♣2♦6♠"])
    # a straight flush still beats a full house, and a royal flush ranks by suit
    chain(["10♠J♠Q♠K♠A♠", "10♥J♥Q♥K♥A♥", "2♠2♥2♣2♦6♠", "9♥10♥J♥Q♥K♥", "A♠A♥A♣K♠K♥"],
          five_card_order="royal-over-quads")


# --- suit orders ------------------------------------------------------------------------

SUIT_ORDERS = [
    # pagat: Pusoy Dos "the order of suits from high to low is diamonds, hearts, spades, clubs"
    ("DHSC", ["3♦", "3♥", "3♠", "3♣"]),
    # French text: "du plus jeune au plus vieux: diamants, coeurs, pelles, clubs"
    ("CSHD", ["3♣", "3♠", "3♥", "3♦"]),
    # Russian article: "(от низшего к высшему) треф, бубн, пик, червей"
    ("HSDC", ["3♥", "3♠", "3♦", "3♣"]),
    # Russian article, Taiwan: "(от низшего к высшему) Трефы, Бубны, Червы, Пики";
    # pagat: "spades (high), hearts, diamonds, clubs (low) - as in Bridge"
    ("SHDC", ["3♠", "3♥", "3♦", "3♣"]),
    # Russian article: "Трефы, Пики, Червы, Бубны" low to high: the Pusoy Dos order again
    ("DHSC", ["2♦", "2♥", "2♠", "2♣"]),
]


@pytest.mark.parametrize(("order", "high_to_low"), SUIT_ORDERS)
def test_suit_orders_from_the_texts(order: str, high_to_low: list[str]) -> None:
    chain(high_to_low, suit_order=order)


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("3♠", "3♥"),  # Wikipedia: "a 3-single cannot be used to beat any other 3-single"
        ("4♠5♠6♠7♠8♥", "4♦5♦6♦7♦8♣"),  # "an 8-high straight cannot ... beat any other 8-high straight"
        ("9♠9♦", "9♥9♣"),
        ("2♠4♠6♠8♠10♠", "2♥4♥6♥8♥10♥"),
    ],
)
def test_no_suit_order_equal_ranks_cannot_beat_each_other(a: str, b: str) -> None:
    assert not judge(a, b, suit_order="none")
    assert not judge(b, a, suit_order="none")


def test_no_suit_order_still_ranks_by_rank() -> None:
    chain(["4♦", "3♠"], suit_order="none")
    chain(["5♦6♦7♦8♦9♣", "4♠5♠6♠7♠8♥"], suit_order="none")


# --- assistance after a multi-card finish -----------------------------------------------


def russian_example(**facts: object) -> Deal:
    """Russian article: North goes out; East 3, West 9 (an unplayed straight flush),
    South 8 (one unplayed 2)."""
    return Deal(cards={"North": 0, "East": 3, "West": 9, "South": 8},
                bombs={"West": 1}, twos={"South": 1}, **facts)  # type: ignore[arg-type]


@pytest.mark.parametrize("finish", ["quads", "straight-flush"])
def test_assist_single_only_refuses_a_multi_card_finish(finish: str) -> None:
    """Wikipedia: "If Player B won a game by playing his last card (the case of more than
    one card played is excluded)"; the Russian article says the same."""
    doubling = load_preset("doubling")
    assert doubling.assist_single_only
    with pytest.raises(InputError, match="assist_single_only"):
        score_deal(doubling, SEATS, russian_example(finish=finish, assist="East"))
    lenient = rules_from_mapping({"base": "doubling", "assist_single_only": False})
    assert score_deal(lenient, SEATS, russian_example(finish=finish, assist="East")).penalty[
        "East"] == 74


def test_assist_single_only_allows_a_single_two() -> None:
    """A finish on a two may be a single two: the assist stands (74 moves to East)."""
    score = score_deal(load_preset("doubling"), SEATS, russian_example(finish="two", assist="East"))
    assert score.penalty == {"North": 0, "East": 74, "West": 0, "South": 0}


@pytest.mark.parametrize(
    ("preset", "single_only"),
    [("classic", True), ("pay-the-winner", True), ("doubling", True), ("three-player", True),
     # Andrew White: "When the player to your right has only one card"
     ("hong-kong", True), ("hong-kong-online", False)],
)
def test_presets_whose_source_says_so_count_single_card_assists_only(preset: str, single_only: bool) -> None:
    assert load_preset(preset).assist_single_only is single_only


# --- four twos --------------------------------------------------------------------------

FOUR_TWOS = Deal(immediate="four-twos", immediate_by="North")


@pytest.mark.parametrize(
    ("base", "four_twos", "each", "winner"),
    [
        # Wikipedia: "The score (card count) of the losing players is tripled": 13 x 3 = 39
        ("hong-kong-online", "tripled", 39, 117),
        ("da-lao-er", "tripled", 39, 117),
        ("hong-kong-online", "tiers", 52, 156),  # the preset's own x4 at 13 cards
        ("da-lao-er", "tiers", 26, 78),  # x2 from 11 cards
        ("pay-the-winner", None, 39, 117),  # the Wikipedia preset reads it tripled
    ],
)
def test_four_twos_tripled_or_by_tiers(base: str, four_twos: str | None, each: int, winner: int) -> None:
    data = {"base": base, "settlement": "pay-the-winner"}
    if four_twos is not None:
        data["four_twos"] = four_twos
    score = score_deal(rules_from_mapping(data), SEATS, FOUR_TWOS)
    assert score.penalty == {"North": 0, "East": each, "West": each, "South": each}
    assert score.net["North"] == winner
    assert all(score.fried[n] for n in ("East", "West", "South"))


def test_four_twos_tripled_leaves_the_dragon_to_the_tiers() -> None:
    rules = rules_from_mapping({"base": "hong-kong-online", "four_twos": "tripled"})
    dragon = score_deal(rules, SEATS, Deal(immediate="dragon", immediate_by="North"))
    assert dragon.penalty["East"] == 52


# --- finishing on a two -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("finish_two", "penalties", "winner"),
    [
        # Russian article's worked example: East -6, West -36, South -32, North +74
        ("double", {"East": 6, "West": 36, "South": 32}, 74),
        # the two counts as an ordinary finish: only the straight flush and the two held double
        ("plain", {"East": 3, "West": 18, "South": 16}, 37),
    ],
)
def test_finish_two_double_or_plain(finish_two: str, penalties: dict[str, int], winner: int) -> None:
    rules = rules_from_mapping({"base": "doubling", "finish_two": finish_two})
    score = score_deal(rules, SEATS, russian_example(finish="two"))
    assert score.penalty == {"North": 0, **penalties}
    assert score.net["North"] == winner


def test_finish_two_plain_still_doubles_quads() -> None:
    rules = rules_from_mapping({"base": "doubling", "finish_two": "plain"})
    assert score_deal(rules, SEATS, russian_example(finish="quads")).net["North"] == 74


@pytest.mark.parametrize("base", ["doubling", "pay-the-winner", "three-player"])
def test_finish_two_forbidden_refuses_going_out_on_a_two(base: str) -> None:
    """Wikipedia and the Russian article: "ending with a single or double two is not allowed"."""
    rules = rules_from_mapping({"base": base, "finish_two": "forbidden"})
    seats = SEATS[:3] if base == "three-player" else SEATS
    cards = dict.fromkeys(seats, 3) | {"North": 0}
    with pytest.raises(InputError, match=r"do not allow going out on a two \(finish_two = forbidden\)"):
        score_deal(rules, seats, Deal(cards=cards, finish="two"))


# --- ranked settlement ------------------------------------------------------------------

RANKED_EXAMPLES = [
    # cards left North, East, West, South -> units paid (+ for the winner), stake 1
    ((0, 1, 4, 7), (6, -1, -2, -3)),
    ((0, 2, 6, 12), (12, -2, -4, -6)),  # South holds 10 or more: 2, 4 and 6
    ((0, 5, 5, 9), (6, Fraction(-3, 2), Fraction(-3, 2), -3)),  # tied: ranks 1 and 2 shared
]


@pytest.mark.parametrize(("cards", "units"), RANKED_EXAMPLES)
def test_ranked_examples(cards: tuple[int, ...], units: tuple[Fraction, ...]) -> None:
    taiwan = load_preset("taiwan")
    score = score_deal(taiwan, SEATS, Deal(cards=dict(zip(SEATS, cards, strict=True))))
    per_unit = taiwan.points_per_unit
    assert per_unit == 2
    assert {n: Fraction(v, per_unit) for n, v in score.net.items()} == dict(
        zip(SEATS, units, strict=True))
    assert all(isinstance(v, int) for v in score.net.values())
    assert score.payee == {"North": None, "East": "North", "West": "North", "South": "North"}


@pytest.mark.parametrize(
    ("options", "cards", "units"),
    [
        ({"rank_payments": [2, 4, 6]}, (0, 5, 5, 9), (12, -3, -3, -6)),  # whole shares: 1 point a unit
        ({"rank_threshold": 8}, (0, 1, 4, 8), (12, -2, -4, -6)),
        ({"over_threshold_factor": 3}, (0, 2, 6, 12), (18, -3, -6, -9)),
        ({}, (0, 7, 7, 7), (6, -2, -2, -2)),  # all tied: (1 + 2 + 3) / 3 each
        ({}, (0, 3, 3, 0), None),  # two winners: an input error as always
    ],
)
def test_ranked_options(
    options: dict[str, object], cards: tuple[int, ...], units: tuple[int, ...] | None
) -> None:
    rules = rules_from_mapping({"base": "taiwan", **options})
    deal = Deal(cards=dict(zip(SEATS, cards, strict=True)))
    if units is None:
        with pytest.raises(InputError):
            score_deal(rules, SEATS, deal)
        return
    score = score_deal(rules, SEATS, deal)
    assert {n: Fraction(v, rules.points_per_unit) for n, v in score.net.items()} == dict(
        zip(SEATS, units, strict=True))


def test_ranked_three_players_pay_the_first_two_ranks() -> None:
    score = score_deal(load_preset("taiwan"), SEATS[:3], Deal(cards={"North": 0, "East": 4, "West": 4}))
    assert {n: Fraction(v, 2) for n, v in score.net.items()} == {
        "North": 3, "East": Fraction(-3, 2), "West": Fraction(-3, 2)}


def test_ranked_immediate_win_all_tied_over_the_threshold() -> None:
    score = score_deal(load_preset("taiwan"), SEATS, Deal(immediate="dragon", immediate_by="East"))
    assert {n: Fraction(v, 2) for n, v in score.net.items()} == {
        "North": -4, "East": 12, "West": -4, "South": -4}


def test_points_per_unit() -> None:
    assert RuleSet("x").points_per_unit == 1
    assert load_preset("taiwan").points_per_unit == 2
    assert rules_from_mapping({"base": "taiwan", "rank_payments": [2, 4, 6]}).points_per_unit == 1


# --- rule-file errors -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"four_twos": "double"}, "rule 'four_twos' must be one of tiers, tripled, draw; got 'double'"),
        ({"finish_two": "never"}, "rule 'finish_two' must be one of double, plain, forbidden; got 'never'"),
        ({"assist_single_only": "yes"}, "rule 'assist_single_only' must be true or false, not 'yes'"),
        ({"settlement": "taiwan"}, "rule 'settlement' must be one of pairwise, pay-the-winner, ranked"),
        ({"next_lead": "3C"}, "rule 'next_lead' must be one of winner, lowest-card, three-of-diamonds"),
        ({"rank_payments": "1,2,3"}, "rule 'rank_payments' must be a list of 1 to 7 whole numbers"),
        ({"rank_payments": [1, 2, 3, 4, 5, 6, 7, 8]},
         "rule 'rank_payments' must be a list of 1 to 7 whole numbers"),
        ({"rank_payments": [1, 2.5]}, "rule 'rank_payments' must be a whole number from 0 to 10000"),
        ({"settlement": "ranked", "rank_payments": [1, 2, 4]},
         "rule 'rank_payments' [1, 2, 4] would make tied losers pay 1/6 units"),
        ({"rank_threshold": 0}, "rule 'rank_threshold' must be a whole number from 1 to 26, not 0"),
        ({"over_threshold_factor": True}, "rule 'over_threshold_factor' must be a whole number"),
        ({"base": "places", "settlement": "ranked"}, "ranked settlement ranks the losers by cards left"),
        ({"plays": {"suit_order": "CDSH"}}, "play option suit_order cannot be 'CDSH': use one of "
                                            "SHCD, DHSC, SHDC, CSHD, HSDC, none"),
        ({"plays": {"five_card_order": "royal"}},
         "play option five_card_order cannot be 'royal': use one of standard, royal-over-quads"),
    ],
)
def test_bad_options_name_the_key_and_the_allowed_values(data: dict[str, object], message: str) -> None:
    with pytest.raises(RuleError) as error:
        rules_from_mapping(data)
    assert message in str(error.value)


def test_stored_rule_sets_keep_the_new_options() -> None:
    from ledger.core.rules import rules_from_dict

    for name in ("taiwan", "doubling", "pay-the-winner", "classic"):
        rules = load_preset(name)
        assert rules_from_dict(rules.to_dict()) == rules
