"""Which cards make a play and which play beats which, under a table's house options.

Every house option in docs/plays.md is a :class:`PlayRules` field, so a rule set is data and
the judging code has one path.  A :class:`Play` carries a ``key`` tuple: for plays of
the same size, the higher key is the stronger play.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass, field, fields

from ledger.core.cards import (
    NO_SUIT_ORDER,
    RANK_NAMES,
    STRAIGHT_STYLES,
    SUIT_SYMBOLS,
    Card,
    Run,
    card_order,
    ensure_distinct,
    format_card,
    format_cards,
    straight_runs,
    suit_value,
)
from ledger.core.errors import InputError, RuleError
from ledger.core.i18n import N_, _

# Suit orders are written high to low.  SHCD: pagat's default; DHSC: Pusoy Dos (pagat;
# also the Russian article's clubs < spades < hearts < diamonds); SHDC: bridge order,
# Taiwan (pagat; the Russian article's Taiwanese rule); CSHD: the French text's Pusoy Dos
# order (diamonds lowest ... clubs highest, pagat's order read the other way); HSDC: the
# Russian article's clubs < diamonds < spades < hearts; none: suits never break a tie.
SUIT_ORDERS = ("SHCD", "DHSC", "SHDC", "CSHD", "HSDC", NO_SUIT_ORDER)
# straight-over-flush: Wikipedia, the Russian article ("a straight is considered higher than a
# flush"); no-poker-rules: a five-card play is beaten only by one of its own kind (Wikipedia,
# the Russian article); gamesky: pagat's GameSky Da Lao Er, "a full house cannot be used to
# beat a straight"; by-value: Wikipedia, the Russian article, "any five-card combination can be
# played on top of any other five-card combination with a lower card value".
FIVE_CARD_ORDERS = ("standard", "royal-over-quads", "straight-over-flush", "no-poker-rules",
                    "gamesky", "by-value")
# ace-low-king-high: the French text, "la carte d'as plus jeune, puis aller à 2, 3, etc., et le
# plus ancien est roi" (A < 2 < 3 < ... < K; its straights are plays.straights of that name).
RANK_ORDERS = ("two-high", "ace-low-king-high")
CHOICES: dict[str, tuple[str, ...]] = {
    "suit_order": SUIT_ORDERS,
    "straights": STRAIGHT_STYLES,
    "flushes": ("suit-first", "top-card-first", "poker"),
    # two-pairs: Wikipedia, "four-card combinations (two pairs or four cards alone ...).
    # Four of a kind beats two pairs"
    "four_of_a_kind": ("with-kicker", "alone", "two-pairs"),
    # beat-all: pagat's GameSky and the French text's Choi Dai Di, quads or a straight flush
    # "can be played out of turn to beat any combination"; quads-beat-all: Wikipedia, "A four
    # of a kind can be used to beat all card combinations without a four of a kind".
    "bombs": ("off", "beat-anything", "beat-all", "quads-beat-all"),
    "five_card_order": FIVE_CARD_ORDERS,
    "rank_order": RANK_ORDERS,
    # the Russian article's two decks: "пятерка побеждает каре, но может победить или не
    # победить стрит-флеш" (five of a kind beats quads, and may or may not beat a straight
    # flush); any value but off plays with two decks (a card may be named twice)
    "five_of_a_kind": ("off", "below-straight-flush", "above-straight-flush"),
}
# identical_beats: the Russian article, "Игрокам может быть разрешено или не разрешено
# сыграть руку, эквивалентную предыдущей руке" (3♦ on 3♦ may or may not be allowed)
# butterfly: Wikipedia and the Russian article, "two pair-junk" or "Butterfly", "two pairs
# (of different ranks) and one odd card ... Rank is determined by the highest pair. This
# combination ranks below the straight."
SWITCHES = ("no_flushes", "no_triples", "identical_beats", "butterfly")
FIVE_CARD_KINDS = ("straight", "flush", "full-house", "four-of-a-kind", "straight-flush")
# pagat: "only a Royal Flush (A-K-Q-J-10) can beat a four of a kind. Any four of a kind
# beats any other straight flush."  Low to high; "royal-flush" is A-K-Q-J-10 suited.
KIND_ORDERS: dict[str, tuple[str, ...]] = {
    "standard": FIVE_CARD_KINDS,
    "royal-over-quads": (
        "straight", "flush", "full-house", "straight-flush", "four-of-a-kind", "royal-flush",
    ),
    "straight-over-flush": ("flush", "straight", "full-house", "four-of-a-kind", "straight-flush"),
    "no-poker-rules": FIVE_CARD_KINDS,
    "gamesky": FIVE_CARD_KINDS,
    "by-value": FIVE_CARD_KINDS,  # equal card values: the kinds' usual order decides
}
ROYAL = (10, 11, 12, 13, 14)
BOMB_KINDS = ("four-of-a-kind", "straight-flush")
# What each play option decides, and its sources: ledger.core.registry.


@dataclass(frozen=True)
class PlayRules:
    """The house options that change what is a play and what beats what."""

    suit_order: str = "SHCD"
    straights: str = "pagat"
    flushes: str = "suit-first"
    four_of_a_kind: str = "with-kicker"
    bombs: str = "off"
    no_flushes: bool = False
    no_triples: bool = False
    five_card_order: str = "standard"
    rank_order: str = "two-high"
    five_of_a_kind: str = "off"
    identical_beats: bool = False
    butterfly: bool = False

    def __post_init__(self) -> None:
        for name, allowed in CHOICES.items():
            value = getattr(self, name)
            if value not in allowed:
                raise RuleError(_("play option {name} cannot be {value!r}: use one of {allowed}").format(
                    name=name, value=value, allowed=", ".join(allowed)))
        for name in SWITCHES:
            value = getattr(self, name)
            if not isinstance(value, bool):
                raise RuleError(_("play option {name} must be true or false, not {value!r}").format(
                    name=name, value=value))
        if (self.rank_order == ACE_LOW) != (self.straights == ACE_LOW):
            raise RuleError(_(
                "play options rank_order and straights go together: set both to "
                "\"ace-low-king-high\" (its straights run from A-2-3-4-5 to 9-10-J-Q-K) or neither"))

    @classmethod
    def from_mapping(cls, options: Mapping[str, object]) -> PlayRules:
        """Build from a rule file's table; ``-`` in keys reads as ``_``, suit order any case."""
        allowed = [f.name for f in fields(cls)]
        values: dict[str, object] = {}
        for raw_key, value in options.items():
            key = str(raw_key).replace("-", "_")
            if key not in allowed:
                raise RuleError(_("unknown play option {key!r}: the options are {allowed}").format(
                    key=raw_key, allowed=", ".join(allowed)))
            if key in values:
                raise RuleError(_("play option {key} is given twice: give each option once").format(key=key))
            if key == "suit_order" and isinstance(value, str):
                value = value.lower() if value.lower() == NO_SUIT_ORDER else value.upper()
            values[key] = value
        return cls(**values)  # type: ignore[arg-type]  # __post_init__ checks the values

    def to_dict(self) -> dict[str, object]:
        """Plain mapping that :meth:`from_mapping` reads back to an equal rule set."""
        return asdict(self)


