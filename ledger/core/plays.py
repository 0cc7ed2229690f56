"""Which cards make a play and which play beats which, under a table's house options.

Every house option in docs/plays.md is a :class:`PlayRules` field, so a rule set is data and
the judging code has one path.  A :class:`Play` carries a ``key`` tuple: for plays of
the same size, the higher key is the stronger play.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from itertools import combinations, combinations_with_replacement

from ledger.core.cards import (
    JOKER,
    NO_SUIT_ORDER,
    RANK_NAMES,
    RANKS,
    SUIT_SYMBOLS,
    SUITS,
    TWO,
    Card,
    Run,
    card_order,
    ensure_distinct,
    format_card,
    format_cards,
    straight_runs,
    suit_value,
)
from ledger.core.errors import InputError
from ledger.core.i18n import N_, _

# The options are read with the judging: ``from ledger.core.plays import PlayRules`` works.
from ledger.core.play_rules import ACE_LOW as ACE_LOW
from ledger.core.play_rules import CHOICES as CHOICES
from ledger.core.play_rules import DEFAULT_RULES as DEFAULT_RULES
from ledger.core.play_rules import KIND_ORDERS, SUIT_ORDERS
from ledger.core.play_rules import PLAY_PRESETS as PLAY_PRESETS
from ledger.core.play_rules import SWITCHES as SWITCHES
from ledger.core.play_rules import PlayRules as PlayRules

ROYAL = (10, 11, 12, 13, 14)
BOMB_KINDS = ("four-of-a-kind", "straight-flush")

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
    stands_for: tuple[Card, ...] = ()  # with jokers: the cards they were judged as

    def describe(self, local: bool = False) -> str:
        """Short text for messages, e.g. ``straight 3-4-5-6-7 (top 7♠)``; ``local`` in the
        interface's language (JSON keeps the English)."""
        if not local:
            return f"{KIND_NAMES[self.kind]} {self.detail}"
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
    "pairs-run": N_("run of pairs"),
    "triple-plus-two": N_("triple with two odd cards"),
    "dragon": N_("dragon"),
    "straight-flush-plus-two": N_("straight flush plus two"),
}
DRAGON_SIZE = 13
SF_PLUS_TWO_SIZE = 7


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
    if any(card.rank == JOKER for card in hand):
        return _with_jokers(hand, rules, shown)
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
        if len(counts) == 1 and (rules.four_of_a_kind in ("alone", "two-pairs") or rules.smack_down):
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
    longer = _longer(hand, counts, rules, shown)
    if longer is not None:
        return longer
    sizes = _("1, 2, 3 or 5 cards (or a four)") if rules.four_of_a_kind != "with-kicker" else _(
        "1, 2, 3 or 5 cards")
    more = [_(word) for on, word in (
        (rules.smack_down, N_("a run of three or more pairs (smack_down)")),
        (rules.long_straights, N_("a straight of 6 to 12 cards (long_straights)")),
        (rules.dragon_play, N_("the 13-card dragon (dragon_play)")),
        (rules.straight_flush_plus_two, N_("a straight flush plus two cards (straight_flush_plus_two)")),
    ) if on]
    if more:
        sizes = _("{sizes}; also {more}").format(sizes=sizes, more=", ".join(more))
    if not hand:
        raise InputError(_("no cards: a play is {sizes}").format(sizes=sizes))
    raise InputError(_("{cards} is not a play: a play is {sizes}").format(cards=shown, sizes=sizes))


MOST_WILD = 2  # jokers judged in one combination: every card each may stand for is tried


