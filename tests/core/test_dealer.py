"""Dealer helpers: the cut (pagat), the redeal check (Wikipedia), who deals and leads next."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ledger.core.cards import parse_card, parse_cards
from ledger.core.dealer import Turn, cut, hand_points, losers, next_turn, opening_card, redeal_check
from ledger.core.errors import InputError, RuleError
from ledger.core.rules import RuleSet, load_preset, rules_from_dict, rules_from_mapping
from ledger.core.scoring import Deal

SEATS = ["Ann", "Ben", "Cat", "Dan"]
FOUR = ("--players", ",".join(SEATS))

# --- the cut ----------------------------------------------------------------------------------
# pagat: "if it was an ace, 5, 9 or king the dealer will get the first card, if it was a 2, 6 or
# 10 the player to dealer's right [next in play], if it was a 3, 7 or jack the player opposite
# the dealer and if it was a 4, 8 or queen, the player to dealer's left [the last]".

CUT_TABLE = {
    "dealer": ["A", "5", "9", "K"],
    "next": ["2", "6", "10"],
    "opposite": ["3", "7", "J"],
    "last": ["4", "8", "Q"],
}
OFFSET = {"dealer": 0, "next": 1, "opposite": 2, "last": 3}


@pytest.mark.parametrize(
    ("rank", "who"), [(rank, who) for who, ranks in CUT_TABLE.items() for rank in ranks]
)
@pytest.mark.parametrize("suit", ["S", "D"])
@pytest.mark.parametrize("dealer", SEATS)
def test_cut_four_players(rank: str, who: str, suit: str, dealer: str) -> None:
    result = cut(parse_card(rank + suit), SEATS, dealer)
    assert result.receiver == SEATS[(SEATS.index(dealer) + OFFSET[who]) % 4]
    assert result.dealer == dealer


def test_cut_table_covers_every_rank() -> None:
    assert sorted(r for ranks in CUT_TABLE.values() for r in ranks) == sorted(
        ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
    )


@pytest.mark.parametrize(
    ("seats", "card", "receiver"),
    [
        (["Ann", "Ben", "Cat"], "AS", "Ann"),
        (["Ann", "Ben", "Cat"], "3S", "Cat"),
        (["Ann", "Ben", "Cat"], "4S", "Ann"),  # the count wraps after three
        (["Ann", "Ben", "Cat"], "KS", "Ann"),  # 13 = 4 x 3 + 1
        (["Ann", "Ben"], "2S", "Ben"),
        (["Ann", "Ben"], "QS", "Ben"),
        (["Ann", "Ben"], "JS", "Ann"),
    ],
)
def test_cut_fewer_players(seats: list[str], card: str, receiver: str) -> None:
    assert cut(parse_card(card), seats, "Ann").receiver == receiver


def test_cut_dealer_must_be_seated() -> None:
    with pytest.raises(InputError, match="not seated"):
        cut(parse_card("AS"), SEATS, "Eve")


# --- redeal check ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("cards", "points"),
    [
        ("JS", 1), ("QS", 2), ("KS", 3), ("AS", 4), ("2S", 5),
        ("3S 4S 5S 6S 7S 8S 9S 10S", 0),
        ("JS QH KC AD 2S", 15),
    ],
)
def test_hand_points(cards: str, points: int) -> None:
    assert hand_points(parse_cards(cards)) == points


@pytest.mark.parametrize(
    ("hand", "may"),
    [
        ("3S 4S 5S 6S 7S 8S 9S 10S 3H 4H 5H 6H 7H", True),  # 0 points
        ("KS 4S 5S 6S 7S 8S 9S 10S 3H 4H 5H 6H 7H", True),  # 3 points: "3 or less"
        ("JS QS 5S 6S 7S 8S 9S 10S 3H 4H 5H 6H 7H", True),  # 1 + 2
        ("AS 4S 5S 6S 7S 8S 9S 10S 3H 4H 5H 6H 7H", False),  # 4 points
        ("JS KS 5S 6S 7S 8S 9S 10S 3H 4H 5H 6H 7H", False),  # 1 + 3
        ("2S 4S 5S 6S 7S 8S 9S 10S 3H 4H 5H 6H 7H", False),
    ],
)
def test_redeal_check(hand: str, may: bool) -> None:
    assert redeal_check(parse_cards(hand)).may_redeal is may


def test_redeal_check_cli(cli) -> None:
    out = cli.ok("redeal-check", "JS QH 3D 4D 5C 6C 7C 8C 9C 10S 3S 4S 5S")
    assert out.strip() == (
        "13 cards, hand points J♠ 1 + Q♥ 2 = 3 — 3 or fewer, so the holder may ask for a redeal"
    )
    out = cli.ok("redeal-check", "AS 3D 4D 5C 6C 7C 8C 9C 10S 3S 4S 5S 6D")
    assert "hand points A♠ 4 = 4 — more than 3, so no redeal" in out
    assert "no-face-cards variant" in out  # no J, Q or K
    out = cli.ok("redeal-check", "3D 4D 5C 6C 7C 8C 9C 10S 3S 4S 5S 6D 7D")
    assert "hand points 0 (no J, Q, K, A or 2) — 3 or fewer" in out


def test_redeal_check_json(cli) -> None:
    data = json.loads(cli.ok("redeal-check", "kd 2c 3D 4D 5C 6C 7C 8C 9C 10S 3S 4S 5S", "--json"))
    assert data["points"] == 8
    assert data["may_redeal"] is False
    assert data["scoring"] == {"KD": 3, "2C": 5}
    assert (data["count"], data["limit"], data["face_cards"]) == (13, 3, 1)


@pytest.mark.parametrize(("cards", "message"), [("", "no cards given"), ("JS JS", "named twice"),
                                                 ("ZZ", "unknown card")])
def test_redeal_check_rejects_bad_cards(cli, cards: str, message: str) -> None:
    assert message in cli.fails("redeal-check", cards, code=2)


# --- next dealer and leader ------------------------------------------------------------------


def rules(**options: object) -> RuleSet:
    return rules_from_mapping(options)


D1 = Deal(cards={"Ann": 4, "Ben": 0, "Cat": 9, "Dan": 2})
D2 = Deal(cards={"Ann": 0, "Ben": 5, "Cat": 5, "Dan": 1})


def test_before_any_deal_the_first_seat_deals_and_three_of_diamonds_leads() -> None:
    for r in (rules(), rules(next_deal="rotate"), rules(next_lead="three-of-diamonds")):
        assert next_turn(SEATS, r, []) == Turn(("Ann",), None)


def test_classic_follows_pagat_and_white_the_winner_deals_and_leads() -> None:
    """pagat: "thereafter the winner of each hand deals the next"; Andrew White: "the
    winner of the previous round deals and leads first"."""
    r = load_preset("classic")
    assert (r.next_deal, r.next_lead) == ("winner", "winner")
    assert next_turn(SEATS, r, [D1]) == Turn(("Ben",), "Ben")
    assert next_turn(SEATS, r, [D1, D2]) == Turn(("Ann",), "Ann")
    assert load_preset("hong-kong").next_deal == "winner"


