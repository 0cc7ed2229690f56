"""Export and import: lossless JSON, and the entry point that imports a JSON export or
a big-two-scorer score sheet (:mod:`ledger.formats.sheet_import`); CSV for spreadsheets
is :mod:`ledger.formats.csv_export`.

Everything that is imported is checked first (the whole file, through the pure
core) and written after (:mod:`ledger.formats.merge`), so a file with an error writes
nothing.  Points are never read from a file: they are derived from the facts and
the session's frozen rules.
"""

from __future__ import annotations

import json
import re
import uuid as uuidlib
from collections.abc import Callable, Iterator, Sequence
from dataclasses import replace
from pathlib import Path
from typing import IO, Any

from ledger.book import actions as book
from ledger.book.gate import Gate
from ledger.core.deal_line import deal_from_facts
from ledger.core.errors import InputError
from ledger.core.i18n import N_, _
from ledger.core.phrase import local, os_reason
from ledger.core.rules import rules_from_dict
from ledger.core.scoring import score_deal
from ledger.core.seat_keys import SeatScores, SharedScores
from ledger.core.settlement import parse_currency, parse_stake
from ledger.core.text import clean_name, clean_session_name, json_safe
from ledger.core.times import check_time
from ledger.formats.file_kinds import check_fry, check_importable, detect_format
from ledger.formats.json_reader import FORMAT, JsonStream, at
from ledger.formats.merge import EntrySpec, Importer, ImportReport, Progress, SessionSpec, point_tuples
from ledger.formats.seat_io import deal_players, seat_entry, session_members
from ledger.formats.sheet_import import import_sheet
from ledger.storage.codec import to_json
from ledger.storage.rows import SessionRow
from ledger.storage.store import Ledger

VERSION = 2  # 2: a session's own actions (start, end, reopen, undo) are entries too
READS = (1, 2)
DEAL_KINDS = ("deal", "void", "amend")
ACTION_KINDS = ("start", "end", "reopen", "undo", "seat")
KINDS = DEAL_KINDS + ACTION_KINDS
def session_header(s: SessionRow) -> dict[str, Any]:
    """A session in the file: its frozen rules and its seats at the start (joins are
    entries), without this ledger's own id and count."""
    head = {**s.to_dict(full_rules=True), "players": list(s.started_seats)}
    del head["id"], head["deals"]
    return head


def export_json(ledger: Ledger, sessions: Sequence[SessionRow], out: IO[str],
                payments: Sequence[Any] = (), pay_ids: Sequence[Any] = ()) -> int:
    """Write the sessions, every entry included, then ``payments`` (rows of
    ledger.storage.payments, :mod:`ledger.formats.payments_io`), then ``pay_ids`` (rows
    of ledger.storage.pay_ids: only when asked, ``export --with-pay-ids``); returns the
    number of entries.

    Written piece by piece (one entry a line), so a big ledger is never held in memory
    as one document; the same ledger always gives the same bytes.
    """
    count = 0
    out.write(f'{{"format": "{FORMAT}", "version": {VERSION}, "sessions": [')
    for i, s in enumerate(sessions):
        head = _json(session_header(s))
        out.write(("\n" if i == 0 else ",\n") + head[:-1] + ', "entries": [')
        # The deal entries by seq (the order their points were written in), then the
        # session's own actions in the one order: each after anything it undoes.
        entries = ledger.journal.entries(s.id) + [
            e for e in ledger.journal.actions(s.id) if not e.is_deal]
        first: dict[int, str] = {}  # deal number: the uuid of its "deal" entry
        for j, e in enumerate(entries):
            entry = e.to_dict()
            if e.kind == "deal":
                first.setdefault(e.deal_no, e.uuid)
            elif e.is_deal and e.deal_no in first:  # its deal by uuid (numbers are per ledger)
                entry["deal_uuid"] = first[e.deal_no]
            if e.is_deal and e.undoes is not None:  # written by undo: what it took back
                entry["undoes"] = e.undoes
            out.write(("\n" if j == 0 else ",\n") + _json(entry))
            count += e.is_deal
        out.write("\n]}")
    if payments:
        from ledger.formats.payments_io import payments_json

        out.write('\n], "payments": [')
        out.write(",".join("\n" + _json(p) for p in payments_json(payments)))
    if pay_ids:
        out.write('\n], "pay_ids": [')
        out.write(",".join("\n" + _json(r.to_dict()) for r in pay_ids))
    out.write("\n]}\n")
    return count


