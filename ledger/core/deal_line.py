"""The deal grammar, both ways: what the scorekeeper types into deal facts
(:func:`parse_deal_line`, :func:`build_deal`), and deal facts back into those words
(:func:`format_deal`, :func:`facts_text`), so that ``parse(format(deal)) == deal``.

One parser serves ``bigtwo deal``/``amend`` (whose options Typer has already
split), the quick-entry ``table`` loop and sample session files (whole lines); one
writer serves the log, the import report and exports.

>>> seats = ["Ann", "Ben", "Cat", "Dan"]
>>> parse_deal_line("ann=0 Ben=3 Cat=11 Dan=8 --assist cat", seats).to_dict()
{'cards': {'Ann': 0, 'Ben': 3, 'Cat': 11, 'Dan': 8}, 'assist': 'Cat'}
>>> parse_deal_line("0 3 11 8", seats).cards
{'Ann': 0, 'Ben': 3, 'Cat': 11, 'Dan': 8}
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ledger.core.errors import InputError
from ledger.core.i18n import N_, _, ngettext
from ledger.core.numbers import is_whole_number
from ledger.core.registry import STORED_FACTS, flag_words, value_words
from ledger.core.scoring import FINISHES, Deal, is_finish
from ledger.core.text import accentless_key, name_key, shown

if TYPE_CHECKING:
    from ledger.core.rule_set import ImmediateWin, RuleSet

# The option words of a deal: the registry's deal facts (ledger.core.registry).
FLAG_OPTIONS = flag_words()
VALUE_OPTIONS = value_words()


@dataclass
class DealArgs:
    """The raw words of one deal, before names are matched to seats."""

    positional: list[str] = field(default_factory=list)
    twos: list[str] = field(default_factory=list)
    bombs: list[str] = field(default_factory=list)
    finish: str | None = None
    assist: str | None = None
    missed_call: bool = False
    shootout: str | None = None
    dragon: str | None = None
    four_twos: str | None = None
    order: str | None = None
    leftovers: str | None = None


def match_player(text: str, seats: Sequence[str], what: str) -> str:
    """A seated player's name, matched without regard to case (or by a unique prefix)."""
    wanted = name_key(text.strip())
    exact = [s for s in seats if name_key(s) == wanted]
    if exact:
        return exact[0]
    prefixed = [s for s in seats if wanted and name_key(s).startswith(wanted)]
    if len(prefixed) == 1:
        return prefixed[0]
    if not prefixed:  # typed without accents (jose for José): the one player it can mean
        bare = accentless_key(text.strip())
        prefixed = [s for s in seats if bare and accentless_key(s) == bare]
        prefixed = prefixed or [s for s in seats if bare and accentless_key(s).startswith(bare)]
        if len(prefixed) == 1:
            return prefixed[0]
    if not prefixed:  # typed in another alphabet's look-alike letters (Аnn for Ann)
        from ledger.core.confusables import look_alikes

        prefixed = look_alikes(text.strip(), seats)
        if len(prefixed) == 1:
            return prefixed[0]
    if prefixed:
        raise InputError(_("{what}: {name} matches several players; players: {players}").format(
            what=what, name=repr(text), players=shown(", ".join(seats))))
    from ledger.core.names import did_you_mean

    hint = did_you_mean(text, seats)
    raise InputError(_("{what}: {name} is not seated (players: {players}){hint}").format(
        what=what, name=repr(text), players=shown(", ".join(seats)), hint=hint))


def _count(text: str, what: str) -> int:
    from ledger.core.numbers import digits

    stripped = digits(text)  # ASCII or full-width digits (a Chinese keyboard's ０-９)
    if stripped is None:
        raise InputError(_("{what}: {text} is not a whole number of 0 or more").format(
            what=what, text=repr(text[:40])))
    if len(stripped) > 100:  # int() of thousands of digits is refused by Python
        raise InputError(_("{what}: {start}... ({digits} digits) is far more than the {most} "
                           "cards in a pack").format(what=what, start=stripped[:12],
                                                     digits=len(stripped), most=MAX_COUNT))
    return int(stripped)


