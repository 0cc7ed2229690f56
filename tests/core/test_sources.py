"""Every preset follows the text it cites, and the variants the texts describe exist:
one test per case, worked from the source's own words (docs/rules.md quotes each)."""

from __future__ import annotations

import pytest

from ledger.core.cards import parse_cards, straight_runs
from ledger.core.dealer import next_turn, redeal_check
from ledger.core.errors import InputError, RuleError
from ledger.core.plays import PlayRules, classify, compare
from ledger.core.rules import RuleSet, load_preset, rules_from_mapping
from ledger.core.scoring import Deal, score_deal

FOUR = ["Ann", "Ben", "Cat", "Dan"]


def beats(a: str, b: str, rules: PlayRules) -> bool:
    return compare(classify(parse_cards(a), rules), classify(parse_cards(b), rules), rules).beats


def plays(preset: str) -> PlayRules:
    return load_preset(preset).play_rules()


# --- Hong Kong: Andrew White's rules, and the online tiers as their own preset --------------

def test_hong_kong_is_andrew_whites_tiers() -> None:
    """White: "with 10, 11, and 12 the points are doubled, and with 13 the points are
    tripled"; 0 / 8 / 10 / 13 cards: penalties 8, 20, 39, nets +67 +35 -13 -89."""
    score = score_deal(load_preset("hong-kong"), list("ABCD"),
                       Deal(cards={"A": 0, "B": 8, "C": 10, "D": 13}))
    assert score.penalty == {"A": 0, "B": 8, "C": 20, "D": 39}
    assert score.net == {"A": 67, "B": 35, "C": -13, "D": -89}


def test_a_dragon_under_hong_kong_scoring_is_39() -> None:
    """pagat: a dragon in Hong Kong, "Each of the other players scores as though they lost
    without playing any cards (39 penalty points)"."""
    score = score_deal(load_preset("hong-kong"), FOUR, Deal(immediate="dragon", immediate_by="Ann"))
    assert score.penalty == {"Ann": 0, "Ben": 39, "Cat": 39, "Dan": 39}


def test_the_online_tiers_are_their_own_preset() -> None:
    """The Hong Kong online / mainland tiers: x2 from 8, x3 from 10, x4 at 13."""
    score = score_deal(load_preset("hong-kong-online"), list("ABCD"),
                       Deal(cards={"A": 0, "B": 8, "C": 10, "D": 13}))
    assert score.net == {"A": 98, "B": 34, "C": -22, "D": -110}


def test_hong_kong_winner_deals_and_leads_and_flushes_go_down_the_line() -> None:
    """White: "the winner of the previous round deals and leads first"; flushes:
    "face-value down the line, then suit (just like in Poker)"."""
    turn = next_turn(FOUR, load_preset("hong-kong"), [Deal(cards={"Ann": 4, "Ben": 9, "Cat": 0,
                                                                   "Dan": 2})])
    assert turn.describe() == "next: Cat deals, Cat leads"
    # A♦K♦J♦9♦8♦ beats A♠J♠10♠7♠6♠: the tops tie, K beats J down the line
    assert beats("AD KD JD 9D 8D", "AS JS 10S 7S 6S", plays("hong-kong"))
    # White's straights: A 2 3 4 5 > 2 3 4 5 6 > A K Q J 10
    assert beats("AS 2S 3S 4S 5H", "2D 3D 4D 5D 6C", plays("hong-kong"))
    assert beats("2D 3D 4D 5D 6C", "10S JS QS KS AH", plays("hong-kong"))


# --- who deals and who leads ------------------------------------------------------------

AFTER_CAT = [Deal(cards={"Ann": 4, "Ben": 9, "Cat": 0, "Dan": 2})]


def test_pay_the_winner_winner_deals_and_three_of_diamonds_leads() -> None:
    """The French text: "Les jeux de cartes suivantes donne le gagnant du dernier match";
    Wikipedia: "At the beginning of each game, the player with the 3♦ starts" (the
    winner leads only "in tournaments")."""
    turn = next_turn(FOUR, load_preset("pay-the-winner"), AFTER_CAT)
    assert turn.describe() == "next: Cat deals, 3♦ leads"


