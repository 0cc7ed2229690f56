"""Seats that change during the evening: ``bigtwo seat join|leave|sit-out|back|swap|order``.

Each change is one ``seat`` entry of the session (append-only, with the uuid made where
it was asked, so a retry writes once), checked here against the line-up now
(:mod:`ledger.core.lineup`) and taken back by ``undo`` like any entry.  The line-up
gives the default players of the next deal and who deals and leads; a deal records
who played it (:func:`ledger.book.writes.deal_players`), so settlement counts each pair
over the deals both played (:mod:`ledger.book.reports`).
"""

from __future__ import annotations

from typing import Any, NamedTuple

from ledger.book import keys
from ledger.book.lineups import lineup
from ledger.book.writes import session_rules
from ledger.core.deal_line import match_player
from ledger.core.errors import Conflict, InputError
from ledger.core.i18n import _
from ledger.core.lineup import Lineup, apply, check_facts, seat_text
from ledger.core.seating import check_table
from ledger.storage.rows import EntryRow, SessionRow
from ledger.storage.store import Ledger


class SeatChange(NamedTuple):
    """One seat change written: its entry, and the line-up before and after."""

    session: SessionRow
    entry: EntryRow
    before: Lineup
    after: Lineup

    @property
    def text(self) -> str:
        return seat_text(self.entry.facts or {})

    def to_dict(self) -> dict[str, Any]:
        return {"session": self.session.id, "entry": self.entry.uuid, "action": self.text,
                "facts": self.entry.facts, "lineup": self.after.to_dict()}


def _fits(session: SessionRow) -> Any:
    rules = session_rules(session)

    def fits(count: int) -> bool:
        try:
            check_table(rules, count)
        except InputError:
            return False
        return True

    return fits


def _facts(ledger: Ledger, session: SessionRow, now: Lineup, action: str, names: list[str],
           out: bool, from_deal: int | None) -> dict[str, Any]:
    """The entry's facts, each name matched to a seated player (a newcomer for a join)."""
    if action == "join":
        from ledger.book.actions import check_player_names, refuse_look_alike

        (name,) = check_player_names(names)
        known = ledger.find_player(name)
        name = known if known is not None else name
        refuse_look_alike(name, now.order)
        facts: dict[str, Any] = {"action": "join", "player": name}
        if out:
            facts["out"] = True
        return facts
    seated = list(now.order)
    matched = [match_player(n, seated, _("seat {action}").format(action=action)) for n in names]
    if action == "swap":
        return {"action": "swap", "players": matched}
    if action == "order":
        facts = {"action": "order", "order": matched}
        if from_deal is not None:
            facts["from_deal"] = from_deal
        return facts
    return {"action": action, "player": matched[0]}


def seat_change(ledger: Ledger, session: SessionRow, action: str, names: list[str], *,
                out: bool = False, from_deal: int | None = None,
                entry_uuid: str | None = None) -> SeatChange:
    """Write one seat change of ``session`` (see the module); a repeat of ``entry_uuid``
    writes nothing and returns the change written then."""
    entry_uuid = keys.checked(entry_uuid)
    with ledger.writing():
        s = ledger.journal.session(session.id)
        if entry_uuid is not None:
            found = keys.entry_named(ledger, entry_uuid)
            if found is not None:
                if found.session_id != s.id or found.kind != "seat" or found.undoes is not None:
                    raise keys.reused(entry_uuid, _("entry {kind} of session {id}").format(
                        kind=found.kind, id=found.session_id))
                now = lineup(ledger, s)
                return SeatChange(s, found, now, now)
        check_seat_session(s)
        before = lineup(ledger, s)
        facts = _facts(ledger, s, before, action, names, out, from_deal)
        after = apply(before, facts, _fits(s), ledger.journal.next_deal_no(s.id))
        if action == "join" and ledger.find_player(facts["player"]) is None:
            ledger.player_id(facts["player"], create=True)
        entry = ledger.journal.add_seat(s.id, facts, entry_uuid=entry_uuid)
    return SeatChange(ledger.journal.session(s.id), entry, before, after)


def check_seat_session(session: SessionRow) -> None:
    """A seat change is for an open session that is not played in teams."""
    if session.ended_at is not None:
        raise Conflict(_("session {id} has ended; reopen it (bigtwo session reopen) to change "
                         "its seats").format(id=session.id))
    if session.teams:
        raise InputError(_("session {id} is played in two teams of two; its seats stay as they "
                           "started").format(id=session.id))


def check_seat(facts: object, members: tuple[str, ...], joined: set[str]) -> dict[str, Any]:
    """A seat entry that enters by an import or a sync: its facts well formed, and every
    player it names a player of the session (its seats, or one a join names)."""
    checked = check_facts(facts)
    named = [checked.get("player"), *(checked.get("players") or []), *(checked.get("order") or [])]
    for name in named:
        if name is not None and name not in members and name not in joined:
            raise InputError(_("{name!r} is no player of the session; players: {players}").format(
                name=name, players=", ".join(members)))
    return checked
