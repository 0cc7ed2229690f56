"""Plain-text score sheets in the ``big-two-scorer`` format, read as sessions of deals.

A sheet is lines of one of these forms (a ``# comment`` may end any of them)::

    2024-03-01          a date: the games below were played that day
    F=11                the fry threshold for the games below (default 10)
    Ann Ben Cat Dan     four player names, in seat order
    0 3 11t 8           four numbers of cards left, in the same order

Exactly one number is ``0`` (the winner).  A ``t`` after one number means that
player takes on all losses: an assist when it is a loser, a missed last-card call
when it is the winner.

Each run of games under one date, one fry threshold and one line of names is a
session with the ``classic`` rules at that threshold.  Its identity is stable: a
uuid5 of (date, F, names, the run's index among that date's runs), and a game's is
a uuid5 of (session uuid, position).  So re-reading a sheet that has grown gives the
same identities to the games already read.

The older ``big-two-stats`` format (the predecessor of ``big-two-scorer``) is the same
but for two things: a date is a line of digits ``yyyymmdd`` (digits after the eighth are
ignored, as that program does), and there is no ``F=`` line: its fry threshold is given
on the command line (``bigtwo import --fry N``, default 10, from 1 to 12 as that program
takes it).  :func:`sheet_dialect` tells the two apart by their first date line.  A game
has the same identity in either format (its date, threshold, names and position).

Pure: lines in, games out; every problem raises :class:`SheetError` naming the line.

>>> games = list(read_sheet(["a b c d", "0 11 12 13", "1 1 1t 0  # c let d out"]))
>>> [(g.line, g.position, g.cards, g.takes) for g in games]
[(2, 1, (0, 11, 12, 13), None), (3, 2, (1, 1, 1, 0), 2)]
>>> games[1].deal().to_dict()
{'cards': {'a': 1, 'b': 1, 'c': 1, 'd': 0}, 'assist': 'c'}
"""

from __future__ import annotations

import hashlib
import re
import uuid as uuidlib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from datetime import date as Date
from functools import cache, cached_property
from typing import NamedTuple

from ledger.core.errors import InputError
from ledger.core.i18n import N_, _
from ledger.core.rules import RuleSet, rules_from_mapping
from ledger.core.scoring import Deal

DEFAULT_FRY_THRESHOLD = 10
MIN_FRY_THRESHOLD = 10
MAX_FRY_THRESHOLD = 9999
HAND = 13
PLAYERS = 4
# Fixed forever: changing it would give every imported sheet new identities.
SHEET_NAMESPACE = uuidlib.UUID("6f0d3c1e-2b5a-5d47-9a61-1f3b7b2c9e40")

_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")
_THRESHOLD = re.compile(r"F=([0-9]+)")
EXPLAIN = N_(
    "a line is a date YYYY-MM-DD, a fry threshold F=<n>, four player names, "
    "four numbers of cards left (one 0, the winner; a `t` suffix on at most one), "
    "a # comment, or blank"
)
EXPLAIN_OLDER = N_(
    "a line of this big-two-stats sheet is a date yyyymmdd, four player names, "
    "four numbers of cards left (one 0, the winner; a `t` suffix on at most one), "
    "a # comment, or blank"
)
SCORER, STATS = "big-two-scorer", "big-two-stats"  # the newer format and the older one
OLDER_FRY = (1, 12)  # big-two-stats takes a fry threshold from 1 to 12


def sheet_dialect(lines: Iterable[str]) -> str:
    """:data:`STATS` if the sheet's first date is a line of digits (yyyymmdd), else
    :data:`SCORER`; reads only up to the first date or ``F=`` line.

    >>> sheet_dialect(["# 2013", "20130105", "a b c d"]), sheet_dialect(["2013-01-05"])
    ('big-two-stats', 'big-two-scorer')
    """
    for raw in lines:
        words = raw.split("#", 1)[0].split()
        if len(words) != 1:
            continue
        if words[0].isascii() and words[0].isdigit():
            return STATS
        if _DATE.fullmatch(words[0]) or _THRESHOLD.fullmatch(words[0]):
            return SCORER
    return SCORER


class SheetError(InputError):
    """A line of a score sheet that cannot be read; the message names the line."""


