"""A second, deliberately plain reading of docs/scoring.md: a loser's penalty, penalty
transfers, net points and the modes.

Property tests compare the real engine with this module, so it is written
independently of ``ledger/`` and follows the wording of docs/scoring.md line by line.
Plain dicts in, plain dicts out; see the docstring of ``ref_deal`` for the keys.

Readings that the sources leave open (see docs/scoring.md, "Readings of ambiguous
points"):

- teams: the team with fewer cards wins the deal and its members pay nothing;
  the losing team's penalty is the sum of its members' own penalties; each
  member's net is half the team net (a ``Fraction``). Assist, missed call and
  places mode are not modelled for teams.
- places: penalty = ``place_points[place]`` (index 0 is first); no assist or
  missed call.
- fried: the player's tier multiplier is greater than 1 (four twos tripled: fried;
  ranked: holding the threshold or more).
- ranked: penalties and nets are in units of the stake (``Fraction``: tied losers
  share their ranks' payments, so halves appear); the engine counts whole points of
  ``1 / points_per_unit`` unit.
"""

from decimal import Decimal
from fractions import Fraction

from hypothesis import strategies as st

FINISHES = (None, "two", "quads", "straight-flush")
IMMEDIATE_WINS = ("dragon", "four-twos")

# docs/scoring.md's presets, as rules dicts.
_CLASSIC = {
    "hand_size": 13,
    "tiers": [[1, 1], [10, 2], [13, 3]],
    "twos": "off",
    "bombs": "off",
    "finish_double": False,
    "assist": True,
    "missed_call": True,
    "immediate_wins": ["dragon", "four-twos"],
    "settlement": "pairwise",
    "mode": "cards",
    "place_points": [0, 1, 2, 3],
    "assist_single_only": True,
    "four_twos": "tiers",
    "finish_two": "double",
    "rank_payments": [1, 2, 3],
    "rank_threshold": 10,
    "over_threshold_factor": 2,
}
# Wikipedia triples four twos and reports that going out on a two is not allowed.
_WIKIPEDIA = {"four_twos": "tripled", "finish_two": "forbidden"}
PRESETS = {
    "classic": _CLASSIC,
    "pay-the-winner": {**_CLASSIC, **_WIKIPEDIA, "settlement": "pay-the-winner"},
    "doubling": {
        **_CLASSIC,
        "twos": "each",
        "bombs": "each",
        "finish_double": True,
        "missed_call": False,
        "settlement": "pay-the-winner",
        "finish_side": "winning-side",
    },
    # Andrew White's Hong Kong rules: doubled with 10-12, tripled with 13, no missed call
    "hong-kong": {**_CLASSIC, "missed_call": False},
    # the Hong Kong online / mainland tiers
    "hong-kong-online": {
        **_CLASSIC,
        "tiers": [[1, 1], [8, 2], [10, 3], [13, 4]],
        "missed_call": False,
        "assist_single_only": False,
    },
    "da-lao-er": {
        **_CLASSIC,
        "tiers": [[1, 1], [11, 2]],
        "assist": False,
        "missed_call": False,
        "assist_single_only": False,
    },
    # the French text's Choi Dai Di: 1 a card up to 10, 2 a card from 11, paid to the winner
    "choi-dai-di": {
        **_CLASSIC,
        "tiers": [[1, 1], [11, 2]],
        "assist": False,
        "missed_call": False,
        "assist_single_only": False,
        "settlement": "pay-the-winner",
    },
    "three-player": {
        **_CLASSIC,
        "hand_size": 17,
        "tiers": [[1, 1], [12, 2], [17, 3]],
        "settlement": "pay-the-winner",
        **_WIKIPEDIA,
    },
    "places": {
        **_CLASSIC,
        "assist": False,
        "missed_call": False,
        "immediate_wins": [],
        "mode": "places",
        "assist_single_only": False,
    },
    # The ranked (Taiwanese) scheme: 1, 2, 3 units by cards left, x2 from 10 cards.
    "taiwan": {
        **_CLASSIC,
        "assist": False,
        "missed_call": False,
        "assist_single_only": False,
        "settlement": "ranked",
    },
}


def tiers_from_fry_threshold(threshold):
    """`fry_threshold = F`: 1-(F-1) x1, F-12 x2, 13 x3 (no x2 band when F = 13)."""
    assert 10 <= threshold <= 13
    if threshold == 13:
        return [[1, 1], [13, 3]]
    return [[1, 1], [threshold, 2], [13, 3]]


