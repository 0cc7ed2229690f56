"""The import engine: checked sessions and entries in, merged into a ledger by uuid.

Readers (:mod:`ledger.formats.exchange` for JSON, :mod:`ledger.formats.sheet_import` for score
sheets) check a whole file through the pure core first and hand over
:class:`SessionSpec` and :class:`EntrySpec` with the points already derived from
the facts; nothing here reads points from a file.

Identity is by uuid, so every import is idempotent and merges: a session or entry
already in the ledger is skipped when it says the same, and reported as a conflict
when it does not (nothing of that session is written).  Sessions are written whole:
each inside a savepoint (a new sheet session, which cannot conflict, without one), in
transactions that hold whole sessions only (small sessions share one, up to
:data:`BATCH_ENTRIES` entries), so an interrupted import leaves whole sessions and
running it again finishes it.  A large sheet goes in as one transaction (``whole``):
read once, an error anywhere in it writes nothing; it builds the secondary indexes
once, inside it (:data:`INDEX_BUILD_MIN`), and checks the foreign keys once at its end:
a transaction that does not commit leaves them as they were.
"""

from __future__ import annotations

import gc
import json
import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass, field
from decimal import Decimal
from itertools import islice
from typing import Any, NamedTuple

from ledger.core.errors import LedgerError
from ledger.core.i18n import N_, _, ngettext
from ledger.core.phrase import Phrase
from ledger.core.rules import RuleSet, rules_from_dict
from ledger.formats.conflicts import Conflict
from ledger.formats.session_merge import SessionMerge, Target, names_now
from ledger.storage.raw_rows import ImportedEntry
from ledger.storage.rows import PointsRow, PointsTuple, SessionRow
from ledger.storage.schema import DEAL_KINDS
from ledger.storage.store import Ledger

BATCH_ENTRIES = 10000  # commit after whole sessions once this many entries are written
CHUNK = 1000  # entries looked up and inserted at a time
# A large import of a sheet (at least INDEX_BUILD_MIN entries, and at least as many as the
# ledger holds) is one transaction that builds the secondary indexes of entries and points
# once (BulkImport.build_indexes_later) instead of row by row: one sort of each.
INDEX_BUILD_MIN = 5000

Progress = Callable[[int], None]


