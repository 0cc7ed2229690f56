"""A whole file at the gate (:mod:`ledger.book.gate`): what an import's first reading
gathers of its sessions, checked in bulk once the file is read.

An import (``bigtwo import``, a phone's sync through ``POST /api/import``) reads its
file twice: once to check everything, once to write.  The first reading hands each
checked session to :class:`FileActions`; at its end the uuids the whole file takes are
looked up a chunk at a time (one uuid names one action, across every kind), and every
correction that names its deal by uuid is checked to name a deal of its own session.
Each problem is one message of the gate, which refuses the whole file.
"""

from __future__ import annotations

from collections.abc import Sequence

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
        in_ledger = ledger.bulk.entry_sessions(unknown)
        for deal, session, where in self.corrections:
            owner = self.deal_session.get(deal) or in_ledger.get(deal)
            if owner is None:
                continue  # a deal neither has: found by its number, as a file of version 1
            try:
                check_correction(owner, session)
            except InputError as exc:
                gate.refuse(where, str(exc))