def _with_jokers(hand: tuple[Card, ...], rules: PlayRules, shown: str) -> Play:
    """A joker alone ranks above every card, the black above the red; in a combination each
    joker stands for the card that makes the strongest play (Wikipedia: "played as any
    card with any suit")."""
    if not rules.jokers:
        raise InputError(_("{cards} is not a play: jokers are cards only under the play option "
                           "jokers").format(cards=shown))
    wild = [card for card in hand if card.rank == JOKER]
    if len(hand) == 1:
        return Play("single", hand, (0, JOKER, 1 if hand[0].suit == "B" else 0), hand[0],
                    format_card(hand[0]))
    if len(wild) > MOST_WILD:
        raise InputError(_("{cards}: the ledger judges a combination with at most {most} "
                           "jokers").format(cards=shown, most=MOST_WILD))
    natural = [card for card in hand if card.rank != JOKER]
    deck = [Card(rank, suit) for rank in RANKS for suit in SUITS]
    best: Play | None = None
    for stand_ins in combinations_with_replacement(deck, len(wild)):
        try:
            play = classify((*natural, *stand_ins), rules)
        except InputError:
            continue
        if best is None or play.key > best.key:
            best = play
    if best is None:
        raise InputError(_("{cards} is not a play, whatever the jokers stand for").format(
            cards=shown))
    rest, used = list(natural), []
    for card in best.cards:
        if card in rest:
            rest.remove(card)
        else:
            used.append(card)
    said = ", ".join(f"{format_card(j)} = {format_card(c, True)}" for j, c in zip(wild, used,
                                                                                    strict=True))
    return Play(best.kind, hand, best.key, best.top, f"{best.detail} [{said}]", best.cards)


def _longer(hand: tuple[Card, ...], counts: Counter[int], rules: PlayRules, shown: str) -> Play | None:
    """A play of more than five cards under the options that allow one: a run of pairs
    (smack_down), a longer straight, the dragon, a straight flush plus two; None: none."""
    size = len(hand)
    if rules.smack_down and size >= 6 and set(counts.values()) == {2}:
        ranks = sorted(counts, key=lambda rank: rank_value(rank, rules))
        values = [rank_value(rank, rules) for rank in ranks]
        if values != list(range(values[0], values[0] + len(values))):
            raise InputError(_("{cards} is not a play: a run of pairs needs consecutive ranks "
                               "(smack_down)").format(cards=shown))
        top = max((c for c in hand if c.rank == ranks[-1]), key=hand.index)
        detail = "-".join(_ranks(rank, 2) for rank in ranks)
        return _play("pairs-run", hand, rules, (0, values[-1]), top, detail)
    if size == DRAGON_SIZE and len(counts) == DRAGON_SIZE and rules.dragon_play:
        top = next(card for card in hand if card.rank == TWO)
        detail = f"A-K-Q-J-10-9-8-7-6-5-4-3-2 (top {format_card(top, True)})"
        return _play("dragon", hand, rules, (0,), top, detail)
    if rules.long_straights and 5 < size < DRAGON_SIZE and len(counts) == size:
        found = long_run(hand, rules.straights)
        if found is not None:
            sequence, last = found
            top = next(card for card in hand if card.rank == last.top)
            detail = f"{'-'.join(RANK_NAMES[r] for r in sequence)} (top {format_card(top, True)})"
            return _play("straight", hand, rules, (0, last.level), top, detail)
    if size == SF_PLUS_TWO_SIZE and rules.straight_flush_plus_two:
        return _flush_plus_two(hand, rules, shown)
    return None


def top_run(play: Play, rules: PlayRules = DEFAULT_RULES) -> Run:
    """The five-card straight that ranks a straight, a longer straight (the one at its top
    end) or a straight flush plus two (the highest straight flush in it)."""
    if play.kind == "straight-flush-plus-two":
        return max((run for five in combinations(play.cards, 5)
                    if len({c.suit for c in five}) == 1 and len({c.rank for c in five}) == 5
                    and (run := run_of(five, rules.straights)) is not None),
                   key=lambda run: run.level)
    if len(play.cards) > 5:
        found = long_run(play.cards, rules.straights)
        assert found is not None, play
        return found[1]
    run = run_of(play.cards, rules.straights)
    assert run is not None, play
    return run


def long_run(hand: Iterable[Card], straights: str) -> tuple[tuple[int, ...], Run] | None:
    """The ranks of a straight longer than five, in sequence, and its top five-card run:
    every five in a row must be a straight of the ``straights`` named, and the run at its
    top end ranks it (3-4-5-6-7-8 as 4-5-6-7-8).  None: no such sequence."""
    ranks = {card.rank for card in hand}
    runs = straight_runs(straights)
    for first in runs:
        chain = list(first.ranks)
        last = first
        while set(chain) < ranks:
            step = next((run for run in runs if run.ranks[:4] == tuple(chain[-4:])
                         and run.ranks[4] in ranks and run.ranks[4] not in chain), None)
            if step is None:
                break
            chain.append(step.ranks[4])
            last = step
        if set(chain) == ranks and len(chain) == len(ranks):
            return tuple(chain), last
    return None


