"""A deal's facts by seat position instead of by name, so a file's deals can share one
score: "seat 1 went out, seat 3 held 11 cards" scores the same at every table with the
same rules and as many seats (scoring compares names only for equality and reads them
in seat order; it never reads a name's text).

Each stored fact is known here by what its value holds (``registry.STORED_FACTS``): a
mapping from seated names (cards, twos, bombs, typed hands), a seated name (assist,
shootout, immediate_by, leftovers), a word of the rules (finish, immediate), a flag, or
names in order.  A fact this module does not know, a name that is not seated, a value of
an unexpected JSON type, a word that is also a seated name, or a deal that says who played
it: no key (``None``), and the deal is scored on its own, as before.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Hashable, Mapping, Sequence
from typing import Any

# What each stored fact's value holds.
NAME_MAPS = frozenset({"cards", "twos", "bombs", "hands"})
NAME_TEXT = frozenset({"assist", "shootout", "immediate_by", "leftovers"})
WORD_TEXT = frozenset({"finish", "immediate"})
FLAGS = frozenset({"missed_call"})
NAME_LISTS = frozenset({"order"})
KNOWN = NAME_MAPS | NAME_TEXT | WORD_TEXT | FLAGS | NAME_LISTS  # "players": never keyed

SeatKey = tuple[tuple[str, Any], ...]


def seat_key(facts: Mapping[str, Any], seats: Sequence[str]) -> SeatKey | None:
    """``facts`` (as a file gives them) with every seated name replaced by its seat
    number, each value's JSON type kept (``1``, ``1.0`` and ``true`` are three keys);
    None where the facts cannot be keyed this way.  A mapping's items go in seat order:
    an export writes them sorted by name, and a scored deal does not depend on their
    order (only a refusal's wording does, and a refused deal is never shared)."""
    return _key(facts, {name: i for i, name in enumerate(seats)})


def _key(facts: Mapping[str, Any], seat: Mapping[str, int]) -> SeatKey | None:
    out: list[tuple[str, Any]] = []
    for key, value in facts.items():
        if key in NAME_MAPS:
            if type(value) is not dict:
                return None
            items = []
            for name, item in value.items():
                at = seat.get(name)
                if at is None or (type(item) is not int and type(item) is not str):
                    return None
                items.append((at, type(item) is int, item))
            out.append((key, tuple(sorted(items))))
        elif key in NAME_TEXT:
            if value is None:
                out.append((key, None))
            elif type(value) is str and value in seat:
                out.append((key, seat[value]))
            else:
                return None  # not a seated name: refused when scored, never shared
        elif key in WORD_TEXT:
            if value is not None and (type(value) is not str or value in seat):
                return None
            out.append((key, value))
        elif key in FLAGS:
            if type(value) is not bool:
                return None
            out.append((key, value))
        elif key in NAME_LISTS:
            if type(value) is not list or not all(type(n) is str and n in seat for n in value):
                return None
            out.append((key, tuple(seat[n] for n in value)))
        else:
            return None
    return tuple(out)


def _moved(facts: Mapping[str, Any], to: Callable[[Any], Any]) -> dict[str, Any]:
    """``facts`` in the ledger's own form (``Deal.to_dict``) with each name or seat
    number ``n`` replaced by ``to(n)``; the order of every mapping kept."""
    out: dict[str, Any] = {}
    for key, value in facts.items():
        if key in NAME_MAPS:
            out[key] = {to(n): item for n, item in value.items()}
        elif key in NAME_TEXT:
            out[key] = None if value is None else to(value)
        elif key in NAME_LISTS:
            out[key] = [to(n) for n in value]
        else:
            out[key] = value
    return out


def by_seat(facts: Mapping[str, Any], seats: Sequence[str]) -> dict[str, Any]:
    """Scored facts (``Deal.to_dict``, no ``players``) with seat numbers for names."""
    seat = {name: i for i, name in enumerate(seats)}
    return _moved(facts, seat.__getitem__)


def by_name(facts: Mapping[str, Any], seats: Sequence[str]) -> dict[str, Any]:
    """What :func:`by_seat` gave, with the names of ``seats`` again."""
    return _moved(facts, seats.__getitem__)


# A scored deal by seat: its facts (``by_seat``) and its points rows, each row's player
# (first) and payee (last) a seat number: (seat, deals, wins, fried, cards, penalty, net,
# payee seat or None), as the import's points rows are with names.
Rows = list[tuple[Any, ...]]
# And, for a deal whose facts say only each seat's cards (most deals), those counts in
# seat order, from which its stored text is made without encoding it again.
Scored = tuple[dict[str, Any], Rows, "list[int] | None"]


class SharedScores:
    """The scores of one file's deals by seat, as a score sheet's import shares a line's
    score: a deal keyed like one scored before, under equal rules, as many seats and the
    same teams setting, takes that score with its own names instead of being scored
    again.  Only a deal that scored is kept, so a refused one is refused with its own
    message every time.  At most ``most`` scores are kept, whatever the file (about
    1.5 KB each: a 200,000-deal export keeps 31,317, 47 MB; a crafted file of deals all
    unlike costs at most ~150 MB, and its deals past that are scored on their own)."""

    def __init__(self, most: int = 100_000) -> None:
        self._rules: dict[Hashable, int] = {}
        self._tables: dict[tuple[int, bool, int], dict[SeatKey, Scored]] = {}
        self.room = most

    def table(self, rules: Hashable, teams: bool, seats: Sequence[str]) -> SeatScores:
        """The scores a session of ``rules``, ``teams`` and ``seats`` (in seat order)
        shares with every other of equal rules, teams setting and as many seats."""
        number = self._rules.setdefault(rules, len(self._rules))
        return SeatScores(self, self._tables.setdefault((number, teams, len(seats)), {}), seats)


class SeatScores:
    """One table of :class:`SharedScores`, seen from one session's ``seats``."""

    def __init__(self, shared: SharedScores, scores: dict[SeatKey, Scored],
                 seats: Sequence[str]) -> None:
        self._shared, self._scores, self.seats = shared, scores, seats
        self._seat = {name: i for i, name in enumerate(seats)}
        self._quoted: list[tuple[str, int]] | None = None  # see cards_text

    def key(self, facts: Mapping[str, Any]) -> SeatKey | None:
        """:func:`seat_key` of ``facts`` at this session's seats."""
        return _key(facts, self._seat)

    def find(self, key: SeatKey) -> tuple[dict[str, Any], Rows, str | None] | None:
        """The facts and points rows kept for ``key``, with this session's names, and the
        facts' stored text when they say only each seat's cards (:meth:`cards_text`)."""
        found = self._scores.get(key)
        if found is None:
            return None
        seats = self.seats
        return by_name(found[0], seats), [
            (seats[row[0]], *row[1:-1], None if row[-1] is None else seats[row[-1]])
            for row in found[1]], None if found[2] is None else self.cards_text(found[2])

    def cards_text(self, counts: Sequence[int]) -> str:
        """``{"cards": {NAME: COUNT, …}}`` for each seat's count (seat order) as the
        ledger stores facts: ``json.dumps(facts, sort_keys=True, ensure_ascii=False)``,
        made from this session's names quoted once, in sorted order."""
        if self._quoted is None:
            order = sorted(range(len(self.seats)), key=self.seats.__getitem__)
            self._quoted = [(json.dumps(self.seats[i], ensure_ascii=False) + ": ", i)
                            for i in order]
        return '{"cards": {' + ", ".join(q + str(counts[i]) for q, i in self._quoted) + "}}"

    def keep(self, key: SeatKey, facts: Mapping[str, Any], rows: Sequence[tuple[Any, ...]]) -> None:
        """Keep a deal's scored ``facts`` and points ``rows`` (this session's names)."""
        if self._shared.room <= 0:
            return
        self._shared.room -= 1
        seat = self._seat
        cards = facts.get("cards")
        counts = None
        if (len(facts) == 1 and type(cards) is dict and len(cards) == len(seat)
                and all(type(c) is int for c in cards.values())):
            counts = [0] * len(seat)
            for name, c in cards.items():
                counts[seat[name]] = c
        self._scores[key] = (_moved(facts, seat.__getitem__), [
            (seat[row[0]], *row[1:-1], None if row[-1] is None else seat[row[-1]]) for row in rows],
            counts)
