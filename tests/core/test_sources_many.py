"""More than four at the table, worked from the texts (docs/scoring.md, "More than four
players"): two decks seat up to eight (the Russian article), one deck is dealt out as
far as it goes with the leftovers to the 3♦'s holder (Wikipedia)."""

from __future__ import annotations

import pytest

from ledger.core.cards import parse_card
from ledger.core.dealer import cut
from ledger.core.errors import InputError, RuleError
from ledger.core.rules import RuleSet, rules_from_mapping
from ledger.core.scoring import Deal, score_deal
from ledger.core.seating import Hands, check_table, hands

SIX = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay"]
EIGHT = [*SIX, "Gus", "Hal"]


def rules(**options: object) -> RuleSet:
    return rules_from_mapping(options)


def test_eight_players_two_decks_pairwise() -> None:
    """The Russian article: "Игра двумя колодами: это позволяет участвовать до восьми
    игроков" — 104 cards, 13 each.  Penalties 0, 3, 9, 20, 24, 39, 1, 5 (Σs = 101):
    nets Σs − 8s = +101, +77, +29, −59, −91, −211, +93, +61."""
    two_decks = rules(base="classic", decks=2)
    assert hands(two_decks, 8) == Hands(13, 0)
    score = score_deal(two_decks, EIGHT, Deal(cards=dict(zip(EIGHT, [0, 3, 9, 10, 12, 13, 1, 5],
                                                            strict=True))))
    assert list(score.penalty.values()) == [0, 3, 9, 20, 24, 39, 1, 5]
    assert list(score.net.values()) == [101, 77, 29, -59, -91, -211, 93, 61]
    check_table(two_decks, 8)
    with pytest.raises(InputError, match="104 in 2 pack"):
        check_table(rules(base="classic", decks=2, hand_size=14), 8)


def test_one_deck_seats_eight_only_when_dealt_out() -> None:
    """Thirteen each for five needs 65 cards; Wikipedia's "as far as they can go while
    retaining an equal number of cards for each player" seats five to eight."""
    with pytest.raises(InputError, match="65 cards"):
        check_table(rules(base="classic"), 5)
    dealt_out = rules(base="classic", deal_all=True)
    assert [hands(dealt_out, n) for n in (4, 5, 6, 7, 8)] == [
        Hands(13, 0), Hands(10, 2), Hands(8, 4), Hands(7, 3), Hands(6, 4)]
    with pytest.raises(InputError, match="2 to 8 players, not 9"):
        check_table(dealt_out, 9)
    with pytest.raises(RuleError):
        rules(base="classic", decks=3)


def test_six_players_paying_the_winner() -> None:
    """Wikipedia: one deck among six, 8 each, the 4 "leftover cards … given to the player
    holding the 3♦" (Ben, 12).  Each loser pays the winner: tiers as written, Ben's 12 is
    x2; read as "all your cards", Ben's 12 and Cat's 8 are x3."""
    base = {"base": "pay-the-winner", "deal_all": True}
    deal = Deal(cards={"Ann": 0, "Ben": 12, "Cat": 8, "Dan": 5, "Eve": 1, "Fay": 3})
    score = score_deal(rules(**base), SIX, deal)
    assert score.penalty == {"Ann": 0, "Ben": 24, "Cat": 8, "Dan": 5, "Eve": 1, "Fay": 3}
    assert score.net == {"Ann": 41, "Ben": -24, "Cat": -8, "Dan": -5, "Eve": -1, "Fay": -3}
    assert score.payee["Ben"] == "Ann"
    mine = score_deal(rules(**base, tiers_by_hand="all-your-cards"), SIX, deal)
    assert mine.penalty == {"Ann": 0, "Ben": 36, "Cat": 24, "Dan": 5, "Eve": 1, "Fay": 3}
    assert mine.net["Ann"] == 69
    with pytest.raises(InputError, match="only one player takes the leftover cards"):
        score_deal(rules(**base), SIX, deal._replace(cards={**deal.cards, "Cat": 9}))
    with pytest.raises(InputError, match="from 0 to 12"):
        score_deal(rules(**base), SIX, deal._replace(cards={**deal.cards, "Ben": 13}))


