"""``bigtwo player pay-id``: each player's ways to be paid, and the payment codes of a
settlement's fewest payments.

A pay id is checked for its scheme in the pure core (:mod:`ledger.core.paycode`) and
kept append-only (ledger/storage/pay_ids.py): setting a scheme's id again replaces it,
removing it appends a row.  Pay ids are personal data: they go into the scorekeeper's
own settlement (``settle --json``, the keeper's ``settle`` op), never into a share
text or picture, a viewer's answer or an export without ``--with-pay-ids``.
"""

from __future__ import annotations

from decimal import Decimal
from typing import TYPE_CHECKING, Any, NamedTuple

from ledger.core.errors import InputError, KeyReused, NotFound
from ledger.core.i18n import _
from ledger.core.paycode import SCHEMES, PayCode, PayId, check_pay_id, choose, pay_code

if TYPE_CHECKING:
    from ledger.book.reports import Settlement
    from ledger.storage.store import Ledger


class PlayerPay(NamedTuple):
    """One player as ``player list`` shows it: its name and its pay ids."""

    name: str
    pay_ids: list[PayId]

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "pay_ids": [
            {"scheme": p.scheme, "kind": p.kind, "id": p.value} for p in self.pay_ids]}


class PayIdChange(NamedTuple):
    player: str
    scheme: str
    pay_id: PayId | None  # None: removed
    replaced: bool  # the scheme had an id before


def _scheme(text: str) -> str:
    scheme = text.strip().lower()
    if scheme not in SCHEMES:
        raise InputError(_("unknown payment scheme {scheme}; choose from {schemes}").format(
            scheme=repr(text), schemes=", ".join(SCHEMES)))
    return scheme


def set_pay_id(ledger: Ledger, player: str, scheme: str, typed: str,
               uuid: str | None = None) -> PayIdChange:
    """Give ``player`` the pay id ``typed`` in ``scheme`` (replacing the scheme's old
    one).  A repeat with the same ``uuid`` writes nothing; the same uuid for another
    pay id is refused."""
    from ledger.book.keys import refuse_held
    from ledger.book.players import find

    pay_id = check_pay_id(_scheme(scheme), typed)
    with ledger.writing():
        found = find(ledger, player)
        shown = ledger.players.names()[found.canon_id].name
        refuse_held(ledger, uuid, "pay_ids")  # one uuid, one action, whatever its kind
        if uuid is not None and (done := ledger.pay_ids.by_uuid(uuid)) is not None:
            if (done.kind, done.scheme, done.value) != ("set", pay_id.scheme, pay_id.value):
                raise KeyReused(_("the key {key} was used for another action").format(key=uuid))
            return PayIdChange(shown, pay_id.scheme, pay_id, False)
        before = dict(ledger.pay_ids.current().get(shown, []))
        if before.get(pay_id.scheme) == pay_id.value:
            return PayIdChange(shown, pay_id.scheme, pay_id, False)
        ledger.pay_ids.add("set", found.canon_id, pay_id.scheme, pay_id.value, uuid)
        ledger.audit("player.pay_id", {"player": found.canon_id, "scheme": pay_id.scheme})
    return PayIdChange(shown, pay_id.scheme, pay_id, pay_id.scheme in before)


def remove_pay_id(ledger: Ledger, player: str, scheme: str,
                  uuid: str | None = None) -> PayIdChange:
    """Take ``player``'s pay id in ``scheme`` away (a NotFound if there is none)."""
    from ledger.book.keys import refuse_held
    from ledger.book.players import find

    scheme = _scheme(scheme)
    with ledger.writing():
        found = find(ledger, player)
        shown = ledger.players.names()[found.canon_id].name
        refuse_held(ledger, uuid, "pay_ids")
        if uuid is not None and (done := ledger.pay_ids.by_uuid(uuid)) is not None:
            if (done.kind, done.scheme) != ("remove", scheme):
                raise KeyReused(_("the key {key} was used for another action").format(key=uuid))
            return PayIdChange(shown, scheme, None, True)
        if scheme not in dict(ledger.pay_ids.current().get(shown, [])):
            raise NotFound(_("{player} has no {scheme} pay id").format(
                player=shown, scheme=scheme))
        ledger.pay_ids.add("remove", found.canon_id, scheme, None, uuid)
        ledger.audit("player.pay_id", {"player": found.canon_id, "scheme": scheme,
                                       "removed": True})
    return PayIdChange(shown, scheme, None, True)


def pay_ids(ledger: Ledger) -> dict[str, list[PayId]]:
    """Each player's pay ids now, by the name shown (ids that no longer pass their
    scheme's check, say from an older import, left out)."""
    out: dict[str, list[PayId]] = {}
    for name, found in ledger.pay_ids.current().items():
        for scheme, value in found:
            try:
                out.setdefault(name, []).append(check_pay_id(scheme, value))
            except InputError:
                continue
    return out


def player_list(ledger: Ledger) -> list[PlayerPay]:
    """Every player as counted now (merged names under the one they count as), by
    name, each with its pay ids."""
    from ledger.core.text import name_key

    ids = pay_ids(ledger)
    names = {p.name for p in ledger.players.names().values()}
    return [PlayerPay(n, ids.get(n, [])) for n in sorted(names, key=name_key)]


def pay_codes(st: Settlement, ids: dict[str, list[PayId]],
              outstanding: list[Decimal]) -> list[PayCode | None]:
    """For each of the settlement's fewest payments, the code that pays what is
    outstanding of it (``outstanding``, in the payments' order and the coins the
    settlement rounded to) to its payee, when the payee has a pay id that fits the
    currency (:func:`ledger.core.paycode.choose`)."""
    out: list[PayCode | None] = []
    for p, left in zip(st.payments, outstanding, strict=True):
        chosen = choose(ids.get(p.payee, []), st.currency)
        out.append(None if chosen is None else pay_code(chosen, left, st.currency, p.payee))
    return out
