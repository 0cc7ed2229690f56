"""Payments in a JSON export (``"payments"``, beside ``"sessions"``) and back in by uuid.

An export of every session carries every payment row (payments and their undos, in the
one order: created_at, then uuid).  An export of some sessions carries the payments
for those sessions, and with a range of dates also the payments against the whole
balance dated in it.  Importing merges by uuid: a row already in the ledger is left as
it is, the same uuid with other facts is refused before anything is written, and a
payment's session (by uuid) and players (by name) must be in the ledger or the file.
"""

from __future__ import annotations

import uuid as uuidlib
from collections.abc import Callable, Sequence
from decimal import Decimal, InvalidOperation
from typing import Any, NamedTuple

from ledger.book.gate import Claim, Gate, PaySession, check_at, check_payment
from ledger.book.scope import Range
from ledger.core.errors import InputError
from ledger.core.i18n import N_, _
from ledger.core.settlement import format_amount, parse_currency, quantum
from ledger.formats.json_reader import at
from ledger.storage.payments import PaymentRow, payment_dict
from ledger.storage.rows import SessionRow
from ledger.storage.store import Ledger


class PaymentSpec(NamedTuple):
    where: str
    uuid: str
    at: str
    kind: str
    payer: str | None = None
    payee: str | None = None
    amount: str | None = None
    currency: str | None = None
    session: str | None = None  # uuid
    note: str | None = None
    undoes: str | None = None


def exported_rows(ledger: Ledger, sessions: Sequence[SessionRow], everything: bool,
                  within: Range | None = None) -> list[PaymentRow]:
    from ledger.book.clock import local_day

    rows = ledger.payments.rows()
    if everything:
        return rows
    ids = {s.id for s in sessions}
    taken = {r.uuid for r in rows if r.kind == "payment" and (
        r.session_id in ids or (r.session_id is None and within is not None and bool(within)
                                and within.holds(local_day(r.created_at))))}
    return [r for r in rows if r.uuid in taken or (r.kind == "undo" and r.undoes in taken)]


def payments_json(rows: Sequence[PaymentRow]) -> list[dict[str, Any]]:
    return without_harmless([payment_dict(r) for r in rows])