def test_six_players_two_decks_a_19_card_hand() -> None:
    """The Russian article's two decks among six: 17 each, the 2 left over to the 3♦'s
    holder, who may end holding 19."""
    base = {"base": "classic", "decks": 2, "deal_all": True}
    assert hands(rules(**base), 6) == Hands(17, 2)
    deal = Deal(cards={"Ann": 0, "Ben": 19, "Cat": 17, "Dan": 13, "Eve": 9, "Fay": 2})
    score = score_deal(rules(**base), SIX, deal)
    assert score.penalty == {"Ann": 0, "Ben": 57, "Cat": 51, "Dan": 39, "Eve": 9, "Fay": 2}
    assert score.net == {"Ann": 158, "Ben": -184, "Cat": -148, "Dan": -76, "Eve": 104, "Fay": 146}
    assert sum(score.net.values()) == 0
    mine = score_deal(rules(**base, tiers_by_hand="all-your-cards"), SIX, deal)
    assert mine.penalty["Dan"] == 26  # 13 of 17 is not all your cards: x2
    assert mine.penalty["Ben"] == 57 and mine.penalty["Cat"] == 51
    with pytest.raises(InputError, match="from 0 to 19"):
        score_deal(rules(**base), SIX, deal._replace(cards={**deal.cards, "Ben": 20}))


def test_two_decks_hold_eight_twos() -> None:
    """Two packs hold eight twos: two players may each hold four; one pack refuses it."""
    eight = Deal(cards=dict(zip(EIGHT, [0, 5, 6, 1, 1, 1, 1, 1], strict=True)),
                 twos={"Ben": 4, "Cat": 4})
    score = score_deal(rules(base="doubling", decks=2), EIGHT, eight)
    assert score.penalty["Ben"] == 5 * 2**4 and score.penalty["Cat"] == 6 * 2**4
    four = Deal(cards={"Ann": 0, "Ben": 5, "Cat": 6, "Dan": 1}, twos={"Ben": 4, "Cat": 4})
    with pytest.raises(InputError, match="at most 4"):
        score_deal(rules(base="doubling"), ["Ann", "Ben", "Cat", "Dan"], four)


@pytest.mark.parametrize(("card", "receiver"), [("AH", "Ann"), ("6H", "Fay"), ("7H", "Ann"),
                                                ("QH", "Fay"), ("KH", "Ann")])
def test_cut_counts_round_six(card: str, receiver: str) -> None:
    """pagat and the French text count from the dealer round the table to the card's
    rank; with six the count reaches the sixth seat at 6 and wraps at 7."""
    assert cut(parse_card(card), SIX, "Ann").receiver == receiver


def test_cut_counts_round_eight() -> None:
    assert cut(parse_card("8S"), EIGHT, "Cat").receiver == "Ben"
    assert cut(parse_card("9S"), EIGHT, "Cat").receiver == "Cat"


# --- two players drawing from the stock (Wikipedia) ------------------------------------


def test_two_players_drawing_may_end_with_39_cards() -> None:
    """Wikipedia: "If only two players are available, deal 13 cards each and play as
    normal. When one player passes he is forced to pick up one card from the remaining
    deck" — the loser may hold all 26 of the stock besides a full hand: 39 cards.  How
    to score above 13 the text does not say: each card counts (39 x3), or a full hand."""
    two = ["Ann", "Ben"]
    deal = Deal(cards={"Ann": 0, "Ben": 39})
    with pytest.raises(InputError, match="from 0 to 13"):
        score_deal(rules(base="classic"), two, deal)
    every = score_deal(rules(base="classic", draw_from_stock=True), two, deal)
    assert every.penalty == {"Ann": 0, "Ben": 117} and every.net == {"Ann": 117, "Ben": -117}
    full = score_deal(rules(base="classic", draw_from_stock=True, stock_scoring="full-hand"),
                      two, deal)
    assert full.penalty == {"Ann": 0, "Ben": 39}
    with pytest.raises(InputError, match="from 0 to 39"):
        score_deal(rules(base="classic", draw_from_stock=True), two,
                   deal._replace(cards={"Ann": 0, "Ben": 40}))
    with pytest.raises(InputError, match="two players"):
        check_table(rules(base="classic", draw_from_stock=True), 3)