ACE_LOW = "ace-low-king-high"
DEFAULT_RULES = PlayRules()
PLAY_PRESETS: dict[str, PlayRules] = {
    "classic": DEFAULT_RULES,
    "hong-kong": PlayRules(straights="hong-kong", flushes="top-card-first"),
}


@dataclass(frozen=True)
class Play:
    """A legal play: its kind, its cards (low to high) and its strength ``key``.

    ``key`` starts with the kind's place among five-card kinds (0 for other sizes), so
    keys of plays with the same number of cards compare directly.  ``top`` is the card
    whose suit breaks ties; ``detail`` is the kind-specific part of :meth:`describe`.
    """

    kind: str
    cards: tuple[Card, ...]
    key: tuple[object, ...]
    top: Card
    detail: str

    def describe(self, local: bool = False) -> str:
        """Short text for messages, e.g. ``straight 3-4-5-6-7 (top 7♠)``; ``local`` in the
        interface's language (JSON keeps the English)."""
        if not local:
            return f"{self.kind.replace('-', ' ')} {self.detail}"
        detail = self.detail.replace("(top ", "(" + _("top") + " ")
        return f"{_(KIND_NAMES[self.kind])} {detail}"


KIND_NAMES = {
    "single": N_("single"), "pair": N_("pair"), "triple": N_("triple"),
    "four-of-a-kind": N_("four of a kind"), "straight": N_("straight"), "flush": N_("flush"),
    "full-house": N_("full house"), "straight-flush": N_("straight flush"),
    "royal-flush": N_("royal flush"),  # kind_name's, where five_card_order sets it apart
    "two-pairs": N_("two pairs"),
    "five-of-a-kind": N_("five of a kind"),
    "butterfly": N_("butterfly"),
}