def _json(data: Any) -> str:
    """One JSON value, UTF-8 as it is except what a terminal must not get raw (escaped:
    the same string to a JSON reader)."""
    text = json.dumps(data, ensure_ascii=False)
    return text if text.isprintable() else json_safe(text)


# --- JSON files ---------------------------------------------------------------------


def _want(cond: bool, where: str, problem: str, **values: Any) -> None:
    """Refuse unless ``cond``: ``problem`` is a message (``N_``), formatted with ``values``
    once translated (so nothing is formatted when all is well)."""
    if not cond:
        raise InputError(at(where, _(problem).format(**values)))


_CANONICAL_UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")  # str(UUID)


def _uuid(value: object, where: str) -> str:
    if type(value) is str and _CANONICAL_UUID.fullmatch(value):
        return value
    _want(isinstance(value, str), where, N_("uuid must be text, not {value!r}"), value=value)
    try:
        return str(uuidlib.UUID(str(value)))
    except ValueError:
        raise InputError(at(where, _("{value!r} is not a uuid").format(value=value))) from None


def _timestamp(value: object, where: str) -> str | None:
    if value is None:
        return None
    _want(isinstance(value, str), where, N_("must be a date and time text, not {value!r}"),
          value=value)
    try:
        check_time(str(value), where)  # showable in every time zone: 1970 to 8999
    except ValueError:
        raise InputError(at(where, _("{value!r} is not an ISO date and time").format(
            value=value))) from None
    return str(value)


def _keys(obj: object, where: str, required: Sequence[str]) -> dict[str, Any]:
    if not isinstance(obj, dict):
        raise InputError(at(where, _("must be a JSON object")))
    if not all(k in obj for k in required):
        _want(False, where, N_("missing key(s): {keys}"),
              keys=", ".join(k for k in required if k not in obj))
    return obj


MAX_DEAL_NO = 1_000_000_000  # a deal number beyond any evening, far from SQLite's limit
def _check_format(value: object, origin: str) -> None:
    if value != FORMAT:
        raise InputError(at(origin, _("not a {format} export (format is {value!r})").format(
            format=FORMAT, value=value)), advice=_("write one with: bigtwo export --format json"))


def _check_version(version: object, origin: str) -> None:
    _want(type(version) is int, origin, N_("version must be a whole number, not {value!r}"),
          value=version)
    assert isinstance(version, int)
    if version > VERSION:
        _want(False, origin, N_("version {version} is not supported: this bigtwo reads version "
                                "{known} (the file was written by a newer bigtwo)"),
              version=version, known=VERSION)
    _want(version in READS, origin,
          N_("version {version} is not supported: this bigtwo reads version {known}"),
          version=version, known=VERSION)


# The entries of a session (its uuid) the ledger holds already -> (kind, facts as stored).
Stored = Callable[[str, list[str]], dict[str, tuple[str, str]]]


