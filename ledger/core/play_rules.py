"""The house options of plays: :class:`PlayRules`, every option a field, and the fixed
choices they take (docs/plays.md, "House options").  What each option decides and its
source is in the registry (:mod:`ledger.core.registry`); judging plays under them is
:mod:`ledger.core.plays`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, fields

from ledger.core.cards import NO_SUIT_ORDER, STRAIGHT_STYLES
from ledger.core.errors import RuleError
from ledger.core.i18n import _

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
# smack_down: Wikipedia and the Russian article, "The Smack Down can be played to defeat the
# "Big Two" only when the Two of Spades is played as a single. A Smack Down is either 4 of a
# kind or a run of pairs (Example: 4-4-5-5-6-6). The run of pairs may be any length of at
# least 3. After a Smack Down has been played, any player is allowed to "Smack Back" with a
# higher 4 of a kind or run of pairs of equal length as the Smack Down."
# triple_plus_two: the Russian article, "покерную комбинацию «тройка», состоящую из тройной
# и двух мусорных карт. Эта комбинация рангом ниже стрита" (a triple and two junk cards,
# below the straight).
# long_straights: Wikipedia, "Some variations allow for straights longer than five cards";
# the Russian article, "стритов длиной более пяти карт".
# dragon_play: Wikipedia and the Russian article, "A "Dragon" consists of 13 cards in
# straight (A-K-Q-J-10-9-8-7-6-5-4-3-2), is considered a valid combination and may be played
# once the player has gained control of the game. Suit of 2 is tie-breaker."
# straight_flush_plus_two: pagat, Todd Latta's version, "a straight flush is played with
# any two extra cards, making a seven card combination".
# jokers: Wikipedia and the Russian article, "Jokers are added to the deck, and they can be
# played as any card with any suit. Also, the jokers are deemed higher than the Two of
# Spades, but the black joker is considered higher than the red joker."
SWITCHES = ("no_flushes", "no_triples", "identical_beats", "butterfly", "smack_down",
            "triple_plus_two", "long_straights", "dragon_play", "straight_flush_plus_two", "jokers")
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
    smack_down: bool = False
    triple_plus_two: bool = False
    long_straights: bool = False
    dragon_play: bool = False
    straight_flush_plus_two: bool = False
    jokers: bool = False

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
