"""The rule set as data: :class:`RuleSet`, every field a house-rule variant, and the
fixed choices its fields take.

Building one from a rule file or a stored dict, checked against the registry of
options (:mod:`ledger.core.registry`, which describes these fields), and the presets
are :mod:`ledger.core.rules`.
"""

import json
import math
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Literal, NamedTuple, get_args

from ledger.core.i18n import _

if TYPE_CHECKING:
    from ledger.core.play_rules import PlayRules

# The fixed choices of a rule set: each a Literal type, and its values as a tuple.
Factor = Literal["off", "each", "once"]  # how unplayed twos / bombs multiply the penalty
Settlement = Literal["pairwise", "pay-the-winner", "ranked"]
Mode = Literal["cards", "places"]
ImmediateWin = Literal["dragon", "four-twos"]
NextDeal = Literal["rotate", "winner", "loser"]  # who deals the next deal (default first)
# Who leads it: the last winner, the holder of the lowest card under the suit order, or
# (sessions frozen before lowest-card existed) the holder of 3♦ whatever the suits.
# "loser": the player left with the most cards (pagat: "the 'loser' of each hand plays first").
NextLead = Literal["winner", "lowest-card", "three-of-diamonds", "loser"]
# The card whose holder opens: the lowest under the suit order, or 3♣ whatever the order
# (the French text's Philippine rule: "le jeu commence porte 3 clubs au lieu de 3 diamants").
Opener = Literal["lowest-card", "three-of-clubs"]
# Teams: a finish doubles whoever went out (sessions before this option), or only when the
# player who went out is on the winning side (the winner is the winning side).
FinishSide = Literal["finisher", "winning-side"]
# A four-twos immediate win: by the tiers, x3, or (Wikipedia's "some variations")
# "an automatic draw when 1 player has all 4 twos": every penalty 0.
FourTwos = Literal["tiers", "tripled", "draw"]
FinishTwo = Literal["double", "plain", "forbidden"]  # going out on a two
# The tiers for a hand of another size than they were written for: by the count as
# written, or with the top tier read as "all your cards" (docs/scoring.md).
TiersByHand = Literal["as-written", "all-your-cards"]
# Two players drawing from the stock (Wikipedia) may end holding 14-39 cards: each card
# counts, or the penalty stops at a full hand (the text says nothing on it).
StockScoring = Literal["every-card", "full-hand"]
# More seated than play (seats that change: ledger/core/lineup.py): who sits out the next
# deal, decided after each deal, or (none) only as ``bigtwo seat`` says.
SitOut = Literal["none", "winner", "loser", "in-turn"]

FACTOR_CHOICES: tuple[Factor, ...] = get_args(Factor)
SETTLEMENTS: tuple[Settlement, ...] = get_args(Settlement)
MODES: tuple[Mode, ...] = get_args(Mode)
IMMEDIATE_WINS: tuple[ImmediateWin, ...] = get_args(ImmediateWin)
NEXT_DEALS: tuple[NextDeal, ...] = get_args(NextDeal)
NEXT_LEADS: tuple[NextLead, ...] = get_args(NextLead)
FOUR_TWOS: tuple[FourTwos, ...] = get_args(FourTwos)
FINISH_TWO: tuple[FinishTwo, ...] = get_args(FinishTwo)
OPENERS: tuple[Opener, ...] = get_args(Opener)
FINISH_SIDES: tuple[FinishSide, ...] = get_args(FinishSide)
TIERS_BY_HAND: tuple[TiersByHand, ...] = get_args(TiersByHand)
STOCK_SCORINGS: tuple[StockScoring, ...] = get_args(StockScoring)
SIT_OUTS: tuple[SitOut, ...] = get_args(SitOut)
MAX_HAND = 26  # two players splitting a whole pack
MAX_SEATS = 8  # two decks seat up to eight
MAX_LOSERS = MAX_SEATS - 1