@pytest.mark.parametrize("preset", ["doubling", "three-player"])
def test_the_three_of_diamonds_leads_every_deal(preset: str) -> None:
    """Wikipedia and the Russian article ("В начале каждой игры игрок с Алмазом 3")."""
    seats = FOUR[:3] if preset == "three-player" else FOUR
    last = Deal(cards={n: c for n, c in AFTER_CAT[0].cards.items() if n in seats})
    assert next_turn(seats, load_preset(preset), [last]).leader is None


def test_the_loser_leads() -> None:
    """pagat: "the 'loser' of each hand plays first in the next - the loser being the
    player who had most cards"; a tie goes to a showdown."""
    rules = RuleSet("t", next_deal="loser", next_lead="loser")
    assert next_turn(FOUR, rules, AFTER_CAT).describe() == "next: Ben deals, Ben leads"
    tied = [Deal(cards={"Ann": 9, "Ben": 9, "Cat": 0, "Dan": 2})]
    assert next_turn(FOUR, rules, tied).describe() == (
        "next: Ann or Ben deals (tied on most cards: a showdown decides), "
        "the showdown's winner leads")


def test_indonesian_rounds_of_ten_deals() -> None:
    """pagat: "In Indonesia, the game is played in 'rounds' of ten deals. Only the first
    deal of the round is begun by the 3. The next nine deals are started by whoever won
    the previous deal"."""
    rules = rules_from_mapping({"next_lead": "winner", "round_deals": 10})
    deals = AFTER_CAT * 11
    assert next_turn(FOUR, rules, deals[:9]).leader == "Cat"  # deal 10: still the round
    assert next_turn(FOUR, rules, deals[:10]).leader is None  # deal 11: a new round, 3♦
    assert next_turn(FOUR, rules, deals[:10]).describe().endswith("3♦ leads")
    assert next_turn(FOUR, rules, deals[:11]).leader == "Cat"


def test_the_french_opener_is_the_three_of_clubs() -> None:
    """The French text: "Aux Philippines ... diamants, coeurs, pelles, clubs. Et le jeu
    commence porte 3 clubs au lieu de 3 diamants"."""
    rules = rules_from_mapping({"opener": "three-of-clubs", "next_lead": "lowest-card",
                                "plays": {"suit_order": "CSHD"}})
    assert next_turn(FOUR, rules, []).describe() == "next: Ann deals, 3♣ leads"
    assert next_turn(FOUR, rules, AFTER_CAT).describe().endswith("3♣ leads")


# --- GameSky's Da Lao Er and the French text's Choi Dai Di ------------------------------------

def test_da_lao_er_has_no_flushes() -> None:
    """pagat, GameSky: "there are no flushes"."""
    with pytest.raises(InputError, match="not a play"):
        classify(parse_cards("3S 5S 7S 9S JS"), plays("da-lao-er"))


def test_da_lao_er_full_house_cannot_beat_a_straight() -> None:
    """pagat, GameSky: "a full house cannot be used to beat a straight"."""
    assert not beats("9S 9H 9D 4S 4H", "3D 4C 5H 6S 7D", plays("da-lao-er"))
    assert beats("9S 9H 9D 4S 4H", "3D 4C 5H 6S 7D", plays("classic"))


@pytest.mark.parametrize("preset", ["da-lao-er", "choi-dai-di"])
def test_quads_or_a_straight_flush_beat_any_combination(preset: str) -> None:
    """pagat, GameSky: "Four of a kind or a straight flush can be played out of turn to beat
    any combination"; the French text's Choi Dai Di: "peuvent battre toute combinaison"."""
    assert beats("3S 3H 3D 3C 4S", "2S", plays(preset))
    assert beats("3D 4D 5D 6D 7D", "2S 2H", plays(preset))
    assert not beats("3S 3H 3D 3C 4S", "2S", plays("classic"))