def test_rotate_stays_an_option() -> None:
    r = rules(next_deal="rotate")
    assert (r.next_deal, r.next_lead) == ("rotate", "winner")
    assert next_turn(SEATS, r, [D1]) == Turn(("Ben",), "Ben")
    assert next_turn(SEATS, r, [D1, D2]) == Turn(("Cat",), "Ann")
    assert next_turn(SEATS, r, [D1, D2, D1, D2]) == Turn(("Ann",), "Ann")  # round the table


def test_the_winner_deals() -> None:
    assert next_turn(SEATS, rules(next_deal="winner"), [D1, D2]).dealers == ("Ann",)


def test_the_loser_deals_most_cards() -> None:
    assert next_turn(SEATS, rules(next_deal="loser"), [D1]).dealers == ("Cat",)


def test_the_losers_tie_in_seat_order_after_the_winner() -> None:
    assert losers(SEATS, rules(), D2) == ("Ben", "Cat")
    turn = next_turn(SEATS, rules(next_deal="loser"), [D2])
    assert turn.describe() == "next: Ben or Cat deals (tied on most cards: a showdown decides), Ann leads"
    dragon = Deal(immediate="dragon", immediate_by="Cat")
    assert losers(SEATS, rules(), dragon) == ("Dan", "Ann", "Ben")