# §2 A loser's penalty ------------------------------------------------------


def tier(rules, cards):
    """The multiplier of the highest tier whose lower bound is <= cards."""
    multiplier = 1
    for lower_bound, tier_multiplier in rules["tiers"]:
        if lower_bound <= cards:
            multiplier = tier_multiplier
    return multiplier


def doubling_factor(option, count):
    """`off` -> 1; `each` -> 2^count; `once` -> 2 if count > 0."""
    if option == "off":
        return 1
    if option == "each":
        return 2**count
    assert option == "once", option
    return 2 if count > 0 else 1


def finish_factor(rules, finish):
    """finish_double on -> 2 if the finish is a two (finish_two "double"), quads or
    straight flush."""
    if not rules["finish_double"]:
        return 1
    if finish == "two":
        return 2 if rules["finish_two"] == "double" else 1
    return 2 if finish in ("quads", "straight-flush") else 1


def loser_penalty(rules, cards, twos, bombs, finish):
    """p = c x tier(c) x twos_factor x bombs_factor x finish_factor."""
    return (
        cards
        * tier(rules, cards)
        * doubling_factor(rules["twos"], twos)
        * doubling_factor(rules["bombs"], bombs)
        * finish_factor(rules, finish)
    )


def cards_left(rules, seats, facts):
    """Cards per player; after an immediate win the others hold a full hand."""
    if facts["immediate"] is not None:
        holder = facts["immediate_by"]
        return {name: 0 if name == holder else rules["hand_size"] for name in seats}
    return {name: facts["cards"][name] for name in seats}


def ranked_payments(rules, seats, cards):
    """Losers ranked by cards left, fewest first, pay rank_payments units; x factor when
    any loser holds the threshold or more; tied losers share their ranks' payments."""
    losers = sorted((name for name in seats if cards[name] > 0), key=lambda name: cards[name])
    factor = 1
    if any(cards[name] >= rules["rank_threshold"] for name in losers):
        factor = rules["over_threshold_factor"]
    owed = {name: Fraction(0) for name in seats}
    for name in losers:
        ranks = [i for i, other in enumerate(losers) if cards[other] == cards[name]]
        shared = sum(rules["rank_payments"][i] for i in ranks)
        owed[name] = Fraction(shared, len(ranks)) * factor
    return owed


def immediate_count_multiplier(rules, facts, cards):
    """The tier of a full hand; Wikipedia triples four twos (four_twos = "tripled")."""
    if facts["immediate"] == "four-twos" and rules["four_twos"] == "tripled" and cards:
        return 3
    return tier(rules, cards)


def pre_transfer_penalties(rules, seats, facts):
    if rules["mode"] == "places":
        return {name: rules["place_points"][facts["order"].index(name)] for name in seats}
    cards = cards_left(rules, seats, facts)
    if rules["settlement"] == "ranked":
        return ranked_payments(rules, seats, cards)
    if facts["immediate"] is not None:
        # no twos / bombs / finish factors after an immediate win
        return {
            name: cards[name] * immediate_count_multiplier(rules, facts, cards[name])
            for name in seats
        }
    return {
        name: loser_penalty(
            rules,
            cards[name],
            facts["twos"].get(name, 0),
            facts["bombs"].get(name, 0),
            facts["finish"],
        )
        for name in seats
    }


def deal_winner(rules, seats, facts):
    """The player who went out (or was dealt the immediate win, or came first)."""
    if rules["mode"] == "places":
        return facts["order"][0]
    cards = cards_left(rules, seats, facts)
    went_out = [name for name in seats if cards[name] == 0]
    assert len(went_out) == 1, cards
    return went_out[0]


# §4 Penalty transfers -------------------------------------------------------


def apply_transfers(seats, winner, penalty, facts):
    """Assist: the assister takes every loser's penalty; missed call: the winner does."""
    assert not (facts["assist"] and facts["missed_call"])
    losers_sum = sum(penalty[name] for name in seats if name != winner)
    if facts["assist"] is not None:
        assert facts["assist"] != winner
        return {name: losers_sum if name == facts["assist"] else 0 for name in seats}
    if facts["missed_call"]:
        return {name: losers_sum if name == winner else 0 for name in seats}
    return dict(penalty)


# §5 Net points ---------------------------------------------------------------


