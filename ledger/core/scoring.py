"""Scoring: a deal's facts + the session's rule set -> penalties and net points.

Pure functions, no storage, no terminal.  Numbers follow docs/scoring.md:

    p_i = c_i x tier(c_i) x twos_factor x bombs_factor x finish_factor

then the penalty transfers (assist, missed call), then net points (pairwise
``net_i = sum(p') - n*p'_i`` or pay-the-winner).

>>> from ledger.core.rules import load_preset
>>> seats = ["North", "East", "West", "South"]
>>> deal = Deal(cards={"North": 0, "East": 3, "West": 11, "South": 8})
>>> score_deal(load_preset("pay-the-winner"), seats, deal).net
{'North': 33, 'East': -3, 'West': -22, 'South': -8}
"""

from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import Any, NamedTuple

from ledger.core.deal_checks import FINISHES as FINISHES
from ledger.core.deal_checks import IMMEDIATE as IMMEDIATE
from ledger.core.deal_checks import Finish as Finish
from ledger.core.deal_checks import is_finish as is_finish
from ledger.core.deal_checks import validate
from ledger.core.errors import InputError
from ledger.core.i18n import _
from ledger.core.rule_set import ImmediateWin, RuleSet
from ledger.core.seating import own_hands
from ledger.core.seating import teams_of as teams_of  # read here by the reports and money

# The default of a fact nobody stated: an empty mapping that cannot be changed (one,
# shared by every Deal that leaves the fact out).
NOTHING: Mapping[str, Any] = MappingProxyType({})


class Deal(NamedTuple):
    """The facts of one deal, as entered at the table (see docs/scoring.md)."""

    cards: Mapping[str, int] = NOTHING
    twos: Mapping[str, int] = NOTHING
    bombs: Mapping[str, int] = NOTHING
    finish: Finish | None = None
    assist: str | None = None
    missed_call: bool = False
    immediate: ImmediateWin | None = None
    immediate_by: str | None = None
    order: tuple[str, ...] | None = None
    shootout: str | None = None
    # Cards typed for a loser instead of a count ("2S 2H 5D"): kept as entered.
    hands: Mapping[str, str] = NOTHING
    leftovers: str | None = None  # who took the leftover cards (ledger.core.seating)
    players: tuple[str, ...] | None = None  # who played, when not the starting seats (lineup.py)

    def to_dict(self) -> dict[str, Any]:
        """Compact JSON-ready facts: only what was said."""
        out: dict[str, Any] = {}
        if self.cards:
            out["cards"] = dict(self.cards)
        for key in ("twos", "bombs", "hands"):
            value = {k: v for k, v in getattr(self, key).items() if v}
            if value:
                out[key] = value
        for key in ("finish", "assist", "immediate", "immediate_by", "shootout", "leftovers"):
            if getattr(self, key) is not None:
                out[key] = getattr(self, key)
        if self.missed_call:
            out["missed_call"] = True
        out.update({k: list(v) for k in ("order", "players") if (v := getattr(self, k)) is not None})
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "Deal":
        known = set(cls._fields)
        unknown = set(data) - known
        if unknown:
            raise InputError(_("unknown deal fact(s): {facts}").format(facts=", ".join(sorted(unknown))))
        values = dict(data)
        for key in ("order", "players"):
            values[key] = None if values.get(key) is None else tuple(values[key])
        return cls(**values)

    @property
    def winner(self) -> str:
        """Who won the deal: went out, the immediate winner, or first place."""
        if self.immediate_by is not None:
            return self.immediate_by
        if self.order:
            return self.order[0]
        return next(name for name, c in self.cards.items() if c == 0)


class DealScore(NamedTuple):
    """Derived points of one deal.  ``net`` sums to zero.

    In teams mode ``net`` is the team's net for each member (a member's money
    share is half of it) and ``wins`` marks both members of the winning team.
    """

    cards: dict[str, int]
    wins: dict[str, bool]
    fried: dict[str, bool]
    base_penalty: dict[str, int]
    penalty: dict[str, int]
    net: dict[str, int]
    payee: dict[str, str | None]  # who each player's pay-the-winner flow is with


# --- scoring ------------------------------------------------------------------


def _factor(option: str, count: int) -> int:
    if option == "each":
        return int(2**count)
    if option == "once" and count > 0:
        return 2
    return 1


def base_penalties(
    rules: RuleSet, seats: Sequence[str], deal: Deal, finish_counts: bool = True,
    cards: Mapping[str, int] | None = None, own: Mapping[str, int] | None = None,
) -> dict[str, int]:
    """Each player's penalty before transfers (docs/scoring.md, "A loser's penalty");
    ``finish_counts`` False: the finish doubles nobody (teams, the side that went out lost).
    ``cards`` and ``own``, when given, are ``effective_cards`` and ``own_hands`` of them,
    worked out once by the caller."""
    if rules.mode == "places":
        assert deal.order is not None
        return {n: rules.place_points[deal.order.index(n)] for n in seats}
    if cards is None:
        cards = effective_cards(rules, seats, deal)
    if rules.settlement == "ranked":
        from ledger.core.ranked import ranked_penalties

        return ranked_penalties(rules, cards, deal.winner)
    if deal.immediate is not None:
        return {n: c * immediate_multiplier(rules, deal, c) for n, c in cards.items()}
    finish = 2 if finish_counts and rules.finish_double and _doubling_finish(rules, deal.finish) else 1
    if own is None:
        own = own_hands(rules, cards, deal.leftovers)
    capped = rules.draw_from_stock and rules.stock_scoring == "full-hand"
    twos, bombs = deal.twos, deal.bombs
    out = {}
    for name in seats:
        c = cards[name]
        if capped:
            c = min(c, rules.hand_size)  # Wikipedia is silent above a full hand
        out[name] = (
            c
            * rules.tier_for(c, own[name])
            * (_factor(rules.twos, twos[name]) if name in twos else 1)
            * (_factor(rules.bombs, bombs[name]) if name in bombs else 1)
            * finish
        )
    return out


