"""The gate: the one set of checks an action passes, however it enters the ledger.

An action comes from the command line, the phone or the hub (``ledger.engine``), a
sync (``POST /api/import``), an import of a file or a restore; each of them calls the
checks here before it writes, so the same payment, correction or key is refused
everywhere with the same sentence:

- **a payment** (:func:`check_payment`): two players, not one; both sat in the
  session it is for; the session's currency; an amount above zero, at most
  :data:`MAX_AMOUNT`, no finer than the currency's smallest unit; a time in the
  ledger's range (1970 to 8999, :mod:`ledger.core.times`); a note of at most
  :data:`MAX_NOTE` characters;
- **a season** (:func:`check_season`): a clean name, dates in the ledger's range, the
  first not after the last;
- **a correction** (:func:`check_correction`): the deal it names is a deal of its
  own session;
- **a seat change** (:func:`ledger.book.seats.seat_change`, through
  :func:`ledger.core.lineup.apply`): an open session not played in teams; a join of a
  player not seated, at most eight seated, and sitting out when the rules cannot deal one
  more; a leave, sit-out, back or swap of a seated player, two still playing; an order of
  every seated player once, ``--from-deal`` no later than the next deal.  One that enters
  by an import or a sync (:func:`ledger.book.seats.check_seat`) names players of its
  session only, and is replayed leniently (one that no longer fits changes nothing);
- **a key** (:meth:`Gate.check_keys` for a batch, :func:`ledger.book.keys.refuse_held`
  for one action): one uuid names one action across every table that holds uuids
  (entries, sessions, payments, seasons, player events, imports), read from the
  schema by :mod:`ledger.storage.keyed`, so a table a later migration adds is covered.
  (A score sheet's sessions and games take uuid5s in a namespace of their own, made
  from the sheet's text: no file can choose one that names another action.)

:data:`GATES` lists every kind of action with the checks it passes; a test fails
when the schema holds a table with uuids that it does not list.

A bulk import checks in bulk: :class:`Gate` collects every problem of a file (one
message each, naming the file's line or entry) and refuses the whole file with
:class:`~ledger.core.errors.Problems`; keys are looked up a chunk at a time.  The
self-check (``bigtwo doctor``) runs the same payment checks over what the ledger
holds already (:func:`payment_damage`), so a value an older version let in is named.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date
from decimal import Decimal
from typing import NamedTuple

from ledger.core.errors import InputError, Problems
from ledger.core.i18n import N_, _
from ledger.core.settlement import MAX_STAKE, parse_currency, plain_decimal, quantum
from ledger.core.text import clean_name, clean_text
from ledger.core.times import check_time
from ledger.storage.store import Ledger

# Every kind of action, by the table its rows are written to, and the checks it passes
# (dotted paths, resolved by tests/reliability/test_gate.py).  A table with uuids that a
# later migration adds is a new kind of action: the test fails until it is listed here
# with its checks, and until backup and restore carry it.
GATES: dict[str, tuple[str, ...]] = {
    "sessions": ("ledger.book.actions.check_player_names", "ledger.book.actions.check_session",
                 "ledger.formats.exchange.check_session"),
    "entries": ("ledger.formats.exchange.check_entry", "ledger.book.gate.check_correction",
                "ledger.book.keys.repeated_entry", "ledger.book.keys.repeated_action",
                "ledger.book.seats.seat_change", "ledger.book.seats.check_seat_session",
                "ledger.book.seats.check_seat", "ledger.core.lineup.apply"),
    "payments": ("ledger.book.gate.check_payment", "ledger.formats.payments_io.check_payments"),
    "seasons": ("ledger.book.gate.check_season",),
    "player_events": ("ledger.book.players.rename", "ledger.book.players.merge"),
    "imports": ("ledger.formats.keyed_import.import_keyed",),
    "pay_ids": ("ledger.core.paycode.check_pay_id", "ledger.book.pay_ids.set_pay_id",
                "ledger.formats.pay_ids_io.check_pay_ids"),
}
"""Each kind's keys pass :meth:`Gate.check_keys` / :func:`ledger.book.keys.refuse_held`."""

