"""Plays: every docs/plays.md example, each house option changing an answer, and properties."""

from __future__ import annotations

import random
from itertools import pairwise

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from ledger.core.cards import RANKS, SUITS, Card, parse_cards, straight_runs
from ledger.core.errors import InputError, RuleError
from ledger.core.plays import (
    CHOICES,
    DEFAULT_RULES,
    PLAY_PRESETS,
    Play,
    PlayRules,
    Verdict,
    classify,
    compare,
)

CLASSIC = PLAY_PRESETS["classic"]
HONG_KONG = PLAY_PRESETS["hong-kong"]


def play(text: str, rules: PlayRules = CLASSIC) -> Play:
    return classify(parse_cards(text), rules)


def beats(a: str, b: str, rules: PlayRules = CLASSIC) -> bool:
    return compare(play(a, rules), play(b, rules), rules).beats


def rules(**options: object) -> PlayRules:
    return PlayRules.from_mapping(options)


# --- docs/plays.md "Examples" -------------------------------------------------------------
# (play A, play B, preset, may A be played on B?)  Suitless examples get suits that
# cannot decide the answer.
EXAMPLES = [
    ("2♠", "2♥", "classic", True),
    ("3♣", "3♦", "classic", True),
    ("9♠9♦", "9♥9♣", "classic", True),
    ("Q♦Q♣", "J♠J♥", "classic", True),
    ("2♦3♦4♦5♦6♣", "A♠2♠3♠4♠5♥", "classic", True),  # 2-3-4-5-6 beats A-2-3-4-5
    ("A♠2♠3♠4♠5♥", "2♦3♦4♦5♦6♣", "hong-kong", True),  # ...under hong-kong the reverse
    ("3♠5♠7♠9♠J♠", "2♥A♥K♥Q♥9♥", "classic", True),  # suit first
    ("2♥A♥K♥Q♥9♥", "3♠5♠7♠9♠J♠", "hong-kong", True),  # top card first
    ("9♦9♣9♥4♦4♣", "8♠8♥8♣K♠K♥", "classic", True),
    ("3♦3♣3♥3♠4♦", "2♠2♥2♣A♠A♥", "classic", True),
    ("3♦4♦5♦6♦7♦", "2♠2♥2♣2♦A♠", "classic", True),
]


@pytest.mark.parametrize(("a", "b", "preset", "expected"), EXAMPLES)
def test_plays_md_examples(a: str, b: str, preset: str, expected: bool) -> None:
    rules = PLAY_PRESETS[preset]
    assert beats(a, b, rules) is expected
    assert beats(b, a, rules) is not expected


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("2♦3♦4♦5♦6♣", "A♠2♠3♠4♠5♥"),  # 2-3-4-5-6 no longer beats A-2-3-4-5
        ("3♠5♠7♠9♠J♠", "2♥A♥K♥Q♥9♥"),  # "under hong-kong it does not"
    ],
)
def test_plays_md_examples_reversed_under_hong_kong(a: str, b: str) -> None:
    assert beats(a, b, CLASSIC)
    assert not beats(a, b, HONG_KONG)


@pytest.mark.parametrize("straights", ["pagat", "hong-kong", "ace-low-excluded"])
def test_royal_run_with_a_two_is_a_flush(straights: str) -> None:
    assert play("J♠Q♠K♠A♠2♠", rules(straights=straights)).kind == "flush"


def test_royal_run_with_a_two_is_the_top_straight_flush_under_no_wrap() -> None:
    top = play("J♠Q♠K♠A♠2♠", rules(straights="no-wrap"))
    assert top.kind == "straight-flush"
    assert top.describe() == "straight flush J-Q-K-A-2 (top 2♠)"


def test_four_alone_is_not_a_play_with_kicker() -> None:
    with pytest.raises(InputError) as error:
        play("3♠3♥3♣3♦")
    assert str(error.value) == (
        "3♦ 3♣ 3♥ 3♠ is not a play: four of a kind needs a fifth card (four_of_a_kind is with-kicker)"
    )
    assert play("3♠3♥3♣3♦", rules(four_of_a_kind="alone")).kind == "four-of-a-kind"


# --- docs/plays.md "Plays (default rules)" ------------------------------------------------