def _doubling_finish(rules: RuleSet, finish: str | None) -> bool:
    """Quads and straight flushes double; a two only under finish_two = "double"."""
    if finish == "two":
        return rules.finish_two == "double"
    return finish in FINISHES


def immediate_multiplier(rules: RuleSet, deal: Deal, cards: int) -> int:
    """The tier of a full hand, or x3 for four twos under four_twos = "tripled"
    (Wikipedia: "The score (card count) of the losing players is tripled")."""
    if deal.immediate == "four-twos" and rules.four_twos == "tripled" and cards:
        return 3
    if deal.immediate == "four-twos" and rules.four_twos == "draw":
        return 0  # Wikipedia: "an automatic draw when 1 player has all 4 twos"
    return rules.tier_for(cards, cards)  # a full hand: all your cards


def is_fried(rules: RuleSet, deal: Deal, cards: int, name: str = "",
             own: Mapping[str, int] | None = None) -> bool:
    """A loser multiplied by the card count: a tier above x1, four twos tripled, or
    (ranked) holding the threshold or more.  ``own``, when given, is ``own_hands`` of the
    deal's cards, worked out once by the caller."""
    if rules.mode != "cards" or cards == 0:
        return False
    if rules.settlement == "ranked":
        return cards >= rules.rank_threshold
    if deal.immediate is not None:
        return immediate_multiplier(rules, deal, cards) > 1
    if own is None:
        own = own_hands(rules, deal.cards, deal.leftovers)
    return rules.tier_for(cards, own.get(name, cards)) > 1


def effective_cards(rules: RuleSet, seats: Sequence[str], deal: Deal) -> dict[str, int]:
    """Cards scored for each player: an immediate win scores a full hand for the others."""
    if deal.immediate is not None:
        full = own_hands(rules, dict.fromkeys(seats, 0), deal.leftovers)  # the taker's: + leftovers
        return {n: 0 if n == deal.immediate_by else full[n] for n in seats}
    if rules.mode == "places":
        return {n: 0 for n in seats}
    return {n: deal.cards[n] for n in seats}


def score_deal(
    rules: RuleSet, seats: Sequence[str], deal: Deal, teams: bool = False
) -> DealScore:
    """Validate and score one deal; raises InputError for impossible facts."""
    validate(rules, seats, deal, teams)
    cards = effective_cards(rules, seats, deal)
    # Every seat's own hand, once: the played cards name every seat (validated above), so
    # own_hands of them is what base_penalties and is_fried each work out.
    own = (own_hands(rules, deal.cards, deal.leftovers)
           if rules.mode == "cards" and rules.settlement != "ranked" and deal.immediate is None
           else None)
    base = base_penalties(rules, seats, deal, cards=cards, own=own)
    fried = {n: is_fried(rules, deal, cards[n], n, own) for n in seats}
    if teams:
        return _score_teams(rules, seats, deal, cards, base, fried)
    winner = deal.winner
    total = sum(base.values())
    penalty = dict(base)
    if deal.assist is not None:
        penalty = {n: total if n == deal.assist else 0 for n in seats}
    elif deal.missed_call:
        penalty = {n: total if n == winner else 0 for n in seats}
    net: dict[str, int]
    payee: dict[str, str | None] = {n: None for n in seats}
    if rules.settlement == "pairwise":
        n_players = len(seats)
        net = {n: total - n_players * penalty[n] for n in seats}
    elif deal.missed_call:
        # The flows reverse: the winner pays each player their own penalty.
        net = {n: base[n] for n in seats}
        net[winner] = -total
        payee = {n: (winner if n != winner else None) for n in seats}
    else:
        net = {n: -penalty[n] for n in seats}
        net[winner] = sum(penalty.values())
        payee = {n: (winner if n != winner else None) for n in seats}
    drawn = deal.immediate == "four-twos" and rules.four_twos == "draw"
    wins = {n: n == winner and not drawn for n in seats}
    return DealScore(cards, wins, fried, base, penalty, net, payee)


def _score_teams(
    rules: RuleSet,
    seats: Sequence[str],
    deal: Deal,
    cards: dict[str, int],
    base: dict[str, int],
    fried: dict[str, bool],
) -> DealScore:
    """Fewer team cards wins; the losing team pays the sum of its members' penalties."""
    team_a, team_b = teams_of(seats)
    if deal.immediate is not None:
        winners = team_a if deal.immediate_by in team_a else team_b
    else:
        count_a = sum(cards[n] for n in team_a)
        count_b = sum(cards[n] for n in team_b)
        if count_a != count_b:
            winners = team_a if count_a < count_b else team_b
        else:
            winners = team_a if deal.shootout in team_a else team_b
    if rules.finish_side == "winning-side" and deal.finish is not None and deal.immediate is None:
        went_out = next(n for n in seats if cards[n] == 0)
        if went_out not in winners:  # the winner is the winning side, which did not finish
            base = base_penalties(rules, seats, deal, finish_counts=False)
    penalty = {n: 0 if n in winners else base[n] for n in seats}
    owed = sum(penalty.values())
    net = {n: owed if n in winners else -owed for n in seats}
    wins = {n: n in winners for n in seats}
    payee: dict[str, str | None] = {n: None for n in seats}
    return DealScore(cards, wins, fried, base, penalty, net, payee)
