"""``undo``: take back the last action on a session, and say beforehand what it would be.

The actions form a stack in the one order of entries (by ``created_at``, then
``uuid``: :mod:`ledger.storage.history`): the session's start at the bottom, then each
deal, amend, void, end and reopen.  An undo takes back the top one by writing a new
entry that names it (``undoes``), and so leaves the stack; the entry it took back is
off the stack too, so the next undo walks further back:

- a deal is taken back by a void, an amend or a void by an amend that brings back the
  version before (or a void, when there was none);
- an end by a ``reopen``, a reopen by an ``end``;
- the start of a session with no deal entry by an ``undo`` entry: the session is then
  no session of the ledger any more (it stays in the file, as everything recorded).

Nothing is updated or deleted.  End a session, void a deal, undo, undo: the first undo
brings the deal back, the second reopens the session.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from ledger.book import keys
from ledger.book.writes import (
    CURRENT_KEY,
    Recorded,
    points_rows,
    rebuilt,
    reversal,
    score,
)
from ledger.core.errors import Conflict
from ledger.core.i18n import _
from ledger.core.lineup import seat_text
from ledger.core.scoring import Deal
from ledger.storage.rows import EntryRow, SessionRow
from ledger.storage.store import Ledger

# What an undo says it took back, by the kind of the entry taken back (a seat entry
# says its own words: "seat join 陳大文").
ACTIONS = {"deal": "deal", "amend": "amend", "void": "void", "end": "session end",
           "reopen": "session reopen", "start": "session start"}


def action_of(entry: EntryRow) -> str:
    """What undoing ``entry`` takes back, as the undo's prompt and answer say it."""
    if entry.kind == "seat":
        return seat_text(entry.facts or {})
    return ACTIONS[entry.kind]
# The kind of the entry an undo writes for a session's own action.
TAKEN_BACK_BY = {"end": "reopen", "reopen": "end", "start": "undo"}


class Undone(NamedTuple):
    """What one ``undo`` took back.

    ``action`` is ``deal``, ``amend``, ``void``, ``session end``, ``session reopen`` or
    ``session start``.  For the deal actions, ``facts`` are what the undone entry had
    written (None for a void), ``restored`` the facts deal ``deal_no`` has again (None: it
    does not count now) and ``recorded`` the correction entry the undo wrote.
    ``session`` is the session as it was before the undo; ``current`` the current
    session after undoing a session start (None if there is none); ``entry`` the entry
    the undo wrote."""

    action: str
    session: SessionRow
    deal_no: int | None = None
    facts: dict[str, object] | None = None
    restored: dict[str, object] | None = None
    recorded: Recorded | None = None
    current: SessionRow | None = None
    entry: EntryRow | None = None


class UndoPreview(NamedTuple):
    """What ``undo`` would take back now (the phone asks before it undoes).

    ``action`` as :class:`Undone` says it; ``target`` the uuid of the entry it would take
    back and ``at`` when that was written; for a deal action ``deal_no``, ``facts`` (what
    the entry wrote) and ``restored`` (the facts the deal would have again; None: it
    would not count)."""

    action: str
    session_id: int
    target: str
    at: str
    deal_no: int | None = None
    facts: dict[str, Any] | None = None
    restored: dict[str, Any] | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"action": self.action, "session": self.session_id, "target": self.target,
                "at": self.at, "deal": self.deal_no, "facts": self.facts,
                "restored": self.restored}


def _plan(ledger: Ledger, s: SessionRow, session_start: bool
          ) -> tuple[UndoPreview, EntryRow] | Conflict:
    """What undo would take back and the entry it is; or why there is nothing."""
    target = ledger.journal.undo_target(s.id)
    if target is None or (target.kind == "start" and ledger.journal.next_deal_no(s.id) > 1):
        return Conflict(_("nothing left to undo in session {id}: every deal and correction in it "
                          "is undone already").format(id=s.id), advice=_("see: bigtwo log"))
    if target.kind == "start" and not session_start:
        return Conflict(_("nothing to undo: session {id} has no deals yet").format(id=s.id))
    restored = None
    if target.is_deal:
        before = ledger.journal.version_before(target)
        restored = None if before is None else before.facts
    preview = UndoPreview(action_of(target), s.id, target.uuid, target.created_at,
                          target.deal_no if target.is_deal else None,
                          None if target.kind == "seat" else target.facts, restored)
    return preview, target