STRAIGHT_ORDERS = {
    "pagat": [
        "A-2-3-4-5",
        "2-3-4-5-6",
        "3-4-5-6-7",
        "4-5-6-7-8",
        "5-6-7-8-9",
        "6-7-8-9-10",
        "7-8-9-10-J",
        "8-9-10-J-Q",
        "9-10-J-Q-K",
        "10-J-Q-K-A",
    ],
    "hong-kong": [
        "3-4-5-6-7",
        "4-5-6-7-8",
        "5-6-7-8-9",
        "6-7-8-9-10",
        "7-8-9-10-J",
        "8-9-10-J-Q",
        "9-10-J-Q-K",
        "10-J-Q-K-A",
        "2-3-4-5-6",
        "A-2-3-4-5",
    ],
    "no-wrap": [
        "3-4-5-6-7",
        "4-5-6-7-8",
        "5-6-7-8-9",
        "6-7-8-9-10",
        "7-8-9-10-J",
        "8-9-10-J-Q",
        "9-10-J-Q-K",
        "10-J-Q-K-A",
        "J-Q-K-A-2",
    ],
    "ace-low-excluded": [
        "2-3-4-5-6",
        "3-4-5-6-7",
        "4-5-6-7-8",
        "5-6-7-8-9",
        "6-7-8-9-10",
        "7-8-9-10-J",
        "8-9-10-J-Q",
        "9-10-J-Q-K",
        "10-J-Q-K-A",
    ],
}


def run(ranks: str, suits: str) -> str:
    return " ".join(rank + suit for rank, suit in zip(ranks.split("-"), suits, strict=True))


@pytest.mark.parametrize("straights", list(STRAIGHT_ORDERS))
def test_straight_order(straights: str) -> None:
    """Each straight beats the one below it, whatever the suits (low one has the ♠s)."""
    house = rules(straights=straights)
    order = STRAIGHT_ORDERS[straights]
    for low, high in pairwise(order):
        assert beats(run(high, "DDDDC"), run(low, "SSSSH"), house), (high, low)
        assert not beats(run(low, "SSSSH"), run(high, "DDDDC"), house), (low, high)
    for ranks in order:
        assert play(run(ranks, "DSSSS"), house).kind == "straight"
        assert play(run(ranks, "HHHHH"), house).kind == "straight-flush"


@pytest.mark.parametrize(
    ("straights", "ranks", "legal"),
    [
        ("pagat", "J-Q-K-A-2", False),
        ("pagat", "Q-K-A-2-3", False),
        ("pagat", "K-A-2-3-4", False),
        ("pagat", "A-2-3-4-5", True),
        ("hong-kong", "J-Q-K-A-2", False),
        ("hong-kong", "Q-K-A-2-3", False),
        ("no-wrap", "J-Q-K-A-2", True),  # twos high: 2-A-K-Q-J is the top straight
        ("no-wrap", "Q-K-A-2-3", False),
        ("no-wrap", "A-2-3-4-5", False),
        ("no-wrap", "2-3-4-5-6", False),
        ("ace-low-excluded", "A-2-3-4-5", False),
        ("ace-low-excluded", "2-3-4-5-6", True),  # pagat removes A-2-3-4-5 only
        ("three-to-ace", "2-3-4-5-6", False),
        ("three-to-ace", "A-2-3-4-5", False),
        ("ace-low-excluded", "J-Q-K-A-2", False),
    ],
)
def test_which_runs_are_straights(straights: str, ranks: str, legal: bool) -> None:
    cards = run(ranks, "SHSHS")
    if legal:
        assert play(cards, rules(straights=straights)).kind == "straight"
    else:
        with pytest.raises(InputError, match="is not a play: five cards must be a straight"):
            play(cards, rules(straights=straights))


def test_three_two_ace_king_queen_is_not_a_straight() -> None:
    with pytest.raises(InputError):
        play("3♠ 2♥ A♠ K♥ Q♠")


@pytest.mark.parametrize(
    ("a", "b", "straights"),
    [
        ("A♦2♦3♦4♦5♠", "A♠2♠3♠4♠5♥", "pagat"),  # top card of A-2-3-4-5 is the 5
        ("2♦3♦4♦5♦6♠", "2♠3♠4♠5♠6♥", "pagat"),  # ... of 2-3-4-5-6 the 6
        ("10♦J♦Q♦K♦A♠", "10♠J♠Q♠K♠A♥", "pagat"),
        ("A♦2♠3♦4♦5♦", "A♠2♥3♠4♠5♠", "hong-kong"),  # hong-kong: the 2 is the top card
        ("J♦Q♦K♦A♦2♠", "J♠Q♠K♠A♠2♥", "no-wrap"),
    ],
)
def test_equal_straights_tie_on_the_top_card(a: str, b: str, straights: str) -> None:
    assert beats(a, b, rules(straights=straights))
    assert not beats(b, a, rules(straights=straights))