MAX_NOTE = 200
MAX_AMOUNT = MAX_STAKE * 1000


class PaySession(NamedTuple):
    """What a payment for a session is checked against: the session's seats and money."""

    label: str  # its number in the ledger, or its uuid in a file
    seats: tuple[str, ...]
    currency: str  # PTS for points


class CheckedPayment(NamedTuple):
    amount: Decimal
    currency: str
    note: str | None


def parse_amount(text: str, currency: str) -> Decimal:
    """A payment's amount: positive, at most :data:`MAX_AMOUNT`, no finer than the
    currency's smallest unit (kept with its places: 10 HKD is 10.00)."""
    bad = _("bad amount {text!r}: an amount paid is a positive number such as 20 or 12.50")
    amount = plain_decimal(text, bad)
    if amount <= 0 or amount > MAX_AMOUNT:
        raise InputError(bad.format(text=text))
    q = quantum(currency)
    places = -q.as_tuple().exponent if q is not None else 6  # type: ignore[operator]
    if -amount.as_tuple().exponent > places:  # type: ignore[operator]
        raise InputError(_("bad amount {text!r}: {currency} has {places} decimal places").format(
            text=text, currency=currency, places=places))
    return amount if q is None else amount.quantize(q)


def check_at(stamp: object) -> str:
    """A stored time from outside (a file, a backup): ISO 8601, in the ledger's range."""
    if not isinstance(stamp, str):
        raise InputError(_("at must be a date and time text, not {value!r}").format(value=stamp))
    try:
        return check_time(stamp, "at")
    except (ValueError, OverflowError):
        raise InputError(_("at: {value!r} is not an ISO date and time").format(
            value=stamp)) from None


def check_payment(payer: str, payee: str, amount: str, currency: str | None,
                  session: PaySession | None, at: object = None,
                  note: str | None = None) -> CheckedPayment:
    """A payment as every entry point checks it (names as the ledger shows them);
    ``currency`` None: the session's.  :class:`InputError` says the first problem."""
    if payer == payee:
        raise InputError(_("{payer} cannot pay {payee}: the same player").format(
            payer=payer, payee=payee))
    code = parse_currency(currency) if currency is not None else None
    if session is not None:
        missing = [n for n in (payer, payee) if n not in session.seats]
        if missing:
            raise InputError(_("{name} did not play in session {id} ({players})").format(
                name=missing[0], id=session.label, players=", ".join(session.seats)))
        if code is not None and code != session.currency:
            raise InputError(_("session {id} is played in {own}, not {currency}").format(
                id=session.label, own=session.currency, currency=code))
        code = session.currency
    if code is None:
        raise InputError(_("a payment needs its currency"))
    value = parse_amount(amount, code)
    if at is not None:
        check_at(at)
    text = clean_text(note, N_("note"), MAX_NOTE) if note is not None else None
    return CheckedPayment(value, code, text or None)


def season_name(text: str) -> str:
    name = clean_name(text, N_("season name"))
    if name.startswith("-"):
        raise InputError(_("season name {name!r} cannot start with -").format(name=name))
    return name


def check_season(kind: str, name: str, since: str | None, until: str | None,
                 at: object = None) -> tuple[str, date | None, date | None]:
    """A season's row as every entry point checks it: ``add`` with at least one of its
    dates (YYYY-MM-DD, in the ledger's range, the first not after the last), or
    ``remove``; its name clean.  (name, first day, last day)."""
    from ledger.book.days import checked_range, parse_day
    from ledger.core.times import check_day

    if kind not in ("add", "remove"):
        raise InputError(_("a season's row is add or remove, not {value!r}").format(value=kind))
    name = season_name(name)
    if at is not None:
        check_at(at)
    first, last = parse_day(since, "--since"), parse_day(until, "--until")
    if kind == "remove":
        if first is not None or last is not None:
            raise InputError(_("a season's remove row has no dates"))
        return name, None, None
    if first is None and last is None:
        raise InputError(_("a season needs its dates: give --since DATE, --until DATE or both"))
    for day, option in ((first, "--since"), (last, "--until")):
        if day is not None:
            check_day(day, option)
    checked_range(first, last)
    return name, first, last