def test_choi_dai_di_keeps_flushes() -> None:
    """The French text: Choi Dai Di "se joue entièrement selon les règles de Big deux"."""
    assert classify(parse_cards("3S 5S 7S 9S JS"), plays("choi-dai-di")).kind == "flush"


# --- teams: a finish multiplier goes with the winning side --------------------------------

def test_teams_finish_double_applies_to_the_winning_side() -> None:
    """Wikipedia's team example: Mike 4, Dave 5 against Lionel 10, Brendan 0; Brendan went
    out, on a two, but Mike and Dave hold fewer cards and win. The Russian text doubles "if
    the winner finishes on a two": the winner is the winning side, which did not."""
    seats = ["Mike", "Lionel", "Dave", "Brendan"]
    deal = Deal(cards={"Mike": 4, "Lionel": 10, "Dave": 5, "Brendan": 0}, finish="two")
    score = score_deal(load_preset("doubling"), seats, deal, teams=True)
    assert score.penalty == {"Mike": 0, "Lionel": 20, "Dave": 0, "Brendan": 0}
    assert score.net == {"Mike": 20, "Lionel": -20, "Dave": 20, "Brendan": -20}  # ±10 a member
    # the side that went out and won keeps its finish: Mike out on a two, x2 for the losers
    won = Deal(cards={"Mike": 0, "Lionel": 10, "Dave": 5, "Brendan": 1}, finish="two")
    assert score_deal(load_preset("doubling"), seats, won, teams=True).penalty["Lionel"] == 40


def test_teams_finish_of_a_session_frozen_before_keeps_its_meaning() -> None:
    """A frozen doubling set without finish_side (stored before) reads the old default."""
    stored = {k: v for k, v in load_preset("doubling").to_dict().items() if k != "finish_side"}
    from ledger.core.rules import rules_from_dict

    rules = rules_from_dict(stored)
    seats = ["Mike", "Lionel", "Dave", "Brendan"]
    deal = Deal(cards={"Mike": 4, "Lionel": 10, "Dave": 5, "Brendan": 0}, finish="two")
    assert score_deal(rules, seats, deal, teams=True).penalty["Lionel"] == 40


# --- three players ------------------------------------------------------------------------

def test_three_players_one_holds_the_52nd_card() -> None:
    """Wikipedia: "deal three 17-card hands, leaving one left over ... whichever player
    possesses the two of spades or three of diamonds receives that card": 18 x 3 = 54."""
    rules = load_preset("three-player")
    score = score_deal(rules, ["Ann", "Ben", "Cat"], Deal(cards={"Ann": 0, "Ben": 18, "Cat": 5}))
    assert score.penalty == {"Ann": 0, "Ben": 54, "Cat": 5}
    with pytest.raises(InputError, match="only one player takes the 52nd card"):
        score_deal(rules, ["Ann", "Ben", "Cat"], Deal(cards={"Ann": 0, "Ben": 18, "Cat": 18}))
    with pytest.raises(InputError, match="from 0 to 17"):  # four players: no 52nd card
        score_deal(rules, FOUR, Deal(cards={"Ann": 0, "Ben": 18, "Cat": 5, "Dan": 1}))


def test_a_17_card_hand_of_3_points_or_less_may_ask_for_a_redeal() -> None:
    """Wikipedia: "If a player receives a hand with only 3 points or less"."""
    hand = parse_cards("JS QH 3D 4D 5C 6C 7C 8C 9C 10S 3S 4S 5S 6S 7S 8S 9S")
    assert len(hand) == 17 and redeal_check(hand).may_redeal


def test_all_four_twos_may_ask_for_a_reshuffle() -> None:
    """The Russian article: "если у игрока четыре двойки, может потребоваться перестановка"."""
    hand = parse_cards("2S 2H 2C 2D 3D 4D 5C 6C 7C 8C 9C 10S 3S")
    assert not redeal_check(hand, load_preset("classic")).may_redeal
    check = redeal_check(hand, load_preset("doubling"))
    assert check.may_redeal and check.four_twos