# --- two decks: five of a kind, identical plays (the Russian article) -------------------

FIVE_FIVES = "5S 5S 5H 5D 5C"


def judged(a: str, b: str, **options: object) -> bool:
    from ledger.core.cards import parse_cards
    from ledger.core.plays import PlayRules, classify, compare, copies

    house = PlayRules(**options)  # type: ignore[arg-type]
    one, other = (classify(parse_cards(t, copies(house)), house) for t in (a, b))
    return compare(one, other, house).beats


@pytest.mark.parametrize("reading", ["below-straight-flush", "above-straight-flush"])
def test_five_of_a_kind_beats_quads_either_way(reading: str) -> None:
    """"пятерка побеждает каре" (five of a kind beats four of a kind), in both readings."""
    assert judged(FIVE_FIVES, "2S 2H 2D 2C 3D", five_of_a_kind=reading)
    assert not judged("2S 2H 2D 2C 3D", FIVE_FIVES, five_of_a_kind=reading)
    assert judged("6S 6S 6H 6D 6C", FIVE_FIVES, five_of_a_kind=reading)


def test_five_of_a_kind_against_a_straight_flush_both_readings() -> None:
    """"но может победить или не победить стрит-флеш" (it may or may not beat a straight
    flush): both readings are options."""
    flush = "3H 4H 5H 6H 7H"
    assert not judged(FIVE_FIVES, flush, five_of_a_kind="below-straight-flush")
    assert judged(flush, FIVE_FIVES, five_of_a_kind="below-straight-flush")
    assert judged(FIVE_FIVES, flush, five_of_a_kind="above-straight-flush")
    assert not judged(flush, FIVE_FIVES, five_of_a_kind="above-straight-flush")


def test_three_of_diamonds_on_three_of_diamonds_both_readings() -> None:
    """"Игрокам может быть разрешено или не разрешено сыграть руку, эквивалентную
    предыдущей руке, например, «Бриллиант 3», за которой следует другая «Бриллиант 3»"."""
    two_decks = {"five_of_a_kind": "below-straight-flush"}
    assert not judged("3D", "3D", **two_decks)
    assert judged("3D", "3D", **two_decks, identical_beats=True)
    assert judged("3D 3D", "3D 3D", **two_decks, identical_beats=True)
    assert not judged("3D 3D", "3S 3H", **two_decks, identical_beats=True)  # the ♠ is higher


def test_two_decks_name_a_card_twice_never_thrice() -> None:
    from ledger.core.cards import parse_cards

    assert parse_cards("2S 2S", copies=2) == parse_cards("2S", copies=2) * 2
    with pytest.raises(InputError, match="named twice"):
        parse_cards("2S 2S")
    with pytest.raises(InputError, match="three times"):
        parse_cards("2S 2S 2S", copies=2)


def test_a_two_deck_deal_reads_a_hand_with_two_of_a_card() -> None:
    """Typed hands in a two-deck session: 2♠ twice is two twos; a third 2♠ is refused."""
    from ledger.core.deal_line import parse_deal_line

    four = ["Ann", "Ben", "Cat", "Dan"]
    house = rules(base="doubling", decks=2)
    deal = parse_deal_line('Ann=0 "Ben=2S 2S 5D" "Cat=2H 4C" Dan=1', four, house)
    assert deal.cards["Ben"] == 3 and deal.twos == {"Ben": 2, "Cat": 1}
    with pytest.raises(InputError, match="three times"):
        parse_deal_line('Ann=0 "Ben=2S 2S" Cat=2S Dan=1', four, house)
    with pytest.raises(InputError, match="held twice"):
        parse_deal_line('Ann=0 "Ben=2S 5D" "Cat=2S 4C" Dan=1', four, rules(base="doubling"))