@dataclass(frozen=True)
class Verdict:
    """Whether a play may be played on another, and a one-sentence reason: ``reason`` in
    English (for JSON), ``said`` in the interface's language."""

    beats: bool
    reason: str
    said: str = field(default="", compare=False)


def _verdict(beats: bool, template: str, **words: tuple[str, str]) -> Verdict:
    """A Verdict whose reason is ``template`` filled with each word's (English, local) form."""
    english = template.format(**{k: v[0] for k, v in words.items()})
    return Verdict(beats, english, _(template).format(**{k: v[1] for k, v in words.items()}))


def classify(cards: Iterable[Card], rules: PlayRules = DEFAULT_RULES) -> Play:
    """Name the play ``cards`` make under ``rules``; InputError says why if none."""
    hand = tuple(sorted(cards, key=lambda card: (rank_value(card.rank, rules),
                                                 card_order(card, rules.suit_order))))
    ensure_distinct(hand, copies(rules))
    shown = format_cards(hand, symbols=True)
    counts = Counter(card.rank for card in hand)
    value = {rank: rank_value(rank, rules) for rank in counts}
    size = len(hand)
    if size in (1, 2, 3):
        if len(counts) != 1:
            what = _("{cards} is not a play: two cards must be a pair") if size == 2 else _(
                "{cards} is not a play: three cards must be a triple")
            raise InputError(what.format(cards=shown))
        if size == 3 and rules.no_triples:
            raise InputError(_("{cards} is not a play: triples are not allowed (no_triples)").format(
                cards=shown))
        kind = ("single", "pair", "triple")[size - 1]
        return _play(kind, hand, rules, (0, value[hand[-1].rank]), hand[-1], shown)
    if size == 4:
        if len(counts) == 1 and rules.four_of_a_kind in ("alone", "two-pairs"):
            detail = _ranks(hand[0].rank, 4)
            return _play("four-of-a-kind", hand, rules, (3, value[hand[0].rank]), hand[-1], detail)
        if sorted(counts.values()) == [2, 2] and rules.four_of_a_kind == "two-pairs":
            low, high = hand[0].rank, hand[-1].rank  # the hand is sorted low to high
            top = hand[-1]  # the higher pair's higher suit
            detail = f"{_ranks(high, 2)} + {_ranks(low, 2)}"
            return _play("two-pairs", hand, rules, (2, value[high]), top, detail)
        raise InputError(_("{cards} is not a play: {why}").format(
            cards=shown, why=_(_FOUR_CARDS[rules.four_of_a_kind])))
    if size == 5:
        return _five(hand, counts, rules, shown)
    sizes = _("1, 2, 3 or 5 cards (or a four)") if rules.four_of_a_kind != "with-kicker" else _(
        "1, 2, 3 or 5 cards")
    if not hand:
        raise InputError(_("no cards: a play is {sizes}").format(sizes=sizes))
    raise InputError(_("{cards} is not a play: a play is {sizes}").format(cards=shown, sizes=sizes))


