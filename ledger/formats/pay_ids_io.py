"""Pay ids in a JSON export (``"pay_ids"``, written only by ``export --with-pay-ids``)
and back in by uuid.

Importing merges by uuid, as payments do (:mod:`ledger.formats.payments_io`): a row
already in the ledger is left as it is, the same uuid with other facts is refused
before anything is written, every id is checked for its scheme as if typed, and a
row's player (by name) must be in the ledger or the file's sessions.
"""

from __future__ import annotations

import uuid as uuidlib
from collections.abc import Sequence
from typing import Any, NamedTuple

from ledger.core.errors import InputError, NotFound
from ledger.core.i18n import N_, _
from ledger.core.paycode import SCHEMES, check_pay_id
from ledger.formats.json_reader import at
from ledger.storage.store import Ledger


class PayIdSpec(NamedTuple):
    where: str
    uuid: str
    at: str
    kind: str  # set or remove
    player: str
    scheme: str
    value: str | None  # the written form; None for a remove


def _fail(where: str, problem: str, **values: Any) -> InputError:
    return InputError(at(where, _(problem).format(**values)))


def read_pay_ids(raw: object, origin: str) -> list[PayIdSpec]:
    """The ``"pay_ids"`` list of an export, checked row by row (nothing written)."""
    if raw is None:
        return []
    if not isinstance(raw, list):
        raise _fail(origin, N_("pay_ids must be a list"))
    specs: list[PayIdSpec] = []
    seen: set[str] = set()
    for i, obj in enumerate(raw):
        where = f"{origin}: pay_ids[{i}]"
        if not isinstance(obj, dict):
            raise _fail(where, N_("must be a JSON object"))
        try:
            uuid = str(uuidlib.UUID(str(obj.get("uuid"))))
        except ValueError:
            raise _fail(where, N_("{value!r} is not a uuid"), value=obj.get("uuid")) from None
        if uuid in seen:
            raise _fail(where, N_("pay id {uuid} appears twice in the file"), uuid=uuid)
        seen.add(uuid)
        stamp, kind, player, scheme = (obj.get(k) for k in ("at", "kind", "player", "scheme"))
        for key, value in (("at", stamp), ("player", player)):
            if not isinstance(value, str) or not value:
                raise _fail(where, N_("{key} must be text, not {value!r}"), key=key, value=value)
        if kind not in ("set", "remove"):
            raise _fail(where, N_("kind must be set or remove, not {value!r}"), value=kind)
        if scheme not in SCHEMES:
            raise _fail(where, N_("scheme must be one of {schemes}, not {value!r}"),
                        schemes=", ".join(SCHEMES), value=scheme)
        value = None
        if kind == "set":
            try:
                value = check_pay_id(scheme, str(obj.get("id", ""))).value
            except InputError as exc:
                raise InputError(at(where, str(exc))) from None
        specs.append(PayIdSpec(where, uuid, str(stamp), kind, str(player), scheme, value))
    return specs


def check_pay_ids(ledger: Ledger, specs: Sequence[PayIdSpec], file_players: set[str]) -> None:
    """Refuse, before anything is written, a row whose uuid the ledger holds with other
    facts, or one whose player is in neither the ledger nor the file."""
    from ledger.book.keys import refuse_held

    for spec in specs:
        refuse_held(ledger, spec.uuid, "pay_ids")  # a uuid another kind of action holds
        found = ledger.pay_ids.by_uuid(spec.uuid)
        if found is not None and (found.kind, found.scheme, found.value) != (
                spec.kind, spec.scheme, spec.value):
            raise _fail(spec.where, N_("pay id {uuid} is in the ledger with other facts; "
                                       "nothing was imported"), uuid=spec.uuid)
        if spec.player in file_players:
            continue
        try:
            ledger.player_id(spec.player)
        except NotFound:
            raise _fail(spec.where, N_("is for player {name}, who is neither in the file nor "
                                       "in the ledger"), name=repr(spec.player)) from None


def import_pay_ids(ledger: Ledger, specs: Sequence[PayIdSpec]) -> tuple[int, int]:
    """Write the rows the ledger does not hold (one transaction); (added, present)."""
    added = present = 0
    if not specs:
        return 0, 0
    with ledger.writing():
        for spec in specs:
            if ledger.pay_ids.by_uuid(spec.uuid) is not None:
                present += 1
                continue
            ledger.pay_ids.add(spec.kind, ledger.player_id(spec.player), spec.scheme,
                               spec.value, spec.uuid, spec.at)
            added += 1
    return added, present