def test_four_twos_as_an_automatic_draw() -> None:
    """Wikipedia: "some variations said that it's an automatic draw when 1 player has all
    4 twos": every penalty 0, and nobody wins the deal."""
    four = ["Ann", "Ben", "Cat", "Dan"]
    deal = Deal(immediate="four-twos", immediate_by="Cat")
    score = score_deal(rules(base="classic", four_twos="draw"), four, deal)
    assert score.penalty == dict.fromkeys(four, 0) and score.net == dict.fromkeys(four, 0)
    assert not any(score.wins.values()) and not any(score.fried.values())
    assert score_deal(rules(base="classic"), four, deal).penalty["Ann"] == 39


def test_presets_keep_one_deck_and_say_when_their_text_seats_more() -> None:
    """Every preset plays one deck dealt as it was; the two whose texts seat more than
    four say how: the Russian article (doubling) with two decks, Wikipedia
    (pay-the-winner) dealing one deck out."""
    from ledger.core.rules import load_preset, preset_names

    for name in preset_names():
        preset = load_preset(name)
        assert (preset.decks, preset.deal_all, preset.draw_from_stock) == (1, False, False), name
        assert preset.play_rules().five_of_a_kind == "off", name
    assert "decks = 2" in load_preset("doubling").description
    assert "deal_all = true" in load_preset("pay-the-winner").description


def test_the_butterfly_ranks_below_the_straight_by_its_higher_pair() -> None:
    """Wikipedia: "two pair-junk" or "Butterfly", "two pairs (of different ranks) and one
    odd card ("junk"); Rank is determined by the highest pair. This combination ranks below
    the straight."  Off, it is no play."""
    assert judged("9S 9H 4D 4C 3S", "8S 8H 7D 7C AS", butterfly=True)  # 9s over 8s, junk aside
    assert judged("3D 4C 5H 6S 7D", "2S 2H AD AC KS", butterfly=True)  # any straight beats it
    assert not judged("2S 2H AD AC KS", "3D 4C 5H 6S 7D", butterfly=True)
    with pytest.raises(InputError, match="not a play"):
        judged("9S 9H 4D 4C 3S", "8S 8H 7D 7C AS")


# --- who took the leftovers, a fact of the deal where the counts cannot tell ------------


def test_the_leftovers_taker_said_where_the_counts_cannot_tell() -> None:
    """Wikipedia: the "leftover cards … are then given to the player holding the 3♦".
    Five of one deck: 10 each, 2 over.  Ben took them and played exactly two: 10 left of
    his 12 is not all his cards; without the fact he reads as holding all of a 10-card
    hand.  With two decks among six there are two 3♦, so the deal says who took them."""
    five = SIX[:5]
    house = rules(base="classic", deal_all=True, tiers_by_hand="all-your-cards")
    deal = Deal(cards={"Ann": 0, "Ben": 10, "Cat": 10, "Dan": 4, "Eve": 1})
    assert score_deal(house, five, deal).penalty["Ben"] == 30  # read as all his 10
    told = score_deal(house, five, deal._replace(leftovers="Ben"))
    assert told.penalty == {"Ann": 0, "Ben": 20, "Cat": 30, "Dan": 4, "Eve": 1}
    assert not told.fried["Dan"] and told.fried["Ben"]
    with pytest.raises(InputError, match="Cat hold"):
        score_deal(house, five, deal._replace(cards={**deal.cards, "Cat": 11}, leftovers="Ben"))
    with pytest.raises(InputError, match="leave none over"):
        score_deal(rules(base="classic", deal_all=True), ["Ann", "Ben", "Cat", "Dan"],
                   Deal(cards={"Ann": 0, "Ben": 3, "Cat": 4, "Dan": 5}, leftovers="Ben"))
    with pytest.raises(InputError, match="not seated"):
        score_deal(house, five, deal._replace(leftovers="Zed"))
    # An immediate win scores the taker's full hand with the leftovers.
    dragon = score_deal(house, five, Deal(immediate="dragon", immediate_by="Ann",
                                          leftovers="Cat"))
    assert dragon.cards["Cat"] == 12 and dragon.cards["Ben"] == 10