def pairwise_nets(seats, penalty):
    """net_i = sum(p') - n * p'_i."""
    total = sum(penalty[name] for name in seats)
    return {name: total - len(seats) * penalty[name] for name in seats}


def pay_the_winner_nets(seats, winner, pre_penalty, penalty, missed_call):
    """Each loser pays the winner p'_i; a missed call reverses the flows."""
    if missed_call:
        # the winner pays each other player that player's own pre-transfer penalty
        nets = {name: pre_penalty[name] for name in seats if name != winner}
        nets[winner] = -sum(nets.values())
    else:
        nets = {name: -penalty[name] for name in seats if name != winner}
        nets[winner] = sum(penalty[name] for name in seats if name != winner)
    return {name: nets[name] for name in seats}


# §6 Teams ----------------------------------------------------------------------


def team_deal(rules, seats, facts, pre_penalty):
    """Partners sit opposite; the team with fewer cards wins and pays nothing."""
    assert len(seats) == 4 and rules["mode"] == "cards"
    assert facts["assist"] is None and not facts["missed_call"]
    cards = cards_left(rules, seats, facts)
    assert list(cards.values()).count(0) == 1, cards
    first_team, second_team = [seats[0], seats[2]], [seats[1], seats[3]]
    first_cards = sum(cards[name] for name in first_team)
    second_cards = sum(cards[name] for name in second_team)
    if first_cards < second_cards:
        winners, losers = first_team, second_team
    elif second_cards < first_cards:
        winners, losers = second_team, first_team
    else:  # tie: the five-card shootout decides
        assert facts["shootout"] in seats
        if facts["shootout"] in first_team:
            winners, losers = first_team, second_team
        else:
            winners, losers = second_team, first_team
    went_out = next(name for name in seats if cards[name] == 0)
    if rules.get("finish_side", "finisher") == "winning-side" and went_out not in winners:
        # the Russian text doubles "if the winner finishes on a two"; in teams the winner
        # is the winning side, and here it is not the side that went out
        pre_penalty = pre_transfer_penalties(rules, seats, {**facts, "finish": None})
    penalty = {name: 0 if name in winners else pre_penalty[name] for name in seats}
    team_score = {"winners": 0, "losers": sum(penalty[name] for name in losers)}
    total = sum(team_score.values())
    team_net = {side: total - 2 * score for side, score in team_score.items()}
    net = {name: Fraction(team_net["winners" if name in winners else "losers"], 2) for name in seats}
    # credited with the win: the shootout winner on a tie, otherwise the winning
    # team's member holding fewer cards (the one who went out, if on that team)
    tied = first_cards == second_cards
    winner = facts["shootout"] if tied else min(winners, key=cards.get)
    return penalty, net, winner


# The deal ---------------------------------------------------------------------


def ref_deal(rules, seats, facts, teams=False):
    """Score one deal.

    Returns {"penalty": after transfers, "net", "winner", "fried", "pre_penalty"}.

    >>> r = ref_deal(PRESETS["pay-the-winner"], ["N", "E", "W", "S"],
    ...     {"cards": {"N": 0, "E": 3, "W": 11, "S": 8}, "twos": {}, "bombs": {},
    ...      "finish": None, "assist": None, "missed_call": False,
    ...      "immediate": None, "immediate_by": None, "order": None, "shootout": None})
    >>> r["net"]
    {'N': 33, 'E': -3, 'W': -22, 'S': -8}
    """
    if rules["mode"] == "places":
        assert not teams and facts["assist"] is None and not facts["missed_call"]
        assert sorted(facts["order"]) == sorted(seats)
    if facts["immediate"] is not None:
        assert facts["immediate"] in rules["immediate_wins"]
        assert facts["assist"] is None and not facts["missed_call"]
    assert facts["assist"] is None or rules["assist"]
    assert not facts["missed_call"] or rules["missed_call"]

    pre_penalty = pre_transfer_penalties(rules, seats, facts)
    if rules["mode"] == "places":
        fried = {name: False for name in seats}
    elif rules["settlement"] == "ranked":
        cards = cards_left(rules, seats, facts)
        fried = {name: cards[name] >= rules["rank_threshold"] for name in seats}
    else:
        cards = cards_left(rules, seats, facts)
        fried = {
            name: cards[name] > 0 and immediate_count_multiplier(rules, facts, cards[name]) > 1
            for name in seats
        }

    if teams:
        penalty, net, winner = team_deal(rules, seats, facts, pre_penalty)
    else:
        winner = deal_winner(rules, seats, facts)
        penalty = apply_transfers(seats, winner, pre_penalty, facts)
        if rules["settlement"] == "pairwise":
            net = pairwise_nets(seats, penalty)
        else:
            assert rules["settlement"] in ("pay-the-winner", "ranked")
            net = pay_the_winner_nets(seats, winner, pre_penalty, penalty, facts["missed_call"])
    return {
        "penalty": penalty,
        "net": net,
        "winner": winner,
        "fried": fried,
        "pre_penalty": pre_penalty,
    }


