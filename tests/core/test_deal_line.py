"""The deal grammar both ways: a deal written by format_deal reads back as the same deal."""

from __future__ import annotations

import unicodedata

from hypothesis import given, settings
from hypothesis import strategies as st

from ledger.core.cards import RANKS, SUITS, Card, format_card, read_hand
from ledger.core.deal_line import (
    build_deal,
    facts_text,
    format_deal,
    parse_deal_line,
    shell_words,
    split_line,
    split_words,
)
from ledger.core.scoring import FINISHES, IMMEDIATE, Deal
from ledger.core.text import name_key

# Letters a player's name may hold, the awkward ones included: spaces, quotes,
# backslashes and # (a comment in a typed line), Chinese, accents, a digit.
NAME_CHARS = "AbcdeMaryn 'O\"\\#陳大文李小明é7-."


def _allowed(name: str) -> bool:
    """What `session start` accepts as a player name (book.check_player_names)."""
    return (name == name.strip() and name != "" and not name.startswith("-")
            and not name.isdigit() and unicodedata.normalize("NFC", name) == name)


names = st.text(NAME_CHARS, min_size=1, max_size=12).filter(_allowed)
seatings = st.lists(names, min_size=2, max_size=4, unique_by=name_key)
DECK = [Card(rank, suit) for rank in RANKS for suit in SUITS]


@st.composite
def deals(draw: st.DrawFn) -> Deal:
    seats = draw(seatings)
    winner = draw(st.sampled_from(seats))
    losers = [s for s in seats if s != winner]
    cards = {s: 0 if s == winner else draw(st.integers(1, 13)) for s in seats}
    twos = {s: draw(st.integers(1, 4)) for s in draw(st.lists(st.sampled_from(losers), unique=True))}
    bombs = {s: draw(st.integers(1, 3)) for s in draw(st.lists(st.sampled_from(losers), unique=True))}
    hands: dict[str, str] = {}
    deck = list(DECK)
    for s in draw(st.lists(st.sampled_from(losers), unique=True, max_size=2)):
        held = draw(st.lists(st.sampled_from(deck), min_size=1, max_size=13, unique=True))
        deck = [c for c in deck if c not in held]
        hands[s] = " ".join(format_card(c, symbols=draw(st.booleans())) for c in held)
        reading = read_hand(held)  # typed cards give the count, twos and bombs
        cards[s] = reading.count
        twos.pop(s, None)
        bombs.pop(s, None)
        if reading.twos:
            twos[s] = reading.twos
        if reading.bombs:
            bombs[s] = reading.bombs
    immediate = draw(st.sampled_from([None, *IMMEDIATE]))
    return Deal(
        cards=cards, twos=twos, bombs=bombs, hands=hands,
        finish=draw(st.sampled_from([None, *FINISHES])),
        assist=draw(st.sampled_from([None, *losers])),
        missed_call=draw(st.booleans()),
        immediate=immediate,
        immediate_by=None if immediate is None else draw(st.sampled_from(seats)),
        order=draw(st.one_of(st.none(), st.permutations(seats).map(tuple))),
        shootout=draw(st.sampled_from([None, *seats])),
        leftovers=draw(st.sampled_from([None, *seats])),
    )


def _seats(deal: Deal) -> list[str]:
    return list(deal.cards)


@settings(max_examples=300, deadline=None)
@given(deals())
def test_a_formatted_deal_parses_back_to_the_same_deal(deal: Deal) -> None:
    assert parse_deal_line(format_deal(deal), _seats(deal)) == deal


@settings(max_examples=100, deadline=None)
@given(deals())
def test_the_stored_facts_are_written_as_the_deal_is(deal: Deal) -> None:
    assert facts_text(deal.to_dict()) == format_deal(deal)
    assert parse_deal_line(facts_text(deal.to_dict()), _seats(deal)).to_dict() == deal.to_dict()


def test_names_that_need_quotes_are_quoted_and_others_are_not() -> None:
    deal = Deal(cards={"陳大文": 0, "Mary Ann": 3, "O'Brien": 5, "#9": 2},
                hands={"O'Brien": "2S 2H 5D 7C 9C"}, order=("陳大文", "Mary Ann", "#9", "O'Brien"))
    line = format_deal(deal)
    assert line.startswith('陳大文=0 "Mary Ann"=3 "O\'Brien"="2S 2H 5D 7C 9C" "#9"=2 ')
    assert line.endswith('--order "陳大文,Mary Ann,#9,O\'Brien"')
    assert split_line(line).positional[:2] == ["陳大文=0", "Mary Ann=3"]


def test_order_splits_on_commas_and_on_spaces_without_them() -> None:
    seats = ["Mary Ann", "Ben", "Cat"]
    assert parse_deal_line('0 3 5 --order "Mary Ann,Ben,Cat"', seats).order == ("Mary Ann", "Ben", "Cat")
    assert parse_deal_line("Ben=0 Cat=2 Mary=4 --order Ben,cat,mary", seats).order == (
        "Ben", "Cat", "Mary Ann")
    assert parse_deal_line('0 3 5 --order "Ben Cat Mary"', seats).order == ("Ben", "Cat", "Mary Ann")


FULL_WIDTH_LINES = ["0\u30003\u30008\u300012", "０\u3000３\u3000８\u3000１２",
                    "Ann=0\u3000Ben=3\u3000Cat=8\u3000Dan=12",
                    "0\u30003\u30008\u300012\u3000--twos\u3000Ben=1",
                    '"陳\u3000大文"=3\u3000Ben=0\u3000Cat=8\u3000Dan=12']


def test_one_shell_word_with_ideographic_spaces_reads_as_table_reads_the_line() -> None:
    """``bigtwo deal "0　3　8　12"``: a full-width keyboard's line is one shell word; it is
    the deal ``table`` reads from the same line (issue 30), for every kind of word."""
    for line in FULL_WIDTH_LINES:
        seats = ["陳\u3000大文" if "陳" in line else "Ann", "Ben", "Cat", "Dan"]
        assert build_deal(split_words(shell_words([line])), seats) == parse_deal_line(line, seats)
    as_words = shell_words(["Ann=0", "Mary Ann=3"])  # words without one stay as the shell gave them
    assert as_words == ["Ann=0", "Mary Ann=3"]
