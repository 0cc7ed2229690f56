"""One session of an import merged into the ledger, entry by entry, by uuid.

:class:`ledger.formats.merge.Importer` runs the import (batches, savepoints, the report);
a :class:`SessionMerge` compares and writes one session's entries: an entry already
in the ledger is skipped when it says the same and is a conflict when it does not; a new
deal entry gets the points it changes (the reversal of the deal's live version, plus its
own facts' points), a session's own action (end, reopen, undo) is appended as it is.
Deal numbers are each ledger's own: a new deal whose number the ledger already gives
another deal (two devices recorded the session while apart) takes the next free number,
and a correction finds its deal by that deal's uuid (``deal_uuid`` in the export).
A correction older, in the one order, than the deal's version here (both devices
corrected the deal) is kept with no points: the latest correction stands everywhere.
Corrections must come after what the ledger already holds for their deal, in the one
order of entries (``created_at``, then ``uuid``), so the points added up in the order
they were written always equal the deal's current version in that order.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

from ledger.book.undo import TAKEN_BACK_BY
from ledger.core.deal_line import facts_text
from ledger.core.i18n import N_
from ledger.core.phrase import Phrase
from ledger.core.times import just_after
from ledger.formats.conflicts import Conflict
from ledger.storage.raw_rows import ImportedEntry, StoredEntry
from ledger.storage.rows import PointsTuple
from ledger.storage.schema import DEAL_KINDS

if TYPE_CHECKING:
    from ledger.formats.merge import EntrySpec, SessionSpec
    from ledger.storage.store import Ledger


def point_tuples_now(ledger: Ledger, sid: int, deal_no: int) -> list[PointsTuple]:
    return [(p.player, p.deals, p.wins, p.fried, p.cards, p.penalty, p.net, p.payee)
            for p in ledger.journal.deal_points(sid, deal_no)]


def _negated(rows: Sequence[PointsTuple]) -> list[PointsTuple]:
    return [(player, -d, -w, -f, -c, -p, -n, payee) for player, d, w, f, c, p, n, payee in rows]


def facts_phrase(facts: dict[str, Any] | None) -> str:
    return Phrase(N_("(none)")) if facts is None else facts_text(facts)


class Target(NamedTuple):
    """An entry as an undo of it is checked: its session's id, kind, deal number (0 for a
    session's own action) and, for a seat change, its action."""

    session_id: int
    kind: str
    deal_no: int
    action: str | None


def takes_back(kind: str, action: str | None, target_kind: str, target_action: str | None) -> bool:
    """Whether an entry of ``kind`` may take back one of ``target_kind``, as ``bigtwo
    undo`` writes them (ledger/book/undo.py): a deal's entry by a correction, a session's
    action by ``TAKEN_BACK_BY``, a seat change by the undo of one."""
    if target_kind in DEAL_KINDS:
        return kind in ("amend", "void")
    return (TAKEN_BACK_BY.get(target_kind) == kind
            or (target_kind == kind == "seat" and target_action != "undo" and action == "undo"))


