"""Every entry of a session, :class:`Log` (see :mod:`ledger.book.views`)."""

from typing import Any, NamedTuple

from ledger.storage.rows import EntryRow, SessionRow
from ledger.storage.store import Ledger


class LogLine(NamedTuple):
    """One entry of a session's log: ``live`` (it is the deal's current version),
    ``status`` (``voided`` or ``amended`` once replaced, ``superseded`` for a correction
    merged from another device that is older than the one it found, else None) and ``undoes`` (the
    seq of the entry an undo took back with it)."""

    entry: EntryRow
    live: bool
    status: str | None
    undoes: int | None

    def to_dict(self) -> dict[str, Any]:
        return {**self.entry.to_dict(), "live": self.live, "undoes": self.undoes,
                "status": self.status}


class Log(NamedTuple):
    """Every entry of a session, then the renames and merges of its players; where the
    seats changed, each seat entry (``seats``: as ``log --json`` gives them, with the
    command's words in ``action`` and ``undone``) and the lines ``log`` says for them."""

    session: SessionRow
    lines: list[LogLine]
    events: list[dict[str, Any]]  # the player events, as ``log --json`` gives them
    event_lines: list[str]  # the same, as ``log`` says them (times local)
    seats: list[dict[str, Any]]
    seat_lines: list[str]

    def to_dict(self) -> list[dict[str, Any]]:  # a JSON array, as ``log --json`` has been
        return [line.to_dict() for line in self.lines] + self.seats + self.events


def log(ledger: Ledger, session: SessionRow) -> Log:
    from ledger.book.actions import undo_marks
    from ledger.book.players import event_dicts, event_lines

    entries = ledger.journal.entries(session.id)
    live = {e.id for e in ledger.journal.live_deals(session.id)}
    undos = undo_marks(ledger, session.id)  # entry -> seq of the entry it took back
    next_kind: dict[int, str] = {}  # what came next for each entry's deal, going backwards
    later: dict[int, str] = {}
    for e in reversed(entries):
        if e.deal_no in later:
            next_kind[e.id] = later[e.deal_no]
        later[e.deal_no] = e.kind
    lines = []
    newest: dict[int, tuple[str, str]] = {}  # deal: the latest (created_at, uuid) so far
    for e in entries:
        status = None
        key = (e.created_at, e.uuid)
        if e.kind != "deal" and e.deal_no in newest and key < newest[e.deal_no]:
            status = "superseded"  # merged, older than the correction it found: no points
        elif e.kind != "void" and e.id not in live:
            status = "voided" if next_kind.get(e.id) == "void" else "amended"
        newest[e.deal_no] = max(key, newest.get(e.deal_no, key))
        lines.append(LogLine(e, e.id in live, status, undos.get(e.id)))
    seated = {pid for _t, _n, pid in ledger.journal.seat_names(session.id)}
    seats, seat_lines = _seat_changes(ledger, session)
    return Log(session, lines, event_dicts(ledger, seated), event_lines(ledger, seated), seats,
               seat_lines)


def _seat_changes(ledger: Ledger, session: SessionRow) -> tuple[list[dict[str, Any]], list[str]]:
    """The session's seat entries in the one order, each as ``log --json`` and ``log``
    give it (an undo of one is said beside the change it took back)."""
    from ledger.book.clock import local_minute
    from ledger.core.lineup import seat_text

    changes = [e for e in ledger.journal.actions(session.id) if e.kind == "seat"]
    undone = {e.undoes for e in changes if e.undoes is not None}
    out, said = [], []
    for e in changes:
        if e.undoes is not None:
            continue
        text = seat_text(e.facts or {})
        out.append({**e.to_dict(), "action": text, "undone": e.uuid in undone})
        said.append(f"{local_minute(e.created_at)}  {text}" + ("  (undone)" if e.uuid in undone else ""))
    return out, said