def check_correction(deal_session: str | None, own_session: str) -> None:
    """An amend or void names (``deal_uuid``) a deal of its own session; ``deal_session``
    is the session of the entry it names (None: an entry of no session)."""
    if deal_session != own_session:
        raise InputError(_("a correction names the deal of another session; it corrects a "
                           "deal of its own session only"))


class Claim(NamedTuple):
    """A uuid an incoming action takes, the table it is written to, and where it is."""

    uuid: str
    table: str
    where: str


class Gate:
    """The problems of a batch of actions (an import, a restore), one message each:
    :meth:`close` refuses the batch when there is any, before anything is written."""

    def __init__(self, ledger: Ledger, origin: str, one_transaction: bool = False) -> None:
        """``one_transaction``: the batch is checked and written inside one transaction
        (a JSON import), so when the ledger holds no uuid at its first :meth:`check_keys`,
        every uuid it holds later is one the batch claimed, compared in memory: none is
        looked up."""
        self.ledger = ledger
        self.origin = origin
        self.problems: list[str] = []
        # Every uuid the batch has claimed so far, with its first claim (check_keys).
        self.claimed: dict[str, Claim] = {}
        self.one_transaction = one_transaction
        self.started_empty: bool | None = None  # known at the first check_keys

    def refuse(self, where: str, problem: str) -> None:
        from ledger.core.phrase import local

        self.problems.append(_("{where}: {problem}").format(where=local(where), problem=problem))

    def refused(self, error: InputError) -> None:
        """A problem an earlier check raised (its message names where it is already)."""
        if isinstance(error, Problems):
            self.problems.extend(error.problems)
        else:
            self.problems.append(str(error))

    def check_keys(self, claims: Iterable[Claim]) -> None:
        """One uuid, one action: a uuid the batch gives two kinds of action, or one that
        another table of the ledger holds, is refused (looked up in bulk).

        A batch read and written a part at a time (a JSON import) calls this for each
        part before writing it: a uuid an earlier part claimed is compared with that
        claim (not looked up again: the ledger may hold it now, from that part)."""
        from ledger.book.keys import table_word

        first = self.claimed
        new: dict[str, Claim] = {}
        for claim in claims:
            other = first.setdefault(claim.uuid, claim)
            if other is claim:
                new[claim.uuid] = claim
            elif other.table != claim.table:
                self.refuse(claim.where, _("its uuid {uuid} names {what} too ({where}): one "
                                           "uuid names one action").format(
                    uuid=claim.uuid, what=table_word(other.table), where=other.where))
        if self.started_empty is None:
            self.started_empty = self.one_transaction and self.ledger.keys.none_held()
        held = {} if self.started_empty else self.ledger.keys.held_elsewhere(
            {u: c.table for u, c in new.items()})
        for uuid, table in held.items():
            claim = new[uuid]
            if table != claim.table:
                self.refuse(claim.where, _("its uuid {uuid} is {what} in the ledger already: "
                                           "one uuid names one action").format(
                    uuid=uuid, what=table_word(table)))

    def close(self) -> None:
        if self.problems:
            raise Problems(self.problems)


def payment_damage(payer: str | None, payee: str | None, amount: str | None,
                   currency: str | None, session: PaySession | None, at: str,
                   note: str | None) -> str | None:
    """What :func:`check_payment` refuses in a payment the ledger holds (written by an
    older version), or None."""
    try:
        check_payment(payer or "", payee or "", amount or "", currency, session, at, note)
    except InputError as exc:
        return str(exc)
    return None
