"""The registry: every rule option and every deal fact, declared once.

A rule option is a field of :class:`ledger.core.rule_set.RuleSet` (typed fields stay
typed: an :class:`Option` describes one, it does not replace it); a play option is a
field of :class:`ledger.core.play_rules.PlayRules`, named ``plays.KEY``; a deal fact is
what the scorekeeper types with a deal (``--twos Ben=1``).  Checking a rule file
(``rules_from_mapping``), ``bigtwo rules list`` / ``show``, the ``deal``/``amend``
and ``table`` help, the deal grammar's option words, the phone's entry screen
(:func:`offered_facts`) and the generated reference table in docs/options.md all
read these tables.

>>> OPTIONS["twos"].allowed
('off', 'each', 'once')
>>> [f.name for f in offered_facts(RuleSet("t", assist=True))]
['assist', 'dragon', 'four_twos']
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, NamedTuple

from ledger.core.errors import RuleError
from ledger.core.i18n import N_, _
from ledger.core.rule_set import (
    FACTOR_CHOICES,
    FINISH_SIDES,
    FINISH_TWO,
    FOUR_TWOS,
    IMMEDIATE_WINS,
    MAX_HAND,
    MAX_LOSERS,
    MAX_SEATS,
    MODES,
    NEXT_DEALS,
    NEXT_LEADS,
    OPENERS,
    SETTLEMENTS,
    SIT_OUTS,
    STOCK_SCORINGS,
    TIERS_BY_HAND,
    RuleSet,
)
from ledger.core.rule_values import tiers_value, want_bool, want_choice, want_int
from ledger.core.seating import leaves_over


class Checking(NamedTuple):
    """What a converter may need beyond the value: the hand size being set, the base's
    play options (a ``[plays]`` table is laid over them) and where the value is from."""

    hand_size: int
    base: RuleSet
    origin: str


Converter = Callable[[object, Checking], Any]


class Option(NamedTuple):
    """One rule option (a :class:`RuleSet` field) or play option (``plays.KEY``).

    ``kind`` is how the value is written (``int``, ``bool``, ``choice``, ``choices``: a
    list of choices, ``ints``: a list of whole numbers, ``tiers``, ``table``);
    ``allowed`` the choices, or ``(low, high)`` for whole numbers; ``form`` how an
    entry form shows it (``number``, ``switch``, ``select``, ``checkboxes``,
    ``numbers``, ``tiers``, ``group``); ``matters`` the rule that makes it count;
    ``column`` where ``rules list`` shows it (``scoring``, ``extras``,
    ``settlement``, or ``also`` for the "also sets" column).  ``help``, ``matters``
    and ``source`` are English, translated where shown.
    """

    name: str
    kind: str
    help: str
    source: str
    matters: str
    form: str
    allowed: tuple[Any, ...] = ()
    column: str = "also"
    convert: Converter | None = None

    @property
    def default(self) -> Any:
        """The value a rule set has when nothing sets it (a frozen set missing the field
        reads it: a new option's default keeps the old behaviour)."""
        if self.name.startswith("plays."):
            from ledger.core.play_rules import PlayRules

            return PlayRules.__dataclass_fields__[self.name[6:]].default
        return RuleSet._field_defaults[self.name]

    def check(self, value: object, checking: Checking) -> Any:
        """The validated value, or a RuleError naming the key and what is allowed."""
        if self.convert is not None:
            return self.convert(value, checking)
        if self.kind == "bool":
            return want_bool(self.name, value)
        if self.kind == "choice":
            return want_choice(self.name, value, self.allowed)
        if self.kind == "int":
            low, high = self.allowed
            return want_int(self.name, value, low, high)
        raise AssertionError(f"option {self.name} of kind {self.kind} needs a converter")

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON: the option's description in the interface's language."""
        default = self.default
        if isinstance(default, tuple):
            default = [list(d) if isinstance(d, tuple) else d for d in default]
        return {"name": self.name, "kind": self.kind, "form": self.form,
                "allowed": list(self.allowed), "default": default, "help": _(self.help),
                "matters": _(self.matters), "source": _(self.source)}


# --- converters of the options that are not a plain int, bool or choice -------------

def _tiers(value: object, c: Checking) -> tuple[tuple[int, int], ...]:
    return tiers_value(value, c.hand_size, c.origin)


def _immediate_wins(value: object, c: Checking) -> tuple[str, ...]:
    if not isinstance(value, (list, tuple)):
        raise RuleError(_("rule 'immediate_wins' must be a list of {choices}").format(
            choices=", ".join(IMMEDIATE_WINS)))
    return tuple(sorted({want_choice("immediate_wins", w, IMMEDIATE_WINS) for w in value}))


def _place_points(value: object, c: Checking) -> tuple[int, ...]:
    if not isinstance(value, (list, tuple)) or not 2 <= len(value) <= MAX_SEATS:
        raise RuleError(_(
            "rule 'place_points' must be a list of 2 to 8 whole numbers, first place first, "
            "e.g. [0, 1, 2, 3]; got {value!r}"
        ).format(value=value))
    return tuple(want_int("place_points", p, 0, 10_000) for p in value)


def _rank_payments(value: object, c: Checking) -> tuple[int, ...]:
    if not isinstance(value, (list, tuple)) or not 1 <= len(value) <= MAX_LOSERS:
        raise RuleError(_(
            "rule 'rank_payments' must be a list of 1 to {most} whole numbers, "
            "fewest cards first, e.g. [1, 2, 3]; got {pays!r}"
        ).format(most=MAX_LOSERS, pays=value))
    return tuple(want_int("rank_payments", p, 0, 10_000) for p in value)


def _plays(value: object, c: Checking) -> tuple[tuple[str, Any], ...]:
    """The options a [plays] table names, laid over the base's (a file on ``hong-kong``
    that sets only ``suit_order`` keeps the Hong Kong straights and flushes)."""
    if not isinstance(value, Mapping):
        raise RuleError(_(
            "rule 'plays' must be a table of play options, such as [plays] suit_order = \"DHSC\""))
    if not value:
        return c.base.plays  # nothing named: no need to load the play rules
    from ledger.core.play_rules import PlayRules  # the play options validate themselves

    checked = PlayRules.from_mapping(value).to_dict()
    named = {str(k).replace("-", "_") for k in value}
    merged = dict(c.base.plays) | {k: v for k, v in checked.items() if k in named}
    return tuple(sorted(merged.items()))


# --- the rule options, in RuleSet's order -------------------------------------------

_OPTIONS = (
    Option("hand_size", "int", N_("cards dealt to each player; a full hand after an immediate win"),
           N_("pagat; Wikipedia, 17 for three players"), N_("immediate wins and the tiers' top"),
           "number", (1, MAX_HAND)),
    Option("tiers", "tiers", N_("penalty per card by cards left: [lowest count, multiplier]"),
           N_("pagat; Andrew White; Hong Kong online rules"), N_("every loser's penalty"),
           "tiers", column="scoring", convert=_tiers),
    Option("twos", "choice", N_("unplayed twos double a loser's penalty: each one, or once"),
           N_("Russian Wikipedia"), N_("the --twos fact of a deal"), "select", FACTOR_CHOICES,
           column="extras"),
    Option("bombs", "choice", N_("unplayed quads / straight flushes double it: each one, or once"),
           N_("Russian Wikipedia"), N_("the --bombs fact of a deal"), "select", FACTOR_CHOICES,
           column="extras"),
    Option("finish_double", "bool",
           N_("x2 when the winner went out on a two, quads or a straight flush"),
           N_("Russian Wikipedia"), N_("the --finish fact of a deal"), "switch", column="extras"),
    Option("assist", "bool",
           N_("a loser who let the winner's last single card through pays every penalty"),
           N_("pagat; Andrew White; Wikipedia"), N_("the --assist fact of a deal"), "switch",
           column="extras"),
    Option("missed_call", "bool", N_("a winner who did not call 'last card' pays every penalty"),
           N_("Wikipedia"), N_("the --missed-call fact of a deal"), "switch", column="extras"),
    Option("immediate_wins", "choices", N_("deals won at once: a dragon, all four twos"),
           N_("Wikipedia; pagat"), N_("the --dragon and --four-twos facts of a deal"),
           "checkboxes", IMMEDIATE_WINS, convert=_immediate_wins),
    Option("settlement", "choice",
           N_("pairwise differences, losers pay the winner, or ranked payments"),
           N_("pagat, Andrew White; Wikipedia, the French text; a Taiwanese house rule"),
           N_("every deal's net points"), "select", SETTLEMENTS, column="settlement"),
    Option("mode", "choice", N_("score by cards left, or by finishing place"), N_("pagat; Wikipedia"),
           N_("which facts a deal takes: cards left, or --order"), "select", MODES,
           column="scoring"),
    Option("place_points", "ints", N_("places mode: penalty for 1st, 2nd, 3rd, 4th"),
           N_("the project's default"), N_("mode = places"), "numbers", (0, 10_000),
           column="scoring", convert=_place_points),
    Option("plays", "table", N_("how plays rank (suit order, straights, flushes ...)"),
           N_("see the play options"), N_("bigtwo compare and the lowest card that opens"),
           "group", convert=_plays),
    Option("next_deal", "choice",
           N_("who deals next: the winner, the next seat, or the most cards left"),
           N_("pagat; Andrew White; the French text"), N_("the 'next:' line after a deal"),
           "select", NEXT_DEALS),
    Option("next_lead", "choice",
           N_("who leads next: the winner, the lowest card's holder, or 3♦'s"),
           N_("Andrew White; pagat, Pusoy Dos: 3♣"), N_("the 'next:' line after a deal"),
           "select", NEXT_LEADS),
    Option("assist_single_only", "bool",
           N_("no assist when the winner went out on more than one card"),
           N_("Wikipedia; Russian Wikipedia"), N_("assist, with --finish quads or straight-flush"),
           "switch"),
    Option("four_twos", "choice",
           N_("four twos: the others' full hands by the tiers, tripled, or a draw (all 0)"),
           N_("Wikipedia"), N_("the --four-twos fact of a deal"), "select", FOUR_TWOS),
    Option("finish_two", "choice", N_("going out on a two doubles, counts plain, or is not allowed"),
           N_("Russian Wikipedia; Wikipedia"), N_("--finish two"), "select", FINISH_TWO),
    Option("rank_payments", "ints", N_("ranked: units the losers pay, fewest cards first"),
           N_("a Taiwanese house rule"), N_("settlement = ranked"), "numbers", (0, 10_000),
           column="scoring", convert=_rank_payments),
    Option("rank_threshold", "int", N_("ranked: cards left that multiply every payment"),
           N_("a Taiwanese house rule"), N_("settlement = ranked"), "number", (1, MAX_HAND),
           column="scoring"),
    Option("over_threshold_factor", "int", N_("ranked: that multiplier"), N_("a Taiwanese house rule"),
           N_("settlement = ranked"), "number", (1, 100), column="scoring"),
    Option("round_deals", "int",
           N_("rounds of this many deals: the lowest card opens each round's first deal; 0: none"),
           N_("pagat, Indonesia; the French text"), N_("next_lead = winner"), "number", (0, 100)),
    Option("opener", "choice",
           N_("the card whose holder opens: the lowest under the suit order, or 3♣"),
           N_("the French text, the Philippines: 3♣"), N_("the first deal and next_lead"), "select",
           OPENERS),
    Option("finish_side", "choice",
           N_("teams: a finish doubles always, or only when who went out is on the winning side"),
           N_("the Russian rule text and Wikipedia, team play"),
           N_("teams sessions with finish_double"), "select", FINISH_SIDES),
    Option("odd_card", "bool",
           N_("three players: one of them holds the 52nd card (hand_size + 1)"),
           N_("Wikipedia: the two of spades or three of diamonds takes it"),
           N_("three players"), "switch"),
    Option("redeal_four_twos", "bool", N_("a hand with all four twos may ask for a reshuffle"),
           N_("the Russian rule text"), N_("bigtwo redeal-check"), "switch"),
    Option("decks", "int", N_("packs of 52 cards shuffled together: two seat up to eight"),
           N_("the Russian rule text: two decks, up to eight players"),
           N_("how many may sit, the hand size under deal_all, how many twos there are"),
           "number", (1, 2)),
    Option("deal_all", "bool",
           N_("deal the pack(s) out evenly; the leftover cards go to the 3♦'s holder"),
           N_("Wikipedia: as far as they can go, keeping equal hands"),
           N_("the hand size: 5 players 10 each (+2), 6 players 8 each (+4)"), "switch"),
    Option("tiers_by_hand", "choice",
           N_("hands of another size: tiers by the count as written, or the top tier "
              "only for all your cards"),
           N_("pagat; Wikipedia: the top tier is all your cards left"),
           N_("hands other than the tiers' own size"), "select", TIERS_BY_HAND),
    Option("draw_from_stock", "bool",
           N_("two players: who passes draws a card from the undealt stock (up to 39 held)"),
           N_("Wikipedia: two players, taken from Go Fish"),
           N_("two-player sessions: cards left up to 39"), "switch"),
    Option("stock_scoring", "choice",
           N_("drawing from the stock: every card held counts, or the penalty stops at a "
              "full hand"),
           N_("Wikipedia says nothing on it (our reading)"),
           N_("draw_from_stock, a loser holding more than hand_size"), "select", STOCK_SCORINGS),
    Option("sit_out", "choice",
           N_("more seated than play: after each deal the winner, the loser (most cards) or "
              "the next in seat order sits out the next deal; none: only bigtwo seat sit-out"),
           N_("a house rule; the texts seat only those who play"),
           N_("a session with someone sitting out (bigtwo seat)"), "select", SIT_OUTS),
)
OPTIONS: dict[str, Option] = {o.name: o for o in _OPTIONS}
# The text fields of a rule set: not options (they decide nothing), checked as text.
TEXT_FIELDS = ("name", "description", "source")

# What each play option decides and its sources (the values: ledger.core.play_rules.CHOICES).
_PLAY_HELP: dict[str, tuple[str, str, str]] = {
    "suit_order": (N_("the suits, high to low; none: suits never break a tie"),
                   N_("pagat; Wikipedia; the French text; Russian Wikipedia"),
                   N_("equal ranks, and the card that opens")),
    "straights": (N_("which five-card runs are straights and their order"),
                  N_("pagat; Andrew White; Wikipedia; Russian Wikipedia; the French text"),
                  N_("straights and straight flushes")),
    "flushes": (N_("how flushes compare: suit first, top card first, or all ranks"), N_("pagat"),
                N_("a flush on a flush")),
    "four_of_a_kind": (N_("four of a kind needs a fifth card, plays alone, or beside two pairs"),
                       N_("pagat; Wikipedia"), N_("four-card plays")),
    "bombs": (N_("what quads + 1 or a straight flush beat beyond their size: singles, pairs "
                 "and triples (beat-anything), any play (beat-all); quads-beat-all: quads beat "
                 "any play without quads"),
              N_("pagat; Wikipedia; the French text"), N_("a bomb on other plays")),
    "no_flushes": (N_("flushes are not plays"), N_("pagat, from Singapore and Taiwan"),
                   N_("five cards of one suit")),
    "no_triples": (N_("triples are not plays"), N_("pagat, from Singapore and Taiwan"),
                   N_("three cards of one rank")),
    "five_card_order": (N_("the order of five-card kinds: royal-over-quads, a straight over a "
                           "flush, no other kind on a kind (no-poker-rules), no full house on "
                           "a straight (gamesky), any kind on a lower card value (by-value)"),
                        N_("pagat; Wikipedia; Russian Wikipedia"),
                        N_("five-card plays of different kinds")),
    "rank_order": (N_("the ranks, low to high: 3 ... A 2 (two-high), or A 2 3 ... K "
                      "(ace-low-king-high, with straights of that name)"),
                   N_("the French text: \"la carte d'as plus jeune, puis aller à 2, 3, etc., et "
                      "le plus ancien est roi\""),
                   N_("every play: which rank is higher")),
    "five_of_a_kind": (N_("two decks: five of a kind is a play, above four of a kind and "
                          "below or above a straight flush; a card may be named twice"),
                       N_("the Russian rule text: two decks"),
                       N_("five cards of one rank, a card named twice")),
    "butterfly": (N_("two pairs and an odd card are a five-card play, below the straight, "
                     "ranked by the higher pair"),
                  N_("Wikipedia; the Russian rule text"), N_("five cards: two pairs and one more")),
    "identical_beats": (N_("an identical play (3♦ on 3♦, two decks) beats the one before it"),
                        N_("the Russian rule text: two decks"), N_("the same cards on the same cards")),
    "smack_down": (N_("a smack down, four of a kind or a run of three or more pairs, beats a "
                      "single 2♠; a smack back, a higher one of the same length, beats it"),
                   N_("Wikipedia; the Russian rule text"), N_("a run of pairs or a four alone on 2♠")),
    "triple_plus_two": (N_("a triple with two odd cards is a five-card play, below the straight"),
                        N_("the Russian rule text"), N_("five cards: a triple and two others")),
    "long_straights": (N_("straights of 6 to 12 cards, beaten by a higher one of the same length"),
                       N_("Wikipedia; the Russian rule text"), N_("six or more cards in sequence")),
    "dragon_play": (N_("the 13-card dragon is a play, led once in control; the suit of the 2 breaks a tie"),
                    N_("Wikipedia; the Russian rule text"), N_("thirteen cards, one of each rank")),
    "straight_flush_plus_two": (N_("a straight flush is played with two extra cards (seven); it "
                                   "and four of a kind plus a card beat any other play"),
                                N_("pagat, Todd Latta"), N_("seven cards holding a straight flush")),
    "jokers": (N_("jokers (BJ, RJ): alone above 2♠, the black above the red; in a combination any card"),
               N_("Wikipedia; the Russian rule text"), N_("a joker typed in a play or a hand")),
}


def play_options() -> dict[str, Option]:
    """The play options as registry entries, ``plays.KEY`` (loads the play rules)."""
    from ledger.core.play_rules import CHOICES, SWITCHES

    out = {}
    for key, (what, source, matters) in _PLAY_HELP.items():
        if key in CHOICES:
            out[f"plays.{key}"] = Option(f"plays.{key}", "choice", what, source, matters, "select",
                                         CHOICES[key])
        else:
            assert key in SWITCHES, key
            out[f"plays.{key}"] = Option(f"plays.{key}", "bool", what, source, matters, "switch")
    return out


# --- deal facts ---------------------------------------------------------------------

class Fact(NamedTuple):
    """One fact typed with a deal beyond the cards left.

    ``word`` is the option as typed (``--twos``); ``kind`` what follows it
    (``counts``: NAME=K, repeatable; ``player``: a seated name; ``loser``: a seated
    name other than the winner's; ``win``: the seated name who won the deal at once,
    no cards left typed; ``choice``: one of ``values``;
    ``flag``: nothing; ``players``: names in order); ``stored`` the keys
    and JSON types it is kept as in a deal's facts; ``offered`` whether these rules
    (and a teams session) score it, the option named in ``matters``; ``extra`` how
    ``rules list`` and refusals name the scoring option (None: not named there).
    """

    name: str
    word: str
    kind: str
    metavar: str
    help: str
    matters: str
    offered: Callable[[RuleSet, bool], bool]
    stored: tuple[tuple[str, str], ...]
    values: tuple[str, ...] = ()
    extra: Callable[[RuleSet], str] | None = None

    def values_for(self, rules: RuleSet) -> tuple[str, ...]:
        """The values these rules accept (``--finish two`` is refused under
        ``finish_two = "forbidden"``)."""
        if self.name == "finish" and rules.finish_two == "forbidden":
            return tuple(v for v in self.values if v != "two")
        return self.values


def _cards(rules: RuleSet) -> bool:
    return rules.mode == "cards"


FACTS: tuple[Fact, ...] = (
    Fact("twos", "--twos", "counts", "NAME=K", N_("unplayed twos a loser holds (repeatable)"),
         "twos", lambda r, t: _cards(r) and r.twos != "off", (("twos", "counts"),),
         extra=lambda r: f"twos {r.twos}"),
    Fact("bombs", "--bombs", "counts", "NAME=K",
         N_("unplayed four-of-a-kinds / straight flushes (repeatable)"),
         "bombs", lambda r, t: _cards(r) and r.bombs != "off", (("bombs", "counts"),),
         extra=lambda r: f"bombs {r.bombs}"),
    Fact("finish", "--finish", "choice", "KIND",
         N_("the winner's last play: two, quads or straight-flush"), "finish_double",
         lambda r, t: _cards(r) and r.finish_double, (("finish", "text"),),
         ("two", "quads", "straight-flush"), extra=lambda r: "finish_double"),
    Fact("assist", "--assist", "loser", "NAME", N_("the loser who let the winner go out"),
         "assist", lambda r, t: _cards(r) and r.assist and not t, (("assist", "text"),),
         extra=lambda r: "assist"),
    Fact("missed_call", "--missed-call", "flag", "", N_("the winner did not call \"last card\""),
         "missed_call", lambda r, t: _cards(r) and r.missed_call and not t,
         (("missed_call", "bool"),), extra=lambda r: "missed call"),
    Fact("shootout", "--shootout", "player", "NAME",
         N_("teams tie on cards: a member of the team that won it"), "teams",
         lambda r, t: _cards(r) and t, (("shootout", "text"),)),
    Fact("dragon", "--dragon", "win", "NAME", N_("immediate win: dealt a dragon (2-A-K-...-3)"),
         "immediate_wins", lambda r, t: _cards(r) and "dragon" in r.immediate_wins,
         (("immediate", "text"), ("immediate_by", "text"))),
    Fact("four_twos", "--four-twos", "win", "NAME", N_("immediate win: dealt all four twos"),
         "immediate_wins", lambda r, t: _cards(r) and "four-twos" in r.immediate_wins,
         (("immediate", "text"), ("immediate_by", "text"))),
    Fact("leftovers", "--leftovers", "player", "NAME",
         N_("who took the leftover cards (two decks hold two 3♦)"), "deal_all",
         lambda r, t: _cards(r) and (r.deal_all or r.odd_card), (("leftovers", "text"),)),
    Fact("order", "--order", "players", "A,B,C,D",
         N_("places mode: the finishing order, first out first"), "mode",
         lambda r, t: r.mode == "places", (("order", "names"),)),
)
FACT_WORDS: dict[str, Fact] = {f.word: f for f in FACTS}
# Stored with every deal, whatever the rules: the cards left and any typed hands.
STORED_FACTS: dict[str, str] = {"cards": "counts", "hands": "hands", "players": "names"} | {
    key: kind for fact in FACTS for key, kind in fact.stored}


def flag_words() -> tuple[str, ...]:
    """The deal options that take no value (``--missed-call``)."""
    return tuple(f.word for f in FACTS if f.kind == "flag")


def value_words() -> tuple[str, ...]:
    """The deal options followed by a value (``--twos``, ``--assist`` …)."""
    return tuple(f.word for f in FACTS if f.kind != "flag")


def extras(rules: RuleSet) -> list[str]:
    """Names of the optional facts ``rules`` score, as ``rules list`` and refusals say
    them (``twos each``, ``assist``, ``missed call``)."""
    return [f.extra(rules) for f in FACTS if f.extra is not None and f.offered(rules, False)]


class Offer(NamedTuple):
    """A deal fact an entry screen offers under a session's rules: its name (the
    stored key), the option word, what follows it (``kind``: counts, player, loser,
    win, choice, flag, players), the values of a choice, and a label in the interface's
    language.  An entry screen needs nothing else to write the fact on a deal line."""

    name: str
    word: str
    kind: str
    values: tuple[str, ...]
    label: str

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "word": self.word, "kind": self.kind,
                "values": list(self.values), "label": self.label}


def offered_facts(rules: RuleSet, teams: bool = False, players: int | None = None) -> tuple[Offer, ...]:
    """The deal facts beyond the cards left that ``rules`` score (in a teams session
    when ``teams``; with ``players`` seated, when known): what the phone's entry screen
    offers, in the deal help's order.  Who took the leftovers is offered only where some
    are left over (five of one deck, six of two …).

    >>> [o.to_dict()["word"] for o in offered_facts(RuleSet("t", mode="places",
    ...                                                   immediate_wins=()))]
    ['--order']
    """
    return tuple(Offer(f.name, f.word, f.kind, f.values_for(rules), _(f.help))
                 for f in FACTS if f.offered(rules, teams)
                 and (f.name != "leftovers" or players is None or leaves_over(rules, players)))