def test_straight_flushes_tie_by_suit() -> None:
    assert beats("3♠4♠5♠6♠7♠", "3♥4♥5♥6♥7♥")
    assert beats("4♦5♦6♦7♦8♦", "3♠4♠5♠6♠7♠")


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("3♦4♦5♦6♦8♦", "10♠J♥Q♠K♠A♠"),  # flush > straight
        ("3♦3♣3♥4♦4♣", "2♠A♠K♠Q♠9♠"),  # full house > flush
        ("3♦3♣3♥3♠4♦", "2♠2♥2♣A♠A♥"),  # four of a kind > full house
        ("3♦4♦5♦6♦7♦", "2♠2♥2♣2♦A♠"),  # straight flush > four of a kind
        ("A♦2♦3♦4♦5♦", "10♠J♥Q♠K♠A♠"),
    ],
)
def test_five_card_kinds_rank(a: str, b: str) -> None:
    verdict = compare(play(a), play(b), CLASSIC)
    assert verdict.beats
    assert "ranks above" in verdict.reason
    assert not beats(b, a)


def test_flushes_suit_first_then_top_card() -> None:
    # pagat: 9-7-6-5-3 beats 2-J-9-6-4, which beats A-K-Q-10-7 (suits ♠, ♥, ♣)
    assert beats("9♠7♠6♠5♠3♠", "2♥J♥9♥6♥4♥")
    assert beats("2♥J♥9♥6♥4♥", "A♣K♣Q♣10♣7♣")
    assert beats("K♥10♥8♥7♥4♥", "9♥6♥5♥3♥2♥") is False  # 2 is the top card there
    assert beats("Q♥10♥8♥7♥4♥", "J♥9♥6♥5♥3♥")


def test_singles_pairs_triples_rank_then_highest_suit() -> None:
    assert beats("3♦", "2♠") is False
    assert beats("4♦", "3♠")
    assert beats("9♠9♦", "9♥9♣")
    assert beats("9♥9♣", "9♠9♦") is False
    assert beats("K♦K♣K♥", "Q♠Q♥Q♣")
    assert beats("A♠A♦", "A♥A♣")


def test_full_house_and_four_decided_by_the_big_part() -> None:
    assert beats("4♦4♣4♥3♦3♣", "3♠3♥3♣A♠A♥")  # the pair does not matter
    assert not beats("3♠3♥3♣A♠A♥", "4♦4♣4♥3♦3♣")
    assert beats("4♦4♣4♥4♠5♦", "3♠3♥3♣3♦2♠")  # nor does the kicker
    assert not beats("3♠3♥3♣3♦2♠", "4♦4♣4♥4♠5♦")


def test_different_sizes_never_beat() -> None:
    verdict = compare(play("2♠2♥"), play("3♦"), CLASSIC)
    assert verdict == Verdict(
        False,
        "pair 2♥ 2♠ cannot be played on single 3♦: a play is beaten only by one with as many cards",
    )
    assert not beats("3♦4♦5♦6♦7♦", "3♠")


def test_equal_plays_do_not_beat_each_other() -> None:
    verdict = compare(play("5♠"), play("5♠"), CLASSIC)
    assert not verdict.beats
    assert "equal" in verdict.reason


def test_compare_reasons() -> None:
    assert compare(play("2♠"), play("2♥"), CLASSIC).reason == ("single 2♠ beats single 2♥: higher suit")
    assert compare(play("9♥9♣"), play("9♠9♦"), CLASSIC).reason == (
        "pair 9♣ 9♥ does not beat pair 9♦ 9♠: lower suit of its highest card"
    )
    assert compare(play("3♦3♣3♥3♠4♦"), play("2♠2♥2♣A♠A♥"), CLASSIC).reason == (
        "four of a kind 3-3-3-3 + 4♦ beats full house 2-2-2 + A-A: a four of a kind ranks above a full house"
    )


# --- describe and errors -------------------------------------------------------------


