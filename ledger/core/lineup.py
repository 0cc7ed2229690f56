"""Seats that change during the evening: who is seated, in which order, and who sits out.

A session starts with its seats; each seat entry (``bigtwo seat join NAME``, ``leave``,
``sit-out``, ``back``, ``swap A B``, ``order A,B,C [--from-deal N]``) changes the line-up
from then on.  The line-up now is the start's seats with every seat entry that counts
applied in the one order of entries (:func:`replay`).  A deal records who played it, so
the line-up only gives the *default* players of the next deal (the seated players not
sitting out, in seat order) and who deals and leads.

:func:`apply` is strict (the gate refuses a change that does not fit the line-up now);
:func:`replay` is lenient: two devices that changed the seats while apart may send a
change that no longer fits (two leaves of one player), which then changes nothing.

>>> start = Lineup.starting(("Ann", "Ben", "Cat", "Dan"))
>>> after = replay(start, [{"action": "join", "player": "Eve", "out": True},
...                        {"action": "sit-out", "player": "Ann"},
...                        {"action": "back", "player": "Eve"}])
>>> after.order, after.playing
(('Ann', 'Ben', 'Cat', 'Dan', 'Eve'), ('Ben', 'Cat', 'Dan', 'Eve'))
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, Literal, NamedTuple, get_args

from ledger.core.errors import InputError
from ledger.core.i18n import _
from ledger.core.seating import MAX_SEATS, MIN_SEATS

SeatAction = Literal["join", "leave", "sit-out", "back", "swap", "order"]
SEAT_ACTIONS: tuple[str, ...] = get_args(SeatAction)


class Lineup(NamedTuple):
    """``order``: the seated players in seat order (the direction of play); ``out``: those
    of them sitting out; ``base``: the deal from which the current seat order counts
    (``order --from-deal N``), for who deals next when the deal rotates."""

    order: tuple[str, ...]
    out: frozenset[str] = frozenset()
    base: int = 1

    @classmethod
    def starting(cls, seats: Iterable[str]) -> Lineup:
        return cls(tuple(seats))

    @property
    def playing(self) -> tuple[str, ...]:
        """The default players of the next deal: seated, not sitting out, in seat order."""
        return tuple(n for n in self.order if n not in self.out)

    @property
    def sitting_out(self) -> tuple[str, ...]:
        return tuple(n for n in self.order if n in self.out)

    def to_dict(self) -> dict[str, Any]:
        return {"seated": list(self.order), "sitting_out": list(self.sitting_out),
                "playing": list(self.playing)}


def seat_text(facts: Mapping[str, Any]) -> str:
    """A seat entry as the command says it: ``seat join 陳大文``, ``seat swap Ann Ben``,
    ``seat order Ann,Ben,Cat --from-deal 3``."""
    action = facts.get("action")
    if action == "swap":
        return "seat swap " + " ".join(facts.get("players", ()))
    if action == "order":
        tail = f" --from-deal {facts['from_deal']}" if facts.get("from_deal") else ""
        return "seat order " + ",".join(facts.get("order", ())) + tail
    return f"seat {action} {facts.get('player', '')}".rstrip()


def _refuse(message: str, **values: Any) -> InputError:
    return InputError(message.format(**values))


def apply(lineup: Lineup, facts: Mapping[str, Any], fits: Callable[[int], bool] | None = None,
          next_deal: int | None = None) -> Lineup:
    """The line-up after one seat change, or :class:`InputError` saying why it does not fit.
    ``fits(n)``: whether the rules deal ``n`` players (a player comes back only when they
    do); ``next_deal``: the number of the next deal (``--from-deal`` may name no later)."""
    action = facts.get("action")
    order, out = list(lineup.order), set(lineup.out)
    seated = ", ".join(order)
    if action in ("join", "leave", "sit-out", "back"):
        name = str(facts.get("player", ""))
        if action == "join":
            if name in order:
                raise _refuse(_("{name} is seated already; seated: {seated}"), name=name, seated=seated)
            if len(order) >= MAX_SEATS:
                raise _refuse(_("the table seats {most} players at most; seated: {seated}"),
                              most=MAX_SEATS, seated=seated)
            order.append(name)
            if facts.get("out"):
                out.add(name)
            elif fits is not None and not fits(len(lineup.playing) + 1):
                raise _refuse(_("{count} players cannot be dealt under these rules; {name} joins "
                                "sitting out (seat join {name} --sit-out), or someone sits out first"),
                              count=len(lineup.playing) + 1, name=name)
        elif name not in order:
            raise _refuse(_("{name} is not seated; seated: {seated}"), name=name, seated=seated)
        elif action == "leave":
            staying = [n for n in order if n not in out and n != name]
            if len(order) - 1 < MIN_SEATS or len(staying) < MIN_SEATS:
                raise _refuse(_("{name} cannot leave: {least} players must still play"),
                              name=name, least=MIN_SEATS)
            order.remove(name)
            out.discard(name)
        elif action == "sit-out":
            if name in out:
                raise _refuse(_("{name} is sitting out already"), name=name)
            if len(lineup.playing) - 1 < MIN_SEATS:
                raise _refuse(_("{name} cannot sit out: {least} players must still play"),
                              name=name, least=MIN_SEATS)
            out.add(name)
        else:  # back
            if name not in out:
                raise _refuse(_("{name} is not sitting out"), name=name)
            if fits is not None and not fits(len(lineup.playing) + 1):
                raise _refuse(_("{count} players cannot be dealt under these rules; someone sits "
                                "out before {name} comes back"), count=len(lineup.playing) + 1, name=name)
            out.discard(name)
        return lineup._replace(order=tuple(order), out=frozenset(out))
    if action == "swap":
        a, b = (str(n) for n in facts.get("players", ("", "")))
        for name in (a, b):
            if name not in order:
                raise _refuse(_("{name} is not seated; seated: {seated}"), name=name, seated=seated)
        if a == b:
            raise _refuse(_("seat swap needs two different players"))
        i, j = order.index(a), order.index(b)
        order[i], order[j] = b, a
        return lineup._replace(order=tuple(order))
    if action == "order":
        new = [str(n) for n in facts.get("order", ())]
        if sorted(new) != sorted(order):
            raise _refuse(_("seat order must name every seated player once: {seated}"), seated=seated)
        base = int(facts.get("from_deal") or lineup.base)
        if base < 1 or (next_deal is not None and base > next_deal):
            raise _refuse(_("--from-deal {deal}: give a deal from 1 to {last}"), deal=base,
                          last=next_deal if next_deal is not None else base)
        return lineup._replace(order=tuple(new), base=base)
    raise _refuse(_("unknown seat action {action!r}; one of: {actions}"), action=action,
                  actions=", ".join(SEAT_ACTIONS))


def rotate(lineup: Lineup, rule: str, played: Sequence[str], winner: str,
           losers: Sequence[str]) -> Lineup:
    """Who sits out the next deal under the house rule ``sit_out`` (``rule``), after a deal
    that ``played`` played: as many as sit out now, chosen among those who played it —
    the ``winner``, the ``losers`` (most cards), or ``in-turn`` the next in seat order
    after the last who sat it out (then the next in turn, when more sit out); those who
    sat it out play again.  ``none``, or nobody sitting out: the line-up as it is.

    >>> five = Lineup(("Ann", "Ben", "Cat", "Dan", "Eve"), frozenset({"Eve"}))
    >>> rotate(five, "in-turn", ("Ann", "Ben", "Cat", "Dan"), "Cat", ("Dan",)).sitting_out
    ('Ann',)
    >>> rotate(five, "winner", ("Ann", "Ben", "Cat", "Dan"), "Cat", ("Dan",)).playing
    ('Ann', 'Ben', 'Dan', 'Eve')
    """
    count = len(lineup.out)
    if rule == "none" or count == 0:
        return lineup
    seated = lineup.order
    sat_out = [n for n in seated if n not in played]
    start = seated.index(sat_out[-1]) + 1 if sat_out else 0
    ring = [seated[(start + i) % len(seated)] for i in range(len(seated))]
    first = [winner] if rule == "winner" else list(losers) if rule == "loser" else []
    chosen: list[str] = []
    for name in [*first, *ring]:
        if name in seated and name in played and name not in chosen and len(chosen) < count:
            chosen.append(name)
    return lineup._replace(out=frozenset(chosen))


def replay(start: Lineup, changes: Iterable[Mapping[str, Any]]) -> Lineup:
    """The line-up after ``changes`` in their order, each that does not fit left out."""
    lineup = start
    for facts in changes:
        try:
            lineup = apply(lineup, facts)
        except InputError:
            continue
    return lineup


def check_facts(facts: object) -> dict[str, Any]:
    """The facts of a seat entry as a file gives them, checked for shape (an import)."""
    if not isinstance(facts, dict):
        raise InputError(_("seat facts must be an object, not {value!r}").format(value=facts))
    action = facts.get("action")
    names: list[object]
    if action in ("join", "leave", "sit-out", "back"):
        names = [facts.get("player")]
    elif action == "swap":
        names = list(facts.get("players") or [])
        if len(names) != 2:
            raise InputError(_("seat swap names two players, not {value!r}").format(value=names))
    elif action == "order":
        names = list(facts.get("order") or [])
        deal = facts.get("from_deal")
        if deal is not None and (not isinstance(deal, int) or isinstance(deal, bool) or deal < 1):
            raise InputError(_("--from-deal {deal}: give a deal from 1").format(deal=deal))
    elif action == "undo":
        return {"action": "undo"}
    else:
        raise InputError(_("unknown seat action {action!r}; one of: {actions}").format(
            action=action, actions=", ".join(SEAT_ACTIONS)))
    if not names or not all(isinstance(n, str) and n for n in names):
        raise InputError(_("a seat entry names its players as text, not {value!r}").format(
            value=names))
    return dict(facts)
