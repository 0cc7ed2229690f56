"""Cards as the table writes them: parsing, one canonical spelling, and reading a held hand.

Ranks are ints 3..15 (11=J, 12=Q, 13=K, 14=A, 15=2) so plain integer comparison is Big
Two's rank order; suits are the letters S, H, C, D (their order is a play option, see
:mod:`ledger.core.plays`).  Which five-rank runs are straights also lives here, because a
hand's bomb count depends on it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from ledger.core.errors import InputError, RuleError
from ledger.core.i18n import N_, _

SUITS = "SHCD"
SUIT_SYMBOLS = {"S": "♠", "H": "♥", "C": "♣", "D": "♦"}
RANKS = tuple(range(3, 16))
TWO = 15
RANK_NAMES = {**{r: str(r) for r in range(3, 11)}, 11: "J", 12: "Q", 13: "K", 14: "A", 15: "2"}
# Jokers (Wikipedia, the Russian article: "the jokers are deemed higher than the Two of
# Spades, but the black joker is considered higher than the red joker"): rank 16, suit B
# (black) or R (red), written BJ and RJ; read only where the play option jokers is on.
JOKER = 16
JOKER_SUITS = {"B": "BJ", "R": "RJ"}

_RANK_ALIASES = {name: rank for rank, name in RANK_NAMES.items()} | {"T": 10}
_SUIT_ALIASES = {s: s for s in SUITS} | {sym: s for s, sym in SUIT_SYMBOLS.items()}
_SUIT_ALIASES |= {"♤": "S", "♡": "H", "♧": "C", "♢": "D"}  # white symbol variants
_RANK_RE = r"(10|[2-9TJQKA])"
_SUIT_RE = "([" + "".join(_SUIT_ALIASES) + "])"
_RANK_FIRST = re.compile(_RANK_RE + _SUIT_RE)
_SUIT_FIRST = re.compile(_SUIT_RE + _RANK_RE)
_CARD_HELP = N_(
    "a card is a rank 2-9, 10 or T, J, Q, K, A and a suit S, H, C, D (or ♠ ♥ ♣ ♦), e.g. 10H or QS")


@dataclass(frozen=True, slots=True)
class Card:
    """One card; equal cards are the same physical card (a single 52-card deck)."""

    rank: int
    suit: str

    def __post_init__(self) -> None:
        if self.rank == JOKER and self.suit in JOKER_SUITS:
            return
        if self.rank not in RANK_NAMES or self.suit not in SUITS:
            raise ValueError(f"no such card: rank={self.rank!r} suit={self.suit!r}")

    def __str__(self) -> str:
        return format_card(self)


def format_card(card: Card, symbols: bool = False) -> str:
    """Canonical spelling: ``10H`` (ASCII, safe in files) or ``10♥`` for people; ``BJ``,
    ``RJ`` for the jokers."""
    if card.rank == JOKER:
        return JOKER_SUITS[card.suit]
    return RANK_NAMES[card.rank] + (SUIT_SYMBOLS[card.suit] if symbols else card.suit)


def format_cards(cards: Iterable[Card], symbols: bool = False) -> str:
    """Cards joined by spaces, in the given order, re-readable by :func:`parse_cards`."""
    return " ".join(format_card(card, symbols) for card in cards)


def parse_card(text: str) -> Card:
    """Read one card in any accepted notation (``10h``, ``TH``, ``♥10``, ``H10``...)."""
    token = _normalise(text)
    joker = next((suit for suit, name in JOKER_SUITS.items() if token == name), None)
    if joker is not None:
        return Card(JOKER, joker)
    for pattern, rank_group in ((_RANK_FIRST, 1), (_SUIT_FIRST, 2)):
        match = pattern.fullmatch(token)
        if match:
            rank, suit = match.group(rank_group), match.group(3 - rank_group)
            return Card(_RANK_ALIASES[rank], _SUIT_ALIASES[suit])
    raise InputError(_("unknown card {card!r}: {help}").format(card=text.strip(), help=_(_CARD_HELP)))


def parse_cards(text: str, copies: int = 1, jokers: bool = False) -> tuple[Card, ...]:
    """Read cards separated by spaces or commas; a card named more than ``copies`` times
    (once with one deck, twice with two) is an error, and so is a joker (``BJ``, ``RJ``)
    unless ``jokers``.

    Cards written back to back (``9♠9♦``, ``H10S9``) are also read when each token is
    entirely rank-first or entirely suit-first, so examples can be typed as printed.
    """
    cards: list[Card] = []
    for token in re.split(r"[\s,]+", text.strip()):
        if token:
            cards.extend(_parse_token(token))
    if not jokers and any(card.rank == JOKER for card in cards):
        joker = next(format_card(card) for card in cards if card.rank == JOKER)
        raise InputError(_("{card} is a joker: jokers are cards only under the play option "
                           "jokers (plays.jokers = true)").format(card=joker))
    ensure_distinct(cards, copies)
    return tuple(cards)


def ensure_distinct(cards: Iterable[Card], copies: int = 1) -> None:
    """Reject a card named twice: with one deck it cannot be in two places.  With two
    decks (``copies`` 2) a card may be named twice, never three times."""
    seen: dict[Card, int] = {}
    for card in cards:
        seen[card] = seen.get(card, 0) + 1
        if seen[card] > copies and copies == 1:
            raise InputError(_("card {card} is named twice: each card may be named only once").format(
                card=format_card(card)))
        if seen[card] > copies:
            raise InputError(_("card {card} is named three times: with two decks each card may "
                               "be named at most twice").format(card=format_card(card)))


NO_SUIT_ORDER = "none"  # suits never break a tie (Wikipedia, Russian Wikipedia)


def card_order(card: Card, suit_order: str = "SHCD") -> tuple[int, int]:
    """Sort key, low to high: rank, then suit under ``suit_order`` (written high to low).

    Under ``none`` cards of one rank still sort (spades, hearts, clubs, diamonds) so a
    hand prints the same way every time, but :func:`suit_value` ranks them all alike.
    """
    if card.rank == JOKER:
        return JOKER, 1 if card.suit == "B" else 0
    order = SUITS if suit_order == NO_SUIT_ORDER else suit_order
    return card.rank, 3 - order.index(card.suit)


def suit_value(suit: str, suit_order: str = "SHCD") -> int:
    """3 for the highest suit of ``suit_order`` down to 0 for the lowest; 0 for all under ``none``."""
    if suit_order == NO_SUIT_ORDER:
        return 0
    return 3 - suit_order.index(suit)


def lowest_card(suit_order: str = "SHCD") -> Card:
    """The card whose holder opens: the 3 of the lowest suit (3♦ under ``SHCD``, 3♣ under
    ``DHSC``).  With no suit order the default 3♦ is used."""
    order = SUITS if suit_order == NO_SUIT_ORDER else suit_order
    return Card(3, order[-1])


def _normalise(text: str) -> str:
    return text.strip().upper().replace("\ufe0f", "")  # drop emoji presentation selector


def _parse_token(token: str) -> list[Card]:
    normal = _normalise(token)
    for pattern in (_RANK_FIRST, _SUIT_FIRST):
        if re.fullmatch(f"(?:{pattern.pattern})+", normal):
            return [parse_card(m.group()) for m in pattern.finditer(normal)]
    return [parse_card(token)]


# --- straights -----------------------------------------------------------------------

STRAIGHT_STYLES = (
    "pagat", "hong-kong", "no-wrap", "ace-low-excluded", "twos-high", "descending", "indonesian",
    "no-ace-five", "ace-five-low-two-six-high", "two-six-over-ace-five", "ace-five-high",
    "ace-five-below-ace", "wrap-around", "ace-low-king-high", "three-to-ace",
)


@dataclass(frozen=True)
class Run:
    """Five ranks that form a straight, written low to high, and the rank of its top card.

    The top card is the one whose suit breaks a tie between equal runs.
    """

    ranks: tuple[int, ...]
    top: int
    level: int = -1  # rank among the style's runs; runs that tie share a level

    def __str__(self) -> str:
        return "-".join(RANK_NAMES[r] for r in self.ranks)


_MIDDLE = tuple(Run(tuple(range(low, low + 5)), low + 4) for low in range(3, 11))
_A_TO_5, _2_TO_6 = (14, 15, 3, 4, 5), (15, 3, 4, 5, 6)
_J_TO_2 = (11, 12, 13, 14, 15)


def _descending(ranks: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(sorted(ranks, reverse=True))


def _levelled(runs: tuple[Run, ...], same_level: tuple[tuple[int, ...], ...] = ()) -> tuple[Run, ...]:
    """Number the runs low to high; the runs named in ``same_level`` share the top level."""
    out: list[Run] = []
    level = -1
    for run in runs:
        if not (out and run.ranks in same_level and out[-1].ranks in same_level):
            level += 1
        out.append(Run(run.ranks, run.top, level))
    return tuple(out)


_STRAIGHT_RUNS: dict[str, tuple[Run, ...]] = {
    # twos low, ace either end: A-2-3-4-5 (top 5) < 2-3-4-5-6 (top 6) < 3-..-7 < 10-..-A
    "pagat": _levelled((Run(_A_TO_5, 5), Run(_2_TO_6, 6), *_MIDDLE)),
    # the runs holding a two rank highest and the two is their top card
    "hong-kong": _levelled((*_MIDDLE, Run(_2_TO_6, 15), Run(_A_TO_5, 15))),
    # twos high and never next to a three: J-Q-K-A-2 (top 2) is the highest
    "no-wrap": _levelled((*_MIDDLE, Run(_J_TO_2, 15))),
    # pagat: "Some do not allow A-2-3-4-5 as a valid straight or straight flush at all":
    # that one run goes, 2-3-4-5-6 stays (the lowest); no-ace-five is the same order
    "ace-low-excluded": _levelled((Run(_2_TO_6, 6), *_MIDDLE)),
    # pagat: twos may rank high, "2-A-K-Q-J is ... the highest ... and 6-5-4-3-2 is lowest"
    "twos-high": _levelled((Run(_2_TO_6, 6), *_MIDDLE, Run(_J_TO_2, 15))),
    # pagat: "compare the cards in descending order of their normal rank", so
    # 2-A-K-Q-J > 6-5-4-3-2 > A-K-Q-J-10; the top card is the highest-ranked one
    "descending": _levelled(tuple(sorted(
        (*_MIDDLE, Run(_2_TO_6, 15), Run(_J_TO_2, 15)), key=lambda run: _descending(run.ranks)
    ))),
    # pagat, Indonesia: A-2-3-4-5 and 2-3-4-5-6 beat all other straights and rank
    # between themselves by the suit of the two (one level, the two is the top card)
    "indonesian": _levelled((*_MIDDLE, Run(_2_TO_6, 15), Run(_A_TO_5, 15)), (_2_TO_6, _A_TO_5)),
    # pagat: "Some do not allow A-2-3-4-5 as a valid straight": that one run goes
    "no-ace-five": _levelled((Run(_2_TO_6, 6), *_MIDDLE)),
    # Wikipedia's Singaporean variant (the Russian article's Taiwanese one):
    # A-2-3-4-5 < 3-4-5-6-7 < ... < 10-J-Q-K-A < 2-3-4-5-6
    "ace-five-low-two-six-high": _levelled((Run(_A_TO_5, 5), *_MIDDLE, Run(_2_TO_6, 15))),
    # Wikipedia's Malaysian variant: ... < 10-J-Q-K-A < A-2-3-4-5 < 2-3-4-5-6 (suit of the 2)
    "two-six-over-ace-five": _levelled((*_MIDDLE, Run(_A_TO_5, 15), Run(_2_TO_6, 15))),
    # Wikipedia, the Russian article: 2-3-4-5-6 < ... < 10-J-Q-K-A < A-2-3-4-5 (suit of the A)
    "ace-five-high": _levelled((Run(_2_TO_6, 6), *_MIDDLE, Run(_A_TO_5, 14))),
    # Wikipedia, the Russian article: 2-3-4-5-6 < ... < 9-10-J-Q-K < A-2-3-4-5 < 10-J-Q-K-A
    "ace-five-below-ace": _levelled((Run(_2_TO_6, 6), *_MIDDLE[:-1], Run(_A_TO_5, 14), _MIDDLE[-1])),
    # Wikipedia: "Q-K-A-2-3 < K-A-2-3-4 < ... < 10-J-Q-K-A < J-Q-K-A-2" (the last card's suit)
    "wrap-around": _levelled((Run((12, 13, 14, 15, 3), 3), Run((13, 14, 15, 3, 4), 4),
                              Run(_A_TO_5, 5), Run(_2_TO_6, 6), *_MIDDLE, Run(_J_TO_2, 15))),
    # the French text's ace-low, king-high ranks ("la carte d'as plus jeune, puis aller à 2,
    # 3, etc., et le plus ancien est roi"): five consecutive values run from A-2-3-4-5 to
    # 9-10-J-Q-K; 10-J-Q-K-A is no run (only with plays.rank_order = "ace-low-king-high")
    "ace-low-king-high": _levelled((Run(_A_TO_5, 5), Run(_2_TO_6, 6), *_MIDDLE[:-1])),
    # no run holding an ace low or a two: 3-4-5-6-7 ... 10-J-Q-K-A only (what
    # ace-low-excluded meant before it followed pagat's sentence)
    "three-to-ace": _levelled(_MIDDLE),
}


def straight_runs(straights: str = "pagat") -> tuple[Run, ...]:
    """The runs that are straights under a ``straights`` option, lowest first.

    pagat: A-2-3-4-5 (top 5), 2-3-4-5-6 (top 6), 3-4-5-6-7 ... 10-J-Q-K-A (top = last).
    hong-kong: 3-4-5-6-7 ... 10-J-Q-K-A, then 2-3-4-5-6, then A-2-3-4-5 (both: top 2).
    no-wrap: 3-4-5-6-7 ... 10-J-Q-K-A, then J-Q-K-A-2 (top 2).
    ace-low-excluded: 2-3-4-5-6 (top 6), 3-4-5-6-7 ... 10-J-Q-K-A (pagat's, as no-ace-five).
    three-to-ace: 3-4-5-6-7 ... 10-J-Q-K-A only.
    twos-high: 2-3-4-5-6 (top 6), 3-4-5-6-7 ... 10-J-Q-K-A, J-Q-K-A-2 (top 2).
    descending: 3-4-5-6-7 ... 10-J-Q-K-A, 2-3-4-5-6, J-Q-K-A-2 (both: top 2).
    indonesian: 3-4-5-6-7 ... 10-J-Q-K-A, then 2-3-4-5-6 and A-2-3-4-5 on one level
    (top 2: the suit of the two decides between them).

    >>> [run.level for run in straight_runs("indonesian")][-3:]
    [7, 8, 8]
    """
    if straights not in _STRAIGHT_RUNS:
        allowed = ", ".join(STRAIGHT_STYLES)
        raise RuleError(_("play option {name} cannot be {value!r}: use one of {allowed}").format(
            name="straights", value=straights, allowed=allowed))
    return _STRAIGHT_RUNS[straights]


# --- reading a held hand --------------------------------------------------------------


@dataclass(frozen=True)
class HandReading:
    """What scoring needs from a loser's cards: how many, how many twos, how many bombs."""

    count: int
    twos: int
    bombs: int


def read_hand(cards: Iterable[Card], straights: str = "pagat", copies: int = 1) -> HandReading:
    """Count cards, twos and the most disjoint bombs (fours, straight flushes) they hold.

    ``straights`` is the play option deciding which runs make a straight flush.  With
    two decks (``copies`` 2) a card's second copy counts and its twos, but bombs are
    read from one copy of each card.
    """
    hand = tuple(cards)
    ensure_distinct(hand, copies)
    twos = sum(card.rank == TWO for card in hand)
    return HandReading(len(hand), twos, _most_disjoint(find_bombs(hand, straights)))


def find_bombs(cards: Iterable[Card], straights: str = "pagat") -> list[frozenset[Card]]:
    """Every four-of-a-kind (4 cards, no kicker) and straight flush within ``cards``."""
    held = set(cards)
    fours = [frozenset(Card(rank, s) for s in SUITS) for rank in RANKS]
    flushes = [
        frozenset(Card(rank, suit) for rank in run.ranks)
        for suit in SUITS
        for run in straight_runs(straights)
    ]
    return [bomb for bomb in fours + flushes if bomb <= held]


def _most_disjoint(bombs: list[frozenset[Card]]) -> int:
    """Exact maximum number of pairwise disjoint bombs (branch and bound on card supply)."""
    best = 0

    def search(start: int, used: frozenset[Card], found: int) -> None:
        nonlocal best
        best = max(best, found)
        free = {card for bomb in bombs[start:] if not bomb & used for card in bomb}
        if found + len(free) // 4 <= best:
            return
        for i in range(start, len(bombs)):
            if not bombs[i] & used:
                search(i + 1, used | bombs[i], found + 1)

    search(0, frozenset(), 0)
    return best