# --- straights ------------------------------------------------------------------------------

def runs(style: str) -> list[str]:
    return [str(run) for run in straight_runs(style)]


def test_ace_low_excluded_removes_only_a_2_3_4_5() -> None:
    """pagat: "Some do not allow A-2-3-4-5 as a valid straight or straight flush at all":
    only that run goes; 2-3-4-5-6 stays, now the lowest straight (and a straight flush)."""
    rules = PlayRules(straights="ace-low-excluded")
    assert runs("ace-low-excluded") == runs("no-ace-five")
    assert runs("ace-low-excluded")[0] == "2-3-4-5-6"
    assert classify(parse_cards("2S 3H 4D 5C 6S"), rules).kind == "straight"
    assert classify(parse_cards("2H 3H 4H 5H 6H"), rules).kind == "straight-flush"
    low, next_up = (classify(parse_cards(t), rules) for t in ("2S 3S 4S 5S 6H", "3D 4C 5C 6C 7C"))
    assert compare(next_up, low, rules).beats and not compare(low, next_up, rules).beats
    with pytest.raises(InputError):
        classify(parse_cards("AS 2H 3D 4C 5S"), rules)
    assert classify(parse_cards("AH 2H 3H 4H 5H"), rules).kind == "flush"  # no straight flush


def test_no_ace_five_removes_only_that_straight() -> None:
    """pagat: "Some do not allow A-2-3-4-5 as a valid straight": 2-3-4-5-6 stays."""
    assert runs("no-ace-five") == ["2-3-4-5-6", *runs("three-to-ace")]
    rules = PlayRules(straights="no-ace-five")
    assert classify(parse_cards("2S 3H 4D 5C 6S"), rules).kind == "straight"
    with pytest.raises(InputError):
        classify(parse_cards("AS 2H 3D 4C 5S"), rules)


@pytest.mark.parametrize(("style", "low_to_high"), [
    # Wikipedia, Malaysian: ... < 10-J-Q-K-A < A-2-3-4-5 < 2-3-4-5-6
    ("two-six-over-ace-five", ["10-J-Q-K-A", "A-2-3-4-5", "2-3-4-5-6"]),
    # Wikipedia, Singaporean; the Russian article's Taiwanese: A-2-3-4-5 lowest, 2-3-4-5-6 highest
    ("ace-five-low-two-six-high", ["A-2-3-4-5", "3-4-5-6-7", "10-J-Q-K-A", "2-3-4-5-6"]),
    # Wikipedia, the Russian article: 2-3-4-5-6 < ... < 10-J-Q-K-A < A-2-3-4-5
    ("ace-five-high", ["2-3-4-5-6", "3-4-5-6-7", "10-J-Q-K-A", "A-2-3-4-5"]),
    # Wikipedia, the Russian article: ... < 9-10-J-Q-K < A-2-3-4-5 < 10-J-Q-K-A
    ("ace-five-below-ace", ["2-3-4-5-6", "9-10-J-Q-K", "A-2-3-4-5", "10-J-Q-K-A"]),
    # Wikipedia: "Q-K-A-2-3 < K-A-2-3-4 < … < 10-J-Q-K-A < J-Q-K-A-2"
    ("wrap-around", ["Q-K-A-2-3", "K-A-2-3-4", "A-2-3-4-5", "10-J-Q-K-A", "J-Q-K-A-2"]),
])
def test_the_missing_straight_orders(style: str, low_to_high: list[str]) -> None:
    order = runs(style)
    assert [order.index(r) for r in low_to_high] == sorted(order.index(r) for r in low_to_high)
    assert order[0] == low_to_high[0] or style in ("two-six-over-ace-five", "ace-five-below-ace")
    assert order[-1] == low_to_high[-1] or style == "ace-five-below-ace"