class SessionMerge:
    """The entries of one imported session against the ledger's session ``sid``."""

    def __init__(self, ledger: Ledger, sid: int, deal_nos: set[int],
                 conflicts: list[Conflict], new: bool = False,
                 written: dict[str, Target] | None = None,
                 started: SessionSpec | None = None) -> None:
        """``new``: the session was added by this import, so the ledger holds no deal of
        it but what this merge wrote (its deals' versions and points are not looked up).
        ``written``: the ledger held no entry before this import, and these are the entries
        it wrote in the sessions before this one: an undo's target is looked up there
        (the index of uuids may be built only at the import's end).  ``started``: the
        session this import just added, whose start entry is then one of its own."""
        self.ledger = ledger
        self.written = written
        self.new = new
        self.sid = sid
        self.deal_nos = deal_nos
        self.conflicts = conflicts
        self.live: dict[int, Sequence[PointsTuple] | None] = {}
        # The entries this import wrote (or will) in the session, by uuid: what an undo of
        # one of them checks (Target).
        self.mine: dict[str, Target] = {}
        if started is not None:
            from ledger.storage.upgrade import action_uuid

            start = started.start_uuid or action_uuid(started.uuid, "start")
            self.mine[start] = Target(sid, "start", 0, None)
        self.undone: set[str] = set()  # the uuids its undos took back
        # The file's deal numbers as this ledger numbers those deals (by their "deal"
        # entries: those already here, and those this import writes).
        self.numbers: dict[int, int] = {}
        self.deal_of: dict[str, int] = {}  # a "deal" entry's uuid: its number here
        self.renumbered: list[tuple[str, int, int]] = []  # (uuid, the file's number, here)
        self.versions: dict[int, tuple[str, str] | None] = {}  # deal: its version's order key
        self.latest: str | None = None  # the time of the session's latest entry, once read

    def target(self, e: EntrySpec) -> int:
        """The number here of the deal that the correction ``e`` is about: by its deal's
        uuid where the file names it, else by the file's number (mapped where this
        import found that deal under another number)."""
        if e.deal_uuid is not None:
            if e.deal_uuid in self.deal_of:
                return self.deal_of[e.deal_uuid]
            found = self.ledger.journal.entry_by_uuid(e.deal_uuid)
            if found is not None and found.session_id == self.sid and found.deal_no:
                return found.deal_no
        return self.numbers.get(e.deal_no, e.deal_no)

    def known_deal(self, old_deal_no: int | None, e: EntrySpec) -> None:
        """``e``, a deal entry already here (maybe under another number): map its number."""
        if e.kind == "deal" and old_deal_no:
            self.numbers[e.deal_no] = old_deal_no
            self.deal_of[e.uuid] = old_deal_no

    def conflict(self, e: EntrySpec, message: str, **values: object) -> None:
        self.conflicts.append(Conflict(e.where, e.uuid, (Phrase(message, **values),)))

    def differences(self, old: StoredEntry, e: EntrySpec) -> list[str]:
        """What the ledger's entry of the same uuid says otherwise, as phrases."""
        session_id, kind, deal_no, text = old
        if text is not None and self.ledger.players.mark():  # stored as typed: names now
            from ledger.core.names import rename_facts
            from ledger.storage.codec import to_json

            shown = self.ledger.journal.renames(self.sid)
            if shown:
                text = to_json(rename_facts(json.loads(text), shown))
        if session_id != self.sid:
            return [Phrase(N_("this uuid is an entry of another session (id {id}) in the ledger"),
                           id=session_id)]
        out: list[str] = []
        if kind != e.kind:
            out.append(Phrase(N_("kind: ledger {ledger}, file {file}"), ledger=kind, file=e.kind))
        elif kind == "deal":  # a deal's number is each ledger's own: map it
            self.known_deal(deal_no, e)
        elif (deal_no or 0) != self.target(e):
            out.append(Phrase(N_("deal number: ledger {ledger}, file {file}"),
                              ledger=deal_no, file=e.deal_no))
        if text is None or text != e.facts_json:  # the same text is the same facts
            stored = None if text is None else json.loads(text)
            facts = e.fact_dict()
            if stored != facts:
                out.append(Phrase(N_("facts: ledger {ledger}, file {file}"),
                                  ledger=facts_phrase(stored), file=facts_phrase(facts)))
        return out

    def _version(self, deal_no: int) -> tuple[str, str] | None:
        """(created_at, uuid) of deal ``deal_no``'s version now (this import's included)."""
        if deal_no not in self.versions and self.new:
            return None
        if deal_no not in self.versions:
            latest = self.ledger.journal.current_version(self.sid, deal_no)
            self.versions[deal_no] = None if latest is None else (latest.created_at, latest.uuid)
        return self.versions[deal_no]

    def _live(self, deal_no: int) -> Sequence[PointsTuple]:
        """The points deal ``deal_no`` adds up to now (this import's own entries included)."""
        if deal_no not in self.live and self.new:
            return []
        if deal_no not in self.live:
            self.live[deal_no] = point_tuples_now(self.ledger, self.sid, deal_no)
        return self.live[deal_no] or []

    def _undoes_ok(self, e: EntrySpec) -> bool:
        """An undo's target is in the ledger (or this import) and not undone yet, and one
        it may take back: of its session, a kind its kind takes back (for a correction,
        of its own deal), as the doctor checks (``ledger/storage/inspection.py``)."""
        if e.undoes is None:
            return True
        target = self.mine.get(e.undoes) or self._target(e.undoes)
        if target is None:
            self.conflict(e, N_("it undoes entry {uuid}, which neither the file nor the ledger "
                                "has before it"), uuid=e.undoes)
            return False
        session, kind, deal_no, action = target
        if session != self.sid:
            self.conflict(e, N_("it undoes entry {target}, of session {session}: another "
                                "session's"), target=e.undoes, session=session)
            return False
        if not takes_back(e.kind, (e.facts or {}).get("action"), kind, action):
            self.conflict(e, N_("a {kind} entry cannot take back entry {target}, a {target_kind}"),
                          kind=e.kind, target=e.undoes, target_kind=kind)
            return False
        if kind in DEAL_KINDS and deal_no != e.deal_no:
            self.conflict(e, N_("it undoes entry {target}, of deal {target_deal}, not of its own "
                                "deal {deal}"), target=e.undoes, target_deal=deal_no, deal=e.deal_no)
            return False
        taken = self.ledger.conn.execute("SELECT uuid FROM entries WHERE undoes = ?",
                                         [e.undoes]).fetchone()
        if taken is not None or e.undoes in self.undone:
            self.conflict(e, N_("it undoes entry {uuid}, which another entry undid already"),
                          uuid=e.undoes)
            return False
        self.undone.add(e.undoes)
        return True

    def _target(self, uuid: str) -> Target | None:
        """An entry this import wrote in an earlier session, or one the ledger holds."""
        if self.written is not None:
            return self.written.get(uuid)
        row = self.ledger.journal.entry_by_uuid(uuid)
        return None if row is None else Target(
            row.session_id, row.kind, row.deal_no, (row.facts or {}).get("action"))

    def _mine(self, e: EntrySpec) -> None:
        self.mine[e.uuid] = Target(self.sid, e.kind, e.deal_no, (e.facts or {}).get("action"))

    def _timed(self, e: EntrySpec) -> EntrySpec:
        """``e`` with its time: an entry the file gives no ``at`` comes a microsecond after
        every entry before it (the session's in the ledger, its start at least, and this
        import's), so that the one order (``created_at``, then ``uuid``), which decides a
        deal's version, keeps the file's order, in which its points are added up."""
        if self.latest is None:
            self.latest = self.ledger.journal.latest_time(self.sid)
        if e.at is not None:
            return e
        try:
            at = None if self.latest is None else just_after(self.latest)
        except ValueError:  # a damaged time: the order then falls back on uuids
            at = None
        return e._replace(at=at or self.ledger.journal.next_time(self.sid))

    def _written(self, row: ImportedEntry) -> ImportedEntry:
        """``row``, which this import writes, counted as the session's latest when it is."""
        if row.created_at is not None and (self.latest is None or row.created_at > self.latest):
            self.latest = row.created_at
        return row

    def new_entry(self, e: EntrySpec) -> ImportedEntry | None:
        """The deal entry ``e`` as written (its points), or None and a conflict."""
        sid, deal_nos = self.sid, self.deal_nos
        e = self._timed(e)
        if e.kind == "deal":
            # Another deal holds its number here (two devices each recorded the session
            # while apart): it takes the next free number; nothing is lost or doubled.
            number = max(deal_nos) + 1 if e.deal_no in deal_nos else e.deal_no
            if number != e.deal_no:
                self.renumbered.append((e.uuid, e.deal_no, number))
            self.numbers[e.deal_no] = number
            self.deal_of[e.uuid] = number
            if number != e.deal_no:
                e = e._replace(deal_no=number)
        else:
            e = e._replace(deal_no=self.target(e))
        if e.kind != "deal" and e.deal_no not in deal_nos:
            self.conflict(e, N_("a void of deal {deal}, which the ledger's session {id} does not "
                                "have") if e.kind == "void" else
                          N_("an amend of deal {deal}, which the ledger's session {id} does not "
                             "have"), deal=e.deal_no, id=sid)
            return None
        # Two devices corrected this deal while apart: the deal is its latest entry in the
        # one order (created_at, then uuid) on every device, so a correction older than
        # the version here is kept, in the log, with no points (superseded).
        here = self._version(e.deal_no)
        assert e.at is not None
        if e.kind != "deal" and here is not None and (e.at, e.uuid) < here:
            if not self._undoes_ok(e):
                return None
            self._mine(e)
            facts = e.facts_json if e.facts_json is not None else e.facts
            return self._written(ImportedEntry(e.uuid, e.kind, e.deal_no, facts, [], e.at,
                                               e.undoes))
        if not self._undoes_ok(e):
            return None
        self.versions[e.deal_no] = (e.at, e.uuid)
        rows: list[PointsTuple] = []
        if e.kind != "deal":
            rows = _negated(self._live(e.deal_no))
        if e.kind == "void" and not rows:  # nothing left to cancel
            self.conflict(e, N_("a void of deal {deal}, which is already void in the ledger's "
                                "session {id}"), deal=e.deal_no, id=sid)
            return None
        if e.kind == "void":
            self.live[e.deal_no] = None
        else:
            assert e.points is not None
            rows += e.points
            self.live[e.deal_no] = e.points
        deal_nos.add(e.deal_no)
        self._mine(e)
        facts = e.facts_json if e.facts_json is not None else e.facts
        return self._written(ImportedEntry(e.uuid, e.kind, e.deal_no, facts, rows, e.at,
                                           e.undoes))

    def add_action(self, e: EntrySpec) -> bool:
        """Append the session's own action ``e`` (end, reopen, undo); False: a conflict."""
        if e.kind == "start":
            self.conflict(e, N_("a second start of the ledger's session {id}"), id=self.sid)
            return False
        if not self._undoes_ok(e):
            return False
        if e.kind == "seat":  # a seat change: replayed leniently, so no order refuses it
            assert e.facts is not None
            if e.facts.get("action") == "join" and self.ledger.find_player(e.facts["player"]) is None:
                self.ledger.player_id(e.facts["player"], create=True)
            self.ledger.journal.add_seat(self.sid, e.facts, entry_uuid=e.uuid, created_at=e.at,
                                         undoes=e.undoes)
        else:
            self.ledger.journal.add_action(self.sid, e.kind, entry_uuid=e.uuid,
                                           created_at=e.at, undoes=e.undoes)
        self.latest = None  # read again: the action's time
        self._mine(e)
        return True


def names_now(ledger: Ledger, spec: SessionSpec, entries: Iterable[EntrySpec]
              ) -> tuple[SessionSpec, Iterable[EntrySpec]]:
    """The session under its players' names now: a file written before a rename or
    merge names them as they were (the ledger stores them as typed, at write) — its
    seats, and the players its seat entries join and its deals name (a later joiner)."""
    from dataclasses import replace

    from ledger.core.names import NamesNow, rename_facts
    from ledger.storage.codec import to_json

    names = NamesNow(ledger.find_player)

    def renamed(e: EntrySpec) -> EntrySpec:
        facts = None if e.facts is None else rename_facts(e.facts, names)
        facts_json = (None if e.facts_json is None
                      else to_json(rename_facts(json.loads(e.facts_json), names)))
        points = None if e.points is None else [
            (names.get(p[0], p[0]), *p[1:7], None if p[7] is None else names.get(p[7], p[7]))
            for p in e.points]
        return e._replace(facts=facts, facts_json=facts_json, points=points)

    players = tuple(names.get(n, n) for n in spec.players)
    return replace(spec, players=players), (renamed(e) for e in entries)
