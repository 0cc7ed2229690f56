"""Payments between players: ``bigtwo paid``, its undo, and the list (ledger/storage/payments.py).

A payment is written once, with the uuid made where it was taken (``entry_uuid``):
a repeat with the same uuid writes nothing and returns the payment already there; the
same uuid with other facts is :class:`~ledger.core.errors.KeyReused`.  A payment is
for one session (``--session ID``) or against the balance as a whole; what it does to
the balances is :mod:`ledger.book.owed`'s.  Amounts stay exact decimals: paying a
rounded amount leaves the exact remainder owed or credited.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any, NamedTuple

from ledger.book.gate import MAX_AMOUNT, MAX_NOTE, PaySession, check_payment, parse_amount
from ledger.book.keys import checked as checked_key
from ledger.book.keys import refuse_taken
from ledger.book.scope import Range
from ledger.core.errors import InputError, KeyReused, NotFound
from ledger.core.i18n import _
from ledger.core.settlement import format_amount
from ledger.storage.payments import PaymentRow
from ledger.storage.store import Ledger

UNDATED = "?"
__all__ = ["MAX_AMOUNT", "MAX_NOTE", "Paid", "parse_amount", "record_payment"]


class Paid(NamedTuple):
    """One payment as the reports see it."""

    uuid: str
    at: str  # created_at, UTC
    payer: str
    payee: str
    amount: Decimal
    currency: str
    session_id: int | None
    note: str | None

    @classmethod
    def of(cls, row: PaymentRow) -> Paid:
        assert row.payer and row.payee and row.amount and row.currency
        return cls(row.uuid, row.created_at, row.payer, row.payee, Decimal(row.amount),
                   row.currency, row.session_id, row.note)

    @property
    def day(self) -> str:
        """Its local date; ``?`` for a time the ledger cannot read (an older version let
        one in: ``bigtwo doctor`` names it, ``bigtwo payments undo`` takes it back)."""
        from ledger.book.clock import local_day

        try:
            return local_day(self.at)
        except (ValueError, OverflowError, TypeError):
            return UNDATED

    @property
    def dated(self) -> bool:
        return self.day != UNDATED

    def to_dict(self) -> dict[str, Any]:
        return {"uuid": self.uuid, "date": self.day, "at": self.at, "from": self.payer,
                "to": self.payee, "amount": format_amount(self.amount), "currency": self.currency,
                "session": self.session_id, "note": self.note}


def _currency_of(ledger: Ledger, payer: str, payee: str) -> str:
    """The one currency the two players have sessions in (else ``--currency`` is needed)."""
    found = sorted({s.currency or "PTS" for s in ledger.journal.sessions()
                    if payer in s.seats or payee in s.seats})
    if len(found) == 1:
        return found[0]
    if not found:
        raise InputError(_("{payer} and {payee} have no sessions: give --currency C").format(
            payer=payer, payee=payee))
    raise InputError(_("{payer} and {payee} have sessions in {currencies}: give --currency C")
                     .format(payer=payer, payee=payee, currencies=", ".join(found)))


def record_payment(ledger: Ledger, payer: str, payee: str, amount: str,
                   currency: str | None = None, session_id: int | None = None,
                   note: str | None = None, entry_uuid: str | None = None) -> Paid:
    """``bigtwo paid PAYER PAYEE AMOUNT``: append one payment (one transaction)."""
    from ledger.book.actions import current_session

    key = checked_key(entry_uuid)
    payer, payee = ledger.player_name(payer), ledger.player_name(payee)
    session = current_session(ledger, session_id) if session_id is not None else None
    own = None if session is None else PaySession(str(session.id), tuple(session.seats),
                                                  session.currency or "PTS")
    if own is None and currency is None and payer != payee:
        currency = _currency_of(ledger, payer, payee)
    checked = check_payment(payer, payee, amount, currency, own, note=note)  # the gate's
    code, value, text = checked.currency, checked.amount, checked.note
    ids = ledger.journal.shown_ids()
    with ledger.writing():
        if key is not None and (done := ledger.payments.by_uuid(key)) is not None:
            same = (done.kind == "payment" and (done.payer, done.payee, done.currency)
                    == (payer, payee, code) and Decimal(done.amount or "0") == value
                    and done.session_id == (session.id if session else None)
                    and done.note == (text or None))
            if not same:
                raise KeyReused(_("the key {key} was used already, for another payment; a new "
                                  "action needs a new key").format(key=key))
            return Paid.of(done)
        refuse_taken(ledger, key)  # one key, one action: not an entry's key either
        uuid = ledger.payments.add(ids[payer], ids[payee], format_amount(value), code,
                                   session.id if session else None, text or None, key)
        ledger.audit("payment.add", {"uuid": uuid, "from": payer, "to": payee,
                                     "amount": format_amount(value), "currency": code},
                     session.id if session else None)
    row = ledger.payments.by_uuid(uuid)
    assert row is not None
    return Paid.of(row)


def live_payments(ledger: Ledger, within: Range | None = None) -> list[Paid]:
    """The payments no undo took back, in the one order, by their own date in ``within``."""
    paid = [Paid.of(r) for r in ledger.payments.live()]
    if within:  # a payment whose time cannot be read is in no range of dates
        paid = [p for p in paid if p.dated and within.holds(p.day)]
    return paid


def find_payment(ledger: Ledger, text: str) -> Paid:
    """A live payment by its uuid or the start of it (at least 4 characters)."""
    text = text.strip().lower()
    found = [p for p in live_payments(ledger) if len(text) >= 4 and p.uuid.startswith(text)]
    if len(found) == 1:
        return found[0]
    if not found:
        raise NotFound(_("no payment {uuid} to take back").format(uuid=text),
                       advice=_("see: bigtwo payments"))
    raise InputError(_("{uuid} starts {count} payments' uuids: give more of it").format(
        uuid=text, count=len(found)))


def undo_payment(ledger: Ledger, uuid: str | None = None, entry_uuid: str | None = None) -> Paid:
    """Take back a payment (the latest when ``uuid`` is None) by appending an undo row."""
    key = checked_key(entry_uuid)
    with ledger.writing():
        if key is not None and (done := ledger.payments.by_uuid(key)) is not None:
            if done.kind != "undo" or (uuid is not None and not (done.undoes or "").startswith(
                    uuid.strip().lower())):
                raise KeyReused(_("the key {key} was used already, for another payment; a new "
                                  "action needs a new key").format(key=key))
            taken = ledger.payments.by_uuid(done.undoes or "")
            assert taken is not None
            return Paid.of(taken)
        refuse_taken(ledger, key)
        if uuid is None:
            live = live_payments(ledger)
            if not live:
                raise InputError(_("no payments to take back"))
            target = live[-1]
        else:
            target = find_payment(ledger, uuid)
        ledger.payments.add_undo(target.uuid, key)
        ledger.audit("payment.undo", {"undoes": target.uuid}, target.session_id)
    return target