@contextmanager
def collected_after() -> Iterator[None]:
    """No cyclic garbage collection inside (a whole import, its reader process): they
    make millions of short-lived tuples, lists and strings, none in a cycle, which
    freeing by reference count alone handles, while Python's collector would walk them
    and every object alive again and again (about 0.3 s of 200,000 sheet games in each
    process).  A cycle made inside is collected after, as it would have been."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()



class ImportConflict(LedgerError):
    """The file says something else than the ledger about the same uuid."""

    status = 409


# --- what is imported ------------------------------------------------------------


@dataclass(frozen=True)
class SessionSpec:
    uuid: str
    name: str
    rules: RuleSet
    stake: str
    currency: str | None
    teams: bool
    started_at: str | None
    ended_at: str | None
    players: tuple[str, ...]
    where: str
    # A sheet's sessions: their rules are today's `classic` (so only what scores is
    # compared) and their games' uuids derive from the session's (so a new session
    # cannot hold one already in the ledger).
    from_sheet: bool = False
    start_uuid: str | None = None  # its start entry's (None: derived from its uuid)


class EntrySpec(NamedTuple):
    """One entry to import, checked: its facts and the points of the version it records."""

    uuid: str
    kind: str
    deal_no: int
    facts: dict[str, Any] | None  # None for a void (and for sheet games: see facts_json)
    at: str | None
    where: str
    points: Sequence[PointsTuple] | None = None  # derived from the facts; None for a void
    facts_json: str | None = None  # the facts as the ledger stores them, when made directly
    undoes: str | None = None  # the uuid of the entry this one undid (written by undo)
    # An amend's or void's deal, by the uuid of its "deal" entry: deal numbers are each
    # ledger's own (two devices may number one deal differently after a merge).
    deal_uuid: str | None = None

    def fact_dict(self) -> dict[str, Any] | None:
        """The facts (read from ``facts_json`` only where no dict came with them: the
        two say the same wherever both are given)."""
        if self.facts is not None or self.facts_json is None:
            return self.facts
        found: dict[str, Any] = json.loads(self.facts_json)
        return found


@dataclass
class ImportReport:
    source: str
    kind: str = ""
    sessions: int = 0
    sessions_new: int = 0
    sessions_merged: int = 0
    entries: int = 0
    entries_added: int = 0
    entries_present: int = 0
    conflicts: list[Conflict] = field(default_factory=list)
    conflicting_sessions: list[str] = field(default_factory=list)
    session_ids: list[int] = field(default_factory=list)
    # Deals the ledger held another deal under the number of: (uuid, the file's number,
    # the number it has here, the next free one).  Two devices that recorded a session
    # while apart both numbered their new deals from the same last one.
    renumbered: list[tuple[str, int, int]] = field(default_factory=list)
    payments_added: int = 0  # rows of ledger.storage.payments (formats/payments_io.py)
    payments_present: int = 0
    pay_ids_added: int = 0  # rows of ledger.storage.pay_ids (formats/pay_ids_io.py)
    pay_ids_present: int = 0

    def to_dict(self) -> dict[str, Any]:
        out = {
            "source": self.source, "format": self.kind, "sessions": self.sessions,
            "sessions_new": self.sessions_new, "sessions_merged": self.sessions_merged,
            "entries": self.entries, "entries_added": self.entries_added,
            "entries_present": self.entries_present, "session_ids": self.session_ids,
            "conflicts": [c.to_dict() for c in self.conflicts],
        }
        if self.renumbered:
            out["renumbered"] = [{"uuid": u, "file": f, "ledger": n} for u, f, n in self.renumbered]
        if self.payments_added or self.payments_present:
            out["payments_added"] = self.payments_added
            out["payments_present"] = self.payments_present
        if self.pay_ids_added or self.pay_ids_present:
            out["pay_ids_added"], out["pay_ids_present"] = self.pay_ids_added, self.pay_ids_present
        return out

    def summary(self) -> str:
        """One line in the interface's language: what was added, merged, already there."""
        def deals(n: int) -> str:
            if self.kind == "sheet":
                return ngettext("{count} deal", "{count} deals", n).format(count=n)
            return ngettext("{count} entry", "{count} entries", n).format(count=n)

        def sessions(n: int) -> str:
            return ngettext("{count} session", "{count} sessions", n).format(count=n)

        parts = []
        if self.entries_added or self.sessions_new or self.sessions_merged:
            parts.append(_("{deals} added ({new}, {merged} merged)").format(
                deals=deals(self.entries_added),
                new=ngettext("{count} new session", "{count} new sessions",
                             self.sessions_new).format(count=self.sessions_new),
                merged=sessions(self.sessions_merged)))
        if self.entries_present:
            parts.append(ngettext("{deals} was already in the ledger",
                                  "{deals} were already in the ledger",
                                  self.entries_present).format(deals=deals(self.entries_present)))
        if self.renumbered:
            parts.append(ngettext(
                "{count} deal numbered anew (the ledger has another deal under its number): {moves}",
                "{count} deals numbered anew (the ledger has other deals under their numbers): {moves}",
                len(self.renumbered)).format(count=len(self.renumbered), moves=", ".join(
                    _("{file} → {ledger}").format(file=f, ledger=n) for _u, f, n in self.renumbered)))
        if self.conflicting_sessions:
            parts.append(_("{count} of {sessions} not imported (conflicts)").format(
                count=len(self.conflicting_sessions), sessions=sessions(self.sessions)))
        if not self.entries_added and not self.conflicting_sessions:
            parts = [_("nothing new; its {sessions} and {deals} are already in the ledger").format(
                sessions=sessions(self.sessions), deals=deals(self.entries_present))]
        if self.payments_added:
            parts.append(ngettext("{count} payment added", "{count} payments added",
                                  self.payments_added).format(count=self.payments_added))
        if self.pay_ids_added:
            parts.append(ngettext("{count} pay id added", "{count} pay ids added",
                                  self.pay_ids_added).format(count=self.pay_ids_added))
        return _("{source}: {parts}").format(source=self.source, parts=_("; ").join(parts))

    def conflict_text(self) -> str:
        conflicts = len(self.conflicts)
        sessions = len(self.conflicting_sessions)
        lines = [_("{source}: {conflicts} with the ledger; nothing of {sessions} was written:").format(
            source=self.source,
            conflicts=ngettext("{count} conflict", "{count} conflicts", conflicts).format(
                count=conflicts),
            sessions=ngettext("{count} session", "{count} sessions", sessions).format(
                count=sessions))]
        lines += [f"  {c.text()}" for c in self.conflicts]
        return "\n".join(lines)