def without_harmless(rows: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """Rows of an export without the payments the gate refuses that an undo took back
    (and their undos): an older version let them in, and taken back they count for
    nothing, so an export, a backup and a restore carry on without them."""
    undone = {r.get("undoes") for r in rows if r.get("kind") == "undo"}
    harmless = {r.get("uuid") for r in rows if r.get("kind") == "payment"
                and r.get("uuid") in undone and _damage(r) is not None}
    return [r for r in rows if r.get("uuid") not in harmless
            and not (r.get("kind") == "undo" and r.get("undoes") in harmless)]


def _damage(row: dict[str, Any]) -> str | None:
    from ledger.book.gate import payment_damage

    return payment_damage(row.get("from"), row.get("to"), row.get("amount"), row.get("currency"),
                          None, str(row.get("at")), row.get("note"))


def _fail(where: str, problem: str, **values: Any) -> InputError:
    return InputError(at(where, _(problem).format(**values)))


def _text(obj: dict[str, Any], key: str, where: str, optional: bool = False) -> str | None:
    value = obj.get(key)
    if value is None and optional:
        return None
    if not isinstance(value, str) or not value:
        raise _fail(where, N_("{key} must be text, not {value!r}"), key=key, value=value)
    return value


def _uuid(value: object, where: str) -> str:
    try:
        return str(uuidlib.UUID(str(value)))
    except ValueError:
        raise _fail(where, N_("{value!r} is not a uuid"), value=value) from None


def read_payments(raw: object, origin: str, gate: Gate) -> list[PaymentSpec]:
    """The ``"payments"`` list of an export, read row by row (nothing written); a row
    that is not a payment's shape is the gate's problem, and the others are read on."""
    if raw is None:
        return []
    if not isinstance(raw, list):
        gate.refused(_fail(origin, N_("payments must be a list")))
        return []
    specs: list[PaymentSpec] = []
    seen: set[str] = set()
    for i, obj in enumerate(raw):
        where = f"{origin}: payments[{i}]"
        try:
            spec = _read_payment(obj, where)
        except InputError as exc:
            gate.refused(exc)
            continue
        if spec.uuid in seen:
            gate.refused(_fail(where, N_("payment {uuid} appears twice in the file"),
                               uuid=spec.uuid))
            continue
        seen.add(spec.uuid)
        specs.append(spec)
    return specs


def _read_payment(obj: object, where: str) -> PaymentSpec:
    if not isinstance(obj, dict):
        raise _fail(where, N_("must be a JSON object"))
    uuid = _uuid(obj.get("uuid"), where)
    stamp = _text(obj, "at", where)
    assert stamp is not None
    kind = obj.get("kind")
    if kind == "undo":
        return PaymentSpec(where, uuid, stamp, "undo", undoes=_uuid(obj.get("undoes"), where))
    if kind != "payment":
        raise _fail(where, N_("kind must be payment or undo, not {value!r}"), value=kind)
    currency = parse_currency(_text(obj, "currency", where) or "")
    amount = _text(obj, "amount", where) or ""
    try:
        value = Decimal(amount)
        if not value.is_finite() or value <= 0:
            raise InvalidOperation
    except InvalidOperation:
        raise _fail(where, N_("amount must be a positive decimal, not {value!r}"),
                    value=amount) from None
    session = obj.get("session")
    return PaymentSpec(
        where, uuid, stamp, "payment", _text(obj, "from", where), _text(obj, "to", where),
        amount, currency, None if session is None else _uuid(session, where),
        _text(obj, "note", where, optional=True))


def _same(row: PaymentRow, spec: PaymentSpec) -> bool:
    if row.kind != spec.kind:
        return False
    if spec.kind == "undo":
        return row.undoes == spec.undoes
    return ((row.payer, row.payee, row.currency, row.session_uuid, row.note)
            == (spec.payer, spec.payee, spec.currency, spec.session, spec.note)
            and Decimal(row.amount or "0") == Decimal(spec.amount or "0"))


def check_payments(ledger: Ledger, specs: Sequence[PaymentSpec],
                   file_sessions: dict[str, PaySession], gate: Gate) -> list[Claim]:
    """Every row through the gate (:mod:`ledger.book.gate`), as ``bigtwo paid`` checks
    it: players who sat in the session, its currency, the amount's range and places, a
    time in the ledger's range; an undo of a payment of the file or the ledger, once.
    A row the ledger holds with other facts is refused; one it holds as it is, left
    alone.  Problems go to ``gate``; the uuids the rows take are returned, for its key
    check."""
    in_file = {s.uuid: s for s in specs}
    undone: dict[str, str] = {}
    claims: list[Claim] = []
    known_names = {n for s in file_sessions.values() for n in s.seats}

    def now(name: str | None) -> str:
        return ledger.find_player(name or "") or name or ""

    for spec in specs:
        found = ledger.payments.by_uuid(spec.uuid)
        if found is not None:
            if not _same(found, spec):
                gate.refuse(spec.where, _("payment {uuid} is in the ledger with other facts; "
                                          "nothing was imported").format(uuid=spec.uuid))
            continue  # the ledger's own row, as it is
        claims.append(Claim(spec.uuid, "payments", spec.where))
        try:
            _check_row(ledger, spec, in_file, undone, file_sessions, known_names, now)
        except InputError as exc:
            gate.refuse(spec.where, str(exc))
    return claims


def _check_row(ledger: Ledger, spec: PaymentSpec, in_file: dict[str, PaymentSpec],
               undone: dict[str, str], file_sessions: dict[str, PaySession],
               known_names: set[str], now: Callable[[str | None], str]) -> None:
    check_at(spec.at)
    if spec.kind == "undo":
        target = in_file.get(spec.undoes or "")
        stored = None if target is not None else ledger.payments.by_uuid(spec.undoes or "")
        kind = target.kind if target is not None else (stored.kind if stored else None)
        if kind is None:
            raise InputError(_("takes back payment {uuid}, which is neither in the file nor "
                               "in the ledger").format(uuid=spec.undoes))
        if kind != "payment":
            raise InputError(_("takes back {uuid}, which is an undo, not a payment").format(
                uuid=spec.undoes))
        earlier = undone.setdefault(spec.undoes or "", spec.uuid)
        taken = ledger.payments.undo_of(spec.undoes or "")
        if earlier != spec.uuid or (taken is not None and taken.uuid != spec.uuid):
            raise InputError(_("takes back payment {uuid}, which another undo took back "
                               "already").format(uuid=spec.undoes))
        return
    session: PaySession | None = None
    if spec.session is not None:
        session = file_sessions.get(spec.session)
        if session is None:
            row = ledger.journal.session_by_uuid(spec.session)
            if row is None:
                raise InputError(_("is for session {uuid}, which is neither in the file nor "
                                   "in the ledger").format(uuid=spec.session))
            session = PaySession(str(row.id), tuple(row.seats), row.currency or "PTS")
        session = session._replace(seats=tuple(now(n) for n in session.seats))
    for name in (spec.payer, spec.payee):
        if ledger.find_player(name or "") is None and name not in known_names:
            raise InputError(_("no player named {name} in the file or the ledger").format(
                name=name))
    check_payment(now(spec.payer), now(spec.payee), spec.amount or "", spec.currency, session,
                  spec.at, spec.note)


def _kept(spec: PaymentSpec) -> str:
    """The amount as ``bigtwo paid`` keeps it (10 HKD as 10.00), once the gate passed it."""
    value = Decimal(spec.amount or "0")
    q = quantum(spec.currency)
    return format_amount(value if q is None else value.quantize(q))


def import_payments(ledger: Ledger, specs: Sequence[PaymentSpec]) -> tuple[int, int]:
    """Write the rows the ledger does not hold (one transaction); (added, present)."""
    added = present = 0
    if not specs:
        return 0, 0
    with ledger.writing():
        ids = ledger.journal.shown_ids()
        for spec in sorted(specs, key=lambda s: (s.at, s.uuid)):  # a payment before its undo
            if ledger.payments.by_uuid(spec.uuid) is not None:
                present += 1
                continue
            if spec.kind == "undo":
                ledger.payments.add_undo(spec.undoes or "", spec.uuid, spec.at)
            else:
                names = [ledger.player_name(n or "") for n in (spec.payer, spec.payee)]
                row = ledger.conn.execute("SELECT id FROM sessions WHERE uuid = ?",
                                          (spec.session,)).fetchone() if spec.session else None
                ledger.payments.add(ids[names[0]], ids[names[1]], _kept(spec),
                                    spec.currency or "PTS", row[0] if row else None, spec.note,
                                    spec.uuid, spec.at)
            added += 1
    return added, present