class RuleSet(NamedTuple):
    """Everything that decides a deal's points.  See docs/scoring.md."""

    name: str
    description: str = ""
    source: str = ""
    hand_size: int = 13
    tiers: tuple[tuple[int, int], ...] = ((1, 1), (10, 2), (13, 3))
    twos: Factor = "off"
    bombs: Factor = "off"
    finish_double: bool = False
    assist: bool = False
    missed_call: bool = False
    immediate_wins: tuple[ImmediateWin, ...] = IMMEDIATE_WINS
    settlement: Settlement = "pairwise"
    mode: Mode = "cards"
    place_points: tuple[int, ...] = (0, 1, 2, 3)
    # Play options (docs/plays.md), kept as validated plain data; see ledger.core.play_rules.
    plays: tuple[tuple[str, Any], ...] = ()
    # Who deals and who leads the next deal (docs/at-the-table.md); see ledger.core.dealer.
    next_deal: NextDeal = "rotate"
    next_lead: NextLead = "winner"
    # Wikipedia: assistance excludes "the case of more than one card played".
    assist_single_only: bool = False
    # Wikipedia scores four twos as the losers' count "tripled"; tiers: the rule set's own.
    four_twos: FourTwos = "tiers"
    # Going out on a two: doubles (with finish_double), counts plain, or is not allowed.
    finish_two: FinishTwo = "double"
    # settlement = "ranked" (a Taiwanese house rule): losers ranked by cards left pay
    # rank_payments units, x over_threshold_factor when one holds rank_threshold or more.
    rank_payments: tuple[int, ...] = (1, 2, 3)
    rank_threshold: int = 10
    over_threshold_factor: int = 2
    # pagat, Indonesia: rounds of ``round_deals`` deals, the first of each opened by the
    # lowest card, the others by the last winner (0: no rounds).
    round_deals: int = 0
    opener: Opener = "lowest-card"
    finish_side: FinishSide = "finisher"
    # Wikipedia, three players: the 52nd card goes to one of them, who holds hand_size + 1.
    odd_card: bool = False
    # The Russian article: a hand holding all four twos may ask for a reshuffle.
    redeal_four_twos: bool = False
    # The Russian article: two decks seat up to eight.  Wikipedia: one deck "dealt out
    # among the players as far as they can go", the leftovers to the 3♦'s holder.
    decks: int = 1
    deal_all: bool = False
    tiers_by_hand: TiersByHand = "as-written"
    # Wikipedia, two players: "When one player passes he is forced to pick up one card
    # from the remaining deck and add it to his hand."
    draw_from_stock: bool = False
    stock_scoring: StockScoring = "every-card"
    sit_out: SitOut = "none"

    def tier_for(self, cards: int, own_hand: int) -> int:
        """The multiplier of ``cards`` left from a hand of ``own_hand`` cards: the tiers as
        written, or under ``tiers_by_hand = "all-your-cards"`` the top tier exactly when
        every card is left and the tier below it otherwise.

        >>> r = RuleSet("t", tiers_by_hand="all-your-cards")
        >>> [r.tier_for(c, 8) for c in (7, 8)], [r.tier_for(c, 19) for c in (13, 19)]
        ([1, 3], [2, 3])
        """
        if self.tiers_by_hand == "as-written" or cards == 0:
            return self.tier(cards)
        if cards >= own_hand:
            return self.tiers[-1][1]
        below = self.tiers[:-1] or self.tiers
        return RuleSet(self.name, tiers=below).tier(cards)

    def tier(self, cards: int) -> int:
        """Multiplier of the highest tier whose lower bound is <= ``cards``."""
        multiplier = 1
        for lower, mult in self.tiers:
            if cards >= lower:
                multiplier = mult
        return multiplier

    @property
    def points_per_unit(self) -> int:
        """Points in one unit of the stake: 1, except under ``ranked`` settlement.

        Tied losers share their ranks' payments equally, so a share can be a fraction
        of a unit (1.5 for two losers tied on ranks 1 and 2 of ``[1, 2, 3]``).  Points
        are whole numbers, so a ranked rule set counts in the smallest fraction of a
        unit every share is a whole number of: half units for ``[1, 2, 3]``.

        >>> RuleSet("t", settlement="ranked").points_per_unit
        2
        >>> RuleSet("t", settlement="ranked", rank_payments=(1, 2, 4)).points_per_unit
        6
        """
        if self.settlement != "ranked":
            return 1
        pays = self.rank_payments
        shares = (
            Fraction(sum(pays[i:j]), j - i)
            for i in range(len(pays))
            for j in range(i + 1, len(pays) + 1)
        )
        return math.lcm(*(share.denominator for share in shares))

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready form; ``rules_from_dict(r.to_dict()) == r``."""
        data: dict[str, Any] = {}
        for key in self._fields:
            value: Any = getattr(self, key)
            if key == "tiers":
                value = [list(t) for t in value]
            elif key == "plays":
                value = dict(value)
            elif isinstance(value, tuple):
                value = list(value)
            data[key] = value
        return data

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), sort_keys=True, ensure_ascii=False)

    def play_rules(self) -> "PlayRules":
        """The play options as :class:`ledger.core.play_rules.PlayRules` (unnamed ones at their defaults)."""
        from ledger.core.play_rules import PlayRules

        return PlayRules.from_mapping(dict(self.plays))

    def ranked_text(self) -> str:
        """``pay 1, 2, 3 x stake; x2 if one holds 10+``: the ranked payments as said."""
        pays = ", ".join(str(p) for p in self.rank_payments)
        return _("losers pay {pays} units by cards left; x{factor} if one holds {threshold}+").format(
            pays=pays, factor=self.over_threshold_factor, threshold=self.rank_threshold)

    def tiers_text(self) -> str:
        """``1-9 x1, 10-12 x2, 13 x3``: the tiers as players say them."""
        parts = []
        for i, (lower, mult) in enumerate(self.tiers):
            upper = self.tiers[i + 1][0] - 1 if i + 1 < len(self.tiers) else self.hand_size
            span = str(lower) if lower == upper else f"{lower}-{upper}"
            parts.append(f"{span} x{mult}")
        return ", ".join(parts)