def json_sessions(path: Path, origin: str, seen: tuple[set[int], set[int]] | None = None,
                  rest: dict[str, Any] | None = None, gate: Gate | None = None,
                  stored: Stored | None = None, shared: SharedScores | None = None,
                  ) -> Iterator[tuple[SessionSpec, list[EntrySpec]]]:
    """Every session of a JSON export, read and checked one at a time (through the
    pure core).  With ``seen`` (two empty sets), sessions and entries that appear twice
    in the file are refused; the header is checked once the file is read.  With
    ``gate``, a session refused is the gate's problem and the file is read on (one
    message per problem: :class:`~ledger.book.gate.Gate`).  With ``stored``, a deal or
    amend the ledger holds already in that session, with the same facts, is not scored
    again (it is not written either: the merge finds it there); every other is.  With
    ``shared``, deals that score alike by seat are scored once (:class:`SharedScores`)."""
    top: dict[str, Any] = {}
    try:
        with path.open(encoding="utf-8-sig", errors="strict") as f:
            index = 0
            for key, value in JsonStream(f, origin).top():
                if key != "session":
                    top[key] = value
                    if key == "format":
                        _check_format(value, origin)
                    elif key == "version":
                        _check_version(value, origin)
                    continue
                where = f"{origin}: sessions[{index}]"
                index += 1
                try:
                    spec, entries = _json_session(value, where, stored, shared)
                    if seen is not None:
                        _once(spec, entries, where, seen)
                except InputError as exc:
                    if gate is None:
                        raise
                    gate.refused(exc)
                    continue
                yield spec, entries
    except UnicodeDecodeError:
        raise InputError(_("{origin} is not UTF-8 text").format(origin=origin)) from None
    _check_format(top.get("format"), origin)
    _check_version(top.get("version"), origin)
    _want(isinstance(top.get("sessions"), list), origin, N_("missing key 'sessions' (a list)"))
    if rest is not None:  # the other top-level keys (payments), for the caller
        rest.update(top)


def _once(spec: SessionSpec, entries: list[EntrySpec], where: str,
          seen: tuple[set[int], set[int]]) -> None:
    """Refuse a session or an entry the file gave already (its start entry too: a deal
    of another session cannot take its uuid).  The uuids are in their one form already
    (:func:`_uuid`), kept as numbers."""
    sessions, uuids = seen
    number = int(spec.uuid.replace("-", ""), 16)
    _want(number not in sessions, where, N_("session {uuid} appears twice"), uuid=spec.uuid)
    sessions.add(number)
    from ledger.storage.upgrade import action_uuid

    start = spec.start_uuid or action_uuid(spec.uuid, "start")
    for uuid, at_where in ((start, where), *((e.uuid, e.where) for e in entries)):
        number = int(uuid.replace("-", ""), 16)
        _want(number not in uuids, at_where, N_("entry {uuid} appears twice in the file"),
              uuid=uuid)
        uuids.add(number)


