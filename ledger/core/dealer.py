"""The dealer's helpers: who gets the first card, may a hand be redealt, who deals and leads next.

Pure functions over seats (names in the direction of play), cards and recorded deals;
no storage, no terminal.

>>> from ledger.core.cards import parse_card, parse_cards
>>> seats = ["Ann", "Ben", "Cat", "Dan"]
>>> cut(parse_card("7H"), seats, "Ann")  # count Ann 1, Ben 2, Cat 3, Dan 4, Ann 5, Ben 6, Cat 7
Cut(card=Card(rank=7, suit='H'), count=7, dealer='Ann', receiver='Cat')
>>> hand_points(parse_cards("JS QS 2D 3C 4C"))
8
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NamedTuple

from ledger.core.errors import InputError
from ledger.core.i18n import _
from ledger.core.rules import RuleSet
from ledger.core.scoring import Deal

if TYPE_CHECKING:
    from ledger.core.cards import Card

# ledger.core.cards is imported where a card is handled: `bigtwo deal` needs only who
# deals next, not the card parser (a test checks TWO matches the cards module's).
TWO = 15
_SUIT_SYMBOLS = {"S": "♠", "H": "♥", "C": "♣", "D": "♦"}

# Where counting a card lands: an ace counts 1, a two 2, a king 13 (pagat: "count the
# players starting with the dealer ... until the rank of the exposed card is reached").
_COUNT = {14: 1, TWO: 2}
# Hand points for the redeal rule (Wikipedia): J=1 Q=2 K=3 A=4 2=5, others 0.
HAND_POINTS = {11: 1, 12: 2, 13: 3, 14: 4, TWO: 5}
REDEAL_MAX = 3  # "a hand with only 3 points or less"
FACE_RANKS = (11, 12, 13)
THREE_OF_DIAMONDS = "3♦"


@dataclass(frozen=True)
class Cut:
    """The exposed card, how far it counts, the dealer and who receives the first card."""

    card: Card
    count: int
    dealer: str
    receiver: str


def card_count(card: Card) -> int:
    """How many players the exposed card counts: A=1, 2=2, 3..10 face value, J=11, Q=12, K=13."""
    return _COUNT.get(card.rank, card.rank)


def cut(card: Card, seats: Sequence[str], dealer: str) -> Cut:
    """Who receives the first card: count from the dealer (1) round the table in seat order.

    With four players an A, 5, 9 or K gives the dealer, 2, 6, 10 the next player, 3, 7,
    J the one opposite and 4, 8, Q the last (pagat, the French text); with fewer players
    the count wraps sooner, with five to eight later (a 6 reaches the sixth seat).
    """
    if dealer not in seats:
        raise InputError(_("the dealer {dealer!r} is not seated; players: {players}").format(
            dealer=dealer, players=", ".join(seats)))
    count = card_count(card)
    start = seats.index(dealer)
    return Cut(card, count, dealer, seats[(start + count - 1) % len(seats)])


# --- redeal ------------------------------------------------------------------------------


class RedealCheck(NamedTuple):
    """A dealt hand's points and whether its holder may ask for a redeal."""

    cards: tuple[Card, ...]
    points: int
    may_redeal: bool
    face_cards: int  # J, Q, K: the variant "no face cards, ask for a redeal" looks at these
    four_twos: bool = False  # all four twos: a reshuffle under redeal_four_twos (the Russian article)

    def to_dict(self) -> dict[str, Any]:
        from ledger.core.cards import format_card

        scored = [c for c in self.cards if c.rank in HAND_POINTS]
        return {
            "cards": [format_card(c) for c in self.cards],
            "count": len(self.cards),
            "points": self.points,
            "scoring": {format_card(c): HAND_POINTS[c.rank] for c in scored},
            "may_redeal": self.may_redeal,
            "limit": REDEAL_MAX,
            "face_cards": self.face_cards,
            "four_twos": self.four_twos,
        }


def hand_points(cards: Iterable[Card]) -> int:
    """J=1, Q=2, K=3, A=4, 2=5, every other card 0 (Wikipedia's redeal rule)."""
    return sum(HAND_POINTS.get(card.rank, 0) for card in cards)


REDEAL_SIZES = (13, 17, 18)  # a hand as dealt: four players, or three (17, one with the 52nd)


def redeal_check(cards: Iterable[Card], rules: RuleSet | None = None) -> RedealCheck:
    """A hand of 3 points or fewer may ask for a redeal (Wikipedia's Big Two article:
    "a hand with only 3 points or less", whatever its size: 13 cards, or 17 with three
    players); under ``redeal_four_twos`` so may a hand holding all four twos (the Russian
    article: "если у игрока четыре двойки, может потребоваться перестановка").

    >>> from ledger.core.cards import parse_cards
    >>> redeal_check(parse_cards("JS QH 3D 4D 5C 6C 7C 8C 9C 10S 3S 4S 5S")).may_redeal
    True
    """
    hand = tuple(cards)
    points = hand_points(hand)
    faces = sum(card.rank in FACE_RANKS for card in hand)
    twos = sum(card.rank == TWO for card in hand) == 4
    allowed = points <= REDEAL_MAX or (twos and rules is not None and rules.redeal_four_twos)
    return RedealCheck(hand, points, allowed, faces, twos)


# --- next dealer and leader -------------------------------------------------------------