def test_the_leftovers_fact_is_typed_stored_and_offered() -> None:
    from ledger.core.deal_line import deal_from_facts, format_deal, parse_deal_line
    from ledger.core.registry import offered_facts

    two_decks = rules(base="classic", decks=2, deal_all=True)
    deal = parse_deal_line("0 19 17 13 9 2 --leftovers ben", SIX, two_decks)
    assert deal.leftovers == "Ben"
    assert parse_deal_line(format_deal(deal), SIX, two_decks) == deal
    assert deal_from_facts(deal.to_dict(), SIX, two_decks) == deal
    assert "leftovers" in [o.name for o in offered_facts(two_decks, players=6)]
    assert "leftovers" not in [o.name for o in offered_facts(two_decks, players=8)]  # 13 each
    assert "leftovers" not in [o.name for o in offered_facts(rules(base="classic"))]
    places = rules(base="places", deal_all=True)
    with pytest.raises(InputError, match="leftovers"):
        score_deal(places, SIX[:5], Deal(order=tuple(SIX[:5]), leftovers="Ben"))


# --- dealer and leader for five to eight seats ------------------------------------------


@pytest.mark.parametrize("players", [5, 6, 7, 8])
def test_cut_counts_round_any_table(players: int) -> None:
    """pagat: "count the players starting with the dealer and continuing in the direction
    of play until the rank of the exposed card is reached" — an ace is the dealer, a king
    the (13 mod n)th seat, whatever the number seated."""
    seats = EIGHT[:players]
    for rank, count in (("A", 1), ("2", 2), ("5", 5), ("10", 10), ("J", 11), ("K", 13)):
        got = cut(parse_card(rank + "C"), seats, "Cat").receiver
        assert got == seats[(2 + count - 1) % players], (players, rank)


@pytest.mark.parametrize("players", [5, 6, 7, 8])
def test_the_deal_rotates_round_any_table(players: int) -> None:
    """``next_deal = "rotate"``: the first seat deals the first deal and the deal moves one
    seat a deal, back to the first after n deals; the winner leads (pagat)."""
    from ledger.core.dealer import next_turn

    seats = EIGHT[:players]
    house = rules(base="classic", deal_all=True, next_deal="rotate")
    deals: list[Deal] = []
    for k in range(players + 2):
        turn = next_turn(seats, house, deals)
        assert turn.dealers == (seats[k % players],)
        winner = seats[(k * 3) % players]
        deals.append(Deal(cards={n: 0 if n == winner else 1 for n in seats}))
        assert next_turn(seats, house, deals).leader == winner


def test_the_loser_deals_and_ties_count_from_the_winner_round_seven() -> None:
    """pagat: "the 'loser' of each hand plays first in the next … the player who had most
    cards"; tied players are named in seat order from the winner round the table."""
    from ledger.core.dealer import next_turn

    seven = EIGHT[:7]
    house = rules(base="classic", deal_all=True, next_deal="loser", next_lead="loser")
    deal = Deal(cards={"Ann": 7, "Ben": 2, "Cat": 3, "Dan": 0, "Eve": 7, "Fay": 1, "Gus": 4})
    turn = next_turn(seven, house, [deal])
    assert turn.dealers == ("Eve", "Ann") and turn.leaders == ("Eve", "Ann")
    alone = next_turn(seven, house, [deal._replace(cards={**deal.cards, "Ann": 6})])
    assert alone.dealers == ("Eve",) and alone.leader == "Eve"


def test_two_decks_say_which_three_of_diamonds_leads() -> None:
    """Two decks hold two 3♦ and no text says which holder leads: the ledger reads the one
    first after the dealer in the direction of play (the deal "begins with the player to
    dealer's right", pagat), and says so."""
    from ledger.core.dealer import next_turn

    six = next_turn(SIX, rules(base="classic", decks=2, deal_all=True), [])
    assert six.twin and six.leader is None
    assert six.describe() == "next: Ann deals, the holder of 3♦ first after Ann leads"
    assert next_turn(SIX[:4], rules(base="classic"), []).describe() == "next: Ann deals, 3♦ leads"