def _flush_plus_two(hand: tuple[Card, ...], rules: PlayRules, shown: str) -> Play:
    """Seven cards holding a straight flush: the highest one in them ranks the play."""
    best: tuple[tuple[int, int], tuple[int, ...], Run] | None = None
    picked: tuple[int, ...]
    for picked in combinations(range(len(hand)), 5):
        five = tuple(hand[i] for i in picked)
        run = run_of(five, rules.straights) if len({c.suit for c in five}) == 1 else None
        if run is not None and len({c.rank for c in five}) == 5:
            rank = (run.level, suit_value(five[0].suit, rules.suit_order))
            if best is None or rank > best[0]:
                best = (rank, picked, run)
    if best is None:
        raise InputError(_("{cards} is not a play: seven cards must hold a straight flush "
                           "(straight_flush_plus_two)").format(cards=shown))
    picked, run = best[1], best[2]
    five = tuple(hand[i] for i in picked)
    top = next(card for card in five if card.rank == run.top)
    extra = format_cards((hand[i] for i in range(len(hand)) if i not in picked), symbols=True)
    detail = f"{run} (top {format_card(top, True)}) + {extra}"
    return _play("straight-flush-plus-two", hand, rules, (0, run.level), top, detail)


def compare(a: Play, b: Play, rules: PlayRules = DEFAULT_RULES) -> Verdict:
    """May ``a`` be played on ``b``?  Both are re-judged under ``rules`` first."""
    a, b = classify(a.cards, rules), classify(b.cards, rules)
    this, that = (a.describe(), a.describe(True)), (b.describe(), b.describe(True))
    special = special_verdict(a, b, rules)
    if special is not None:
        return _verdict(special[0], special[1], this=this, that=that)
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


def special_verdict(a: Play, b: Play, rules: PlayRules) -> tuple[bool, str] | None:
    """Whether ``a`` beats ``b`` and the reason's template, where an option that plays by
    its own rule decides (smack_down, straight_flush_plus_two, dragon_play); None: the
    usual order decides."""
    if rules.smack_down:
        smack = _smack(a, b, rules)
        if smack is not None:
            return smack
    if rules.straight_flush_plus_two:
        honours = _honours(a, b)
        if honours is not None:
            return honours
    if a.kind == "dragon" and b.kind != "dragon":
        return False, N_("{this} cannot be played on {that}: a dragon is played when you lead, "
                         "once you have control (dragon_play)")
    return None


def is_smack(play: Play) -> bool:
    """A smack down: a run of pairs, or four of a kind alone."""
    return play.kind == "pairs-run" or (play.kind == "four-of-a-kind" and len(play.cards) == 4)


def is_big_two(play: Play, rules: PlayRules) -> bool:
    """The single highest card: 2♠ under the default orders (the one a smack down beats)."""
    if play.kind != "single":
        return False
    top_rank = 13 if rules.rank_order == ACE_LOW else TWO
    top_suit = SUIT_ORDERS[0][0] if rules.suit_order == NO_SUIT_ORDER else rules.suit_order[0]
    card = play.cards[0]
    return card.rank == top_rank and (rules.suit_order == NO_SUIT_ORDER or card.suit == top_suit)


def _smack(a: Play, b: Play, rules: PlayRules) -> tuple[bool, str] | None:
    """Wikipedia's Smack Down on a single 2♠, and the Smack Back on a Smack Down."""
    four_alone_is_smack_only = rules.four_of_a_kind == "with-kicker"
    if is_smack(a) and is_big_two(b, rules):
        return True, N_("{this} beats {that}: a smack down (four of a kind or a run of pairs) "
                        "beats the single highest card (smack_down)")
    if is_smack(a) and is_smack(b):
        if (a.kind, len(a.cards)) != (b.kind, len(b.cards)):
            return False, N_("{this} cannot be played on {that}: a smack back is a higher four of "
                             "a kind on a four of a kind, or a higher run of pairs as long as the "
                             "smack down (smack_down)")
        if a.key > b.key:
            return True, N_("{this} beats {that}: a smack back, higher and as long (smack_down)")
        return False, N_("{this} does not beat {that}: a smack back must be higher (smack_down)")
    if a.kind == "pairs-run" or (is_smack(a) and four_alone_is_smack_only):
        return False, N_("{this} cannot be played on {that}: a smack down is played only on the "
                         "single highest card, a smack back on a smack down (smack_down)")
    if b.kind == "pairs-run" or (is_smack(b) and four_alone_is_smack_only):
        return False, N_("{this} does not beat {that}: only a smack back (a higher four of a kind "
                         "or run of pairs as long) beats a smack down (smack_down)")
    return None


