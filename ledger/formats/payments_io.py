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
from collections.abc import Sequence
from decimal import Decimal, InvalidOperation
from typing import Any, NamedTuple

from ledger.book.scope import Range
from ledger.core.errors import InputError
from ledger.core.i18n import N_, _
from ledger.core.settlement import format_amount, parse_currency
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
    return [payment_dict(r) for r in rows]


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


def read_payments(raw: object, origin: str) -> list[PaymentSpec]:
    """The ``"payments"`` list of an export, checked row by row (nothing written)."""
    if raw is None:
        return []
    if not isinstance(raw, list):
        raise _fail(origin, N_("payments must be a list"))
    specs: list[PaymentSpec] = []
    seen: set[str] = set()
    for i, obj in enumerate(raw):
        where = f"{origin}: payments[{i}]"
        if not isinstance(obj, dict):
            raise _fail(where, N_("must be a JSON object"))
        uuid = _uuid(obj.get("uuid"), where)
        if uuid in seen:
            raise _fail(where, N_("payment {uuid} appears twice in the file"), uuid=uuid)
        seen.add(uuid)
        stamp = _text(obj, "at", where)
        assert stamp is not None
        kind = obj.get("kind")
        if kind == "undo":
            specs.append(PaymentSpec(where, uuid, stamp, "undo",
                                     undoes=_uuid(obj.get("undoes"), where)))
            continue
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
        specs.append(PaymentSpec(
            where, uuid, stamp, "payment", _text(obj, "from", where), _text(obj, "to", where),
            format_amount(value), currency, None if session is None else _uuid(session, where),
            _text(obj, "note", where, optional=True)))
    return specs


def _same(row: PaymentRow, spec: PaymentSpec) -> bool:
    if row.kind != spec.kind:
        return False
    if spec.kind == "undo":
        return row.undoes == spec.undoes
    return ((row.payer, row.payee, row.currency, row.session_uuid, row.note)
            == (spec.payer, spec.payee, spec.currency, spec.session, spec.note)
            and Decimal(row.amount or "0") == Decimal(spec.amount or "0"))


def check_payments(ledger: Ledger, specs: Sequence[PaymentSpec], file_sessions: set[str]) -> None:
    """Refuse, before anything is written, a row whose uuid the ledger holds with other
    facts, or one whose session or payment is in neither the ledger nor the file."""
    in_file = {s.uuid for s in specs if s.kind == "payment"}
    for spec in specs:
        found = ledger.payments.by_uuid(spec.uuid)
        if found is not None and not _same(found, spec):
            raise _fail(spec.where, N_("payment {uuid} is in the ledger with other facts; "
                                       "nothing was imported"), uuid=spec.uuid)
        if spec.kind == "undo" and spec.undoes not in in_file and \
                ledger.payments.by_uuid(spec.undoes or "") is None:
            raise _fail(spec.where, N_("takes back payment {uuid}, which is neither in the file "
                                       "nor in the ledger"), uuid=spec.undoes)
        if spec.session is not None and spec.session not in file_sessions and \
                ledger.conn.execute("SELECT 1 FROM sessions WHERE uuid = ?",
                                    (spec.session,)).fetchone() is None:
            raise _fail(spec.where, N_("is for session {uuid}, which is neither in the file nor "
                                       "in the ledger"), uuid=spec.session)


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
                ledger.payments.add(ids[names[0]], ids[names[1]], spec.amount or "0",
                                    spec.currency or "PTS", row[0] if row else None, spec.note,
                                    spec.uuid, spec.at)
            added += 1
    return added, present