# --- more combinations the texts name (each an option, off in every preset) -------------


def explained(a: str, b: str, **options: object) -> list[str]:
    from ledger.core.cards import parse_cards
    from ledger.core.play_steps import explain
    from ledger.core.plays import PlayRules, classify, copies

    house = PlayRules(**options)  # type: ignore[arg-type]
    one, other = (classify(parse_cards(t, copies(house)), house) for t in (a, b))
    return explain(one, other, house)


def test_a_smack_down_beats_a_single_two_of_spades_and_a_smack_back_beats_it() -> None:
    """Wikipedia (and the Russian article): "The Smack Down can be played to defeat the
    "Big Two" only when the Two of Spades is played as a single. A Smack Down is either 4
    of a kind or a run of pairs (Example: 4-4-5-5-6-6). The run of pairs may be any length
    of at least 3. After a Smack Down has been played, any player is allowed to "Smack
    Back" with a higher 4 of a kind or run of pairs of equal length as the Smack Down.\""""
    run = "4S 4H 5D 5C 6S 6D"
    assert judged(run, "2S", smack_down=True)
    assert judged("7S 7H 7D 7C", "2S", smack_down=True)  # a four alone, as a smack down
    assert not judged(run, "2H", smack_down=True)  # only on the Two of Spades
    assert not judged(run, "2S 2H", smack_down=True)  # only on it played as a single
    with pytest.raises(InputError, match="not a play"):
        judged("4S 4H 5D 5C", "2S", smack_down=True)  # at least three pairs
    # The smack back: higher and of equal length.
    assert judged("5S 5H 6D 6C 7S 7D", run, smack_down=True)
    assert not judged("3S 3H 4D 4C 5S 5D", run, smack_down=True)
    assert not judged("5S 5H 6D 6C 7S 7D 8S 8D", run, smack_down=True)  # longer: not equal
    assert judged("9S 9H 9D 9C", "7S 7H 7D 7C", smack_down=True)
    assert not judged("7S 7H 8D 8C 9S 9D", "7S 7H 7D 7C", smack_down=True)
    assert not judged("3D", run, smack_down=True)
    assert explained(run, "2S", smack_down=True)[0].startswith("smack_down (Wikipedia)")
    with pytest.raises(InputError, match="1, 2, 3 or 5 cards"):
        judged(run, "2S")  # off: no play


def test_a_triple_with_two_odd_cards_ranks_below_the_straight() -> None:
    """The Russian article: "покерную комбинацию «тройка», состоящую из тройной и двух
    мусорных карт. Эта комбинация рангом ниже стрита" (a triple and two junk cards, below
    the straight); the triple decides between two of them."""
    assert judged("9S 9H 9D 3C 4S", "8S 8H 8D AC 2S", triple_plus_two=True)
    assert judged("3D 4C 5H 6S 7D", "2S 2H 2D AC KS", triple_plus_two=True)
    assert not judged("2S 2H 2D AC KS", "3D 4C 5H 6S 7D", triple_plus_two=True)
    assert judged("8S 8H 8D AC AS", "2S 2H 2D 3C 4S", triple_plus_two=True)  # a full house is higher
    # With the butterfly too: both below the straight, the triple above two pairs (poker's order).
    assert judged("3S 3H 3D 4C 5S", "2S 2H AD AC KS", triple_plus_two=True, butterfly=True)
    assert "the triple decides: 9 against 8 (2 high, 3 low)" in explained(
        "9S 9H 9D 3C 4S", "8S 8H 8D AC 2S", triple_plus_two=True)
    with pytest.raises(InputError, match="not a play"):
        judged("9S 9H 9D 3C 4S", "8S 8H 8D AC 2S")