@pytest.mark.parametrize(
    ("cards", "house", "text"),
    [
        ("3♦4♦5♥6♣7♠", CLASSIC, "straight 3-4-5-6-7 (top 7♠)"),
        ("5♠ A♦ 3♥ 2♣ 4♦", CLASSIC, "straight A-2-3-4-5 (top 5♠)"),
        ("5♠ A♦ 3♥ 2♣ 4♦", HONG_KONG, "straight A-2-3-4-5 (top 2♣)"),
        ("3♥4♥5♥6♥7♥", CLASSIC, "straight flush 3-4-5-6-7 (top 7♥)"),
        ("2♠", CLASSIC, "single 2♠"),
        ("9♠9♦", CLASSIC, "pair 9♦ 9♠"),
        ("9♠9♦9♣", CLASSIC, "triple 9♦ 9♣ 9♠"),
        ("3♠5♠7♠9♠J♠", CLASSIC, "flush ♠ J-9-7-5-3"),
        ("9♦9♣9♥4♦4♣", CLASSIC, "full house 9-9-9 + 4-4"),
        ("3♦3♣3♥3♠4♦", CLASSIC, "four of a kind 3-3-3-3 + 4♦"),
        ("3♦3♣3♥3♠", PlayRules(four_of_a_kind="alone"), "four of a kind 3-3-3-3"),
    ],
)
def test_describe(cards: str, house: PlayRules, text: str) -> None:
    assert play(cards, house).describe() == text


def test_play_fields() -> None:
    p = play("7♠ 3♦ 5♥ 4♦ 6♣")
    assert p.kind == "straight"
    assert p.cards == parse_cards("3♦ 4♦ 5♥ 6♣ 7♠")
    assert p.top == Card(7, "S")


@pytest.mark.parametrize(
    ("cards", "house", "message"),
    [
        ("3♠4♦", CLASSIC, "3♠ 4♦ is not a play: two cards must be a pair"),
        ("3♠4♦4♠", CLASSIC, "3♠ 4♦ 4♠ is not a play: three cards must be a triple"),
        (
            "3♠3♦3♣",
            PlayRules(no_triples=True),
            "3♦ 3♣ 3♠ is not a play: triples are not allowed (no_triples)",
        ),
        (
            "3♠3♦3♣4♦",
            PlayRules(four_of_a_kind="alone"),
            "3♦ 3♣ 3♠ 4♦ is not a play: four cards must be four of a kind",
        ),
        (
            "3♠4♦6♠7♠8♠",
            CLASSIC,
            "3♠ 4♦ 6♠ 7♠ 8♠ is not a play: five cards must be a straight, "
            "flush, full house, four of a kind plus one card or straight flush",
        ),
        (
            "3♠4♠6♠7♠8♠",
            PlayRules(no_flushes=True),
            "3♠ 4♠ 6♠ 7♠ 8♠ is not a play: five cards "
            "must be a straight, full house, four of a kind plus one card or straight flush "
            "(no_flushes)",
        ),
        (
            "3♠3♦4♠4♦5♠",
            CLASSIC,
            "3♦ 3♠ 4♦ 4♠ 5♠ is not a play: five cards must be a straight, "
            "flush, full house, four of a kind plus one card or straight flush",
        ),
        ("", CLASSIC, "no cards: a play is 1, 2, 3 or 5 cards"),
        ("3♠4♠5♠6♠7♠8♠", CLASSIC, "3♠ 4♠ 5♠ 6♠ 7♠ 8♠ is not a play: a play is 1, 2, 3 or 5 cards"),
    ],
)
def test_not_a_play(cards: str, house: PlayRules, message: str) -> None:
    with pytest.raises(InputError) as error:
        play(cards, house)
    assert str(error.value) == message


def test_classify_rejects_a_repeated_card() -> None:
    with pytest.raises(InputError, match="card 3S is named twice"):
        classify([Card(3, "S"), Card(3, "S")], CLASSIC)


# --- every option changes an answer -----------------------------------------------------