class Turn(NamedTuple):
    """Who deals and who leads the next deal.

    ``dealers`` has one name, or several when ``next_deal = "loser"`` and players tie on
    the most cards (pagat: a showdown between them decides).  ``leader`` is None when the
    holder of ``opener`` leads (the lowest card under the suit order, e.g. 3♣ when
    diamonds are high).
    """

    dealers: tuple[str, ...]
    leader: str | None
    opener: str = THREE_OF_DIAMONDS
    # next_lead = "loser" with players tied on the most cards: the showdown's winner leads
    leaders: tuple[str, ...] = ()
    # Two decks hold two of the opening card: the texts do not say which holder leads; the
    # ledger's reading is the one first after the dealer in the direction of play (dealt
    # first when the deal "begins with the player to dealer's right", pagat).
    twin: bool = False

    def describe(self) -> str:
        """``next: Ben deals, Cat leads``."""
        if len(self.dealers) == 1:
            deals = _("{name} deals").format(name=self.dealers[0])
        else:
            tied = _("{names} or {last}").format(names=", ".join(self.dealers[:-1]), last=self.dealers[-1])
            deals = _("{names} deals (tied on most cards: a showdown decides)").format(names=tied)
        if len(self.leaders) > 1:
            leads = _("the showdown's winner leads")
        elif self.leader is None and self.twin and len(self.dealers) == 1:
            leads = _("the holder of {card} first after {dealer} leads").format(
                card=self.opener, dealer=self.dealers[0])
        else:
            leader = self.opener if self.leader is None else self.leader
            leads = _("{name} leads").format(name=leader)
        return _("next: {deals}, {leads}").format(deals=deals, leads=leads)


def next_turn(seats: Sequence[str], rules: RuleSet, deals: Sequence[Deal]) -> Turn:
    """Who deals and leads after ``deals`` (the live deals, oldest first).

    The ledger does not record who dealt, so the first seat is taken to deal the first
    deal and ``rotate`` moves the deal one seat per recorded deal.  Before any deal the
    holder of the lowest card leads (3♦, or 3♣ under the Pusoy Dos suits).

    >>> rules = RuleSet("rotating")
    >>> next_turn(["Ann", "Ben", "Cat"], rules, [Deal(cards={"Ann": 4, "Ben": 0, "Cat": 2})])
    Turn(dealers=('Ben',), leader='Ben', opener='3♦', leaders=(), twin=False)
    """
    return next_turn_after(seats, rules, len(deals), deals[-1] if deals else None)


def next_turn_after(seats: Sequence[str], rules: RuleSet, count: int, last: Deal | None) -> Turn:
    """:func:`next_turn` from the number of live deals and the last one only (all it needs).

    >>> last = Deal(cards={"Ann": 4, "Ben": 0, "Cat": 2})
    >>> next_turn_after(["Ann", "Ben", "Cat"], RuleSet("rotating"), 1, last)
    Turn(dealers=('Ben',), leader='Ben', opener='3♦', leaders=(), twin=False)
    """
    opener = opening_card(rules)
    twin = rules.decks > 1
    if last is None or count == 0:
        return Turn((seats[0],), None, opener, twin=twin)
    if rules.next_deal == "winner":
        dealers: tuple[str, ...] = (last.winner,)
    elif rules.next_deal == "loser":
        dealers = losers(seats, rules, last)
    else:
        dealers = (seats[count % len(seats)],)
    if rules.next_lead == "loser":  # pagat: "the 'loser' of each hand plays first in the next"
        most = losers(seats, rules, last)
        return Turn(dealers, most[0] if len(most) == 1 else None, opener,
                    most if len(most) > 1 else (), twin)
    leader = last.winner if rules.next_lead == "winner" else None
    if rules.round_deals and count % rules.round_deals == 0:
        leader = None  # pagat, Indonesia: "Only the first deal of the round is begun by the 3"
    return Turn(dealers, leader, opener, twin=twin)


def opening_card(rules: RuleSet) -> str:
    """The card whose holder leads when the winner does not: the lowest card under the
    suit order (pagat: "the player who holds the 3♣ rather than the 3♦ starts" in Pusoy
    Dos), or 3♦ itself under ``next_lead = "three-of-diamonds"``."""
    if rules.next_lead == "three-of-diamonds":
        return THREE_OF_DIAMONDS
    if rules.opener == "three-of-clubs":  # the French text: "3 clubs au lieu de 3 diamants"
        return "3♣"
    suit_order = dict(rules.plays).get("suit_order", "SHCD")
    # format_card(lowest_card(suit_order), symbols=True), without importing the card
    # parser on every `bigtwo deal` (tests/core/test_dealer.py checks they agree)
    lowest = "D" if suit_order == "none" else suit_order[-1]
    return "3" + _SUIT_SYMBOLS[lowest]


def next_turn_from_facts(
    seats: Sequence[str], rules: RuleSet, facts: Iterable[Mapping[str, Any]]
) -> Turn:
    """:func:`next_turn` over stored deal facts (``ledger.live_deals`` entries)."""
    return next_turn(seats, rules, [Deal.from_dict(f) for f in facts])


def losers(seats: Sequence[str], rules: RuleSet, deal: Deal) -> tuple[str, ...]:
    """The player(s) with the most cards left (places mode: the last place), in seat
    order starting after the winner."""
    if deal.order:
        return (deal.order[-1],)
    start = seats.index(deal.winner)
    ring = [seats[(start + i) % len(seats)] for i in range(1, len(seats))]
    if deal.immediate is not None:
        held = {name: rules.hand_size for name in ring}
    else:
        held = {name: deal.cards.get(name, 0) for name in ring}
    most = max(held.values())
    return tuple(name for name in ring if held[name] == most)