def test_straights_longer_than_five_beat_only_a_straight_as_long() -> None:
    """Wikipedia: "Some variations allow for straights longer than five cards" (the
    Russian article: "стритов длиной более пяти карт").  A play is beaten only by one of
    as many cards; among equal lengths the straight at the top ranks it, then its top
    card's suit (pagat's straights: A-2-3-4-5-6 is the lowest six)."""
    six = "3S 4H 5D 6C 7S 8D"
    assert judged("4S 5H 6D 7C 8S 9D", six, long_straights=True)
    assert judged("3D 4H 5D 6C 7S 8S", six, long_straights=True)  # the 8♠ over the 8♦
    assert not judged("AS 2H 3D 4C 5S 6S", six, long_straights=True)
    assert not judged("4S 5H 6D 7C 8S 9D 10S", six, long_straights=True)  # 7 on 6: no
    assert not judged("4S 5H 6D 7C 8S", six, long_straights=True)
    assert judged("3C 4C 5C 6C 7C 8C 9S 10H JD QC KS AS",  # twelve: the A♠ over the A♣
                  "3D 4D 5D 6D 7D 8D 9D 10D JD QD KD AC", long_straights=True)
    steps = explained("4S 5H 6D 7C 8S 9D", six, long_straights=True)
    assert "a straight of more than five cards ranks by the five at its top: 5-6-7-8-9 " \
           "against 4-5-6-7-8" in steps
    with pytest.raises(InputError, match="not a play"):
        judged("JS QH KD AC 2S 3D", six, long_straights=True)  # no run goes through the 2
    with pytest.raises(InputError, match="a play is 1, 2, 3 or 5 cards"):
        judged(six, six)


def test_the_dragon_is_led_and_only_a_higher_dragon_beats_it() -> None:
    """Wikipedia: "A "Dragon" consists of 13 cards in straight (A-K-Q-J-10-9-8-7-6-5-4-3-2),
    is considered a valid combination and may be played once the player has gained control
    of the game. Suit of 2 is tie-breaker.\""""
    spade = "3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AS 2S"
    mixed = "3D 4H 5D 6C 7H 8D 9C 10H JD QC KH AD 2H"
    assert judged(spade, mixed, dragon_play=True)  # 2♠ over 2♥
    assert not judged(mixed, spade, dragon_play=True)
    assert not judged(spade, "2H", dragon_play=True)  # led only
    assert not judged("2D", spade, dragon_play=True)
    assert "dragon_play (Wikipedia)" in explained(spade, "2H", dragon_play=True)[0]
    with pytest.raises(InputError, match="not a play"):
        judged(spade, mixed)


def test_a_straight_flush_plus_two_is_a_seven_card_honour_hand() -> None:
    """pagat, Todd Latta's version: "a straight flush is played with any two extra cards,
    making a seven card combination. A four of a kind plus a card or a straight flush plus
    two cards can be played to beat any single card or other combination. A four of a kind
    plus a card can only be beaten by a higher four plus a card or a straight flush plus
    two, and a straight flush plus two is only beaten by a higher straight flush plus two.\""""
    latta = {"straight_flush_plus_two": True}
    low = "3H 4H 5H 6H 7H 2S 2D"
    high = "5C 6C 7C 8C 9C 3D 3S"
    assert judged(high, low, **latta) and not judged(low, high, **latta)
    assert judged(low, "2S", **latta) and judged(low, "AS AH AD AC KS", **latta)
    assert judged("3S 3H 3D 3C 4S", "2S 2H", **latta)  # quads + 1 beat any other play
    assert judged("3S 3H 3D 3C 4S", "10S JH QD KC AS", **latta)
    assert not judged("AS AH AD AC KS", low, **latta)
    assert not judged("2S 2H 2D", "3S 3H 3D 3C 4S", **latta)
    assert not judged("10S JH QD KC AS", "3S 3H 3D 3C 4S", **latta)
    # The straight flush in it ranks it: 3-4-5-6-7-8-9 of hearts holds 5-9, which beats 4-8.
    assert judged("3H 4H 5H 6H 7H 8H 9H", "4D 5D 6D 7D 8D 2S 2D", **latta)
    assert explained(low, "2S", **latta)[0].startswith("straight_flush_plus_two (pagat")
    with pytest.raises(InputError, match="two extra cards"):
        judged("3H 4H 5H 6H 7H", "3D 4D 5D 6D 7D", **latta)
    with pytest.raises(InputError, match="hold a straight flush"):
        judged("3H 4H 5H 6H 8H 2S 2D", low, **latta)