def test_the_loser_in_places_mode_is_last() -> None:
    places = load_preset("places")
    deal = Deal(order=("Cat", "Ann", "Dan", "Ben"))
    assert next_turn(SEATS, rules_from_mapping({"next_deal": "loser"}, base=places), [deal]) == Turn(
        ("Ben",), "Cat"
    )


@pytest.mark.parametrize(
    ("suit_order", "opener"),
    [
        ("SHCD", "3♦"),  # pagat: "The player who holds the three of diamonds begins"
        ("DHSC", "3♣"),  # pagat, Pusoy Dos: "the player who holds the 3♣ rather than the 3♦"
        ("SHDC", "3♣"),  # pagat, Taiwan / bridge order: "In this case the 3♣ starts"
        ("CSHD", "3♦"),  # the French text's order: diamonds lowest
        ("HSDC", "3♣"),  # Russian article: clubs lowest
        ("none", "3♦"),  # no suit order: the usual 3♦
    ],
)
def test_the_lowest_card_under_the_suit_order_opens(suit_order: str, opener: str) -> None:
    house = rules(next_lead="lowest-card", plays={"suit_order": suit_order})
    assert next_turn(SEATS, house, []).describe() == f"next: Ann deals, {opener} leads"
    assert next_turn(SEATS, house, [D1]).describe() == f"next: Ben deals, {opener} leads"
    assert next_turn(SEATS, rules(plays={"suit_order": suit_order}), []).opener == opener
    # the dealer spells the opener itself (to spare `deal` the card parser): same card
    from ledger.core.cards import format_card, lowest_card

    assert opening_card(house) == format_card(lowest_card(suit_order), symbols=True) == opener


def test_the_dealers_two_is_the_card_modules_two() -> None:
    from ledger.core import cards, dealer

    assert dealer.TWO == cards.TWO


def test_three_of_diamonds_leads() -> None:
    turn = next_turn(SEATS, rules(next_lead="three-of-diamonds"), [D1])
    assert turn == Turn(("Ben",), None)
    assert turn.describe() == "next: Ben deals, 3♦ leads"


@pytest.mark.parametrize(("key", "value"), [("next_deal", "left"), ("next_lead", "left"),
                                            ("next_deal", 1)])
def test_bad_next_options_are_rule_errors(key: str, value: object) -> None:
    with pytest.raises(RuleError, match=f"rule '{key}' must be one of"):
        rules(**{key: value})


def test_frozen_rules_from_before_the_options_still_load() -> None:
    old = load_preset("classic").to_dict()
    for key in ("next_deal", "next_lead", "assist_single_only", "four_twos", "finish_two",
                "rank_payments", "rank_threshold", "over_threshold_factor"):
        del old[key]
    restored = rules_from_dict(old)
    assert (restored.next_deal, restored.next_lead) == ("rotate", "winner")
    assert rules_from_dict(load_preset("hong-kong").to_dict()) == load_preset("hong-kong")


# --- the CLI: "next:" after each deal, and cut from the session ----------------------------------


def rule_file(tmp_path: Path, text: str) -> str:
    path = tmp_path / "house.toml"
    path.write_text(text, "utf-8")
    return str(path)