def _pairs(items: Sequence[str], seats: Sequence[str], option: str) -> dict[str, int]:
    out: dict[str, int] = {}
    for item in items:
        name, sep, value = item.partition("=")
        if not sep:
            raise InputError(_("{option} {item!r}: write NAME=COUNT, e.g. {option} {seat}=1").format(
                option=option, item=item, seat=seats[-1]))
        player = match_player(name, seats, option)
        if player in out:
            raise InputError(_("{option} names {player} more than once").format(
                option=option, player=player))
        out[player] = _count(value, f"{option} {player}")
    return out


# ASCII, full-width and ideographic commas, and spaces (one quoted word of counts)
_BETWEEN_COUNTS = re.compile(r"[,，、\s]+")


def _counts_in_a_row(words: Sequence[str]) -> list[str]:
    """Counts typed with commas between them, as a Chinese keyboard gives them
    (``0，3，8，12``, ``0,3,8,12``, ``0、3、8、12``), as one count a word.  Names
    cannot hold a comma, so only counts are split.

    Counts in one quoted word (``bigtwo deal "0 3 8 12"``) are split at its spaces
    the same way: a word of counts and spaces is no name.

    >>> _counts_in_a_row(["0，3，8，", "12"])
    ['0', '3', '8', '12']
    >>> _counts_in_a_row(["0 3 8 12"])
    ['0', '3', '8', '12']
    >>> _counts_in_a_row(["Mary Ann"])
    ['Mary Ann']
    """
    if not any(_BETWEEN_COUNTS.search(w) for w in words):
        return list(words)
    parts = [p for w in words for p in _BETWEEN_COUNTS.split(w) if p.strip()]
    return parts if all(is_whole_number(p) for p in parts) else list(words)


def build_deal(args: DealArgs, seats: Sequence[str], rules: RuleSet | None = None) -> Deal:
    """Match names and numbers to seats; the scoring rules validate the rest.

    ``rules`` (the session's) decide how typed hands are read: which runs make a
    straight flush, and whether twos and bombs are scored at all (if not, only the
    count is taken from the cards).  Without them straights are read the ``pagat``
    way and twos and bombs are always derived.
    """
    cards: dict[str, int] = {}
    hands: dict[str, str] = {}
    positional = args.positional
    if positional and all("=" not in p for p in positional):
        positional = _counts_in_a_row(positional)
        if len(positional) != len(seats):
            raise InputError(ngettext(
                "{count} number for {players} players: give one count per seat "
                "in seat order ({seats}) or NAME=CARDS pairs",
                "{count} numbers for {players} players: give one count per seat "
                "in seat order ({seats}) or NAME=CARDS pairs", len(positional),
            ).format(count=len(positional), players=len(seats), seats=", ".join(seats)))
        positional = [f"{s}={p}" for s, p in zip(seats, positional, strict=True)]
    for item in positional:
        name, sep, value = item.partition("=")
        if not sep:
            raise InputError(_("{item!r}: write NAME=CARDS for every player, e.g. {example}").format(
                item=item,
                example=" ".join(f"{s}={0 if i == 0 else 5}" for i, s in enumerate(seats))))
        player = match_player(name, seats, _("cards"))
        if player in cards:
            raise InputError(_("{player} is given cards more than once").format(player=player))
        if is_whole_number(value):
            cards[player] = _count(value, player)
        elif any(ch.isalpha() or ch in "♠♥♣♦" for ch in value):
            hands[player] = value.strip()
            cards[player] = -1  # filled in from the hand below
        else:
            raise InputError(_(
                "{player}={value!r}: give the number of cards left (0 for the winner) "
                "or the cards themselves, e.g. \"2S 2H 5D\""
            ).format(player=player, value=value))
    twos = _pairs(args.twos, seats, "--twos")
    bombs = _pairs(args.bombs, seats, "--bombs")
    if hands:
        _read_hands(hands, cards, twos, bombs, rules)
    finish = args.finish
    if finish is not None and not is_finish(finish):
        raise InputError(_("unknown finish {finish!r}; allowed: {allowed}").format(
            finish=finish, allowed=", ".join(FINISHES)))
    immediate: ImmediateWin | None = None
    immediate_by: str | None = None
    if args.dragon is not None and args.four_twos is not None:
        raise InputError(_("one immediate win per deal: give --dragon or --four-twos, not both"))
    if args.dragon is not None:
        immediate, immediate_by = "dragon", match_player(args.dragon, seats, "--dragon")
    elif args.four_twos is not None:
        immediate = "four-twos"
        immediate_by = match_player(args.four_twos, seats, "--four-twos")
    order = None
    if args.order is not None:
        # Names are separated by commas (a name may hold a space: "Mary Ann,Ben"),
        # or by spaces when there is no comma at all ("Ann Ben Cat Dan").
        names = args.order.split(",") if "," in args.order else args.order.split()
        order = tuple(match_player(n, seats, "--order") for n in names if n.strip())
    return Deal(
        cards=cards,
        twos=twos,
        bombs=bombs,
        finish=finish,
        assist=None if args.assist is None else match_player(args.assist, seats, "--assist"),
        missed_call=args.missed_call,
        immediate=immediate,
        immediate_by=immediate_by,
        order=order,
        shootout=None if args.shootout is None else match_player(args.shootout, seats, "--shootout"),
        hands=hands,
        leftovers=None if args.leftovers is None else match_player(
            args.leftovers, seats, "--leftovers"),
    )


