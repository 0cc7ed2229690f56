"""Cards: every accepted notation, the error messages, and reading a held hand."""

from __future__ import annotations

from itertools import combinations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ledger.core.cards import (
    RANKS,
    SUITS,
    Card,
    HandReading,
    find_bombs,
    format_card,
    format_cards,
    parse_card,
    parse_cards,
    read_hand,
    straight_runs,
)
from ledger.core.errors import InputError, RuleError

DECK = tuple(Card(rank, suit) for rank in RANKS for suit in SUITS)


# --- parsing ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "card"),
    [
        ("10H", Card(10, "H")),
        ("10h", Card(10, "H")),
        ("TH", Card(10, "H")),
        ("th", Card(10, "H")),
        ("10♥", Card(10, "H")),
        ("♥10", Card(10, "H")),
        ("H10", Card(10, "H")),
        ("h10", Card(10, "H")),
        ("hT", Card(10, "H")),
        ("2s", Card(15, "S")),
        ("2♠", Card(15, "S")),
        ("AS", Card(14, "S")),
        ("as", Card(14, "S")),
        ("♠A", Card(14, "S")),
        ("KC", Card(13, "C")),
        ("♣k", Card(13, "C")),
        ("qd", Card(12, "D")),
        ("Q♦", Card(12, "D")),
        ("jh", Card(11, "H")),
        ("3D", Card(3, "D")),
        ("9c", Card(9, "C")),
        ("  7s  ", Card(7, "S")),
        ("♡5", Card(5, "H")),
        ("♥️J", Card(11, "H")),  # emoji heart with presentation selector
    ],
)
def test_parse_card_notations(text: str, card: Card) -> None:
    assert parse_card(text) == card


@pytest.mark.parametrize("text", ["1X", "1H", "11H", "10", "H", "", "ZZ", "10HH", "S", "KX", "3 S"])
def test_parse_card_rejects_with_help(text: str) -> None:
    with pytest.raises(InputError) as error:
        parse_card(text)
    message = str(error.value)
    assert message.startswith(f"unknown card {text.strip()!r}: a card is a rank 2-9, 10 or T")
    assert "S, H, C, D (or ♠ ♥ ♣ ♦), e.g. 10H or QS" in message
    assert "\n" not in message and not message.endswith(".")  # one sentence


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("3s 4h 5d", "3S 4H 5D"),
        ("3s,4h,5d", "3S 4H 5D"),
        ("3s, 4h ,5d", "3S 4H 5D"),
        ("  3s\t4h\n5d  ", "3S 4H 5D"),
        ("10h TS ♥J h8", "10H 10S JH 8H"),
        ("9♠9♦", "9S 9D"),  # back to back, as docs/plays.md prints plays
        ("3♠5♠7♠9♠J♠", "3S 5S 7S 9S JS"),
        ("10h9s", "10H 9S"),
        ("H10S9", "10H 9S"),
        ("♠2♥2", "2S 2H"),
        ("", ""),
        (" , ", ""),
    ],
)
def test_parse_cards(text: str, expected: str) -> None:
    assert format_cards(parse_cards(text)) == expected


def test_parse_cards_keeps_order() -> None:
    assert parse_cards("2s 3d") == (Card(15, "S"), Card(3, "D"))


@pytest.mark.parametrize(("text", "named"), [("3s 3S", "3S"), ("TH,10h", "10H"), ("♠A as", "AS")])
def test_parse_cards_rejects_a_repeated_card(text: str, named: str) -> None:
    with pytest.raises(InputError, match=f"^card {named} is named twice: each card may be named"):
        parse_cards(text)


@pytest.mark.parametrize("text", ["3s 1x", "3s,,4q", "9SH9", "3s4"])
def test_parse_cards_names_the_bad_token(text: str) -> None:
    with pytest.raises(InputError, match=r"^unknown card '"):
        parse_cards(text)


@pytest.mark.parametrize(
    ("card", "ascii", "symbols"),
    [
        (Card(10, "H"), "10H", "10♥"),
        (Card(15, "S"), "2S", "2♠"),
        (Card(14, "C"), "AC", "A♣"),
        (Card(3, "D"), "3D", "3♦"),
        (Card(11, "S"), "JS", "J♠"),
    ],
)
def test_format_card(card: Card, ascii: str, symbols: str) -> None:
    assert format_card(card) == ascii == str(card)
    assert format_card(card, symbols=True) == symbols


def test_card_rejects_impossible_values() -> None:
    with pytest.raises(ValueError):
        Card(16, "S")
    with pytest.raises(ValueError):
        Card(5, "X")


@given(st.sampled_from(DECK), st.booleans())
def test_parse_undoes_format(card: Card, symbols: bool) -> None:
    assert parse_card(format_card(card, symbols)) == card


@given(st.lists(st.sampled_from(DECK), unique=True, max_size=17), st.booleans())
def test_parse_cards_undoes_format_cards(hand: list[Card], symbols: bool) -> None:
    assert parse_cards(format_cards(hand, symbols)) == tuple(hand)