def test_deal_prints_who_deals_and_leads_next(cli, tmp_path) -> None:
    cli.ok("session", "start", *FOUR, "--rules", rule_file(tmp_path, 'next_deal = "rotate"\n'))
    assert cli.ok("deal", "4", "0", "9", "2").rstrip().endswith("next: Ben deals, Ben leads")
    assert cli.ok("deal", "0", "5", "6", "1").rstrip().endswith("next: Cat deals, Ann leads")
    assert cli.ok("undo").rstrip().endswith("next: Ben deals, Ben leads")
    assert cli.ok("amend", "1", "0", "5", "6", "1").rstrip().endswith("next: Ben deals, Ann leads")


def test_rule_file_sets_who_deals_and_leads(cli, tmp_path) -> None:
    house = rule_file(tmp_path, 'next_deal = "loser"\nnext_lead = "three-of-diamonds"\n')
    shown = json.loads(cli.ok("rules", "show", house, "--json"))
    assert (shown["next_deal"], shown["next_lead"]) == ("loser", "three-of-diamonds")
    cli.ok("session", "start", *FOUR, "--rules", house)
    assert cli.ok("deal", "4", "0", "9", "2").rstrip().endswith("next: Cat deals, 3♦ leads")


def test_bad_next_option_in_a_rule_file(cli, tmp_path) -> None:
    err = cli.fails("session", "start", *FOUR, "--rules", rule_file(tmp_path, 'next_deal = "east"\n'))
    assert "rule 'next_deal' must be one of rotate, winner, loser" in err


def test_cut_uses_the_session_seats_and_next_dealer(cli) -> None:
    cli.ok("session", "start", *FOUR)
    out = cli.ok("cut", "7H")
    assert out.splitlines() == [
        "7♥ counts 7 from the dealer, Ann: Ann 1, Ben 2, Cat 3, Dan 4, … Cat 7",
        "Cat receives the first card",
    ]
    cli.ok("deal", "4", "0", "9", "2")  # rotate: Ben deals next
    data = json.loads(cli.ok("cut", "7H", "--json"))
    assert data == {"card": "7H", "count": 7, "dealer": "Ben", "receiver": "Dan",
                    "players": SEATS}
    assert json.loads(cli.ok("cut", "2c", "--dealer", "da", "--json"))["receiver"] == "Ann"


@pytest.mark.no_ledger
def test_cut_with_players_needs_no_session(cli, ledger_path) -> None:
    out = cli.ok("cut", "AS", "--players", "Eve,Fay,Gus")
    assert out.splitlines()[-1] == "Eve receives the first card"
    assert json.loads(cli.ok("cut", "3S", "--players", "Eve,Fay,Gus", "--dealer", "Fay",
                             "--json"))["receiver"] == "Eve"
    assert not ledger_path.exists()


def test_cut_with_a_tie_for_next_dealer_asks_who(cli, tmp_path) -> None:
    cli.ok("session", "start", *FOUR, "--rules", rule_file(tmp_path, 'next_deal = "loser"\n'))
    cli.ok("deal", "0", "5", "5", "1")
    assert "--dealer NAME" in cli.fails("cut", "AS", code=2)
    assert cli.ok("cut", "AS", "--dealer", "Cat").splitlines()[-1] == "Cat receives the first card"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("cut", "7H 8H", "--players", "A,B"), "give the one exposed card"),
        (("cut", "1H", "--players", "A,B"), "unknown card '1H'"),
        (("cut", "7H", "--players", "A"), "2 to 8 players"),
        (("cut", "7H", "--players", "A,B,C,D,E,F,G,H,I"), "2 to 8 players, not 9"),
        (("cut", "7H", "--players", "A,B", "--dealer", "C"), "'C' is not seated"),
        (("cut", "7H"), "no current session"),
    ],
)
def test_cut_errors(cli, args: tuple[str, ...], message: str) -> None:
    assert message in cli.fails(*args, code=2)