@pytest.mark.parametrize(
    ("a", "b", "option", "value"),
    [
        ("3♣", "3♦", "suit_order", "DHSC"),  # Pusoy Dos: diamonds high, clubs low
        ("3♠", "3♦", "suit_order", "DHSC"),
        ("3♣", "3♦", "suit_order", "SHDC"),  # bridge order
        ("9♣9♠", "9♦9♥", "suit_order", "DHSC"),
        ("3♣5♣7♣9♣J♣", "3♦5♦7♦9♦J♦", "suit_order", "SHDC"),
        ("3♠4♦5♦6♦7♣", "3♦4♠5♠6♠7♦", "suit_order", "SHDC"),
        ("2♦3♦4♦5♦6♣", "A♠2♠3♠4♠5♥", "straights", "hong-kong"),
        ("10♠J♥Q♠K♠A♠", "2♦3♦4♦5♦6♣", "straights", "hong-kong"),
        ("A♠2♥3♠4♠5♠", "A♦2♠3♦4♦5♦", "straights", "hong-kong"),  # top card: 5, then 2
        ("3♠5♠7♠9♠J♠", "2♥A♥K♥Q♥9♥", "flushes", "top-card-first"),
        ("3♠5♠7♠9♠J♠", "2♥A♥K♥Q♥9♥", "flushes", "poker"),
    ],
)
def test_option_reverses_classic_answer(a: str, b: str, option: str, value: str) -> None:
    assert beats(a, b, CLASSIC)
    assert not beats(a, b, rules(**{option: value}))
    assert beats(b, a, rules(**{option: value}))


def test_flush_rankings_differ_from_each_other() -> None:
    # pagat: top-card-first: 2-J-7-5-3 beats A-J-10-7-6, which beats A-K-J-9-8 (♠ > ♥)
    top_first, poker = rules(flushes="top-card-first"), rules(flushes="poker")
    assert beats("2♦J♦7♦5♦3♦", "A♠J♠10♠7♠6♠", top_first)
    assert beats("A♠J♠10♠7♠6♠", "A♥K♥J♥9♥8♥", top_first)
    # poker: A-K-J-9-8 beats A-J-10-7-6 because the king is higher
    assert not beats("A♠J♠10♠7♠6♠", "A♥K♥J♥9♥8♥", poker)
    assert beats("A♥K♥J♥9♥8♥", "A♠J♠10♠7♠6♠", poker)
    assert beats("9♠7♠6♠5♠3♠", "9♥7♥6♥5♥3♥", poker)  # all ranks equal: suit


def test_no_wrap_and_ace_low_excluded_change_legality() -> None:
    with pytest.raises(InputError):
        play("J♠Q♥K♠A♠2♠")
    assert play("J♠Q♥K♠A♠2♠", rules(straights="no-wrap")).kind == "straight"
    assert beats("J♦Q♦K♦A♦2♣", "10♠J♠Q♠K♠A♥", rules(straights="no-wrap"))
    assert play("A♠2♥3♠4♠5♠").kind == "straight"
    with pytest.raises(InputError):
        play("A♠2♥3♠4♠5♠", rules(straights="ace-low-excluded"))


def test_four_alone() -> None:
    alone = rules(four_of_a_kind="alone")
    assert beats("4♠4♥4♣4♦", "3♠3♥3♣3♦", alone)
    assert not beats("3♠3♥3♣3♦", "4♠4♥4♣4♦", alone)
    assert not beats("4♠4♥4♣4♦", "2♠", alone)
    assert not beats("4♠4♥4♣4♦", "2♠2♥2♣", alone)
    assert play("4♠4♥4♣4♦3♦", alone).kind == "four-of-a-kind"  # a kicker is still fine


def test_bombs_beat_anything() -> None:
    bombs = rules(bombs="beat-anything")
    for small in ("2♠", "2♠2♥", "2♠2♥2♣"):
        assert not beats("3♠3♥3♣3♦4♦", small)
        assert beats("3♠3♥3♣3♦4♦", small, bombs)
        assert beats("3♦4♦5♦6♦7♦", small, bombs)
        assert not beats(small, "3♠3♥3♣3♦4♦", bombs)
    assert (
        "a bomb beats any single, pair or triple"
        in compare(play("3♦4♦5♦6♦7♦", bombs), play("2♠", bombs), bombs).reason
    )
    assert not beats("3♦4♦5♦6♦8♦", "2♠", bombs)  # a flush is no bomb
    both = rules(bombs="beat-anything", four_of_a_kind="alone")
    assert not beats("3♠3♥3♣3♦", "2♠", both)  # a four alone is only beaten by/beats fours
    assert not beats("3♠3♥3♣3♦4♦", "4♠4♥4♣4♦", both)
    assert beats("3♦4♦5♦6♦7♦", "2♠2♥2♣2♦A♠", bombs)  # five cards: ordinary order


