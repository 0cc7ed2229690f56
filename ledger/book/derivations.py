"""A deal's points derived afresh, for the self-check, once per distinct deal.

A deal's points are a pure function of its session's frozen rule set, whether it plays
in teams, its seats in order and its facts: :func:`derive` is what ``book.record_deal``
stores.  A club's decade repeats itself: the same rules, four seats, the same few
thousand card counts.  So :class:`Derivations` keys each derivation by the stored rules
text, teams, the number of seats and the facts with every player named by the seat
they sit in (``{"cards": {"Ann": 0, "Ben": 3}}`` at seats Ann, Ben is the same deal as
``{"cards": {"Cat": 0, "Dan": 3}}`` at seats Cat, Dan), and derives a deal only the
first time its key comes up in a pass; the others are checked against that derivation,
its names put back.  What that relies on, and what ``doctor --full`` (every deal
derived on its own) does not: scoring reads the players' names only to tell the seats
apart (docs/reliability.md, "What the plain doctor proves").

Facts the key cannot read (an unknown fact, a value of an unexpected type, a name not
seated, seats that repeat a name) and facts that do not score are derived every time,
as ``--full`` does: their findings name the deal's own players.

>>> from ledger.core.rules import load_preset
>>> d, rules = Derivations(), load_preset("classic")
>>> a = d.derive(rules, ("Ann", "Ben"), False, '{"cards": {"Ann": 0, "Ben": 3}}')
>>> b = d.derive(rules, ("Cat", "Dan"), False, '{"cards": {"Dan": 3, "Cat": 0}}')
>>> a[("Ben", None)], b[("Dan", None)], d.derived, d.proven
((1, 0, 0, 3, 3, -3), (1, 0, 0, 3, 3, -3), 1, 1)
"""

from __future__ import annotations

import json
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from itertools import chain
from typing import Any

from ledger.core.rules import RuleSet, rules_from_dict
from ledger.core.scoring import Deal, score_deal
from ledger.storage.rows import PointsRow
from ledger.storage.schema import POINT_COLUMNS

Key = tuple[str, str | None]  # (player, payee)
Sums = dict[Key, tuple[int, ...]]  # the POINT_COLUMNS, summed
# A derivation with the players as seat numbers, flat (a memo of tens of thousands stays
# small): seat, payee seat or -1, the POINT_COLUMNS; then the next row's.
BySeat = tuple[int, ...]
WIDTH = 2 + 6

# How each of a deal's facts names players (the fields of ledger.core.scoring.Deal):
# a mapping from player to a count or to text, one player, players in order, or none.
# A fact not listed here keeps its deal out of the memo (derived every time).
COUNTS, TEXTS, PLAYER, PLAYERS, CHOICE, FLAG = "counts", "texts", "player", "players", "choice", "flag"
FACT_SHAPES = {
    "cards": COUNTS, "twos": COUNTS, "bombs": COUNTS, "hands": TEXTS,
    "assist": PLAYER, "immediate_by": PLAYER, "shootout": PLAYER, "leftovers": PLAYER, "order": PLAYERS,
    "finish": CHOICE, "immediate": CHOICE, "missed_call": FLAG,
}
LIMIT = 65_536  # derivations kept at once (~400 bytes each): flat memory at any size


def sums(rows: Iterable[PointsRow]) -> Sums:
    """Points rows added up per (player, payee); rows that cancel out are left off."""
    out: dict[Key, list[int]] = {}
    for p in rows:
        key = (p.player, p.payee)
        acc = out.get(key)
        if acc is None:
            out[key] = [p.deals, p.wins, p.fried, p.cards, p.penalty, p.net]
        else:
            acc[0] += p.deals
            acc[1] += p.wins
            acc[2] += p.fried
            acc[3] += p.cards
            acc[4] += p.penalty
            acc[5] += p.net
    return {k: tuple(v) for k, v in out.items() if any(v)}


assert POINT_COLUMNS == ("deals", "wins", "fried", "cards", "penalty", "net"), "sums() spells them out"


def derive(rules: RuleSet, seats: Sequence[str], teams: bool, facts: Mapping[str, Any]) -> Sums:
    """A deal's points, derived afresh from its facts (what ``book.record_deal`` stores),
    over its own players where it names them (the seats changed: ``bigtwo seat``)."""
    from ledger.book.writes import points_rows

    seats = played_by(seats, facts)
    return sums(points_rows(seats, score_deal(rules, seats, Deal.from_dict(facts), teams)))


def played_by(seats: Sequence[str], facts: Mapping[str, Any] | str | None) -> Sequence[str]:
    """Who played a deal: its own ``players`` (its facts, or their stored JSON), or the
    session's seats."""
    if isinstance(facts, str):
        try:
            facts = json.loads(facts)
        except ValueError:
            return seats
    own = facts.get("players") if isinstance(facts, Mapping) else None
    return tuple(own) if isinstance(own, list) else seats