def test_wrap_around_is_a_play() -> None:
    rules = PlayRules(straights="wrap-around")
    assert beats("KS AH 2D 3C 4S", "QS KH AD 2C 3S", rules)
    assert beats("JS QH KD AC 2S", "10S JH QD KC AS", rules)


# --- flushes and five-card orders by source -----------------------------------------------

def test_pay_the_winner_compares_flushes_by_the_top_card() -> None:
    """Wikipedia: a flush's "Rank is determined by highest value card and then by highest
    suit": 2♦J♦7♦5♦3♦ beats A♠J♠10♠7♠6♠ (suit first would say spades)."""
    assert beats("2D JD 7D 5D 3D", "AS JS 10S 7S 6S", plays("pay-the-winner"))
    assert not beats("2D JD 7D 5D 3D", "AS JS 10S 7S 6S", plays("classic"))


def test_doubling_compares_flushes_rank_by_rank() -> None:
    """The Russian article: "сначала самая высокая карта, затем каждая младшая карта"."""
    assert beats("AD KD JD 9D 8D", "AS JS 10S 7S 6S", plays("doubling"))
    assert not beats("AD KD JD 9D 8D", "AS JS 10S 7S 6S", plays("pay-the-winner"))


def test_a_straight_above_a_flush() -> None:
    """Wikipedia: "In some variations, a straight is considered higher than a flush"."""
    rules = PlayRules(five_card_order="straight-over-flush")
    assert beats("3D 4C 5H 6S 7D", "2S JS 7S 5S 3S", rules)
    assert not beats("3D 4C 5H 6S 7D", "2S JS 7S 5S 3S", PlayRules())


def test_no_poker_rules() -> None:
    """Wikipedia: "No Poker Rules ... The players are not allowed to play a different type of
    5 card hand over the current. For example, a Full House can not be played over a
    Straight"."""
    rules = PlayRules(five_card_order="no-poker-rules")
    assert not beats("9S 9H 9D 4S 4H", "3D 4C 5H 6S 7D", rules)
    assert beats("4D 5C 6H 7S 8D", "3D 4C 5H 6S 7D", rules)


def test_any_five_cards_by_value() -> None:
    """Wikipedia, the Russian article: "In some variations, any five-card combination can be
    played on top of any other five-card combination with a lower card value, e.g.
    4-5-6-7-8 can be played on top of 7-7-7-6-6 even though full house is higher than
    straight in standard Big Two"."""
    rules = PlayRules(five_card_order="by-value")
    assert beats("4D 5C 6H 7S 8D", "7S 7H 7D 6S 6H", rules)
    assert not beats("4D 5C 6H 7S 8D", "7S 7H 7D 6S 6H", PlayRules())
    assert not beats("7S 7H 7D 6S 6H", "4D 5C 6H 7S 8D", rules)  # a lower card value
    # the value is the deciding card: the top of a straight or flush, the triple, the four
    assert beats("2S 2H 2D 6S 6H", "3D 4D 5D 6D 7D", rules)  # 2 on a 7-high straight flush
    assert beats("3S JS 7S 5S 2S", "KS KH KD KC 4S", rules)  # a 2-high flush on four kings
    # equal values: the usual order of kinds decides (the text speaks of a lower value only)
    assert beats("8S 8H 8C 6S 6H", "4D 5C 6H 7S 8D", rules)
    assert not beats("4D 5C 6H 7S 8D", "8S 8H 8C 6S 6H", rules)