@dataclass(frozen=True)
class SheetSession:
    """One run of games under one date, fry threshold and line of names."""

    date: str | None
    fry_threshold: int
    players: tuple[str, ...]
    run: int  # index among the runs with games on the same date (0 first)
    line: int  # the line of names

    @cached_property
    def uuid(self) -> str:
        key = "\x1f".join(
            ["big-two-scorer", self.date or "", str(self.fry_threshold), *self.players, str(self.run)]
        )
        return str(uuidlib.uuid5(SHEET_NAMESPACE, key))

    @cached_property
    def namespace(self) -> bytes:
        """The session uuid's bytes: the namespace of its games' uuids."""
        return uuidlib.UUID(self.uuid).bytes

    @property
    def name(self) -> str:
        text = f"{self.date or 'undated'}: {' '.join(self.players)}"
        if self.fry_threshold != DEFAULT_FRY_THRESHOLD:
            text += f" F={self.fry_threshold}"
        if self.run:
            text += f" (run {self.run + 1})"
        return text

    @property
    def started_at(self) -> str | None:
        # Noon of that date where the sheet is imported (TZ), stored in UTC: the sheet's
        # date reads as that same date there (ledger.book.clock shows times in the user's
        # zone), where midnight UTC would be the day before in the Americas.
        if self.date is None:
            return None
        from datetime import UTC, datetime, time

        from ledger.book.clock import zone

        noon = datetime.combine(Date.fromisoformat(self.date), time(12), tzinfo=zone())
        return noon.astimezone(UTC).isoformat(timespec="microseconds")

    @property
    def rules(self) -> RuleSet:
        return sheet_rules(self.fry_threshold)


class SheetGame(NamedTuple):
    """One game line: the numbers of cards left, in the session's seat order."""

    session: SheetSession
    position: int  # 1, 2, 3... within the session: the deal number
    line: int
    cards: tuple[int, ...]
    takes: int | None  # seat index of the `t` player, if any

    @property
    def uuid(self) -> str:
        return uuid5(self.session.namespace, str(self.position))

    def deal(self) -> Deal:
        players = self.session.players
        cards = dict(zip(players, self.cards, strict=True))
        if self.takes is None:
            return Deal(cards=cards)
        if self.cards[self.takes] == 0:
            return Deal(cards=cards, missed_call=True)
        return Deal(cards=cards, assist=players[self.takes])


_VARIANT = {c: format((int(c, 16) & 0x3) | 0x8, "x") for c in "0123456789abcdef"}


def uuid5(namespace: bytes, name: str) -> str:
    """``str(uuid.uuid5(UUID(bytes=namespace), name))`` without the objects (one per game).

    >>> ns = uuidlib.uuid4()
    >>> uuid5(ns.bytes, "12") == str(uuidlib.uuid5(ns, "12"))
    True
    """
    h = hashlib.sha1(namespace + name.encode()).hexdigest()
    return f"{h[:8]}-{h[8:12]}-5{h[13:16]}-{_VARIANT[h[16]]}{h[17:20]}-{h[20:32]}"


@cache
def sheet_rules(fry_threshold: int) -> RuleSet:
    """``classic`` at fry threshold F: 1..F-1 x1, F..12 x2, 13 x3.

    A threshold above 13 fries nobody (big-two-scorer multiplies only from F on).

    >>> sheet_rules(11).tiers, sheet_rules(14).tiers
    (((1, 1), (11, 2), (13, 3)), ((1, 1),))
    """
    if MIN_FRY_THRESHOLD <= fry_threshold <= HAND:
        return rules_from_mapping({"fry_threshold": fry_threshold})
    if fry_threshold < MIN_FRY_THRESHOLD:  # big-two-stats --fry 1..9: still x3 at 13
        return rules_from_mapping({"tiers": [[1, 1], [fry_threshold, 2], [13, 3]]
                                   if fry_threshold > 1 else [[1, 2], [13, 3]]})
    return rules_from_mapping({"tiers": [[1, 1]]})


