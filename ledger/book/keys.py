"""Idempotent writes: every write action takes the uuid of the entry it writes.

The uuid is made where the action was taken (the phone, a terminal), so an action sent
twice (a retry after a lost answer, a sync) is written once: a repeat with the same uuid
writes nothing and the action returns what the entry already there says; the same uuid
with other facts is refused with :class:`~ledger.core.errors.KeyReused`.  These checks
run inside the action's write transaction, before anything else is checked (a deal
recorded before the session ended is still that deal when its retry comes after).
"""

from __future__ import annotations

import uuid as uuidlib
from typing import Any

from ledger.core.errors import InputError, KeyReused
from ledger.core.i18n import N_, _
from ledger.core.rules import RuleSet, rules_from_dict
from ledger.storage.rows import EntryRow, SessionRow
from ledger.storage.store import Ledger


def checked(key: str | None) -> str | None:
    """A key as stored (a uuid's canonical text); a key that is no uuid is refused."""
    if key is None:
        return None
    try:
        return str(uuidlib.UUID(str(key)))
    except ValueError:
        raise InputError(_("{key!r} is not a uuid: an action's key is a uuid made where it "
                           "was taken").format(key=key)) from None


def reused(key: str, what: str) -> KeyReused:
    return KeyReused(_("the key {key} was used already, for {what}; a new action needs a "
                       "new key").format(key=key, what=what))


# What each table's rows are, as a refusal names them; a table not listed (a later
# migration's) is named by its own name: it is still one key, one action.
TABLE_WORDS = {"entries": N_("an entry"), "sessions": N_("a session"),
               "payments": N_("a payment"), "seasons": N_("a season"),
               "player_events": N_("a rename or merge of a player"),
               "imports": N_("an import"), "pay_ids": N_("a pay id")}


def table_word(table: str) -> str:
    word = TABLE_WORDS.get(table)
    return table if word is None else _(word)


def refuse_held(ledger: Ledger, key: str | None, own: str) -> None:
    """:class:`KeyReused` when a table other than ``own`` holds ``key`` (one uuid, one
    action: across every table that has uuids, :mod:`ledger.storage.keyed`)."""
    if key is None:
        return
    holder = ledger.keys.holder(key)
    if holder is not None and holder != own:
        found = ledger.journal.entry_by_uuid(key) if holder == "entries" else None
        raise reused(key, _what(found) if found is not None else table_word(holder))


def _what(entry: EntryRow) -> str:
    if entry.is_deal:
        return _("entry {kind} of deal {deal} in session {id}").format(
            kind=entry.kind, deal=entry.deal_no, id=entry.session_id)
    return _("entry {kind} of session {id}").format(kind=entry.kind, id=entry.session_id)


def entry_named(ledger: Ledger, key: str) -> EntryRow | None:
    """The entry ``key`` names (None: no entry has it); a key a payment took already is
    refused, since one key names one action, whichever table holds it."""
    found = ledger.journal.entry_by_uuid(key)
    if found is None:
        refuse_held(ledger, key, "entries")
    return found


def refuse_taken(ledger: Ledger, key: str | None) -> None:
    """:class:`KeyReused` when any table (entries, sessions, payments, seasons, player
    events, imports) has this key already."""
    refuse_held(ledger, key, "")


def repeated_entry(ledger: Ledger, key: str | None, session: SessionRow, kind: str,
                   deal_no: int | None, facts: dict[str, Any] | None,
                   own_players: bool = False) -> EntryRow | None:
    """The deal entry a repeat of ``key`` names (None: the key is new); ``deal_no``
    None for a new deal, whatever number it got.  ``own_players``: the deal as sent
    leaves who played to the ledger, which wrote it (the seats may have changed since)."""
    if key is None:
        return None
    found = entry_named(ledger, key)
    if found is None:
        return None
    stored = found.facts
    if own_players and stored is not None and "players" in stored:
        stored = {k: v for k, v in stored.items() if k != "players"}
    same = (found.session_id == session.id and found.kind == kind and found.undoes is None
            and (deal_no is None or found.deal_no == deal_no) and stored == facts)
    if not same:
        raise reused(key, _what(found))
    return found


def repeated_action(ledger: Ledger, key: str | None, session: SessionRow, kind: str) -> bool:
    """Whether ``key`` names the session's ``kind`` action already written."""
    if key is None:
        return False
    found = entry_named(ledger, key)
    if found is None:
        return False
    if found.session_id != session.id or found.kind != kind or found.undoes is not None:
        raise reused(key, _what(found))
    return True


def repeated_start(ledger: Ledger, session_uuid: str, start_uuid: str | None,
                   seats: list[str], rules: RuleSet, stake: str, currency: str, name: str,
                   teams: bool) -> SessionRow | None:
    """The session a repeated start names (None: the session uuid is new)."""
    from decimal import Decimal

    found = ledger.journal.session_by_uuid(session_uuid)
    if found is None:
        if ledger.bulk.session_id_by_uuid(session_uuid) is not None:
            raise reused(session_uuid, _("a session whose start was undone"))
        refuse_held(ledger, session_uuid, "sessions")  # a deal's key is no session's
        return None
    same = (
        [ledger.find_player(n) or n for n in seats] == list(found.seats)
        and rules_from_dict(found.rules).to_dict() == rules.to_dict()
        and Decimal(found.stake) == Decimal(stake) and found.currency == currency
        and found.name == name and found.teams == teams
        and (start_uuid is None or start_uuid == found.start_uuid))
    if not same:
        raise reused(session_uuid, _("session {id}").format(id=found.id))
    return found