def _read_hands(
    hands: dict[str, str],
    cards: dict[str, int],
    twos: dict[str, int],
    bombs: dict[str, int],
    rules: RuleSet | None = None,
) -> None:
    """Typed cards give the count, twos and bombs; a card may be in one hand only."""
    from ledger.core.cards import format_card, parse_cards, read_hand

    # A straight flush is a bomb only if its run is a straight under the session's rules.
    straights = "pagat" if rules is None else rules.play_rules().straights
    copies = 1 if rules is None else rules.decks
    jokers = rules is not None and rules.play_rules().jokers
    seen: dict[object, list[str]] = {}
    for player, text in hands.items():
        try:
            held = parse_cards(text, copies, jokers)
        except InputError as exc:
            raise InputError(_("{player}={text!r} is not a number of cards left: {reason}").format(
                player=player, text=text, reason=exc)) from None
        for card in held:
            holders = seen.setdefault(card, [])
            if len(holders) >= copies and copies == 1:
                raise InputError(_(
                    "a card is held twice in one deal: {card} is typed for {first} and for {player}"
                ).format(card=format_card(card), first=holders[0], player=player))
            if len(holders) >= copies:
                raise InputError(_(
                    "a card is held three times in one deal of two decks: {card} is typed for "
                    "{first}, {second} and {player}"
                ).format(card=format_card(card), first=holders[0], second=holders[1], player=player))
            holders.append(player)
        reading = read_hand(held, straights, copies)
        cards[player] = reading.count
        for key, derived in (("twos", reading.twos), ("bombs", reading.bombs)):
            given = (twos if key == "twos" else bombs).get(player)
            if given is not None and given != derived:
                raise InputError(_(
                    "--{key} {player}={given} disagrees with the cards typed ({derived})"
                ).format(key=key, player=player, given=given, derived=derived))
        if reading.twos and (rules is None or rules.twos != "off"):
            twos[player] = reading.twos
        if reading.bombs and (rules is None or rules.bombs != "off"):
            bombs[player] = reading.bombs


IDEOGRAPHIC_SPACE = "\u3000"
"""The space a Chinese keyboard types between words (full-width): a break between words."""


def line_words(line: str) -> list[str]:
    """The words of a typed line, as a shell splits them (quotes, ``#`` comments), with
    the ideographic space of a Chinese keyboard (U+3000) between words too."""
    lexer = shlex.shlex(line, posix=True)
    lexer.whitespace += IDEOGRAPHIC_SPACE
    lexer.whitespace_split = True
    lexer.commenters = "#"
    try:
        return list(lexer)
    except ValueError as exc:
        raise InputError(_("cannot read the line: {reason}").format(reason=exc)) from None