def _json_session(raw: object, where: str, stored: Stored | None = None,
                  shared: SharedScores | None = None) -> tuple[SessionSpec, list[EntrySpec]]:
    s = _keys(raw, where, ("uuid", "players", "rules", "entries"))
    try:
        _want(isinstance(s["rules"], dict), where, N_("rules must be a JSON object"))
        rules = rules_from_dict(s["rules"], checked_text=True)
        players = s["players"]
        _want(isinstance(players, list) and all(isinstance(p, str) for p in players), where,
              N_("players must be a list of names"))
        seats = book.check_player_names(players)
        teams = s.get("teams", False)
        _want(isinstance(teams, bool), where, N_("teams must be true or false, not {value!r}"),
              value=teams)
        book.check_session(rules, seats, teams)
        stake = s.get("stake", "1")
        _want(isinstance(stake, (str, int)) and not isinstance(stake, bool), where,
              N_("stake must be text like \"0.25\", not {value!r}"), value=stake)
        stake_text = str(parse_stake(str(stake)))
        currency = s.get("currency", "PTS")
        _want(currency is None or isinstance(currency, str), where, N_("currency must be text"))
        currency = None if currency is None else parse_currency(currency)
        name = clean_session_name(s.get("name", "") or "")
        if rules.name:
            clean_name(rules.name, "rule name")
    except InputError as exc:
        if str(exc).startswith(local(where)):
            raise
        raise InputError(at(where, str(exc))) from None
    spec = SessionSpec(
        uuid=_uuid(s["uuid"], f"{where}.uuid"), name=name or "", rules=rules, stake=stake_text,
        currency=currency, teams=teams,
        started_at=_timestamp(s.get("started_at"), f"{where}.started_at"),
        ended_at=_timestamp(s.get("ended_at"), f"{where}.ended_at"),
        players=tuple(seats), where=where,
    )
    _want(isinstance(s["entries"], list), where, N_("entries must be a list"))
    read = [_json_entry(raw_e, f"{where}.entries[{j}]", j)
            for j, raw_e in enumerate(s["entries"])]
    entries = [(seq, e) for seq, e in read if e.kind in DEAL_KINDS]
    actions = _session_actions(spec, [e for _seq, e in read if e.kind in ACTION_KINDS], where)
    if actions and actions[0].kind == "start":
        spec = replace(spec, start_uuid=actions[0].uuid)
        actions = actions[1:]
    seqs = [seq for seq, _ in entries]
    _want(len(set(seqs)) == len(seqs), where, N_("two entries have the same seq"))
    ordered = [e for _, e in sorted(entries, key=lambda pair: pair[0])]
    live: dict[int, bool] = {}  # deal number: live (True) or void
    uuids: set[str] = set()
    for e in ordered:
        if e.uuid in uuids:
            _want(False, e.where, N_("entry {uuid} appears twice in the file"), uuid=e.uuid)
        uuids.add(e.uuid)
        if e.kind == "deal":
            if e.deal_no in live:
                _want(False, e.where, N_("deal {deal} is recorded twice"), deal=e.deal_no)
        else:
            _want(e.deal_no in live, e.where,
                  N_("a void of deal {deal}, which no earlier entry records") if e.kind == "void"
                  else N_("an amend of deal {deal}, which no earlier entry records"),
                  deal=e.deal_no)
            _want(e.kind != "void" or live[e.deal_no], e.where,
                  N_("a void of deal {deal}, which an earlier entry already voided"),
                  deal=e.deal_no)
        live[e.deal_no] = e.kind != "void"
    held = {} if stored is None else stored(spec.uuid, [e.uuid for e in ordered if e.facts])
    members = session_members(spec.players, actions)
    table = None if shared is None else shared.table(spec.rules, spec.teams, spec.players)
    return spec, [e if e.facts is None else _held(e, held.get(e.uuid))
                  or _checked_facts(spec, e, members, table) for e in ordered] + actions


def _held(e: EntrySpec, stored: tuple[str, str] | None) -> EntrySpec | None:
    """``e`` as the ledger holds it already (same kind, same facts), or None."""
    if stored is None or stored[0] != e.kind or json.loads(stored[1]) != e.facts:
        return None
    return e._replace(facts_json=stored[1])


def _session_actions(spec: SessionSpec, actions: list[EntrySpec], where: str) -> list[EntrySpec]:
    """A session's own actions as the file gives them (its start first); a file that has
    no end or reopen but an ``ended_at`` (version 1) has its end made from that time."""
    starts = [a for a in actions if a.kind == "start"]
    _want(len(starts) <= 1, where, N_("a session has one start entry, not {count}"),
          count=len(starts))
    if not any(a.kind in ("end", "reopen") for a in actions) and spec.ended_at is not None:
        from ledger.storage.upgrade import action_uuid

        actions = [*actions, EntrySpec(action_uuid(spec.uuid, "end", spec.ended_at), "end", 0,
                                       None, spec.ended_at, where)]
    return starts + [a for a in actions if a.kind != "start"]


def check_session(raw: object, where: str) -> tuple[SessionSpec, list[EntrySpec]]:
    """One session as an export holds it, checked (``restore`` checks a backup's rows
    with it too): its header, and every entry through the pure core."""
    return _json_session(raw, where)


def check_entry(spec: SessionSpec, raw: object, where: str) -> EntrySpec:
    """One entry of the checked session ``spec``, checked, its points derived."""
    _, e = _json_entry(raw, where, 0)
    return e if e.facts is None or e.kind == "seat" else _checked_facts(spec, e, None)