def _fail(origin: str, number: int, problem: str, explain: str = EXPLAIN,
          **values: object) -> SheetError:
    """The error for line ``number``: ``problem`` is a message (``N_``), translated, then
    formatted with ``values`` and ``explain`` (what a line may be)."""
    text = _(problem).format(explain=_(explain), **values)
    return SheetError(_("{origin} line {number}: {problem}").format(
        origin=origin, number=number, problem=text))


def _date(text: str, origin: str, number: int) -> str:
    """A big-two-scorer date line, YYYY-MM-DD."""
    try:
        day = Date.fromisoformat(text)
    except ValueError:
        raise _fail(origin, number, N_("{text} is not a date (YYYY-MM-DD)"), text=text) from None
    return _kept_day(day, text, origin, number)


def _yyyymmdd(digits: str, origin: str, number: int) -> str:
    """A big-two-stats date line: its first eight digits, yyyymmdd (the rest ignored)."""
    try:
        if len(digits) < 8:
            raise ValueError
        day = Date(int(digits[:4]), int(digits[4:6]), int(digits[6:8]))
    except ValueError:
        raise _fail(origin, number, N_("{text} is not a date (yyyymmdd)"), EXPLAIN_OLDER,
                    text=digits) from None
    return _kept_day(day, digits, origin, number)


def _kept_day(day: Date, text: str, origin: str, number: int) -> str:
    """The date line of either format, as YYYY-MM-DD, when it is inside the dates the
    ledger keeps (ledger.core.times), else a :class:`SheetError` naming its line: one
    check for both formats."""
    from ledger.core.times import check_day

    try:
        return check_day(day, text).isoformat()
    except InputError as exc:
        raise SheetError(_("{origin} line {number}: {problem}").format(
            origin=origin, number=number, problem=exc)) from None


def older_fry(value: int) -> int:
    """``import --fry N`` for a big-two-stats sheet: 1 to 12, as that program takes it."""
    least, most = OLDER_FRY
    if not least <= value <= most:
        raise InputError(_("--fry {value}: the fry threshold of a big-two-stats sheet is from "
                           "{least} to {most} (default 10)").format(value=value, least=least,
                                                                    most=most))
    return value


def _threshold(digits: str, origin: str, number: int) -> int:
    if len(digits) > len(str(MAX_FRY_THRESHOLD)) or int(digits) > MAX_FRY_THRESHOLD:
        raise _fail(origin, number, N_("fry threshold F={digits} is too large (at most {most})"),
                    digits=digits, most=MAX_FRY_THRESHOLD)
    value = int(digits)
    if value < MIN_FRY_THRESHOLD:
        raise _fail(origin, number, N_("fry threshold F={value} is below {least}"),
                    value=value, least=MIN_FRY_THRESHOLD)
    return value


def _names(words: list[str], origin: str, number: int, explain: str = EXPLAIN) -> tuple[str, ...]:
    bad = [w for w in words if "*" in w or w[0].isdigit()]
    if bad:
        raise _fail(origin, number, N_("{word!r} is not a player name (no *, no leading digit); "
                                       "{explain}"), explain, word=bad[0])
    seen: set[str] = set()
    for name in words:
        if name in seen:
            raise _fail(origin, number, N_("player {name!r} is named twice"), name=name)
        seen.add(name)
    return tuple(words)


def _numbers(words: list[str]) -> tuple[list[int], list[int]] | None:
    """(cards left, seats with `t`) if every word is a number of cards, else None."""
    cards: list[int] = []
    takes: list[int] = []
    for i, word in enumerate(words):
        if word[-1] == "t":
            word = word[:-1]
            takes.append(i)
        if not (word.isascii() and word.isdigit()):
            return None
        cards.append(int(word) if len(word) <= 3 else 10**3)
    return cards, takes