def shell_words(words: Sequence[str]) -> list[str]:
    """The words of a deal as the shell gave them (``bigtwo deal …``), where a word holds
    an ideographic space read as ``table`` reads a typed line (:func:`line_words`): a
    full-width keyboard types ``0　3　8　12`` as one shell word, four counts.  A word
    without one stays as it is (``"Mary Ann=3"``, quoted for the shell).

    >>> shell_words(["0\u30003\u30008\u300012", "--twos", "Ben=1"])
    ['0', '3', '8', '12', '--twos', 'Ben=1']
    >>> shell_words(['"陳\u3000大文"=3\u3000Ben=0', "Mary Ann=5"])
    ['陳\u3000大文=3', 'Ben=0', 'Mary Ann=5']
    """
    return [piece for word in words
            for piece in (line_words(word) if IDEOGRAPHIC_SPACE in word else [word])]


def split_line(line: str) -> DealArgs:
    """Split a whole typed line (``Ann=0 Ben=3 --twos Ben=1``) into DealArgs."""
    return split_words(line_words(line))


def split_words(words: Sequence[str]) -> DealArgs:
    """Sort the words of a deal (as the shell split them) into DealArgs."""
    args = DealArgs()
    i = 0
    while i < len(words):
        word = words[i]
        if word.startswith("--"):
            option, sep, inline = word.partition("=")
            if option in FLAG_OPTIONS:
                if sep:
                    raise InputError(_("{option} takes no value").format(option=option))
                args.missed_call = True
                i += 1
                continue
            if option not in VALUE_OPTIONS:
                allowed = ", ".join((*VALUE_OPTIONS, *FLAG_OPTIONS))
                raise InputError(_("unknown option {option}; allowed: {allowed}").format(
                    option=repr(option), allowed=allowed))
            if sep:
                value = inline
            elif i + 1 < len(words):
                value = words[i + 1]
                i += 1
            else:
                raise InputError(_("{option} needs a value").format(option=option))
            key = option[2:].replace("-", "_")
            if key in ("twos", "bombs"):
                getattr(args, key).append(value)
            elif getattr(args, key) is not None:
                raise InputError(_("{option} is given more than once").format(option=option))
            else:
                setattr(args, key, value)
        else:
            args.positional.append(word)
        i += 1
    return args


def parse_deal_line(line: str, seats: Sequence[str], rules: RuleSet | None = None) -> Deal:
    return build_deal(split_line(line), seats, rules)


# Characters that a typed line (shlex, with # comments) would read as more than a
# letter: a word holding one is written in double quotes.
_SPECIAL = frozenset(" \t\n\r\x0b\x0c'\"\\#")


def _word(text: str, always: bool = False) -> str:
    """``text`` as one word of a typed line: as it is when that is safe, else in double
    quotes (a backslash before ``"`` and ``\\``), which :func:`split_line` reads back."""
    if not always and text and not any(ch in _SPECIAL for ch in text):
        return text
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def format_deal(deal: Deal) -> str:
    """A deal written the way it is typed: :func:`parse_deal_line` reads it back as the
    same deal.

    >>> format_deal(Deal(cards={"陳大文": 0, "Mary Ann": 5}, assist="Mary Ann"))
    '陳大文=0 "Mary Ann"=5 --assist "Mary Ann"'
    """
    return facts_text(deal.to_dict())


def facts_text(facts: dict[str, Any], seats: Sequence[str] = ()) -> str:
    """A deal's facts (as stored) written back the way they are typed, for the ledger's
    log, the import report and exports (:func:`format_deal` of the stored deal); the
    players in ``seats`` order when given.

    >>> facts_text({"cards": {"Ann": 0, "Ben": 3, "Cat": 11, "Dan": 8}, "assist": "Cat"})
    'Ann=0 Ben=3 Cat=11 Dan=8 --assist Cat'
    """
    parts = []
    hands = facts.get("hands", {})
    cards = facts.get("cards", {})
    order = [n for n in seats if n in cards] + [n for n in cards if n not in seats]  # seat order
    for name in order:
        count = cards[name]
        value = _word(hands[name], always=True) if name in hands else str(count)
        parts.append(f"{_word(name)}={value}")
    for key in ("twos", "bombs"):
        for name, k in facts.get(key, {}).items():
            if name not in hands:
                parts.append(f"--{key} {_word(name)}={k}")
    for key in ("finish", "assist", "shootout", "leftovers"):
        if key in facts:
            parts.append(f"--{key} {_word(facts[key])}")
    if facts.get("missed_call"):
        parts.append("--missed-call")
    if "immediate" in facts:
        parts.append(f"--{facts['immediate']} {_word(facts['immediate_by'])}")
    if "order" in facts:
        parts.append("--order " + _word(",".join(facts["order"])))
    return " ".join(parts)