def compare(a: Play, b: Play, rules: PlayRules = DEFAULT_RULES) -> Verdict:
    """May ``a`` be played on ``b``?  Both are re-judged under ``rules`` first."""
    a, b = classify(a.cards, rules), classify(b.cards, rules)
    this, that = (a.describe(), a.describe(True)), (b.describe(), b.describe(True))
    if rules.bombs == "quads-beat-all" and has_quads(a) != has_quads(b):
        if has_quads(a):
            return _verdict(True, N_("{this} beats {that}: four of a kind beats any play "
                                     "without a four of a kind"), this=this, that=that)
        return _verdict(False, N_("{this} does not beat {that}: only a higher four of a kind "
                                  "beats a four of a kind"), this=this, that=that)
    if rules.bombs == "beat-all" and is_bomb(a) and not is_bomb(b):
        return _verdict(True, N_("{this} beats {that}: a bomb beats any combination"),
                        this=this, that=that)
    if len(a.cards) != len(b.cards):
        if rules.bombs == "beat-anything" and is_bomb(a) and len(b.cards) <= 3:
            return _verdict(True, N_("{this} beats {that}: a bomb beats any single, pair or triple"),
                            this=this, that=that)
        return _verdict(False, N_("{this} cannot be played on {that}: a play is beaten only by "
                                  "one with as many cards"), this=this, that=that)
    if a.key == b.key and rules.identical_beats and a.cards == b.cards:
        return _verdict(True, N_("{this} beats {that}: an identical play beats (identical_beats)"),
                        this=this, that=that)
    if a.key == b.key:
        return _verdict(False, N_("{this} does not beat {that}: equal plays do not beat each other"),
                        this=this, that=that)
    if rules.five_card_order == "by-value" and len(a.cards) == 5 and (
            card_value(a, rules) != card_value(b, rules)) and not (
            rules.bombs == "beat-all" and is_bomb(a) != is_bomb(b)):  # bombs: above every value
        higher = card_value(a, rules) > card_value(b, rules)
        template = (N_("{this} beats {that}: a higher card value, whatever the kind (by-value)")
                    if higher else
                    N_("{this} does not beat {that}: a lower card value, whatever the kind "
                       "(by-value)"))
        return _verdict(higher, template, this=this, that=that)
    beats = a.key > b.key
    if a.key[0] != b.key[0] and len(a.cards) == 5 and _other_kind_refused(a, b, rules):
        template = (N_("{this} cannot be played on {that}: no-poker-rules, a five-card play "
                       "is beaten only by one of its kind")
                    if rules.five_card_order == "no-poker-rules" else
                    N_("{this} cannot be played on {that}: a full house cannot be used to beat "
                       "a straight (gamesky)"))
        return _verdict(False, template, this=this, that=that)
    if a.key[0] != b.key[0]:
        kind, other = kind_name(a, rules), kind_name(b, rules)
        template = (N_("{this} beats {that}: a {kind} ranks above a {other}") if beats
                    else N_("{this} does not beat {that}: a {kind} ranks below a {other}"))
        return _verdict(beats, template, this=this, that=that, kind=(kind, _(kind)),
                        other=(other, _(other)))
    index = next(i for i, (x, y) in enumerate(zip(a.key, b.key, strict=True)) if x != y)
    label = _tie_labels(a.kind, rules)[index - 1]
    template = (N_("{this} beats {that}: higher {label}") if beats
                else N_("{this} does not beat {that}: lower {label}"))
    return _verdict(beats, template, this=this, that=that, label=(label, _(label)))


def _other_kind_refused(a: Play, b: Play, rules: PlayRules) -> bool:
    """no-poker-rules: no five-card play on one of another kind; gamesky: no full house on
    a straight."""
    if rules.five_card_order == "no-poker-rules":
        return True
    return rules.five_card_order == "gamesky" and (a.kind, b.kind) == ("full-house", "straight")


def has_quads(play: Play) -> bool:
    """A four of a kind (with its fifth card or alone): what quads-beat-all lets loose."""
    return play.kind == "four-of-a-kind"


