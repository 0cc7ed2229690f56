"""``restore``'s copy of a backup into a fresh ledger, through the import's checks.

A backup is a file like any other: its sessions and entries are read as rows (never
its schema, triggers or points) and checked exactly as a JSON export's are
(:func:`ledger.formats.exchange.check_session`: clean names, frozen rules, strict
facts, corrections of live deals only).  They are then written by the importer in
the order they were recorded, so entry ids, and with them anything that follows
recording order (ratings), come out as they were.  Points are derived again from the
facts.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from ledger.core.errors import InputError
from ledger.core.i18n import _
from ledger.formats.exchange import check_entry, check_session
from ledger.formats.merge import EntrySpec, Importer, ImportReport, SessionSpec
from ledger.storage.backup import BackupReader
from ledger.storage.store import Ledger

CURRENT_KEY = "current_session"


def _facts(text: Any, where: str) -> Any:
    if text is None:
        return None
    if not isinstance(text, str):
        raise InputError(_("{where}: facts must be JSON text, not {value!r}").format(
            where=where, value=text))
    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        raise InputError(_("{where}: facts are not valid JSON").format(where=where)) from None


def _entry(row: tuple[Any, ...], where: str) -> dict[str, Any]:
    _, uuid, seq, kind, deal, facts, at, undoes = row
    entry = {"uuid": uuid, "kind": kind, "deal": deal, "facts": _facts(facts, where), "at": at,
             "undoes": undoes}
    return entry if seq is None else {**entry, "seq": seq}


def _header(raw: dict[str, Any], where: str) -> dict[str, Any]:
    head = dict(raw)
    try:
        head["rules"] = json.loads(raw["rules"]) if isinstance(raw["rules"], str) else None
    except (ValueError, RecursionError):
        raise InputError(_("{where}: its frozen rules are not valid JSON").format(
            where=where)) from None
    teams = raw["teams"]
    if teams not in (0, 1) or isinstance(teams, float):
        raise InputError(_("{where}: teams must be 0 or 1, not {value!r}").format(
            where=where, value=teams))
    head["teams"] = bool(teams)
    return head


def rebuild(reader: BackupReader, ledger: Ledger) -> None:
    """Copy ``reader``'s sessions and entries into the fresh ``ledger`` (checked)."""
    origin = reader.src.name
    specs: dict[int, SessionSpec] = {}
    for raw in reader.sessions():
        sid = raw["id"]
        where = _("{origin}: session {id}").format(origin=origin, id=sid)
        entries = [_entry(r, _("{where}, entry {seq}").format(
                       where=where, seq=r[2] if r[2] is not None else r[3]))
                   for r in reader.entries(sid)]
        spec, _entries = check_session({**_header(raw, where), "entries": entries}, where)
        specs[sid] = spec
    report = ImportReport(origin, "restore")
    Importer(ledger, report).run(_in_recorded_order(reader, specs, origin))
    _player_events(reader, ledger)
    _the_rest(reader, ledger, origin, {s.uuid: s for s in specs.values()})
    _pay_ids(reader, ledger)
    current = reader.setting(CURRENT_KEY)  # the backup's current session stays current
    if isinstance(current, str) and current.isdigit() and int(current) in specs:
        new_id = ledger.bulk.session_id_by_uuid(specs[int(current)].uuid)
        if new_id is not None:
            with ledger.writing():
                ledger.journal.set_setting(CURRENT_KEY, str(new_id))


def _player_events(reader: BackupReader, ledger: Ledger) -> None:
    """The backup's renames, merges and undos, in order (after the entries: those are
    stored with the names as typed, which the events leave as they are), through the
    gate: a time in the ledger's range, a new name as ``player rename`` checks it."""
    from ledger.book.actions import check_player_names
    from ledger.book.gate import Gate, check_at

    events = reader.player_events()
    if not events:
        return
    gate = Gate(ledger, reader.src.name)
    seen: set[str] = set()
    for uuid, at, kind, player, _into, name, undone in events:
        where = _("{origin}: player event {uuid}").format(origin=reader.src.name, uuid=uuid)
        if (not isinstance(player, str) or kind not in ("rename", "merge", "undo")
                or (undone is not None and undone not in seen)):
            gate.refuse(where, _("is damaged"))
        try:
            check_at(at)
            if kind == "rename":
                check_player_names([name])
        except InputError as exc:
            gate.refuse(where, str(exc))
        seen.add(uuid)
    gate.close()
    with ledger.writing():
        ids: dict[str, int] = {}
        for uuid, at, kind, player, into, name, undone in events:
            event = ledger.players.add_event(
                kind, ledger.player_id(player, create=True),
                into_id=None if into is None else ledger.player_id(into, create=True),
                name=name, undoes=None if undone is None else ids[undone],
                event_uuid=uuid, at=at)
            ids[uuid] = event.id