# --- facts from a file ------------------------------------------------------------

_FACT_TYPES: dict[str, str] = STORED_FACTS  # each stored fact's JSON type, from the registry
MAX_COUNT = 52  # no count in a deal (cards, twos, bombs) can be more than a pack


def deal_from_facts(facts: object, seats: Sequence[str], rules: RuleSet | None = None) -> Deal:
    """A deal's facts as a file (an export) gives them, checked as strictly as ``deal``.

    JSON types are exact (``"missed_call": "false"`` is not false, ``1.0`` is not a
    count), counts are whole numbers from 0 to 52, every name is a seated player's,
    and typed hands are read again: each is cards (no card twice in the deal) that
    agree with the count, twos and bombs stored beside them.  The rules' own checks
    (``score_deal``) come after.
    """
    if not isinstance(facts, dict):
        raise InputError(_("facts must be a JSON object, not {kind}").format(kind=_kind(facts)))
    unknown = sorted(str(k) for k in facts if k not in _FACT_TYPES)
    if unknown:
        raise InputError(_("unknown deal fact(s): {unknown}; known: {known}").format(
            unknown=", ".join(unknown), known=", ".join(_FACT_TYPES)))
    values: dict[str, object] = {}
    for key, value in facts.items():
        kind = _FACT_TYPES[key]
        if kind == "bool":
            if type(value) is not bool:
                raise InputError(_("{key} must be true or false, not {value!r}").format(
                    key=key, value=value))
        elif kind == "text":
            if value is not None and not isinstance(value, str):
                raise InputError(_("{key} must be text or null, not {kind}").format(
                    key=key, kind=_kind(value)))
        elif kind == "names":
            if value is not None and not (isinstance(value, list)
                                          and all(isinstance(n, str) for n in value)):
                raise InputError(_("{key} must be a list of player names, not {kind}").format(
                    key=key, kind=_kind(value)))
            value = None if value is None else tuple(value)
        else:
            if not isinstance(value, dict):
                raise InputError(_("{key} must be a JSON object of NAME: {what}, not {kind}").format(
                    key=key, what="COUNT" if kind == "counts" else "CARDS", kind=_kind(value)))
            for name, item in value.items():
                if name not in seats:
                    raise InputError(_("{key}: {name!r} is not seated; players: {players}").format(
                        key=key, name=name, players=", ".join(seats)))
                if kind == "counts" and not (type(item) is int and 0 <= item <= MAX_COUNT):
                    raise InputError(_("{key} {name}: {item!r} is not a whole number from 0 "
                                       "to {most}").format(key=key, name=name, item=item,
                                                           most=MAX_COUNT))
                if kind == "hands" and not isinstance(item, str):
                    raise InputError(_("hands {name}: the cards must be text like \"2S 2H 5D\", "
                                       "not {kind}").format(name=name, kind=_kind(item)))
        values[key] = value
    deal = Deal(**values)  # type: ignore[arg-type]
    if deal.hands:
        _check_hands(deal, rules)
    return deal


def _check_hands(deal: Deal, rules: RuleSet | None) -> None:
    """The typed hands read again must give the stored count, twos and bombs."""
    cards = {n: -1 for n in deal.hands}
    twos = {n: k for n, k in deal.twos.items() if n in deal.hands}
    bombs = {n: k for n, k in deal.bombs.items() if n in deal.hands}
    _read_hands(dict(deal.hands), cards, twos, bombs, rules)
    for name in deal.hands:
        if deal.cards.get(name) != cards[name]:
            raise InputError(_("hands {name}: {hand!r} is {count} cards, but cards says "
                               "{stored!r}").format(name=name, hand=deal.hands[name],
                                                    count=cards[name], stored=deal.cards.get(name)))


def _kind(value: object) -> str:
    names = {bool: N_("true/false"), int: N_("a number"), float: N_("a number"), str: N_("text"),
             list: N_("a list"), dict: N_("an object"), type(None): N_("null")}
    found = names.get(type(value))
    return type(value).__name__ if found is None else _(found)
