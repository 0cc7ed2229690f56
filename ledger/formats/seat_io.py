"""Seat entries in an export (``bigtwo seat …``, ledger/core/lineup.py): read and checked.

A seat entry is one of a session's own actions, with its facts
(``{"uuid", "kind": "seat", "facts": {"action": "join", "player": "Eve"}, "at", "undoes"}``);
its undo a ``seat`` entry ``{"action": "undo"}`` naming it.  A deal that records who
played it (``players``) names players of the session: its seats, or one a seat entry of
the file has join.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

from ledger.book.seats import check_seat
from ledger.core.errors import InputError
from ledger.core.i18n import N_, _
from ledger.core.lineup import check_facts
from ledger.formats.json_reader import at
from ledger.formats.merge import EntrySpec


def _want(cond: bool, where: str, problem: str, **values: Any) -> None:
    if not cond:
        raise InputError(at(where, _(problem).format(**values)))


def seat_entry(e: dict[str, Any], where: str, uuid_of: Callable[[object, str], str],
               time_of: Callable[[object, str], str | None]) -> EntrySpec:
    """A seat entry as the file gives it, its facts checked for shape (its uuids and time
    read by the export's own readers, ``uuid_of`` and ``time_of``)."""
    uuid, time = uuid_of(e["uuid"], f"{where}.uuid"), time_of(e.get("at"), f"{where}.at")
    undoes = None if e.get("undoes") is None else uuid_of(e["undoes"], f"{where}.undoes")
    _want(e.get("deal") is None, where, N_("a session's {kind} entry has no deal"), kind="seat")
    try:
        facts = check_facts(e.get("facts"))
    except InputError as exc:
        raise InputError(at(where, str(exc))) from None
    _want((facts["action"] == "undo") == (undoes is not None), where,
          N_("a seat entry undoes an entry (undoes) exactly when its action is undo"))
    return EntrySpec(uuid, "seat", 0, facts, time, where, undoes=undoes)


def session_members(seats: Sequence[str], actions: Iterable[EntrySpec]) -> set[str]:
    """The players of a session in a file: its seats and each player a seat entry joins;
    every seat entry is checked to name only them."""
    actions = [a for a in actions if a.kind == "seat" and a.facts]
    members = set(seats) | {str(a.facts["player"]) for a in actions
                            if a.facts and a.facts.get("action") == "join"}
    for a in actions:
        if a.facts and a.facts.get("action") != "undo":
            try:
                check_seat(a.facts, tuple(seats), members)
            except InputError as exc:
                raise InputError(at(a.where, str(exc))) from None
    return members


def deal_players(e: EntrySpec, members: set[str] | None, seats: Sequence[str]) -> tuple[str, ...]:
    """Who played deal entry ``e`` (its ``players``), each a player of the session
    (``members``; None: a restore, whose entries come one by one in the order written)."""
    own = (e.facts or {}).get("players")
    _want(isinstance(own, list) and all(isinstance(n, str) for n in own), e.where,
          N_("players must be a list of names"))
    assert isinstance(own, list)
    strangers = [] if members is None else [n for n in own if n not in members]
    _want(not strangers, e.where, N_("{name!r} is no player of the session; players: {players}"),
          name=strangers[0] if strangers else "", players=", ".join(seats))
    return tuple(own)