def kind_name(play: Play, rules: PlayRules = DEFAULT_RULES) -> str:
    """``straight flush``, or ``royal flush`` where five_card_order sets it apart."""
    if play.kind == "straight-flush" and rules.five_card_order == "royal-over-quads" and is_royal(
        play.cards
    ):
        return "royal flush"
    return play.kind.replace("-", " ")


def is_bomb(play: Play) -> bool:
    """Four of a kind with a kicker or a straight flush: what bombs=beat-anything lets loose."""
    return play.kind in BOMB_KINDS and len(play.cards) == 5


_FOUR_CARDS = {
    "with-kicker": N_("four of a kind needs a fifth card (four_of_a_kind is with-kicker)"),
    "alone": N_("four cards must be four of a kind"),
    "two-pairs": N_("four cards must be four of a kind or two pairs"),
}


def _play(
    kind: str,
    hand: tuple[Card, ...],
    rules: PlayRules,
    key: tuple[object, ...],
    top: Card,
    detail: str,
) -> Play:
    """Append the top card's suit to ``key`` for kinds where suits break ties."""
    if kind in ("single", "pair", "triple", "straight", "straight-flush", "two-pairs", "butterfly"):
        key = (*key, suit_value(top.suit, rules.suit_order))
    return Play(kind, hand, key, top, detail)


def copies(rules: PlayRules) -> int:
    """How many times a card may be named: twice when the rules play two decks."""
    return 2 if rules.five_of_a_kind != "off" else 1


def kind_order(rules: PlayRules) -> tuple[str, ...]:
    """The five-card kinds low to high under ``five_card_order``, with five of a kind
    just above four of a kind (below a straight flush) or above every kind."""
    order = KIND_ORDERS[rules.five_card_order]
    if rules.butterfly:
        order = ("butterfly", *order)  # "This combination ranks below the straight"
    if rules.five_of_a_kind == "off":
        return order
    if rules.five_of_a_kind == "above-straight-flush":
        return (*order, "five-of-a-kind")
    at = order.index("four-of-a-kind") + 1
    if order.index("straight-flush") < order.index("four-of-a-kind"):
        at = order.index("straight-flush")  # royal-over-quads: keep it below straight flushes
    return (*order[:at], "five-of-a-kind", *order[at:])


def _five(hand: tuple[Card, ...], counts: Counter[int], rules: PlayRules, shown: str) -> Play:
    shape = sorted(counts.values())
    if shape == [5] and rules.five_of_a_kind != "off":
        rank = hand[0].rank
        key = (_kind_level("five-of-a-kind", hand, rules), rank_value(rank, rules))
        return Play("five-of-a-kind", hand, key, hand[-1], _ranks(rank, 5))
    if shape == [1, 2, 2] and rules.butterfly:
        pairs = sorted((r for r in counts if counts[r] == 2), key=lambda r: rank_value(r, rules))
        odd = next(c for c in hand if counts[c.rank] == 1)
        top = max((c for c in hand if c.rank == pairs[1]), key=hand.index)
        detail = f"{_ranks(pairs[1], 2)} + {_ranks(pairs[0], 2)} + {format_card(odd, True)}"
        key = (_kind_level("butterfly", hand, rules), rank_value(pairs[1], rules))
        return _play("butterfly", hand, rules, key, top, detail)
    if shape in ([1, 4], [2, 3]):
        big = max(counts, key=lambda rank: counts[rank])
        small = min(counts, key=lambda rank: counts[rank])
        kind = "four-of-a-kind" if shape == [1, 4] else "full-house"
        kicker = next(c for c in hand if c.rank == small)
        rest = format_card(kicker, True) if kind == "four-of-a-kind" else _ranks(small, 2)
        detail = f"{_ranks(big, counts[big])} + {rest}"
        top = max((c for c in hand if c.rank == big), key=hand.index)
        key = (_kind_level(kind, hand, rules), rank_value(big, rules))
        return _play(kind, hand, rules, key, top, detail)
    flush = len({card.suit for card in hand}) == 1
    run = run_of(hand, rules.straights)
    if run is not None:
        top = next(card for card in hand if card.rank == run.top)
        kind = "straight-flush" if flush else "straight"
        detail = f"{run} (top {format_card(top, True)})"
        return _play(kind, hand, rules, (_kind_level(kind, hand, rules), run.level), top, detail)
    if flush and not rules.no_flushes:
        return _flush(hand, rules)
    if rules.no_flushes:
        allowed = _("a straight, full house, four of a kind plus one card or straight flush "
                    "(no_flushes)")
    else:
        allowed = _("a straight, flush, full house, four of a kind plus one card or straight flush")
    raise InputError(_("{cards} is not a play: five cards must be {allowed}").format(
        cards=shown, allowed=allowed))