def undo_preview(ledger: Ledger, session: SessionRow, *, session_start: bool = True
                 ) -> UndoPreview | None:
    """What :func:`undo` would take back now (None: nothing; ``session_start`` False
    as the phone page, which never takes back a session's start)."""
    plan = _plan(ledger, ledger.journal.session(session.id), session_start)
    return None if isinstance(plan, Conflict) else plan[0]


def next_undo_at(ledger: Ledger, session_id: int) -> str:
    """When the action undo would take back in this session was written ("" when
    none), so that ``undo`` can tell whether a player rename or merge came after it."""
    target = ledger.journal.undo_target(session_id)
    return "" if target is None else target.created_at


def undo(ledger: Ledger, session: SessionRow, *, session_start: bool = True,
         entry_uuid: str | None = None) -> Undone:
    """Take back the last action on ``session`` that is not undone yet (see the module).
    ``entry_uuid`` is the uuid of the entry the undo writes: a repeat writes nothing
    and returns what that undo took back."""
    entry_uuid = keys.checked(entry_uuid)
    with ledger.writing():  # found and written under one lock
        if entry_uuid is not None:
            again = _repeated(ledger, entry_uuid, session)
            if again is not None:
                return again
        s = ledger.journal.session(session.id)  # fresh: another terminal may have acted
        plan = _plan(ledger, s, session_start)
        if isinstance(plan, Conflict):
            raise plan
        preview, target = plan
        if target.kind == "seat":
            entry = ledger.journal.add_seat(s.id, {"action": "undo"}, entry_uuid=entry_uuid,
                                            undoes=target.uuid)
            return Undone(preview.action, s, entry=entry)
        if not target.is_deal:
            entry = ledger.journal.add_action(s.id, TAKEN_BACK_BY[target.kind],
                                              entry_uuid=entry_uuid, undoes=target.uuid)
            if target.kind != "start":
                return Undone(preview.action, s, entry=entry)
            return Undone(preview.action, s, current=_choose_current(ledger, s), entry=entry)
        before = preview.restored
        live = ledger.journal.current_version(s.id, target.deal_no)
        rows = [] if live is None or live.kind == "void" else reversal(ledger, live)
        result = None
        if before is not None:
            result = score(s, Deal.from_dict(before))
            rows += points_rows(s.seats, result)
        written = ledger.journal.add_entry(
            s.id, "void" if before is None else "amend", target.deal_no, before, rows,
            entry_uuid=entry_uuid, undoes=target.uuid)
    return Undone(target.kind, s, target.deal_no, target.facts, before,
                  Recorded(written, result), entry=written)


def _choose_current(ledger: Ledger, s: SessionRow) -> SessionRow | None:
    """After a start is undone: the open session started last is current (or none)."""
    current = ledger.journal.latest_open_session()
    if current is None:
        ledger.journal.clear_setting(CURRENT_KEY)
        return None
    ledger.journal.set_setting(CURRENT_KEY, str(current))
    return ledger.journal.session(current)


def _repeated(ledger: Ledger, key: str, session: SessionRow) -> Undone | None:
    """What the undo that wrote entry ``key`` took back (None: the key is new)."""
    found = keys.entry_named(ledger, key)
    if found is None:
        return None
    target = None if found.undoes is None else ledger.journal.entry_by_uuid(found.undoes)
    if target is None or found.session_id != session.id:
        raise keys.reused(key, _("entry {kind} of session {id}").format(
            kind=found.kind, id=found.session_id))
    if target.kind == "seat":
        return Undone(action_of(target), session, entry=found)
    if not target.is_deal:
        return Undone(ACTIONS[target.kind], session, entry=found)
    return Undone(target.kind, session, target.deal_no, target.facts, found.facts,
                  rebuilt(session, found), entry=found)