def _pay_ids(reader: BackupReader, ledger: Ledger) -> None:
    """The backup's pay id rows, each set checked for its scheme as if typed."""
    from ledger.core.paycode import SCHEMES, check_pay_id

    rows = reader.pay_ids()
    if not rows:
        return
    with ledger.writing():
        for uuid, at, kind, player, scheme, value in rows:
            damaged = (not isinstance(player, str) or scheme not in SCHEMES
                       or kind not in ("set", "remove") or (kind == "set") != (value is not None))
            if not damaged and kind == "set":
                try:
                    value = check_pay_id(scheme, value).value
                except InputError:
                    damaged = True
            if damaged:
                raise InputError(_("{origin}: pay id {uuid!r} is damaged").format(
                    origin=reader.src.name, uuid=uuid))
            ledger.pay_ids.add(kind, ledger.player_id(player, create=True), scheme, value,
                               uuid, at)


def _the_rest(reader: BackupReader, ledger: Ledger, origin: str,
                          sessions: dict[str, SessionSpec]) -> None:
    """The backup's payments, seasons and import keys, through the gate as an import's,
    ``bigtwo paid``'s and ``season add``'s are (every problem named; nothing restored if
    any).
    A payment taken back whose row the gate refuses (an older version let it in) counts
    for nothing: it is left out with its undo."""
    from ledger.book.gate import Claim, Gate, PaySession, check_at, check_season
    from ledger.book.keys import checked
    from ledger.formats.payments_io import (
        check_payments,
        import_payments,
        read_payments,
        without_harmless,
    )

    gate = Gate(ledger, origin)
    where = _("{origin}: payments").format(origin=origin)
    rows = without_harmless(reader.payments())
    specs = read_payments(rows, where, gate)
    own = {u: PaySession(u, s.players, s.currency or "PTS") for u, s in sessions.items()}
    claims = check_payments(ledger, specs, own, gate)
    seasons = []
    for uuid, at, kind, name, since, until in reader.seasons():
        here = _("{origin}: season {uuid}").format(origin=origin, uuid=uuid)
        try:
            season = check_season(str(kind), str(name), since, until, at)
            seasons.append((uuid, at, kind, season[0], since, until))
            claims.append(Claim(str(uuid), "seasons", here))
        except InputError as exc:
            gate.refuse(here, str(exc))
    imports = []
    for uuid, at, digest, name in reader.imports():
        here = _("{origin}: import {uuid}").format(origin=origin, uuid=uuid)
        try:
            check_at(at)
            if not (isinstance(digest, str) and len(digest) == 64 and isinstance(name, str)):
                raise InputError(_("is damaged"))
            imports.append((str(checked(str(uuid))), at, digest, name))
            claims.append(Claim(imports[-1][0], "imports", here))
        except InputError as exc:
            gate.refuse(here, str(exc))
    gate.check_keys(claims)
    gate.close()
    import_payments(ledger, specs)
    with ledger.writing():
        for uuid, at, kind, name, since, until in seasons:
            ledger.seasons.add(kind, name, since, until, uuid, at)
        for uuid, at, digest, name in imports:
            ledger.keys.add_import(uuid, digest, name, at)


def _in_recorded_order(reader: BackupReader, specs: dict[int, SessionSpec], origin: str
                       ) -> Iterator[tuple[SessionSpec, list[EntrySpec]]]:
    """Every session first (empty, by id), then runs of entries in the order they were
    recorded, each run one session's: the importer merges them into their session."""
    for spec in specs.values():
        yield spec, []
    run: list[EntrySpec] = []
    run_sid = None
    for row in reader.all_entries():
        sid = row[0]
        if sid not in specs:
            raise InputError(_("{origin}: entry {uuid!r} belongs to session {id!r}, "
                               "which the backup does not have").format(
                                   origin=origin, uuid=row[1], id=sid))
        if sid != run_sid and run:
            yield specs[run_sid], run  # type: ignore[index]
            run = []
        run_sid = sid
        where = _("{where}, entry {seq}").format(
            where=_("{origin}: session {id}").format(origin=origin, id=sid),
            seq=row[2] if row[2] is not None else row[3])

        run.append(check_entry(specs[sid], _entry(row, where), where))
    if run:
        yield specs[run_sid], run  # type: ignore[index]