def test_no_flushes() -> None:
    assert play("3♠5♠7♠9♠J♠").kind == "flush"
    with pytest.raises(InputError, match=r"\(no_flushes\)"):
        play("3♠5♠7♠9♠J♠", rules(no_flushes=True))
    assert play("3♠4♠5♠6♠7♠", rules(no_flushes=True)).kind == "straight-flush"


def test_no_triples() -> None:
    assert play("9♠9♥9♣").kind == "triple"
    with pytest.raises(InputError, match=r"\(no_triples\)"):
        play("9♠9♥9♣", rules(no_triples=True))
    assert play("9♠9♥9♣4♦4♣", rules(no_triples=True)).kind == "full-house"


def test_compare_rejudges_under_the_given_rules() -> None:
    with pytest.raises(InputError):
        compare(play("3♠5♠7♠9♠J♠"), play("3♥5♥7♥9♥J♥"), rules(no_flushes=True))


# --- PlayRules ------------------------------------------------------------------------


def test_defaults_and_presets() -> None:
    assert DEFAULT_RULES.to_dict() == {
        "suit_order": "SHCD",
        "straights": "pagat",
        "flushes": "suit-first",
        "four_of_a_kind": "with-kicker",
        "bombs": "off",
        "no_flushes": False,
        "no_triples": False,
        "five_card_order": "standard",
        "rank_order": "two-high",
        "five_of_a_kind": "off",
        "identical_beats": False,
        "butterfly": False,
        "smack_down": False,
        "triple_plus_two": False,
        "long_straights": False,
        "dragon_play": False,
        "straight_flush_plus_two": False,
        "jokers": False,
    }
    assert PLAY_PRESETS["classic"] == PlayRules()
    assert PLAY_PRESETS["hong-kong"] == PlayRules(straights="hong-kong", flushes="top-card-first")


def test_from_mapping_round_trip() -> None:
    house = PlayRules(
        suit_order="DHSC",
        straights="no-wrap",
        flushes="poker",
        four_of_a_kind="alone",
        bombs="beat-anything",
        no_flushes=True,
        no_triples=True,
    )
    assert PlayRules.from_mapping(house.to_dict()) == house
    assert PlayRules.from_mapping({}) == PlayRules()


def test_from_mapping_accepts_dashes_and_suit_order_case() -> None:
    assert PlayRules.from_mapping({"four-of-a-kind": "alone", "suit-order": "shdc"}) == PlayRules(
        four_of_a_kind="alone", suit_order="SHDC"
    )


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (
            {"wilds": "on"},
            "unknown play option 'wilds': the options are suit_order, straights, "
            "flushes, four_of_a_kind, bombs, no_flushes, no_triples, five_card_order, rank_order, "
            "five_of_a_kind, identical_beats, butterfly, smack_down, triple_plus_two, long_straights, "
            "dragon_play, straight_flush_plus_two, jokers",
        ),
        (
            {"suit_order": "CDHS"},
            "play option suit_order cannot be 'CDHS': use one of SHCD, DHSC, SHDC, CSHD, HSDC, none",
        ),
        (
            {"straights": "wrap"},
            "play option straights cannot be 'wrap': use one of pagat, hong-kong, no-wrap, "
            "ace-low-excluded, twos-high, descending, indonesian, no-ace-five, "
            "ace-five-low-two-six-high, two-six-over-ace-five, ace-five-high, ace-five-below-ace, "
            "wrap-around, ace-low-king-high, three-to-ace",
        ),
        ({"flushes": 3}, "play option flushes cannot be 3: use one of suit-first, top-card-first, poker"),
        (
            {"four_of_a_kind": "kicker"},
            "play option four_of_a_kind cannot be 'kicker': use one of with-kicker, alone, two-pairs",
        ),
        ({"bombs": "on"}, "play option bombs cannot be 'on': use one of off, beat-anything, beat-all, "
         "quads-beat-all"),
        ({"no_flushes": "yes"}, "play option no_flushes must be true or false, not 'yes'"),
        ({"no_triples": 1}, "play option no_triples must be true or false, not 1"),
        ({"no_triples": None}, "play option no_triples must be true or false, not None"),
        (
            {"no-flushes": True, "no_flushes": False},
            "play option no_flushes is given twice: give each option once",
        ),
    ],
)
def test_bad_options(options: dict[str, object], message: str) -> None:
    with pytest.raises(RuleError) as error:
        PlayRules.from_mapping(options)
    assert str(error.value) == message


