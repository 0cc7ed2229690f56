"""How many play, with how many packs, and how many cards each holds.

Two to eight players (docs/scoring.md, "More than four players"): one pack of 52 or,
with ``decks = 2``, two (the Russian article: "Игра двумя колодами: это позволяет
участвовать до восьми игроков за игру").  The hand size is the rule set's
``hand_size``, or with ``deal_all`` the cards "dealt out among the players as far as
they can go while retaining an equal number of cards for each player" (Wikipedia),
the leftovers going to the 3♦'s holder.

>>> from ledger.core.rule_set import RuleSet
>>> hands(RuleSet("t", deal_all=True), 5), hands(RuleSet("t", deal_all=True, decks=2), 6)
(Hands(hand=10, leftovers=2), Hands(hand=17, leftovers=2))
"""

from collections.abc import Mapping, Sequence
from typing import NamedTuple

from ledger.core.errors import InputError
from ledger.core.i18n import _
from ledger.core.rule_set import RuleSet

PACK = 52
MIN_SEATS, MAX_SEATS = 2, 8
TWOS_IN_PACK = 4


class Hands(NamedTuple):
    """The cards dealt to each player, and the leftovers one player (the 3♦'s) also takes."""

    hand: int
    leftovers: int


def cards_in_play(rules: RuleSet) -> int:
    return PACK * rules.decks


def hands(rules: RuleSet, players: int) -> Hands:
    """``hand_size`` each (one more for one of three under ``odd_card``), or under
    ``deal_all`` the packs shared out evenly with the rest to one player."""
    if rules.deal_all:
        return Hands(*divmod(cards_in_play(rules), players))
    return Hands(rules.hand_size, 1 if rules.odd_card and players == 3 else 0)


def leaves_over(rules: RuleSet, players: int) -> bool:
    """Whether dealing ``players`` leaves cards over for one of them to take."""
    return MIN_SEATS <= players <= MAX_SEATS and hands(rules, players).leftovers > 0


def largest_hand(rules: RuleSet, players: int) -> int:
    """The most cards one player can hold at the end of a deal: with two players
    drawing from the stock, every card but the winner's hand (39 of one pack)."""
    if rules.draw_from_stock and players == 2:
        return cards_in_play(rules) - rules.hand_size
    dealt = hands(rules, players)
    return dealt.hand + dealt.leftovers


def own_hands(rules: RuleSet, cards: Mapping[str, int], taker: str | None = None) -> dict[str, int]:
    """Each player's own hand size: the hand, plus the leftovers for the one who took
    them: ``taker`` when the deal says who (``--leftovers``), else the one holding more
    than a hand (otherwise every player reads as dealt a plain hand: a taker who played
    exactly the leftovers is not told apart)."""
    dealt = hands(rules, len(cards))
    if rules.draw_from_stock:
        return {n: max(c, dealt.hand) for n, c in cards.items()}  # what was drawn is theirs
    if taker is not None:
        return {n: dealt.hand + (dealt.leftovers if n == taker else 0) for n in cards}
    return {n: dealt.hand + (dealt.leftovers if c > dealt.hand else 0) for n, c in cards.items()}


def check_taker(rules: RuleSet, seats: Sequence[str], cards: Mapping[str, int], taker: str) -> None:
    """``--leftovers NAME``, who took the leftover cards (Wikipedia: "given to the player
    holding the 3♦"), said where the counts cannot tell (two decks hold two 3♦; a taker
    may have played exactly the leftovers): only where some are left over, and nobody
    else may hold more than a hand."""
    if taker not in seats:
        raise InputError(_("{what}: {name!r} is not seated; players: {players}").format(
            what="--leftovers", name=taker, players=", ".join(seats)))
    players = len(seats)
    dealt = hands(rules, players)
    if not dealt.leftovers or rules.draw_from_stock:
        raise InputError(_(
            "--leftovers: rules {name!r} deal {hand} cards to each of {count} players and "
            "leave none over"
        ).format(name=rules.name, hand=dealt.hand, count=players))
    over = [n for n, c in cards.items() if c > dealt.hand and n != taker]
    if over:
        raise InputError(_(
            "--leftovers {taker}: {names} hold(s) more than {hand} cards, so took the leftovers"
        ).format(taker=taker, names=", ".join(over), hand=dealt.hand))


def teams_of(seats: Sequence[str]) -> tuple[tuple[str, str], tuple[str, str]]:
    """Partners sit opposite: seats 1+3 and 2+4 (the texts' only teams: two of two, four
    players; no text forms teams of six or eight)."""
    return (seats[0], seats[2]), (seats[1], seats[3])


def twos_in_play(rules: RuleSet) -> int:
    """Four twos a pack: with two decks eight, and one player may hold all four of a suit pair."""
    return TWOS_IN_PACK * rules.decks


def check_table(rules: RuleSet, players: int) -> None:
    """:class:`InputError` unless ``players`` can be dealt under ``rules``."""
    if not MIN_SEATS <= players <= MAX_SEATS:
        raise InputError(_("a session seats {least} to {most} players, not {count}").format(
            least=MIN_SEATS, most=MAX_SEATS, count=players))
    if rules.draw_from_stock and players != 2:
        raise InputError(_(
            "rules {rules!r} draw from the stock, a game for two players (Wikipedia), not "
            "{count}").format(rules=rules.name, count=players))
    dealt = hands(rules, players)
    needed = players * dealt.hand + dealt.leftovers
    if needed > cards_in_play(rules):
        raise InputError(_(
            "rules {rules!r} deal {hand} cards each: {count} players would need {needed} cards, "
            "more than the {pack} in {decks} pack(s); set decks = 2 or deal_all = true"
        ).format(rules=rules.name, hand=dealt.hand, count=players, needed=needed,
                 pack=cards_in_play(rules), decks=rules.decks))