def test_the_french_ace_low_king_high_ranks() -> None:
    """The French text: "Certaines cartes de jeu avec une autre ancienneté, où la carte d'as
    plus jeune, puis aller à 2, 3, etc., et le plus ancien est roi": the ace lowest, then
    the 2, the 3 ... and the king highest."""
    rules = rules_from_mapping({"plays": {"rank_order": "ace-low-king-high",
                                          "straights": "ace-low-king-high"}}).play_rules()
    assert beats("KD", "2S", rules) and not beats("KD", "2S", PlayRules())
    assert beats("2D", "AS", rules) and beats("3D", "2S", rules)
    assert beats("KS KH", "QS QH", rules) and beats("3S 3H 3D", "2S 2H 2D", rules)
    assert beats("KS KH KD 3S 3H", "2S 2H 2D AS AH", rules)
    # five cards of consecutive values ("Cinq cartes de valeurs consécutives"): A-2-3-4-5 is
    # the lowest straight, 9-10-J-Q-K the highest, 10-J-Q-K-A none
    assert runs("ace-low-king-high")[0] == "A-2-3-4-5"
    assert runs("ace-low-king-high")[-1] == "9-10-J-Q-K"
    assert beats("9S 10H JD QC KS", "AS 2H 3D 4C 5S", rules)
    with pytest.raises(InputError):
        classify(parse_cards("10S JH QD KC AS"), rules)
    # a flush's cards are compared by these values too: K high, the ace at the bottom
    poker = rules_from_mapping({"plays": {"rank_order": "ace-low-king-high", "flushes": "poker",
                                          "straights": "ace-low-king-high"}}).play_rules()
    assert beats("KD 9D 7D 5D 3D", "AS QS JS 9S 7S", poker)
    # the 3♦ still opens: "Le premier joueur, qui a un 3 des diamants"
    french = rules_from_mapping({"next_lead": "lowest-card", "plays": {
        "rank_order": "ace-low-king-high", "straights": "ace-low-king-high"}})
    assert next_turn(FOUR, french, []).describe() == "next: Ann deals, 3♦ leads"


def test_ace_low_ranks_take_their_straights() -> None:
    with pytest.raises(RuleError, match="rank_order and straights go together"):
        rules_from_mapping({"plays": {"rank_order": "ace-low-king-high"}})
    with pytest.raises(RuleError, match="rank_order and straights go together"):
        rules_from_mapping({"base": "hong-kong", "plays": {"rank_order": "ace-low-king-high"}})
    with pytest.raises(RuleError, match="play option rank_order cannot be 'ace-high'"):
        rules_from_mapping({"plays": {"rank_order": "ace-high"}})


def test_quads_beat_everything_without_quads() -> None:
    """Wikipedia: "A four of a kind can be used to beat all card combinations without a four
    of a kind"."""
    rules = PlayRules(bombs="quads-beat-all")
    assert beats("3S 3H 3D 3C 4S", "2S", rules)
    assert beats("3S 3H 3D 3C 4S", "9D 10D JD QD KD", rules)  # a straight flush has none
    assert not beats("9D 10D JD QD KD", "3S 3H 3D 3C 4S", rules)
    assert beats("4S 4H 4D 4C 3S", "3S 3H 3D 3C 5S", rules)


def test_four_card_two_pairs() -> None:
    """Wikipedia: "Some allow four-card combinations (two pairs or four cards alone, without
    an odd card). Four of a kind beats two pairs"."""
    rules = PlayRules(four_of_a_kind="two-pairs")
    assert classify(parse_cards("5S 5H 9D 9C"), rules).kind == "two-pairs"
    assert beats("3S 3H 3D 3C", "AS AH KD KC", rules)
    assert beats("10S 10H 4D 4C", "9S 9H 8D 8C", rules)
    with pytest.raises(InputError):
        classify(parse_cards("5S 5H 9D 9C"), PlayRules())


def test_new_values_are_checked() -> None:
    with pytest.raises(RuleError, match="rule 'round_deals' must be a whole number from 0"):
        rules_from_mapping({"round_deals": -1})
    with pytest.raises(RuleError, match="rule 'finish_side' must be one of finisher, winning-side"):
        rules_from_mapping({"finish_side": "both"})
    with pytest.raises(RuleError, match="play option straights cannot be"):
        rules_from_mapping({"plays": {"straights": "circular"}})