def _json_entry(raw: object, where: str, index: int) -> tuple[int, EntrySpec]:
    # Each check tests first, its message made only on failure: this runs for every entry.
    e = _keys(raw, where, ("uuid", "kind"))
    kind = e["kind"]
    if kind not in KINDS:
        _want(False, where, N_("kind must be one of {kinds}, not {value!r}"),
              kinds=", ".join(KINDS), value=kind)
    if kind in ACTION_KINDS:
        return 0, _json_action(e, kind, where)
    if "deal" not in e:
        _want(False, where, N_("missing key(s): {keys}"), keys="deal")
    deal_no = e["deal"]
    if not (type(deal_no) is int and 1 <= deal_no <= MAX_DEAL_NO):
        _want(False, where, N_("deal must be a deal number from 1 to {most}, not {value!r}"),
              most=f"{MAX_DEAL_NO:,}", value=deal_no)
    seq = e.get("seq", index + 1)
    if type(seq) is not int:
        _want(False, where, N_("seq must be a whole number, not {value!r}"), value=seq)
    facts = e.get("facts")
    if kind == "void":
        if facts is not None:
            _want(False, where, N_("a void has no facts (facts: null)"))
    elif not isinstance(facts, dict):
        _want(False, where, N_("a deal needs its facts (a JSON object)") if kind == "deal"
              else N_("an amend needs its facts (a JSON object)"))
    undoes = e.get("undoes")
    if undoes is not None:
        undoes = _uuid(undoes, f"{where}.undoes")
    deal_uuid = e.get("deal_uuid") if kind != "deal" else None
    if deal_uuid is not None:
        deal_uuid = _uuid(deal_uuid, f"{where}.deal_uuid")
    at = e.get("at")
    spec = EntrySpec(_uuid(e["uuid"], f"{where}.uuid"), kind, deal_no, facts,
                     None if at is None else _timestamp(at, f"{where}.at"), where,
                     undoes=undoes, deal_uuid=deal_uuid)
    return seq, spec


def _json_action(e: dict[str, Any], kind: str, where: str) -> EntrySpec:
    """A session's own action: its uuid, time and (for an undo) what it took back."""
    if kind == "seat":  # and its facts: ledger/formats/seat_io.py
        return seat_entry(e, where, _uuid, _timestamp)
    _want(e.get("facts") is None and e.get("deal") is None, where,
          N_("a session's {kind} entry has no deal and no facts"), kind=kind)
    undoes = e.get("undoes")
    _want(kind != "undo" or undoes is not None, where,
          N_("an undo entry names the entry it took back (undoes)"))
    _want(kind != "start" or undoes is None, where, N_("a start entry undoes nothing"))
    return EntrySpec(_uuid(e["uuid"], f"{where}.uuid"), kind, 0, None,
                     _timestamp(e.get("at"), f"{where}.at"), where,
                     undoes=None if undoes is None else _uuid(undoes, f"{where}.undoes"))


def _checked_facts(spec: SessionSpec, e: EntrySpec, members: set[str] | None,
                   table: SeatScores | None = None) -> EntrySpec:
    """Score the facts through the core; they are kept in the ledger's own form.  A deal
    that says who played it is scored over them (players of the session: seat_io.py).
    With ``table``, a deal keyed by seat like one scored before takes its score."""
    assert e.facts is not None
    players = spec.players
    if e.facts.get("players") is not None:
        players = deal_players(e, members, spec.players)
    key = None if table is None else table.key(e.facts)
    found = None if key is None or table is None else table.find(key)
    if found is not None:
        return e._replace(facts=found[0], points=found[1], facts_json=found[2] or to_json(found[0]))
    try:
        deal = deal_from_facts(e.facts, players, spec.rules)
        score = score_deal(spec.rules, players, deal, spec.teams)
    except InputError as exc:
        raise InputError(_("{where} (deal {deal}): {problem}").format(
            where=local(e.where), deal=e.deal_no, problem=exc)) from None
    except (TypeError, ValueError, AttributeError, KeyError, StopIteration) as exc:
        raise InputError(_("{where} (deal {deal}): facts are not valid ({reason})").format(
            where=local(e.where), deal=e.deal_no, reason=exc)) from None
    facts = deal.to_dict()
    points = point_tuples(book.points_rows(players, score))
    if key is not None and table is not None:
        table.keep(key, facts, points)
    return e._replace(facts=facts, points=points, facts_json=to_json(facts))