def _honours(a: Play, b: Play) -> tuple[bool, str] | None:
    """pagat's Todd Latta: four of a kind plus a card, and a straight flush plus two, beat
    any other play; each is beaten only by a higher one of its own, or the first by the
    second."""
    quads_a, quads_b = (p.kind == "four-of-a-kind" and len(p.cards) == 5 for p in (a, b))
    plus_a, plus_b = (p.kind == "straight-flush-plus-two" for p in (a, b))
    if (plus_a and plus_b) or (quads_a and quads_b) or not (quads_a or quads_b or plus_a or plus_b):
        return None  # the usual order: a higher one of the same kind
    if plus_b:
        return False, N_("{this} does not beat {that}: only a higher straight flush plus two beats "
                         "a straight flush plus two (straight_flush_plus_two)")
    if plus_a:
        return True, N_("{this} beats {that}: a straight flush plus two beats any other play "
                        "(straight_flush_plus_two)")
    if quads_b:
        return False, N_("{this} does not beat {that}: only a higher four of a kind plus a card or a "
                         "straight flush plus two beats it (straight_flush_plus_two)")
    return True, N_("{this} beats {that}: four of a kind plus a card beats any play but a straight "
                    "flush plus two (straight_flush_plus_two)")


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
    return KIND_NAMES[play.kind]


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
    if kind in ("single", "pair", "triple", "straight", "straight-flush", "two-pairs", "butterfly",
                "pairs-run", "dragon", "straight-flush-plus-two"):
        key = (*key, suit_value(top.suit, rules.suit_order))
    return Play(kind, hand, key, top, detail)


def copies(rules: PlayRules) -> int:
    """How many times a card may be named: twice when the rules play two decks."""
    return 2 if rules.five_of_a_kind != "off" else 1


def kind_order(rules: PlayRules) -> tuple[str, ...]:
    """The five-card kinds low to high under ``five_card_order``, with five of a kind
    just above four of a kind (below a straight flush) or above every kind."""
    order = KIND_ORDERS[rules.five_card_order]
    if rules.triple_plus_two:
        order = ("triple-plus-two", *order)  # "Эта комбинация рангом ниже стрита"
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
    if shape == [1, 1, 3] and rules.triple_plus_two:
        big = next(rank for rank in counts if counts[rank] == 3)
        junk = format_cards((c for c in hand if c.rank != big), symbols=True)
        top = max((c for c in hand if c.rank == big), key=hand.index)
        key = (_kind_level("triple-plus-two", hand, rules), rank_value(big, rules))
        return _play("triple-plus-two", hand, rules, key, top, f"{_ranks(big, 3)} + {junk}")
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
        if flush and rules.straight_flush_plus_two:
            raise InputError(_("{cards} is not a play: a straight flush is played with two extra "
                               "cards (straight_flush_plus_two)").format(cards=shown))
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
    if kind in ("straight", "straight-flush", "straight-flush-plus-two"):
        return (N_("sequence"), N_("suit of the top card"))
    if kind in ("full-house", "four-of-a-kind", "five-of-a-kind", "triple-plus-two"):
        return (N_("rank"),)
    if kind == "dragon":
        return (N_("suit of its 2"),)
    if kind == "pairs-run":
        return (N_("rank of the highest pair"), N_("suit of its highest card"))
    if kind in ("two-pairs", "butterfly"):
        return (N_("rank of the higher pair"), N_("suit of its highest card"))
    return (N_("rank"), N_("suit") if kind == "single" else N_("suit of its highest card"))