def test_constructor_validates_too() -> None:
    with pytest.raises(RuleError):
        PlayRules(bombs="sometimes")


# --- properties ----------------------------------------------------------------------

DECK = tuple(Card(rank, suit) for rank in RANKS for suit in SUITS)
ALL_RUNS = {run.ranks for style in CHOICES["straights"] for run in straight_runs(style)}

def _together(options: dict[str, object]) -> PlayRules:
    """rank_order and straights = "ace-low-king-high" go together (either alone is refused)."""
    if options["rank_order"] == "ace-low-king-high":
        options["straights"] = "ace-low-king-high"
    elif options["straights"] == "ace-low-king-high":
        options["rank_order"] = "ace-low-king-high"
    return PlayRules(**options)  # type: ignore[arg-type]


house_rules = st.fixed_dictionaries({
    **{name: st.sampled_from(values) for name, values in CHOICES.items()},
    "no_flushes": st.booleans(),
    "no_triples": st.booleans(),
}).map(_together)


SHAPES = {1: ["single"], 2: ["same"], 3: ["same"], 4: ["same"], 5: ["four+1", "full", "run", "flush"]}


@st.composite
def candidate_cards(draw: st.DrawFn, size: int | None = None) -> list[Card]:
    """Card groups shaped like some play (the rules may still reject them)."""
    size = draw(st.sampled_from(sorted(SHAPES))) if size is None else size
    shape = draw(st.sampled_from(SHAPES[size]))
    suits = draw(st.permutations(SUITS))
    if shape == "single":
        return [draw(st.sampled_from(DECK))]
    if shape == "same":
        rank = draw(st.sampled_from(RANKS))
        return [Card(rank, s) for s in suits[:size]]
    if shape in ("four+1", "full"):
        big, small = draw(st.lists(st.sampled_from(RANKS), min_size=2, max_size=2, unique=True))
        sizes = (4, 1) if shape == "four+1" else (3, 2)
        other = draw(st.permutations(SUITS))
        return [Card(big, s) for s in suits[: sizes[0]]] + [Card(small, s) for s in other[: sizes[1]]]
    if shape == "run":
        ranks = draw(st.sampled_from(sorted(ALL_RUNS)))
        return [Card(r, draw(st.sampled_from(SUITS))) for r in ranks]
    ranks = draw(st.lists(st.sampled_from(RANKS), min_size=5, max_size=5, unique=True))
    return [Card(r, suits[0]) for r in ranks]


def legal(cards: list[Card], house: PlayRules) -> Play:
    try:
        return classify(cards, house)
    except InputError:
        assume(False)
        raise


@given(house_rules, candidate_cards(), candidate_cards())
def test_compare_is_antisymmetric(house: PlayRules, a: list[Card], b: list[Card]) -> None:
    pa, pb = legal(a, house), legal(b, house)
    assert not (compare(pa, pb, house).beats and compare(pb, pa, house).beats)


@given(house_rules, candidate_cards())
def test_a_play_never_beats_itself(house: PlayRules, cards: list[Card]) -> None:
    p = legal(cards, house)
    assert not compare(p, p, house).beats


@given(house_rules, candidate_cards(), st.data())
def test_disjoint_plays_of_one_size_are_ordered(house: PlayRules, a: list[Card], data: st.DataObject) -> None:
    """At a real table (one deck) two same-size plays are never tied (while suits rank and
    every five-card kind may be played on another: not under no-poker-rules or gamesky)."""
    assume(house.suit_order != "none")
    assume(house.five_card_order not in ("no-poker-rules", "gamesky"))
    pa = legal(a, house)
    b = data.draw(candidate_cards(len(a)))
    assume(not set(a) & set(b))
    pb = legal(b, house)
    assert compare(pa, pb, house).beats != compare(pb, pa, house).beats


@given(house_rules, candidate_cards(), st.randoms())
def test_card_order_does_not_matter(house: PlayRules, cards: list[Card], rnd: random.Random) -> None:
    p = legal(cards, house)
    shuffled = list(cards)
    rnd.shuffle(shuffled)
    assert classify(shuffled, house) == p