# --- the importer -----------------------------------------------------------------


class _Conflicted(Exception):
    """Raised inside a session's savepoint to undo it."""


def _chunks(items: Iterable[EntrySpec], size: int) -> Iterator[list[EntrySpec]]:
    it = iter(items)
    while chunk := list(islice(it, size)):
        yield chunk


def point_tuples(rows: Iterable[PointsRow]) -> list[PointsTuple]:
    return [(p.player, p.deals, p.wins, p.fried, p.cards, p.penalty, p.net, p.payee) for p in rows]


def _rules_differ(stored: dict[str, Any], new: RuleSet, scoring_only: bool) -> bool:
    try:
        old = rules_from_dict(stored).to_dict()
    except LedgerError:
        return True
    mine = new.to_dict()
    if scoring_only:
        for key in ("name", "description", "source", "plays", "next_deal", "next_lead",
                    "round_deals", "opener", "redeal_four_twos"):  # no points change
            old.pop(key, None)
            mine.pop(key, None)
    return old != mine


def _session_differences(s: SessionRow, spec: SessionSpec) -> list[str]:
    """What differs, as phrases (English in ``--json``, the language in messages)."""
    out: list[str] = []
    if tuple(s.started_seats) != spec.players:  # the seats at the start: joins are entries
        out.append(Phrase(N_("seats: ledger {ledger}, file {file}"),
                          ledger=", ".join(s.started_seats), file=", ".join(spec.players)))
    if _rules_differ(s.rules, spec.rules, spec.from_sheet):
        out.append(Phrase(N_("rules: the ledger's frozen {ledger!r} differ from the file's "
                             "{file!r}"), ledger=s.rules_name, file=spec.rules.name))
    if Decimal(s.stake) != Decimal(spec.stake):
        out.append(Phrase(N_("stake: ledger {ledger}, file {file}"), ledger=s.stake, file=spec.stake))
    if (s.currency or "PTS") != (spec.currency or "PTS"):
        out.append(Phrase(N_("currency: ledger {ledger}, file {file}"),
                          ledger=str(s.currency), file=str(spec.currency)))
    if s.teams != spec.teams:
        out.append(Phrase(N_("teams: ledger {ledger}, file {file}"),
                          ledger=str(s.teams), file=str(spec.teams)))
    if spec.start_uuid is not None and spec.start_uuid != s.start_uuid:
        out.append(Phrase(N_("start entry: ledger {ledger}, file {file}"),
                          ledger=s.start_uuid, file=spec.start_uuid))
    return out