# --- straights -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("style", "order"),
    [
        (
            "pagat",
            "A-2-3-4-5 2-3-4-5-6 3-4-5-6-7 4-5-6-7-8 5-6-7-8-9 6-7-8-9-10 7-8-9-10-J "
            "8-9-10-J-Q 9-10-J-Q-K 10-J-Q-K-A",
        ),
        (
            "hong-kong",
            "3-4-5-6-7 4-5-6-7-8 5-6-7-8-9 6-7-8-9-10 7-8-9-10-J 8-9-10-J-Q "
            "9-10-J-Q-K 10-J-Q-K-A 2-3-4-5-6 A-2-3-4-5",
        ),
        (
            "no-wrap",
            "3-4-5-6-7 4-5-6-7-8 5-6-7-8-9 6-7-8-9-10 7-8-9-10-J 8-9-10-J-Q 9-10-J-Q-K 10-J-Q-K-A J-Q-K-A-2",
        ),
        (
            "ace-low-excluded",
            "2-3-4-5-6 3-4-5-6-7 4-5-6-7-8 5-6-7-8-9 6-7-8-9-10 7-8-9-10-J 8-9-10-J-Q 9-10-J-Q-K "
            "10-J-Q-K-A",
        ),
        (
            "three-to-ace",
            "3-4-5-6-7 4-5-6-7-8 5-6-7-8-9 6-7-8-9-10 7-8-9-10-J 8-9-10-J-Q 9-10-J-Q-K 10-J-Q-K-A",
        ),
    ],
)
def test_straight_runs_low_to_high(style: str, order: str) -> None:
    assert " ".join(str(run) for run in straight_runs(style)) == order


@pytest.mark.parametrize(
    ("style", "run", "top"),
    [
        ("pagat", "A-2-3-4-5", "5"),
        ("pagat", "2-3-4-5-6", "6"),
        ("pagat", "10-J-Q-K-A", "A"),
        ("hong-kong", "A-2-3-4-5", "2"),
        ("hong-kong", "2-3-4-5-6", "2"),
        ("hong-kong", "3-4-5-6-7", "7"),
        ("no-wrap", "J-Q-K-A-2", "2"),
    ],
)
def test_straight_top_card(style: str, run: str, top: str) -> None:
    tops = {str(r): r.top for r in straight_runs(style)}
    assert format_card(Card(tops[run], "S")) == top + "S"


def test_unknown_straight_style_is_a_rule_error() -> None:
    with pytest.raises(RuleError, match=r"^play option straights cannot be 'wrap': use one of"):
        straight_runs("wrap")


# --- reading a hand ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("hand", "style", "reading"),
    [
        ("", "pagat", (0, 0, 0)),
        ("2s 2h 3d 9c", "pagat", (4, 2, 0)),
        ("2s 2h 2c 2d", "pagat", (4, 4, 1)),  # a four needs no kicker to count
        ("7s 7h 7c 7d 8h 9h 10h jh qh", "pagat", (9, 0, 2)),  # four 7s + disjoint SF
        ("7s 7h 7c 7d 3h 4h 5h 6h", "pagat", (8, 0, 1)),  # SF 3-7♥ needs the 7♥
        ("7s 7h 7c 7d 3h 4h 5h 6h 8s 9s 10s js", "pagat", (12, 0, 2)),  # two SFs, not the four
        ("3h 4h 5h 6h 7h 8h 9h 10h jh", "pagat", (9, 0, 1)),
        ("3h 4h 5h 6h 7h 8h 9h 10h jh qh", "pagat", (10, 0, 2)),  # 3-7 and 8-Q, not 4-8
        ("ah 2h 3h 4h 5h", "pagat", (5, 1, 1)),
        ("ah 2h 3h 4h 5h", "hong-kong", (5, 1, 1)),
        ("ah 2h 3h 4h 5h", "no-wrap", (5, 1, 0)),
        ("ah 2h 3h 4h 5h", "ace-low-excluded", (5, 1, 0)),
        ("2s 3s 4s 5s 6s", "ace-low-excluded", (5, 1, 1)),  # pagat keeps 2-3-4-5-6
        ("2s 3s 4s 5s 6s", "three-to-ace", (5, 1, 0)),
        ("js qs ks as 2s", "pagat", (5, 1, 0)),
        ("js qs ks as 2s", "no-wrap", (5, 1, 1)),
        ("3s 4h 5h 6h 7h", "pagat", (5, 0, 0)),  # a plain straight is no bomb
    ],
)
def test_read_hand(hand: str, style: str, reading: tuple[int, int, int]) -> None:
    assert read_hand(parse_cards(hand), style) == HandReading(*reading)


def test_read_hand_default_is_pagat() -> None:
    assert read_hand(parse_cards("ah 2h 3h 4h 5h")).bombs == 1


def test_read_hand_whole_deck() -> None:
    assert read_hand(DECK) == HandReading(52, 4, 13)


def test_read_hand_rejects_a_repeated_card() -> None:
    with pytest.raises(InputError, match="card 3S is named twice"):
        read_hand([Card(3, "S"), Card(3, "S")])


def _brute_force_bombs(hand: list[Card]) -> int:
    bombs = find_bombs(hand)
    for k in range(len(hand) // 4, 0, -1):
        for chosen in combinations(bombs, k):
            if len(frozenset().union(*chosen)) == sum(len(bomb) for bomb in chosen):
                return k
    return 0


# Ranks A, 2, 3-8 in all suits: rich in both fours and straight flushes.
BOMBY = tuple(card for card in DECK if card.rank in (3, 4, 5, 6, 7, 8, 14, 15))


@given(st.lists(st.sampled_from(BOMBY), unique=True, max_size=17))
def test_bomb_count_is_the_exact_maximum(hand: list[Card]) -> None:
    assert read_hand(hand).bombs == _brute_force_bombs(hand)


@given(st.lists(st.sampled_from(DECK), unique=True, max_size=17), st.sampled_from(DECK))
def test_hand_reading_bounds(hand: list[Card], extra: Card) -> None:
    reading = read_hand(hand)
    assert reading.count == len(hand)
    assert 4 * reading.bombs <= reading.count
    fours = sum(all(Card(rank, s) in hand for s in SUITS) for rank in RANKS)
    assert reading.bombs >= fours
    if extra not in hand:
        assert read_hand([*hand, extra]).bombs >= reading.bombs