def import_json(ledger: Ledger, path: Path, origin: str,
                start_progress: Callable[[int, int], Progress | None] | None = None) -> ImportReport:
    """Read once, streamed, into one transaction: each session checked and scored through
    the pure core, its uuids through the gate a part at a time, then written (the bulk
    path for a session new to the ledger).  Any problem of the file, wherever it is, is
    one message of the gate and rolls everything back: nothing is written."""
    from ledger.formats.file_gate import FileActions
    from ledger.formats.pay_ids_io import check_pay_ids, import_pay_ids, read_pay_ids
    from ledger.formats.payments_io import check_payments, import_payments, read_payments
    from ledger.formats.sheet_import import line_count

    rest: dict[str, Any] = {}
    gate = Gate(ledger, origin, one_transaction=True)  # Importer(whole=True): one transaction
    found = FileActions()
    players: set[str] = set()
    after: dict[str, Any] = {}

    def stored(session_uuid: str, uuids: list[str]) -> dict[str, tuple[str, str]]:
        """The entries of a session the ledger held before this import (merged into)."""
        sid = ledger.bulk.session_id_by_uuid(session_uuid) if uuids else None
        if sid is None:  # (the file gives a session once: not one this import wrote)
            return {}
        return {u: (e.kind, e.facts) for u, e in ledger.bulk.entry_texts(uuids).items()
                if e.session_id == sid and e.facts is not None}

    def sessions() -> Iterator[tuple[SessionSpec, list[EntrySpec]]]:
        read = json_sessions(path, origin, (set(), set()), rest, gate,
                             None if ledger.bulk.entry_count() == 0 else stored, SharedScores())
        for spec, checked in found.parts(ledger, gate, read):
            players.update(spec.players)
            yield spec, checked
        # The file is read: what follows its sessions, inside the same transaction.
        payments = read_payments(rest.get("payments"), origin, gate)
        claims = check_payments(ledger, payments, found.sessions, gate)
        found.check(ledger, gate, claims)
        gate.close()  # every problem of the file, one message each; all rolled back
        pay_ids = read_pay_ids(rest.get("pay_ids"), origin)
        check_pay_ids(ledger, pay_ids, players)
        after["payments"], after["pay_ids"] = payments, pay_ids

    report = ImportReport(origin, "json")
    lines = line_count(path)  # an export holds one entry a line: as many entries at most
    bar = start_progress(1, lines) if start_progress else None  # a bar for a long file only
    moved = [0]

    def progress(entries: int) -> None:
        moved[0] += entries
        if bar is not None:
            bar(entries)

    report = Importer(ledger, report, progress, expected=lines, whole=True).run(sessions())
    if bar is not None and moved[0] < lines:
        bar(lines - moved[0])  # the bar counted lines: it ends full
    payments, pay_ids = after["payments"], after["pay_ids"]
    if payments and not report.conflicts:
        report.payments_added, report.payments_present = import_payments(ledger, payments)
    if pay_ids and not report.conflicts:
        report.pay_ids_added, report.pay_ids_present = import_pay_ids(ledger, pay_ids)
    return report


def import_file(ledger: Ledger, path: Path, fmt: str | None = None,
                start_progress: Callable[[int, int], Progress | None] | None = None,
                fry: int | None = None) -> ImportReport:
    """Import a JSON export or a score sheet; conflicts are in the report (the rest is written)."""
    origin = path.name
    try:
        check_importable(path)
        kind = fmt or detect_format(path)
        if kind == "json":
            if fry is not None:
                check_fry(path, kind, fry)
            return import_json(ledger, path, origin, start_progress)
        return import_sheet(ledger, path, origin, start_progress, fry)
    except OSError as exc:
        raise InputError(_("cannot read {path}: {reason}").format(
            path=path, reason=os_reason(exc))) from None