def test_every_new_combination_is_off_in_every_preset() -> None:
    from ledger.core.rules import load_preset, preset_names

    for name in preset_names():
        house = load_preset(name).play_rules()
        assert not (house.smack_down or house.triple_plus_two or house.long_straights
                    or house.dragon_play or house.straight_flush_plus_two), name


def test_jokers_above_the_two_of_spades_black_over_red_and_wild_in_combinations() -> None:
    """Wikipedia (and the Russian article): "Jokers are added to the deck, and they can be
    played as any card with any suit. Also, the jokers are deemed higher than the Two of
    Spades, but the black joker is considered higher than the red joker."  Off, a joker is
    refused by name; two decks hold two of each."""
    from ledger.core.cards import parse_cards
    from ledger.core.deal_line import parse_deal_line
    from ledger.core.plays import PlayRules, classify

    def joker_judged(a: str, b: str, **options: object) -> bool:
        from ledger.core.plays import compare

        house = PlayRules(jokers=True, **options)  # type: ignore[arg-type]
        one, other = (classify(parse_cards(t, 2 if options else 1, True), house) for t in (a, b))
        return compare(one, other, house).beats

    assert joker_judged("RJ", "2S") and joker_judged("BJ", "RJ")
    assert not joker_judged("RJ", "BJ") and not joker_judged("2S", "RJ")
    assert joker_judged("9S BJ", "9H 9C")  # the joker stands for 9♥: the pair holds the 9♠
    assert joker_judged("3D 4C RJ 6S 7D", "2S 3H 4D 5C 6C")  # the joker a 5: 3-4-5-6-7
    assert not joker_judged("3D 4C RJ 6S 7D", "3S 4H 5D 6C 7C")  # 7♦ under 7♣, whatever the 5
    assert joker_judged("AS AH AD AC BJ", "KS KH KD KC 2D")  # quads: the joker any fifth card
    wild = classify(parse_cards("9S BJ", 1, True), PlayRules(jokers=True))
    assert wild.kind == "pair" and wild.stands_for == parse_cards("9H 9S")
    assert "BJ = 9♥" in wild.describe()
    steps = explained_jokers("9S BJ", "9H 9C")
    assert steps[0].startswith("jokers (Wikipedia)") and "9♠ against 9♥" in steps[-1]
    with pytest.raises(InputError, match="BJ is a joker"):
        parse_cards("BJ 2S")
    with pytest.raises(InputError, match="named twice"):
        parse_cards("BJ BJ", 1, True)
    assert len(parse_cards("BJ BJ RJ RJ", 2, True)) == 4  # two decks: up to four jokers
    with pytest.raises(InputError, match="three times"):
        parse_cards("BJ BJ BJ", 2, True)
    # Typed hands: a joker is a card held, not a two.
    four = ["Ann", "Ben", "Cat", "Dan"]
    deal = parse_deal_line('Ann=0 "Ben=BJ 2S 5D" Cat=3 Dan=1', four,
                           rules(base="doubling", plays={"jokers": True}))
    assert deal.cards["Ben"] == 3 and deal.twos == {"Ben": 1}
    with pytest.raises(InputError, match="is a joker"):
        parse_deal_line('Ann=0 "Ben=BJ 2S 5D" Cat=3 Dan=1', four, rules(base="doubling"))


def explained_jokers(a: str, b: str) -> list[str]:
    from ledger.core.cards import parse_cards
    from ledger.core.play_steps import explain
    from ledger.core.plays import PlayRules, classify

    house = PlayRules(jokers=True)
    one, other = (classify(parse_cards(t, 1, True), house) for t in (a, b))
    return explain(one, other, house)