def _kind_level(kind: str, hand: tuple[Card, ...], rules: PlayRules) -> int:
    """The five-card kind's place under ``five_card_order`` (a royal flush may stand apart)."""
    order = kind_order(rules)
    if kind == "straight-flush" and "royal-flush" in order and is_royal(hand):
        return order.index("royal-flush")
    return order.index(kind)


def is_royal(cards: Iterable[Card]) -> bool:
    """A-K-Q-J-10 (of one suit, when it is a straight flush)."""
    return tuple(sorted(card.rank for card in cards)) == ROYAL


def _flush(hand: tuple[Card, ...], rules: PlayRules) -> Play:
    """suit-first: suit, then ranks top-down; top-card-first: top rank, then suit;
    poker: all ranks top-down, then suit."""
    ranks = tuple(reversed([card.rank for card in hand]))  # the hand is sorted low to high
    values = tuple(rank_value(r, rules) for r in ranks)
    suit = suit_value(hand[0].suit, rules.suit_order)
    order = {
        "suit-first": (suit, values),
        "top-card-first": (values[0], suit),
        "poker": (values, suit),
    }[rules.flushes]
    top = hand[-1]
    detail = f"{SUIT_SYMBOLS[top.suit]} {'-'.join(RANK_NAMES[r] for r in ranks)}"
    return Play("flush", hand, (_kind_level("flush", hand, rules), *order), top, detail)


def rank_value(rank: int, rules: PlayRules = DEFAULT_RULES) -> int:
    """A rank's strength under ``rank_order``: the rank itself (3 … K, A = 14, 2 = 15), or
    under ace-low-king-high A = 1 and 2 = 2, below the 3."""
    return {14: 1, 15: 2}.get(rank, rank) if rules.rank_order == ACE_LOW else rank


def card_value(play: Play, rules: PlayRules = DEFAULT_RULES) -> int:
    """A five-card play's card value (five_card_order = by-value): the top card of a
    straight or a flush, the triple of a full house, the four of a four of a kind."""
    return rank_value(play.top.rank, rules)


def run_of(hand: tuple[Card, ...], straights: str) -> Run | None:
    """The run of the ``straights`` named whose ranks are ``hand``'s (None: no straight)."""
    ranks = {card.rank for card in hand}
    return next((run for run in straight_runs(straights) if set(run.ranks) == ranks), None)


def _ranks(rank: int, times: int) -> str:
    return "-".join([RANK_NAMES[rank]] * times)


def _tie_labels(kind: str, rules: PlayRules) -> tuple[str, ...]:
    """What each key part after the kind means, for the reason sentence."""
    if kind == "flush":
        return {
            "suit-first": (N_("suit"), N_("top card")),
            "top-card-first": (N_("top card"), N_("suit")),
            "poker": (N_("cards, compared top-down"), N_("suit")),
        }[rules.flushes]
    if kind in ("straight", "straight-flush"):
        return (N_("sequence"), N_("suit of the top card"))
    if kind in ("full-house", "four-of-a-kind", "five-of-a-kind"):
        return (N_("rank"),)
    if kind in ("two-pairs", "butterfly"):
        return (N_("rank of the higher pair"), N_("suit of its highest card"))
    return (N_("rank"), N_("suit") if kind == "single" else N_("suit of its highest card"))