# Money and pair-by-pair settlement ----------------------------------------------


def ref_session_money(per_deal_nets, stake):
    """Sum of nets x stake, exact (team halves become exact decimals)."""
    money = {}
    for nets in per_deal_nets:
        for name, net in nets.items():
            points = Fraction(net)
            amount = Decimal(points.numerator) * stake / Decimal(points.denominator)
            money[name] = money.get(name, Decimal(0)) + amount
    return money


def ref_pairwise_from_totals(totals):
    """For each pair, the higher total pays the lower the difference."""
    names = list(totals)
    payments = []
    for i, first in enumerate(names):
        for second in names[i + 1 :]:
            difference = totals[first] - totals[second]
            if difference > 0:
                payments.append((first, second, difference))
            elif difference < 0:
                payments.append((second, first, -difference))
    return payments


# Hypothesis strategies: valid random deals --------------------------------------


def make_facts(**given):
    """A facts dict with every key present; `given` overrides the defaults."""
    facts = {
        "cards": {},
        "twos": {},
        "bombs": {},
        "finish": None,
        "assist": None,
        "missed_call": False,
        "immediate": None,
        "immediate_by": None,
        "order": None,
        "shootout": None,
    }
    facts.update(given)
    return facts


def _shootout(draw, seats, cards, teams):
    """A shootout winner only when the two teams hold the same number of cards."""
    if not teams:
        return None
    if cards[seats[0]] + cards[seats[2]] != cards[seats[1]] + cards[seats[3]]:
        return None
    return draw(st.sampled_from(seats))


@st.composite
def _played_out_deal(draw, rules, seats, teams):
    winner = draw(st.sampled_from(seats))
    losers = [name for name in seats if name != winner]
    cards = {name: 0 for name in seats}
    for name in losers:
        cards[name] = draw(st.integers(1, rules["hand_size"]))
    finishes = FINISHES if rules["finish_double"] else (None,)
    if rules["finish_two"] == "forbidden":
        finishes = tuple(f for f in finishes if f != "two")
    finish = draw(st.sampled_from(finishes))
    twos_free = 3 if finish == "two" else 4
    twos = {}
    for name in losers:
        held = draw(st.integers(0, min(cards[name], twos_free)))
        if held:
            twos[name] = held
            twos_free -= held
    bombs = {}
    for name in losers:
        held = draw(st.integers(0, cards[name] // 4))
        if held:
            bombs[name] = held
    transfers = ["none"]
    single = not (rules["assist_single_only"] and finish in ("quads", "straight-flush"))
    if rules["assist"] and not teams and single:
        transfers.append("assist")
    if rules["missed_call"] and not teams:
        transfers.append("missed call")
    transfer = draw(st.sampled_from(transfers))
    assist = draw(st.sampled_from(losers)) if transfer == "assist" else None
    return make_facts(
        cards=cards,
        twos=twos,
        bombs=bombs,
        finish=finish,
        assist=assist,
        missed_call=transfer == "missed call",
        shootout=_shootout(draw, seats, cards, teams),
    )


@st.composite
def _immediate_deal(draw, rules, seats):
    return make_facts(
        immediate=draw(st.sampled_from(list(rules["immediate_wins"]))),
        immediate_by=draw(st.sampled_from(seats)),
    )


@st.composite
def _places_deal(draw, seats):
    return make_facts(order=draw(st.permutations(seats)))


def deals_strategy(rules, seats, teams=False):
    """Valid facts dicts for one deal under `rules` with these seats."""
    assert not teams or len(seats) == 4
    if rules["mode"] == "places":
        assert not teams
        return _places_deal(seats)
    played_out = _played_out_deal(rules, seats, teams)
    if not rules["immediate_wins"]:
        return played_out
    return st.one_of(played_out, _immediate_deal(rules, seats))