def _game(cards: list[int], takes: list[int], names: tuple[str, ...], origin: str, number: int
          ) -> tuple[tuple[int, ...], int | None]:
    if not takes and max(cards) <= HAND and cards.count(0) == 1:
        return tuple(cards), None
    for name, count in zip(names, cards, strict=True):
        if count > HAND:
            if count >= 10**3:
                raise _fail(origin, number, N_("{name} has so many cards left: a hand holds at "
                                               "most {most}"), name=name, most=HAND)
            raise _fail(origin, number, N_("{name} has {count} cards left: a hand holds at most "
                                           "{most}"), name=name, count=count, most=HAND)
    if cards.count(0) != 1:
        winners = [n for n, c in zip(names, cards, strict=True) if c == 0]
        if not winners:
            raise _fail(origin, number, N_("a game has exactly one winner (cards left 0); "
                                           "nobody has 0 cards"))
        raise _fail(origin, number, N_("a game has exactly one winner (cards left 0); {names} "
                                       "all have 0 cards"), names=_(" and ").join(winners))
    if len(takes) > 1:
        raise _fail(origin, number, N_("`t` (takes on all losses) is on {count} players; at most "
                                       "one"), count=len(takes))
    return tuple(cards), (takes[0] if takes else None)


def read_sheet(lines: Iterable[str], origin: str = "sheet", dialect: str = SCORER,
               fry: int = DEFAULT_FRY_THRESHOLD) -> Iterator[SheetGame]:
    """The games of a sheet, in order, each with its session; streams the lines.

    ``dialect`` :data:`STATS` reads the older format, whose threshold is ``fry``.

    >>> [g.session.date for g in read_sheet(["20190918", "a b c d", "0 1 2 3"], dialect=STATS)]
    ['2019-09-18']
    """
    older = dialect == STATS
    explain = EXPLAIN_OLDER if older else EXPLAIN
    date: str | None = None
    threshold = fry
    names: tuple[str, ...] | None = None
    names_line = 0
    session: SheetSession | None = None  # the current run, made at its first game
    runs: dict[str | None, int] = {}
    position = 0
    for number, raw in enumerate(lines, 1):
        words = (raw.split("#", 1)[0] if "#" in raw else raw).split()
        if not words:
            continue
        if (len(words) == PLAYERS and session is not None and len(raw) < 100 and raw.isascii()
                and "".join(words).isdigit()):
            # The common line, fast: four plain numbers in a session that is under way.
            cards = tuple(map(int, words))
            if cards.count(0) == 1 and max(cards) <= HAND:
                position += 1
                yield SheetGame(session, position, number, cards, None)
                continue
        if older and len(words) == 1 and words[0].isascii() and words[0].isdigit():
            new_date = _yyyymmdd(words[0], origin, number)
            if new_date != date:
                date, session = new_date, None
            continue
        if not older and len(words) == 1 and _DATE.fullmatch(words[0]):
            new_date = _date(words[0], origin, number)
            if new_date != date:
                date, session = new_date, None
            continue
        if not older and len(words) == 1 and (m := _THRESHOLD.fullmatch(words[0])):
            new_threshold = _threshold(m.group(1), origin, number)
            if new_threshold != threshold:
                threshold, session = new_threshold, None
            continue
        numbers: tuple[list[int], list[int]] | None
        if not words[0][0].isdigit():
            numbers = None
        elif len(words) == PLAYERS and len(raw) < 100 and raw.isascii() and "".join(words).isdigit():
            numbers = list(map(int, words)), []  # the common line: four plain numbers
        else:
            numbers = _numbers(words)
        if numbers is not None:
            if len(words) != PLAYERS:
                raise _fail(origin, number, N_("a game needs {players} numbers of cards left "
                                               "(one per player), not {count}"),
                            players=PLAYERS, count=len(words))
            if names is None:
                raise _fail(origin, number, N_("a game before any line of player names"))
            cards, takes = _game(*numbers, names, origin, number)
            if session is None:
                run = runs.get(date, 0)
                runs[date] = run + 1
                session = SheetSession(date, threshold, names, run, names_line)
                position = 0
            position += 1
            yield SheetGame(session, position, number, cards, takes)
            continue
        if words[0][0].isdigit() or any("=" in w for w in words):
            raise _fail(origin, number, N_("cannot read {line!r}: {explain}"), explain,
                        line=" ".join(words))
        if len(words) != PLAYERS:
            raise _fail(origin, number, N_("a line of names needs {players} players, not {count} "
                                           "({line})"),
                        players=PLAYERS, count=len(words), line=" ".join(words))

        new_names = _names(words, origin, number, explain)
        if new_names != names:
            names, names_line, session = new_names, number, None