def facts_of(facts_json: str | None) -> dict[str, Any]:
    """Stored facts as a table (anything else raises, as a finding's error)."""
    from ledger.core.i18n import _

    facts = json.loads(facts_json) if facts_json is not None else None
    if not isinstance(facts, dict):
        raise ValueError(_("facts are {facts!r}, not a table of facts").format(facts=facts))
    return facts


def seat_key(facts: Mapping[str, Any], seat: Mapping[str, int]) -> Hashable | None:
    """The facts with each player as their seat number, or None when they do not read
    that way (see the module's docstring)."""
    if len(facts) == 1 and type(cards := facts.get("cards")) is dict:  # most deals say no more
        try:
            pairs = sorted((seat[name], c) for name, c in cards.items())
        except KeyError:  # a name not seated
            return None
        if all(type(c) is int for _i, c in pairs):
            return ("cards", *chain.from_iterable(pairs))
        return None
    out: list[tuple[str, Any]] = []
    for fact, value in facts.items():
        shape = FACT_SHAPES.get(fact)
        if shape in (COUNTS, TEXTS):
            if type(value) is not dict:
                return None
            kind = int if shape == COUNTS else str
            pairs = []
            for name, v in value.items():
                if name not in seat or type(v) is not kind:
                    return None
                pairs.append((seat[name], v))
            out.append((fact, tuple(sorted(pairs))))
        elif shape == PLAYER:
            if value is not None and (type(value) is not str or value not in seat):
                return None
            out.append((fact, None if value is None else seat[value]))
        elif shape == PLAYERS:
            if type(value) is not list or any(type(n) is not str or n not in seat for n in value):
                return None
            out.append((fact, tuple(seat[n] for n in value)))
        elif shape == CHOICE:
            if value is not None and type(value) is not str:
                return None
            out.append((fact, value))
        elif shape == FLAG:
            if type(value) is not bool:
                return None
            out.append((fact, value))
        else:
            return None
    return tuple(sorted(out))


class Derivations:
    """Derivations of one pass of the self-check, shared across its sessions (a
    bounded memo: see the module's docstring).  ``derived`` counts the deals scored,
    ``proven`` those checked against an earlier derivation of the same deal."""

    def __init__(self, limit: int = LIMIT) -> None:
        self.limit = limit
        self.memo: dict[Hashable, BySeat] = {}
        self.rule_sets: dict[str, RuleSet] = {}
        self.derived = 0
        self.proven = 0

    def rules(self, rules_json: str) -> RuleSet:
        """A session's frozen rule set from its stored text (read once a pass per text; a
        rule set is never changed once built); raises what reading it raises."""
        known = self.rule_sets.get(rules_json)
        if known is None:
            if len(self.rule_sets) >= self.limit:
                self.rule_sets.clear()
            known = self.rule_sets[rules_json] = rules_from_dict(json.loads(rules_json))
        return known

    def derive(self, rules: RuleSet, seats: Sequence[str], teams: bool, facts_json: str | None,
               rules_json: str = "") -> Sums:
        """The deal's points; raises what deriving it raises."""
        return self.bind(rules, seats, teams, rules_json or rules.to_json())(facts_json)

    def bind(self, rules: RuleSet, seats: Sequence[str], teams: bool,
             rules_json: str) -> Callable[[str | None], Sums]:
        """:meth:`derive` for the deals of one session (what they share worked out once)."""
        seat = {name: i for i, name in enumerate(seats)}
        usable = len(seat) == len(seats)
        players, named = tuple(seats), (*seats, None)  # a seat number back to its player; -1: no payee
        prefix = (rules_json, teams, len(seats))
        memo, loads = self.memo, json.loads

        def one(facts_json: str | None) -> Sums:
            facts = loads(facts_json) if facts_json is not None else None
            if type(facts) is not dict:
                facts = facts_of(facts_json)  # raises: not a table of facts
            key = None
            if usable:
                by_seat = seat_key(facts, seat)
                if by_seat is not None:
                    key = (prefix, by_seat)
                    known = memo.get(key)
                    if known is not None:
                        self.proven += 1
                        return {(players[known[x]], named[known[x + 1]]): known[x + 2:x + WIDTH]
                                for x in range(0, len(known), WIDTH)}
            out = derive(rules, seats, teams, facts)
            self.derived += 1
            if key is not None:
                if len(memo) >= self.limit:
                    memo.clear()
                memo[key] = tuple(chain.from_iterable(
                    (seat[p], -1 if q is None else seat[q], *v) for (p, q), v in out.items()))
            return out

        return one