class Importer:
    """Writes checked sessions into a ledger, merging by uuid."""

    def __init__(self, ledger: Ledger, report: ImportReport, progress: Progress | None = None,
                 expected: int | None = None, whole: bool = False):
        """``expected``: how many deal entries the sessions hold (a sheet's games as
        counted when it was checked, or at most), which lets a large import build indexes
        in bulk.  ``whole``: the import is one transaction (nothing of it is written
        unless all of it is: the sessions need not be checked before)."""
        self.ledger = ledger
        self.whole = whole
        self.report = report
        self.progress = progress or (lambda n: None)
        self.expected = expected
        self._frozen: dict[int, tuple[RuleSet, dict[str, Any]]] = {}
        self._indexes_decided = False  # in this transaction
        # No entry in the ledger when the import began: an entry of a session new to it
        # cannot be there already (the file gives each uuid once), so is not looked up;
        # the uuids it wrote are then all the ledger holds (an undo's target is found
        # among them), so the index of uuids is built once, at the end, like the others.
        self._written: dict[str, Target] | None = {} if ledger.bulk.entry_count() == 0 else None

    def run(self, sessions: Iterable[tuple[SessionSpec, Iterable[EntrySpec]]]) -> ImportReport:
        pending = iter(sessions)
        more = True
        bulk = self.ledger.bulk
        # Entries a transaction: a whole import is one (its foreign keys checked at its end).
        batch = sys.maxsize if self.whole else BATCH_ENTRIES
        with bulk.tuned(whole=self.whole), collected_after() if self.whole else nullcontext():
            while more:
                more = False
                self._indexes_decided = False
                with self.ledger.writing(), bulk.totals_in_bulk():
                    written = 0
                    for spec, entries in pending:
                        written += self._session(spec, entries)
                        if written >= batch:
                            more = True
                            break
        return self.report

    def _maybe_build_indexes(self, lookups: bool = False) -> None:
        """Before a new sheet session's writes (no savepoint): the first of a ``whole``
        import decides whether its indexes are built in bulk (see
        :data:`INDEX_BUILD_MIN`); other imports keep them row by row (they commit every
        :data:`BATCH_ENTRIES`, and are smaller than the ledger)."""
        if self._indexes_decided or not self.whole or self.expected is None:
            return
        self._indexes_decided = True
        if self.large(self.ledger, self.expected - self.report.entries):
            self.ledger.bulk.build_indexes_later(lookups)

    @staticmethod
    def large(ledger: Ledger, entries: int) -> bool:
        """Whether an import of about ``entries`` entries (at most) builds the indexes in
        bulk, and so goes in as one transaction."""
        return entries >= max(INDEX_BUILD_MIN, ledger.bulk.entry_count())

    def _session(self, spec: SessionSpec, entries: Iterable[EntrySpec]) -> int:
        self.report.sessions += 1
        if self.ledger.players.mark():  # players were renamed or merged: use their names now
            spec, entries = names_now(self.ledger, spec, entries)
        known = self.ledger.bulk.session_id_by_uuid(spec.uuid)
        if known is None and spec.from_sheet:
            # Nothing in it can conflict (its games' uuids derive from its own): the
            # bulk path, without a savepoint; the batch's transaction keeps it whole.
            return self._write_new_sheet_session(spec, entries)
        fresh = known is None and self.whole
        if fresh:
            # A session new to the ledger, in one transaction: its points go in without
            # the triggers, its totals summed once (BulkImport.sum_later), and the
            # indexes are built once if the import is large; both are set up here,
            # outside its savepoint, which a conflict rolls back.
            self._maybe_build_indexes(lookups=self._written is None)
            self.ledger.bulk.pause_triggers()
        else:
            # What follows writes points with the triggers and indexes on (and outside
            # its savepoint, which a conflict rolls back).
            self.ledger.bulk.sum_totals()
            self._indexes_decided = True  # and keeps them on for the rest of this transaction
        try:
            with self.ledger.writing():  # a savepoint: a conflict undoes this session only
                return self._write(spec, entries, known, fresh)
        except _Conflicted:
            self.ledger.bulk.forget_new()  # its totals, summed so far, were rolled back too
            self.report.conflicting_sessions.append(spec.uuid)
            return 0

    def _add_session(self, spec: SessionSpec) -> int:
        # A sheet's thousands of sessions share a few rule sets: freeze each once.
        frozen = self._frozen.get(id(spec.rules))
        if frozen is None or frozen[0] is not spec.rules:
            frozen = self._frozen[id(spec.rules)] = (spec.rules, spec.rules.to_dict())
        sid = self.ledger.journal.add_session(
            seats=spec.players, name=spec.name, rules=frozen[1], stake=spec.stake,
            currency=spec.currency, teams=spec.teams, started_at=spec.started_at,
            session_uuid=spec.uuid, start_uuid=spec.start_uuid,
        )
        return sid

    def _done(self, sid: int, new: bool, added: int, present: int, seen: int,
              changed: bool = False) -> None:
        report = self.report
        changed = changed or bool(added)
        if new or changed:
            self.ledger.bulk.note_import(sid, {"source": report.source, "format": report.kind,
                                          "entries": added, "present": present})
        report.sessions_new += new
        report.sessions_merged += not new and changed
        report.entries += seen
        report.entries_added += added
        report.entries_present += present
        report.session_ids.append(sid)

    def _write_new_sheet_session(self, spec: SessionSpec, entries: Iterable[EntrySpec]) -> int:
        self._maybe_build_indexes()
        sid = self._add_session(spec)
        self.ledger.bulk.sum_later(sid)  # a new session: its totals are summed once
        added = 0
        columns = getattr(entries, "columns", None)  # a sheet's games by score: the bulk path
        if columns is not None and not self.ledger.players.mark():
            scores, flat, keys = columns()
            for start in range(0, len(keys), CHUNK):
                chunk = keys[start:start + CHUNK]
                self.ledger.bulk.import_scored(sid, flat[3 * start:3 * (start + len(chunk))],
                                               chunk, spec.started_at, scores)
                added += len(chunk)
                self.progress(len(chunk))
            self._done(sid, True, added, 0, added)
            return added
        made = getattr(entries, "imported", None)  # a sheet's own rows for the bulk path
        rows: Iterable[ImportedEntry] = made() if made is not None else (
            ImportedEntry(e.uuid, "deal", e.deal_no, e.facts_json, e.points or (), e.at)
            for e in entries)
        it = iter(rows)
        while chunk := list(islice(it, CHUNK)):
            self.ledger.bulk.import_entries(sid, chunk)
            added += len(chunk)
            self.progress(len(chunk))
        self._done(sid, True, added, 0, added)
        return added

    def _write(self, spec: SessionSpec, entries: Iterable[EntrySpec], known: int | None,
               fresh: bool = False) -> int:
        ledger = self.ledger
        conflicts: list[Conflict] = []
        existing = None if known is None else ledger.journal.session_by_uuid(spec.uuid)
        if known is not None and existing is None:
            self.report.conflicts.append(Conflict(spec.where, spec.uuid, (Phrase(N_(
                "the ledger took back the start of this session (undo)")),)))
            raise _Conflicted
        session_differs = False
        if existing is not None:
            differences = _session_differences(existing, spec)
            session_differs = bool(differences)
            if differences:
                conflicts.append(Conflict(Phrase(N_("{where}, session {id}"), where=spec.where,
                                                 id=existing.id), spec.uuid, tuple(differences)))
            sid = existing.id
            deal_nos = ledger.bulk.deal_numbers(sid)
        else:
            sid = self._add_session(spec)
            deal_nos = set()
            if fresh:
                ledger.bulk.sum_later(sid)
        merge = SessionMerge(ledger, sid, deal_nos, conflicts, new=existing is None,
                             written=self._written, started=None if existing else spec)
        added = present = seen = actions = 0
        for chunk in _chunks(entries, CHUNK):
            seen += sum(e.kind in DEAL_KINDS for e in chunk)  # deal entries: the report's
            if session_differs:  # its entries cannot be compared with the ledger's
                self.progress(len(chunk))
                continue
            found = {} if fresh and self._written is not None else ledger.bulk.entry_texts(
                [e.uuid for e in chunk])
            rows: list[ImportedEntry] = []
            for e in chunk:
                old = found.get(e.uuid)
                if old is not None:
                    differences = merge.differences(old, e)
                    if differences:
                        conflicts.append(Conflict(e.where, e.uuid, tuple(differences)))
                    else:
                        present += e.kind in DEAL_KINDS
                    continue
                if e.kind not in DEAL_KINDS:
                    if not conflicts:
                        ledger.bulk.import_entries(sid, rows)  # what it may undo goes first
                        added += len(rows)
                        rows = []
                    actions += merge.add_action(e)
                    continue
                for name in (e.fact_dict() or {}).get("players") or ():
                    ledger.player_id(name, create=True)  # one who joined: a player here too
                row = merge.new_entry(e)
                if row is not None:
                    rows.append(row)
            if not conflicts:
                ledger.bulk.import_entries(sid, rows)
                added += len(rows)
            self.progress(len(chunk))
        if conflicts:
            self.report.entries += seen
            self.report.conflicts.extend(conflicts)
            raise _Conflicted
        self.report.renumbered.extend(merge.renumbered)
        if self._written is not None:  # (what a conflict rolled back is never added)
            self._written.update(merge.mine)
        self._done(sid, existing is None, added, present, seen, bool(actions))
        return added
