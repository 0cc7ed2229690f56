"""A whole file at the gate (:mod:`ledger.book.gate`): what an import's reading gathers
of its sessions, checked in bulk.

An import (``bigtwo import``, a phone's sync through ``POST /api/import``) reads its
file once, in one transaction: each checked session goes to :class:`FileActions`, whose
:meth:`FileActions.parts` hands the sessions on to be written a part at a time, once
the uuids of the part are looked up (one uuid names one action, across every kind:
a chunk at a time, against the file so far and the ledger).  At the end of the file,
:meth:`FileActions.check` looks up the uuids of what follows the sessions (the
payments), and checks every correction that names its deal by uuid to name a deal of
its own session.  Each problem is one message of the gate, which refuses the whole
file: once there is one, nothing more is handed on, and the transaction is rolled back.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence

from ledger.book.gate import Claim, Gate, PaySession, check_correction
from ledger.core.errors import InputError
from ledger.formats.merge import EntrySpec, SessionSpec
from ledger.storage.store import Ledger


class FileActions:
    """What the gate checks of a file's sessions, gathered as they are read: the uuids
    they take (sessions, their start entries, entries), the corrections that name a
    deal by uuid, and each session's seats and currency (for its payments)."""

    def __init__(self) -> None:
        self.claims: list[Claim] = []
        self.deal_session: dict[str, str] = {}  # a deal entry's uuid -> its session's
        self.corrections: list[tuple[str, str, str]] = []  # (deal uuid, session uuid, where)
        self.sessions: dict[str, PaySession] = {}

    # Uuids looked up at a time: the sessions that hold them wait to be written.
    PART_CLAIMS = 5000

    def parts(self, ledger: Ledger, gate: Gate,
              sessions: Iterable[tuple[SessionSpec, list[EntrySpec]]]
              ) -> Iterator[tuple[SessionSpec, list[EntrySpec]]]:
        """``sessions`` as they are read, each added (:meth:`add`), handed on a part at a
        time once the part's uuids passed the gate; none once the gate has a problem
        (the file is read on, for its other problems)."""
        waiting: list[tuple[SessionSpec, list[EntrySpec]]] = []
        for spec, entries in sessions:
            self.add(spec, entries)
            waiting.append((spec, entries))
            if len(self.claims) >= self.PART_CLAIMS:
                yield from self._checked(gate, waiting)
                waiting = []
        yield from self._checked(gate, waiting)

    def _checked(self, gate: Gate, waiting: list[tuple[SessionSpec, list[EntrySpec]]]
                 ) -> list[tuple[SessionSpec, list[EntrySpec]]]:
        gate.check_keys(self.claims)
        self.claims = []
        return [] if gate.problems else waiting

    def add(self, spec: SessionSpec, entries: Sequence[EntrySpec]) -> None:
        from ledger.storage.upgrade import action_uuid

        self.sessions[spec.uuid] = PaySession(spec.uuid, spec.players, spec.currency or "PTS")
        self.claims.append(Claim(spec.uuid, "sessions", spec.where))
        self.claims.append(Claim(spec.start_uuid or action_uuid(spec.uuid, "start"), "entries",
                                 spec.where))
        for e in entries:
            self.claims.append(Claim(e.uuid, "entries", e.where))
            if e.kind == "deal":
                self.deal_session[e.uuid] = spec.uuid
            elif e.deal_uuid is not None:
                self.corrections.append((e.deal_uuid, spec.uuid, e.where))

    def check(self, ledger: Ledger, gate: Gate, more: Sequence[Claim]) -> None:
        """The keys of the whole file (with the payments' ``more``), and every correction's
        deal in its own session (looked up in bulk)."""
        gate.check_keys([*self.claims, *more])
        unknown = [d for d, _s, _w in self.corrections if d not in self.deal_session]
        if gate.started_empty:  # the ledger holds only the file's own: look up no other
            claimed = {c.uuid for c in self.claims}
            unknown = [d for d in unknown if d in claimed]
        in_ledger = ledger.bulk.entry_sessions(unknown)
        for deal, session, where in self.corrections:
            owner = self.deal_session.get(deal) or in_ledger.get(deal)
            if owner is None:
                continue  # a deal neither has: found by its number, as a file of version 1
            try:
                check_correction(owner, session)
            except InputError as exc:
                gate.refuse(where, str(exc))
